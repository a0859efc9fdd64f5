"""A campaign's verdicts across its test sets: for every pair of systems found in two sets or
more, under every metric, how many sets call x better or worse, the mean of the deltas over the
sets, a combined test, and on how many sets x is better with the family-wise error controlled.

The combined test is a stratified bootstrap over the sets: each set was resampled on its own
by its analysis (the same resamples as ``mtgui eval`` of that set alone), so the b-th combined
resample is the mean over the sets of one resample of each. A set's resamples enter in an order
shuffled by a stream of their own (``[seed, 3, set]``): two sets of the same size, analysed
with the same seed, would otherwise draw the same positions together. Intervals, p-values and
verdicts then follow exactly the rules of one test set's pairs, corrections included
(:func:`~mtgui.engine.inference.corrections.decide_family`), with the number of sets in the
place of the number of units.

The counts of sets with ``>`` and ``<`` are read from each set's own verdicts (corrected within
the set when a correction is on); the partial conjunction
(:mod:`~mtgui.engine.campaign.partial`) uses each set's one-sided bootstrap p-values, at
alpha / 2 on each side so that the two claims of a pair ("better on at least k", "worse on at
least k") together keep the family-wise error of the pair at alpha.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from mtgui.engine.campaign.partial import PartialConjunction, partial_conjunction
from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.words import counted
from mtgui.engine.inference.corrections import (
    Family,
    FamilyInput,
    decide_family,
    resamples_needed,
)
from mtgui.engine.inference.significance import (
    BETTER,
    WORSE,
    Correction,
    PairComparison,
    alpha_of,
    compare,
)
from mtgui.engine.resampling.bootstrap import BootstrapResult

SET_STREAM = 3
"""The second entry of the seed of each set's shuffle of its resamples."""


@dataclass(frozen=True)
class CampaignSet:
    """One test set's finished analysis: its name, its bootstrap (on the scale reported) and
    whether each metric is better when higher."""

    name: str
    bootstrap: BootstrapResult
    higher_is_better: dict[str, bool]


@dataclass(frozen=True)
class AggregatePair:
    """x against y under one metric over the sets holding both (see the module docstring).

    ``comparison`` is the combined test as the engine's pair record: its ``delta`` is the mean
    delta over the sets, ``ci_low``/``ci_high`` its interval, ``p_value`` (and the corrected
    ``p_corrected``) and ``verdict``."""

    metric: str
    x: str
    y: str
    sets: tuple[str, ...]
    sets_better: int
    sets_worse: int
    deltas: tuple[float, ...]
    comparison: PairComparison
    better: PartialConjunction
    worse: PartialConjunction
    higher_is_better: bool = True

    @property
    def p_value(self) -> float:
        """The p-value the verdict follows (the corrected one under a correction)."""
        corrected = self.comparison.p_corrected
        return self.comparison.p_value if corrected is None else corrected


@dataclass(frozen=True)
class Aggregate:
    """Every pair's aggregate, the combined test's resamples and notes."""

    pairs: tuple[AggregatePair, ...]
    resamples: int
    correction: Correction
    family: Family
    level: float
    notes: tuple[str, ...] = ()


def one_sided_p(deltas: FloatArray, higher_is_better: bool) -> tuple[float, float]:
    """The bootstrap's one-sided p-values that x is better and that x is worse:
    ``(#{d* on the wrong side or at 0} + 1) / (B + 1)`` over the defined resamples."""
    defined = deltas[~np.isnan(deltas)]
    count = len(defined)
    if count == 0:
        return float("nan"), float("nan")
    not_above, not_below = int((defined <= 0).sum()), int((defined >= 0).sum())
    if not higher_is_better:
        not_above, not_below = not_below, not_above
    return (not_above + 1) / (count + 1), (not_below + 1) / (count + 1)


def _shuffled(sets: Sequence[CampaignSet], seed: int, size: int) -> list[np.ndarray]:
    """Each set's resamples in its own shuffled order, cut to ``size``."""
    orders = []
    for index, found in enumerate(sets):
        rng = np.random.default_rng([seed, SET_STREAM, index])
        orders.append(rng.permutation(found.bootstrap.settings.resamples)[:size])
    return orders


def _systems(sets: Sequence[CampaignSet]) -> list[str]:
    """Every system in the order of first appearance."""
    return list(dict.fromkeys(s for found in sets for s in found.bootstrap.systems))


