"""Why a file could not be read, shown in the files panel itself as sentences that fit.

The message is the whole reason and what to do; on one line it ran off the panel's right edge
and only its tooltip could be read. Here it is one row under the file, spanning the panel and
word-wrapped to the width the panel shows (again whenever the panel's width changes), in the
palette's problem colour. Without the file's path at its start: the file is the row above.

A file that does not decode as UTF-8 has, under its reason, a button for each encoding that may
read it ("Read as Latin-1 (ISO-8859-1)"): the window's way to what the command line's
``--encoding`` does, where the user sees the refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QBrush, QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTreeWidget, QTreeWidgetItem, QWidget

from mtgui.io.window_words import ENCODING_NAMES, read_as
from mtgui.views.common.palette import problem_color

PROBLEM_TEXT_ROLE = 0x0100 + 40  # Qt.UserRole + 40: the message, unwrapped
ENCODINGS_ROLE = 0x0100 + 41  # Qt.UserRole + 41: the encodings a row's buttons offer
_MARGIN = 12  # pixels kept free at the right of the wrapped text


def problem_item(tree: QTreeWidget, path: Path, message: str) -> QTreeWidgetItem:
    """The row that says why ``path`` could not be read (wrapped by :func:`rewrap_problems`
    once the row is in the tree)."""
    text = without_path(message, path)
    item = QTreeWidgetItem([text])
    item.setData(0, PROBLEM_TEXT_ROLE, text)
    item.setForeground(0, QBrush(problem_color(tree.palette())))
    item.setToolTip(0, message)
    return item


def without_path(message: str, path: Path) -> str:
    """``message`` without the file's path at its start (the panel shows the file above it);
    the line it names stays ("Line 3: ...")."""
    text = message
    for prefix in (f"{path}: ", f"{path}, "):
        if message.startswith(prefix):
            text = message[len(prefix) :]
    return text[:1].upper() + text[1:]


def rewrap_problems(tree: QTreeWidget) -> None:
    """Wrap every problem row of ``tree`` to the width its viewport shows now."""
    metrics = QFontMetrics(tree.font())
    width = max(tree.viewport().width() - 2 * tree.indentation() - _MARGIN, 120)
    for row in map(tree.topLevelItem, range(tree.topLevelItemCount())):
        for child in map(row.child, range(row.childCount())) if row is not None else ():
            text = child.data(0, PROBLEM_TEXT_ROLE) if child is not None else None
            if child is not None and text:
                wrapped = wrap(text, metrics, width)
                if child.text(0) != wrapped:
                    child.setText(0, wrapped)


def wrap(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` broken into lines of at most ``width`` pixels, at spaces (a word longer than
    the width, such as a long path, keeps a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and metrics.horizontalAdvance(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return "\n".join(lines)


def encodings_item(encodings: tuple[str, ...]) -> QTreeWidgetItem:
    """The row under a file's reason that will hold its "Read as" buttons (put on it by
    :func:`place_encoding_buttons` once the row is in the tree: only such a row holds widgets)."""
    item = QTreeWidgetItem()
    item.setData(0, ENCODINGS_ROLE, list(encodings))
    return item


def place_encoding_buttons(
    tree: QTreeWidget, row: QTreeWidgetItem, path: Path, choose: Callable[[Path, str], None]
) -> list[QPushButton]:
    """Put on ``row``'s rows of :func:`encodings_item` a button per encoding, each calling
    ``choose(path, encoding)``; the buttons put."""
    buttons: list[QPushButton] = []
    for child in map(row.child, range(row.childCount())):
        encodings = child.data(0, ENCODINGS_ROLE) if child is not None else None
        if child is None or not encodings:
            continue
        holder = QWidget()
        layout = QHBoxLayout(holder)
        layout.setContentsMargins(0, 2, 0, 2)
        for encoding in encodings:
            button = QPushButton(read_as(encoding))
            button.setToolTip(
                f"Read this file again as {ENCODING_NAMES[encoding]} text, in its place and "
                "role (Edit > Undo takes it back)."
            )
            button.clicked.connect(lambda _=False, e=encoding: choose(path, e))
            layout.addWidget(button)
            buttons.append(button)
        layout.addStretch(1)
        child.setFirstColumnSpanned(True)
        child.setSizeHint(0, holder.sizeHint())
        tree.setItemWidget(child, 0, holder)
    return buttons
