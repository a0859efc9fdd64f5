"""Corrections for many comparisons that keep their power, and intervals that agree with them.

A grid of n systems makes m = n (n - 1) / 2 comparisons per metric. A correction keeps the
chance of any false ``>`` or ``<`` (Holm, max-T) or their expected share (Benjamini-Hochberg)
below alpha over a *family* of comparisons: each metric's pairs (:attr:`Family.METRIC`, the
default) or every metric's pairs together (:attr:`Family.ALL`).

- **Holm** (step-down Bonferroni) compares the i-th smallest p-value with alpha / (m - i + 1).
- **Benjamini-Hochberg** rejects the k smallest p-values, k the largest i with
  p_(i) < i alpha / m.
- **max-T** (Westfall & Young 1993, Alg. 4.1, with the bootstrap as resampling distribution):
  each pair's delta is studentized by its bootstrap standard error, T_j = d_j / se_j, and the
  centred resampled statistics T*_bj = (d*_bj - d_j) / se_j, all from the same joint resamples,
  give the null distribution of the largest |T| over the family. Step k of the step-down
  compares |T| of the k-th largest pair with the maximum over it and the pairs below it; the
  adjusted p-value is the running maximum of ``(#{b : q_bk >= |T_(k)|} + 1) / (B + 1)``. It
  uses how correlated the comparisons are (they share systems and resamples), so it does not
  multiply by m and keeps its power where Holm loses it.

  With few units the studentized statistic is not normal: its standard error is estimated from
  the n units themselves, so under the null T is Student's t with n - 1 degrees of freedom
  (times sqrt(n / (n - 1)), the bootstrap's plug-in variance), while the centred resampled
  statistics are close to normal. In the far tail a family of many pairs reaches, that makes
  the plain comparison liberal: with 20 systems (190 pairs) on 100 segments the family-wise
  error came out 8.7% instead of 5%. So each observed |T| is put on the resamples' normal
  scale first, z = g(|T| sqrt((n - 1) / n)), g the inverse of the Cornish-Fisher expansion of
  Student's quantile in the normal one (Abramowitz & Stegun 26.7.5, four terms: within 0.5% of
  the exact quantile for n >= 10 up to |z| = 4.5), and the critical value goes back the same
  way, c_T = h(c) sqrt(n / (n - 1)). With many units h is the identity and nothing changes.

One verdict, one interval: under a correction the interval beside a verdict holds 0 exactly when
the corrected verdict is ``~``. Holm: a pair decided at step i shows its percentile interval at
level 1 - alpha / (m - i + 1), a pair not rejected the level of the first step that failed.
Benjamini-Hochberg: every pair shows the interval at its deciding level max(k, 1) alpha / m (a
p-value below it is exactly a rejected one). max-T: d_j +- c_k se_j, c_k the critical value of
the pair's step (for a pair not rejected: of the first step that failed); c_1 is single-step
max-T's simultaneous critical value, so these intervals are never wider than the simultaneous
ones. The per-comparison interval is kept as ``ci_low_uncorrected`` / ``ci_high_uncorrected``.

Every decision is made on exact fractions from the counts of resampled deltas on either side of
0: with ``t = min(#{d* <= 0}, #{d* >= 0})`` of B, ``p = 2 (t + 1) / (B + 1)`` is below a level
alpha' exactly when the percentile interval with ``k = ceil(alpha' (B + 1) / 2) - 1`` excludes 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.power import detection, normal_quantile, tost_p_value
from mtgui.engine.inference.significance import (
    BETTER,
    EQUIVALENT,
    TIE,
    WORSE,
    Correction,
    PairComparison,
    alpha_of,
    benjamini_hochberg,
    holm,
)


class Family(StrEnum):
    """Which comparisons a correction treats as one family."""

    METRIC = "metric"  # each metric's pairs (the default)
    ALL = "all"  # every metric's pairs together

    @property
    def words(self) -> str:
        """The family in words, as a verdict's basis says it."""
        if self is Family.METRIC:
            return "the pairs of each metric"
        return "the pairs of every metric together"


ROUND_BELOW, ROUND_ABOVE = 100, 1000  # B is raised to a multiple of 100 up to 1,000, then 1,000


def family_size(systems: int, metrics: int, family: Family) -> int:
    """How many comparisons one family holds."""
    pairs = systems * (systems - 1) // 2
    return pairs * metrics if family is Family.ALL else pairs


