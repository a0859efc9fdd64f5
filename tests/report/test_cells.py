"""One value as every report writes it: CSV cells, JSON values, four decimals, percentages."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mtgui.io.writers import csv_text
from mtgui.report.cells import MISSING, csv_cell, four_decimals, json_ready, percent


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (None, ""),
        (math.nan, ""),
        (np.float64("nan"), ""),
        (0.25, 0.25),
        (1.0, 1.0),  # a score stays a float, so a column never mixes 1 and 0.5
        (-0.0, -0.0),
        (math.inf, math.inf),
        (3, 3),
        ("Lumen", "Lumen"),
        (">", ">"),
        (True, True),
    ],
)
def test_a_csv_cell_is_empty_when_undefined_and_otherwise_the_value(value, cell):
    result = csv_cell(value)
    assert result == cell
    assert type(result) is type(cell)


def test_numpy_floats_become_python_floats_with_the_same_digits():
    value = np.float64(0.1) + np.float64(0.2)
    cell = csv_cell(value)
    assert type(cell) is float
    assert cell == 0.30000000000000004
    assert csv_text(["x"], [[cell]]) == "x\n0.30000000000000004\n"


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (np.float64(3.0), 3),
        (12.0, 12),
        (-0.0, 0),  # a count of none, not a signed zero
        (2.0**53 - 1, 2**53 - 1),
        (2.0**53, 2.0**53),  # from here on not every integer is a float: kept a float
        (0.5, 0.5),
        (2.9999999999999996, 2.9999999999999996),
        (math.inf, math.inf),
        (-math.inf, -math.inf),
        (math.nan, ""),
        (None, ""),
    ],
)
def test_whole_numbers_are_written_as_integers_in_the_segment_table(value, cell):
    result = csv_cell(value, whole_numbers=True)
    assert result == cell
    assert type(result) is type(cell)


def test_cells_written_as_csv():
    row = [csv_cell(v, whole_numbers=True) for v in (3.0, -0.0, 0.5, math.nan, math.inf)]
    assert csv_text(["a", "b", "c", "d", "e"], [row]) == "a,b,c,d,e\n3,0,0.5,,inf\n"
    row = [csv_cell(v) for v in (3.0, -0.0, None, "x, y")]
    assert csv_text(["a", "b", "c", "d"], [row]) == 'a,b,c,d\n3.0,-0.0,,"x, y"\n'


def test_json_ready_turns_every_undefined_number_into_null_at_any_depth():
    value = {"a": [1.0, math.nan, (math.inf, -math.inf)], "b": {"c": np.float64("nan")}, "d": 2}
    ready = json_ready(value)
    assert ready == {"a": [1.0, None, [None, None]], "b": {"c": None}, "d": 2}
    assert json.dumps(ready, allow_nan=False) == (
        '{"a": [1.0, null, [null, null]], "b": {"c": null}, "d": 2}'
    )


@pytest.mark.parametrize(
    ("value", "text", "signed"),
    [
        (0.28414, "0.2841", "+0.2841"),
        (0.28435, "0.2843", "+0.2843"),  # 0.28435 is 0.284349999... as a float
        (0.28455, "0.2846", "+0.2846"),  # and 0.28455 is 0.284550000...02
        (0.99995, "1.0000", "+1.0000"),  # rounding up carries into the units
        (0.00015, "0.0001", "+0.0001"),
        (-0.00001, "-0.0000", "-0.0000"),
        (-0.0, "-0.0000", "-0.0000"),
        (0.0, "0.0000", "+0.0000"),
        (7, "7.0000", "+7.0000"),
        (np.float64(0.5), "0.5000", "+0.5000"),
        (math.inf, "inf", "+inf"),
        (math.nan, MISSING, MISSING),
        (None, MISSING, MISSING),
    ],
)
def test_four_decimals_as_mteval_prints_and_a_dash_when_undefined(value, text, signed):
    assert four_decimals(value) == text
    assert four_decimals(value, signed=True) == signed


@pytest.mark.parametrize(
    ("value", "text", "unsigned"),
    [
        (3.254, "+3.25%", "3.25%"),
        (-3.255, "-3.25%", "-3.25%"),  # -3.2549999... as a float
        (-0.001, "-0.00%", "-0.00%"),
        (0.0, "+0.00%", "0.00%"),
        (12, "+12.00%", "12.00%"),
        (math.nan, MISSING, MISSING),
    ],
)
def test_percentages_have_two_decimals_and_a_sign(value, text, unsigned):
    assert percent(value) == text
    assert percent(value, signed=False) == unsigned
