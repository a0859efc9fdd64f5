"""Property tests of scores tables: random and mutated tables only ever raise InputError.

Tables are built from the pieces real ones are made of (column names mtgui knows and others,
some twice; tabs, commas or spaces; numbers in every notation Python's ``float`` takes and
some it does not, other scripts' digits, missing values, names with separators, quotes and
control characters), then damaged (a range deleted or repeated, a separator or line end
inserted). Whatever comes out, ``load_scores`` returns a table of usable rows or raises
:class:`InputError` naming the file; a table that loads is assembled with a small test set
and its human scores are bootstrapped, where again only InputError may come out and every
score is finite (issue 13, items 16 and 22). A second property pins what a number is against
an independent rule: Python's ``float`` restricted to the ASCII characters of decimal and
scientific notation.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file, load_scores
from mtgui.io.plaintext import split_lines
from mtgui.io.scores import MAX_MAGNITUDE, MISSING, ScoreTable, first_line, normalize_column
from mtgui.io.streams import LoadedFile

T = TypeVar("T")
_SCALE = float(os.environ.get("MTGUI_FUZZ_SCALE", "1"))


def _fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=max(1, round(examples * _SCALE)),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


REF_SGM = """\
<refset setid="toy" srclang="de" trglang="en">
<doc sysid="ref" docid="d1"><seg id="1">The cat sat .</seg><seg id="2">Fish and chips</seg>
<seg id="3">A sentence</seg></doc>
<doc sysid="ref" docid="d2"><seg id="1">Second document .</seg><seg id="2">Its end .</seg></doc>
</refset>
"""
TST_SGM = REF_SGM.replace("refset", "tstset").replace('sysid="ref"', 'sysid="{name}"')

COLUMNS = (
    "system",
    "sysid",
    "sys",
    "docid",
    "segid",
    "seg_id",
    "line",
    "score",
    "Score",
    "z",
    "raw",
    "Z.SCR",
    "n",
    "comment",
    "",
    "x y",
)
ODD_NUMBERS = (
    "\u0661\u0662",
    "\uff17",
    "1_000",
    "inf",
    "-Infinity",
    "nan",
    "NaN",
    "NA",
    "-",
    "0x1p3",
    "1e400",
    "-1e309",
    "1e308",
    "5e-324",
    "2.5e-310",
    "1e12",
    "1000000000001",
    " 7 ",
    "+.5",
    "5.",
    ".",
    "e5",
    "1e",
    "--1",
    "\u00a012",
)
NAMES = ("Alpha", "Beta", "", "Ga mma", "a,b", '"Alpha"', "\x1b[2J", "\u202eBeta", "\u0661")
DOCS = ("d1", "d2", "d9", "", "1")


def _float_text(value: float) -> list[str]:
    return [repr(value), f"{value:e}", f"{value:.3f}", f"{value:g}"]


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).flatmap(
        lambda v: st.sampled_from(_float_text(v))
    ),
    st.integers(-(10**15), 10**15).map(str),
    st.integers(-2, 8).map(str),
    st.sampled_from(ODD_NUMBERS),
)
fields = st.one_of(numbers, st.sampled_from(NAMES), st.sampled_from(DOCS), st.text(max_size=6))


def _column_values(name: str) -> st.SearchStrategy[str]:
    """What a column of this name holds: mostly good values, sometimes anything."""
    key = normalize_column(name)
    if key in ("system", "sysid", "sys"):
        good = st.sampled_from(["Alpha", "Beta"])
    elif key in ("line", "segid"):
        good = st.integers(1, 5).map(str)
    elif key == "docid":
        good = st.sampled_from(["d1", "d2"])
    elif key in ("score", "z", "raw", "zscr"):
        good = st.floats(-100, 100).flatmap(lambda v: st.sampled_from(_float_text(v)))
    else:
        good = st.sampled_from(["x", "3", "0.5", "ok"])
    odd = numbers if key in ("score", "z", "raw", "zscr") else fields
    return st.one_of(good, good, good, good, good, odd)


@st.composite
def tables(draw: st.DrawFn) -> str:
    """A scores table from the pieces real ones are made of: mostly the columns mtgui needs
    with mostly good values, in any order, with other columns, some named twice, and rows
    with a field too many or too few now and then."""
    separator = draw(st.sampled_from(["\t", ",", " "]))
    system = draw(st.sampled_from(["system", "sysid", "sys", "System"]))
    segment = draw(st.sampled_from([["line"], ["docid", "segid"], ["segid"], ["seg_id", "docid"]]))
    score = draw(st.sampled_from(["score", "z", "raw", "Z.SCR"]))
    extras = draw(st.lists(st.sampled_from(COLUMNS), max_size=2, unique=True))
    header = draw(st.permutations([system, *segment, score, *extras]))
    rows = []
    for _ in range(draw(st.integers(1, 6))):
        row = [draw(_column_values(name)) for name in header]
        change = draw(st.sampled_from(["none"] * 12 + ["drop", "add", "empty"]))
        if change == "drop" and row:
            row.pop(draw(st.integers(0, len(row) - 1)))
        elif change in ("add", "empty"):
            row.append("" if change == "empty" else draw(fields))
        rows.append(row)
    line_end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = [separator.join(header), *(separator.join(row) for row in rows)]
    return line_end.join(lines) + draw(st.sampled_from(["", line_end]))


INSERTS = ("\t", ",", " ", '"', "\n", "\r", "NA", "1e308", "\u0661", "score", "\x1b")


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few ranges deleted, repeated or filled with separators and oddities."""
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, len(text)))
        stop = draw(st.integers(start, min(len(text), start + 12)))
        kind = draw(st.sampled_from(["delete", "repeat", "insert"]))
        if kind == "delete":
            text = text[:start] + text[stop:]
        elif kind == "repeat":
            text = text[:stop] + text[start:stop] + text[stop:]
        else:
            text = text[:start] + draw(st.sampled_from(INSERTS)) + text[start:]
    return text


