"""The window most GUI tests drive: shown, exposed, with few resamples so that runs are fast.
A test file that needs another size or state defines its own ``window``."""

from __future__ import annotations

import pytest

from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()
