"""The studies' results as aligned text tables for the terminal (``mtgui study``).

The terminal shows the papers' tables compactly: where a line holds many sizes, a relative
interval is shown by its half width. The CSV and JSON files hold every figure.
"""

from __future__ import annotations

import math

from mtgui.engine.studies import (
    HumanStudy,
    RefsRow,
    RefsStudy,
    ResamplesStudy,
    SizeRow,
    SizeStudy,
    StabilityRow,
)
from mtgui.report.human_text import human_text
from mtgui.report.study_format import (
    LABELS,
    bootstrap_line,
    interval,
    matrix,
    mean,
    note_lines,
    number,
)
from mtgui.report.table_text import align_table


def study_text(study: SizeStudy | RefsStudy | ResamplesStudy | HumanStudy) -> str:
    """A study's tables, whichever study it is."""
    if isinstance(study, SizeStudy):
        return size_text(study)
    if isinstance(study, RefsStudy):
        return refs_text(study)
    if isinstance(study, ResamplesStudy):
        return resamples_text(study)
    return human_text(study)


def size_text(study: SizeStudy) -> str:
    """Table 2 for every system (scores and relative CIs by size), the fitted rule of thumb,
    and per metric the grid of the sizes from which pairs are significantly different."""
    settings, what = study.settings, "documents" if study.by_document else "segments"
    header = ["System", *(f"{f:.0%}" for f in study.fractions)]
    parts = [
        f"Test-set size (Zhang & Vogel 4.1): {settings.repeats} random subsets of the {what} at "
        f"each size, {bootstrap_line(settings.bootstrap)}.",
        *note_lines(study.notes),
    ]
    for metric in study.metrics:
        rows = [r for r in study.rows if r.metric == metric]
        scores = {(r.system, r.fraction): number(r.score) for r in rows}
        widths = {(r.system, r.fraction): _half_width(r) for r in rows}
        first = study.series(study.systems[0], metric)
        segments = ["(segments)", *(f"{r.segments:.0f}" for r in first)]
        table = [header, segments, *matrix(study.systems, study.fractions, scores)]
        parts += [f"\n{LABELS[metric]}: average score", align_table(table)]
        table = [header, *matrix(study.systems, study.fractions, widths)]
        parts += [f"\n{LABELS[metric]}: average relative CI, half width", align_table(table)]
    parts += ["", *_rule_of_thumb(study)]
    for metric in study.metrics:
        parts.append(
            f"\n{LABELS[metric]}: from which size on the row system is significantly better (>) "
            f"or worse (<) than the column one in {settings.agreement:.0%} of the subsets "
            "(~: never)"
        )
        parts.append(_separation_grid(study, metric))
    parts.append(f"\nSignature: {study.signature}")
    return "\n".join(parts)


def refs_text(study: RefsStudy) -> str:
    """Table 3 (median and relative CI by number of references) and Table 4 (relative CI by
    references and size, averaged over the systems), per metric."""
    settings = study.settings
    counts = sorted({len(s) for s in study.subsets})
    header = ["System", *(_refs(r) for r in counts)]
    parts = [
        f"Number of references (Zhang & Vogel 4.2): {len(study.subsets)} subsets of the "
        f"{len(study.references)} references, {bootstrap_line(settings.bootstrap)}; each row "
        "averages the subsets of r references.",
        *note_lines(study.notes),
    ]
    for metric in study.metrics:
        cells = {(r.system, r.references): _median_ci(r) for r in study.rows if r.metric == metric}
        lines = matrix(study.systems, counts, cells)
        parts += [f"\n{LABELS[metric]}: median and relative CI", align_table([header, *lines])]
        if study.sizes:
            parts.append(
                f"\n{LABELS[metric]}: relative CI by test-set size (mean over the systems, "
                f"{settings.repeats} random subsets per size)"
            )
            parts.append(_refs_by_size(study, metric, counts))
    parts.append(f"\nSignature: {study.signature}")
    return "\n".join(parts)


def resamples_text(study: ResamplesStudy) -> str:
    """Table 5 (relative CI by B) and Table 6 (how much the bounds move between runs)."""
    settings, bootstrap = study.settings, study.settings.bootstrap
    parts = [
        f"Number of resamples (Zhang & Vogel 4.3): one run of {settings.sizes[-1]:,} resamples "
        f"of {bootstrap.unit.value}s (seed {bootstrap.seed}, {bootstrap.level:.0%} intervals), "
        "summarized on its first B; each column equals mtgui eval --bootstrap B.",
        *note_lines(study.notes),
    ]
    header = ["System", *(f"B = {b:,}" for b in settings.sizes)]
    for metric in study.metrics:
        cells = {
            (r.system, r.resamples): interval(r.rel_ci_low, r.rel_ci_high)
            for r in study.rows
            if r.metric == metric
        }
        lines = matrix(study.systems, settings.sizes, cells)
        parts += [f"\n{LABELS[metric]}: relative CI (%)", align_table([header, *lines])]
    if study.stability:
        parts += ["", *_stability(study)]
    parts.append(f"\nSignature: {study.signature}")
    return "\n".join(parts)


