"""The bootstrap's product in float32 blocks equals the float64 product bit for bit."""

from __future__ import annotations

import numpy as np

from mtgui.engine.resampling.draws import draw_counts, on_exact_grid
from mtgui.engine.resampling.exact_product import SplitRows


def test_the_split_product_equals_the_float64_product() -> None:
    rng = np.random.default_rng(3)
    units = 20_000
    rows = np.column_stack(
        [
            rng.integers(0, 60, units),  # lengths, matches: float32
            rng.integers(0, 3000, units),  # too large for blocks of 4096 units: float64
            rng.uniform(0, 12, units),  # information sums: fractions, float64
            np.zeros(units),
        ]
    ).astype(np.float64)
    rows = on_exact_grid(rows)
    split = SplitRows.of(rows)
    assert list(split.whole_columns) == [0, 3]
    counts = draw_counts(rng, 50, units)
    assert np.array_equal(split.product(counts), counts.astype(np.float64) @ rows)


def test_a_block_that_draws_too_often_is_multiplied_in_float64() -> None:
    units = 8192
    rows = np.full((units, 1), 1000.0)  # blocks of 8192 units: up to 8,388 draws are safe
    split = SplitRows.of(rows)
    counts = np.zeros((2, units), dtype=np.float32)
    counts[0, 0] = units  # every draw on one unit: float32 would still be exact here
    counts[1, :] = 3.0  # 24,576 draws: 24,576,000 > 2^24, float32 would round
    expected = counts.astype(np.float64) @ rows
    assert np.array_equal(split.product(counts), expected)


def test_splitting_chosen_columns_equals_splitting_their_copy() -> None:
    """The bootstrap hands the split only the distinct columns, gathered in blocks of rows."""
    rng = np.random.default_rng(5)
    units = 20_000  # more than one block of rows (8,192) is gathered
    rows = on_exact_grid(
        np.column_stack(
            [rng.integers(0, 60, units), rng.uniform(0, 9, units), rng.integers(0, 9, units)] * 2
        ).astype(np.float64)
    )
    kept = np.array([5, 0, 1], dtype=np.intp)  # out of order, whole and fractional
    chosen, copied = SplitRows.of(rows, kept), SplitRows.of(rows[:, kept])
    assert chosen.columns == 3
    assert list(chosen.whole_columns) == list(copied.whole_columns) == [0, 1]
    assert chosen.whole.dtype == np.float32 and chosen.fractional.dtype == np.float64
    assert np.array_equal(chosen.whole, copied.whole)
    assert np.array_equal(chosen.fractional, copied.fractional)
    counts = draw_counts(rng, 20, units)
    assert np.array_equal(chosen.product(counts), counts.astype(np.float64) @ rows[:, kept])


def test_a_fraction_in_a_later_block_of_rows_still_puts_its_column_on_the_grid() -> None:
    units = 20_000  # on_exact_grid tests its rows in blocks of 8,192
    rows = np.zeros((units, 2))
    rows[:, 0] = 3.0
    rows[-1, 1] = 0.1  # the only fraction, in the last block
    gridded = on_exact_grid(rows.copy())
    assert np.array_equal(gridded[:, 0], rows[:, 0])
    assert gridded[-1, 1] != 0.1 and abs(gridded[-1, 1] - 0.1) < 1e-12


def test_a_known_bound_on_the_draws_gives_the_same_product() -> None:
    """Bootstrap resamples draw n of n units: with that bound the product skips the check
    resample by resample where no resample can pass float32's limit, and checks where one
    could; either way the result is the float64 product."""
    rng = np.random.default_rng(5)
    units = 6000
    rows = np.column_stack([rng.integers(0, 60, units), rng.integers(0, 2000, units)])
    split = SplitRows.of(rows.astype(np.float64))
    counts = draw_counts(rng, 40, units)
    expected = counts.astype(np.float64) @ rows
    assert np.array_equal(split.product(counts, most_drawn=units), expected)
    heavy = np.zeros((2, 8192), dtype=np.float32)
    heavy[1, :] = 3.0  # 24,576 draws of a value of 1000: float32 would round
    thousands = SplitRows.of(np.full((8192, 1), 1000.0))
    bound = int(heavy.sum(axis=1).max())
    assert np.array_equal(
        thousands.product(heavy, most_drawn=bound),
        heavy.astype(np.float64) @ np.full((8192, 1), 1000.0),
    )


