"""TER's, WER's and chrF's compiled kernels, compiled on a thread of their own as the window
starts when a fresh pip install has none yet (:mod:`mtgui.engine.metrics.kernels_ready`).

A run that needs them meanwhile waits for the compiler (numba compiles one kernel at a time),
and the status line says so (:func:`waiting_note`) rather than leaving the user to wonder why
the first TER takes seconds: that happens once after an install.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection

from mtgui.engine.metrics import KERNEL_METRICS, LABELS, compile_kernels, kernels_on_disk


class KernelPreparation:
    """The kernels' compiling on a daemon thread (a window closed meanwhile does not wait)."""

    def __init__(self, compile_all: Callable[[], None] = compile_kernels) -> None:
        self._compile_all = compile_all
        self._needed = False  # the kernels are not on disk: they are compiled once, now
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def need(self) -> None:
        """The kernels are to be compiled (a run of now that uses them waits for that)."""
        self._needed = True

    def start(self) -> None:
        """Start compiling (once)."""
        self._needed = True
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="mtgui-kernels", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self._compile_all()
        except Exception:  # a run compiles them itself, and reports its own failure
            pass
        finally:
            self._done.set()

    @property
    def preparing(self) -> bool:
        """Whether the kernels are to be compiled or being compiled now (not yet done)."""
        return self._needed and not self._done.is_set()

    def wait(self, seconds: float | None = None) -> bool:
        """Wait until the compiling has ended (tests); whether it has."""
        return self._thread is None or self._done.wait(seconds)


PREPARATION = KernelPreparation()
"""The application's one preparation of the kernels."""


def prepare_kernels_if_needed(
    preparation: KernelPreparation | None = None,
    on_disk: Callable[[], bool] = kernels_on_disk,
    start_later: Callable[[Callable[[], None]], None] | None = None,
) -> bool:
    """Where the kernels are not on disk yet, have them compiled: ``start_later`` is given the
    function that starts it (the window calls it a moment after it shows, not to slow its
    first drawing; else it starts now). Whether they are to be compiled."""
    preparation = preparation or PREPARATION
    if on_disk():
        return False
    preparation.need()
    (start_later or _now)(preparation.start)
    return True


def _now(start: Callable[[], None]) -> None:
    start()


def waiting_note(metrics: Collection[str], preparation: KernelPreparation | None = None) -> str:
    """What the status line adds while a run of ``metrics`` may wait for the kernels ("" when
    it does not); ``preparation``: the application's unless given."""
    preparation = preparation or PREPARATION
    waiting = [LABELS.get(m, m) for m in metrics if m in KERNEL_METRICS]
    if not (waiting and preparation.preparing):
        return ""
    return f" \N{EM DASH} preparing the {' and '.join(waiting)} kernels, once after install..."
