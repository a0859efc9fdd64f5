"""The whole analysis of a corpus as one generator: statistics, then the bootstrap.

The desktop application runs this on its worker thread, ``mtgui eval`` in its main thread:
progress snapshots come from both phases (``StatisticsProgress`` first, then
``BootstrapProgress``, which names its phase), and the result holds the corpus, the statistics
and the bootstrap result together. Closing the generator is the cancel: it stops the resample
draws too. The window passes its :class:`~mtgui.engine.statistics.cache.StatisticsCache`, so
that a run after a change of B, seed, level, unit or correction extracts nothing and only
resamples; the command line runs once and needs none.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import BootstrapResult, iter_bootstrap
from mtgui.engine.resampling.draws import BootstrapProgress, CountDraws, ResampleDraws
from mtgui.engine.resampling.forked_draws import ForkedDraws
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import Statistics, StatisticsProgress, iter_statistics

if TYPE_CHECKING:  # loaded only where a cache is kept (the window)
    from mtgui.engine.statistics.cache import StatisticsCache


@dataclass(frozen=True)
class AnalysisResult:
    """A finished analysis."""

    corpus: Corpus
    statistics: Statistics
    bootstrap: BootstrapResult


def iter_analysis(
    corpus: Corpus,
    metric_names: Sequence[str],
    metric_settings: MetricSettings,
    bootstrap_settings: BootstrapSettings,
    cache: StatisticsCache | None = None,
    fork: bool = False,
) -> Generator[StatisticsProgress | BootstrapProgress, None, AnalysisResult]:
    """Extract statistics (only those ``cache`` lacks, if one is given), then bootstrap them;
    yields the progress of both. ``fork``: see :func:`~mtgui.engine.statistics.rows.iter_statistics`
    and :func:`start_draws`."""
    systems, metrics = len(corpus.systems), len(dict.fromkeys(metric_names))
    bootstrap_settings = bootstrap_settings.enough_for(systems, metrics)  # before the draws
    draws = start_draws(corpus, bootstrap_settings, fork=fork)
    try:
        statistics = yield from iter_statistics(
            corpus, metric_names, metric_settings, cache=cache, fork=fork
        )
        documents = corpus.test_set.document_index_if_any()
        result = yield from iter_bootstrap(statistics, bootstrap_settings, documents, draws=draws)
    finally:
        draws.close()
    return AnalysisResult(corpus, statistics, result)


def start_draws(corpus: Corpus, settings: BootstrapSettings, fork: bool = False) -> CountDraws:
    """Start drawing the resamples of this corpus now, while its statistics are extracted.

    The draws depend only on the seed, B and the number of units, all known before a single
    token is counted; the two kinds of work then share the machine's cores. ``fork=True``
    (only for a process with no other thread that may fork: the command line) draws them in a
    forked child where they fit its shared memory (:mod:`~mtgui.engine.resampling.forked_draws`),
    else on a thread; the counts are the same.
    """
    test_set = corpus.test_set
    documents = test_set.document_index_if_any()
    by_document = settings.resolved(documents)[0].unit is Unit.DOCUMENT
    units = len(test_set.documents) if by_document else test_set.size
    forked = ForkedDraws.start(settings.seed, settings.resamples, units) if fork else None
    return forked or ResampleDraws(settings.seed, settings.resamples, units)