def aggregate(sets: Sequence[CampaignSet], seed: int) -> Aggregate:
    """The aggregate of a campaign's sets (see the module docstring); the settings (level,
    correction, family) are the first set's, which all share."""
    first = sets[0].bootstrap.settings
    size = min(found.bootstrap.settings.resamples for found in sets)
    orders = _shuffled(sets, seed, size)
    metrics = list(dict.fromkeys(m for found in sets for m in found.bootstrap.metrics))
    alpha = float(alpha_of(first.level))
    pairs: list[AggregatePair] = []
    rows: list[FloatArray] = []
    for metric in metrics:
        for x, y in combinations(_systems(sets), 2):
            members = [
                (k, found)
                for k, found in enumerate(sets)
                if metric in found.bootstrap.metrics
                and x in found.bootstrap.systems
                and y in found.bootstrap.systems
            ]
            if len(members) < 2:
                continue
            made, row = _pair(metric, x, y, members, orders, first.level, alpha)
            pairs.append(made)
            rows.append(row)
    decided = _decide(pairs, rows, first.correction, first.family, first.level)
    notes = _too_few(pairs, size, first.correction, first.family, first.level)
    if not pairs:
        notes.append(
            "no two systems are in two test sets or more under the same names, so there is "
            "nothing to combine; each set's verdicts are in its own report. (Name the systems "
            "alike in every set: names in the campaign file.)"
        )
    if size < max(found.bootstrap.settings.resamples for found in sets):
        notes.append(
            f"the sets were resampled different numbers of times; the combined test uses the "
            f"first {size} resamples of each (in a shuffled order)."
        )
    return Aggregate(
        tuple(decided), size, first.correction, first.family, first.level, tuple(notes)
    )


def _too_few(
    pairs: Sequence[AggregatePair], size: int, correction: Correction, family: Family, level: float
) -> list[str]:
    """A note when the combined test's resamples are too few for the correction to find any
    difference (the largest family decides)."""
    counts: dict[str, int] = {}
    for pair in pairs:
        key = "all" if family is Family.ALL else pair.metric
        counts[key] = counts.get(key, 0) + 1
    largest = max(counts.values(), default=0)
    needed = resamples_needed(correction, largest, level)
    if largest == 0 or size >= needed:
        return []
    return [
        f"the combined test has {size} resamples (the fewest of any set); {correction.value} "
        f"over {counted(largest, 'pair')} needs at least {needed} for any difference to be "
        "significant. Raise bootstrap in the settings."
    ]


def _pair(
    metric: str,
    x: str,
    y: str,
    members: Sequence[tuple[int, CampaignSet]],
    orders: Sequence[np.ndarray],
    level: float,
    alpha: float,
) -> tuple[AggregatePair, FloatArray]:
    """One pair's aggregate before the correction, and its combined resampled deltas."""
    higher = members[0][1].higher_is_better[metric]
    x_full, y_full, x_rows, y_rows, verdicts, deltas = [], [], [], [], [], []
    p_better, p_worse = [], []
    for k, found in members:
        boot = found.bootstrap
        x_interval, y_interval = boot.interval(x, metric), boot.interval(y, metric)
        x_full.append(x_interval.score)
        y_full.append(y_interval.score)
        x_rows.append(np.asarray(x_interval.samples)[orders[k]])
        y_rows.append(np.asarray(y_interval.samples)[orders[k]])
        verdicts.append(boot.pair(metric, x, y).verdict)
        deltas.append(x_interval.score - y_interval.score)
        better, worse = one_sided_p(
            np.asarray(x_interval.samples) - np.asarray(y_interval.samples), higher
        )
        p_better.append(better)
        p_worse.append(worse)
    x_mean, y_mean = np.mean(x_rows, axis=0), np.mean(y_rows, axis=0)
    comparison = compare(
        metric,
        x,
        y,
        (float(np.mean(x_full)), float(np.mean(y_full))),
        (x_mean, y_mean),
        level,
        higher,
    )
    names = tuple(found.name for _, found in members)
    made = AggregatePair(
        metric,
        x,
        y,
        names,
        verdicts.count(BETTER),
        verdicts.count(WORSE),
        tuple(deltas),
        comparison,
        partial_conjunction(p_better, alpha / 2),
        partial_conjunction(p_worse, alpha / 2),
        higher,
    )
    return made, x_mean - y_mean


def _decide(
    pairs: list[AggregatePair],
    rows: list[FloatArray],
    correction: Correction,
    family: Family,
    level: float,
) -> list[AggregatePair]:
    """The combined tests' verdicts under the correction, family by family as eval decides
    (each metric's pairs, or all)."""
    if not pairs:
        return []
    deltas = np.vstack(rows)
    groups = [[p.metric] for p in pairs]
    if family is Family.ALL:
        groups = [[p.metric for p in pairs]]
    result = list(pairs)
    for names in dict.fromkeys(tuple(dict.fromkeys(g)) for g in groups):
        chosen = [k for k, p in enumerate(pairs) if p.metric in names]
        family_input = FamilyInput(
            [pairs[k].comparison for k in chosen],
            deltas[chosen],
            [pairs[k].higher_is_better for k in chosen],
            [None for _ in chosen],
        )
        units = max(len(pairs[k].sets) for k in chosen)
        decided = decide_family(family_input, correction, level, units)
        for k, comparison in zip(chosen, decided, strict=True):
            result[k] = replace(pairs[k], comparison=comparison)
    return result
