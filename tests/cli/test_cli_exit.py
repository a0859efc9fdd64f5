"""How the ``mtgui`` command ends: at once after a command when nothing needs Python's teardown,
with its output whole, its exit code and its exit handlers; as usual otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from mtgui import launch

SCRIPT = """
import atexit, sys, threading, time
from pathlib import Path

folder = Path(sys.argv[1])


class TornDown:
    def __init__(self, path):
        self.path = path

    def __del__(self, open=open):  # runs in Python's teardown, which the fast exit skips
        with open(self.path, "w") as file:
            file.write("yes")


kept = TornDown(str(folder / "torn-down"))
atexit.register(lambda: (folder / "exit-handler").write_text("ran"))
sys.argv, thread = ["mtgui", *sys.argv[3:]], sys.argv[2]
from mtgui import launch

finished = threading.Event()
command = launch.main


def main():
    code = command()
    finished.set()
    return code


def still_working():  # not a daemon, and busy still when the command has finished
    finished.wait()
    time.sleep(0.3)


launch.main = main
if thread == "thread":
    threading.Thread(target=still_working).start()
launch.run()
"""


def _run_script(folder: Path, thread: str, *args: str) -> subprocess.CompletedProcess[str]:
    script = folder / "script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    return subprocess.run(
        [sys.executable, str(script), str(folder), thread, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_command_ends_without_teardown_but_with_its_exit_handlers(tmp_path):
    done = _run_script(tmp_path, "none", "eval", "--demo", "--bootstrap", "100")
    assert done.returncode == 0, done.stderr
    assert "Scores" in done.stdout
    assert (tmp_path / "exit-handler").read_text() == "ran"
    assert not (tmp_path / "torn-down").exists()


def test_a_thread_still_working_gets_the_usual_exit(tmp_path):
    done = _run_script(tmp_path, "thread", "eval", "--demo", "--bootstrap", "100")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "exit-handler").read_text() == "ran"
    assert (tmp_path / "torn-down").read_text() == "yes"


def test_the_exit_code_of_bad_input_survives_the_fast_exit(tmp_path):
    done = _run_script(tmp_path, "none", "eval", "--ref", "nope.sgm", "--hyp", "nope.txt")
    assert done.returncode == 2
    assert done.stderr == (
        "mtgui: nope.sgm: there is no such file. A relative path is read from the current "
        f"folder, {Path.cwd()}.\n"  # the script runs in the test's own folder
    )
    assert not (tmp_path / "torn-down").exists()


def test_a_report_piped_out_arrives_whole(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mtgui", "eval", "--demo", "--bootstrap", "200", "--json", "-"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bootstrap"]["resamples"] == 200


def test_a_run_started_with_standard_output_closed_says_so_and_exits_2(tmp_path):
    """``mtgui eval ... >&-``: Python has no sys.stdout; the table cannot be written, which is
    said in words (it was an AttributeError and a traceback)."""
    command = 'exec "$0" -m mtgui eval --demo -m bleu --bootstrap 0 >&-'
    done = subprocess.run(
        ["sh", "-c", command, sys.executable],
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert "mtgui: cannot write to standard output: it was closed when mtgui started" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


def test_only_a_process_without_qt_workers_or_busy_threads_skips_the_teardown():
    main_thread = threading.main_thread()
    daemon = threading.Thread(target=lambda: None, daemon=True)
    busy = threading.Thread(target=lambda: None)
    plain = ["numpy", "mtgui.cli.main"]
    assert launch.may_skip_teardown(plain, [main_thread, daemon], workers=False)
    assert not launch.may_skip_teardown(plain, [main_thread], workers=True)
    assert not launch.may_skip_teardown([*plain, "PySide6.QtCore"], [main_thread], workers=False)
    assert not launch.may_skip_teardown(plain, [main_thread, busy], workers=False)
