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

Both the wheel and the built app carry the kernels already compiled, for a generic CPU so that
the cache suits every machine of the build machine's kind: the first TER run of a fresh install
loads them (a tenth of a second) instead of compiling them (several seconds). The wheel has them
in numba's cache beside each kernel module (``setup.py`` compiles them as it builds); the built
app in its :data:`BUNDLED_CACHE` folder (``packaging/build.sh`` runs the built program once on
the demo). Where numba cannot write beside the modules (an install owned by another user), or in
the built app, they are copied into numba's user-wide cache folder on first use
(:func:`_seed_shipped`). A user whose numba differs from the build's compiles on first use, as
numba does without a cache.
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

    numba compiles for a generic CPU (``NUMBA_CPU_NAME``, read when numba is imported), as the
    build did: numba keys its cache by the CPU, and the kernels compiled at build time must be
    the ones this machine looks up. (The kernels, loops over small integers, run as fast for the
    generic CPU as for this one: bench/bench_first_run.py.) A user's own setting is kept, and so
    is the CPU of a numba imported before mtgui; the kernels then compile on first use."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None
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
    _seed_shipped(function)
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


def _seed_shipped(function: Callable[..., Any]) -> None:
    """Copy the kernels compiled at build time for ``function``'s package into the folder numba
    will read its cache from, when that is not where they were shipped (once per package).

    The wheel ships them beside the modules, where numba looks when it may write there; the
    built app in its :data:`BUNDLED_CACHE` folder. numba reads its cache only from a writable
    folder (else its user-wide one, or ``NUMBA_CACHE_DIR``), so a shipped copy it would not read
    is placed there on first use. A file already there is kept unless it is older than the
    shipped one (left by an earlier install at the same place). Anything amiss only means
    compiling as before."""
    source = _shipped_folder(function)
    if _NUMBA is None or source is None or source in _SEEDED or not os.path.isdir(source):
        return
    _SEEDED.add(source)
    try:
        target = _cache_folder(function)
        if target is not None and os.path.realpath(target) != os.path.realpath(source):
            copy_newer(source, target)
    except (OSError, ImportError, AttributeError):  # the kernels compile on first use
        return


def _shipped_folder(function: Callable[..., Any]) -> str | None:
    """Where the build left ``function``'s package's compiled kernels: the bundle's copy in the
    built app, numba's cache beside the module for an installed wheel."""
    folder = os.path.dirname(function.__code__.co_filename)
    if getattr(sys, "frozen", False):
        bundle = getattr(sys, "_MEIPASS", None)
        if bundle is None:
            return None
        return os.path.join(bundle, BUNDLED_CACHE, os.path.relpath(folder, bundle))
    return os.path.join(folder, "__pycache__")


def _cache_folder(function: Callable[..., Any]) -> str | None:
    """The folder numba will keep ``function``'s cache in: the first of its locators that
    takes the function (its own order: ``NUMBA_CACHE_DIR``, beside the module, user-wide)."""
    caching = importlib.import_module("numba.core.caching")
    for locator in caching.CacheImpl._locator_classes:
        found = locator.from_function(function, function.__code__.co_filename)
        if found is not None:
            return str(found.get_cache_path())
    return None


CACHE_SUFFIXES = (".nbi", ".nbc")
"""numba's cache files: an index per function and its compiled code."""


def copy_newer(source: str, target: str) -> None:
    """Copy numba's cache files of folder ``source`` into ``target`` where ``target`` has no
    such file or an older one; each file is written whole under a temporary name first."""
    names = [name for name in os.listdir(source) if name.endswith(CACHE_SUFFIXES)]
    if not names:
        return
    os.makedirs(target, exist_ok=True)
    for name in names:
        original, destination = os.path.join(source, name), os.path.join(target, name)
        if os.path.exists(destination) and os.path.getmtime(destination) >= os.path.getmtime(
            original
        ):
            continue
        temporary = f"{destination}.{os.getpid()}.part"
        shutil.copyfile(original, temporary)
        os.replace(temporary, destination)
