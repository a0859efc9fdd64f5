"""Test settings shared by every test: Qt offscreen, pyqtgraph on PySide6, shared data paths."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

# Before anything imports Qt or pyqtgraph.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real WMT data in ../shared/data, or a skip saying why it is not there."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared WMT data is not available here ({SHARED_DATA} is absent)")
    return SHARED_DATA


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path: ``write(name, text_or_bytes, encoding='utf-8')``."""

    def _write(name: str, content: str | bytes, encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_bytes(content.encode(encoding))
        else:
            path.write_bytes(content)
        return path

    return _write


@pytest.fixture(autouse=True, scope="session")
def _sacrebleu_offline_and_aside(tmp_path_factory):
    """No test downloads anything or touches the user's ~/.sacrebleu: $SACREBLEU points at an
    empty folder of the session and every download fails as without a network (a test that
    chooses spBLEU's tokenizers or a named test set, as the window's random walk may, gets the
    offline message). Tests of those features put their own files in a folder of their own."""
    patch = pytest.MonkeyPatch()
    patch.setenv("SACREBLEU", str(tmp_path_factory.mktemp("sacrebleu")))
    import urllib.error
    import urllib.request

    def offline(url: object, *args: object, **kwargs: object) -> None:
        raise urllib.error.URLError(f"the tests are offline ({url})")

    patch.setattr(urllib.request, "urlopen", offline)
    yield
    patch.undo()


@pytest.fixture(autouse=True, scope="session")
def _no_collection_on_worker_threads():
    """Python's collector off for the session (see ``mtgui.app.garbage``): it would run on
    whichever thread allocates, and garbage holding Qt objects (the windows of earlier tests)
    destroyed on a worker thread deadlocks or crashes Qt. Each test's garbage is collected
    when it ends, here in the main thread, after its windows and their threads are gone."""
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True, scope="session")
def _no_worker_thread_outlives_the_session():
    """Every run's thread stopped before Python exits: a QThread destroyed while it runs (one
    a test's window gave up at closing on a loaded machine) aborts the whole test process."""
    yield
    from mtgui.app.threads import stop_all_threads  # only once Qt is loaded anyway

    assert stop_all_threads(120_000), "a worker thread still runs two minutes after the tests"


@pytest.fixture(autouse=True)
def _collect_garbage_after_each_test():
    """Each test's garbage collected when it ends; what survives is then frozen (moved out of
    the collector's sight), so that the next collection looks only at the next test's objects.
    Without the freeze each collection walked every object of numba, scipy, Qt and all earlier
    tests, a tenth of a second or more, thousands of times a run."""
    yield
    _stop_collectors_left_running()
    gc.collect()
    gc.freeze()


def _stop_collectors_left_running() -> None:
    """Stop the GUI thread's collector a test left in the session's application.

    ``create_application`` gives the application a collector on a 50 ms timer
    (``mtgui.app.garbage``). Left running, it collected in the middle of later tests, at times
    that depend on the machine: plots an earlier test had replaced were torn apart inside
    another test's event loop (pyqtgraph's ``LabelItem.sizeHint`` raised there once in three CI
    runs). Stopped here, garbage is collected only between tests, as the collector-off fixture
    above says; a test that needs the collector makes the application itself.
    """
    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6.QtWidgets import QApplication

    from mtgui.app.garbage import GuiThreadCollector

    app = QApplication.instance()
    for collector in app.findChildren(GuiThreadCollector) if app is not None else []:
        collector.stop()
        collector.setParent(None)  # the next create_application makes a new one
    gc.disable()
