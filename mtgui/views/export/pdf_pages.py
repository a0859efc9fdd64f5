"""Cutting a laid-out report into pages without cutting what must stay whole.

Qt's own ``QTextDocument.print_`` breaks pages between lines of text, so a table row whose cells
hold several lines (a score, its interval, its rank) is split across two pages, and a heading
can end a page with its table on the next. Here the document is laid out once as one long page
of the printed width, and the pages are cut only between *units*: a line of text (an image is
inside a line), a table row whole, a heading or a figure together with what follows it, a
table's header row together with its first row. A unit taller than a page (never in a report)
is cut where the page ends. A block that asks for a page break before it (each metric's
section) starts a new page, and a table continued on a page shows its header row there again.
Blank space after a page's last unit (a paragraph's bottom margin before the next section's
forced break, or the document's end) stays with that page instead of making an empty one.
Each page is drawn clipped to its strip only vertically: anything laid out wider than the page
shows in the right margin instead of vanishing, so a test sees it (a document wider than the
page is drawn smaller by the caller's ``scale`` instead).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
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
    QTextTable,
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


@dataclass(frozen=True)
class Head:
    """A table's header row, from the table's top to half way to its second row, and where the
    table ends: a page that starts inside the table shows the header row again first."""

    top: float
    bottom: float
    end: float

    @property
    def height(self) -> float:
        """The height of the header row."""
        return self.bottom - self.top


def print_pages(document: QTextDocument, writer: QPdfWriter, scale: float = 1.0) -> None:
    """Draw ``document`` (laid out at the writer's page width less the margins, divided by
    ``scale``) ``scale`` times its size on as many pages as it needs, cut between its units, a
    table's header row again on the pages its table continues on, each page numbered."""
    margin = margin_pixels(writer)
    rows = row_spans(document)
    heads = table_heads(document, rows)
    height = (writer.height() - 2 * margin) / scale

    def reserved(top: float) -> float:
        return _head_height(heads, top)

    cuts = page_cuts(
        joined([*units(document), *rows.values()]),
        page_breaks(document),
        height,
        document.size().height(),
        reserved,
    )
    painter = QPainter(writer)
    try:
        for number, (top, bottom) in enumerate(pairwise(cuts), start=1):
            if number > 1:
                writer.newPage()
            head = _head_at(heads, top)
            shift = 0.0
            if head is not None:
                _strip(painter, document, (margin, scale, 0.0), head.top, head.bottom)
                shift = head.height
            # a page may end past its room where the rest is blank: that is not drawn
            end = min(bottom, _page_end(top, height, reserved))
            _strip(painter, document, (margin, scale, shift), top, end)
            _page_number(painter, writer, margin, f"{number} / {len(cuts) - 1}")
    finally:
        painter.end()


def _strip(
    painter: QPainter,
    document: QTextDocument,
    place: tuple[float, float, float],
    top: float,
    bottom: float,
) -> None:
    """Draw the document from ``top`` to ``bottom`` at the top of the page's body, ``place``
    being (the margin, the scale, how much lower in the document's units); clipped only
    vertically (what is wider shows in the margin)."""
    margin, scale, shift = place
    width = painter.device().width() / scale
    painter.save()
    painter.translate(margin, margin)
    painter.scale(scale, scale)
    painter.translate(0, shift - top)
    # a pixel inside the strip: Qt draws (clipped away, but still in the PDF's text) every
    # block whose rectangle touches the clip, such as the heading that starts the next page
    clip = QRectF(-margin / scale, top + 1, width, max(bottom - top - 2, 0))
    document.drawContents(painter, clip)
    painter.restore()


def _head_at(heads: Sequence[Head], top: float) -> Head | None:
    """The header row to repeat on a page that starts at ``top`` inside its table, if any."""
    return next((h for h in heads if h.bottom - 0.5 < top < h.end - 0.5), None)


def _head_height(heads: Sequence[Head], top: float) -> float:
    """The room a repeated header row takes on a page that starts at ``top``."""
    head = _head_at(heads, top)
    return 0.0 if head is None else head.height


