"""What a command imports before it runs: every `mtgui eval` pays for it, so only what it uses."""

from __future__ import annotations

import subprocess
import sys

import pytest

LOADED = (
    "import sys, mtgui.cli.main, mtgui.cli.eval\n"
    "print(' '.join(m for m in {names} if m in sys.modules))\n"
)


def loaded(names: tuple[str, ...], importing: str = "") -> list[str]:
    """Which of ``names`` a fresh interpreter holds after importing the command line."""
    return printed(importing + LOADED.format(names=names)).split()


def loaded_by_eval(arguments: list[str], names: tuple[str, ...]) -> list[str]:
    """``mtgui eval`` with ``arguments`` in a fresh interpreter: ``exit``, its code, then
    ``loaded`` and which of ``names`` it holds at the end."""
    program = (
        "import sys\nfrom mtgui.cli.main import main\n"
        f"code = main(['eval', *{arguments!r}])\n"
        f"print('exit', code, 'loaded', *[m for m in {names!r} if m in sys.modules])\n"
    )
    return printed(program).splitlines()[-1].split()


def printed(program: str) -> str:
    """What ``program`` prints, run by a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


def test_the_command_line_imports_neither_qt_nor_the_pools_it_may_not_use() -> None:
    # Qt only for the window or --pdf; the pools' modules (20 ms) only where a pool starts.
    names = ("PySide6", "concurrent.futures", "multiprocessing", "logging")
    assert loaded(names) == []


def test_the_window_imports_what_its_runs_would_import_on_their_threads() -> None:
    # Not on a run's worker thread as a large run starts, while the window draws.
    names = (
        *("concurrent.futures.process", "multiprocessing.spawn", "numpy.ma", "numpy.random"),
        *("mtgui.io.sgml", "mtgui.io.wmtxml", "mtgui.engine.metrics.chrf.extract"),
    )
    assert loaded(names, "import mtgui.app.analysis\n") == list(names)


def test_eval_runs_without_importing_the_studies(tmp_path) -> None:
    # The studies' modules give `mtgui study` its options' defaults: 14 ms `mtgui eval` skips.
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat\na dog\n", encoding="utf-8")
    names = ("mtgui.cli.study", "mtgui.engine.studies.size.study", "mtgui.report.study_tables")
    arguments = ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "hyp.txt")]
    assert loaded_by_eval([*arguments, "--bootstrap", "0"], names) == ["exit", "0", "loaded"]


def test_eval_with_a_bootstrap_runs_without_importing_numpy_ma(tmp_path) -> None:
    # np.unique and np.percentile import it on their first call: 7 ms after all the work.
    lines = [f"the cat sat on mat number {i}" for i in range(40)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    arguments = ["--ref", str(tmp_path / "ref.txt"), "--hyp"]
    arguments += [str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--bootstrap", "200"]
    assert loaded_by_eval(arguments, ("numpy.ma",)) == ["exit", "0", "loaded"]


LAZY = (  # imported where a run needs them: 10 ms of every run on plain text that does not
    "mtgui.io.sgml",  # an SGML file
    "mtgui.io.wmtxml",  # a WMT XML file
    "mtgui.engine.metrics.chrf.extract",  # chrF or chrF++
    "mtgui.engine.breakdown",  # --by
    "mtgui.engine.statistics.documents",  # --documents
    "mtgui.report.html_report",  # --html or --pdf
    "mtgui.engine.statistics.cache",  # the window's cache of statistics
    "importlib.metadata",  # sacreBLEU's version, for a sacreBLEU signature (none with mteval)
    "mtgui.report.runs",  # --runs
    "html",  # the HTML report and the runs' section of it
    "difflib",  # the names close to a test set's name sacreBLEU does not know
)


def test_a_bleu_run_on_plain_text_loads_no_reader_metric_or_report_it_does_not_use(
    tmp_path,
) -> None:
    lines = [f"the cat sat on mat number {i}" for i in range(40)]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
    arguments = ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "hyp.txt")]
    arguments += ["--metrics", "bleu,nist", "--bootstrap", "100"]
    arguments += ["--json", str(tmp_path / "report.json")]
    assert loaded_by_eval(arguments, LAZY) == ["exit", "0", "loaded"]


def test_study_keeps_its_options_and_eval_still_names_it(capsys) -> None:
    from mtgui.cli.main import build_parser

    full = build_parser("study").parse_args(["study", "size", "--ref", "r", "--hyp", "h"])
    assert full.study == "size" and full.repeats > 0
    brief = build_parser("eval")
    assert "study" in brief.format_help()
    with pytest.raises(SystemExit):
        brief.parse_args(["eval", "--repeats", "3"])  # a study's option is not eval's
    assert "unrecognized arguments: --repeats" in capsys.readouterr().err


def test_the_command_imports_without_collecting_and_leaves_the_collector_on() -> None:
    # No collection while the command line is imported (5-15 ms of every start): none once
    # its first module (mtgui.cli) is loading. Afterwards the collector is on, and the
    # imported objects are left out of its passes.
    program = (
        "import gc, sys\ncollected = []\n"
        "gc.callbacks.append(lambda phase, info: collected.append('mtgui.cli' in sys.modules))\n"
        "import mtgui.launch\n"
        "print(any(collected), gc.isenabled(), gc.get_freeze_count() > 10_000)\n"
    )
    assert printed(program).split() == ["False", "True", "True"]


@pytest.mark.parametrize(("set_before", "expected"), [(None, "4"), ("20", "20")])
def test_blas_workers_are_told_to_sleep_before_numpy_loads_unless_the_user_said(
    monkeypatch, set_before, expected
) -> None:
    # OpenBLAS reads OPENBLAS_THREAD_TIMEOUT once, as numpy loads it.
    monkeypatch.delenv("OPENBLAS_THREAD_TIMEOUT", raising=False)
    if set_before is not None:
        monkeypatch.setenv("OPENBLAS_THREAD_TIMEOUT", set_before)
    program = (
        "import os, sys\nseen = []\n"
        "class Spy:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'numpy':\n"
        "            seen.append(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))\n"
        "sys.meta_path.insert(0, Spy())\n"
        "import mtgui.launch\n"
        "print(*seen)\n"
    )
    assert printed(program).split() == [expected]
