"""How much test data is needed (Zhang & Vogel 2004, 4.1, Table 2, Figures 4-7).

For each fraction of the test set (10%, 20%, ..., 100% of the documents; of the segments when
there are no documents) a random subset is drawn, bootstrapped, and every system and metric
summarized; this is repeated K times (default 100). The subsets of one repetition are nested,
as in the paper's figures ("each time 10 random documents were added"): the first m documents
of one random order. A subset is cut from the stored per-segment statistics (its rows are
taken; nothing is re-tokenized) and resampled by the ordinary bootstrap, n units out of n.

Each subset is scored as a test set of its own, as in the paper. For NIST that means its own
information weights, counted in the subset's references only (which is why NIST rises with
size in Figure 4): given the texts the statistics came from, the study recomputes a subset's
information sums from n-gram counts kept per segment (:mod:`~mtgui.engine.studies.subset_nist`),
and the subset's resamples keep its weights, as the whole test set's keep the whole set's.
Without the texts NIST keeps the whole test set's weights, and the study says so in a note.

Per system, metric and fraction the result averages over the K subsets the subset's score, the
bootstrap median, the CI bounds and the relative CI (Table 2); the standard deviation of the
subset scores is the spread across repetitions (for bands in a plot).

The rule of thumb is fitted to the user's data: a least-squares line through log(CI width)
against log(segments) per system and metric. Its slope e says the width goes as n^e, so doubling
the data narrows the interval by 100 (1 - 2^e) % (the paper finds about 30%; e = -1/2 gives
29.3%). The width is the absolute one (the average upper bound minus the average lower bound):
relative widths mean nothing for scores around 0, such as human z-scores, and elsewhere give the
same slope but for the small drift of the median with size. Pooled figures fit one slope to all
systems (and metrics), each with its own intercept.

When does a pair become significantly different? At each fraction, the share of the K subsets
in which the paired bootstrap says x > y (or x < y) at the confidence level. A pair is
*separated* at a fraction when one of the two shares reaches ``agreement`` (default 95%); its
smallest separating fraction is the smallest one from which every larger fraction separates it
in the same direction (one lucky fraction does not count), and None when even the whole test set
does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.significance import BETTER, TIE, WORSE
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.studies.common import ALL

SIZE_RESAMPLES = 500
"""The study's default B per subset. The averages over 100 subsets are steady at this B (the
percentile noise of one bootstrap averages out over the subsets), and the study at its defaults
takes about 20 s on the benchmark set (10 systems, 3,000 segments; bench/bench_studies.py)."""
DEFAULT_FRACTIONS = tuple(k / 10 for k in range(1, 11))
MAX_REPEATS = 10_000


def _size_bootstrap() -> BootstrapSettings:
    return BootstrapSettings(resamples=SIZE_RESAMPLES)


@dataclass(frozen=True)
class SizeSettings:
    """The fractions, the K repetitions, the bootstrap of each subset and the agreement rule."""

    bootstrap: BootstrapSettings = field(default_factory=_size_bootstrap)
    fractions: tuple[float, ...] = DEFAULT_FRACTIONS
    repeats: int = 100
    agreement: float = 0.95

    def __post_init__(self) -> None:
        fractions = tuple(sorted({float(f) for f in self.fractions}))
        if not fractions or fractions[0] <= 0 or fractions[-1] > 1:
            raise InputError(
                "the fractions of the test set must be above 0 and at most 1.",
                hint="For example: 0.1,0.2,0.5,1.",
            )
        if not 1 <= self.repeats <= MAX_REPEATS:
            raise InputError(
                f"the number of repetitions must be from 1 to {MAX_REPEATS:,}, not {self.repeats}."
            )
        if not 0.5 < self.agreement <= 1:
            raise InputError(
                f"the agreement must be above 0.5 and at most 1, not {self.agreement}."
            )
        object.__setattr__(self, "fractions", fractions)

    def signature(self) -> str:
        """The study part of a result's signature."""
        fractions = ",".join(f"{f:g}" for f in self.fractions)
        return (
            f"size:{fractions}|repeats:{self.repeats}|agreement:{self.agreement}|"
            f"{self.bootstrap.signature()}"
        )


@dataclass(frozen=True)
class SizeRow:
    """One system under one metric at one fraction, averaged over the subsets done so far."""

    system: str
    metric: str
    fraction: float
    pieces: int  # documents (or segments) in each subset
    segments: float  # segments in a subset, on average
    repeats: int  # subsets bootstrapped so far
    score: float  # the subset's score, averaged
    score_std: float  # the spread of the subset scores across repetitions
    median: float  # the bootstrap median, averaged
    ci_low: float
    ci_high: float
    rel_ci_low: float  # percent
    rel_ci_high: float