damaged_tables = tables().flatmap(mutated)


class Good:
    """A reference and two systems (Alpha, Beta) of five segments in two documents."""

    def __init__(self, folder: Path) -> None:
        (folder / "ref.sgm").write_text(REF_SGM, encoding="utf-8")
        self.reference = load_file(folder / "ref.sgm", {Role.REFERENCE})
        self.systems: list[LoadedFile] = []
        for name in ("Alpha", "Beta"):
            (folder / f"{name}.sgm").write_text(TST_SGM.format(name=name), encoding="utf-8")
            self.systems.append(load_file(folder / f"{name}.sgm", {Role.SYSTEM}))
        self.folder = folder

    def __repr__(self) -> str:
        return "<the good files>"


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Good:
    return Good(tmp_path_factory.mktemp("good"))


def _attempt(call: Callable[[], T], path: Path | None = None) -> T | None:
    """``call()``'s result, or None if it raised InputError (which must name the file)."""
    try:
        return call()
    except InputError as error:
        assert error.problem.strip()
        assert str(error) == error.message
        if path is not None:
            assert error.path == path, f"the error names {error.path}, not {path}"
            assert path.name in error.message
        if error.line is not None:
            assert error.line >= 1
    return None


def _check_table(table: ScoreTable, text: str) -> None:
    """Usable rows only, every score a finite number within the bound."""
    assert table.records
    for record in table.records:
        assert record.system == record.system.strip() and record.system
        assert math.isfinite(record.value) and abs(record.value) <= MAX_MAGNITUDE
        assert record.index is None or (isinstance(record.index, int) and record.index >= 1)
    header = text.splitlines()[0] if text.splitlines() else ""
    names = [normalize_column(n) for n in header.replace(",", "\t").split("\t")]
    named = [n for n in names if n]
    if "," in header or "\t" in header:
        assert len(named) == len(set(named)), "a table with a column named twice was read"


def _exercise(text: str, good: Good) -> None:
    with tempfile.TemporaryDirectory(prefix="mtgui-scores-fuzz-") as folder:
        path = Path(folder) / "scores.tsv"
        path.write_bytes(text.encode("utf-8"))
        table = _attempt(lambda: load_scores(path), path)
        if table is None:
            return
        _check_table(table, text)
        corpus = _attempt(lambda: assemble([good.reference, *good.systems], [table]))
    if corpus is None or not corpus.scores:
        return
    statistics = compute_statistics(corpus, ("human",))
    result = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=100)))
    judged = {s.system for s in corpus.scores if s.num_scored}
    for interval in result.intervals:
        if interval.system in judged:
            assert math.isfinite(interval.score)
            assert math.isfinite(interval.ci_low) and math.isfinite(interval.ci_high)


@_fuzz_settings(300)
@given(text=tables())
def test_random_tables_only_raise_input_error(good, text):
    _exercise(text, good)


@_fuzz_settings(300)
@given(text=damaged_tables)
def test_damaged_tables_only_raise_input_error(good, text):
    _exercise(text, good)


@_fuzz_settings(200)
@given(text=st.text(max_size=300))
def test_arbitrary_text_only_raises_input_error(good, text):
    _exercise(text, good)


_NOTATION = frozenset("0123456789+-.eE")


def _is_number(text: str) -> bool:
    """The independent rule: ASCII sign, digits, point and exponent only, as ``float`` reads
    them, finite and within the bound."""
    if not text or not set(text) <= _NOTATION:
        return False
    try:
        value = float(text)
    except ValueError:
        return False
    return abs(value) <= MAX_MAGNITUDE


score_texts = st.one_of(
    st.text(alphabet="0123456789+-.eE_ ", max_size=8),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), max_size=3),
    numbers,
)


@_fuzz_settings(400)
@given(score=score_texts)
def test_a_score_is_read_exactly_when_it_is_an_ascii_number(score):
    with tempfile.TemporaryDirectory(prefix="mtgui-scores-fuzz-") as folder:
        path = Path(folder) / "scores.tsv"
        path.write_text(f"system\tline\tscore\nA\t1\t1\nA\t2\t{score}\n", encoding="utf-8")
        try:
            table = load_scores(path)
        except InputError as error:
            assert error.line == 3 and error.path == path
            assert not _is_number(score.strip())
            return
    if score.strip().lower() in MISSING:
        assert table.skipped == 1 and len(table.records) == 1
    else:
        assert _is_number(score.strip())
        assert table.records[-1].value == float(score)


@given(st.lists(st.sampled_from(["a", "é", " ", "\t", "\n", "\r", "\r\n", ","])))
def test_the_first_line_is_the_first_of_all_lines(pieces: list[str]) -> None:
    """``first_line`` (what format detection looks at in every file) is what splitting the
    whole text into lines would give first, whatever mix of line ends the text holds."""
    text = "".join(pieces)
    lines = split_lines(text)
    assert first_line(text) == (lines[0] if lines else "")
