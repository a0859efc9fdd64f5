"""The lock-releasing versions of numpy's steps give numpy's results exactly."""

from __future__ import annotations

import numpy as np
import pytest

from mtgui.engine.gil_free import distinct_count, running_count, unique_inverse


@pytest.mark.parametrize("size", [0, 1, 2, 7, 1000])
@pytest.mark.parametrize("seed", range(3))
def test_as_numpy_gives_them(size, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 20, size)
    unique, inverse = unique_inverse(values)
    expected_unique, expected_inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(unique, expected_unique)
    assert np.array_equal(inverse, expected_inverse)
    assert inverse.dtype == np.intp
    assert np.array_equal(unique[inverse], values)
    assert distinct_count(values) == len(np.unique(values))
    mask = values > 7
    assert np.array_equal(running_count(mask), np.cumsum(mask))
    assert running_count(mask).dtype == np.int64


def test_large_keys_keep_their_values():
    values = np.array([2**62, -(2**62), 2**62, 3], dtype=np.int64)
    unique, inverse = unique_inverse(values)
    assert unique.tolist() == [-(2**62), 3, 2**62]
    assert inverse.tolist() == [2, 0, 2, 1]


@pytest.mark.parametrize(
    ("low", "high"),
    [(0, 20), (0, 2**40), (2**55, 2**58), (-3, 5)],  # packed with their places; too large; < 0
)
def test_values_sorted_with_their_places_or_by_argsort_give_numpys_result(low, high):
    values = np.random.default_rng(4).integers(low, high, 5000)
    values[::7] = values[3]  # plenty of repeats
    unique, inverse = unique_inverse(values)
    expected_unique, expected_inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(unique, expected_unique)
    assert np.array_equal(inverse, expected_inverse)
    assert inverse.dtype == np.intp
