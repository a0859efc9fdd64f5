"""Refilling a chooser (a QComboBox) without making it announce changes nobody made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QComboBox


def refill(box: QComboBox, items: Sequence[tuple[str, Any]], current: Any = None) -> None:
    """Give ``box`` these (label, data) items and select ``current`` (by default the data
    chosen now), or the first item when it is not among them.

    No signal is emitted: the caller shows what the new choice means itself. Items equal to
    the ones shown are not rebuilt, so an open chooser does not flicker on every update.
    """
    wanted = box.currentData() if current is None else current
    box.blockSignals(True)
    if [(box.itemText(i), box.itemData(i)) for i in range(box.count())] != list(items):
        box.clear()
        for label, data in items:
            box.addItem(label, data)
    box.setCurrentIndex(max(box.findData(wanted), 0))
    box.blockSignals(False)


def choose(box: QComboBox, data: Any) -> None:
    """Select the item of ``box`` holding ``data``, without a signal (the caller redraws)."""
    box.blockSignals(True)
    box.setCurrentIndex(box.findData(data))
    box.blockSignals(False)
