"""The outputs of ``mtgui eval`` and ``mtgui study``: checked before any work, never over an
input, atomic, with the permissions of a plain write, into devices and pipes as they are,
and every failure a message with exit code 2."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtgui.cli.main import main
from mtgui.engine.metrics import DEFAULT_METRICS

REF = "".join(f"w{i} a b c d e\n" for i in range(12))
HYP_A = "".join(f"w{i} a b c d\n" for i in range(12))
HYP_B = "".join(f"w{i} a b x d e\n" for i in range(12))
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A reference and two systems as plain text; the working folder is tmp_path."""
    monkeypatch.chdir(tmp_path)
    for name, text in (("ref.txt", REF), ("sys.A.txt", HYP_A), ("sys.B.txt", HYP_B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def run(*extra: str, bootstrap: str = "0") -> int:
    return main(["eval", "-r", "ref.txt", "-t", "sys.A.txt", "sys.B.txt", "-b", bootstrap, *extra])


@pytest.fixture
def no_work(monkeypatch):
    """Fail the test if the scoring starts: the outputs must be refused before it."""

    def refuse(*args, **kwargs):
        raise AssertionError("the work started before the outputs were checked")

    monkeypatch.setattr("mtgui.cli.eval.iter_statistics", refuse)
    monkeypatch.setattr("mtgui.cli.eval.iter_analysis", refuse)


def leftovers(folder: Path) -> list[str]:
    """mtgui's temporary files anywhere under ``folder``."""
    return sorted(p.name for p in folder.rglob(".*") if ".mtgui-" in p.name)


def python_mtgui(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mtgui", *args], capture_output=True, text=True, **kwargs
    )


# -- 1. never over an input, however it is reached ------------------------------------------


@pytest.mark.parametrize("how", ["in the --hyp folder", "symbolic link", "hard link"])
def test_an_input_is_never_written_over_even_with_overwrite(files, capsys, how):
    folder = files / "systems"
    folder.mkdir()
    (folder / "a.txt").write_text(HYP_A, encoding="utf-8")
    (folder / "b.txt").write_text(HYP_B, encoding="utf-8")
    if how == "symbolic link":
        (files / "out.json").symlink_to(folder / "a.txt")
        output = "out.json"
    elif how == "hard link":
        os.link(folder / "a.txt", files / "out.json")
        output = "out.json"
    else:
        output = "systems/a.txt"
    code = main(
        ["eval", "-r", "ref.txt", "-t", "systems", "-b", "0", "--json", output, "--overwrite"]
    )
    assert code == 2
    assert "this is one of the input files" in capsys.readouterr().err
    assert (folder / "a.txt").read_text(encoding="utf-8") == HYP_A


# -- 2. "-" is standard output for --segments as for --json -------------------------------


def test_segments_dash_is_standard_output(files, capsys):
    assert run("--segments", "-") == 0
    out = capsys.readouterr().out
    assert out.startswith("system,segment,doc_id,seg_id,bleu,")  # no byte-order mark, no table
    assert len(out.splitlines()) == 1 + 2 * 12
    assert not (files / "-").exists()


def test_only_one_output_goes_to_standard_output(files, capsys, no_work):
    assert run("--json", "-", "--segments", "-") == 2
    assert "both ask for standard output (-)" in capsys.readouterr().err


def test_a_file_named_dash_is_checked_like_any_other(files, capsys, no_work):
    (files / "-").write_text(HYP_A, encoding="utf-8")
    assert run("--segments", "./-") == 2
    assert "-: the file already exists" in capsys.readouterr().err
    code = main(["eval", "-r", "ref.txt", "-t", "./-", "--segments", "./-", "--overwrite"])
    assert code == 2
    assert "this is one of the input files" in capsys.readouterr().err
    assert (files / "-").read_text(encoding="utf-8") == HYP_A


# -- 3. two outputs of one run never name the same file --------------------------------------


@pytest.mark.parametrize(
    "outputs",
    [
        ["--json", "same.out", "--segments", "same.out"],
        ["--json", "same.out", "--segments", "sub/../same.out"],
        ["--json", "link/same.out", "--segments", "same.out"],
        ["--json", "reports/scores.csv", "--csv", "reports"],
        ["--json", "link/pairs.csv", "--csv", "new-reports", "-b", "100"],
        ["--json", "new-reports/scores.csv", "--csv", "new-reports"],
        ["--json", "new-reports", "--csv", "new-reports"],
    ],
)
def test_two_outputs_naming_one_file_are_refused_before_any_work(files, capsys, no_work, outputs):
    (files / "sub").mkdir()
    (files / "link").symlink_to(files if "new-reports" not in outputs else "new-reports")
    assert run(*outputs) == 2
    err = capsys.readouterr().err
    assert "name the same file" in err or "names the folder that --csv writes into" in err
    assert not (files / "same.out").exists() and not (files / "new-reports").exists()
    assert leftovers(files) == []


# -- 4. devices, pipes and links -------------------------------------------------------------


def test_a_named_pipe_is_written_into_not_replaced(files, capsys):
    pipe = files / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # so that the writer does not wait
    try:
        assert run("--json", "pipe") == 0  # nothing is replaced: no --overwrite needed
        data = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert json.loads(data)["systems"][0]["name"] == "A"
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc/self/fd")
def test_a_link_to_standard_output_is_written_through(files):
    (files / "out").symlink_to("/proc/self/fd/1")
    args = ["eval", "-r", "ref.txt", "-t", "sys.A.txt", "-b", "0", "--json", "out", "--overwrite"]
    result = python_mtgui(*args, cwd=files)
    assert result.returncode == 0, result.stderr
    table, _, report = result.stdout.partition("\n{")
    assert "Test set: 12 segments" in table
    assert json.loads("{" + report)["systems"][0]["name"] == "sys.A"
    assert os.readlink(files / "out") == "/proc/self/fd/1"


@pytest.mark.skipif(not IS_ROOT, reason="making device nodes (mknod) needs root")
def test_a_character_device_is_written_into_never_replaced(files, capsys):
    os.mknod(files / "null", 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    os.mknod(files / "full", 0o600 | stat.S_IFCHR, os.makedev(1, 7))
    assert run("--json", "null", "--overwrite") == 0
    assert run("--json", "full", "--overwrite") == 2
    assert "full: cannot be written: there is no space left on the device." in (
        capsys.readouterr().err
    )
    for name in ("null", "full"):
        assert stat.S_ISCHR(os.lstat(files / name).st_mode)
    assert leftovers(files) == []


def test_a_link_to_a_file_replaces_the_file_and_keeps_the_link(files, capsys):
    target = files / "real"
    target.mkdir()
    (target / "report.json").write_text("old", encoding="utf-8")
    (files / "report.json").symlink_to(target / "report.json")
    assert run("--json", "report.json") == 2  # it exists
    assert run("--json", "report.json", "--overwrite") == 0
    assert (files / "report.json").is_symlink()
    assert json.loads((target / "report.json").read_text(encoding="utf-8"))["systems"]
    assert leftovers(files) == []


def test_folders_and_sockets_are_refused(files, capsys, no_work):
    (files / "folder").mkdir()
    assert run("--json", "folder", "--overwrite") == 2
    assert "folder: this is a folder, which mtgui does not write into." in (capsys.readouterr().err)
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind("sock")
        assert run("--segments", "sock", "--overwrite") == 2
        assert "sock: this is a socket" in capsys.readouterr().err
    finally:
        server.close()
    assert stat.S_ISSOCK(os.lstat(files / "sock").st_mode)


# -- 5 and 15. every output checked before the work ------------------------------------------


def test_every_csv_report_is_checked_before_any_work(files, capsys, no_work):
    reports = files / "reports"
    reports.mkdir()
    (reports / "grid-nist.csv").write_text("keep", encoding="utf-8")
    assert run("--csv", "reports", "--json", "r.json", bootstrap="100") == 2
    assert "grid-nist.csv: the file already exists" in capsys.readouterr().err
    assert sorted(p.name for p in reports.iterdir()) == ["grid-nist.csv"]
    assert not (files / "r.json").exists()


def test_the_csv_reports_checked_are_exactly_those_written(files, capsys):
    from mtgui.report.files import report_names

    reports = files / "reports"
    reports.mkdir()
    (reports / "samples.csv").write_text("keep", encoding="utf-8")  # only with --samples
    assert run("--csv", "reports", bootstrap="100") == 0
    assert (reports / "samples.csv").read_text(encoding="utf-8") == "keep"
    written = {p.name for p in reports.iterdir()} - {"samples.csv"}
    assert written == set(report_names(DEFAULT_METRICS, bootstrap=True))
    assert run("--csv", "plain") == 0
    assert [p.name for p in (files / "plain").iterdir()] == report_names(DEFAULT_METRICS, False)
    assert run("--csv", "all", "--samples", bootstrap="100") == 0
    names = sorted(p.name for p in (files / "all").iterdir())
    assert names == sorted(report_names(DEFAULT_METRICS, bootstrap=True, samples=True))
    assert run("--csv", "out", "--json", "out/report.json") == 0  # into the folder it makes
    assert sorted(p.name for p in (files / "out").iterdir()) == ["report.json", "scores.csv"]


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="needs Linux's /sys, where no one may mkdir")
def test_a_csv_folder_that_cannot_be_made_exits_2_before_any_work(files, capsys, no_work):
    assert run("--csv", "/sys/mtgui-reports") == 2
    err = capsys.readouterr().err
    assert "/sys/mtgui-reports: the folder for the CSV reports cannot be made" in err


def test_a_read_only_folder_exits_2_before_any_work(files, capsys, no_work):
    locked = files / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        try:
            (locked / "probe").touch()
        except PermissionError:
            pass
        else:
            pytest.skip("this process may write into read-only folders (root)")
        assert run("--csv", "locked/reports") == 2
        assert "cannot be made: permission denied." in capsys.readouterr().err
        assert run("--json", "locked/r.json") == 2
        assert "locked/r.json: cannot be written: permission denied." in capsys.readouterr().err
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


# -- 6. temporary files ----------------------------------------------------------------------

SLOW_WRITE = """
import os, sys, time
from pathlib import Path
from mtgui.io import temporaries

def slow_write(self, data, mode=None):
    os.write(self.fd, data[:4096])  # half-way through a large write
    part = Path(sys.argv[1] + ".part")  # renamed, so the test never reads a half-written name
    part.write_text(str(self.path))
    os.replace(part, sys.argv[1])
    time.sleep(30)

temporaries.Temporary.write = slow_write
from mtgui.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    ("signum", "code", "message"),
    [(signal.SIGTERM, 143, "mtgui: terminated"), (signal.SIGINT, 130, "mtgui: interrupted")],
)
def test_a_signal_during_a_write_leaves_no_temporary_file(files, signum, code, message):
    script, marker = files / "slow.py", files / "writing"
    script.write_text(SLOW_WRITE, encoding="utf-8")
    args = ["eval", "-r", "ref.txt", "-t", "sys.A.txt", "-b", "0", "--segments", "seg.csv"]
    command = [sys.executable, str(script), str(marker), *args]
    pipes = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    with subprocess.Popen(command, cwd=files, text=True, **pipes) as process:
        try:
            deadline = time.monotonic() + 20
            while not marker.exists() and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.02)
            assert marker.exists(), "mtgui never started writing"
            temporary = Path(marker.read_text())
            assert temporary.exists() and temporary.name.startswith(".seg.csv.mtgui-")
            process.send_signal(signum)
            _, err = process.communicate(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert process.returncode == code
    assert message in err and "Traceback" not in err
    assert not temporary.exists() and not (files / "seg.csv").exists()
    assert leftovers(files) == []


def test_temporary_files_of_runs_that_no_longer_run_are_removed(files, capsys):
    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(finished.stdout)
    stale = [files / f".seg.csv.mtgui-{dead}.tmp", files / f".other.json.mtgui-{dead}-2.tmp"]
    alive = files / ".seg.csv.mtgui-1.tmp"  # process 1 always runs
    for path in [*stale, alive]:
        path.write_text("half", encoding="utf-8")
    assert run("--segments", "seg.csv") == 0
    assert not any(path.exists() for path in stale)
    assert alive.exists()


def test_the_signal_handlers_are_restored_after_a_run(files, capsys):
    before = signal.getsignal(signal.SIGTERM)
    assert run() == 0
    assert signal.getsignal(signal.SIGTERM) is before


# -- 7. permissions --------------------------------------------------------------------------


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_outputs_get_the_mode_of_a_plain_write(files, capsys, umask):
    old = os.umask(umask)
    try:
        outputs = ["--json", "r.json", "--segments", "s.csv", "--csv", "reports"]
        assert run(*outputs, bootstrap="100") == 0
        written = [files / "r.json", files / "s.csv", *(files / "reports").iterdir()]
        for path in [*written, files / "reports"]:
            expected = (0o777 if path.is_dir() else 0o666) & ~umask
            assert stat.S_IMODE(path.stat().st_mode) == expected, path
        (files / "r.json").chmod(0o604)
        assert run("--json", "r.json", "--overwrite") == 0
        assert stat.S_IMODE((files / "r.json").stat().st_mode) == 0o604  # a replaced file's
    finally:
        os.umask(old)


# -- 14 and 18. messages, not tracebacks ------------------------------------------------------


def test_a_name_too_long_for_the_system_is_a_message(files, capsys, no_work):
    assert run("--json", "x" * 300) == 2
    assert "cannot be written: the name is too long for this system." in capsys.readouterr().err


def test_a_name_near_the_limit_is_written(files, capsys):
    name = "y" * 250 + ".json"  # its temporary file's name is shortened to fit
    assert run("--json", name) == 0
    assert json.loads((files / name).read_text(encoding="utf-8"))["systems"]
    assert leftovers(files) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("outputs", [[], ["--json", "-"], ["--segments", "-"]])
def test_a_full_disk_on_standard_output_is_a_message(files, outputs):
    args = ["eval", "-r", "ref.txt", "-t", "sys.A.txt", "-b", "0", *outputs]
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "mtgui", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=files,
        )
    assert result.returncode == 2
    assert result.stderr == (
        "mtgui: cannot write to standard output: there is no space left on the device.\n"
    )


# -- 20. notes -------------------------------------------------------------------------------


def test_notes_go_to_standard_error_and_into_the_json_report(files, capsys):
    (files / "human.tsv").write_text("system\tline\tscore\nA\t1\t50\nZ\t1\t10\n", encoding="utf-8")
    args = ["--scores", "human.tsv", "--unit", "document", "--json", "-"]
    assert run(*args, bootstrap="100") == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    corpus_note = next(n for n in report["notes"] if "Z" in n)
    bootstrap_note = next(n for n in report["notes"] if "single segments" in n)
    assert bootstrap_note.startswith("The test set has no documents, so single segments")
    assert report["notes"] == [corpus_note, bootstrap_note]
    assert report["bootstrap"]["notes"] == [bootstrap_note]
    assert captured.err == f"mtgui: note: {corpus_note}\nmtgui: note: {bootstrap_note}\n"


def test_a_study_checks_its_outputs_and_reports_its_notes(files, capsys, monkeypatch):
    reports = files / "reports"
    reports.mkdir()
    (reports / "resamples-stability.csv").write_text("keep", encoding="utf-8")
    args = ["study", "resamples", "-r", "ref.txt", "-t", "sys.A.txt", "sys.B.txt"]
    small = ["--sizes", "100", "--stability-sizes", "100", "--runs", "2"]
    with monkeypatch.context() as patch:
        patch.setattr("mtgui.cli.study.drain", lambda *a: pytest.fail("work started"))
        assert main([*args, *small, "--csv", "reports", "--json", "s.json"]) == 2
    assert "resamples-stability.csv: the file already exists" in capsys.readouterr().err
    assert not (files / "s.json").exists()
    assert main([*args, *small, "--json", "-", "--unit", "document"]) == 0
    captured = capsys.readouterr()
    notes = json.loads(captured.out)["notes"]
    assert notes and captured.err == "".join(f"mtgui: note: {n}\n" for n in notes)