def _bleu_like_rows(rng: np.random.Generator, units: int) -> np.ndarray:
    """Columns: length c, t_2 = max(c - 1, 0), t_3 = max(c - 2, 0) (as BLEU's), matches (no
    constant step), a fraction, and a column one above the fraction's neighbour."""
    length = rng.integers(0, 40, units)
    length[rng.random(units) < 0.9] += 3  # a tenth of the units short: t_2, t_3 depart there
    return on_exact_grid(
        np.column_stack(
            [
                length,
                np.maximum(length - 1, 0),
                np.maximum(length - 2, 0),
                rng.integers(0, 30, units),
                rng.uniform(0, 9, units),
                rng.integers(0, 5, units) + 7,
            ]
        ).astype(np.float64)
    )


def test_columns_a_constant_step_from_the_one_before_are_derived_and_sum_to_the_same_bits():
    rng = np.random.default_rng(8)
    units = 3000
    rows = _bleu_like_rows(rng, units)
    rows[rng.choice(units, 40, replace=False), 1] += 5  # t_2 departs on 40 more: still derived
    kept = np.arange(rows.shape[1], dtype=np.intp)
    split = SplitRows.of(rows, kept, follows=kept - 1)
    assert split.derived.columns.tolist() == [1, 2]  # not the matches, the fraction or after it
    assert split.derived.bases.tolist() == [0, 0]  # t_3 from c, as t_2 is derived itself
    assert split.derived.offsets.tolist() == [-1.0, -2.0]
    assert split.whole.shape[1] == 4  # c, the matches, the last column, and ones for the drawn
    assert 40 <= len(split.derived.units) <= units // 32
    bootstrap = draw_counts(rng, 30, units)
    uneven = rng.integers(0, 4, (20, units)).astype(np.float32)  # any total drawn (studies)
    for counts in (bootstrap, uneven):
        assert np.array_equal(split.product(counts), counts.astype(np.float64) @ rows)


def test_a_column_departing_on_more_than_a_32nd_of_the_units_is_multiplied():
    rng = np.random.default_rng(9)
    units = 3200
    rows = _bleu_like_rows(rng, units)
    rows[:, 2] = rows[:, 1] - 1
    rows[:101, 2] += 1  # 101 departures from column 1 - 1: one more than 3200 / 32
    split = SplitRows.of(rows, np.arange(6, dtype=np.intp), follows=np.arange(-1, 5))
    assert split.derived.columns.tolist() == [1]
    counts = draw_counts(rng, 10, units)
    assert np.array_equal(split.product(counts), counts.astype(np.float64) @ rows)


def test_without_follows_or_a_constant_step_nothing_is_derived():
    rng = np.random.default_rng(10)
    rows = _bleu_like_rows(rng, 500)
    assert len(SplitRows.of(rows).derived.columns) == 0
    scrambled = rows[:, [0, 3, 5]]  # no column is another plus a constant
    split = SplitRows.of(scrambled, np.arange(3, dtype=np.intp), follows=np.arange(-1, 2))
    assert len(split.derived.columns) == 0 and split.whole.shape[1] == 3  # and no ones


def test_a_derived_column_that_never_departs_needs_no_unit_of_its_own():
    rng = np.random.default_rng(11)
    length = rng.integers(2, 40, 100).astype(np.float64)  # no unit short enough to depart
    rows = np.column_stack([length, length - 1, rng.integers(0, 9, 100)])
    split = SplitRows.of(rows, np.arange(3, dtype=np.intp), follows=np.arange(-1, 2))
    assert split.derived.columns.tolist() == [1] and len(split.derived.units) == 0
    counts = draw_counts(rng, 7, 100)
    assert np.array_equal(split.product(counts), counts.astype(np.float64) @ rows)


def test_derived_columns_depart_on_an_8th_of_the_units_at_most_all_together():
    """Each of the five columns departs on 90 of 3,200 units, within a 32nd (100) alone, but
    the fifth would make 450 together, over an 8th (400): it is multiplied, as gathering the
    counts of that many units for every chunk would cost more than the product it saves."""
    rng = np.random.default_rng(12)
    units = 3200
    columns = []
    for k in range(5):
        base = rng.integers(0, 50, units)
        following = base + 1
        following[100 * k : 100 * k + 90] += 3
        columns += [base, following]
    rows = np.column_stack(columns).astype(np.float64)
    split = SplitRows.of(rows, np.arange(10, dtype=np.intp), follows=np.arange(-1, 9))
    assert split.derived.columns.tolist() == [1, 3, 5, 7] and len(split.derived.units) == 360
    counts = draw_counts(rng, 9, units)
    assert np.array_equal(split.product(counts), counts.astype(np.float64) @ rows)
