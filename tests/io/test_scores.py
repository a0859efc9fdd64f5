"""Per-segment scores: reading CSV/TSV tables and matching them to systems and segments."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import detect_format, load_file, load_scores
from mtgui.io.streams import SCORES_TABLE

REF = (
    '<refset><doc docid="d1" sysid="r"><seg id="1">a</seg><seg id="2">b</seg></doc>'
    '<doc docid="d2" sysid="r"><seg id="1">c</seg></doc></refset>'
)
SYS = REF.replace("refset", "tstset").replace('sysid="r"', 'sysid="{name}"')


@pytest.fixture
def files(write):
    ref = load_file(write("ref.sgm", REF), {Role.REFERENCE})
    systems = [load_file(write(f"{n}.sgm", SYS.format(name=n)), {Role.SYSTEM}) for n in "XY"]
    return [ref, *systems]


def test_tsv_by_document_and_segment_with_several_judgments_averaged(write, files):
    table = (
        "system\tdocid\tsegid\tscore\nX\td1\t1\t70\nX\td1\t1\t80\nX\td2\t1\t50\nY\td1\t2\t-1.5\n"
    )
    scores = load_scores(write("human.tsv", table))
    corpus = assemble(files, [scores])
    x = corpus.scores_of("X")
    assert x is not None
    np.testing.assert_array_equal(x.counts, [2, 0, 1])
    assert x.means[0] == 75.0 and math.isnan(x.means[1]) and x.means[2] == 50.0
    y = corpus.scores_of("Y")
    assert y is not None and y.num_scored == 1 and y.means[1] == -1.5


def test_csv_by_line_number(write, files):
    scores = load_scores(write("h.csv", 'System,Line,Score\nY,3,0.25\n"Y",1,0.75\n'))
    y = assemble(files, [scores]).scores_of("Y")
    assert y is not None
    np.testing.assert_array_equal(y.means[[0, 2]], [0.75, 0.25])


def test_space_separated_header_with_tab_rows_and_z_column_chosen(write, files):
    text = "sys seg raw z n \nX\t2\t61.5\t0.1\t3\n"
    scores = load_scores(write("wmt.csv", text))
    assert scores.score_column == "z"  # z is preferred over raw
    assert assemble(files, [scores]).scores_of("X").means[1] == 0.1  # type: ignore[union-attr]
    raw = load_scores(write("wmt.csv", text), score_column="raw")
    assert raw.records[0].value == 61.5


def test_scores_table_is_detected_from_its_header():
    assert detect_format("system\tdocid\tsegid\tscore\nX\td\t1\t2\n") == SCORES_TABLE
    assert detect_format("The system scored well.\nscore it\n") != SCORES_TABLE


def test_missing_values_are_skipped_and_counted(write, files):
    scores = load_scores(write("h.tsv", "system\tline\tscore\nX\t1\tNA\nX\t2\t\nX\t3\t4\n"))
    assert scores.skipped == 2
    corpus = assemble(files, [scores])
    assert any("2 rows without a score were skipped" in note for note in corpus.notes)


def test_unknown_systems_become_a_note_but_no_known_system_is_an_error(write, files):
    mixed = load_scores(write("h.tsv", "system\tline\tscore\nX\t1\t1\nNiuTrans\t1\t2\n"))
    corpus = assemble(files, [mixed])
    assert any("NiuTrans" in note and "left out" in note for note in corpus.notes)
    alien = load_scores(write("a.tsv", "system\tline\tscore\nManifold.0\t1\t1\n"))
    with pytest.raises(InputError, match=r"none of the systems in this scores file is loaded"):
        assemble(files, [alien])


@pytest.mark.parametrize(
    ("table", "line", "words"),
    [
        ("system\tline\tscore\nX\t4\t1\n", 2, "segment number 4 is beyond the test set's 3"),
        ("system\tdocid\tsegid\tscore\nX\td9\t1\t1\n", 2, "document 'd9', segment '1' is not"),
        ("system\tline\tscore\nX\t1\tgood\n", 2, "the score 'good' is not a number"),
        ("system\tline\tscore\nX\t1\tinf\n", 2, "the score 'inf' is not a number"),
        ("system\tline\tscore\nX\t1.5\t1\n", 2, "is not a whole number"),
        ("system\tline\tscore\nX\t1\n", 2, "this row has 2 fields"),
        ("system\tline\tscore\n\t1\t1\n", 2, "the system name is empty"),
        ("who\twhat\nX\t1\n", 1, "the first line must name the columns"),
        ("system\tline\tscore\n", None, "no rows with a score"),
        ("", None, "empty"),
    ],
)
def test_bad_scores_are_refused_with_their_line(write, files, table, line, words):
    with pytest.raises(InputError) as caught:
        assemble(files, [load_scores(write("bad.tsv", table))])
    assert words in caught.value.problem
    assert caught.value.line == line


def test_named_score_column_must_exist(write):
    with pytest.raises(InputError, match="there is no column 'zz'; the columns are: system"):
        load_scores(write("h.tsv", "system\tline\tscore\nX\t1\t1\n"), score_column="zz")


def test_translations_are_not_scores(write):
    with pytest.raises(InputError, match="not a table of scores"):
        load_scores(write("ref.sgm", REF))


def test_document_keys_need_a_test_set_with_documents(write):
    ref = load_file(write("ref.txt", "a\nb\n"), {Role.REFERENCE})
    system = load_file(write("X.txt", "a\nb\n"), {Role.SYSTEM})
    scores = load_scores(write("h.tsv", "system\tdocid\tsegid\tscore\nX\td1\t1\t1\n"))
    with pytest.raises(InputError, match="the test set has no documents"):
        assemble([ref, system], [scores])
