"""External segment scores: each tool's format read, matched to systems, and its errors.

The files in ``data/external_scores`` are small ones of our own in the formats of the tools
(checked against Unbabel/COMET's ``comet/cli/score.py``): a test set of 3 segments, systems
``sysA`` and ``sysB``, which COMET names ``hyps/sysA.txt`` and ``hyps/sysB.txt``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.score_formats import (
    COMET_JSON,
    COMET_OUTPUT,
    LINE_SCORES,
    SCORES_TABLE,
    score_format,
)
from mtgui.io.score_sources import ScoreSource, load_score_source, needs_system

DATA = Path(__file__).parent / "data" / "external_scores"


@pytest.fixture
def files():
    ref = load_file(DATA / "ref.txt", {Role.REFERENCE})
    return [ref, *(load_file(DATA / f"sys{n}.txt", {Role.SYSTEM}) for n in "AB")]


def _means(corpus, system, metric):
    scores = corpus.scores_of(system, metric)
    assert scores is not None
    return scores.means.tolist()


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("comet-score.txt", COMET_OUTPUT),
        ("comet-score.json", COMET_JSON),
        ("metricx-sysB.txt", LINE_SCORES),
        ("judgments.tsv", SCORES_TABLE),
        ("ref.txt", None),
    ],
)
def test_formats_are_told_from_the_content(name, kind):
    assert score_format((DATA / name).read_text(encoding="utf-8")) == kind


def test_comet_output_matches_systems_by_the_file_name_of_their_output(files):
    table = load_score_source(ScoreSource(DATA / "comet-score.txt", metric="comet"))
    assert table.origin.format == COMET_OUTPUT and table.segment_count == 3
    assert table.systems == ("hyps/sysA.txt", "hyps/sysB.txt")
    corpus = assemble(files, [table])
    assert _means(corpus, "sysA", "comet") == [0.8123, 0.6, 0.9]
    assert _means(corpus, "sysB", "comet") == [0.7, 0.65, 0.4]
    assert corpus.external_metrics() == {"comet": True}


def test_comet_json_keeps_full_precision(files):
    table = load_score_source(ScoreSource(DATA / "comet-score.json", metric="comet"))
    assert table.origin.format == COMET_JSON
    corpus = assemble(files, [table])
    assert _means(corpus, "sysA", "comet") == [0.81234567, 0.6, 0.9]
    assert _means(corpus, "sysB", "comet") == [0.7, 0.65, 0.4]


def test_one_number_per_line_for_the_system_the_user_names(files):
    source = ScoreSource(DATA / "metricx-sysB.txt", metric="metricx", system="sysB")
    corpus = assemble(files, [load_score_source(replace(source, higher_is_better=False))])
    assert _means(corpus, "sysB", "metricx") == [3.25, -0.5, 12.0]
    assert corpus.scores_of("sysA", "metricx") is None
    assert corpus.external_metrics() == {"metricx": False}


def test_a_table_gives_one_metric_per_column(files):
    z = load_score_source(ScoreSource(DATA / "judgments.tsv", "z", "da"))
    mqm = load_score_source(ScoreSource(DATA / "judgments.tsv", "mqm", "mqm", None, False))
    corpus = assemble(files, [z, mqm])
    assert corpus.external_metrics() == {"da": True, "mqm": False}
    assert _means(corpus, "sysA", "da")[:2] == [0.5, -0.5]
    mqm_b = _means(corpus, "sysB", "mqm")
    assert mqm_b[0] == 1.0 and math.isnan(mqm_b[1]) and mqm_b[2] == 25.0


def test_missing_lines_are_segments_without_a_score(write, files):
    path = write("lines.txt", "0.5\nNA\n\n")
    corpus = assemble(files, [load_score_source(ScoreSource(path, metric="x", system="sysA"))])
    scores = corpus.scores_of("sysA", "x")
    assert scores is not None and scores.num_scored == 1
    np.testing.assert_array_equal(scores.counts, [1, 0, 0])
    assert any("2 segments without a score were skipped" in n for n in corpus.notes)
    one = write("one.txt", "0.5\n0.25\nNA\n")
    corpus = assemble(files, [load_score_source(ScoreSource(one, metric="x", system="sysA"))])
    assert any("1 segment without a score was skipped" in n for n in corpus.notes)


def test_a_count_that_is_not_the_test_sets_says_both(write, files):
    path = write("short.txt", "0.5\n0.25\n")
    table = load_score_source(ScoreSource(path, metric="x", system="sysA"))
    with pytest.raises(InputError, match="has 2 lines, but the test set has 3 segments") as error:
        assemble(files, [table])
    assert error.value.path == path
    comet = write("comet.txt", "a.txt\tSegment 0\tscore: 0.5\n")
    with pytest.raises(InputError, match="1 segment score, but the test set has 3"):
        assemble(files, [load_score_source(ScoreSource(comet))])


def test_numbers_need_a_system_and_a_table_refuses_one(write):
    with pytest.raises(InputError, match="does not say which system") as error:
        load_score_source(ScoreSource(DATA / "metricx-sysB.txt", metric="metricx"))
    assert error.value.path == DATA / "metricx-sysB.txt"
    with pytest.raises(InputError, match="takes no system name"):
        load_score_source(ScoreSource(DATA / "judgments.tsv", system="sysA"))
    with pytest.raises(InputError, match="takes no column name"):
        load_score_source(ScoreSource(DATA / "comet-score.json", column="z"))
    assert needs_system((DATA / "metricx-sysB.txt").read_text())
    assert not needs_system((DATA / "comet-score.txt").read_text())


def test_a_bad_number_names_the_line(write):
    path = write("bad.txt", "0.5\n0.5 0.7\n")
    with pytest.raises(InputError, match="not a number") as error:
        load_score_source(ScoreSource(path, system="sysA"))
    assert error.value.line == 2


def test_comet_one_zero_output_of_one_unnamed_system(write, files):
    text = "Segment 0\tscore: 0.100\nSegment 1\tscore: 0.200\nSegment 2\tscore: 0.600\n"
    text += "System score: 0.300\n"
    path = write("old.txt", text)
    assert needs_system(text)
    with pytest.raises(InputError, match="without naming its output file"):
        assemble(files, [load_score_source(ScoreSource(path, metric="c"))])
    table = load_score_source(ScoreSource(path, metric="c", system="sysB"))
    assert _means(assemble(files, [table]), "sysB", "c") == [0.1, 0.2, 0.6]


def test_comet_output_with_variance_is_read(write, files):
    text = "".join(
        f"s/sysA.txt\tSegment {i}\tscore: 0.{i + 1}000\tvariance: 0.0100\n" for i in range(3)
    )
    table = load_score_source(ScoreSource(write("mc.txt", text), metric="c"))
    assert _means(assemble(files, [table]), "sysA", "c") == [0.1, 0.2, 0.3]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a.txt\tSegment 0\tscore: 0.1\na.txt\tSegment 2\tscore: 0.1\n", 2, "expected segment 1"),
        ("a.txt\tSegment 0\tscore: 0.1\nsomething else\n", 2, "not one of comet-score's"),
        ("a.txt\tSegment 0\tscore: x1\n", 1, "not a number"),
    ],
)
def test_comet_output_errors_name_the_line(write, text, line, message):
    with pytest.raises(InputError, match=message) as error:
        load_score_source(ScoreSource(write("c.txt", text)))
    assert error.value.line == line


def test_comet_systems_with_different_counts_are_refused(write):
    text = (
        "a.txt\tSegment 0\tscore: 0.1\nb.txt\tSegment 0\tscore: 0.1\na.txt\tSegment 1\tscore: 0\n"
    )
    with pytest.raises(InputError, match=r"'a\.txt' has 2 segment scores but 'b\.txt' has 1"):
        load_score_source(ScoreSource(write("c.txt", text)))


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('{"a.txt": [{"COMET": 0.5},\n  {"COMET": }]}', "not valid JSON", 2),
        ('{"a.txt": [{"COMET": 0.5}, {"score": 0.1}]}', "segment 1 of .a.txt. has no number", None),
        ('{"a.txt": [{"COMET": true}]}', "has no number", None),
        ('{"a.txt": 3}', "not comet-score's", None),
    ],
)
def test_comet_json_errors(write, text, message, line):
    with pytest.raises(InputError, match=message) as error:
        load_score_source(ScoreSource(write("c.json", text)))
    assert error.value.line == line


def test_comet_one_zero_json_is_a_list_of_one_systems_segments(write, files):
    path = write("old.json", '[{"src": "a", "COMET": 0.5}, {"COMET": 1}, {"COMET": -0.25}]')
    table = load_score_source(ScoreSource(path, metric="c", system="sysA"))
    assert _means(assemble(files, [table]), "sysA", "c") == [0.5, 1.0, -0.25]


def test_unknown_content_is_refused_in_words(write):
    path = write("x.txt", "hello there\n")
    with pytest.raises(InputError, match="cannot tell what this scores file holds") as error:
        load_score_source(ScoreSource(path, system="sysA"))
    assert error.value.line == 1
    with pytest.raises(InputError, match="the first line must name the columns") as error:
        load_score_source(ScoreSource(path))  # taken for a table, as before
    assert error.value.line == 1
    with pytest.raises(InputError, match="there is no column 'nope'"):
        load_score_source(ScoreSource(DATA / "judgments.tsv", "nope"))


def test_tables_of_one_metric_must_agree_on_its_direction(files):
    up = load_score_source(ScoreSource(DATA / "judgments.tsv", "z", "q"))
    down = load_score_source(ScoreSource(DATA / "judgments.tsv", "mqm", "q", None, False))
    with pytest.raises(InputError, match=r"higher-is-better in .* but not in"):
        assemble(files, [up, down])
