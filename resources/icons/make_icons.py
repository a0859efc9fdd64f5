"""Render mtgui.svg to the PNG sizes desktops and installers want (run after changing the SVG).

QT_QPA_PLATFORM=offscreen python resources/icons/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HERE = Path(__file__).resolve().parent
SIZES = (16, 32, 48, 64, 128, 256)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """The icon at ``size`` x ``size`` pixels, on a transparent background."""
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main() -> None:
    """Write mtgui-<size>.png for every size, and mtgui.png (256)."""
    _application = QGuiApplication([])
    renderer = QSvgRenderer(str(HERE / "mtgui.svg"))
    for size in SIZES:
        assert render(renderer, size).save(str(HERE / f"mtgui-{size}.png"))
    assert render(renderer, 256).save(str(HERE / "mtgui.png"))


if __name__ == "__main__":
    main()
