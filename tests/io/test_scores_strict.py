"""Scores tables are read strictly (issue 13, items 16 and 22): a number is ASCII decimal or
scientific notation within +-10^12, a column name is given once, and every row has one field
per column; anything else is refused in words, naming the file and the line."""

from __future__ import annotations

import pytest

from mtgui.engine.core.errors import InputError
from mtgui.io.loader import load_scores
from mtgui.io.scores import MAX_MAGNITUDE


def _table(score: str, line: str = "1") -> str:
    return f"system\tline\tscore\nX\t1\t0.5\nX\t{line}\t{score}\n"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", 12.0),
        ("-1.5", -1.5),
        ("+.25", 0.25),
        ("5.", 5.0),
        ("3e-2", 0.03),
        ("-2.5E+3", -2500.0),
        ("1e12", 1e12),
        ("-1000000000000", -1e12),
        ("5e-324", 5e-324),  # subnormal, but a number, and harmless
        ("0", 0.0),
    ],
)
def test_ascii_numbers_are_read(write, text, value):
    table = load_scores(write("h.tsv", _table(text)))
    assert table.records[-1].value == value


@pytest.mark.parametrize(
    "text",
    [
        "\u0661\u0662",  # Arabic-Indic 12
        "\uff11\uff12",  # full-width 12
        "1_000",
        "inf",
        "-Infinity",
        "0x10",
        "1e",
        "1.2.3",
        "--1",
        "1,5",
        "e5",
        "١٢.5",
    ],
)
def test_anything_else_is_not_a_number(write, text):
    path = write("h.tsv", _table(text))
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert f"the score '{text}' is not a number" in caught.value.problem
    assert "digits 0-9" in caught.value.problem
    assert caught.value.path == path and caught.value.line == 3


@pytest.mark.parametrize("text", ["1e308", "-1.7e308", "1e400", "1000000000001", "2e12"])
def test_scores_whose_sums_could_overflow_are_refused(write, text):
    path = write("h.tsv", _table(text))
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert f"the score '{text}' is too large" in caught.value.problem
    assert "10^12" in caught.value.problem
    assert caught.value.path == path and caught.value.line == 3
    assert MAX_MAGNITUDE == 1e12


@pytest.mark.parametrize("text", ["", "NA", "nan", "N/A", "-"])
def test_missing_scores_are_skipped_as_before(write, text):
    table = load_scores(write("h.tsv", _table(text)))
    assert table.skipped == 1 and len(table.records) == 1


@pytest.mark.parametrize("line", ["\u0662", "1_0", "1e400", "inf", "2.5"])
def test_segment_numbers_are_ascii_whole_numbers(write, line):
    with pytest.raises(InputError) as caught:
        load_scores(write("h.tsv", _table("1", line=line)))
    assert caught.value.line == 3


def test_a_whole_number_written_with_a_point_is_a_segment_number(write):
    assert load_scores(write("h.tsv", _table("1", line="2.0"))).records[-1].index == 2


@pytest.mark.parametrize(
    ("header", "named"),
    [
        ("system\tline\tscore\tscore", "'score' twice"),
        ("system,line,score,Score", "'score' and 'Score'"),
        ("system\tseg_id\tsegid\tz", "'seg_id' and 'segid'"),
        ("System\tsystem\tline\tz", "'System' and 'system'"),
    ],
)
def test_a_column_named_twice_is_refused(write, header, named):
    separator = "," if "," in header else "\t"
    fields = separator.join(["1"] * len(header.split(separator)))
    path = write("h.csv", f"{header}\n{fields}\n")
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert f"the header names the column {named}" in caught.value.problem
    assert "not clear which one to read" in caught.value.problem
    assert caught.value.path == path and caught.value.line == 1


def test_unnamed_columns_are_not_duplicates(write):
    table = load_scores(write("h.csv", ",system,line,score,\n0,X,1,0.5,\n"))
    assert table.records[0].value == 0.5


@pytest.mark.parametrize(
    ("row", "count", "more"),
    [
        ("X\t1\t0.5\t7", 4, "more"),
        ("X\t1\t0.5\t\t9", 5, "more"),
        ("X\t1", 2, "fewer"),
    ],
)
def test_a_row_with_more_or_fewer_fields_than_columns_is_refused(write, row, count, more):
    path = write("h.tsv", f"system\tline\tscore\nX\t2\t1\n{row}\n")
    with pytest.raises(InputError) as caught:
        load_scores(path)
    problem = caught.value.problem
    assert f"this row has {count} fields, but the header names 3 columns" in problem
    assert f"with {more} fields than columns" in problem
    assert caught.value.path == path and caught.value.line == 3


def test_a_system_name_with_spaces_in_a_space_separated_table_is_refused(write):
    # Before, the extra field was ignored and the columns silently shifted.
    path = write("h.txt", "system line score\nMy System 1 0.5\n")
    with pytest.raises(InputError, match="this row has 4 fields, but the header names 3"):
        load_scores(path)


@pytest.mark.parametrize("row", ["X\t1\t0.5\t", "X\t1\t0.5\t\t", "X,1,0.5,"])
def test_empty_trailing_fields_left_by_a_separator_are_fine(write, row):
    header = "system,line,score" if "," in row else "system\tline\tscore"
    assert load_scores(write("h.txt", f"{header}\n{row}\n")).records[0].value == 0.5