def _half_width(row: SizeRow) -> str:
    """The relative interval's half width (its bounds swap sign when the median is negative)."""
    half = abs(row.rel_ci_high - row.rel_ci_low) / 2
    return "-" if math.isnan(half) else f"±{half:.2f}%"


def _rule_of_thumb(study: SizeStudy) -> list[str]:
    """The fitted narrowing, overall and per metric."""
    overall = study.fit()
    if math.isnan(overall.exponent):
        return ["Rule of thumb: not enough sizes to fit."]
    per_metric = ", ".join(
        f"{LABELS[m]} {study.fit(metric=m).narrowing:.1f}%" for m in study.metrics
    )
    return [
        f"Rule of thumb on this data: doubling the test set narrows the CI by "
        f"{overall.narrowing:.1f}% (width ~ n^{overall.exponent:.2f}; Zhang & Vogel: about 30%).",
        f"  per metric: {per_metric}",
    ]


def _separation_grid(study: SizeStudy, metric: str) -> str:
    """Row system against column system: '>30%' (better from 30% on), '<', or '~'."""
    cells: dict[tuple[str, str], str] = {}
    flip = {">": "<", "<": ">", "~": "~"}
    for pair in (p for p in study.pairs if p.metric == metric):
        size = "" if pair.smallest_fraction is None else f"{pair.smallest_fraction:.0%}"
        cells[(pair.x, pair.y)] = pair.verdict + size
        cells[(pair.y, pair.x)] = flip[pair.verdict] + size
    numbers = [str(k + 1) for k in range(len(study.systems))]
    lines = matrix(study.systems, study.systems, cells)
    for k, line in enumerate(lines):
        line[0] = f"{numbers[k]:>{len(numbers[-1])}} {line[0]}"
        line[k + 1] = "."  # the diagonal
    return align_table([["", *numbers], *lines])


def _refs(count: int) -> str:
    return f"{count} ref" if count == 1 else f"{count} refs"


def _median_ci(row: RefsRow) -> str:
    if math.isnan(row.median):
        return "-"
    return f"{number(row.median)} {interval(row.rel_ci_low, row.rel_ci_high, '%')}"


def _refs_by_size(study: RefsStudy, metric: str, counts: list[int]) -> str:
    """Table 4: rows are sizes, columns numbers of references; the mean over the systems."""
    groups: dict[tuple[float, int], list[tuple[float, float]]] = {}
    for r in (r for r in study.sizes if r.metric == metric):
        groups.setdefault((r.fraction, r.references), []).append((r.rel_ci_low, r.rel_ci_high))

    def cell(fraction: float, count: int) -> str:
        bounds = groups.get((fraction, count), [])
        low, high = mean([b[0] for b in bounds]), mean([b[1] for b in bounds])
        return interval(low, high, "%") if bounds else ""

    fractions = sorted({fraction for fraction, _ in groups})
    lines = [[f"{f:.0%}", *(cell(f, count) for count in counts)] for f in fractions]
    return align_table([["Size", *(_refs(r) for r in counts)], *lines])


def _stability(study: ResamplesStudy) -> list[str]:
    """Table 6 per metric, and the smallest B from which on the bounds are steady."""
    sizes = study.settings.stability_sizes
    parts = [
        f"How much the relative CI moves between {study.stability[0].runs} runs with other "
        "seeds: standard deviation of its lower/upper bound, in percentage points (Table 6)."
    ]
    header = ["System", *(f"B = {b:,}" for b in sizes)]
    for metric in study.metrics:
        cells = {(r.system, r.resamples): _spread(r) for r in study.stability if r.metric == metric}
        lines = matrix(study.systems, sizes, cells)
        parts += [f"\n{LABELS[metric]}", align_table([header, *lines])]
    enough = study.enough()
    verdict = (
        f"from B = {enough:,} on, no bound moves (one standard deviation) by more than 1/20 of "
        "its interval's half width"
        if enough is not None
        else "even at the largest B, some bound moves by more than 1/20 of its interval's half "
        "width"
    )
    return [*parts, f"\nEnough resamples: {verdict}."]


def _spread(row: StabilityRow) -> str:
    if math.isnan(row.rel_ci_low_std) or math.isnan(row.rel_ci_high_std):
        return "-"
    return f"{row.rel_ci_low_std:.2f}/{row.rel_ci_high_std:.2f}"
