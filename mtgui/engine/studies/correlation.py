"""Do the automatic metrics agree with the human scores? (Zhang, Vogel & Waibel 2004, Table 6.)

When per-segment human scores are loaded, ``human`` is a metric like the others: it has its
bootstrap CI and its significance grid from the same resamples. This study adds, for every
automatic metric, over the systems that have human scores:

- the system-level Pearson and Spearman correlation with the human scores (Spearman: Pearson of
  the ranks, ties sharing their mean rank), each with a percentile CI from the same bootstrap
  resamples (the correlation of the resampled scores). For TER and WER, where lower is better, a
  good metric correlates negatively;
- the pairs of systems on which the metric and the humans disagree, in three kinds kept apart:
  ``opposite``, the metric says x is significantly better than y and the humans that y is
  significantly better than x (the paper's F vs G: BLEU and NIST rank F above G, humans G above
  F); ``metric_only``, the metric finds a significant difference the humans do not; and
  ``human_only``, the humans find one the metric does not. Each pair is named so that x is the
  system the metric (for ``human_only``, the humans) finds better.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from contextlib import closing
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from mtgui.engine.analysis import BootstrapResult, iter_bootstrap
from mtgui.engine.bootstrap import BootstrapSettings, IntArray
from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.significance import TIE, WORSE, PairComparison
from mtgui.engine.statistics import Statistics
from mtgui.engine.studies.common import StudyProgress, percentile_bounds, study_signature

HUMAN = "human"
OPPOSITE, METRIC_ONLY, HUMAN_ONLY = "opposite", "metric_only", "human_only"
MIN_SYSTEMS = 3  # two points always correlate perfectly


@dataclass(frozen=True)
class MetricCorrelation:
    """How one automatic metric agrees with the human scores at the system level."""

    metric: str
    higher_is_better: bool
    systems: int
    pearson: float
    pearson_low: float  # the bootstrap CI at the study's level
    pearson_high: float
    spearman: float
    spearman_low: float
    spearman_high: float
    pairs: int  # unordered pairs of systems
    agree: int  # both significant in the same direction, or both not significant
    opposite: int
    metric_only: int
    human_only: int


@dataclass(frozen=True)
class Disagreement:
    """A pair on which a metric and the humans disagree (x: the system found better)."""

    kind: str  # OPPOSITE, METRIC_ONLY or HUMAN_ONLY
    metric: str
    x: str
    y: str
    metric_verdict: str  # x against y
    human_verdict: str
    metric_delta: float  # x - y on the whole test set, in the metric's units
    human_delta: float
    metric_p_value: float
    human_p_value: float


@dataclass(frozen=True)
class HumanStudy:
    """Metric-human agreement; ``bootstrap`` has the human scores' CI and grid too."""

    settings: BootstrapSettings
    signature: str
    systems: tuple[str, ...]  # those with human scores
    left_out: tuple[str, ...]  # systems without human scores
    bootstrap: BootstrapResult | None  # None in the snapshots while resampling
    correlations: tuple[MetricCorrelation, ...]
    disagreements: tuple[Disagreement, ...]
    notes: tuple[str, ...] = ()

    def correlation(self, metric: str) -> MetricCorrelation:
        """The correlation of one metric with the human scores."""
        return next(c for c in self.correlations if c.metric == metric)

    def of_kind(self, kind: str) -> tuple[Disagreement, ...]:
        """The disagreements of one kind."""
        return tuple(d for d in self.disagreements if d.kind == kind)


def iter_human_study(
    statistics: Statistics,
    settings: BootstrapSettings | None = None,
    document_index: IntArray | None = None,
) -> Generator[StudyProgress[HumanStudy], None, HumanStudy]:
    """Bootstrap the systems that have human scores, then correlate and compare.

    ``statistics`` must hold the ``human`` metric and at least one other. Snapshots are the
    bootstrap's, counting resamples; the tables come with the result.
    """
    requested = settings or BootstrapSettings()
    settings = requested.resolved(document_index)[0]  # the bootstrap's notes say why
    judged, left_out = _split_systems(statistics)
    subset = replace(statistics, systems=tuple(s for s in statistics.systems if s.system in judged))
    signature = study_signature(statistics.signature(), f"human|{settings.signature()}")
    empty = HumanStudy(settings, signature, judged, left_out, None, (), (), ())
    with closing(iter_bootstrap(subset, requested, document_index)) as analysis:
        while True:
            try:
                step = next(analysis)
            except StopIteration as finished:
                result: BootstrapResult = finished.value
                break
            yield StudyProgress(step.done, step.total, step.phase, empty)
    automatic = [m for m in subset.metrics if m.name != HUMAN]
    notes = list(result.notes)
    if len(judged) < MIN_SYSTEMS:
        notes.append(f"Correlations need at least {MIN_SYSTEMS} systems with human scores.")
    if left_out:
        notes.append(f"Systems without human scores were left out: {', '.join(left_out)}.")
    correlations, disagreements = [], []
    for metric in automatic:
        found = disagreements_of(result, metric.name, judged)
        disagreements += found
        correlations.append(
            _correlation(subset, result, metric.name, metric.higher_is_better, found)
        )
    return replace(
        empty,
        bootstrap=result,
        correlations=tuple(correlations),
        disagreements=tuple(disagreements),
        notes=tuple(notes),
    )


