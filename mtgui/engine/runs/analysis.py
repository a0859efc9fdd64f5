"""The runs' part of an analysis: every system over its runs, and every pair of systems
compared by the two-level bootstrap (and, with ``--paired-ar``, by approximate randomization
stratified over runs), under the run's correction for many comparisons. Each pair's resampled
scores are widened by its Welch factor (:mod:`~mtgui.engine.runs.two_level`) before the
engine's comparison reads them, so its interval, p-value, corrections and power figures all
see the seeds' few degrees of freedom.

It reads a finished bootstrap (the resample scores each interval keeps, the same resamples for
every run) and adds nothing to it: the runs themselves stay in the report as the systems they
are, and the systems made of them come beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.significance import PairComparison, compare
from mtgui.engine.resampling.bootstrap import BootstrapResult, decide_pairs
from mtgui.engine.resampling.settings import Unit
from mtgui.engine.runs.randomization import stratified_randomization
from mtgui.engine.runs.two_level import (
    RunGroup,
    RunSummary,
    draw_runs,
    group_levels,
    pair_factor,
    stretched,
    summarize_runs,
    system_factor,
)
from mtgui.engine.statistics.rows import Statistics


@dataclass(frozen=True)
class RunsResult:
    """The systems over their runs: a summary per system and metric, and every ordered pair of
    systems per metric (the engine's :class:`PairComparison`, from the two-level bootstrap;
    ``p_value_ar`` is the stratified randomization's)."""

    groups: tuple[RunGroup, ...]
    summaries: tuple[RunSummary, ...]
    pairs: tuple[PairComparison, ...]
    notes: tuple[str, ...] = ()

    def summary(self, system: str, metric: str) -> RunSummary:
        """One system's summary under one metric."""
        return next(s for s in self.summaries if s.system == system and s.metric == metric)

    def pair(self, metric: str, x: str, y: str) -> PairComparison:
        """x against y under a metric."""
        return next(p for p in self.pairs if (p.metric, p.x, p.y) == (metric, x, y))


def check_groups(groups: Sequence[RunGroup], systems: Sequence[str]) -> None:
    """Refuse groups that name no loaded system, share a run, or clash with a system's name."""
    seen: dict[str, str] = {}
    for group in groups:
        if len(group.runs) < 2:
            raise InputError(f"--runs {group.name}: a system with runs needs two runs or more.")
        for run in group.runs:
            if run not in systems:
                raise InputError(f"--runs {group.name}: '{run}' is not a loaded system.")
            if run in seen:
                raise InputError(
                    f"'{run}' is a run of both {seen[run]} and {group.name}.",
                    hint="Give each file to one --runs only.",
                )
            seen[run] = group.name
    names = [g.name for g in groups]
    for name in names:
        if names.count(name) > 1 or (name in systems and name not in seen):
            raise InputError(f"--runs {name}: this name is already a system's; choose another.")


def all_groups(groups: Sequence[RunGroup], systems: Sequence[str]) -> tuple[RunGroup, ...]:
    """The groups in the order their first run was loaded, each system without runs a group of
    one."""
    of_run = {run: g for g in groups for run in g.runs}
    result: dict[str, RunGroup] = {}
    for system in systems:
        group = of_run.get(system, RunGroup(system, (system,)))
        result.setdefault(group.name, group)
    return tuple(result.values())


def analyse_runs(
    statistics: Statistics,
    bootstrap: BootstrapResult,
    groups: Sequence[RunGroup],
    document_index: IntArray | None = None,
) -> RunsResult:
    """The runs' analysis of a finished bootstrap (see the module docstring); systems without
    runs take part as systems of one run."""
    check_groups(groups, statistics.system_names)
    systems = all_groups(groups, statistics.system_names)
    settings = bootstrap.settings
    normals = draw_runs(settings.seed, systems, settings.resamples)
    units = _units(statistics, settings.unit, document_index)
    summaries: list[RunSummary] = []
    pairs: list[PairComparison] = []
    rows: list[FloatArray] = []
    notes: list[str] = []
    for metric in statistics.metrics:
        name = metric.name
        runs = {s: bootstrap.interval(s, name) for s in statistics.system_names}
        scores = {s: i.score for s, i in runs.items()}
        levels = group_levels(
            systems, scores, {s: i.samples for s, i in runs.items()}, normals, units
        )
        for group in systems:
            own = system_factor(levels[group.name], units, settings.level)
            summaries.append(
                summarize_runs(
                    group.name,
                    name,
                    [scores[r] for r in group.runs],
                    [runs[r].std for r in group.runs],
                    stretched(levels[group.name].samples, own),
                    settings.level,
                )
            )
        means = {s.system: s.score for s in summaries if s.metric == name}
        for x, y in combinations(systems, 2):
            factor = pair_factor(levels[x.name], levels[y.name], units, settings.level)
            x_samples = stretched(levels[x.name].samples, factor)
            y_samples = stretched(levels[y.name].samples, factor)
            pair = compare(
                name,
                x.name,
                y.name,
                (means[x.name], means[y.name]),
                (x_samples, y_samples),
                settings.level,
                metric.higher_is_better,
            )
            if settings.ar_trials:
                ar = _randomized(statistics, x, y, name, bootstrap, document_index)
                pair = replace(pair, p_value_ar=ar)
            pairs.append(pair)
            rows.append(x_samples - y_samples)
        if settings.ar_trials and any(
            len(x.runs) != len(y.runs) for x, y in combinations(systems, 2)
        ):
            notes.append(
                "stratified randomization pairs the i-th runs of two systems: pairs of systems "
                "with different numbers of runs have no randomization p-value."
            )
    decided = _decide(statistics, bootstrap, pairs, np.vstack(rows) if rows else np.empty((0, 0)))
    ordered = tuple([*decided, *(p.mirrored() for p in decided)])
    return RunsResult(systems, tuple(summaries), ordered, tuple(dict.fromkeys(notes)))


def _units(statistics: Statistics, unit: Unit, document_index: IntArray | None) -> int:
    """How many units the bootstrap resampled: documents or segments."""
    if unit is Unit.DOCUMENT and document_index is not None and len(document_index):
        return int(document_index.max()) + 1
    return int(statistics.rows(statistics.system_names[0], statistics.metrics[0].name).shape[0])


def _randomized(
    statistics: Statistics,
    x: RunGroup,
    y: RunGroup,
    metric: str,
    bootstrap: BootstrapResult,
    document_index: IntArray | None,
) -> float | None:
    """The stratified randomization p-value of x against y over the units the bootstrap
    resampled (None for unequal run counts)."""
    if len(x.runs) != len(y.runs):
        return None
    scorer = next(m for m in statistics.metrics if m.name == metric)
    settings = bootstrap.settings
    by_document = settings.unit is Unit.DOCUMENT and document_index is not None

    def unit_rows(run: str) -> FloatArray:
        rows = statistics.rows(run, metric)
        if not by_document or document_index is None:
            return rows
        per_unit = np.zeros((int(document_index.max()) + 1, rows.shape[1]))
        np.add.at(per_unit, document_index, rows)
        return per_unit

    return stratified_randomization(
        [unit_rows(r) for r in x.runs],
        [unit_rows(r) for r in y.runs],
        scorer.score,
        settings.ar_trials,
        settings.seed,
    )


def _decide(
    statistics: Statistics,
    bootstrap: BootstrapResult,
    pairs: list[PairComparison],
    deltas: FloatArray,
) -> list[PairComparison]:
    """The pairs' verdicts under the run's correction, family by family, as the bootstrap
    decides its own (with the test set's units)."""
    units = statistics.rows(statistics.system_names[0], statistics.metrics[0].name).shape[0]
    return decide_pairs(statistics, bootstrap.settings, pairs, deltas, units)
