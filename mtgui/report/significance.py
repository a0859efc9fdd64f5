"""The bootstrap's results as text tables for the terminal and as rows for CSV files."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from mtgui.engine.core import printable
from mtgui.engine.inference import (
    EQUIVALENT,
    INTERVAL_FIELDS,
    OPTIONAL_PAIR_FIELDS,
    PAIR_FIELDS,
    SEGMENT_TEST_FIELDS,
    Correction,
    Family,
    PairComparison,
    smallest_unseen,
)
from mtgui.engine.metrics import LABELS, Metric
from mtgui.engine.resampling import BootstrapResult
from mtgui.report.cells import csv_cell, four_decimals, percent
from mtgui.report.table_text import align_table

SCORE_COLUMNS = (
    "system",
    "metric",
    "score",
    *INTERVAL_FIELDS,
    "best_rank",
    "worst_rank",
    "cluster",
)
_WIDTH = 79  # sentences are wrapped to fit a terminal of 80 columns
PAIR_COLUMNS = (*PAIR_FIELDS[:-1], *OPTIONAL_PAIR_FIELDS, "verdict")
SEGMENT_COLUMNS = SEGMENT_TEST_FIELDS  # pairs.csv's last columns


def interval_table(result: BootstrapResult, metric: Metric) -> str:
    """Zhang & Vogel's Table 1 and Zhang, Vogel & Waibel's Tables 2-3 for one metric."""
    level = f"{result.settings.level * 100:g}%"
    header = ["System", "Score", "Median", f"{level} CI", "Relative CI", "RSD"]
    rows = []
    for entry in result.ranking(metric.name).systems:
        i = result.interval(entry.system, metric.name)
        rows.append(
            [
                entry.system,
                four_decimals(i.score),
                four_decimals(i.median),
                f"[{four_decimals(i.ci_low)}, {four_decimals(i.ci_high)}]",
                f"[{percent(i.rel_ci_low)}, {percent(i.rel_ci_high)}]",
                percent(i.rsd, signed=False),
            ]
        )
    return align_table([header, *rows])


def grid_text(result: BootstrapResult, metric: Metric) -> str:
    """The system-against-system grid, best system first, with how to read it above and the
    ranking's clusters below."""
    order, matrix = result.grid(metric.name)
    order = [printable(name) for name in order]  # names from the user's files
    width = max(len(name) for name in order)
    numbers = [str(k + 1) for k in range(len(order))]
    lines = [textwrap.fill(grid_reading(result, metric.name), _WIDTH, break_on_hyphens=False)]
    lines.append(" " * (width + 4) + "  ".join(n.rjust(2) for n in numbers))
    for k, (name, row) in enumerate(zip(order, matrix, strict=True)):
        cells = "  ".join((verdict or ".").rjust(2) for verdict in row)
        lines.append(f"{numbers[k]:>2} {name:<{width}} {cells}")
    lines.append(
        textwrap.fill(cluster_caption(result, metric.name), _WIDTH, break_on_hyphens=False)
    )
    return "\n".join(lines)


def grid_reading(result: BootstrapResult, metric: str, colours: bool = False) -> str:
    """One sentence that says how to read a metric's grid, and on what its verdicts rest."""
    better, worse, same = (" (blue)", " (orange)", " (grey)") if colours else ("", "", "")
    margin = result.settings.margin(metric)
    equal = ""
    if margin is not None:
        scaled = _scaled_margin(result, metric)
        equal = f", ={' (green)' if colours else ''} equivalent within {scaled:g} {_label(metric)}"
    return (
        f"Row against column: >{better} the row system is significantly better than the column "
        f"system, <{worse} significantly worse, ~{same} not distinguishable (not shown to "
        f"differ, which does not mean they are the same){equal}; {verdict_basis(result, metric)}. "
        f"{unseen_sentence(result, metric)}"
    ).rstrip()


def _label(metric: str) -> str:
    """How people write a metric's name."""
    return LABELS[metric]


