"""Compiled kernels: numba where it is installed, the very same Python code where it is not.

TER's shift search and WER's edit distances are loops over words that no numpy formulation
expresses without losing sacreBLEU's exact tie-breaking; numba compiles them to machine code
(about 60x faster than sacreBLEU's Python on TER). chrF's match counting on large systems
(:mod:`~mtgui.engine.metrics.chrf.kernel`) is compiled the same way. The kernels are written as
plain Python over numpy arrays, so without numba (a Python version it has no wheel for yet, or
``NUMBA_DISABLE_JIT=1``) they still run, and give the same numbers, only slower.

Importing numba takes about half a second, so only the kernel modules import this one, and
they are imported when TER, WER or chrF on a large system first runs, never at startup. The
import is by name (importlib), which PyInstaller's analysis does not follow:
``packaging/mtgui.spec`` names numba, so the built app carries it and runs the kernels
compiled, cached on disk once per installed app (see :func:`_placed_in_bundle`).

The built app carries its kernels already compiled (``packaging/build.sh`` runs the built
program once on the demo and keeps numba's cache in the bundle's :data:`BUNDLED_CACHE` folder),
for a generic CPU so that the cache suits every machine of its kind: the first TER run of a
fresh install loads them instead of compiling for tens of seconds (:func:`_seed_from_bundle`).
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


BUNDLED_CACHE = "numba_cache"
"""The folder of the built app (beside its modules) holding the kernels compiled at build time,
one sub-folder per kernel module's package (``mtgui/engine/metrics/ter``)."""

_SEEDED: set[str] = set()


def _numba() -> Any:
    """The numba module, or None where it is missing or switched off (``NUMBA_DISABLE_JIT``).

    In the built app numba compiles for a generic CPU (``NUMBA_CPU_NAME``, read when numba is
    imported), as the build did: numba keys its cache by the CPU, and the kernels compiled at
    build time must be the ones this machine looks up."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None
    if getattr(sys, "frozen", False):
        os.environ.setdefault("NUMBA_CPU_NAME", "generic")
    try:
        return importlib.import_module("numba")
    except ImportError:  # pragma: no cover - numba is a dependency; this is the fallback
        return None


_NUMBA = _numba()
COMPILED: bool = _NUMBA is not None
"""Whether the kernels run compiled."""


def kernel(function: F) -> F:
    """``function`` compiled without the GIL (the window's thread draws meanwhile) and cached
    on disk (compiling takes seconds, loading the cache a tenth), or as it is without numba."""
    if _NUMBA is None:
        return function
    _placed_in_bundle(function)
    _seed_from_bundle(function)
    try:
        return cast(F, _NUMBA.njit(cache=True, nogil=True)(function))
    except RuntimeError:  # no writable cache folder anywhere: compile in every process
        return cast(F, _NUMBA.njit(nogil=True)(function))


def _placed_in_bundle(function: Callable[..., Any]) -> None:
    """In the built app, give ``function`` the absolute file name numba's cache needs.

    PyInstaller stores file names relative to the bundle (``mtgui/engine/metrics/ter/search.py``),
    and numba's cache, which keys a function by its file's folder, resolves them against the working
    folder: the app compiled anew in every folder it was started from, a cache each. Anchored in
    the bundle (which holds no sources), the name gives one cache per installed app, in numba's
    user-wide cache folder, valid while the executable stays the same (numba's rule for frozen
    apps: a new build compiles again).
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if not (getattr(sys, "frozen", False) and bundle and isinstance(function, types.FunctionType)):
        return
    code = function.__code__
    if not os.path.isabs(code.co_filename):
        function.__code__ = code.replace(co_filename=os.path.join(bundle, code.co_filename))


def _seed_from_bundle(function: Callable[..., Any]) -> None:
    """In the built app, copy the kernels compiled at build time for ``function``'s package
    into numba's user-wide cache folder, where numba looks for them (once per package).

    numba reads its cache only from a writable folder and names that folder after the kernels'
    (bundle-anchored) package folder, so the bundle's copy is placed there on first use. A file
    already there is kept unless it is older than the program (left by an earlier build
    installed at the same place). Anything amiss only means compiling as before."""
    bundle = getattr(sys, "_MEIPASS", None)
    if _NUMBA is None or not (getattr(sys, "frozen", False) and bundle):
        return
    folder = os.path.dirname(function.__code__.co_filename)
    source = os.path.join(bundle, BUNDLED_CACHE, os.path.relpath(folder, bundle))
    if source in _SEEDED or not os.path.isdir(source):
        return
    _SEEDED.add(source)
    try:
        caching = importlib.import_module("numba.core.caching")
        locator = getattr(caching, "UserWideCacheLocator", None) or caching._UserWideCacheLocator
        target = locator(function, function.__code__.co_filename).get_cache_path()
        copy_newer(source, target, os.stat(sys.executable).st_mtime)
    except (OSError, ImportError, AttributeError):  # the kernels compile on first use
        return


def copy_newer(source: str, target: str, built: float) -> None:
    """Copy the files of folder ``source`` into ``target`` where ``target`` has no such file or
    one changed before ``built``; each file is written whole under a temporary name first."""
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(source):
        destination = os.path.join(target, name)
        if os.path.exists(destination) and os.path.getmtime(destination) >= built:
            continue
        temporary = f"{destination}.{os.getpid()}.part"
        shutil.copyfile(os.path.join(source, name), temporary)
        os.replace(temporary, destination)
