"""Do the automatic metrics agree with the human scores? (Zhang, Vogel & Waibel 2004, Table 6.)

When per-segment human scores are loaded, ``human`` is a metric like the others: it has its
bootstrap CI and its significance grid from the same resamples. This study adds, over the
systems that have human scores:

- for every automatic metric, the system-level Pearson and Spearman correlation with the human
  scores (Spearman: Pearson of the ranks, ties sharing their mean rank), each with three
  intervals at the study's level. For TER and WER, where lower is better, a good metric
  correlates negatively.

  * Over systems and segments, the interval to quote: in resample b the systems are drawn again,
    with replacement (a random stream of their own, ``default_rng([seed, 5])``), and resample
    b's scores of the drawn systems are correlated. A correlation over a few systems depends as
    much on which systems were evaluated as on the test set, and only this interval covers both.
    A resample whose drawn systems all score alike, under the metric or the humans, has no
    correlation: it is left out, counted in ``undefined_resamples`` and noted.
  * Fisher's z, for comparison: tanh(atanh r +- z_(1-alpha/2) s) over the n systems, with
    s = 1/sqrt(n - 3) for Pearson and sqrt(1.06/(n - 3)) for Spearman (Fieller, Hartley &
    Pearson 1957); it needs n >= 4, assumes normally distributed system scores and ignores the
    test set's own noise.
  * Over segments only, the systems fixed (the interval mtgui gave before): how much the
    correlation of *these* systems would move on another test set. It is much narrower and says
    nothing about how well the metric agrees with humans on other systems.

- for every pair of automatic metrics, whether one agrees with the humans better than the
  other: Williams' test and the paired bootstrap of the difference of their Pearson
  correlations, larger meaning better agreement whichever the metric's direction
  (:mod:`mtgui.engine.studies.human.correlation_tests`);
- the pairs of systems on which the metric and the humans disagree, in three kinds kept apart:
  ``opposite``, the metric says x is significantly better than y and the humans that y is
  significantly better than x (the paper's F vs G: BLEU and NIST rank F above G, humans G above
  F); ``metric_only``, the metric finds a significant difference the humans do not; and
  ``human_only``, the humans find one the metric does not. Each pair is named so that x is the
  system the metric (for ``human_only``, the humans) finds better.

Any metric (loaded MQM or COMET scores) can play the humans' part (``human=``), lower-is-better
ones too: the tests of pairs of metrics then orient the correlations accordingly.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from contextlib import closing
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.significance import TIE, WORSE, PairComparison
from mtgui.engine.metrics.base import Metric
from mtgui.engine.resampling.bootstrap import BootstrapResult, iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.common import (
    StudyProgress,
    percentile_bounds,
    relay,
    study_signature,
)
from mtgui.engine.studies.human.accuracy import (
    METRICS_STREAM,
    PERMUTATIONS,
    AccuracyTest,
    MetricAccuracy,
    iter_judge_metrics,
)
from mtgui.engine.studies.human.correlation_stats import (
    MIN_FISHER,
    MIN_SYSTEMS,
    Resampled,
    draw_systems,
    fisher_interval,
    iter_resampled,
    pearson_rows,
    spearman_rows,
)
from mtgui.engine.studies.human.correlation_tests import (
    Agreement,
    CorrelationTest,
    correlation_test,
)
from mtgui.engine.studies.human.meta_evaluation import swap_masks

HUMAN = "human"
OPPOSITE, METRIC_ONLY, HUMAN_ONLY = "opposite", "metric_only", "human_only"
SYSTEMS_STREAM = 5  # the systems drawn per resample: default_rng([seed, 5]); 1-4 are taken


@dataclass(frozen=True)
class MetricCorrelation:
    """How one automatic metric agrees with the human scores at the system level.

    ``*_low``/``*_high``: over systems and segments; ``*_fisher_*``: Fisher's z; ``*_segments_*``:
    over segments only, the systems fixed (see the module's docstring).
    """

    metric: str
    higher_is_better: bool
    systems: int
    pearson: float
    pearson_low: float
    pearson_high: float
    pearson_fisher_low: float
    pearson_fisher_high: float
    pearson_segments_low: float
    pearson_segments_high: float
    spearman: float
    spearman_low: float
    spearman_high: float
    spearman_fisher_low: float
    spearman_fisher_high: float
    spearman_segments_low: float
    spearman_segments_high: float
    undefined_resamples: int  # resamples of systems and segments without a correlation
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
    correlation_tests: tuple[CorrelationTest, ...]  # every unordered pair of automatic metrics
    disagreements: tuple[Disagreement, ...]
    notes: tuple[str, ...] = ()
    human: str = HUMAN  # the metric that plays the humans' part
    accuracies: tuple[MetricAccuracy, ...] = ()  # WMT's statistics, one row per metric
    accuracy_tests: tuple[AccuracyTest, ...] = ()  # every pair of metrics, best first

    def accuracy(self, metric: str) -> MetricAccuracy:
        """One metric's pairwise accuracies, Kendall variants and cluster."""
        return next(a for a in self.accuracies if a.metric == metric)

    def correlation(self, metric: str) -> MetricCorrelation:
        """The correlation of one metric with the human scores."""
        return next(c for c in self.correlations if c.metric == metric)

    def correlation_test(self, first: str, second: str) -> CorrelationTest:
        """The test of two metrics' agreement with the humans, in either order."""
        return next(
            t for t in self.correlation_tests if {t.metric_x, t.metric_y} == {first, second}
        )

    def of_kind(self, kind: str) -> tuple[Disagreement, ...]:
        """The disagreements of one kind."""
        return tuple(d for d in self.disagreements if d.kind == kind)


def iter_human_study(
    statistics: Statistics,
    settings: BootstrapSettings | None = None,
    document_index: IntArray | None = None,
    human: str = HUMAN,
) -> Generator[StudyProgress[HumanStudy], None, HumanStudy]:
    """Bootstrap the systems that have human scores, then correlate and compare.

    ``statistics`` must hold the metric ``human`` (the one that plays the humans' part: by
    default ``human``) and at least one other. Snapshots count
    resamples, twice: the bootstrap's (its phases), then ``correlating`` (the resamples of
    systems); the tables come with the result.
    """
    requested = settings or BootstrapSettings()
    settings = requested.resolved(document_index)[0]  # the bootstrap's notes say why
    judged, left_out = _split_systems(statistics, human)
    subset = replace(statistics, systems=tuple(s for s in statistics.systems if s.system in judged))
    study = f"human|{settings.signature()}|systems:{SYSTEMS_STREAM}"
    if human != HUMAN:
        study += f"|human:{human}"
    signature = study_signature(statistics.signature(), study)
    empty = HumanStudy(settings, signature, judged, left_out, None, (), (), (), human=human)
    with closing(iter_bootstrap(subset, requested, document_index)) as analysis:
        while True:
            try:
                step = next(analysis)
            except StopIteration as finished:
                result: BootstrapResult = finished.value
                break
            yield StudyProgress(step.done, step.total, step.phase, empty)
    metrics = [m for m in subset.metrics if m.name != human]
    truth = _scores(result, judged, human)
    scores = [_scores(result, judged, m.name) for m in metrics]
    draws = draw_systems(settings.seed, SYSTEMS_STREAM, len(judged), truth[1].shape[1])
    resampling = iter_resampled([s[1] for s in scores], truth[1], draws)
    progress = StudyProgress(0, len(draws), "correlating", empty)
    resampled = yield from relay(resampling, progress, counted=True)
    humans_higher = statistics.metric(human).higher_is_better
    compared = dict(zip(metrics, scores, strict=True))
    compared_study = _compare(empty, result, compared, truth[0], resampled, humans_higher)
    judging = iter_judge_metrics(
        subset, metrics, statistics.metric(human), judged, settings.seed, settings.level
    )
    progress = StudyProgress(0, len(metrics), "judging", empty)
    accuracies, tests = yield from relay(judging, progress, counted=True)
    return replace(compared_study, accuracies=accuracies, accuracy_tests=tests)


def _compare(
    study: HumanStudy,
    result: BootstrapResult,
    scores: dict[Metric, tuple[FloatArray, FloatArray]],
    human: FloatArray,
    resampled: list[Resampled],
    humans_higher: bool = True,
) -> HumanStudy:
    """The study's tables from the bootstrap of the judged systems (``scores``: each metric's on
    the whole test set and per resample; ``human``: the human scores on the whole test set):
    each metric's correlations, each pair of metrics' tests, and the disagreements;
    ``humans_higher``: whether higher is better for the humans' metric."""
    judged, level = study.systems, result.settings.level
    correlations, disagreements, agreements = [], [], []
    notes = [*result.notes, *_system_notes(judged, study.left_out)]
    for (metric, (full, _)), found in zip(scores.items(), resampled, strict=True):
        pairs = disagreements_of(result, metric.name, judged, study.human)
        disagreements += pairs
        correlation = _correlation(metric, (full, human), found, level, pairs)
        correlations.append(correlation)
        sign = 1.0 if metric.higher_is_better == humans_higher else -1.0
        agreements.append(Agreement(metric.name, sign, full, correlation.pearson, found.pearson))
        notes += _metric_notes(metric, correlation, len(found.pearson))
    rng = np.random.default_rng([result.settings.seed, METRICS_STREAM])
    masks = swap_masks(rng, PERMUTATIONS, len(judged))
    tests = [correlation_test(a, b, level, masks, human) for a, b in combinations(agreements, 2)]
    return replace(
        study,
        bootstrap=result,
        correlations=tuple(correlations),
        correlation_tests=tuple(tests),
        disagreements=tuple(disagreements),
        notes=tuple(notes),
    )


def _system_notes(judged: tuple[str, ...], left_out: tuple[str, ...]) -> list[str]:
    """Notes on too few systems and on the systems left out."""
    notes = []
    if len(judged) < MIN_SYSTEMS:
        notes.append(f"Correlations need at least {MIN_SYSTEMS} systems with human scores.")
    elif len(judged) < MIN_FISHER:
        notes.append(
            f"Fisher's z intervals and Williams' test need at least {MIN_FISHER} systems with "
            "human scores."
        )
    if left_out:
        notes.append(f"Systems without human scores were left out: {', '.join(left_out)}.")
    return notes


def _split_systems(
    statistics: Statistics, human: str = HUMAN
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The systems with human scores and those without; an error when the study cannot run."""
    names = [m.name for m in statistics.metrics]
    if human not in names:
        raise InputError(
            f"the human study needs the {human} metric.",
            hint=f"Load per-segment {human} scores (--scores) and add '{human}' to the metrics.",
        )
    if len(names) < 2:
        raise InputError(
            "the human study needs an automatic metric to compare with the human scores.",
            hint="Add one to the metrics, e.g. bleu.",
        )
    judged = tuple(s for s in statistics.system_names if not math.isnan(statistics.score(s, human)))
    if len(judged) < 2:
        raise InputError(
            f"the human study needs two or more systems with human scores, not {len(judged)}.",
            hint="Check that the system names in the scores file match the systems loaded.",
        )
    return judged, tuple(s for s in statistics.system_names if s not in judged)


def disagreements_of(
    result: BootstrapResult, metric: str, systems: tuple[str, ...], human: str = HUMAN
) -> list[Disagreement]:
    """Every pair of ``systems`` on which ``metric`` and the humans (the metric ``human``)
    disagree."""
    found = []
    for x, y in combinations(systems, 2):
        ours, theirs = result.pair(metric, x, y), result.pair(human, x, y)
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


def _scores(
    result: BootstrapResult, systems: tuple[str, ...], metric: str
) -> tuple[FloatArray, FloatArray]:
    """A metric's scores of ``systems``: on the whole test set, and in every resample (systems x
    resamples)."""
    intervals = [result.interval(s, metric) for s in systems]
    full = np.array([i.score for i in intervals], dtype=np.float64)
    return full, np.stack([i.samples for i in intervals])


def _correlation(
    metric: Metric,
    full: tuple[FloatArray, FloatArray],
    resampled: Resampled,
    level: float,
    found: list[Disagreement],
) -> MetricCorrelation:
    """Pearson and Spearman of the metric's and the humans' ``full`` scores over the systems,
    each with its three intervals, and the pairs of systems by agreement."""
    systems = len(full[0])
    enough = systems >= MIN_SYSTEMS
    values = [
        float(correlate(full[0][:, None], full[1][:, None])[0]) if enough else math.nan
        for correlate in (pearson_rows, spearman_rows)
    ]
    pairs = systems * (systems - 1) // 2
    kinds = [d.kind for d in found]
    counts = [kinds.count(k) for k in (OPPOSITE, METRIC_ONLY, HUMAN_ONLY)]
    return MetricCorrelation(
        metric.name,
        metric.higher_is_better,
        systems,
        *_intervals(values[0], resampled.pearson, resampled.pearson_segments, systems, level),
        *_intervals(
            values[1], resampled.spearman, resampled.spearman_segments, systems, level, True
        ),
        int(np.isnan(resampled.pearson).sum()) if enough else 0,
        pairs,
        pairs - len(found),
        *counts,
    )


def _intervals(
    value: float,
    drawn: FloatArray,
    segments: FloatArray,
    systems: int,
    level: float,
    spearman: bool = False,
) -> tuple[float, float, float, float, float, float, float]:
    """A correlation and its intervals in :class:`MetricCorrelation`'s order: over systems and
    segments, Fisher's z, over segments only."""
    fisher = fisher_interval(value, systems, level, spearman)
    return (value, *_bounds(drawn, level), *fisher, *_bounds(segments, level))


def _bounds(values: FloatArray, level: float) -> tuple[float, float]:
    """The percentile interval of the defined ``values``."""
    low, _, high = percentile_bounds(values[None, :], level)
    return float(low[0]), float(high[0])


def _metric_notes(metric: Metric, correlation: MetricCorrelation, resamples: int) -> list[str]:
    """Notes when resamples were left out of a metric's intervals over systems, and when a
    correlation of +-1 has no Fisher interval."""
    notes = []
    if correlation.undefined_resamples:
        notes.append(
            f"{metric.label}: {correlation.undefined_resamples:,} of {resamples:,} resamples of "
            "the systems have no correlation (the drawn systems score alike under the metric or "
            "the humans) and are left out of its intervals over systems."
        )
    for name, value in (("Pearson", correlation.pearson), ("Spearman", correlation.spearman)):
        if correlation.systems >= MIN_FISHER and abs(value) == 1:
            notes.append(
                f"{metric.label}: {name}'s correlation is {value:+.0f}, where Fisher's z is "
                "infinite: no Fisher interval."
            )
    return notes
