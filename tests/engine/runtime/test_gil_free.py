"""The lock-releasing versions of numpy's steps give numpy's results exactly."""

from __future__ import annotations

import numpy as np
import pytest

from mtgui.engine.runtime.gil_free import (
    distinct_count,
    running_count,
    sorted_with_order,
    unique_inverse,
)
from mtgui.engine.text.ngrams import search_sorted


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


@pytest.mark.parametrize("runs", [False, True])
def test_the_sort_for_runs_gives_the_same_order_and_values(runs):
    rng = np.random.default_rng(4)
    values = np.concatenate([np.sort(rng.integers(0, 99, 60)) for _ in range(5)])  # in runs
    order, ordered = sorted_with_order(values, runs)
    assert np.array_equal(ordered, np.sort(values)) and np.array_equal(values[order], ordered)
    unique, inverse = unique_inverse(values, runs)
    expected_unique, expected_inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(unique, expected_unique) and np.array_equal(inverse, expected_inverse)


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


@pytest.mark.parametrize(("low", "high"), [(0, 20), (0, 2**40), (2**55, 2**58), (-3, 5)])
@pytest.mark.parametrize("size", [0, 1, 3000])
def test_sorted_queries_find_numpys_ranks(low, high, size):
    """ngrams.search_sorted, which sorts its queries with sorted_with_order, ranks them as
    np.searchsorted does, whether the queries were packed with their places or argsorted."""
    rng = np.random.default_rng(5)
    keys = np.sort(rng.integers(low, high, 2000))
    queries = rng.integers(low, high, size)
    queries[::5] = keys[0]  # some equal to a key, repeated
    assert np.array_equal(search_sorted(keys, queries), np.searchsorted(keys, queries))
    order, ordered = sorted_with_order(queries)
    assert np.array_equal(ordered, np.sort(queries)) and np.array_equal(queries[order], ordered)
