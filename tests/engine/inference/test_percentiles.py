"""The intervals' percentiles are numpy's, to the last bit, without importing numpy.ma."""

from __future__ import annotations

import numpy as np
import pytest

from mtgui.engine.inference.intervals import percentiles


def _values(rng: np.random.Generator, kind: int, count: int) -> np.ndarray:
    if kind == 0:
        return rng.normal(size=count)
    if kind == 1:  # many ties
        return rng.integers(-3, 4, size=count).astype(np.float64)
    if kind == 2:  # tiny values, where rounding shows
        return rng.random(count) * 1e-300
    signs = np.sign(rng.normal(size=count))
    return np.where(rng.random(count) < 0.2, np.inf * signs, rng.normal(size=count))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf, in numpy's steps as in ours
def test_percentiles_are_numpys_to_the_bit() -> None:
    rng = np.random.default_rng(0)
    for trial in range(4000):
        values = _values(rng, trial % 4, int(rng.integers(1, 40)))
        percents = [*(rng.random(3) * 100), 0, 100, 50, 2.5, 97.5, 0.5, 99.5]
        expected, found = np.percentile(values, percents), percentiles(values, percents)
        assert np.array_equal(found, expected, equal_nan=True), (values, percents)
        assert np.array_equal(np.signbit(found), np.signbit(expected))


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99, 0.999])
@pytest.mark.parametrize("count", [1, 2, 999, 1000, 10_000])
def test_the_interval_bounds_are_numpys_at_every_level(level: float, count: int) -> None:
    values = np.random.default_rng(count).normal(30, 2, size=count)
    alpha = 1 - level
    percents = [100 * alpha / 2, 50, 100 * (1 - alpha / 2)]
    assert np.array_equal(percentiles(values, percents), np.percentile(values, percents))


def test_the_values_are_left_as_they_were() -> None:
    values = np.array([3.0, 1.0, 2.0])
    assert percentiles(values, [50]).tolist() == [2.0]
    assert values.tolist() == [3.0, 1.0, 2.0]


def test_no_values_is_an_error() -> None:
    with pytest.raises(ValueError, match="no values"):
        percentiles(np.array([]), [50])
