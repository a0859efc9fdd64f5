"""Partial conjunction: on how many of n test sets is x better than y, with the family-wise
error controlled (Dror, Baumer, Bogomolov & Reichart 2017, "Replicability analysis for natural
language processing: testing significance with multiple datasets", after Benjamini & Heller
2008).

For u = 1..n, the null hypothesis "x is better on fewer than u sets" has the partial
conjunction p-value (p_(1) <= ... <= p_(n) the sets' one-sided p-values)

- Bonferroni: ``p^{u/n} = min(1, (n - u + 1) p_(u))``, valid under any dependence;
- Fisher: ``p^{u/n} = P(chi2 with 2(n - u + 1) df >= -2 sum_{i >= u} ln p_(i))``, for
  independent sets (more power when many sets show a small effect).

The nulls are nested (fewer than u implies fewer than u + 1), so testing u = 1, 2, ... in turn
at the level alpha, and stopping at the first that fails, controls the family-wise error; the
count is ``k = max{u : p^{v/n} <= alpha for all v <= u}`` (the running maximum of the p^{u/n}
below alpha). With Bonferroni the count is Holm's number of rejections among the sets'
p-values, and Holm's rejections name the sets (Dror et al.'s identification).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special


@dataclass(frozen=True)
class PartialConjunction:
    """How many of n sets show the effect, at a family-wise error alpha.

    ``at_least`` is the Bonferroni count (Holm's rejections), ``identified`` the indices of the
    sets it names (smallest p-value first), ``at_least_fisher`` Fisher's count (independent
    sets), ``p_values`` the monotone Bonferroni partial-conjunction p-values for u = 1..n.
    """

    at_least: int
    identified: tuple[int, ...]
    at_least_fisher: int
    p_values: tuple[float, ...]


def bonferroni_partial(p_sorted: Sequence[float]) -> list[float]:
    """``min(1, (n - u + 1) p_(u))`` for u = 1..n, from p-values sorted ascending."""
    n = len(p_sorted)
    return [min(1.0, (n - u) * p) for u, p in enumerate(p_sorted)]


def fisher_partial(p_sorted: Sequence[float]) -> list[float]:
    """Fisher's partial-conjunction p-value for u = 1..n, from p-values sorted ascending."""
    n = len(p_sorted)
    logs = np.log(np.clip(np.asarray(p_sorted, dtype=np.float64), 1e-300, 1.0))
    tails = -2 * np.cumsum(logs[::-1])[::-1]  # -2 sum_{i >= u} ln p_(i), u = 1..n
    return [float(v) for v in special.chdtrc(2 * (n - np.arange(n)), tails)]


def count_below(p_values: Sequence[float], alpha: float) -> int:
    """How many of the nested hypotheses are rejected in turn: the length of the leading run
    of p-values at most ``alpha`` (their running maximum below it)."""
    count = 0
    for p in p_values:
        if math.isnan(p) or p > alpha:
            break
        count += 1
    return count


def partial_conjunction(p_values: Sequence[float], alpha: float) -> PartialConjunction:
    """The partial-conjunction counts of one-sided p-values, one per set (NaN: no evidence,
    counted as 1)."""
    cleaned = [1.0 if math.isnan(p) else p for p in p_values]
    order = sorted(range(len(cleaned)), key=lambda i: cleaned[i])
    ordered = [cleaned[i] for i in order]
    bonferroni = _running_max(bonferroni_partial(ordered))
    count = count_below(bonferroni, alpha)
    return PartialConjunction(
        count,
        tuple(order[:count]),
        count_below(_running_max(fisher_partial(ordered)), alpha),
        tuple(bonferroni),
    )


def _running_max(values: Sequence[float]) -> list[float]:
    """Each value raised to the largest before it: the nested nulls' p-values made monotone."""
    return [float(v) for v in np.maximum.accumulate(np.asarray(values, dtype=np.float64))]
