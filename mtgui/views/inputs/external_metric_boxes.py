"""The settings panel's boxes for the metrics of loaded scores (COMET, MetricX...), one per name.

mtgui's own metrics have a box each from the start; a metric of loaded scores gets one, under
its own name, when a scores file naming it is listed, and loses it when the last such file is
removed. A file just loaded ticks its metrics (as a table of human scores always ticked Human);
a session's metrics are ticked as the session saved them, when their files arrive
(:meth:`ExternalMetricBoxes.want`). A metric whose file could not be read (a session's file gone
missing) keeps its box, saying so: the analysis leaves it out with a note, and the session
still names it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, SignalInstance
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from mtgui.engine.metrics import REGISTRY
from mtgui.io.entries import Entry
from mtgui.io.score_choices import ExternalMetric, external_metrics
from mtgui.io.score_sources import HUMAN

_COLUMNS = 3  # as the built-in metrics' grid


def ticked_on_load(
    entries: Iterable[Entry], seen: set[Path]
) -> tuple[set[Path], set[str], dict[str, ExternalMetric]]:
    """What the panel shows of the files listed: the metrics they name, and those to tick (of
    the scores files loaded that are not in ``seen``, the files seen loaded before or a
    session's files); and the files seen from now on (those of ``seen`` still listed, and the
    scores files loaded)."""
    entries = tuple(entries)
    listed = {entry.path for entry in entries}
    tick = {t.metric for e in entries if e.path not in seen for t in e.score_tables}
    loaded = {entry.path for entry in entries if entry.score_tables}
    return (seen & listed) | loaded, tick, external_metrics(entries)


class ExternalMetricBoxes(QWidget):
    """The boxes of the loaded scores' metrics, kept in the panel's ``boxes`` beside mtgui's."""

    def __init__(
        self, boxes: dict[str, QCheckBox], changed: SignalInstance, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._boxes = boxes  # the panel's: these boxes are added to it and removed from it
        self._changed = changed
        self._names: list[str] = []  # the boxes made here, in load order
        self._wanted: set[str] = set()  # ticked by the last settings set, boxes or not yet
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        title = QLabel("Loaded scores:")
        title.setToolTip("The metrics of the scores files loaded, each under its own name.")
        layout.addWidget(title)
        self._grid = QGridLayout()
        layout.addLayout(self._grid)
        self.setVisible(False)

    @property
    def names(self) -> list[str]:
        """The metrics of loaded scores that have a box, in load order."""
        return list(self._names)

    def want(self, metrics: Iterable[str]) -> None:
        """The settings just set tick these metrics: a box made later for one of them (its file
        still being read) starts ticked, one for another metric not."""
        self._wanted = {name for name in metrics if name not in REGISTRY}

    def show_metrics(self, metrics: Mapping[str, ExternalMetric], tick: Collection[str]) -> None:
        """A box for each of ``metrics`` that is not mtgui's own, none for the others; those in
        ``tick`` (and Human, if there) ticked. Emits nothing (see the panel)."""
        names = [name for name in metrics if name not in REGISTRY]
        for name in [n for n in self._names if n not in names]:
            box = self._boxes.pop(name)
            self._grid.removeWidget(box)
            box.deleteLater()
        for name in names:
            box = self._boxes[name] if name in self._names else self._made(name)
            _describe(box, metrics[name])
            if name in tick:
                with QSignalBlocker(box):
                    box.setChecked(True)
        if HUMAN in tick:
            with QSignalBlocker(self._boxes[HUMAN]):
                self._boxes[HUMAN].setChecked(True)
        self._names = names
        for number, name in enumerate(names):
            self._grid.addWidget(self._boxes[name], number // _COLUMNS, number % _COLUMNS)
        self.setVisible(bool(names))

    def _made(self, name: str) -> QCheckBox:
        """A new box, ticked if the settings set last tick its metric."""
        box = QCheckBox(name)
        box.setChecked(name in self._wanted)
        box.toggled.connect(self._changed)
        self._boxes[name] = box
        return box


def _describe(box: QCheckBox, metric: ExternalMetric) -> None:
    """The box's text and tip: the name, its direction, and whether its scores are loaded."""
    way = "higher" if metric.higher_is_better else "lower"
    if metric.loaded:
        box.setText(metric.name)
        box.setToolTip(
            f"The mean of the per-segment {metric.name} scores you loaded ({way} is better)."
        )
    else:
        box.setText(f"{metric.name} (not loaded)")
        box.setToolTip(
            f"No file of {metric.name} scores could be read (see the files panel): the analysis "
            "leaves it out until one is."
        )
