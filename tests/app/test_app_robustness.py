"""The window when things go wrong (issue 13): a name in use, results behind the settings, a
huge session, quitting mid-run, a file that never arrives, command-line words in the window."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gui_helpers import drop, shoot, system_item, wait_for_result
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

import mtgui.app.analysis as analysis_module
import mtgui.io.entries as entries_module
from mtgui.app.preferences import Preferences
from mtgui.app.threads import stop_all_threads, threads_left_running
from mtgui.engine.core.corpus import Role
from mtgui.io.demo import demo_inputs
from mtgui.views.common.dialogs import RenameDialog
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow

WMT14 = "wmt14-newstest2014-en-de/sgm"

# How long a stuck step or read blocks in these tests: a close that returns well before it
# did not wait for it (that it returns within QUIT_WAIT_SECONDS, as designed, is not asserted
# here: a busy machine may take longer).
STUCK_SECONDS = 60


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def wmt14(shared_data: Path) -> list[Path]:
    folder = shared_data / WMT14
    return [folder / "newstest2014-deen-ref.de.sgm", *sorted((folder / "systems").glob("*.sgm"))]


def menu_action(panel, item, text: str):
    return next(a for a in panel.menu_for(item).actions() if a.text() == text)


def file_item(panel, name: str):
    tops = [panel.topLevelItem(i) for i in range(panel.topLevelItemCount())]
    return next(item for item in tops if item.text(0) == name)


def rename_with_the_dialog(qtbot, window, system: str, typed: list[str]) -> list[dict]:
    """Rename ``system`` from its context menu, typing each of ``typed`` into the real dialog
    and pressing Enter; report what the dialog showed after each (then cancel it if open)."""
    seen: list[dict] = []

    def type_names() -> None:
        dialog = QApplication.activeModalWidget()
        try:
            for name in typed:
                if isinstance(dialog, RenameDialog):
                    edit = dialog.name_edit
                    edit.setText(name)
                    shown = {
                        "ok": dialog.ok_button.isEnabled(),
                        "problem": dialog.problem_label.text(),
                        "problem shown": dialog.problem_label.isVisible(),
                    }
                    shoot(dialog, f"rename-dialog-{name.replace(' ', '-')}")
                    qtbot.keyClick(edit, Qt.Key.Key_Return)
                    shown["open after Enter"] = dialog.isVisible()
                else:  # the old QInputDialog: it takes any name
                    dialog.setTextValue(name)
                    dialog.accept()
                    shown = {"ok": True, "problem": "", "problem shown": False}
                    shown["open after Enter"] = False
                seen.append(shown)
                if not shown["open after Enter"]:
                    return
        finally:
            if dialog is not None and dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(0, type_names)
    window.result = None
    menu_action(window.files_panel, system_item(window.files_panel, system), "Rename...").trigger()
    return seen


# -- 26: renaming to a name in use ---------------------------------------------------------


@pytest.mark.shared
def test_26_a_name_in_use_is_refused_in_the_dialog_and_renames_follow_one_system(
    qtbot, window, shared_data
):
    files = wmt14(shared_data)
    drop(window, files)
    wait_for_result(qtbot, window)
    assert window.windowTitle().startswith("8 systems")
    seen = rename_with_the_dialog(qtbot, window, "CimS-CORI", ["KIT", "CimS"])
    refused, taken = seen
    assert not refused["ok"] and refused["problem shown"] and refused["open after Enter"]
    assert "'KIT' is already the name of another system" in refused["problem"]
    assert "newstest2014.KIT-primary.3399.en-de.sgm" in refused["problem"]
    assert taken["ok"] and not taken["open after Enter"]
    wait_for_result(qtbot, window)
    systems = set(window.result.bootstrap.systems)
    assert {"CimS", "KIT"} <= systems and "CimS-CORI" not in systems
    assert window.windowTitle().startswith("8 systems")
    assert not window.results.problem.text() and not window.results.stale.isVisible()
    # Renaming KIT renames KIT only.
    window.files_panel.ask_name = lambda name: "KIT-primary"
    window.result = None
    menu_action(window.files_panel, system_item(window.files_panel, "KIT"), "Rename...").trigger()
    wait_for_result(qtbot, window)
    systems = set(window.result.bootstrap.systems)
    assert {"CimS", "KIT-primary"} <= systems and "KIT" not in systems
    # Removed and added again, the file comes back with the name it gives, and loads.
    cims = files[1]
    panel = window.files_panel
    menu_action(panel, file_item(panel, cims.name), "Remove").trigger()
    assert "CimS" not in window.workspace.system_names().values()
    window.result = None
    wait_for_result(qtbot, window)  # the run of the seven left, before the file comes back
    assert len(window.result.bootstrap.systems) == 7
    window.result = None
    drop(window, [cims])
    wait_for_result(qtbot, window)
    assert "CimS-CORI" in window.result.bootstrap.systems
    assert window.statusBar().currentMessage().startswith("Done in")
    assert window.windowTitle().startswith("8 systems")


def test_26_two_files_giving_one_name_are_told_apart_by_renaming_one(qtbot, window, tmp_path):
    inputs = demo_inputs()
    lumen = next(path for path, _ in inputs if path.name.startswith("Lumen"))
    again = tmp_path / "Lumen-again.sgm"
    shutil.copy(lumen, again)
    window.add_files([*(p for p, _ in inputs), again], dict(inputs))
    qtbot.waitUntil(lambda: "two systems are both named 'Lumen'" in window.results.problem.text())
    assert window.windowTitle().startswith("5 systems")
    assert "--" not in window.results.problem.text()
    panel = window.files_panel
    copy = file_item(panel, again.name).child(0)
    answers = iter(["Quill", "Lumen 2"])  # a stand-in for the dialog: a name in use first
    told = []
    panel.ask_name = lambda name: next(answers)
    panel.tell_problem = told.append
    window.result = None
    menu_action(panel, copy, "Rename...").trigger()
    wait_for_result(qtbot, window)
    assert told and "'Quill' is already the name of another system" in told[0]
    assert set(window.result.bootstrap.systems) == {
        "Lumen",
        "Lumen 2",
        "Quill",
        "Tessera",
        "Ostrich",
    }
    assert not window.results.problem.text()
    # Hiding one of the two hides that one.
    window.result = None
    menu_action(panel, file_item(panel, again.name).child(0), "Hide from the analysis").trigger()
    wait_for_result(qtbot, window)
    assert "Lumen 2" not in window.result.bootstrap.systems
    assert "Lumen" in window.result.bootstrap.systems


# -- 27: results behind the files and settings ---------------------------------------------


def test_27_results_of_other_settings_say_so_until_a_run_replaces_them(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert not window.results.stale.isVisible()
    shown = window.result
    window.settings_panel.seed.setValue(7)
    assert window.results.stale.isVisible()
    assert (
        "These results are from the previous settings (seed 12345, now 7)"
        in window.results.stale.text()
    )
    assert "A new run starts in a moment." in window.results.stale.text()

    def press_escape() -> None:
        qtbot.keyClick(window, Qt.Key.Key_Escape)
        assert "cancelled" in window.results.stale.text()

    qtbot.waitUntil(press_escape, timeout=2000)
    qtbot.wait(2 * analysis_module.RERUN_DELAY_MS)  # nothing starts after all
    assert window.result is shown and not window.controller.analysing
    text = window.results.stale.text()
    assert text.startswith("These results are from the previous settings (seed 12345, now 7).")
    assert "The new run was cancelled: press Run (Ctrl+R) to update them." in text
    assert window.statusBar().currentMessage().startswith("Cancelled: the views show the results")
    for index in (1, 2):  # Scores and Significance: the note is above every view
        window.results.tabs.setCurrentIndex(index)
        assert window.results.stale.isVisible()
    shoot(window, "stale-results-cancelled")
    # Ctrl+R runs with the new settings, and the note goes.
    window.result = None
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    wait_for_result(qtbot, window)
    assert window.result.bootstrap.settings.seed == 7
    assert not window.results.stale.isVisible()


def test_27_a_new_run_says_so_at_once_and_the_files_changing_too(qtbot, window, tmp_path):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert window.statusBar().currentMessage().startswith("Done in")
    window.settings_panel.resamples.setValue(50_000)  # a run long enough to look at
    window.settings_panel.metric_boxes["ter"].setChecked(True)
    qtbot.waitUntil(lambda: window.controller.analysing, timeout=5000)
    status = window.statusBar().currentMessage()
    assert not status.startswith("Done"), status
    assert status.startswith(("Analysing", "Scoring", "Resampling"))
    assert window.progress.value() < window.progress.maximum()
    text = window.results.stale.text()
    assert "(without TER; 300 resamples, now 50,000 resamples)" in text
    assert "A new run is under way" in text
    shoot(window, "stale-results-running")
    window.cancel()
    # Files: a file removed is a change too.
    window.settings_panel.resamples.setValue(300)
    window.settings_panel.metric_boxes["ter"].setChecked(False)
    window.result = None
    wait_for_result(qtbot, window)
    assert not window.results.stale.isVisible()
    ostrich = system_item(window.files_panel, "Ostrich").parent()
    menu_action(window.files_panel, ostrich, "Remove").trigger()
    assert "the files and system names as they were before" in window.results.stale.text()
    window.result = None
    wait_for_result(qtbot, window)
    assert not window.results.stale.isVisible()


def test_27_results_that_cannot_be_updated_say_why(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    for box in window.settings_panel.metric_boxes.values():
        box.setChecked(False)
    qtbot.waitUntil(lambda: "no metric is chosen" in window.results.problem.text())
    assert (
        "They cannot be updated until the problem above is solved." in window.results.stale.text()
    )
    assert window.statusBar().currentMessage().startswith("The analysis cannot start")


def test_27_a_study_of_other_settings_says_so_in_the_studies_view(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    studies = window.results.studies
    window.results.tabs.setCurrentWidget(studies)
    studies.repeats.setValue(2)
    with qtbot.waitSignal(window.controller.studies.finished, timeout=60_000):
        studies.run_button.click()
    assert not studies.message.text()
    window.settings_panel.seed.setValue(7)
    studies.run_button.click()  # refused while the analysis is behind
    assert "press Run (Ctrl+R) first" in studies.message.text()
    window.result = None
    wait_for_result(qtbot, window)  # the analysis is up to date: the study is not
    assert not window.results.stale.isVisible()
    note = studies.message.text()
    assert note.startswith("This study is from the previous settings (seed 12345, now 7).")
    shoot(window, "stale-study")
    with qtbot.waitSignal(window.controller.studies.finished, timeout=60_000):
        studies.run_button.click()
    assert not studies.message.text()


# -- 11: a huge session opens without freezing the window ---------------------------------


def test_11_a_session_of_8000_missing_files_opens_without_freezing(qtbot, window, tmp_path):
    files = [{"path": str(tmp_path / "gone" / f"f{i}.txt"), "role": "system"} for i in range(8000)]
    session = tmp_path / "big.mtgui.json"
    session.write_text(
        '{"mtgui_session": 1, "files": ' + str(files).replace("'", '"') + "}", encoding="utf-8"
    )
    ticks = []
    ticker = QTimer(window, interval=10)
    ticker.timeout.connect(lambda: ticks.append(window.controller.loading))
    ticker.start()
    window.add_files([session])
    qtbot.waitUntil(
        lambda: (
            len(window.workspace.entries) == 8000
            and not window.controller.loading
            and all(not e.ok for e in window.workspace.entries)
        ),
        timeout=60_000,
    )
    ticker.stop()
    # The event loop kept turning while the files arrived (how long its pauses were is
    # measured by bench/bench_gui_stall.py, not asserted on a machine that may be busy).
    assert any(ticks), "the timer never fired while the files were read"
    assert window.files_panel.topLevelItemCount() == 8000
    assert window.files_panel.topLevelItem(7999).text(1) == "could not be read"


# -- 12: quitting during a run -----------------------------------------------------------


@pytest.fixture
def blocked():
    """An event that stuck threads wait for; set when the test ends, so they end too."""
    event = threading.Event()
    yield event
    event.set()


def test_12_closing_stops_every_worker_within_a_bounded_time(qtbot, window, monkeypatch, blocked):
    """An analysis stuck inside one step, and a file stuck in its read: closing waits for them
    a bounded time, then lets them go (they are daemon threads: no QThread to destroy)."""

    def stuck_analysis(*_args):
        yield None
        blocked.wait(STUCK_SECONDS)  # a slow metric that does not look at the cancel flag
        yield None

    read_entry = entries_module.read_entry

    def stuck_read(path, role, *more):
        if path.name == "stuck.txt":
            blocked.wait(STUCK_SECONDS)
        return read_entry(path, role, *more)

    monkeypatch.setattr(analysis_module, "iter_analysis", stuck_analysis)
    monkeypatch.setattr(entries_module, "read_entry", stuck_read)
    load_demo_into(window)
    qtbot.waitUntil(lambda: window.controller.analysing, timeout=10_000)
    window.add_files([window.workspace.entries[0].path.parent / "stuck.txt"])
    qtbot.wait(200)
    threads = window.controller.analysis.runs.threads()
    started = time.monotonic()
    window.close()
    assert time.monotonic() - started < STUCK_SECONDS / 2  # it did not wait for the stuck
    assert any(not thread.isFinished() for thread in threads)  # let go, still stuck
    assert threads_left_running()  # kept, so that no running QThread is ever destroyed
    blocked.set()
    assert all(thread.wait(5000) for thread in threads)


def test_stopping_all_threads_asks_each_run_to_stop_and_waits(qtbot, window, monkeypatch):
    """What the test session does before Python exits (a running QThread destroyed aborts)."""

    def slow_analysis(*_args):
        for _ in range(600):  # a minute, unless asked to stop between steps
            time.sleep(0.1)
            yield None

    monkeypatch.setattr(analysis_module, "iter_analysis", slow_analysis)
    load_demo_into(window)
    qtbot.waitUntil(lambda: window.controller.analysing, timeout=10_000)
    threads = window.controller.analysis.runs.threads()
    assert any(not thread.isFinished() for thread in threads)
    assert stop_all_threads(30_000)
    assert not threads_left_running()  # each run stopped between its steps, none was let go


QUIT_SCRIPT = r"""
import sys, time, threading
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
import mtgui.app.analysis as analysis
import mtgui.views.window.launch as app
import mtgui.views.window.main_window as main_window
from mtgui.views.window.main_window import MainWindow

