"""Cutting a laid-out report into pages without cutting what must stay whole.

Qt's own ``QTextDocument.print_`` breaks pages between lines of text, so a table row whose cells
hold several lines (a score, its interval, its rank) is split across two pages, and a heading
can end a page with its table on the next. Here the document is laid out once as one long page
of the printed width, and the pages are cut only between *units*: a line of text (an image is
inside a line), a table row whole, a heading or a figure together with what follows it, a
table's header row together with its first row. A unit taller than a page (never in a report)
is cut where the page ends. A block that asks for a page break before it (each metric's
section) starts a new page. Each page is drawn clipped to its strip only vertically: anything
laid out wider than the page shows in the right margin instead of vanishing, so a test sees it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPdfWriter,
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

MARGIN_MM = 15.0
_OBJECT = "\ufffc"
_NUMBER_COLOUR = "#55606b"


@dataclass(frozen=True)
class Unit:
    """A vertical stretch of the document that no page break may cut, and whether it must
    stay on a page with the unit after it."""

    top: float
    bottom: float
    keep_with_next: bool = False


def margin_pixels(writer: QPdfWriter) -> float:
    """The page margin in the writer's pixels."""
    return MARGIN_MM / 25.4 * writer.resolution()


def print_pages(document: QTextDocument, writer: QPdfWriter) -> None:
    """Draw ``document`` (laid out at the writer's page width less the margins) on as many
    pages as it needs, cut between its units, each page numbered."""
    margin = margin_pixels(writer)
    height = writer.height() - 2 * margin
    cuts = page_cuts(
        joined(list(units(document))), page_breaks(document), height, document.size().height()
    )
    painter = QPainter(writer)
    try:
        for number, (top, bottom) in enumerate(pairwise(cuts), start=1):
            if number > 1:
                writer.newPage()
            painter.save()
            painter.translate(margin, margin - top)
            document.drawContents(painter, QRectF(-margin, top, writer.width(), bottom - top))
            painter.restore()
            _page_number(painter, writer, margin, f"{number} / {len(cuts) - 1}")
    finally:
        painter.end()


def page_cuts(
    groups: Sequence[Unit], breaks: Sequence[float], height: float, total: float
) -> list[float]:
    """Where pages start and end, from 0 to ``total``: each page as full as it can be without
    cutting a group, a forced break in ``breaks`` ending a page early."""
    cuts = [0.0]
    while cuts[-1] < total - 0.5:
        start = cuts[-1]
        limit = start + height
        forced = [b for b in breaks if start + 0.5 < b <= limit]
        if forced:
            cuts.append(min(forced))
        elif limit >= total:
            cuts.append(total)
        else:
            cuts.append(_cut_before(groups, start, limit))
    return cuts


def _cut_before(groups: Sequence[Unit], start: float, limit: float) -> float:
    """The page end at or before ``limit``: in the gap before the group that ``limit`` would
    cut (half way between it and the group above, where a table's border runs), else
    ``limit``."""
    previous_bottom = start
    for group in groups:
        if group.top < limit < group.bottom and group.top > start + 0.5:
            return max(start + 1, (max(previous_bottom, start) + group.top) / 2)
        if group.bottom <= limit:
            previous_bottom = max(previous_bottom, group.bottom)
    return limit


def joined(found: Sequence[Unit]) -> list[Unit]:
    """The units with each that keeps with the next joined to it, and overlapping ones
    merged, in order from the top."""
    groups: list[Unit] = []
    keep = False
    for unit in sorted(found, key=lambda u: u.top):
        if groups and (keep or unit.top < groups[-1].bottom):
            last = groups[-1]
            groups[-1] = Unit(last.top, max(last.bottom, unit.bottom), unit.keep_with_next)
        else:
            groups.append(unit)
        keep = unit.keep_with_next
    return groups


def units(document: QTextDocument) -> Iterator[Unit]:
    """Every line of text outside tables, and every table row whole (its cells' blocks
    together); a heading, the paragraph just before a table, and a table's first row keep with
    what follows."""
    layout = document.documentLayout()
    rows: dict[tuple[int, int], Unit] = {}
    block = document.begin()
    while block.isValid():
        rect = layout.blockBoundingRect(block)
        table = QTextCursor(block).currentTable()
        if table is not None:
            cell = table.cellAt(block.position())
            key = (table.firstPosition(), cell.row())
            span = rows.get(key, Unit(rect.top(), rect.bottom(), cell.row() == 0))
            rows[key] = Unit(
                min(span.top, rect.top()), max(span.bottom, rect.bottom()), span.keep_with_next
            )
        else:
            yield from _lines(block, rect.top(), _keeps_with_next(block))
        block = block.next()
    yield from rows.values()


def _keeps_with_next(block: QTextBlock) -> bool:
    """A heading, a figure (with its caption), or a paragraph that introduces the table right
    after it."""
    following = block.next()
    introduces = following.isValid() and QTextCursor(following).currentTable() is not None
    figure = _OBJECT in block.text()  # an image is an object character in its line
    return block.blockFormat().headingLevel() > 0 or introduces or figure


def _lines(block: QTextBlock, top: float, keep_last: bool) -> Iterator[Unit]:
    """The lines of a block outside tables; the last keeps with the next unit if asked."""
    layout = block.layout()  # its lines' positions are from the block's top
    count = layout.lineCount()
    for k in range(count):
        line = layout.lineAt(k)
        yield Unit(top + line.y(), top + line.y() + line.height(), keep_last and k == count - 1)


def page_breaks(document: QTextDocument) -> list[float]:
    """The tops of the blocks that ask for a new page before them."""
    layout = document.documentLayout()
    before = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    breaks = []
    block = document.begin()
    while block.isValid():
        if block.blockFormat().pageBreakPolicy() & before:
            breaks.append(layout.blockBoundingRect(block).top())
        block = block.next()
    return breaks


def _page_number(painter: QPainter, writer: QPdfWriter, margin: float, text: str) -> None:
    """``k / n`` centred in the bottom margin."""
    font = QFont()
    font.setPointSizeF(8)
    painter.setFont(font)
    painter.setPen(QColor(_NUMBER_COLOUR))
    box = QRectF(
        QPointF(margin, writer.height() - margin * 0.8),
        QPointF(writer.width() - margin, writer.height() - margin * 0.3),
    )
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
