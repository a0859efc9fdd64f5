"""A guard against a PySide6 bug that would crash the application during long sessions.

PySide6 6.12.0 drops a reference to ``True`` every time a signal with arguments is emitted to a
Python slot; after a few hundred progress updates the interpreter aborts ("bool_dealloc").
pyproject.toml keeps PySide6 below 6.12; this test fails if an installed version has the bug.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    changed = Signal(int, object)


def test_emitting_signals_with_arguments_keeps_reference_counts(qapp):
    emitter, received = _Emitter(), []
    emitter.changed.connect(lambda number, payload: received.append(number))
    before = sys.getrefcount(True)
    for number in range(200):
        emitter.changed.emit(number, (number, None))
    assert len(received) == 200
    assert sys.getrefcount(True) >= before - 10
