"""The studies' fast bootstrap of a subset gives the ordinary bootstrap's numbers, to the bit."""

from __future__ import annotations

import numpy as np
import pytest
from study_runs import demo_statistics

from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.draws import (
    chunk_sizes,
    draw_counts,
    iter_resample_scores,
    on_exact_grid,
    stack_units,
    unit_index,
)
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.studies.subset_bootstrap import (
    KeyScorer,
    SubsetDraws,
    SubsetRows,
    iter_subset_samples,
    on_grid,
    whole_columns,
)


@pytest.mark.parametrize("unit", [Unit.SEGMENT, Unit.DOCUMENT])
def test_a_subset_bootstraps_exactly_as_the_ordinary_bootstrap(unit):
    statistics, documents = demo_statistics()
    layout = stack_units(statistics, unit_index(statistics, documents, unit))
    settings = BootstrapSettings(resamples=300, seed=11, unit=unit)
    expected = run_to_end(iter_resample_scores(statistics, layout, settings, chunk=37))
    keys = list(layout.columns)
    rows = SubsetRows.of(layout.rows)
    assert rows.width < layout.rows.shape[1]  # BLEU's and NIST's equal columns, once
    scorer = KeyScorer.of_layout(layout, keys, statistics.metrics, rows.position)
    part = rows.take(np.arange(len(layout.rows)))
    draws = SubsetDraws(11, 300, len(layout.rows), ahead=True)
    samples = run_to_end(iter_subset_samples(rows, part, scorer, draws))
    assert np.array_equal(samples, np.stack([expected[key] for key in keys]), equal_nan=True)


def test_the_scorer_gives_every_key_its_own_score():
    statistics, documents = demo_statistics()
    layout = stack_units(statistics, unit_index(statistics, documents, Unit.SEGMENT))
    keys = list(reversed(list(layout.columns)))
    sums = layout.rows.sum(axis=0)
    scores = KeyScorer.of_layout(layout, keys, statistics.metrics).scores(sums)
    for key, score in zip(keys, scores, strict=True):
        assert score == statistics.metric(key[1]).score_one(sums[layout.columns[key]])


def test_whole_number_columns_are_summed_in_float32_exactly():
    rng = np.random.default_rng(3)
    units = 2000
    rows = np.column_stack(
        [
            rng.integers(0, 100, units),  # whole, small: float32
            rng.integers(0, 2**14, units),  # whole, but 2000 x 2^14 > 2^24: float64
            np.ldexp(np.round(np.ldexp(rng.random(units) * 50, 30)), -30),  # fractional
            np.where(rng.random(units) < 0.01, np.nan, 1.0),  # not finite: float64
        ]
    ).astype(np.float64)
    whole = whole_columns(rows)
    assert whole.tolist() == [True, False, False, False]
    assert whole_columns(rows, np.array([0])).tolist() == [False] * 4
    rows = np.column_stack([rows, rows[:, [0, 2]], rows[:, 0]])  # equal columns: summed once
    layout = SubsetRows.of(rows, replaced=np.array([5]))  # replaced: float64, never merged
    assert layout.width == 5 and layout.position.tolist() == [0, 1, 2, 3, 0, 4, 0]
    assert layout.replaced == slice(3, 4)  # after the other float64 columns
    units = np.sort(rng.choice(units, 1500, replace=False))
    part = layout.take(units)
    counts = draw_counts(rng, 50, len(units))
    expected = counts.astype(np.float64) @ rows[units]
    found = layout.sums(counts, part)[:, layout.position]
    assert np.array_equal(found, expected, equal_nan=True)
    totals = rows[units].sum(axis=0)
    assert np.array_equal(part.totals()[layout.position], totals, equal_nan=True)


def test_the_chunks_are_those_of_the_drawing_thread():
    assert chunk_sizes(500, 3000) == [500]
    assert chunk_sizes(2500, 3000) == [1000, 1000, 500]
    assert chunk_sizes(100, 10**6) == [4] * 25


@pytest.mark.parametrize("seed", range(5))
def test_the_grid_of_all_columns_at_once_is_the_grid_column_by_column(seed):
    rng = np.random.default_rng(seed)
    rows = rng.random((300, 8)) * 10.0 ** rng.integers(-3, 4, 8)
    rows[:, 0] = np.round(rows[:, 0])  # whole: left alone
    rows[:, 1] = 0.0
    rows[:3, 2] = [2.0**-30, 1e-300, 5e-324]  # tiny values keep theirs
    expected = on_exact_grid(rows.copy())
    assert np.array_equal(on_grid(rows.copy()), expected)
    rows[0, 3] = np.nan  # not finite: on_exact_grid's own path
    assert np.array_equal(on_grid(rows.copy()), on_exact_grid(rows.copy()), equal_nan=True)


@pytest.mark.parametrize(
    "scale", [2.0**60, 1e-200, 2.0**-1040], ids=["coarser-than-1", "fine", "finest"]
)
def test_extreme_grids_are_those_of_the_column_by_column_rounding(scale):
    rng = np.random.default_rng(7)
    rows = np.column_stack(
        [rng.random(50) * scale, np.round(rng.random(50) * 2**40), rng.random(50)]
    )
    expected = on_exact_grid(rows.copy())
    assert np.array_equal(on_grid(rows.copy()), expected)
    # The whole numbers stay whole on a grid of 1 or finer, and untouched on a coarser one.
    assert np.array_equal(expected[:, 1], rows[:, 1])
