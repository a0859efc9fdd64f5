"""``mtgui eval``: score the systems, bootstrap them, print the tables and write the files.

The work is the desktop application's: :func:`~mtgui.engine.analysis.iter_analysis` (statistics,
then the bootstrap, its resamples drawn while the statistics are extracted), or only its first
step, :func:`~mtgui.engine.statistics.rows.iter_statistics`, with ``--bootstrap 0``; then each
``--by`` breakdown (:mod:`mtgui.engine.breakdown`), its groups checked right after loading, and
with ``--runs`` the systems made of several runs (:mod:`mtgui.engine.runs`).
:func:`analyse` is that work on a loaded corpus; ``mtgui campaign`` runs it on each test set.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgui.cli.breakdown_options import (
    BreakdownRequest,
    breakdown_report_names,
    breakdown_requests,
)
from mtgui.cli.eval_outputs import EvalOutputs, PdfMaker
from mtgui.cli.progress import drain
from mtgui.cli.runs_options import run_groups
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import CommandSettings, command_settings
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core import Corpus, InputError
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.runtime import TRIM_FROM, keep_freed_memory
from mtgui.engine.scale import on_scale, scaled_statistics
from mtgui.engine.statistics import Statistics, iter_statistics

if TYPE_CHECKING:
    from mtgui.engine.runs import RunsResult

Loader = Callable[[argparse.Namespace], Corpus]
"""Loads the inputs the options name (:func:`mtgui.cli.main.load_inputs`)."""


@dataclass(frozen=True)
class Analysed:
    """What :func:`analyse` found: the statistics (on the scale asked for), the bootstrap
    (None with ``--bootstrap 0``), the breakdowns as (file key, breakdown) and the runs."""

    statistics: Statistics
    result: BootstrapResult | None
    breakdowns: Sequence[tuple[str, Any]] = ()
    runs: RunsResult | None = None


def run_eval(args: argparse.Namespace, load: Loader, make_pdf: PdfMaker | None = None) -> int:
    """Check the options and outputs, load, score, bootstrap, print and write what was asked
    (a PDF through ``make_pdf``, which only the ``mtgui`` command hands in)."""
    metrics = metric_names(args)  # --metrics and the named --scores
    chosen = command_settings(args, metrics)  # the Namespace is read for settings only here
    settings, resampling = chosen.metric_settings(), chosen.bootstrap_settings()
    requests = breakdown_requests(args)
    names = breakdown_report_names(requests, resampling is not None)
    if run_groups(args) and resampling is None:
        raise InputError("--runs needs the bootstrap: drop --bootstrap 0.")
    outputs = EvalOutputs.from_args(args, chosen, make_pdf, names)
    corpus = load(args)
    groupings = [(request, request.grouping(corpus.test_set, settings)) for request in requests]
    outputs.check_corpus(corpus)  # --documents needs documents: say so before the work
    found = analyse(args, corpus, chosen, groupings)
    outputs.write(corpus, found.statistics, found.result, found.breakdowns, found.runs)
    return 0


def analyse(
    args: argparse.Namespace,
    corpus: Corpus,
    chosen: CommandSettings,
    groupings: Sequence[tuple[BreakdownRequest, Any]] = (),
    fork: bool = True,
) -> Analysed:
    """Score and bootstrap a loaded corpus with the settings ``chosen`` (the whole work of
    ``mtgui eval`` between loading and writing); ``groupings`` are the --by breakdowns, each
    with its groups. ``fork=False`` where other threads run (the window's worker): no child
    is forked, and the numbers are the same."""
    metrics = chosen.analysis.metrics
    settings, resampling = chosen.metric_settings(), chosen.bootstrap_settings()
    if corpus.test_set.size < TRIM_FROM:
        keep_freed_memory()  # a short run: reusing freed pages beats faulting new ones in
    if resampling is not None and groupings:  # --family all: the groups join the family
        labels = sum(len(g.labels) for _, g in groupings)
        resampling = resampling.enough_for(len(corpus.systems), len(metrics), labels)
    if resampling is None:
        scoring = iter_statistics(corpus, metrics, settings, fork=fork)
        statistics, result = drain(scoring, "scoring"), None
        if chosen.bleu_scale == 100:
            statistics = scaled_statistics(statistics)
    else:  # the snapshots of the bootstrap name their phase
        analysis = drain(iter_analysis(corpus, metrics, settings, resampling, fork=fork), "scoring")
        analysis = on_scale(analysis, chosen.bleu_scale)
        statistics, result = analysis.statistics, analysis.bootstrap
    breakdowns = []
    if groupings:
        from mtgui.engine.breakdown import iter_breakdowns  # only for --by: 4 ms to import

        groups = [grouping for _, grouping in groupings]
        made = drain(iter_breakdowns(corpus, statistics, groups, resampling), "breakdowns")
        if result is not None:
            from mtgui.engine.breakdown import joined_family

            result, made = joined_family(statistics, result, made)
        breakdowns = [(r.file_key, b) for (r, _), b in zip(groupings, made, strict=True)]
    runs = None
    groups = run_groups(args)
    if groups and result is not None:
        from mtgui.engine.runs import analyse_runs

        documents = corpus.test_set.document_index_if_any()
        runs = analyse_runs(statistics, result, groups, documents)
    return Analysed(statistics, result, breakdowns, runs)
