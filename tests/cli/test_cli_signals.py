"""A signal at any moment of ``mtgui eval`` with every report ends it with 128 + the signal's
number: no traceback, no temporary file, no half-written output.

The run announces its stages on standard error and waits at its end (the test-only variable
``MTGUI_TEST_STAGES``, see :mod:`mtgui.cli.signals`), so each signal is sent a fixed time after
a known stage and always arrives while the run still runs: as Qt loads and draws for the PDF,
too, where a signal raised as an exception once aborted the process (exit 134 or 139) or was
swallowed (exit 0).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mtgui.cli.main import main
from mtgui.cli.signals import (
    Terminated,
    hold_signals,
    received,
    release_signals,
    signals_deferred,
    signals_unwind,
)
from mtgui.io.temporaries import is_temporary

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
# (stage, seconds after it): Python importing mtgui, the computation, each report, Qt's import
# and its drawing.
POINTS = [
    ("held", 0.0),
    ("held", 0.05),
    ("held", 0.15),
    ("held", 0.3),
    ("start", 0.0),
    ("start", 0.1),
    ("outputs", 0.0),
    ("outputs", 0.02),
    ("html", 0.0),
    ("html", 0.05),
    ("pdf", 0.0),
    ("pdf", 0.01),
    ("pdf", 0.03),
    ("pdf", 0.06),
    ("pdf", 0.1),
    ("pdf", 0.15),
    ("pdf", 0.2),
    ("pdf", 0.3),
    ("pdf", 0.45),
    ("pdf", 0.7),
    ("pdf made", 0.0),
    ("end", 0.0),
]
LINGER = 30  # seconds the run waits at its end: far longer than any point above


def reports(folder: Path) -> list[str]:
    return [
        "--json", str(folder / "r.json"),
        "--csv", str(folder / "csv"),
        "--html", str(folder / "r.html"),
        "--pdf", str(folder / "r.pdf"),
        "--segments", str(folder / "s.csv"),
    ]  # fmt: skip


def eval_command(folder: Path) -> list[str]:
    return ["eval", "--demo", "-b", "100", *reports(folder)]


def study_command(folder: Path) -> list[str]:
    report = ["--json", str(folder / "r.json"), "--csv", str(folder / "csv")]
    return ["study", "size", "--demo", "--repeats", "5", *report]


def signal_at(
    folder: Path, stage: str, delay: float, signum: int, arguments: list[str] | None = None
) -> tuple[int, str]:
    """Run ``mtgui eval --demo`` with every report (or ``arguments``), signal it ``delay`` s
    after ``stage``."""
    environment = {**os.environ, "MTGUI_TEST_STAGES": str(LINGER), "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "mtgui", *(arguments or eval_command(folder))]
    with subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=folder,
    ) as process:
        try:
            assert process.stderr is not None
            seen = []
            for line in process.stderr:
                seen.append(line)
                if line.strip() == f"mtgui-test-stage: {stage}":
                    break
            else:
                raise AssertionError(f"the run never reached {stage!r}: {''.join(seen)}")
            time.sleep(delay)
            process.send_signal(signum)
            rest = process.stderr.read()
            process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    return process.returncode, "".join(seen) + rest


def assert_whole(folder: Path) -> None:
    """No temporary file anywhere; each report there is whole."""
    for path in folder.rglob("*"):
        assert not is_temporary(path.name), f"left behind: {path}"
    if (folder / "r.json").exists():
        json.loads((folder / "r.json").read_text(encoding="utf-8"))
    if (folder / "r.html").exists():
        assert (folder / "r.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    if (folder / "r.pdf").exists():
        data = (folder / "r.pdf").read_bytes()
        assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")
    for table in [folder / "s.csv", *(folder / "csv").glob("*.csv")]:
        if table.exists():
            assert table.read_bytes().endswith(b"\n")


@pytest.mark.parametrize(("stage", "delay"), POINTS)
def test_a_signal_at_any_stage_ends_the_run_with_128_plus_its_number(tmp_path, stage, delay):
    signum = SIGNALS[POINTS.index((stage, delay)) % len(SIGNALS)]
    code, err = signal_at(tmp_path, stage, delay, signum)
    assert code == 128 + signum, err
    assert "Traceback" not in err and "Fatal Python error" not in err, err
    assert ("interrupted" if signum == signal.SIGINT else "terminated") in err
    assert_whole(tmp_path)


@pytest.mark.parametrize(
    ("stage", "delay", "signum"),
    [("start", 0.05, signal.SIGINT), ("start", 0.3, signal.SIGTERM), ("end", 0.0, signal.SIGHUP)],
)
def test_a_signal_during_a_study_ends_it_with_128_plus_its_number(tmp_path, stage, delay, signum):
    code, err = signal_at(tmp_path, stage, delay, signum, study_command(tmp_path))
    assert code == 128 + signum, err
    assert "Traceback" not in err and "Fatal Python error" not in err, err
    assert_whole(tmp_path)


def test_without_a_signal_the_staged_run_writes_every_report(tmp_path, monkeypatch):
    monkeypatch.setenv("MTGUI_TEST_STAGES", "0")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    done = subprocess.run(
        [sys.executable, "-m", "mtgui", "eval", "--demo", "-b", "100", *reports(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    stages = [line.split(": ", 1)[1] for line in done.stderr.splitlines() if "-stage: " in line]
    assert stages == ["held", "start", "outputs", "html", "pdf", "pdf made", "end"]
    assert_whole(tmp_path)
    assert (tmp_path / "r.pdf").exists()


# -- The mechanism, in this process -----------------------------------------------------------


def test_a_signal_in_a_deferred_block_is_raised_when_the_block_ends():
    with pytest.raises(Terminated) as ended, signals_unwind():
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.01)  # the handler runs here, and only records
            after_the_signal = True
        raise AssertionError("the deferred signal was not raised")  # pragma: no cover
    assert after_the_signal and ended.value.signum == signal.SIGTERM


def test_a_signal_deferred_through_an_error_still_decides_the_exit():
    with pytest.raises(Terminated) as ended, signals_unwind(), signals_deferred():
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.01)
        raise ValueError("the PDF failed")
    assert ended.value.signum == signal.SIGHUP


def test_only_the_first_signal_counts_and_the_clean_up_is_not_cut_short():
    with pytest.raises(Terminated) as ended, signals_unwind():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # a second signal while unwinding
            time.sleep(0.01)
            cleaned = True
    assert cleaned and ended.value.signum == signal.SIGINT and received() == signal.SIGINT


def test_the_handlers_are_those_of_before_after_a_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    assert main(["eval", "--demo", "-b", "0", "--json", "r.json"]) == 0
    assert {signum: signal.getsignal(signum) for signum in SIGNALS} == before


def test_a_signal_while_mtgui_starts_ends_the_command_as_it_starts():
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    hold_signals()
    os.kill(os.getpid(), signal.SIGHUP)
    time.sleep(0.01)  # recorded only: the imports go on
    with pytest.raises(Terminated) as ended, signals_unwind():
        raise AssertionError("the command ran")  # pragma: no cover
    assert ended.value.signum == signal.SIGHUP
    assert {signum: signal.getsignal(signum) for signum in SIGNALS} == before


def test_the_window_gets_the_handlers_back_and_the_signal_received_meanwhile():
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    hold_signals()
    assert release_signals() is None
    assert {signum: signal.getsignal(signum) for signum in SIGNALS} == before
    hold_signals()
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.01)
    assert release_signals() == signal.SIGTERM
    assert {signum: signal.getsignal(signum) for signum in SIGNALS} == before
    assert release_signals() is None  # nothing held any more


def test_a_signal_handed_to_the_window_does_not_end_a_later_command(tmp_path, monkeypatch):
    """The signal release_signals hands over is not kept: a command run after it in the same
    process (here on a thread, as the tests of pipes run one) ran to its end, where it used to
    be ended as 'terminated' by the earlier signal."""
    hold_signals()
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.01)
    assert release_signals() == signal.SIGTERM
    assert received() is None
    monkeypatch.chdir(tmp_path)
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(["eval", "--demo", "-b", "0"])))
    thread.start()
    thread.join(60)
    assert codes == [0]
