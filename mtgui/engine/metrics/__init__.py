"""The metrics mtgui computes, one module each, and how to choose them by name.

The list of metrics and what front ends need to know of each is :mod:`.registry`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from mtgui.engine.core.corpus import TestSet
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import Bleu, sentence_bleu
from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.chrf.options import LIMITS
from mtgui.engine.metrics.external import NAME_PATTERN, ExternalScores, external_metric
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.kernels_ready import (
    KERNEL_METRICS,
    compile_kernels,
    kernels_on_disk,
)
from mtgui.engine.metrics.missing_refs import EMPTY_REFS, signature_nrefs
from mtgui.engine.metrics.registry import (
    DEFAULT_METRICS,
    LABELS,
    METRIC_NAMES,
    REGISTRY,
    MetricEntry,
    labels_reading,
)
from mtgui.engine.metrics.sacrebleu_options import (
    MAX_BLEU_ORDER,
    MAX_SMOOTH_VALUE,
    MIN_BLEU_ORDER,
    SMOOTH_DEFAULTS,
    SMOOTH_METHODS,
)
from mtgui.engine.metrics.sacrebleu_signature import metric_options
from mtgui.engine.metrics.segment_matches import (
    MAX_ORDER,
    SegmentMatches,
    TokenMatches,
    match_segment,
)
from mtgui.engine.metrics.settings import MetricSettings

__all__ = [
    "DEFAULT_METRICS",
    "KERNEL_METRICS",
    "LABELS",
    "MAX_BLEU_ORDER",
    "MAX_SMOOTH_VALUE",
    "METRIC_NAMES",
    "MIN_BLEU_ORDER",
    "REGISTRY",
    "SMOOTH_DEFAULTS",
    "SMOOTH_METHODS",
    "ExternalScores",
    "Metric",
    "MetricEntry",
    "compile_kernels",
    "create_metrics",
    "external_metric",
    "kernels_on_disk",
    "labels_reading",
    "metrics_for",
    "parse_metric_names",
]


def parse_metric_names(text: str, external: Collection[str] = ()) -> tuple[str, ...]:
    """``"bleu, NIST"`` -> ``("bleu", "nist")``; an unknown name is an :class:`InputError`.

    ``external`` names the metrics of loaded scores (``comet``), which may be chosen too.
    """
    names = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [name for name in names if name not in REGISTRY and name not in external]
    if unknown or not names:
        known = [*METRIC_NAMES, *(name for name in external if name not in REGISTRY)]
        raise InputError(
            f"unknown metric {', '.join(repr(n) for n in unknown) or '(none given)'}.",
            hint="Choose from: " + ", ".join(known) + ".",
        )
    return names


def create_metrics(
    names: Sequence[str], test_set: TestSet, settings: MetricSettings | None = None
) -> tuple[Metric, ...]:
    """Metric objects for ``names``, in that order, with the options ``settings`` give them
    (chrF's; the defaults without)."""
    return tuple(REGISTRY[name].factory(test_set, settings) for name in names)


def metrics_for(
    test_set: TestSet,
    names: Sequence[str],
    settings: MetricSettings | None = None,
    external: Mapping[str, bool] | None = None,
) -> tuple[Metric, ...]:
    """:func:`create_metrics`, where a name may also be one of the ``external`` metrics (name ->
    higher is better, as :meth:`Corpus.external_metrics` gives them): the metrics of loaded
    scores, which are not in the registry. An external metric wins over the registry's of the
    same name (``human`` loaded as lower-is-better)."""
    external = external or {}
    return tuple(
        external_metric(name, external[name])()
        if name in external
        else REGISTRY[name].factory(test_set, settings)
        for name in names
    )


__all__ = [
    "DEFAULT_METRICS",
    "EMPTY_REFS",
    "KERNEL_METRICS",
    "LABELS",
    "LIMITS",
    "MAX_ORDER",
    "METRIC_NAMES",
    "NAME_PATTERN",
    "REGISTRY",
    "Bleu",
    "ExtractionContext",
    "Metric",
    "MetricSettings",
    "SegmentMatches",
    "TokenMatches",
    "chrf_options",
    "create_metrics",
    "external_metric",
    "kernels_on_disk",
    "match_segment",
    "metric_options",
    "metrics_for",
    "parse_metric_names",
    "sentence_bleu",
    "signature_nrefs",
]
