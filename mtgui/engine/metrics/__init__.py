"""The metrics mtgui computes, one module each, and how to choose them by name."""

from __future__ import annotations

from collections.abc import Sequence

from mtgui.engine.corpus import TestSet
from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu import Bleu
from mtgui.engine.metrics.chrf import Chrf
from mtgui.engine.metrics.human import Human
from mtgui.engine.metrics.mbleu import MBleu
from mtgui.engine.metrics.nist import Nist
from mtgui.engine.metrics.ter import Ter
from mtgui.engine.metrics.wer import Wer

METRIC_NAMES = ("bleu", "nist", "mbleu", "chrf", "ter", "wer", "human")
DEFAULT_METRICS = ("bleu", "nist", "mbleu")

__all__ = ["DEFAULT_METRICS", "METRIC_NAMES", "Metric", "create_metrics", "parse_metric_names"]


def parse_metric_names(text: str) -> tuple[str, ...]:
    """``"bleu, NIST"`` -> ``("bleu", "nist")``; an unknown name is an :class:`InputError`."""
    names = tuple(dict.fromkeys(part.strip().lower() for part in text.split(",") if part.strip()))
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not names:
        raise InputError(
            f"unknown metric {', '.join(repr(n) for n in unknown) or '(none given)'}.",
            hint="Choose from: " + ", ".join(METRIC_NAMES) + ".",
        )
    return names


def create_metrics(names: Sequence[str], test_set: TestSet) -> tuple[Metric, ...]:
    """Metric objects for ``names``, in that order."""
    factories = {
        "bleu": Bleu,
        "nist": lambda: Nist(test_set.num_references),
        "mbleu": MBleu,
        "chrf": Chrf,
        "ter": Ter,
        "wer": Wer,
        "human": Human,
    }
    return tuple(factories[name]() for name in names)