@dataclass(frozen=True)
class PairSeparation:
    """How often a pair is significantly different, fraction by fraction (see the module)."""

    metric: str
    x: str
    y: str
    x_better: tuple[float, ...]  # per fraction: share of subsets where x is significantly better
    y_better: tuple[float, ...]
    smallest_fraction: float | None
    verdict: str  # '>' or '<' from the smallest fraction on, '~' when never separated


@dataclass(frozen=True)
class SizeFit:
    """The fitted rule of thumb: CI width proportional to segments ** exponent."""

    system: str  # ALL: every system, one slope
    metric: str  # ALL: every metric too
    exponent: float
    points: int

    @property
    def narrowing(self) -> float:
        """How much doubling the data narrows the interval, in percent."""
        return 100 * (1 - 2.0**self.exponent)


@dataclass(frozen=True)
class SizeStudy:
    """The test-set size study, complete or (in a progress snapshot) so far."""

    settings: SizeSettings
    signature: str
    by_document: bool  # subsets of documents (else of segments)
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    rows: tuple[SizeRow, ...]  # metric by metric, system by system, fraction by fraction
    pairs: tuple[PairSeparation, ...]  # every unordered pair, per metric
    fits: tuple[SizeFit, ...]  # per metric and system, then per metric, then overall
    repeats_done: int
    notes: tuple[str, ...] = ()

    @property
    def fractions(self) -> tuple[float, ...]:
        """The fractions, smallest first."""
        return self.settings.fractions

    def series(self, system: str, metric: str) -> tuple[SizeRow, ...]:
        """The rows of one system and metric, smallest fraction first (one line of a plot)."""
        return tuple(r for r in self.rows if r.system == system and r.metric == metric)

    def pair(self, metric: str, x: str, y: str) -> PairSeparation:
        """The separation of x and y (in load order) under a metric."""
        return next(p for p in self.pairs if (p.metric, p.x, p.y) == (metric, x, y))

    def fit(self, system: str = ALL, metric: str = ALL) -> SizeFit:
        """The fitted rule of thumb; by default pooled over every system and metric."""
        return next(f for f in self.fits if (f.system, f.metric) == (system, metric))


def smallest_separation(
    settings: SizeSettings, x_better: Sequence[float], y_better: Sequence[float]
) -> tuple[float | None, str]:
    """The smallest fraction from which on every fraction separates the pair in one direction,
    and that direction (see the module docstring); (None, '~') when the largest does not."""
    smallest, verdict = None, TIE
    for fraction, x, y in reversed(list(zip(settings.fractions, x_better, y_better, strict=True))):
        here = BETTER if x >= settings.agreement else WORSE if y >= settings.agreement else TIE
        if here == TIE or verdict not in (TIE, here):
            break
        smallest, verdict = fraction, here
    return smallest, verdict


def fit_rule_of_thumb(rows: Sequence[SizeRow]) -> tuple[SizeFit, ...]:
    """Slopes of log(CI width) against log(segments): per system and metric, per metric (all
    systems), and over everything; each system and metric keeps its own intercept."""
    lines: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for row in rows:
        width = row.ci_high - row.ci_low
        if np.isfinite(width) and width > 0 and row.segments > 0:
            lines.setdefault((row.system, row.metric), []).append((row.segments, width))
    keys = list(dict.fromkeys((row.system, row.metric) for row in rows))
    metrics = list(dict.fromkeys(metric for _, metric in keys))
    fits = [SizeFit(s, m, *_slope([lines.get((s, m), [])])) for s, m in keys]
    for metric in metrics:
        pooled = [lines.get(key, []) for key in keys if key[1] == metric]
        fits.append(SizeFit(ALL, metric, *_slope(pooled)))
    fits.append(SizeFit(ALL, ALL, *_slope([lines.get(key, []) for key in keys])))
    return tuple(fits)


def _slope(lines: Sequence[Sequence[tuple[float, float]]]) -> tuple[float, int]:
    """The common least-squares slope in log-log of several lines, each with its own intercept,
    and the number of points; NaN when no line has two distinct sizes."""
    dx, dy = [], []
    for points in lines:
        if len(points) < 2:
            continue
        logs = np.log(np.asarray(points, dtype=np.float64))
        centred = logs - logs.mean(axis=0)
        dx.append(centred[:, 0])
        dy.append(centred[:, 1])
    x = np.concatenate(dx) if dx else np.zeros(0)
    y = np.concatenate(dy) if dy else np.zeros(0)
    denominator = float(x @ x)
    return (float(x @ y) / denominator if denominator > 0 else float("nan")), len(x)