if sys.argv[1] == "stuck":
    def stuck_analysis(*args):
        yield None
        threading.Event().wait(600)  # never looks at the cancel flag
        yield None
    analysis.iter_analysis = stuck_analysis
started = []

def close_when_running():
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    runs = windows[0].controller.analysis.runs if windows else None
    if runs is not None and runs.running and runs.threads():
        time.sleep(0.5)  # well inside the run
        print("closing while:", windows[0].statusBar().currentMessage(), flush=True)
        started.append(time.monotonic())
        windows[0].close()  # as File > Quit does
    else:
        QTimer.singleShot(20, close_when_running)

app.create_application()
QTimer.singleShot(20, close_when_running)
files = [__import__("pathlib").Path(p) for p in sys.argv[2:]]
if files:
    main_window.MainWindow._restore_preferences = lambda self: (
        self.settings_panel.metric_boxes["ter"].setChecked(True)
    )
code = app.run_application(demo=not files, files=files)
print(f"closed in {time.monotonic() - started[0]:.2f} s", flush=True)
sys.exit(code)
"""


def quit_during_a_run(tmp_path: Path, how: str, files: list[Path]) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path),  # remembered settings go here, not to the user's
        "HOME": str(tmp_path),
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", QUIT_SCRIPT, how, *map(str, files)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    done.seconds = time.monotonic() - started
    return done


def test_12_quitting_during_a_stuck_run_exits_0_at_once(tmp_path):
    done = quit_during_a_run(tmp_path, "stuck", [])
    assert done.returncode == 0, done.stderr
    assert "QThread" not in done.stderr
    closed = float(done.stdout.split("closed in ")[1].split(" s")[0])
    assert closed < STUCK_SECONDS / 2, done.stdout  # not waiting for the stuck run


@pytest.mark.shared
def test_12_quitting_during_ter_on_wmt14_exits_0_at_once(tmp_path, shared_data):
    done = quit_during_a_run(tmp_path, "ter", wmt14(shared_data))
    assert done.returncode == 0, done.stderr
    assert "QThread" not in done.stderr
    assert "closing while:" in done.stdout
    closed = float(done.stdout.split("closed in ")[1].split(" s")[0])
    assert closed < STUCK_SECONDS / 2, done.stdout  # not waiting for the stuck run


# -- 9: a file that never arrives holds nothing up -----------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_9_a_pipe_dropped_on_the_window_holds_up_neither_later_drops_nor_quitting(
    qtbot, window, tmp_path
):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    window.controller.files.loader.stall_seconds = 0.5
    try:
        window.choose_roles = dict
        drop(window, [fifo])
        drop(window, [path for path, _ in demo_inputs()])
        wait_for_result(qtbot, window)
        assert len(window.result.bootstrap.systems) == 4
        row = file_item(window.files_panel, "pipe.txt")
        assert row.text(1) in ("still reading...", "could not be read")
        started = time.monotonic()
        window.close()
        assert time.monotonic() - started < STUCK_SECONDS / 2
    finally:
        with contextlib.suppress(OSError):  # let a reader blocked on the pipe go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_9_a_read_that_blocks_never_wedges_the_queue(qtbot, window, tmp_path, monkeypatch, blocked):
    read_entry = entries_module.read_entry

    def slow_read(path, role, *more):
        if path.name == "stuck.txt":
            blocked.wait(STUCK_SECONDS)
        return read_entry(path, role, *more)

    monkeypatch.setattr(entries_module, "read_entry", slow_read)
    window.controller.files.loader.stall_seconds = 0.5
    inputs = demo_inputs()
    stuck = tmp_path / "stuck.txt"
    stuck.write_text("a\n", encoding="utf-8")
    reference = next(p for p, role in inputs if role is Role.REFERENCE)
    window.add_files([stuck, reference], {stuck: Role.SYSTEM, reference: Role.REFERENCE})
    window.add_files([p for p, _ in inputs if p != reference], dict(inputs))  # a later drop
    wait_for_result(qtbot, window)
    assert len(window.result.bootstrap.systems) == 4
    panel = window.files_panel
    assert [panel.topLevelItem(i).text(0) for i in range(2)] == ["stuck.txt", reference.name]
    row = file_item(panel, "stuck.txt")
    assert row.text(1) == "still reading..."
    assert "remove it" in row.toolTip(1)
    shoot(window, "stuck-file-still-reading")
    # Dropped again later, files still load.
    window.result = None
    window.settings_panel.seed.setValue(3)
    wait_for_result(qtbot, window)
    # Removed, the stuck file stays out when its read ends after all.
    menu_action(panel, row, "Remove").trigger()
    blocked.set()
    qtbot.wait(500)
    assert "stuck.txt" not in [e.path.name for e in window.workspace.entries]
    assert not window.controller.loading


def test_9_a_reader_that_fails_does_not_stop_the_files_after_it(qtbot, window, monkeypatch):
    read_entry = entries_module.read_entry

    def failing_read(path, role, *more):
        if path.name.startswith("Ostrich"):
            raise RuntimeError("the reader broke")
        return read_entry(path, role, *more)

    monkeypatch.setattr(entries_module, "read_entry", failing_read)
    inputs = demo_inputs()
    ostrich = next(i for i, (p, _) in enumerate(inputs) if p.name.startswith("Ostrich"))
    ordered = [*inputs[ostrich:], *inputs[:ostrich]]
    window.add_files([p for p, _ in ordered], dict(inputs))
    wait_for_result(qtbot, window)
    assert len(window.result.bootstrap.systems) == 3
    entry = next(e for e in window.workspace.entries if e.path.name.startswith("Ostrich"))
    assert "internal error (RuntimeError: the reader broke)" in entry.problem


# -- 24 (c): the window's words ------------------------------------------------------------


def test_24c_the_window_never_tells_its_user_a_command_line_option(qtbot, window):
    system = next(p for p, role in demo_inputs() if role is Role.SYSTEM)
    drop(window, [system])
    qtbot.waitUntil(lambda: "no reference translation is loaded" in window.results.problem.text())
    text = window.results.problem.text()
    assert "--" not in text
    assert "drop the file on the window, or use File > Open" in text
    # A file's own problem, in the files panel, too: a system's output given as a reference.
    window.add_files([system], {system: Role.REFERENCE})
    qtbot.waitUntil(lambda: not window.workspace.entries[0].ok)
    problem = " ".join(file_item(window.files_panel, system.name).child(0).text(0).split())
    assert "but it was given as reference." in problem and "--" not in problem


def test_remembered_settings_and_sessions_still_work_with_identities(qtbot, tmp_path):
    preferences = Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    window = MainWindow(preferences=preferences)
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.show()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    panel = window.files_panel
    panel.ask_name = lambda name: "Quill v2"
    window.result = None
    menu_action(panel, system_item(panel, "Quill"), "Rename...").trigger()
    wait_for_result(qtbot, window)
    window.result = None
    menu_action(panel, system_item(panel, "Ostrich"), "Hide from the analysis").trigger()
    wait_for_result(qtbot, window)
    path = tmp_path / "s.mtgui.json"
    window.choose_session_file = lambda: path
    assert window.save_session()
    window.close()
    other = MainWindow()
    qtbot.addWidget(other)
    other.settings_panel.resamples.setValue(300)
    other.add_files([path])
    wait_for_result(qtbot, other)
    assert set(other.result.bootstrap.systems) == {"Lumen", "Quill v2", "Tessera"}
    assert system_item(other.files_panel, "Ostrich").text(1) == "hidden"
    other.close()
