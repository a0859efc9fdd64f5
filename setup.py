"""Builds mtgui's wheel with TER's, WER's and chrF's kernels already compiled.

numba compiles the kernels on their first use, several seconds that a user of a fresh
``pip install .`` would wait through on their first TER run. So the wheel carries numba's cache
of them, made here (in the build's ``__pycache__`` folders, where numba looks beside each module),
for a generic CPU: the cache is then valid on every machine of the build machine's kind, with the
same Python and numba (mtgui.engine.runtime.compiled compiles for the same target). Where the
build cannot compile them (no numba in the build environment), or the user's numba differs, the
kernels compile on first use as before. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

COMPILE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from mtgui.engine.metrics.kernels_ready import compile_kernels; compile_kernels()"
)
"""Run with the build's folder first on the path (the checkout's own mtgui, in the folder pip
builds in, must not be found): pip hands the build environment's numpy and numba to the build
through ``PYTHONPATH``, which must stay as it is."""


class BuildWithKernels(build_py):
    """``build_py``, then the kernels compiled into the built package (not for editable
    installs, whose modules stay in the checkout and compile there on first use)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            compile_kernels(self.build_lib)


def compile_kernels(build_lib: str) -> None:
    """Compile the kernels of the package built into ``build_lib``, in a process of its own
    (numba reads its target CPU once, when imported); a failure is only a warning."""
    built = os.path.abspath(build_lib)
    environment = dict(os.environ, NUMBA_CPU_NAME="generic")
    environment["PYTHONDONTWRITEBYTECODE"] = "1"  # the installer writes its own .pyc files
    for name in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT", "NUMBA_CPU_FEATURES"):
        environment.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", COMPILE, built],
        env=environment,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(
            "mtgui: the kernels were not compiled into the wheel; they will compile on first "
            f"use:\n{done.stderr[-2000:]}",
            file=sys.stderr,
        )


setup(cmdclass={"build_py": BuildWithKernels})
