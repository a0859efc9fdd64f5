"""The HTML report as a PDF, through Qt's own PDF writer (no browser, no extra library).

Qt's rich text engine reads a subset of HTML and CSS: it draws no inline SVG, so each figure is
rendered to an image first (at print resolution) and the ``<svg>`` replaced by an ``<img>`` of
it. The text, the tables and their colours come through as they are. The pages are cut by
:mod:`mtgui.views.export.pdf_pages` (never through a table row), on A4 portrait, landscape for a
report too wide for portrait, smaller for one too wide for landscape. The PDF is made in memory and
written atomically like every other output.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSize, Qt, QUrl
from PySide6.QtGui import (
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextDocument,
)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from mtgui.io.writers import write_bytes_atomic
from mtgui.views.export.pdf_pages import margin_pixels, print_pages

_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
_SCALE = 3  # figure pixels per SVG unit: sharp when printed
_DPI = 300
_APPLICATION: QApplication | None = None  # kept alive while the process draws
_CELL = '<td width="34" align="center" '
_QT_WORDS = (
    ('<section class="metric">', '<div style="page-break-before: always">'),
    ("</section>", "</div>"),
    # Qt knows no figure: its image would join the paragraph above, in a line 1.45 times as tall
    ("<figure>", '<div style="line-height: 100%">'),
    ("</figure>", "</div>"),
    ("<figcaption>", '<p style="color: #55606b">'),
    ("</figcaption>", "</p>"),
    ("<th>", '<th style="white-space: nowrap">'),
    ("<bdi>", "\u2068"),  # Qt's rich text has no <bdi>: the same isolate, as characters
    ("</bdi>", "\u2069"),
    ('<table class="scores">', '<table class="scores" cellpadding="6">'),
    ('<table class="facts">', '<table class="facts" width="100%" cellpadding="3">'),
    ('<table class="grid">', '<table class="grid" cellpadding="4">'),
    ('<table class="pairs">', '<table class="pairs" cellpadding="3">'),
    ('<td class="better">', _CELL + 'class="better">'),
    ('<td class="worse">', _CELL + 'class="worse">'),
    ('<td class="same">', _CELL + 'class="same">'),
    ('<td class="self">', _CELL + 'class="self">'),
)


def pdf_bytes(html: str, title: str) -> bytes:
    """The report as a PDF document, A4 with 15 mm margins: portrait, or landscape when its
    widest table or figure would not fit a portrait page (made smaller if it would not fit
    that either)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle(title)
    writer.setCreator("mtgui")
    writer.setResolution(_DPI)
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.documentLayout().setPaintDevice(writer)  # text measured as it will be printed
    document.setHtml(_for_qt(_figures_as_images(html, document)))
    print_pages(document, writer, _page_fit(writer, document))
    del writer  # finishes the PDF in the buffer
    buffer.close()
    return bytes(data.data())


def pdf_bytes_anywhere(html: str, title: str) -> bytes:
    """:func:`pdf_bytes` from the command line: Qt needs an application object to draw, and
    without a display it must draw offscreen (asking for the screen would abort)."""
    if QApplication.instance() is None:
        headless = sys.platform.startswith("linux") and not any(
            os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
        )
        if headless:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        global _APPLICATION
        _APPLICATION = QApplication(["mtgui"])
    return pdf_bytes(html, title)


def write_pdf(html: str, title: str, path: Path) -> None:
    """Write the report's PDF to ``path`` atomically (the caller checked the path)."""
    write_bytes_atomic(path, pdf_bytes(html, title))


def _page_fit(writer: QPdfWriter, document: QTextDocument) -> float:
    """Lay ``document`` out for A4 portrait, or landscape if it is wider than a portrait page
    (a grid of many systems); if it is wider than that too (30 systems, a name of 80 letters
    without a space), lay it out as wide as it is and give the scale that fits it to the
    page. The margins are drawn by :func:`print_pages`."""
    for orientation in (QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape):
        writer.setPageLayout(
            QPageLayout(
                QPageSize(QPageSize.PageSizeId.A4),
                orientation,
                QMarginsF(0, 0, 0, 0),
                QPageLayout.Unit.Millimeter,
            )
        )
        width = writer.width() - 2 * margin_pixels(writer)
        document.setTextWidth(width)
        if document.size().width() <= width + 1:
            return 1.0
    wide = document.size().width()
    document.setTextWidth(wide)
    return width / max(document.size().width(), wide)


def _for_qt(html: str) -> str:
    """The report's HTML in the words Qt's rich text understands: it sizes table columns by
    attributes, not by the style sheet's widths, and breaks pages before blocks, not sections."""
    for before, after in _QT_WORDS:
        html = html.replace(before, after)
    return html


def _figures_as_images(html: str, document: QTextDocument) -> str:
    """``html`` with every inline SVG replaced by an image resource of ``document``."""
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        name = f"mtgui-figure-{count}"
        image = _render(match.group(0))
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
        width, height = image.width() // _SCALE, image.height() // _SCALE
        return f'<img src="{name}" width="{width}" height="{height}">'

    return _SVG.sub(replace, html)


def _render(svg: str) -> QImage:
    """One SVG figure as an image on white, ``_SCALE`` times its size."""
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size: QSize = renderer.defaultSize() * _SCALE
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image