def _scaled_margin(result: BootstrapResult, metric: str) -> float:
    """The metric's equivalence margin as its pairs show it (on the result's scale)."""
    shown = next((p.margin for p in result.pairs if p.metric == metric and p.margin), None)
    return shown if shown is not None else (result.settings.margin(metric) or 0.0)


def unseen_sentence(result: BootstrapResult, metric: str) -> str:
    """One sentence per metric on what a ``~`` cannot see: the median minimum detectable
    difference of its pairs ('' when none is known)."""
    mdd = smallest_unseen(result.pairs, metric)
    if mdd != mdd:  # NaN
        return ""
    return (
        f"On this test set, differences smaller than about {mdd:.3g} {_label(metric)} can go "
        "unseen (the median minimum detectable difference of its pairs, at 80% power)."
    )


def interval_name(pair: PairComparison, level: float) -> str:
    """What the interval beside a verdict is called: its level, or under a correction that it
    is the corrected one."""
    if pair.ci_low_uncorrected is not None:
        return "Corrected interval"
    return f"{level * 100:g}% interval"


def power_lines(pair: PairComparison, level: float, unit: str) -> list[str]:
    """What a verdict's interval is, and what it cannot see, in words: the corrected and the
    per-comparison intervals, the minimum detectable difference, the units needed, and the
    equivalence test."""
    lines = []
    if pair.ci_low_uncorrected is not None and pair.ci_high_uncorrected is not None:
        alpha = pair.pair_alpha or (1 - level)
        how = (
            "max-T's, at this pair's step"
            if pair.p_maxt is not None
            else f"at the level that decided this pair ({(1 - alpha) * 100:.4g}%)"
        )
        lines.append(
            f"The interval above agrees with the corrected verdict: it is {how}, and holds 0 "
            f"exactly when the verdict is ~. The pair's own {level * 100:g}% interval: "
            f"[{pair.ci_low_uncorrected:+.4f}, {pair.ci_high_uncorrected:+.4f}]."
        )
    if pair.mdd is not None and pair.mdd == pair.mdd:
        lines.append(
            f"Differences smaller than about {pair.mdd:.4f} can go unseen here (minimum "
            "detectable difference at 80% power)."
        )
    needed = pair.units_needed
    if needed is not None and needed == needed and needed != float("inf"):
        lines.append(
            f"About {max(needed, 1):,.0f} {unit}s would detect a difference of this size 80% of "
            "the time (an estimate)."
        )
    if pair.margin is not None and pair.p_tost is not None:
        shown = "shown" if pair.verdict == EQUIVALENT else "not shown"
        lines.append(
            f"Equivalence within +-{pair.margin:g}: {shown} (two one-sided tests, p-value "
            f"{four_decimals(pair.p_tost)})."
        )
    return lines


def verdict_basis(result: BootstrapResult, metric: str) -> str:
    """What a verdict rests on, in words: the level, and the correction if one is on."""
    settings = result.settings
    level = f"{settings.level * 100:g}%"
    if settings.correction is Correction.NONE:
        return f"at {level} confidence, each pair tested on its own (no correction)"
    if result.joined:
        return (
            f"at {level} confidence after {settings.correction.label} for the {result.joined:,} "
            "pairs of every metric on the whole test set and in every breakdown group together "
            "(one family)"
        )
    if settings.family is Family.ALL:
        pairs = len(result.pairs) // 2
        counted = "the 1 pair" if pairs == 1 else f"the {pairs} pairs"
        return (
            f"at {level} confidence after {settings.correction.label} for {counted} of every "
            "metric together (one family)"
        )
    pairs = sum(1 for p in result.pairs if p.metric == metric) // 2
    counted = "the 1 pair" if pairs == 1 else f"the {pairs} pairs"
    return (
        f"at {level} confidence after {settings.correction.label} for {counted} of this metric "
        "(one family per metric)"
    )


