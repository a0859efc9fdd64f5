"""Giving the memory of freed arrays back to the system between the large steps of a run.

Why: glibc's allocator raises its mmap threshold each time a large block is freed (up to
32 MB), so the many arrays of tens of megabytes that extracting one system makes and drops
come from the heap from then on, and the heap keeps their pages when they are freed. On
100,000 segments x 10 systems that held about 150 MB more at the peak than the run ever used
at once. ``malloc_trim`` hands the free pages inside the heap back; it costs a walk over the
free lists, so it runs between systems, not inside them, and only on large test sets
(``mtgui.engine.statistics._TRIM_FROM``). Elsewhere (macOS, Windows, musl)
there is no such call and nothing is done.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    function.argtypes = [ctypes.c_size_t]
    function.restype = ctypes.c_int
    trim: Callable[[int], int] = function
    return trim


def give_back_freed_memory() -> bool:
    """Return the heap's free pages to the system; whether anything could be returned."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