def _split_systems(statistics: Statistics) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The systems with human scores and those without; an error when the study cannot run."""
    names = [m.name for m in statistics.metrics]
    if HUMAN not in names:
        raise InputError(
            "the human study needs the human metric.",
            hint="Load per-segment human scores (--scores) and add 'human' to the metrics.",
        )
    if len(names) < 2:
        raise InputError(
            "the human study needs an automatic metric to compare with the human scores.",
            hint="Add one to the metrics, e.g. bleu.",
        )
    judged = tuple(s for s in statistics.system_names if not math.isnan(statistics.score(s, HUMAN)))
    if len(judged) < 2:
        raise InputError(
            f"the human study needs two or more systems with human scores, not {len(judged)}.",
            hint="Check that the system names in the scores file match the systems loaded.",
        )
    return judged, tuple(s for s in statistics.system_names if s not in judged)


def disagreements_of(
    result: BootstrapResult, metric: str, systems: tuple[str, ...]
) -> list[Disagreement]:
    """Every pair of ``systems`` on which ``metric`` and the humans disagree."""
    found = []
    for x, y in combinations(systems, 2):
        ours, theirs = result.pair(metric, x, y), result.pair(HUMAN, x, y)
        kind = _kind(ours.verdict, theirs.verdict)
        if kind is None:
            continue
        leading = theirs.verdict if kind == HUMAN_ONLY else ours.verdict
        if leading == WORSE:
            ours, theirs = ours.mirrored(), theirs.mirrored()
        found.append(_disagreement(kind, ours, theirs))
    return found


def _kind(metric_verdict: str, human_verdict: str) -> str | None:
    """How a metric's verdict on a pair disagrees with the humans', None when it does not."""
    if metric_verdict == human_verdict:
        return None
    if TIE not in (metric_verdict, human_verdict):
        return OPPOSITE
    return METRIC_ONLY if human_verdict == TIE else HUMAN_ONLY


def _disagreement(kind: str, ours: PairComparison, theirs: PairComparison) -> Disagreement:
    return Disagreement(
        kind,
        ours.metric,
        ours.x,
        ours.y,
        ours.verdict,
        theirs.verdict,
        ours.delta,
        theirs.delta,
        ours.p_value,
        theirs.p_value,
    )


def _correlation(
    statistics: Statistics,
    result: BootstrapResult,
    metric: str,
    higher_is_better: bool,
    found: list[Disagreement],
) -> MetricCorrelation:
    """Pearson and Spearman over the systems, with their bootstrap CIs, and the pair counts."""
    systems = statistics.system_names
    full = np.array([[statistics.score(s, name) for s in systems] for name in (metric, HUMAN)])
    samples = np.stack(
        [np.stack([result.interval(s, name).samples for s in systems]) for name in (metric, HUMAN)]
    )  # (2, systems, resamples)
    level = result.settings.level
    enough = len(systems) >= MIN_SYSTEMS
    pearson = _with_ci(full, samples, level, pearson_rows, enough)
    spearman = _with_ci(full, samples, level, spearman_rows, enough)
    pairs = len(systems) * (len(systems) - 1) // 2
    kinds = [d.kind for d in found]
    counts = [kinds.count(k) for k in (OPPOSITE, METRIC_ONLY, HUMAN_ONLY)]
    return MetricCorrelation(
        metric,
        higher_is_better,
        len(systems),
        *pearson,
        *spearman,
        pairs,
        pairs - len(found),
        *counts,
    )


def _with_ci(
    full: FloatArray,
    samples: FloatArray,
    level: float,
    correlate: Callable[[FloatArray, FloatArray], FloatArray],
    enough: bool,
) -> tuple[float, float, float]:
    """A correlation on the whole test set and its percentile CI over the resamples."""
    if not enough:
        return math.nan, math.nan, math.nan
    value = correlate(full[0][:, None], full[1][:, None])[0]
    low, _, high = percentile_bounds(correlate(samples[0], samples[1])[None, :], level)
    return float(value), float(low[0]), float(high[0])


def pearson_rows(first: FloatArray, second: FloatArray) -> FloatArray:
    """Pearson's r between ``first`` and ``second`` along their first axis (the systems), for
    every column (resample) at once; NaN where a column is constant or has an undefined value."""
    x = first - first.mean(axis=0)
    y = second - second.mean(axis=0)
    scale = np.sqrt((x * x).sum(axis=0) * (y * y).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(scale > 0, (x * y).sum(axis=0) / scale, np.nan)


def spearman_rows(first: FloatArray, second: FloatArray) -> FloatArray:
    """Spearman's rho: Pearson's r of the ranks, column by column (NaN where a value is)."""
    undefined = np.isnan(first).any(axis=0) | np.isnan(second).any(axis=0)
    rho = pearson_rows(average_ranks(first), average_ranks(second))
    return np.where(undefined, np.nan, rho)


def average_ranks(values: FloatArray) -> FloatArray:
    """Ranks 1..n along the first axis, tied values sharing the mean of their ranks.

    A value's rank is 1 + the values below it, plus half the other values equal to it; one
    comparison of every pair of systems does it for all columns at once (systems are few).
    """
    below = (values[None, :] < values[:, None]).sum(axis=1)
    equal = (values[None, :] == values[:, None]).sum(axis=1)
    ranks: FloatArray = below + (equal + 1) / 2
    return ranks
