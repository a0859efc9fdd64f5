"""One entry point for the desktop application: the study of a given name, on a finished
analysis, with the user's seed, level and unit (the size and references studies keep their own
B per subset, which keeps their many bootstraps affordable)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace
from typing import Any

from mtgui.engine.corpus import Corpus
from mtgui.engine.errors import InputError
from mtgui.engine.settings import BootstrapSettings, MetricSettings
from mtgui.engine.statistics import Statistics
from mtgui.engine.studies.human.study import HUMAN, iter_human_study
from mtgui.engine.studies.refs.run import iter_refs_study
from mtgui.engine.studies.refs.study import REFS_RESAMPLES, RefsSettings
from mtgui.engine.studies.resamples.study import ResamplesSettings, iter_resamples_study
from mtgui.engine.studies.size.run import iter_size_study
from mtgui.engine.studies.size.study import SIZE_RESAMPLES, SizeSettings
from mtgui.engine.studies.subset_nist import NistInputs

STUDY_NAMES = ("size", "refs", "resamples", "human")


def iter_study(
    name: str,
    corpus: Corpus,
    statistics: Statistics,
    metric_settings: MetricSettings,
    bootstrap: BootstrapSettings,
    repeats: int,
) -> Generator[Any, None, Any]:
    """The generator of study ``name`` (see :data:`STUDY_NAMES`); ``repeats`` is the size
    study's K, or the number of subsets per size of the references study's Table 4.

    Raises
    ------
    InputError
        If the study cannot run on this analysis (human scores missing, one reference only).
    """
    test_set = corpus.test_set
    documents = test_set.document_index() if test_set.has_documents else None
    metrics: Sequence[str] = [m.name for m in statistics.metrics]
    if name == "size":
        settings = SizeSettings(replace(bootstrap, resamples=SIZE_RESAMPLES), repeats=repeats)
        # Each subset gets its own NIST weights: the texts are tokenized and matched again on
        # the study's thread (the analysis keeps only the statistics).
        nist = NistInputs.of(corpus, statistics.settings)
        return iter_size_study(statistics, settings, documents, nist)
    if name == "refs":
        if test_set.num_references < 2:
            raise InputError(
                "the references study needs at least two references.",
                hint="Load another reference translation of the same test set.",
            )
        refs = RefsSettings(replace(bootstrap, resamples=REFS_RESAMPLES), repeats=repeats)
        names = [m for m in metrics if m != HUMAN]
        return iter_refs_study(corpus, names, metric_settings, refs)
    if name == "resamples":
        return iter_resamples_study(statistics, ResamplesSettings(bootstrap), documents)
    if HUMAN not in metrics:
        raise InputError(
            "the agreement study needs per-segment human scores and the Human metric.",
            hint="Drop a scores table on the window and tick Human among the metrics.",
        )
    return iter_human_study(statistics, bootstrap, documents)
