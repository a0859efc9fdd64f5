"""Make the README's screenshots of the window: the demo data and WMT21 is-en (../shared).

python resources/screenshots/make_screenshots.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer

from mtgui.app import create_application, load_demo_into
from mtgui.views.main_window import MainWindow

HERE = Path(__file__).resolve().parent
IS_EN = HERE.parents[2] / "shared" / "data" / "wmt21-newstest2021-is-en"
TABS = ("distributions", "scores", "significance")
KEEP = {"demo-distributions", "wmt21-is-en-scores", "wmt21-is-en-significance"}


def shoot(loader: Callable[[MainWindow], None], prefix: str) -> None:
    """Open a window, load with ``loader``, wait for the analysis, save the kept tabs."""
    app = create_application()
    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    loader(window)

    def save_when_done() -> None:
        if window.result is None or window._runner.running:
            QTimer.singleShot(100, save_when_done)
            return
        for index, tab in enumerate(TABS):
            if f"{prefix}-{tab}" in KEEP:
                window.tabs.setCurrentIndex(index)
                app.processEvents()
                window.grab().save(str(HERE / f"{prefix}-{tab}.png"))
        window.close()
        app.quit()

    QTimer.singleShot(100, save_when_done)
    app.exec()


def load_is_en(window: MainWindow) -> None:
    """WMT21 is-en in SGML, with chrF ticked too."""
    window.settings_panel.metric_boxes["chrf"].setChecked(True)
    systems = sorted((IS_EN / "sgm" / "systems").glob("*.sgm"))
    window.add_files([IS_EN / "sgm" / "newstest2021.is-en.ref.A.en.sgm", *systems])


if __name__ == "__main__":
    shoot(load_demo_into, "demo")
    shoot(load_is_en, "wmt21-is-en")
