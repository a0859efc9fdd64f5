"""Giving the memory of freed arrays back to the system between the large steps of a run, or
keeping it for the rest of a short one.

Why: glibc's allocator raises its mmap threshold each time a large block is freed (up to
32 MB), so the many arrays of tens of megabytes that extracting one system makes and drops
come from the heap from then on, and the heap keeps their pages when they are freed. On
100,000 segments x 10 systems that held about 150 MB more at the peak than the run ever used
at once. ``malloc_trim`` hands the free pages inside the heap back; it costs a walk over the
free lists, so it runs between systems, not inside them, and only on large test sets
(:data:`TRIM_FROM`). Elsewhere (macOS, Windows, musl)
there is no such call and nothing is done.

A short command on a small test set wants the opposite (:func:`keep_freed_memory`): there
numpy's temporaries of a few megabytes each came from fresh mappings or from a heap that had
just been trimmed, and every one had its pages faulted in again.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def _glibc(name: str, *argtypes: type[ctypes.c_int] | type[ctypes.c_size_t]) -> Any:
    """The C library's function ``name`` (taking ``argtypes``, returning an int), or None
    where it has none (not Linux; not glibc: musl has no ``malloc_trim``)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    function.argtypes = list(argtypes)
    function.restype = ctypes.c_int
    return function


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None."""
    trim: Callable[[int], int] | None = _glibc("malloc_trim", ctypes.c_size_t)
    return trim


def give_back_freed_memory() -> bool:
    """Return the heap's free pages to the system; whether anything could be returned."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


# Segments from which a run trims the heap after each system: on 100,000 segments that keeps
# ~150 MB off the peak; on 3,000 the freed arrays are a few MB and the trims cost ~45 ms a run.
# Below it, a command-line run keeps freed memory instead (keep_freed_memory).
TRIM_FROM = 20_000

_M_TRIM_THRESHOLD = -1  # mallopt's parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_MAPPED_FROM = 32 << 20  # blocks mapped on their own from this size: glibc's largest default


def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's ``mallopt``, or None."""
    settle: Callable[[int, int], int] | None = _glibc("mallopt", ctypes.c_int, ctypes.c_int)
    return settle


def keep_freed_memory() -> bool:
    """Keep freed memory in the heap from now on, for this process's reuse; whether it could.

    For a command-line run on a test set too small to trim between systems: the heap is
    never trimmed and blocks below 32 MB come from it, so the temporaries of one step reuse
    the pages of the last. On the standing benchmark the main process faulted 9,000 pages
    fewer while the references were prepared (52 instead of 68 ms), and its peak stayed where it
    was (152 MB against 151). A process that lives on (the window) never calls this.
    """
    settle = _mallopt()
    if settle is None:
        return False
    return bool(settle(_M_TRIM_THRESHOLD, 1 << 30)) and bool(
        settle(_M_MMAP_THRESHOLD, _MAPPED_FROM)
    )