def page_cuts(
    groups: Sequence[Unit],
    breaks: Sequence[float],
    height: float,
    total: float,
    reserved: Callable[[float], float] = lambda top: 0.0,
) -> list[float]:
    """Where pages start and end, from 0 to ``total``: each page as full as it can be without
    cutting a group, a forced break in ``breaks`` ending a page early; a page that starts at
    ``top`` has ``reserved(top)`` less room (for a repeated header row). A page whose groups
    all fit ends at the next forced break (or at ``total``) even when the blank space after its
    last group does not fit (a paragraph's bottom margin): that space would be a page of its
    own, empty; :func:`print_pages` draws no more than a page holds."""
    cuts = [0.0]
    while cuts[-1] < total - 0.5:
        start = cuts[-1]
        limit = _page_end(start, height, reserved)
        stop = min([b for b in breaks if b > start + 0.5] + [total])
        left = [g for g in groups if g.bottom > start + 0.5 and g.top < stop - 0.5]
        if stop <= limit or all(g.bottom <= limit + 0.5 for g in left):
            cuts.append(stop)  # all up to the next break fits, or what does not is blank
        else:
            cuts.append(_cut_before(groups, start, limit))
    return cuts


def _page_end(start: float, height: float, reserved: Callable[[float], float]) -> float:
    """The furthest a page that starts at ``start`` can reach: ``height`` less the room
    ``reserved`` for a repeated header row (never more than half of it, so that every page
    moves on)."""
    return start + height - min(reserved(start), height / 2)


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
    """Every line of text outside tables; a heading, a figure and the paragraph just before a
    table keep with what follows."""
    layout = document.documentLayout()
    block = document.begin()
    while block.isValid():
        if QTextCursor(block).currentTable() is None:
            top = layout.blockBoundingRect(block).top()
            yield from _lines(block, top, _keeps_with_next(block))
        block = block.next()


def row_spans(document: QTextDocument) -> dict[tuple[int, int], Unit]:
    """Every table row whole (its cells' blocks together), by (table's position, row); a
    table's first row keeps with the second."""
    layout = document.documentLayout()
    rows: dict[tuple[int, int], Unit] = {}
    block = document.begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        if table is not None:
            rect = layout.blockBoundingRect(block)
            row = table.cellAt(block.position()).row()
            key = (table.firstPosition(), row)
            span = rows.get(key, Unit(rect.top(), rect.bottom(), row == 0))
            top, bottom = min(span.top, rect.top()), max(span.bottom, rect.bottom())
            rows[key] = Unit(top, bottom, span.keep_with_next)
        block = block.next()
    return rows


def table_heads(document: QTextDocument, rows: dict[tuple[int, int], Unit]) -> list[Head]:
    """The header row of every table of two rows or more, from ``rows``
    (:func:`row_spans`)."""
    layout = document.documentLayout()
    heads = []
    for frame in document.rootFrame().childFrames():
        if not isinstance(frame, QTextTable) or frame.rows() < 2:
            continue
        key = frame.firstPosition()
        first, second = rows.get((key, 0)), rows.get((key, 1))
        if first is None or second is None:
            continue
        rect = layout.frameBoundingRect(frame)
        heads.append(Head(rect.top(), (first.bottom + second.top) / 2, rect.bottom()))
    return heads


def _keeps_with_next(block: QTextBlock) -> bool:
    """A heading, a figure (with its caption), or a paragraph that introduces the table right
    after it."""
    following = block.next()
    introduces = following.isValid() and QTextCursor(following).currentTable() is not None
    figure = _OBJECT in block.text()  # an image is an object character in its line
    return block.blockFormat().headingLevel() > 0 or introduces or figure


def _lines(block: QTextBlock, top: float, keep: bool) -> Iterator[Unit]:
    """The lines of a block outside tables; with ``keep``, each keeps with the next unit (the
    block whole, with what follows it: a heading, a table's introduction)."""
    layout = block.layout()  # its lines' positions are from the block's top
    for k in range(layout.lineCount()):
        line = layout.lineAt(k)
        yield Unit(top + line.y(), top + line.y() + line.height(), keep)


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
