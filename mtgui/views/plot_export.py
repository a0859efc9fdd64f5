"""Plots as PNG and SVG files: what a user puts in a report or a paper.

pyqtgraph renders a plot (or a whole layout of plots) to an image or to SVG text; the result is
written atomically, like every export of mtgui, and never over an existing file unless the
caller says so.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QBuffer, QIODevice, QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from mtgui.engine.core import InputError
from mtgui.io.writers import check_writable, write_bytes_atomic

PLOT_FORMATS = {".png": "PNG image", ".svg": "SVG drawing"}
_PNG_WIDTH = 1600  # pixels: sharp enough for a slide or a printed page


def export_plot(item: pg.GraphicsItem | pg.GraphicsScene, path: Path, overwrite: bool) -> None:
    """Write ``item`` (a plot, or a layout's scene) as PNG or SVG, by ``path``'s suffix."""
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise InputError(
            "a plot can be saved as .png or .svg only.",
            path=path,
            hint="Give the file name one of these endings.",
        )
    check_writable(path, overwrite)
    write_bytes_atomic(path, svg_bytes(item) if suffix == ".svg" else png_bytes(item))


def svg_bytes(item: pg.GraphicsItem | pg.GraphicsScene) -> bytes:
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
    painter = QPainter(generator)
    try:
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
    finally:
        painter.end()
    return bytes(buffer.data().data())


def png_bytes(item: pg.GraphicsItem | pg.GraphicsScene) -> bytes:
    """The plot as a PNG image, 1600 pixels wide."""
    exporter = pyqtgraph.exporters.ImageExporter(item)
    exporter.parameters()["width"] = _PNG_WIDTH
    image: QImage = exporter.export(toBytes=True)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; Qt wants str
    return bytes(buffer.data().data())