def resamples_needed(correction: Correction, pairs: int, level: float) -> int:
    """The smallest B at which ``correction`` over ``pairs`` comparisons can reject anything.

    The smallest two-sided bootstrap p-value is 2 / (B + 1). Holm multiplies the smallest by m,
    and Benjamini-Hochberg compares it with alpha / m, so both need 2 m / (B + 1) < alpha, i.e.
    B >= floor(2 m / alpha). max-T's smallest adjusted p-value is 1 / (B + 1), so it (and no
    correction) needs only what a single comparison needs: 2 / (B + 1) < alpha.
    """
    m = max(pairs, 1) if correction in (Correction.HOLM, Correction.FDR) else 1
    return math.floor(Fraction(2 * m) / alpha_of(level))


def rounded_up(resamples: int) -> int:
    """The smallest round number of resamples at least ``resamples``: a multiple of 100 up to
    1,000, of 1,000 above."""
    step = ROUND_BELOW if resamples <= ROUND_ABOVE else ROUND_ABOVE
    return -(-resamples // step) * step


@dataclass(frozen=True)
class _Rows:
    """What the decisions need of each pair's resampled deltas (rows; NaN where undefined).

    Nothing here sorts a row: the counts are one pass each, and an interval's two order
    statistics come from a partition of the one row that needs them (the bootstrap has sorted
    the rows once already; sorting all again cost a tenth of a run)."""

    deltas: FloatArray
    count: npt.NDArray[np.int64]  # defined deltas per row
    tail: npt.NDArray[np.int64]  # min(#{d* <= 0}, #{d* >= 0})
    x_above: npt.NDArray[np.bool_]
    se: FloatArray  # the bootstrap standard error of each delta

    @classmethod
    def of(cls, deltas: FloatArray) -> _Rows:
        deltas = np.atleast_2d(np.asarray(deltas, dtype=np.float64))
        defined = ~np.isnan(deltas)
        at_most = (deltas <= 0).sum(axis=1)  # NaN compares false
        at_least = (deltas >= 0).sum(axis=1)
        count = defined.sum(axis=1)
        return cls(
            deltas,
            count,
            np.minimum(at_most, at_least),
            at_most <= at_least,
            standard_errors(deltas),
        )

    def p_exact(self, row: int) -> Fraction | None:
        """The row's two-sided bootstrap p-value as a fraction (None without deltas)."""
        count = int(self.count[row])
        if count == 0:
            return None
        return min(Fraction(1), Fraction(2 * (int(self.tail[row]) + 1), count + 1))

    def bounds(self, row: int, alpha: Fraction) -> tuple[float, float]:
        """The row's percentile interval at level 1 - alpha: its k-th smallest and largest
        defined delta, k = ceil(alpha (B + 1) / 2) - 1 (NaN where B is too small)."""
        count = int(self.count[row])
        k = math.ceil(alpha * (count + 1) / 2) - 1
        if k < 1 or count == 0:
            return math.nan, math.nan
        values = self.deltas[row]
        values = values[~np.isnan(values)] if count < len(values) else values
        placed = np.partition(values, [k - 1, count - k])
        return float(placed[k - 1]), float(placed[count - k])

    def outside(self, row: int, margin: float) -> tuple[int, int]:
        """How many of the row's deltas are at most -margin and at least +margin."""
        values = self.deltas[row]
        return int((values <= -margin).sum()), int((values >= margin).sum())


def standard_errors(deltas: FloatArray) -> FloatArray:
    """The standard deviation (ddof 1) of each row's defined values; NaN with fewer than 2."""
    deltas = np.atleast_2d(np.asarray(deltas, dtype=np.float64))
    if deltas.shape[1] < 2:
        return np.full(len(deltas), math.nan)
    result = deltas.std(axis=1, ddof=1)
    for row in np.flatnonzero(np.isnan(result)):  # rows with undefined deltas (rare)
        defined = deltas[row][~np.isnan(deltas[row])]
        result[row] = defined.std(ddof=1) if len(defined) > 1 else math.nan
    return result


@dataclass(frozen=True)
class FamilyInput:
    """One family: its pairs, their resampled deltas (one row each, the same resamples), and
    per pair whether higher is better and the equivalence margin (None: none asked)."""

    pairs: Sequence[PairComparison]
    deltas: FloatArray
    higher_is_better: Sequence[bool]
    margins: Sequence[float | None]


Updates = list[dict[str, object]]
"""The new field values of each pair, applied at the end by one ``replace`` per pair."""


def decide_family(
    family: FamilyInput, correction: Correction, level: float, units: int | Sequence[int]
) -> list[PairComparison]:
    """The family's pairs with their corrected p-values, verdicts and agreeing intervals, and
    for every pair its minimum detectable difference and (with a margin) its equivalence test.
    ``units`` is how many units (segments or documents) were resampled: one number, or one
    per pair where the family joins test sets of different sizes (a breakdown's groups)."""
    pairs = list(family.pairs)
    if not pairs:
        return []
    sizes = [units] * len(pairs) if isinstance(units, int) else [int(u) for u in units]
    rows = _Rows.of(family.deltas)
    alpha = alpha_of(level)
    updates: Updates = [{} for _ in pairs]
    if correction is Correction.MAXT:
        _maxt(pairs, rows, alpha, family.higher_is_better, updates, np.array(sizes))
    else:
        _by_levels(pairs, rows, correction, alpha, family.higher_is_better, updates)
    if correction in (Correction.HOLM, Correction.FDR):
        _adjusted_p(pairs, correction, updates)
    for row, pair in enumerate(pairs):
        _power(pair, rows, row, sizes[row], updates[row])
        margin = family.margins[row]
        if margin is not None:
            _equivalence(pair, rows, row, alpha, margin, updates[row])
    return [_updated(pair, update) for pair, update in zip(pairs, updates, strict=True)]


def _updated(pair: PairComparison, update: dict[str, object]) -> PairComparison:
    """``dataclasses.replace(pair, **update)`` without its per-field checks: the comparison has
    no ``__post_init__``, and ``replace`` over its 29 fields cost 0.17 ms a pair, more than all
    the arithmetic of a family without a correction."""
    new = object.__new__(PairComparison)
    new.__dict__.update(pair.__dict__)
    new.__dict__.update(update)
    return new


def _by_levels(
    pairs: list[PairComparison],
    rows: _Rows,
    correction: Correction,
    alpha: Fraction,
    higher_is_better: Sequence[bool],
    updates: Updates,
) -> None:
    """Holm, Benjamini-Hochberg or none: each pair's deciding level, its verdict at that level
    and its percentile interval at that level."""
    levels = _deciding_levels(rows, correction, alpha)
    for row, pair in enumerate(pairs):
        level_alpha = levels[row]
        updates[row]["pair_alpha"] = float(level_alpha or alpha)
        if correction is Correction.NONE or level_alpha is None:
            continue
        p = rows.p_exact(row)
        verdict = TIE
        if p is not None and p < level_alpha:
            verdict = BETTER if bool(rows.x_above[row]) == higher_is_better[row] else WORSE
        low, high = rows.bounds(row, level_alpha)
        updates[row].update(_corrected(pair, verdict, low, high))


def _deciding_levels(rows: _Rows, correction: Correction, alpha: Fraction) -> list[Fraction | None]:
    """Each pair's alpha at its deciding step (None for a pair without deltas)."""
    levels: list[Fraction | None] = [None] * len(rows.count)
    if correction is Correction.NONE:
        return [alpha if count else None for count in rows.count.tolist()]
    known = [(p, row) for row in range(len(rows.count)) if (p := rows.p_exact(row)) is not None]
    known.sort(key=lambda item: item[0])  # stable: ties in the order given
    m = len(known)
    if correction is Correction.HOLM:
        failed: Fraction | None = None
        for step, (p, row) in enumerate(known):
            threshold = alpha / (m - step)
            if failed is None and not p < threshold:
                failed = threshold
            levels[row] = failed if failed is not None else threshold
    else:  # Benjamini-Hochberg: one level, that of the largest rejecting step
        k = max((i + 1 for i, (p, _) in enumerate(known) if p < alpha * (i + 1) / m), default=0)
        for _, row in known:
            levels[row] = alpha * max(k, 1) / m
    return levels


def _corrected(pair: PairComparison, verdict: str, low: float, high: float) -> dict[str, object]:
    """The corrected verdict and agreeing interval; the per-comparison interval kept under its
    own name."""
    return {
        "verdict": verdict,
        "ci_low": low,
        "ci_high": high,
        "ci_low_uncorrected": pair.ci_low,
        "ci_high_uncorrected": pair.ci_high,
    }


def _adjusted_p(pairs: list[PairComparison], correction: Correction, updates: Updates) -> None:
    """The adjusted p-values (bootstrap and, if run, randomization) beside the verdicts."""
    adjust = holm if correction is Correction.HOLM else benjamini_hochberg
    adjusted = adjust([p.p_value for p in pairs])
    ar_values = [p.p_value_ar for p in pairs]
    adjusted_ar = adjust([v for v in ar_values if v is not None]) if None not in ar_values else []
    name = "p_holm" if correction is Correction.HOLM else "p_fdr"
    for k, update in enumerate(updates):
        update[name] = adjusted[k]
        update[f"{name}_ar"] = adjusted_ar[k] if adjusted_ar else None


def student_quantile(z: FloatArray, units: int) -> FloatArray:
    """h: Student's t quantile (n - 1 degrees of freedom) at the normal tail of ``z``, by the
    Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5); ``z`` itself below 3 units."""
    z = np.asarray(z, dtype=np.float64)
    if units < 3:
        return z
    v = float(units - 1)
    z2 = z * z
    g1 = (z2 + 1) / 4
    g2 = ((5 * z2 + 16) * z2 + 3) / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160
    result: FloatArray = z * (1 + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v)
    return result


def normal_equivalent(t: FloatArray, units: int) -> FloatArray:
    """g, the inverse of :func:`student_quantile`: the normal z whose tail is that of Student's
    ``t`` (n - 1 degrees of freedom). Newton's method from ``t`` itself (h is convex and above
    the identity for z >= 0, so the steps come down monotonically); exact to 1e-12."""
    t = np.asarray(t, dtype=np.float64)
    if units < 3 or not t.size:
        return t
    z = t.copy()
    step = 1e-6
    for _ in range(50):
        value = student_quantile(z, units) - t
        slope = (student_quantile(z + step, units) - student_quantile(z - step, units)) / (2 * step)
        moved = value / slope
        z -= moved
        if np.all(np.abs(moved) < 1e-12):
            break
    return z


def _small_sample(units: int) -> float:
    """sqrt((n - 1) / n): the bootstrap's plug-in standard error is this much smaller than the
    textbook one, so its T is this much larger than Student's."""
    return math.sqrt((units - 1) / units) if units >= 3 else 1.0


def _to_normal(t_abs: FloatArray, units: npt.NDArray[np.int64]) -> FloatArray:
    """Each |T| on the resamples' normal scale, by its own pair's units."""
    z = np.array(t_abs, dtype=np.float64)
    for n in np.unique(units).tolist():
        chosen = units == n
        z[chosen] = normal_equivalent(z[chosen] * _small_sample(n), n)
    return z


def _to_student(c: FloatArray, units: npt.NDArray[np.int64]) -> FloatArray:
    """Each critical value back on the scale of its pair's T."""
    result = np.array(c, dtype=np.float64)
    for n in np.unique(units).tolist():
        chosen = units == n
        result[chosen] = student_quantile(result[chosen], n) / _small_sample(n)
    return result


def _maxt(
    pairs: list[PairComparison],
    rows: _Rows,
    alpha: Fraction,
    higher_is_better: Sequence[bool],
    updates: Updates,
    units: npt.NDArray[np.int64],
) -> None:
    """Westfall-Young step-down max-T (see the module docstring); ``units`` per pair."""
    deltas = rows.deltas
    observed = np.array([p.delta for p in pairs], dtype=np.float64)
    se = rows.se
    usable = np.flatnonzero(np.isfinite(se) & (se > 0) & np.isfinite(observed))
    t_abs = np.abs(observed[usable] / se[usable])
    order = usable[np.argsort(-t_abs, kind="stable")]
    t_sorted = np.abs(observed[order] / se[order])
    z_sorted = _to_normal(t_sorted, units[order])  # on the resamples' normal scale
    count = deltas.shape[1]
    centred = deltas[order] - observed[order, None]  # one new array, then in place
    centred /= se[order, None]
    np.abs(centred, out=centred)
    centred[np.isnan(centred)] = 0.0  # an undefined resampled delta adds nothing to a maximum
    q = np.maximum.accumulate(centred[::-1], axis=0)[::-1]  # q_bk = max over l >= k
    exceed = (q >= z_sorted[:, None]).sum(axis=1)
    adjusted = np.maximum.accumulate((exceed + 1) / (count + 1)) if len(order) else exceed
    most = math.ceil(alpha * (count + 1)) - 2  # p_k < alpha exactly when exceed_k <= most
    passed = np.logical_and.accumulate(exceed <= most) if len(order) else exceed > 0
    critical = np.full(len(order), math.inf)
    if most >= 0 and len(order):
        # the (most + 1)-th largest of each step's maxima
        place = count - 1 - most  # the (most + 1)-th largest is this smallest
        critical = np.partition(q, place, axis=1)[:, place]
    first_failed = int(np.argmin(passed)) if not passed.all() else len(order)
    for rank, row in enumerate(order.tolist()):
        significant = bool(passed[rank])
        c_normal = critical[rank if significant else first_failed]
        c = float(_to_student(np.array([c_normal]), units[row : row + 1])[0])
        low, high = _symmetric(observed[row], c * se[row], significant)
        verdict = TIE
        if significant:
            verdict = BETTER if (observed[row] > 0) == higher_is_better[row] else WORSE
        updates[row].update(_corrected(pairs[row], verdict, low, high))
        updates[row].update(p_maxt=float(adjusted[rank]), critical=c, pair_alpha=float(alpha))
    for row in sorted(set(range(len(pairs))) - set(order.tolist())):
        delta = pairs[row].delta
        updates[row].update(_corrected(pairs[row], TIE, delta, delta))
        updates[row].update(p_maxt=1.0, pair_alpha=float(alpha))


def _symmetric(delta: float, half: float, significant: bool) -> tuple[float, float]:
    """delta +- half, with 0 inside exactly when not significant: |delta| > half is the test
    itself, and float rounding of half = c se must not turn it (a bound within a few ulps of 0
    is put on the side the test decided)."""
    low, high = delta - half, delta + half
    holds_zero = low <= 0 <= high
    if holds_zero and significant:
        low, high = (math.ulp(0.0), high) if delta > 0 else (low, -math.ulp(0.0))
    elif not holds_zero and not significant:
        low, high = (0.0, high) if delta > 0 else (low, 0.0)
    return low, high


def _power(
    pair: PairComparison, rows: _Rows, row: int, units: int, update: dict[str, object]
) -> None:
    """The pair's minimum detectable difference and the units needed to detect its delta."""
    critical = update.get("critical")
    if not isinstance(critical, float):
        pair_alpha = update.get("pair_alpha")
        critical = (
            normal_quantile(1 - pair_alpha / 2) if isinstance(pair_alpha, float) else math.nan
        )
    update["mdd"], update["units_needed"] = detection(
        float(rows.se[row]), pair.delta, critical, units
    )


def _equivalence(
    pair: PairComparison,
    rows: _Rows,
    row: int,
    alpha: Fraction,
    margin: float,
    update: dict[str, object],
) -> None:
    """The equivalence test at the chosen level: ``=`` replaces ``~`` where it shows the delta
    within the margin."""
    below, above = rows.outside(row, margin)
    p_tost = tost_p_value(below, above, int(rows.count[row]))
    update["margin"], update["p_tost"] = margin, float(p_tost)
    if update.get("verdict", pair.verdict) == TIE and p_tost < alpha:
        update["verdict"] = EQUIVALENT


FEW_UNITS_RATIO = 1.25
"""Holm and BH get a note when Student's t makes their first bar this many times as lenient."""


def few_units_note(
    correction: Correction, pairs: int, units: int, level: float, unit: str
) -> list[str]:
    """A note where Holm or Benjamini-Hochberg reach so far into the tail, with so few units,
    that the bootstrap (which takes the standard error as known) lets through more false
    differences than promised: the ratio of Student's t tail (n - 1 degrees of freedom) to the
    normal one at the first bar, alpha / m, bounds the family-wise error by ratio x alpha
    (measured with 20 systems on 100 segments: 4.5-8.3%). max-T allows for it, so it gets none."""
    if correction not in (Correction.HOLM, Correction.FDR) or units < 3 or pairs < 2:
        return []
    alpha = float(alpha_of(level))
    bar = alpha / pairs
    z = normal_quantile(1 - bar / 2)
    equivalent = float(normal_equivalent(np.array([z * _small_sample(units)]), units)[0])
    ratio = (1 - _normal_cdf(equivalent)) / (bar / 2)
    if ratio < FEW_UNITS_RATIO:
        return []
    return [
        f"With {pairs:,} comparisons and only {units:,} {unit}s, {correction.label} decides far "
        "out in the tail, where the bootstrap takes each standard error as known while it is "
        "estimated from these few units: the chance of any false difference can exceed "
        f"{alpha:.0%}, up to about {min(ratio * alpha, 1):.0%}. The max-T correction "
        "(--correction maxt) allows for this."
    ]


def _normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))
