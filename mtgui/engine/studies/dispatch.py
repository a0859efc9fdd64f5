"""The one way to start a study, for the command line and the desktop application alike.

A study is chosen by the type of its settings (:data:`StudySettings`): :func:`iter_study_for`
starts it. The command line builds the settings from its options; the window names a study and
:func:`iter_study` builds them from the user's seed, level and unit (the size and references
studies keep their own B per subset, which keeps their many bootstraps affordable), checks what
only the window needs to check, and calls the same dispatcher.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.scale import SCALED_METRICS
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.common import StudyProgress
from mtgui.engine.studies.human.study import HUMAN, HumanStudy, iter_human_study
from mtgui.engine.studies.refs.run import iter_refs_study
from mtgui.engine.studies.refs.study import REFS_RESAMPLES, RefsSettings, RefsStudy
from mtgui.engine.studies.resamples.study import (
    ResamplesSettings,
    ResamplesStudy,
    iter_resamples_study,
)
from mtgui.engine.studies.size.run import iter_size_study
from mtgui.engine.studies.size.study import SIZE_RESAMPLES, SizeSettings, SizeStudy
from mtgui.engine.studies.subset_nist import NistInputs

StudySettings = SizeSettings | RefsSettings | ResamplesSettings | BootstrapSettings
"""The settings of any study (the human study's are the bootstrap's)."""
Study = SizeStudy | RefsStudy | ResamplesStudy | HumanStudy
"""The result of any study."""
StudySnapshot = (
    StudyProgress[SizeStudy]
    | StudyProgress[RefsStudy]
    | StudyProgress[ResamplesStudy]
    | StudyProgress[HumanStudy]
)
"""A snapshot of any study: its ``partial`` is of the type of the study's result."""
StudyRun = Generator[StudySnapshot, None, Study]
"""A study under way: it yields snapshots and returns the result."""
STUDY_NAMES = ("size", "refs", "resamples", "human")


def iter_study_for(
    settings: StudySettings,
    corpus: Corpus,
    metrics: Sequence[str],
    metric_settings: MetricSettings,
    statistics: Statistics | None,
    context: ExtractionContext | None = None,
    human: str = HUMAN,
) -> StudyRun:
    """The study that ``settings`` are for, on ``corpus``.

    The references study scores ``metrics`` with ``metric_settings`` itself, once per subset
    of the references; every other study starts from ``statistics``, those of the whole corpus
    (None is for the references study only). ``context``, the extraction's, lends its tokens to
    the size study's subset NIST and to the references study. ``human`` names the metric that
    plays the humans' part in the human study.
    """
    documents = corpus.test_set.document_index_if_any()
    if isinstance(settings, RefsSettings):
        return iter_refs_study(corpus, metrics, metric_settings, settings, context)
    if statistics is None:
        raise ValueError(f"a study with {type(settings).__name__} starts from the statistics")
    if isinstance(settings, SizeSettings):
        # Each subset gets its own NIST weights: the texts are matched again, reusing the
        # context's tokens if there is one (the statistics keep no tokens).
        nist = NistInputs.of(corpus, statistics.settings, context)
        return iter_size_study(statistics, settings, documents, nist)
    if isinstance(settings, ResamplesSettings):
        return iter_resamples_study(statistics, settings, documents)
    return iter_human_study(statistics, settings, documents, human)


def iter_study(
    name: str,
    corpus: Corpus,
    statistics: Statistics,
    metric_settings: MetricSettings,
    bootstrap: BootstrapSettings,
    repeats: int,
    human: str = HUMAN,
) -> StudyRun:
    """The desktop application's study ``name`` (see :data:`STUDY_NAMES`) on a finished
    analysis; ``repeats`` is the size study's K, or the number of subsets per size of the
    references study's Table 4; ``human``, the metric that plays the humans' part in the human
    study (any metric of loaded scores).

    Raises
    ------
    InputError
        If the study cannot run on this analysis (human scores missing, one reference only).
    """
    metrics = [m.name for m in statistics.metrics]
    if name == "refs" and corpus.test_set.num_references < 2:
        raise InputError(
            "the references study needs at least two references.",
            hint="Load another reference translation of the same test set.",
        )
    if name == "human" and human not in metrics:
        raise InputError(
            "the agreement study needs per-segment human scores and the Human metric.",
            hint="Drop a scores table on the window and tick Human among the metrics.",
        )
    percent = any(m.name in SCALED_METRICS and m.scale == "0-100" for m in statistics.metrics)
    settings = named_settings(name, bootstrap, repeats, bleu_scale=100 if percent else 1)
    external = corpus.external_metrics()  # loaded scores do not depend on the references
    automatic = [m for m in metrics if m != HUMAN and m not in external]
    return iter_study_for(settings, corpus, automatic, metric_settings, statistics, human=human)


def named_settings(
    name: str, bootstrap: BootstrapSettings, repeats: int, bleu_scale: int = 1
) -> StudySettings:
    """The settings of the window's study ``name``: the user's bootstrap settings, with the
    size and references studies' own B per subset; ``repeats`` as in :func:`iter_study`. The
    references study scores every subset again, on the BLEU scale of the analysis shown (the
    other studies start from its statistics, which are on it already)."""
    if name == "size":
        return SizeSettings(replace(bootstrap, resamples=SIZE_RESAMPLES), repeats=repeats)
    if name == "refs":
        return RefsSettings(
            replace(bootstrap, resamples=REFS_RESAMPLES), repeats=repeats, bleu_scale=bleu_scale
        )
    if name == "resamples":
        return ResamplesSettings(bootstrap)
    if name == "human":
        return bootstrap
    raise ValueError(f"there is no study named {name!r}; the studies are {STUDY_NAMES}")
