"""Names from the user's files are printed safely (issue 13, item 24 b): control characters,
escape sequences and bidirectional overrides become visible escapes on the terminal, and the
JSON report keeps the real names."""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import replace

import pytest

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.escapes import printable
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.report.evaluation import evaluation_report
from mtgui.report.significance import align_table, grid_text, interval_table
from mtgui.report.study_format import note_lines
from mtgui.report.summary import summarize

EVIL = "Evil\x1b[2J\x1b]0;owned\x07\r\u202etxt.exe\x9b31m\x7f"
UNSAFE = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cc"]
UNSAFE += ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"]
UNSAFE += [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


def _safe(text: str, keep: str = "") -> bool:
    return not any(character in text for character in UNSAFE if character not in keep)


@pytest.mark.parametrize("character", UNSAFE)
def test_every_control_and_bidi_character_is_escaped(character):
    shown = printable(f"a{character}b")
    assert _safe(shown)
    assert shown == f"a\\x{ord(character):02x}b" or shown == f"a\\u{ord(character):04x}b"


@pytest.mark.parametrize(
    "text",
    [
        "Lumen",
        "Übersetzung",
        "机器翻译",
        "ترجمة",
        "ne\u0301e",
        "می\u200cخواهم",
        "👩\u200d💻",
        "a\\x1b",
    ],
)
def test_ordinary_text_of_any_script_is_left_alone(text):
    assert printable(text) == text


def test_lines_may_keep_their_line_breaks():
    assert printable("one\ntwo\x1b", keep="\n") == "one\ntwo\\x1b"
    assert printable("one\ntwo") == "one\\x0atwo"


def test_escaping_twice_changes_nothing():
    once = printable(EVIL)
    assert printable(once) == once


@pytest.fixture(scope="module")
def evil() -> Corpus:
    demo = load_demo()
    corpus = demo.with_system_renamed(demo.systems[0].name, EVIL)
    origin = replace(corpus.systems[1].origin, path="/tmp/\x1b[31mred\u202e.sgm")
    systems = (corpus.systems[0], replace(corpus.systems[1], origin=origin), *corpus.systems[2:])
    return replace(corpus, systems=systems, notes=(f"a note on {EVIL}",))


@pytest.fixture(scope="module")
def evil_result(evil):
    statistics = compute_statistics(evil, ("bleu",))
    return statistics, run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=100)))


def test_what_was_loaded_is_printed_safely(evil):
    text = summarize(evil)
    assert _safe(text, keep="\n")
    assert printable(EVIL) in text
    assert "red\\u202e.sgm" in text
    assert f"Note: a note on {printable(EVIL)}" in text


def test_tables_and_grids_print_names_safely_and_stay_aligned(evil_result):
    _, result = evil_result
    table = interval_table(result, Bleu())
    grid = grid_text(result, Bleu())
    assert _safe(table, keep="\n") and _safe(grid, keep="\n")
    assert printable(EVIL) in table and printable(EVIL) in grid
    lengths = {len(line) for line in table.splitlines()}
    assert len(lengths) <= 2  # the rows are aligned (the header may end shorter)


def test_aligned_tables_and_study_notes_are_printable():
    assert _safe(align_table([["System", "BLEU"], [EVIL, "0.5"]]), keep="\n")
    assert note_lines([EVIL]) == [f"Note: {printable(EVIL)}"]


def test_the_json_report_keeps_the_real_names(evil, evil_result):
    statistics, result = evil_result
    report = evaluation_report(evil, statistics, result)
    assert EVIL in [system["name"] for system in report["systems"]]
    assert "\\u001b" in json.dumps(report)  # JSON escapes the control characters itself
