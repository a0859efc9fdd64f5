"""Human (or any per-segment numeric) scores as the metric ``human``.

The registry's metric for scores loaded without a name of their own: the mean of the segment
means over the segments that were judged, as every external score
(:mod:`mtgui.engine.metrics.external`), under the name ``human`` and the label "Human".
"""

from __future__ import annotations

from typing import ClassVar

from mtgui.engine.metrics.external import ExternalScores


class Human(ExternalScores):
    """The mean of the loaded per-segment judgments."""

    name: ClassVar[str] = "human"
    label: ClassVar[str] = "Human"
    description: ClassVar[str] = (
        "The mean of the per-segment scores you loaded (e.g. human judgments)."
    )

    def signature(self) -> str:
        """``human``, as before external scores had names of their own."""
        return self.name
