"""Keep the kernels the built program compiled in the bundle (run by packaging/build.sh).

    python packaging/bundle_kernels.py WARM_HOME BUNDLE

build.sh runs the built program once on the demo with TER, WER and chrF, for a generic CPU and
with WARM_HOME as its home, so numba's cache of every kernel is written under WARM_HOME, one
folder per kernel package named ``<package>_<sha1 of the package's folder in the bundle>``
(numba's rule). Each such folder is copied to ``BUNDLE/numba_cache/<the package's path>``
(``mtgui/engine/metrics/ter``), where the program looks for it on a user's machine
(mtgui.engine.runtime.compiled). Prints the packages kept; fails if none was found.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import mtgui


def package_folders() -> list[str]:
    """Every package folder of mtgui, relative to the folder holding mtgui (``mtgui/io``)."""
    top = Path(mtgui.__file__).parent
    return [
        str(folder.relative_to(top.parent))
        for folder in [top, *top.rglob("*")]
        if folder.is_dir() and (folder / "__init__.py").is_file()
    ]


def keep(warm_home: Path, bundle: Path) -> list[str]:
    """Copy numba's cache folders under ``warm_home`` into ``bundle``; the packages kept."""
    by_hash = {}
    for root in {str(bundle), os.path.realpath(bundle)}:
        for package in package_folders():
            folder = os.path.join(root, package)
            by_hash[hashlib.sha1(folder.encode()).hexdigest()] = package
    kept = []
    for index in sorted(warm_home.rglob("*.nbi")):
        package = by_hash.get(index.parent.name.rsplit("_", 1)[-1])
        if package is None:
            continue
        target = bundle / "numba_cache" / package
        target.mkdir(parents=True, exist_ok=True)
        for cached in index.parent.iterdir():
            shutil.copyfile(cached, target / cached.name)
        if package not in kept:
            kept.append(package)
    return kept


if __name__ == "__main__":
    kept = keep(Path(sys.argv[1]), Path(sys.argv[2]))
    if not kept:
        sys.exit(f"bundle_kernels: no compiled kernels of the bundle under {sys.argv[1]}")
    print("bundle_kernels: kept the compiled kernels of " + ", ".join(kept))
