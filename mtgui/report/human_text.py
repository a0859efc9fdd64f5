"""The metric-human agreement study as text for the terminal."""

from __future__ import annotations

from mtgui.engine.core import printable
from mtgui.engine.metrics import external_metric
from mtgui.engine.studies import (
    HUMAN_ONLY,
    METRIC_ONLY,
    OPPOSITE,
    CorrelationTest,
    Disagreement,
    HumanStudy,
    MetricAccuracy,
    MetricCorrelation,
)
from mtgui.report.cells import MISSING, four_decimals
from mtgui.report.significance import grid_text, interval_table
from mtgui.report.study_format import LABELS, bootstrap_line, note_lines, signed
from mtgui.report.table_text import align_table

_KINDS = {
    OPPOSITE: "both significant, in opposite directions",
    METRIC_ONLY: "the metric finds a significant difference, the humans do not",
    HUMAN_ONLY: "the humans find a significant difference, the metric does not",
}
_INTERVALS = """
System-level correlation with the human scores, with {level} intervals: over systems and
segments (the systems drawn again in every resample: the interval to quote), by Fisher's z
(Pearson: 1/sqrt(n - 3); Spearman: sqrt(1.06/(n - 3)), Fieller et al. 1957; n = {n} systems),
and over segments only (these systems on another test set; it says nothing about others)"""
_TESTS = """
Does one metric agree with the humans better than another? Pearson's r with the human scores,
oriented (the sign of a metric where lower is better is flipped); x agrees better on the whole
test set. The paired permutation test (two-sided; each system's two z-scored scores swapped at
random, as mt-metrics-eval: the verdict to quote), the paired bootstrap of the difference over
systems and segments (its interval; as a test it is conservative: resampling the segments adds
their noise to scores that already carry it, and with few systems it seldom rejects), and
Williams' test (two-sided, t with {df} degrees of
freedom). > x agrees significantly better, ~ no significant difference."""
_ACCURACY = """
As the WMT metrics task judges metrics: pairwise accuracy (the share of pairs of systems the
metric orders as the humans), soft pairwise accuracy (Thompson et al. 2024, from the pairs'
permutation p-values), tie-calibrated accuracy (Deutsch et al. 2023, at its best epsilon), the
segment-level acc_eq at its best epsilon and tau-b, each per segment over the systems and
averaged (item-grouped), and the clusters by pairwise accuracy (permutation tests at {alpha})."""


def human_text(study: HumanStudy) -> str:
    """The human scores' intervals and grid, the correlations with their intervals, the tests
    of pairs of metrics, the pairs of systems by agreement, and the disagreements by kind."""
    parts = [
        f"Metrics against {_humans(study)} (Zhang, Vogel & Waibel, Table 6): "
        f"{len(study.systems)} systems with {_humans(study)}, {bootstrap_line(study.settings)}.",
        *note_lines(study.notes),
    ]
    if study.bootstrap is not None:
        human = external_metric(study.human)()  # only its name is read
        parts += [f"\n{LABELS[study.human]}", interval_table(study.bootstrap, human)]
        parts.append(grid_text(study.bootstrap, human))
    level = f"{study.settings.level:.0%}"
    parts.append(_INTERVALS.format(level=level, n=len(study.systems)))
    width = max((len(_name(c)) for c in study.correlations), default=0)
    header = ["Metric", "r", "Systems+segments", "Fisher z", "Segments only"]
    rows = [r for c in study.correlations for r in _intervals(c, width)]
    parts.append(align_table([header, *rows]))
    parts.append(_TESTS.format(df=max(len(study.systems) - 3, 0)))
    header = ["x vs y", "r(x)", "r(y)", "Difference", f"{level} CI", "p permutation"]
    header += ["p bootstrap"]
    header += ["Williams t", "p Williams"]
    tests = [_test_line(t) for t in study.correlation_tests]
    parts.append(align_table([header, *tests]) if tests else "  (one automatic metric only)")
    if study.accuracies:
        parts.append(_ACCURACY.format(alpha=f"{1 - study.settings.level:.2g}"))
        header = ["Cluster", "Metric", "Accuracy", "Soft", "Tie-calibrated", "Segment acc_eq"]
        header += ["Segment tau-b"]
        ranked = sorted(study.accuracies, key=lambda a: (a.metric_cluster, -a.pairwise_accuracy))
        parts.append(align_table([header, *(_accuracy_line(a) for a in ranked)]))
    parts.append("\nPairs of systems: where each metric and the humans agree")
    header = ["Metric", "Pairs", "Agree", "Opposite", "Metric only", "Human only"]
    parts.append(align_table([header, *(_pairs_line(c) for c in study.correlations)]))
    for kind, title in _KINDS.items():
        found = study.of_kind(kind)
        parts.append(f"\nDisagreements: {title} ({len(found)})")
        parts += [_disagreement(d) for d in found] or ["  (none)"]
    parts.append(f"\nSignature: {study.signature}")
    return "\n".join(parts)


