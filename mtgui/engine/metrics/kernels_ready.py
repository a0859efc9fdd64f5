"""Whether TER's, WER's and chrF's compiled kernels are ready on disk, and making them so.

numba compiles the kernels on their first use and keeps them in its cache (beside the modules,
in their ``__pycache__`` folders, for a pip install). A wheel built by ``setup.py`` ships them
there; an editable install, or a user's numba other than the build's, compiles them on first use,
several seconds a TER run would wait. The window asks :func:`kernels_on_disk` as it starts
and, when they are not, has :func:`compile_kernels` run on a thread of its own
(:mod:`mtgui.app.kernels`), so that the first run finds them ready or nearly so. The built app
carries them compiled (:mod:`mtgui.engine.runtime.compiled`).

The check reads folders only: it imports neither numba nor the kernels (half a second).
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import sys
from pathlib import Path

KERNEL_MODULES = (
    "mtgui.engine.metrics.ter.search",
    "mtgui.engine.metrics.ter.editdistance",
    "mtgui.engine.metrics.chrf.kernel",
)
"""The modules whose kernels :func:`compile_kernels` compiles."""

KERNEL_METRICS = ("ter", "wer")
"""The metrics whose every run uses them (chrF's serve large systems only)."""


def kernels_on_disk() -> bool:
    """Whether numba's cache beside each kernel module holds its kernels (a pip install after
    its first TER run). False when they may still have to be compiled; True without numba, in
    the built app (whose kernels come with it) and where numba's cache lives elsewhere
    (``NUMBA_CACHE_DIR``), where no guess is made."""
    if (
        getattr(sys, "frozen", False)
        or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
        or os.environ.get("NUMBA_CACHE_DIR")
        or importlib.util.find_spec("numba") is None
    ):
        return True
    return all(_cached(module) for module in KERNEL_MODULES)


def _cached(module: str) -> bool:
    """Whether ``module``'s ``__pycache__`` holds a numba index of it (``search.*.nbi``) written
    by the installed numba (numba ignores another version's cache and compiles again)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return True
    source = Path(spec.origin)
    folder = source.parent / "__pycache__"
    installed = _numba_version()
    return folder.is_dir() and any(
        _index_version(index) == installed for index in folder.glob(f"{source.stem}.*.nbi")
    )


def _numba_version() -> str | None:
    """The installed numba's version, read from its metadata (no import of numba; the
    metadata reader is imported here, when the window asks, not by every command-line run)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return None


def _index_version(index: Path) -> str | None:
    """The numba version that wrote the cache index ``index`` (its first pickled object, a
    string), or None where the file is unreadable or not one."""
    try:
        with index.open("rb") as stream:
            version = pickle.load(stream)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        return None
    return version if isinstance(version, str) else None


def compile_kernels() -> None:
    """Compile every kernel, or load it compiled from numba's cache (seconds the first time
    after an install, a fraction of one after)."""
    from mtgui.engine.metrics.chrf.kernel import warm_up as warm_chrf
    from mtgui.engine.metrics.ter.editdistance import warm_up as warm_edit_distance
    from mtgui.engine.metrics.ter.search import warm_up as warm_ter

    warm_ter()
    warm_edit_distance()
    warm_chrf()
