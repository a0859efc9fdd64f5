"""Issue 32: no unexpected error or kill loses work. The window keeps its session in a
recovery file as it changes; a clean quit removes it; the next start after a kill offers it
back (Restore / Discard), and two windows never write over each other's file."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gui_helpers import wait_for_result

import mtgui.views.window.recovery_offer as offer
from mtgui.app.recovery import PREFIX, SAVE_DELAY_MS, RecoveryFolder, recovery_folder
from mtgui.io.demo import demo_inputs
from mtgui.io.session import SESSION_SUFFIX, read_session
from mtgui.views.window.main_window import MainWindow


def recovery_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.endswith(SESSION_SUFFIX))


def open_window(qtbot, folder: Path) -> MainWindow:
    window = MainWindow(recovery_folder=folder)
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.show()
    return window


def state(window: MainWindow) -> dict:
    """What a restore must give back: files and roles, names, hidden systems, settings."""
    workspace = window.workspace
    return {
        "files": [(str(e.path), e.role.value if e.role else None) for e in workspace.entries],
        "names": sorted(workspace.system_names().values()),
        "hidden": sorted(workspace.hidden),
        "settings": window.settings_panel.state(),
        "metric": window.current_metric(),
        "session": None if window.session_path is None else str(window.session_path),
    }


def change_the_work(window: MainWindow) -> None:
    """Rename a system, hide another, tick TER and change the seed."""
    names = {name: key for key, name in window.workspace.system_names().items()}
    window.controller.rename_system(names["Quill"], "Quill v2")
    window.controller.hide_system(names["Ostrich"], True)
    window.settings_panel.metric_boxes["ter"].setChecked(True)
    window.settings_panel.seed.setValue(7)


def test_the_work_is_kept_as_it_changes_and_removed_on_a_clean_quit(qtbot, tmp_path):
    folder = tmp_path / "recovery"
    window = open_window(qtbot, folder)
    assert recovery_files(folder) == []  # nothing loaded: nothing to keep
    window.add_files([p for p, _ in demo_inputs()], dict(demo_inputs()))
    wait_for_result(qtbot, window)
    qtbot.waitUntil(lambda: len(recovery_files(folder)) == 1, timeout=10_000)
    (kept,) = recovery_files(folder)
    assert kept.name.startswith(f"{PREFIX}{os.getpid()}-")
    assert Path(f"{kept}.lock").exists()  # held while the window runs
    assert len(read_session(kept).paths) == 5
    written = kept.stat().st_mtime_ns
    change_the_work(window)  # a burst of changes: one write, a moment later
    assert kept.stat().st_mtime_ns == written
    qtbot.waitUntil(lambda: "Quill v2" in kept.read_text(encoding="utf-8"), timeout=10_000)
    session = read_session(kept)
    assert session.settings["seed"] == 7 and "ter" in session.settings["metrics"]
    assert "Ostrich" in session.hidden
    assert not any(p.name.endswith(".tmp") for p in folder.iterdir())  # written atomically
    window.close()  # a clean quit
    assert recovery_files(folder) == [] and not Path(f"{kept}.lock").exists()


def test_two_windows_keep_their_own_files_and_a_live_one_is_never_offered(qtbot, tmp_path):
    folder = tmp_path / "recovery"
    first, second = open_window(qtbot, folder), open_window(qtbot, folder)
    inputs = demo_inputs()
    first.add_files([p for p, _ in inputs], dict(inputs))
    second.add_files([p for p, _ in inputs[:3]], dict(inputs[:3]))
    qtbot.waitUntil(lambda: len(recovery_files(folder)) == 2, timeout=20_000)
    assert RecoveryFolder(folder).orphans() == []  # both are alive
    sizes = sorted(len(read_session(p).paths) for p in recovery_files(folder))
    assert sizes == [3, 5]
    first.close()
    assert [len(read_session(p).paths) for p in recovery_files(folder)] == [3]
    second.close()
    assert recovery_files(folder) == []


def test_work_left_behind_is_offered_and_restored_as_it_was(qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    window = open_window(qtbot, folder)
    window.add_files([p for p, _ in demo_inputs()], dict(demo_inputs()))
    wait_for_result(qtbot, window)
    change_the_work(window)
    wait_for_result(qtbot, window)
    window.recovery.save_now()
    before = state(window)
    (kept,) = recovery_files(folder)
    window.recovery._lock.unlock()  # as if the process had been killed: its lock is gone
    window.recovery = None  # and it never removes its file
    asked = []
    monkeypatch.setattr(offer, "ask_to_restore", lambda _, text: asked.append(text) or "restore")
    other = open_window(qtbot, tmp_path / "recovery")
    assert offer.offer_recovery(other, RecoveryFolder(folder))
    assert len(asked) == 1 and "5 files (reference.sgm, Lumen.sgm, Ostrich.sgm, ...)" in asked[0]
    wait_for_result(qtbot, other)
    qtbot.waitUntil(lambda: other.current_metric() == before["metric"], timeout=10_000)
    assert state(other) == before
    assert not kept.exists()  # the restored window keeps the work in its own file now
    (own,) = recovery_files(folder)
    assert own.name.startswith(f"{PREFIX}{os.getpid()}-") and own != kept
    assert other.session_path is None  # the recovery file is not the user's session


def test_discard_deletes_and_closing_the_question_keeps_it_for_next_time(
    qtbot, tmp_path, monkeypatch
):
    folder = tmp_path / "recovery"
    folder.mkdir()
    source = tmp_path / "source"
    window = open_window(qtbot, source)
    window.add_files([p for p, _ in demo_inputs()], dict(demo_inputs()))
    qtbot.waitUntil(lambda: len(recovery_files(source)) == 1, timeout=10_000)
    (kept,) = recovery_files(source)
    left = folder / kept.name  # a copy with no lock beside it: its process is gone
    shutil.copy(kept, left)
    other = open_window(qtbot, tmp_path / "elsewhere")
    monkeypatch.setattr(offer, "ask_to_restore", lambda *_: "later")
    assert not offer.offer_recovery(other, RecoveryFolder(folder))
    assert left.exists() and not Path(f"{left}.lock").exists()
    monkeypatch.setattr(offer, "ask_to_restore", lambda *_: "discard")
    assert not offer.offer_recovery(other, RecoveryFolder(folder))
    assert not left.exists() and other.workspace.entries == ()


def test_the_recovery_folder_is_beside_the_preferences():
    assert recovery_folder("/home/u/.config/mtgui/mtgui.conf") == Path(
        "/home/u/.config/mtgui/recovery"
    )


# -- killed in the middle of a session, then started again ----------------------------------

KEEP_SCRIPT = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
import mtgui.views.window.launch as app
from mtgui.views.window.main_window import MainWindow
sys.path[:0] = [sys.argv[1], str(Path(sys.argv[1]).parent)]
from test_recovery import change_the_work, state

steps = []

def window():
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    return found[0] if found else None

def act():
    w = window()
    if w is None or w.result is None or w.controller.analysing:
        QTimer.singleShot(50, act)
        return
    if not steps:
        steps.append("changed")
        w.settings_panel.resamples.setValue(300)
        change_the_work(w)
        QTimer.singleShot(50, act)
    elif w.result.bootstrap.settings.seed == 7:
        print("STATE " + json.dumps(state(w)), flush=True)  # then wait to be killed
    else:
        QTimer.singleShot(50, act)

app.create_application()
QTimer.singleShot(50, act)
app.run_application(files=[Path(p) for p in sys.argv[2:]])
"""