def _humans(study: HumanStudy) -> str:
    """What plays the humans' part: 'human scores', or the scores' name ('mqm scores')."""
    return "human scores" if study.human == "human" else f"{printable(study.human)} scores"


def _name(c: MetricCorrelation) -> str:
    return LABELS[c.metric] + ("" if c.higher_is_better else " (lower is better)")


def _intervals(c: MetricCorrelation, width: int) -> list[list[str]]:
    """A metric's Pearson and Spearman, each with its three intervals (names padded to
    ``width``)."""
    return [
        [
            f"{_name(c).ljust(width)}  Pearson",
            signed(c.pearson),
            _interval(c.pearson_low, c.pearson_high),
            _interval(c.pearson_fisher_low, c.pearson_fisher_high),
            _interval(c.pearson_segments_low, c.pearson_segments_high),
        ],
        [
            f"{'':{width}}  Spearman",
            signed(c.spearman),
            _interval(c.spearman_low, c.spearman_high),
            _interval(c.spearman_fisher_low, c.spearman_fisher_high),
            _interval(c.spearman_segments_low, c.spearman_segments_high),
        ],
    ]


def _interval(low: float, high: float) -> str:
    """'[+0.6697, +0.9959]'; '-' when undefined."""
    if low != low or high != high:  # NaN
        return "-"
    return f"[{signed(low)}, {signed(high)}]"


def _test_line(t: CorrelationTest) -> list[str]:
    """Two metrics' agreements, their difference with its interval, and both tests."""
    return [
        f"{LABELS[t.metric_x]} vs {LABELS[t.metric_y]}",
        signed(t.agreement_x),
        signed(t.agreement_y),
        signed(t.difference),
        _interval(t.difference_low, t.difference_high),
        _p(t.permutation_p_value, t.permutation_verdict),
        _p(t.bootstrap_p_value, t.bootstrap_verdict),
        "-" if t.williams_t != t.williams_t else f"{t.williams_t:+.3f}",
        _p(t.williams_p_value, t.williams_verdict),
    ]


def _accuracy_line(a: MetricAccuracy) -> list[str]:
    """A metric's cluster and WMT statistics."""
    return [
        str(a.metric_cluster),
        LABELS[a.metric],
        four_decimals(a.pairwise_accuracy),
        four_decimals(a.soft_pairwise_accuracy),
        four_decimals(a.tie_calibrated_accuracy),
        four_decimals(a.segment_tie_calibrated_accuracy),
        four_decimals(a.segment_kendall_b),
    ]


def _p(p_value: float, verdict: str) -> str:
    """'0.0123 >'; '-' when undefined."""
    text = four_decimals(p_value)
    return text if text == MISSING else f"{text} {verdict}"


def _pairs_line(c: MetricCorrelation) -> list[str]:
    """A metric's pairs of systems by agreement with the humans."""
    counts = (c.pairs, c.agree, c.opposite, c.metric_only, c.human_only)
    return [_name(c), *(str(n) for n in counts)]


def _disagreement(d: Disagreement) -> str:
    """One pair: what the metric says and what the humans say, with deltas and p-values."""
    x, y = printable(d.x), printable(d.y)
    return (
        f"  {LABELS[d.metric]}: {x} {d.metric_verdict} {y} (delta {signed(d.metric_delta)}, "
        f"p {d.metric_p_value:.4f}); humans: {x} {d.human_verdict} {y} "
        f"(delta {signed(d.human_delta)}, p {d.human_p_value:.4f})"
    )
