"""The size study's running sums over the subsets done, and its tables read from them.

One tally holds every source's keys and pairs side by side (:mod:`~mtgui.engine.studies.size
.layout`); a source's tables read its slice, so each is what the source alone would give.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.studies.common import unordered_pairs
from mtgui.engine.studies.size.study import (
    PairSeparation,
    SizeRow,
    SizeSettings,
    smallest_separation,
)

STEPS = ("score", "median", "ci_low", "ci_high", "rel_ci_low", "rel_ci_high")


class Tally:
    """Running sums over the repetitions, per fraction: cheap to update and to read.

    The spread of the subset scores is summed around the first subset's score (the "shifted
    data" algorithm), which keeps it exact where all subsets are the same (at 100%).
    """

    def __init__(self, fractions: int, keys: int, pairs: int) -> None:
        self.sums = np.zeros((len(STEPS), fractions, keys))
        self.counts = np.zeros((len(STEPS), fractions, keys))
        self.shift = np.full((fractions, keys), np.nan)
        self.shifted = np.zeros((2, fractions, keys))  # sums of (score - shift) and its square
        self.segments = np.zeros(fractions)
        self.done = np.zeros(fractions, dtype=np.int64)
        self.better = np.zeros((fractions, pairs), dtype=np.int64)
        self.worse = np.zeros((fractions, pairs), dtype=np.int64)

    def add(self, k: int, values: FloatArray, segments: int, signs: IntArray) -> None:
        """One bootstrapped subset at fraction ``k``: ``values`` has one row per step."""
        valid = ~np.isnan(values)
        self.sums[:, k] += np.where(valid, values, 0.0)
        self.counts[:, k] += valid
        self.shift[k] = np.where(np.isnan(self.shift[k]), values[0], self.shift[k])
        deviation = np.where(valid[0], values[0] - self.shift[k], 0.0)
        self.shifted[:, k] += [deviation, deviation**2]
        self.segments[k] += segments
        self.done[k] += 1
        self.better[k] += signs > 0
        self.worse[k] += signs < 0

    def means(self) -> FloatArray:
        """Per step, fraction and key: the mean so far (NaN before any value).

        The subset scores are averaged around the first one, so that where every subset is the
        same (at 100%) the mean is exactly its score.
        """
        with np.errstate(invalid="ignore", divide="ignore"):
            means = self.sums / self.counts
            means[0] = self.shift + self.shifted[0] / self.counts[0]
        return means

    def spread(self) -> FloatArray:
        """The standard deviation of the subset scores (n - 1), NaN below two values."""
        count = self.counts[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            variance = (self.shifted[1] - self.shifted[0] ** 2 / count) / (count - 1)
        return np.where(count > 1, np.sqrt(np.maximum(variance, 0.0)), np.nan)


def size_rows(
    tally: Tally,
    settings: SizeSettings,
    pieces: Sequence[int],
    keys: Sequence[tuple[str, str]],
    start: int,
    metrics: int,
) -> tuple[SizeRow, ...]:
    """The rows of the ``keys`` of one source (its keys start at ``start`` in the tally):
    metric by metric, system by system, fraction by fraction."""
    end = start + len(keys)
    means = tally.means()[:, :, start:end].transpose(2, 1, 0).tolist()  # key, fraction, step
    spread = tally.spread()[:, start:end].T.tolist()
    with np.errstate(invalid="ignore", divide="ignore"):
        segments = (tally.segments / tally.done).tolist()
    done = tally.done.tolist()
    return tuple(
        SizeRow(
            *keys[i],
            fraction,
            pieces[k],
            segments[k],
            done[k],
            means[i][k][0],
            spread[i][k],
            *means[i][k][1:],
        )
        for m in range(metrics)
        for i in range(m, len(keys), metrics)
        for k, fraction in enumerate(settings.fractions)
    )


def size_pairs(
    tally: Tally,
    settings: SizeSettings,
    names: Sequence[str],
    metrics: Sequence[Metric],
    start: int,
) -> tuple[PairSeparation, ...]:
    """Every unordered pair of one source under every metric (its pairs start at ``start``
    in the tally)."""
    first, second = unordered_pairs(len(names))
    end = start + len(first) * len(metrics)
    with np.errstate(invalid="ignore", divide="ignore"):
        x_better = (tally.better[:, start:end] / tally.done[:, None]).T.tolist()
        y_better = (tally.worse[:, start:end] / tally.done[:, None]).T.tolist()
    pairs, column = [], 0
    for metric in metrics:
        for i, j in zip(first, second, strict=True):
            shares = (tuple(x_better[column]), tuple(y_better[column]))
            smallest, verdict = smallest_separation(settings, *shares)
            pairs.append(
                PairSeparation(metric.name, names[i], names[j], *shares, smallest, verdict)
            )
            column += 1
    return tuple(pairs)
