"""The metric-human agreement study as text for the terminal."""

from __future__ import annotations

from mtgui.engine.metrics.human import Human
from mtgui.engine.significance_report import align_table, grid_text, interval_table
from mtgui.engine.studies.correlation import (
    HUMAN_ONLY,
    METRIC_ONLY,
    OPPOSITE,
    Disagreement,
    HumanStudy,
    MetricCorrelation,
)
from mtgui.engine.studies.text_format import LABELS, bootstrap_line, note_lines, signed

_KINDS = {
    OPPOSITE: "both significant, in opposite directions",
    METRIC_ONLY: "the metric finds a significant difference, the humans do not",
    HUMAN_ONLY: "the humans find a significant difference, the metric does not",
}


def human_text(study: HumanStudy) -> str:
    """The human scores' intervals and grid, the correlations, and the disagreements by kind."""
    parts = [
        f"Metrics against human scores (Zhang, Vogel & Waibel, Table 6): {len(study.systems)} "
        f"systems with human scores, {bootstrap_line(study.settings)}.",
        *note_lines(study.notes),
    ]
    if study.bootstrap is not None:
        human = Human()
        parts += ["\nHuman", interval_table(study.bootstrap, human)]
        parts.append(grid_text(study.bootstrap, human))
    level = f"{study.settings.level:.0%} CI"
    header = ["Metric", "Pearson", level, "Spearman", level, "Agree", "Opposite"]
    header += ["Metric only", "Human only"]
    lines = [_correlation_line(c) for c in study.correlations]
    parts.append("\nSystem-level correlation with the human scores, and pairs of systems")
    parts.append(align_table([header, *lines]))
    for kind, title in _KINDS.items():
        found = study.of_kind(kind)
        parts.append(f"\nDisagreements: {title} ({len(found)})")
        parts += [_disagreement(d) for d in found] or ["  (none)"]
    parts.append(f"\nSignature: {study.signature}")
    return "\n".join(parts)


def _correlation_line(c: MetricCorrelation) -> list[str]:
    """A metric's correlations with their intervals, and its pairs by agreement."""
    return [
        LABELS[c.metric] + ("" if c.higher_is_better else " (lower is better)"),
        signed(c.pearson),
        f"[{signed(c.pearson_low)}, {signed(c.pearson_high)}]",
        signed(c.spearman),
        f"[{signed(c.spearman_low)}, {signed(c.spearman_high)}]",
        *(str(n) for n in (c.agree, c.opposite, c.metric_only, c.human_only)),
    ]


def _disagreement(d: Disagreement) -> str:
    """One pair: what the metric says and what the humans say, with deltas and p-values."""
    return (
        f"  {LABELS[d.metric]}: {d.x} {d.metric_verdict} {d.y} (delta {signed(d.metric_delta)}, "
        f"p {d.metric_p_value:.4f}); humans: {d.x} {d.human_verdict} {d.y} "
        f"(delta {signed(d.human_delta)}, p {d.human_p_value:.4f})"
    )
