"""The window most GUI tests drive: shown, exposed, with few resamples so that runs are fast.
A test file that needs another size or state defines its own ``window``."""

from __future__ import annotations

import pytest

from mtgui.app import campaign as app_campaign
from mtgui.views.window.main_window import MainWindow


@pytest.fixture(autouse=True)
def _campaign_code_given_back():
    """What a test hands the window of the campaign-file code (the launcher's hand-over, which
    ``launch.main`` makes) is taken back after it: a campaign file must open as the next test
    expects, whatever test ran before it in the same process."""
    before = list(app_campaign._provided), list(app_campaign._readers)
    yield
    app_campaign._provided[:], app_campaign._readers[:] = before


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()
