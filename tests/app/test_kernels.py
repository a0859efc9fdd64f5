"""The kernels compiled in the background as the window starts (mtgui.app.kernels), the check
that says whether a pip install has them yet (engine.metrics.kernels_ready), and the built
app's copying of the kernels it ships (engine.runtime.compiled.copy_newer)."""

from __future__ import annotations

import importlib.metadata
import os
import pickle
import threading

from mtgui.app.kernels import KernelPreparation, prepare_kernels_if_needed, waiting_note
from mtgui.engine.metrics import kernels_ready
from mtgui.engine.runtime.compiled import copy_newer


def blocked() -> tuple[KernelPreparation, threading.Event]:
    """A preparation whose compiling waits for the event returned."""
    release = threading.Event()
    return KernelPreparation(lambda: release.wait(30) and None), release


def test_a_run_of_ter_says_it_waits_for_the_kernels_while_they_compile():
    preparation, release = blocked()
    assert not preparation.preparing and waiting_note(["ter"], preparation) == ""
    assert prepare_kernels_if_needed(preparation, on_disk=lambda: False)
    assert preparation.preparing
    note = waiting_note(["bleu", "ter", "wer"], preparation)
    assert "preparing the TER and WER kernels, once after install" in note
    assert waiting_note(["bleu", "chrf"], preparation) == ""  # they do not wait for them
    release.set()
    assert preparation.wait(30) and not preparation.preparing
    assert waiting_note(["ter"], preparation) == ""


def test_a_run_before_the_compiling_starts_says_so_too():
    preparation, release = blocked()
    started = []
    assert prepare_kernels_if_needed(preparation, lambda: False, start_later=started.append)
    assert preparation.preparing and "TER kernels" in waiting_note(["ter"], preparation)
    release.set()
    started[0]()
    assert preparation.wait(30) and not preparation.preparing


def test_kernels_on_disk_start_no_compiling():
    preparation, release = blocked()
    assert not prepare_kernels_if_needed(preparation, on_disk=lambda: True)
    assert not preparation.preparing
    release.set()


def test_a_failed_compile_ends_the_preparation_quietly():
    def fail() -> None:
        raise RuntimeError("no compiler")

    preparation = KernelPreparation(fail)
    preparation.start()
    assert preparation.wait(30) and not preparation.preparing


def test_the_check_reads_numbas_index_files_beside_the_modules(monkeypatch, tmp_path):
    """A module whose ``__pycache__`` holds no ``<module>.*.nbi`` has its kernels to compile."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    source = tmp_path / "search.py"
    source.write_text("")

    class Spec:
        origin = str(source)

    monkeypatch.setattr(kernels_ready.importlib.util, "find_spec", lambda name: Spec())
    assert not kernels_ready.kernels_on_disk()
    (tmp_path / "__pycache__").mkdir()
    index = tmp_path / "__pycache__" / "search.ter_rows-263.py311.nbi"
    index.write_bytes(pickle.dumps("0.0.1"))  # another numba's: compiled again on first use
    assert not kernels_ready.kernels_on_disk()
    index.write_bytes(b"")
    assert not kernels_ready.kernels_on_disk()
    index.write_bytes(pickle.dumps(importlib.metadata.version("numba")) + b"the overloads")
    assert kernels_ready.kernels_on_disk()
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")  # nothing to compile: no guess made
    (tmp_path / "__pycache__" / "search.ter_rows-263.py311.nbi").unlink()
    assert kernels_ready.kernels_on_disk()


def test_the_shipped_kernels_replace_only_older_copies(tmp_path):
    source, target = tmp_path / "bundle", tmp_path / "home"
    source.mkdir()
    (source / "a.nbi").write_bytes(b"new index")
    (source / "a.1.nbc").write_bytes(b"new code")
    target.mkdir()
    (target / "a.nbi").write_bytes(b"old index")  # an earlier build's, older than the program
    os.utime(target / "a.nbi", (1, 1))
    (target / "b.nbi").write_bytes(b"compiled here")  # a kernel compiled since: kept
    (source / "search.cpython-311.pyc").write_bytes(b"bytecode")  # beside a wheel's kernels
    copy_newer(str(source), str(target))
    assert (target / "a.nbi").read_bytes() == b"new index"
    assert (target / "a.1.nbc").read_bytes() == b"new code"
    assert (target / "b.nbi").read_bytes() == b"compiled here"
    (target / "a.nbi").write_bytes(b"recompiled here")  # newer than the shipped one: kept
    os.utime(source / "a.nbi", (1000, 1000))
    copy_newer(str(source), str(target))
    assert (target / "a.nbi").read_bytes() == b"recompiled here"
    assert not (target / "search.cpython-311.pyc").exists()  # numba's files only
    assert not list(target.glob("*.part"))
