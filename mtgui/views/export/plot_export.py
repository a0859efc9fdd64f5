"""Plots as PNG and SVG files: what a user puts in a report or a paper.

pyqtgraph renders a plot (or a whole layout of plots) to an image or to SVG text; the result is
written atomically, like every export of mtgui, and never over an existing file unless the
caller says so. A ``caption`` (what the lines mean, the settings that made the numbers) is
printed under the plot in a PNG, so that an image pasted into a slide still says what it shows,
and is the description of an SVG drawing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QBuffer, QIODevice, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from mtgui.engine.core import InputError
from mtgui.io.writers import check_writable, write_bytes_atomic

PLOT_FORMATS = {".png": "PNG image", ".svg": "SVG drawing"}
_PNG_WIDTH = 1600  # pixels: sharp enough for a slide or a printed page
_CAPTION_PIXELS = 20  # the caption's font size in a 1600-pixel-wide image
_MARGIN = 24  # pixels around the caption


def export_plot(
    item: pg.GraphicsItem | pg.GraphicsScene,
    path: Path,
    overwrite: bool,
    caption: Sequence[str] = (),
) -> None:
    """Write ``item`` (a plot, or a layout's scene) as PNG or SVG, by ``path``'s suffix, with
    the ``caption`` lines under a PNG's plot and in an SVG's description."""
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise InputError(
            "a plot can be saved as .png or .svg only.",
            path=path,
            hint="Give the file name one of these endings.",
        )
    check_writable(path, overwrite)
    data = svg_bytes(item, caption) if suffix == ".svg" else png_bytes(item, caption)
    write_bytes_atomic(path, data)


def svg_bytes(item: pg.GraphicsItem | pg.GraphicsScene, caption: Sequence[str] = ()) -> bytes:
    """The plot as an SVG document, drawn by Qt's own SVG painter.

    (pyqtgraph's SVG exporter cannot read the paths Qt 6.11 writes, so it is not used.)
    """
    scene = item if isinstance(item, pg.GraphicsScene) else item.scene()
    source = scene.itemsBoundingRect() if item is scene else item.sceneBoundingRect()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(source.size().toSize())
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle("mtgui plot")
    generator.setDescription("\n".join(caption))
    painter = QPainter(generator)
    try:
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
    finally:
        painter.end()
    return bytes(buffer.data().data())


def png_bytes(item: pg.GraphicsItem | pg.GraphicsScene, caption: Sequence[str] = ()) -> bytes:
    """The plot as a PNG image, 1600 pixels wide, the ``caption`` lines under it."""
    exporter = pyqtgraph.exporters.ImageExporter(item)
    exporter.parameters()["width"] = _PNG_WIDTH
    image: QImage = exporter.export(toBytes=True)
    if caption:
        image = captioned(image, caption)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; Qt wants str
    return bytes(buffer.data().data())


def captioned(image: QImage, caption: Sequence[str]) -> QImage:
    """``image`` with the ``caption`` lines (wrapped to its width) on its own background under
    it, in the colour that reads on that background (a dark plot gets light text)."""
    font = QFont()
    font.setPixelSize(_CAPTION_PIXELS)
    metrics = QFontMetrics(font)
    width = image.width() - 2 * _MARGIN
    flags = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap)
    text = "\n".join(caption)
    height = metrics.boundingRect(QRect(0, 0, width, 100_000), flags, text).height()
    out = QImage(image.width(), image.height() + height + 2 * _MARGIN, QImage.Format.Format_RGB32)
    background = QColor(image.pixel(0, 0))
    out.fill(background)
    painter = QPainter(out)
    try:
        painter.drawImage(0, 0, image)
        painter.setFont(font)
        painter.setPen(QColor("white") if background.lightnessF() < 0.5 else QColor("black"))
        area = QRect(_MARGIN, image.height() + _MARGIN, width, height)
        painter.drawText(area, flags, text)
    finally:
        painter.end()
    return out
