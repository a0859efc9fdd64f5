"""The window carries mtgui's own icon, from the installed resources, in every size."""

from __future__ import annotations

from PySide6.QtCore import QSize

from mtgui.views.window.launch import application_icon


def test_the_icon_comes_in_the_sizes_desktops_ask_for(qapp):
    icon = application_icon()
    assert not icon.isNull()
    assert {QSize(s, s) for s in (16, 32, 48, 64, 128, 256)} <= set(icon.availableSizes())
    image = icon.pixmap(QSize(48, 48)).toImage()
    assert image.width() == 48
    assert image.pixelColor(24, 4).alpha() > 0  # drawn, not blank
