"""Which test decides the grid of a metric that is a mean of segment scores.

Its own module so that the settings (:mod:`mtgui.engine.settings`) can hold the choice without
importing the tests themselves (:mod:`mtgui.engine.segment_tests`, which needs the statistics).
"""

from __future__ import annotations

from enum import StrEnum


class DecidingTest(StrEnum):
    """The test whose p-value decides the grid of a metric that is a mean of segment scores."""

    BOOTSTRAP = "bootstrap"
    T = "t"
    WILCOXON = "wilcoxon"

    @property
    def label(self) -> str:
        """How people name it."""
        return {
            DecidingTest.BOOTSTRAP: "the paired bootstrap",
            DecidingTest.T: "the paired t-test",
            DecidingTest.WILCOXON: "the Wilcoxon signed-rank test",
        }[self]
