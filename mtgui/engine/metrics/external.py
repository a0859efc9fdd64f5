"""Per-segment scores made elsewhere (human judgments, COMET, MetricX...) as metrics.

Each external score the user loads is a metric of its own, named by the user and with its own
direction. A metric's name, label and direction are class attributes (the registry, the bootstrap
and the rankings read them from the class), so :func:`external_metric` makes one subclass of
:class:`ExternalScores` per name and direction, cached so that asking twice gives the same class.

The system score is the mean of the segment means over the segments that were scored, which is
how WMT computes its DA system scores. Statistics row: [segment mean or 0, 1 if scored else 0].
A system without loaded scores scores NaN. Units are those of the scores.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, ClassVar, cast

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.metrics.base import Metric

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput
    from mtgui.engine.metrics.extraction import ExtractionContext

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_.+-]{0,39}")
"""What an external metric may be called: lower case, a letter first, no spaces, commas, colons
or brackets (they separate names in ``--metrics`` and in signatures), at most 40 characters."""


class ExternalScores(Metric):
    """The mean of loaded per-segment scores; subclasses say whose (see :func:`external_metric`)."""

    # No name of its own: the registry lists every class of this package that has one, and
    # the classes external_metric makes are named by the user.
    description: ClassVar[str] = "The mean of the per-segment scores you loaded."
    scale: ClassVar[str] = "the scores' own units"
    # COMET and z-scores can be near or below 0: no relative interval, no RSD.
    ratio_scale: ClassVar[bool] = False
    columns = ("score_sum", "judged")

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """[mean, 1] for scored segments, [0, 0] for the others."""
        scores = context.scores_of(system.name, self.name)
        size = context.test_set.size
        if scores is None:
            return np.zeros((size, 2))
        judged = scores.counts > 0
        return np.column_stack([np.where(judged, scores.means, 0.0), judged]).astype(np.float64)

    def score(self, sums: FloatArray) -> FloatArray:
        """Mean over scored segments; NaN where none was scored."""
        judged = sums[..., 1]
        return np.where(judged > 0, sums[..., 0] / np.where(judged > 0, judged, 1.0), np.nan)

    def signature(self) -> str:
        """``comet[ext,higher]``: the name, that it was loaded, and its direction."""
        return f"{self.name}[ext,{'higher' if self.higher_is_better else 'lower'}]"


def external_metric(name: str, higher_is_better: bool = True) -> type[ExternalScores]:
    """The metric class of the loaded scores called ``name`` (one class per name and direction).

    ``human`` scored higher-is-better is the registry's :class:`~mtgui.engine.metrics.human.Human`
    itself, so that old analyses keep their label and signature.

    Raises
    ------
    ValueError
        If ``name`` is not a valid metric name (see :data:`NAME_PATTERN`).
    """
    return _made(name, bool(higher_is_better))  # one cache key, however it is called


@cache
def _made(name: str, higher_is_better: bool) -> type[ExternalScores]:
    """:func:`external_metric`, cached."""
    from mtgui.engine.metrics.human import Human  # human.py subclasses this module's base

    if name == Human.name and higher_is_better:
        return Human
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"{name!r} is not a valid metric name")
    label = "Human" if name == Human.name else name
    attributes = {
        "name": name,
        "label": label,
        "higher_is_better": higher_is_better,
        "description": f"The mean of the per-segment {name} scores you loaded"
        + ("." if higher_is_better else " (lower is better)."),
        "__doc__": f"The mean of the loaded per-segment {name} scores.",
        "__module__": __name__,
        "__qualname__": f"external_metric.<locals>.External_{name}",
    }
    made = type(f"External_{name}", (ExternalScores,), attributes)
    return cast("type[ExternalScores]", made)
