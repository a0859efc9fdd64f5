"""Numbers and nesting beyond what Python's parsers take are refused in words before parsing,
naming the file and the line (issue 32): never a RecursionError or a ValueError."""

from __future__ import annotations

import pytest

from mtgui.engine.core.errors import InputError
from mtgui.io.json_input import MAX_DEPTH, check_json_bounds, load_json
from mtgui.io.labels import read_label_file
from mtgui.io.score_sources import ScoreSource, load_score_source
from mtgui.io.textutil import MAX_WHOLE_DIGITS, whole_number


def error_of(call) -> InputError:
    with pytest.raises(InputError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[" * 100_000, 1),
        ('{"a":' * 50_000, 1),
        ('{"x.txt": [\n{"COMET": 0.5},\n' + "[" * 200, 3),
    ],
)
def test_deep_comet_json_is_refused_with_its_line(write, text, line):
    path = write("c.json", text)
    error = error_of(lambda: load_score_source(ScoreSource(path)))
    assert error.path == path and error.line == line
    assert f"nested more than {MAX_DEPTH} levels deep" in error.problem


def test_a_number_of_100001_digits_in_comet_json(write):
    path = write("c.json", '{"x.txt": [\n{"COMET": ' + "1" * 100_001 + "}]}")
    error = error_of(lambda: load_score_source(ScoreSource(path)))
    assert error.line == 2 and "a number of 100,001 characters" in error.problem


def test_brackets_and_digits_inside_strings_are_text(write):
    text = '{"x[[[.txt": [{"src": "' + "[" * 500 + "9" * 900 + '\\" {", "COMET": 0.5}]}'
    assert load_json(text, "c.json") == {
        "x[[[.txt": [{"src": "[" * 500 + "9" * 900 + '" {', "COMET": 0.5}]
    }


def test_exactly_the_deepest_nesting_is_read():
    assert check_json_bounds("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x.json") is None
    with pytest.raises(InputError):
        check_json_bounds("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x.json")


def test_a_5000_digit_line_number_in_a_label_file(write):
    path = write("labels.tsv", "line\tgenre\n1\tnews\n" + "7" * 5000 + "\tweb\n")
    error = error_of(lambda: read_label_file(path))
    assert error.path == path and error.line == 3
    assert "segment number has 5,000 digits" in error.problem


@pytest.mark.parametrize("key", ["²", "١", "+3", "0", "-1", "3.0"])
def test_label_keys_that_are_not_plain_segment_numbers(write, key):
    path = write("labels.tsv", f"line\tgenre\n{key}\tnews\n")
    error = error_of(lambda: read_label_file(path))
    assert error.line == 2 and "is not a segment number" in error.problem


def test_a_5000_digit_segment_number_in_comet_output(write):
    path = write(
        "c.txt", "a.txt\tSegment 0\tscore: 0.5\na.txt\tSegment " + "1" * 5000 + "\tscore: 1\n"
    )
    error = error_of(lambda: load_score_source(ScoreSource(path)))
    assert error.line == 2 and "segment number has 5,000 digits" in error.problem


def test_a_5000_digit_segment_number_in_a_table(write):
    path = write("s.tsv", "system\tline\tscore\nA\t" + "2" * 5000 + "\t0.5\n")
    error = error_of(lambda: load_score_source(ScoreSource(path)))
    assert error.line == 2 and "5,000 digits" in error.problem


def test_whole_numbers_are_read_as_integers():
    assert whole_number("99999999999999999999999", "n", None, None) == 99999999999999999999999
    assert whole_number("0007", "n", None, None) == 7
    assert whole_number("1e3", "n", None, None) is None
    assert whole_number("9" * MAX_WHOLE_DIGITS, "n", None, None) == int("9" * MAX_WHOLE_DIGITS)
    assert whole_number("0" * 5000 + "5", "n", None, None) == 5  # leading zeros do not count


@pytest.mark.parametrize(
    "text",
    [
        '{"a[": ["]]", {"b": "x"}], "c": 1}',
        '{"a\\"[[": ["\\\\", "]\\"]"], "q": "\\\\\\"{"}',
        '"only"',
    ],
)
def test_strings_are_emptied_alike_with_or_without_escapes(text):
    from mtgui.io.json_input import _STRING, _without_strings

    assert _without_strings(text) == _STRING.sub('""', text)


def test_a_number_of_400_characters_is_read_and_401_is_not():
    assert load_json("[0." + "1" * 398 + "]", "x.json") == [float("0." + "1" * 398)]
    with pytest.raises(InputError, match="a number of 401 characters"):
        load_json("[\n0." + "1" * 399 + "]", "x.json")
