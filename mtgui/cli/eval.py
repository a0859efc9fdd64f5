"""``mtgui eval``: score the systems, bootstrap them, print the tables and write the files.

The work is the desktop application's: :func:`~mtgui.engine.analysis.iter_analysis` (statistics,
then the bootstrap, its resamples drawn while the statistics are extracted), or only its first
step, :func:`~mtgui.engine.statistics.rows.iter_statistics`, with ``--bootstrap 0``; then each
``--by`` breakdown (:mod:`mtgui.engine.breakdown`), its groups checked right after loading.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from mtgui.cli.breakdown_options import breakdown_report_names, breakdown_requests
from mtgui.cli.eval_outputs import EvalOutputs, PdfMaker
from mtgui.cli.progress import drain
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import command_settings
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core import Corpus
from mtgui.engine.runtime import TRIM_FROM, keep_freed_memory
from mtgui.engine.scale import on_scale, scaled_statistics
from mtgui.engine.statistics import iter_statistics

Loader = Callable[[argparse.Namespace], Corpus]
"""Loads the inputs the options name (:func:`mtgui.cli.main.load_inputs`)."""


def run_eval(args: argparse.Namespace, load: Loader, make_pdf: PdfMaker | None = None) -> int:
    """Check the options and outputs, load, score, bootstrap, print and write what was asked
    (a PDF through ``make_pdf``, which only the ``mtgui`` command hands in)."""
    metrics = metric_names(args)  # --metrics and the named --scores
    chosen = command_settings(args, metrics)  # the Namespace is read for settings only here
    settings, resampling = chosen.metric_settings(), chosen.bootstrap_settings()
    requests = breakdown_requests(args)
    names = breakdown_report_names(requests, resampling is not None)
    outputs = EvalOutputs.from_args(args, chosen, make_pdf, names)
    corpus = load(args)
    if corpus.test_set.size < TRIM_FROM:
        keep_freed_memory()  # a short run: reusing freed pages beats faulting new ones in
    groupings = [request.grouping(corpus.test_set, settings) for request in requests]
    outputs.check_corpus(corpus)  # --documents needs documents: say so before the work
    if resampling is None:
        scoring = iter_statistics(corpus, metrics, settings, fork=True)
        statistics, result = drain(scoring, "scoring"), None
        if chosen.bleu_scale == 100:
            statistics = scaled_statistics(statistics)
    else:  # the snapshots of the bootstrap name their phase
        analysis = drain(iter_analysis(corpus, metrics, settings, resampling, fork=True), "scoring")
        analysis = on_scale(analysis, chosen.bleu_scale)
        statistics, result = analysis.statistics, analysis.bootstrap
    breakdowns = []
    if groupings:
        from mtgui.engine.breakdown import iter_breakdowns  # only for --by: 4 ms to import

        made = drain(iter_breakdowns(corpus, statistics, groupings, resampling), "breakdowns")
        breakdowns = [(r.file_key, b) for r, b in zip(requests, made, strict=True)]
    outputs.write(corpus, statistics, result, breakdowns)
    return 0
