"""The metrics mtgui computes, one module each, and how to choose them by name.

The list of metrics and what front ends need to know of each is :mod:`.registry`.
"""

from __future__ import annotations

from collections.abc import Sequence

from mtgui.engine.corpus import TestSet
from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.registry import (
    DEFAULT_METRICS,
    LABELS,
    METRIC_NAMES,
    REGISTRY,
    MetricEntry,
)
from mtgui.engine.settings import MetricSettings

__all__ = [
    "DEFAULT_METRICS",
    "LABELS",
    "METRIC_NAMES",
    "REGISTRY",
    "Metric",
    "MetricEntry",
    "create_metrics",
    "parse_metric_names",
]


def parse_metric_names(text: str) -> tuple[str, ...]:
    """``"bleu, NIST"`` -> ``("bleu", "nist")``; an unknown name is an :class:`InputError`."""
    names = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [name for name in names if name not in REGISTRY]
    if unknown or not names:
        raise InputError(
            f"unknown metric {', '.join(repr(n) for n in unknown) or '(none given)'}.",
            hint="Choose from: " + ", ".join(METRIC_NAMES) + ".",
        )
    return names


def create_metrics(
    names: Sequence[str], test_set: TestSet, settings: MetricSettings | None = None
) -> tuple[Metric, ...]:
    """Metric objects for ``names``, in that order, with the options ``settings`` give them
    (chrF's; the defaults without)."""
    return tuple(REGISTRY[name].factory(test_set, settings) for name in names)