RESTORE_SCRIPT = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
import mtgui.views.window.launch as app
import mtgui.views.window.recovery_offer as offer
from mtgui.views.window.main_window import MainWindow
sys.path[:0] = [sys.argv[1], str(Path(sys.argv[1]).parent)]
from test_recovery import state

answer = sys.argv[2]
def ask(parent, text):
    print("OFFER " + text, flush=True)
    return answer
offer.ask_to_restore = ask

def report():
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    w = found[0] if found else None
    if w is None or (answer == "restore" and (w.result is None or w.controller.analysing)):
        QTimer.singleShot(50, report)
        return
    print("STATE " + json.dumps(state(w)), flush=True)
    w.close()

app.create_application()
QTimer.singleShot(50, report)
sys.exit(app.run_application())
"""


def environment(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(home / "config"),  # the preferences and the recovery folder
        "HOME": str(home),
    }


def read_line(process: subprocess.Popen, prefix: str, seconds: float) -> str:
    """The first line of the process's output that starts with ``prefix`` (without it)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in process.stdout], daemon=True
    ).start()
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    process.kill()
    process.wait()
    pytest.fail(f"no {prefix!r} line within {seconds} s")


def test_killed_mid_session_the_next_start_offers_the_work_and_restores_it(tmp_path):
    here = str(Path(__file__).resolve().parent)
    folder = tmp_path / "config" / "mtgui" / "recovery"
    copies = []
    for source, _ in demo_inputs():
        copy = tmp_path / "data" / source.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(source.read_bytes())
        copies.append(str(copy))
    keeper = subprocess.Popen(
        [sys.executable, "-c", KEEP_SCRIPT, here, *copies],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=environment(tmp_path),
    )
    try:
        before = json.loads(read_line(keeper, "STATE ", 120))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # kept a moment after the last change
            kept = recovery_files(folder)
            if kept and '"seed": 7' in kept[0].read_text(encoding="utf-8"):
                break
            time.sleep(SAVE_DELAY_MS / 4000)
        else:
            pytest.fail(f"no recovery file in {folder}")
        keeper.send_signal(signal.SIGKILL)  # no chance to clean up
        keeper.wait(30)
    finally:
        keeper.kill()
        keeper.wait()
        keeper.stdout.close()
    assert len(recovery_files(folder)) == 1
    restorer = subprocess.run(
        [sys.executable, "-c", RESTORE_SCRIPT, here, "restore"],
        capture_output=True,
        text=True,
        env=environment(tmp_path),
        timeout=120,
    )
    assert restorer.returncode == 0, restorer.stderr
    offers = [line for line in restorer.stdout.splitlines() if line.startswith("OFFER ")]
    assert len(offers) == 1 and "did not" not in offers[0]
    assert "5 files (reference.sgm, Lumen.sgm, Ostrich.sgm, ...)" in offers[0]
    after = json.loads(restorer.stdout.split("STATE ", 1)[1].splitlines()[0])
    assert after == before
    assert recovery_files(folder) == []  # restored, then a clean quit: nothing left
    again = subprocess.run(
        [sys.executable, "-c", RESTORE_SCRIPT, here, "discard"],
        capture_output=True,
        text=True,
        env=environment(tmp_path),
        timeout=120,
    )
    assert "OFFER" not in again.stdout  # nothing left to offer


@pytest.mark.parametrize(
    ("button", "answer"), [("Restore", "restore"), ("Discard", "discard"), ("Not now", "later")]
)
def test_the_offer_says_what_was_kept_and_each_button_answers(qtbot, monkeypatch, button, answer):
    from PySide6.QtWidgets import QMessageBox, QWidget

    seen = []

    def click(box):
        seen.append((box.text(), box.escapeButton().text()))
        next(b for b in box.buttons() if b.text() == button).click()

    monkeypatch.setattr(QMessageBox, "exec", click)
    parent = QWidget()
    qtbot.addWidget(parent)
    assert offer.ask_to_restore(parent, "Work saved at 10:00: 2 files (a, b).") == answer
    ((text, escape),) = seen
    assert text == "mtgui did not close properly last time. Work saved at 10:00: 2 files (a, b)."
    assert escape == "Not now"  # Esc keeps the copy: nothing is lost by a stray key
