"""The desktop application's window, driven as a user would (offscreen)."""

from __future__ import annotations

from mtgui.app import create_application, load_demo_corpus
from mtgui.views.main_window import MainWindow


def test_empty_main_window_opens(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "mtgui"
    assert window.summary_text == ""
    assert window.statusBar().currentMessage() == "Nothing loaded"


def test_demo_corpus_is_shown(qtbot, tmp_path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show_corpus(load_demo_corpus(), "demo data")
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "mtgui — demo data"
    assert "Systems (4):" in window.summary_text
    assert window.statusBar().currentMessage() == "4 systems, 2 references, 95 segments"
    shot = tmp_path / "main-window-demo.png"
    assert window.grab().save(str(shot))
    assert shot.stat().st_size > 0


def test_application_has_its_names(qapp):
    app = create_application()
    assert app is qapp
    assert app.applicationName() == "mtgui"


def test_mtgui_demo_command_opens_the_window_and_runs_the_event_loop(qapp, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from mtgui.cli import main

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    seen = []

    def look_and_quit():
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        seen.extend(w.summary_text for w in windows if w.isVisible())
        for window in windows:
            window.close()
        QApplication.quit()

    QTimer.singleShot(200, look_and_quit)
    assert main(["--demo"]) == 0
    assert any("Test set: 95 segments in 6 documents" in text for text in seen)
