"""What each study's plots show, as plain data (no widgets): lines with optional bands.

The studies view draws these with pyqtgraph; keeping the choice of what to plot here makes it
testable without a window. Relative CI widths are in percent (high minus low bound). Every
word shown is a display name (BLEU, not ``bleu``); a title promises a band only where its lines
carry ``low`` and ``high`` bounds, which the view draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtgui.engine.metrics import LABELS
from mtgui.engine.studies import HUMAN, HumanStudy, RefsStudy, ResamplesStudy, SizeStudy

Study = SizeStudy | RefsStudy | ResamplesStudy | HumanStudy


@dataclass(frozen=True)
class Line:
    """One system's line; ``low``/``high`` bound a shaded band when given."""

    name: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None


@dataclass(frozen=True)
class PlotSpec:
    """One plot: its title, axes and lines (``scatter``: points with their names)."""

    title: str
    x_label: str
    y_label: str
    lines: tuple[Line, ...]
    log_x: bool = False
    log_y: bool = False
    scatter: bool = False
    x_ticks: tuple[float, ...] = ()  # the x-axis ticks, when only these make sense


def study_plots(study: Study, metric: str) -> tuple[PlotSpec, ...]:
    """The plots of a study for one metric."""
    if isinstance(study, SizeStudy):
        return _size_plots(study, metric)
    if isinstance(study, RefsStudy):
        return _refs_plots(study, metric)
    if isinstance(study, ResamplesStudy):
        return _resamples_plots(study, metric)
    return _human_plots(study, metric)


def _size_plots(study: SizeStudy, metric: str) -> tuple[PlotSpec, ...]:
    scores, widths = [], []
    for system in study.systems:
        rows = study.series(system, metric)
        if not rows:
            continue
        xs = tuple(r.segments for r in rows)
        ys = tuple(r.score for r in rows)
        spread = tuple(r.score_std for r in rows)
        scores.append(
            Line(
                system,
                xs,
                ys,
                tuple(y - s for y, s in zip(ys, spread, strict=True)),
                tuple(y + s for y, s in zip(ys, spread, strict=True)),
            )
        )
        widths.append(Line(system, xs, tuple(r.rel_ci_high - r.rel_ci_low for r in rows)))
    unit = "segments in the subset"
    return (
        PlotSpec(
            f"{_label(metric)} by test-set size (band: ± std over the subsets)",
            unit,
            _label(metric),
            tuple(scores),
        ),
        PlotSpec(
            "Relative CI width by test-set size",
            unit,
            "relative CI width (%)",
            tuple(widths),
            log_x=True,
            log_y=True,
        ),
    )


def _refs_plots(study: RefsStudy, metric: str) -> tuple[PlotSpec, ...]:
    scores, widths = [], []
    for system in study.systems:
        rows = [r for r in study.rows if r.system == system and r.metric == metric]
        if not rows:
            continue
        xs = tuple(float(r.references) for r in rows)
        scores.append(
            Line(
                system,
                xs,
                tuple(r.median for r in rows),
                tuple(r.ci_low for r in rows),
                tuple(r.ci_high for r in rows),
            )
        )
        widths.append(Line(system, xs, tuple(r.rel_ci_high - r.rel_ci_low for r in rows)))
    unit = "number of references"
    counts = tuple(float(r) for r in range(1, len(study.references) + 1))
    return (
        PlotSpec(
            f"Median {_label(metric)} by number of references (band: the CI)",
            unit,
            _label(metric),
            tuple(scores),
            x_ticks=counts,
        ),
        PlotSpec(
            "Relative CI width by number of references",
            unit,
            "relative CI width (%)",
            tuple(widths),
            x_ticks=counts,
        ),
    )


def _resamples_plots(study: ResamplesStudy, metric: str) -> tuple[PlotSpec, ...]:
    widths, spreads = [], []
    for system in study.systems:
        rows = [r for r in study.rows if r.system == system and r.metric == metric]
        if rows:
            xs = tuple(float(r.resamples) for r in rows)
            widths.append(Line(system, xs, tuple(r.rel_ci_high - r.rel_ci_low for r in rows)))
        stable = [r for r in study.stability if r.system == system and r.metric == metric]
        if stable:
            xs = tuple(float(r.resamples) for r in stable)
            ys = tuple((r.rel_ci_low_std + r.rel_ci_high_std) / 2 for r in stable)
            spreads.append(Line(system, xs, ys))
    unit = "resamples B"
    return (
        PlotSpec(
            "Relative CI width by B (Table 5)",
            unit,
            "relative CI width (%)",
            tuple(widths),
            log_x=True,
        ),
        PlotSpec(
            "How much the CI bounds vary between runs (Table 6)",
            unit,
            "std of the relative bounds (points)",
            tuple(spreads),
            log_x=True,
        ),
    )


def _human_plots(study: HumanStudy, metric: str) -> tuple[PlotSpec, ...]:
    human = study.human  # the metric of loaded scores that plays the humans' part
    if study.bootstrap is None or metric == human or metric not in study.bootstrap.metrics:
        return ()
    points = [
        Line(
            system,
            (study.bootstrap.interval(system, human).score,),
            (study.bootstrap.interval(system, metric).score,),
        )
        for system in study.systems
    ]
    found = [c for c in study.correlations if c.metric == metric]
    whose = "the human scores" if human == HUMAN else f"the {human} scores"
    title = f"{_label(metric)} against {whose}"
    if found:
        title += f" (Pearson {found[0].pearson:.3f}, Spearman {found[0].spearman:.3f})"
    axis = "human score" if human == HUMAN else f"{human} score"
    return (PlotSpec(title, axis, _label(metric), tuple(points), scatter=True),)


def _label(metric: str) -> str:
    """A metric as people write it (BLEU, M-BLEU)."""
    return LABELS.get(metric, metric)