def p_value_lines(pair: PairComparison, correction: Correction) -> list[str]:
    """The p-values of a comparison in words, one line per test; the one the verdict follows
    is said to be so."""
    bootstrap = f"p-value (paired bootstrap, two-sided): {four_decimals(pair.p_value)}"
    if pair.p_corrected is None:
        lines = [f"{bootstrap} (the verdict follows it)"]
    else:
        lines = [
            bootstrap,
            f"p-value after {correction.label}: {four_decimals(pair.p_corrected)} (the verdict "
            "follows it)",
        ]
    if pair.p_value_ar is not None:
        ar = f"p-value (approximate randomization): {four_decimals(pair.p_value_ar)}"
        corrected_ar = pair.p_holm_ar if pair.p_holm_ar is not None else pair.p_fdr_ar
        if corrected_ar is not None:
            ar += f"; after {correction.label}: {four_decimals(corrected_ar)}"
        lines.append(ar)
    return lines


def cluster_caption(
    result: BootstrapResult, metric: str, name: Callable[[str], str] = printable
) -> str:
    """The ranking's clusters and exactly what a cluster is; each system's name through
    ``name`` (made printable on a terminal, isolated in a report)."""
    clusters = " > ".join(
        "{" + ", ".join(name(system) for system in c) + "}" for c in result.ranking(metric).clusters
    )
    return (
        f"Clusters, best first: {clusters}. A cluster ends only where every system above is "
        "significantly better than every system below; within a cluster some pairs may still "
        "differ."
    )


def score_rows(result: BootstrapResult) -> list[list[Any]]:
    """One row per system and metric: the score, its interval and its rank."""
    rows = []
    for ranking in result.rankings:
        for entry in ranking.systems:
            i = result.interval(entry.system, ranking.metric)
            values = [getattr(i, field) for field in INTERVAL_FIELDS]
            ranks = [entry.best_rank, entry.worst_rank, entry.cluster]
            rows.append([entry.system, ranking.metric, i.score, *values, *ranks])
    return [[csv_cell(value) for value in row] for row in rows]


def pair_rows(result: BootstrapResult) -> list[list[Any]]:
    """One row per ordered pair of systems and metric."""
    return [[csv_cell(getattr(pair, column)) for column in PAIR_COLUMNS] for pair in result.pairs]


def segment_pair_rows(result: BootstrapResult) -> list[list[Any]]:
    """:func:`pair_rows` with the segment-level columns after them (:data:`SEGMENT_COLUMNS`),
    empty where a metric has none (the t-test and Wilcoxon for scores that are not means of
    segment scores)."""
    rows = []
    for row, pair in zip(pair_rows(result), result.pairs, strict=True):
        found = result.segment_comparison(pair.metric, pair.x, pair.y)
        values = [None if found is None else getattr(found, key) for key in SEGMENT_COLUMNS]
        rows.append([*row, *(csv_cell(value) for value in values)])
    return rows


def settings_rows(result: BootstrapResult) -> tuple[list[str], list[list[Any]]]:
    """How the bootstrap was run, one setting per row: the unit really resampled among them,
    so that a folder of CSV files says how its numbers were made."""
    settings = result.settings
    rows: list[list[Any]] = [
        ["resamples", settings.resamples],
        ["seed", settings.seed],
        ["level", settings.level],
        ["unit", settings.unit.value],
        ["unit_requested", result.unit_requested.value],
        ["correction", settings.correction.value],
        ["family", settings.family.value],
        ["test", settings.test.value],
        ["interval", settings.interval.value],
        ["ar_trials", settings.ar_trials],
        ["signature", result.signature],
    ]
    rows += [["note", note] for note in result.notes]
    return ["setting", "value"], rows


def grid_rows(result: BootstrapResult, metric: str) -> tuple[list[str], list[list[str]]]:
    """The grid as a matrix: header row of systems, then one row per system."""
    order, matrix = result.grid(metric)
    return ["", *order], [[name, *row] for name, row in zip(order, matrix, strict=True)]


def sample_rows(result: BootstrapResult) -> tuple[list[str], list[list[Any]]]:
    """Every bootstrap score: one row per resample, one column per system and metric."""
    intervals = list(result.intervals)
    header = ["resample", *(f"{i.system}:{i.metric}" for i in intervals)]
    count = len(intervals[0].samples) if intervals else 0
    rows = [[b + 1, *(csv_cell(i.samples[b]) for i in intervals)] for b in range(count)]
    return header, rows
