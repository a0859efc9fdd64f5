"""The one list of the metrics mtgui knows, and what a front end needs to know of each.

The command line's ``--metrics``, the settings panel's check boxes, sessions and the labels of
reports and views all read this list, in this order. The facts of a metric (its label, scale,
direction) are class attributes of its module; an entry reads them, it does not copy them, so
a new metric is one module in this package and one line in :data:`METRIC_CLASSES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.chrf.chrfpp import ChrfPlusPlus
from mtgui.engine.metrics.human import Human
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.metrics.ter.wer import Wer

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import TestSet
    from mtgui.engine.metrics.settings import MetricSettings

METRIC_CLASSES: tuple[type[Metric], ...] = (Bleu, Nist, MBleu, Chrf, ChrfPlusPlus, Ter, Wer, Human)
"""Every metric, in the order front ends list them."""


@dataclass(frozen=True)
class MetricEntry:
    """What is known of a metric before anything is computed, and how to make one."""

    name: str  # the id on the command line, in sessions and reports: "bleu"
    label: str  # how people write it: "BLEU"
    description: str  # one sentence on what it measures
    scale: str  # "0-1", "0-100", "unbounded", ...
    ratio_scale: bool  # a relative interval and an RSD mean something
    higher_is_better: bool
    factory: Callable[[TestSet, MetricSettings | None], Metric]  # the metric for a test set

    @classmethod
    def of(cls, metric: type[Metric]) -> MetricEntry:
        """The entry of ``metric``, read from its class attributes."""
        return cls(
            name=metric.name,
            label=metric.label,
            description=metric.description,
            scale=metric.scale,
            ratio_scale=metric.ratio_scale,
            higher_is_better=metric.higher_is_better,
            factory=metric.for_test_set,
        )


REGISTRY: Mapping[str, MetricEntry] = MappingProxyType(
    {metric.name: MetricEntry.of(metric) for metric in METRIC_CLASSES}
)
"""Each metric's entry by name, in the order of :data:`METRIC_CLASSES`."""

METRIC_NAMES: tuple[str, ...] = tuple(REGISTRY)
"""The names every front end offers, in order."""


def labels_reading(setting: str) -> list[str]:
    """The labels of the metrics whose scores ``setting`` changes (a :class:`MetricSettings`
    field), in the registry's order: what a setting's help says it applies to."""
    return [m.label for m in METRIC_CLASSES if m.reads is not None and setting in m.reads]


DEFAULT_METRICS: tuple[str, ...] = ("bleu", "nist", "mbleu")
"""The metrics of a fresh window and of ``mtgui eval`` without ``--metrics``."""


class _Labels(dict[str, str]):
    """A dict whose missing keys are their own label: loaded scores' metrics (``comet``)."""

    def __missing__(self, key: str) -> str:
        return key


LABELS: dict[str, str] = _Labels({name: entry.label for name, entry in REGISTRY.items()})
"""How people write each metric: ``bleu`` -> ``BLEU``; a metric of loaded scores is written as
it is named (``LABELS["comet"]`` is ``comet``, as is ``LABELS.get(name, name)``)."""
