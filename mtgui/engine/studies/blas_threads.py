"""One BLAS thread while a study bootstraps its subsets.

A study multiplies thousands of small matrices (a subset's resample counts by its rows, one to
a few milliseconds each) while a helper thread prepares the next subset. OpenBLAS's worker
threads wait for work by spinning a while after each product, so with its default of one thread
per core, on a two-core machine one core was always busy spinning: the helper thread got half
of it, and with other work on the machine the size study took 3-5 times its single-threaded
CPU time (benchmark set: 45-66 s of CPU against 13.5 s, measured side by side). One BLAS
thread makes the small products hardly slower and leaves the second core to the helper.

The count is OpenBLAS's, for the whole process: it is set while at least one study runs and
restored when the last one ends. It is looked up in numpy's own OpenBLAS (the wheels carry it
in ``numpy.libs`` or ``numpy/.dylibs``); where numpy uses another BLAS nothing changes.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numpy as np

_NAMES = (("scipy_", "64_"), ("scipy_", ""), ("", "64_"), ("", ""))  # how builds name them


class _Users:
    """How many studies run, and the thread count to restore after the last."""

    lock = threading.Lock()
    count = 0
    saved = 0


@cache
def openblas_threads() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """numpy's OpenBLAS ``get_num_threads`` and ``set_num_threads``, or None."""
    folder = Path(np.__file__).parent
    places = [*folder.parent.glob("numpy.libs/*openblas*"), *folder.glob(".dylibs/*openblas*")]
    for path in sorted(places):
        try:
            library = ctypes.CDLL(os.fspath(path))
        except OSError:
            continue
        for prefix, suffix in _NAMES:
            get = getattr(library, f"{prefix}openblas_get_num_threads{suffix}", None)
            put = getattr(library, f"{prefix}openblas_set_num_threads{suffix}", None)
            if get is not None and put is not None:
                get.restype, put.argtypes, put.restype = ctypes.c_int, [ctypes.c_int], None
                return get, put
    return None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with one OpenBLAS thread (see the module)."""
    functions = openblas_threads()
    if functions is None:
        yield
        return
    get, put = functions
    with _Users.lock:
        if _Users.count == 0:
            _Users.saved = get()
            put(1)
        _Users.count += 1
    try:
        yield
    finally:
        with _Users.lock:
            _Users.count -= 1
            if _Users.count == 0:
                put(_Users.saved)
