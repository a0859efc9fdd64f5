"""The first TER run of a fresh install against a warm run, and the kernels' generic CPU.

A user installs mtgui and runs TER: that first run must not wait for numba to compile the
kernels (issue 35 asks for it within 2x of a warm run). Measured, each run a whole process of
``mtgui eval --demo -m ter``:

- a fresh venv with ``pip install <checkout>`` (the wheel compiles its kernels as it builds,
  setup.py): its first run, then warm runs;
- the built app (``dist/mtgui``, when ``packaging/build.sh`` made one), each time with a fresh
  home (numba's user-wide cache empty): its first run, then warm runs;
- the kernels compiled for the generic CPU (what is shipped) against this machine's CPU, on
  WMT14 en-de (2,737 segments x 2 systems, ``--bootstrap 0``), alternating, each from a cache of
  its own.

    python bench/bench_first_run.py [--warm 5] [--skip-install]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from record import record

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "dist" / "mtgui" / "mtgui"
WMT14 = Path(os.environ.get("MTGUI_SHARED", ROOT.parent / "shared")) / "data"
WMT14 = WMT14 / "wmt14-newstest2014-en-de" / "txt"
DEMO_TER = ("eval", "--demo", "-m", "ter")


def timed(command: list[str], environment: dict[str, str]) -> float:
    """Seconds of one whole process, which must succeed."""
    start = time.perf_counter()
    subprocess.run(command, env=environment, check=True, capture_output=True)
    return time.perf_counter() - start


def clean_environment(**extra: str) -> dict[str, str]:
    """This process's environment without numba's settings, plus ``extra``."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    environment.update(extra)
    return environment


def first_and_warm(
    program: list[str], environment: dict[str, str], warm: int
) -> tuple[float, float]:
    """The first run's seconds and the median of ``warm`` runs after it."""
    first = timed(program, environment)
    return first, statistics.median(timed(program, environment) for _ in range(warm))


def fresh_venv(folder: Path) -> Path:
    """A new venv in ``folder`` with ``pip install`` of a copy of this checkout's sources (a
    build folder left in the checkout would be packed as it is); its ``mtgui``."""
    source = folder / "source"
    leftovers = shutil.ignore_patterns(
        ".git", "build", "dist", ".venv", "__pycache__", "*.egg-info"
    )
    shutil.copytree(ROOT, source, ignore=leftovers)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    pip = [str(folder / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", str(source)]
    start = time.perf_counter()
    subprocess.run(pip, check=True, env=clean_environment(), capture_output=True)
    print(f"pip install . in a fresh venv: {time.perf_counter() - start:.1f} s")
    return folder / "venv" / "bin" / "mtgui"


def report(what: str, first: float, warm: float) -> None:
    print(f"| {what} | {first:.2f} s | {warm:.2f} s | {first / warm:.2f}x |")
    key = what.split(",")[0].replace(" ", "_")
    record("first_run", **{f"{key}_first": round(first, 3), f"{key}_warm": round(warm, 3)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warm", type=int, default=5, help="warm runs after each first run")
    parser.add_argument("--skip-install", action="store_true", help="no fresh venv")
    args = parser.parse_args()
    print("| install | first TER run | warm run (median) | first / warm |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        if not args.skip_install:
            mtgui = fresh_venv(Path(scratch))
            report(
                "pip install, demo",
                *first_and_warm([str(mtgui), *DEMO_TER], clean_environment(), args.warm),
            )
        if BUNDLE.exists():
            home = Path(scratch) / "home"
            home.mkdir()
            environment = clean_environment(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
            report(
                "built app, demo", *first_and_warm([str(BUNDLE), *DEMO_TER], environment, args.warm)
            )
        if WMT14.is_dir():
            generic_against_host(Path(scratch), args.warm)


def this_cpu() -> dict[str, str]:
    """numba's settings naming this machine's CPU and its features (mtgui's default is the
    generic CPU)."""
    import llvmlite.binding as llvm

    features = llvm.get_host_cpu_features().flatten()
    return {"NUMBA_CPU_NAME": llvm.get_host_cpu_name(), "NUMBA_CPU_FEATURES": features}


def generic_against_host(scratch: Path, rounds: int) -> None:
    """The TER kernels compiled for the generic CPU against this CPU's, runs alternating."""
    systems = sorted((WMT14 / "systems").iterdir())[:2]
    command = [
        sys.executable,
        "-m",
        "mtgui",
        "eval",
        "-r",
        str(WMT14 / "newstest2014.en-de.ref.de"),
    ]
    command += ["-t", *map(str, systems), "-m", "ter", "--bootstrap", "0"]
    times: dict[str, list[float]] = {"generic": [], "host": []}
    environments = {}
    for cpu in times:
        cache = scratch / f"cache-{cpu}"
        cache.mkdir()
        target = {"NUMBA_CPU_NAME": "generic"} if cpu == "generic" else this_cpu()
        environments[cpu] = clean_environment(NUMBA_CACHE_DIR=str(cache), **target)
        timed(command, environments[cpu])  # compiles into its cache
    for _ in range(rounds):
        for cpu in times:
            times[cpu].append(timed(command, environments[cpu]))
    generic, host = (statistics.median(times[cpu]) for cpu in ("generic", "host"))
    print(
        f"\nWMT14 en-de TER, median of {rounds}: generic CPU {generic:.2f} s, this CPU {host:.2f} s"
    )
    record("first_run", ter_generic_cpu=round(generic, 3), ter_host_cpu=round(host, 3))


if __name__ == "__main__":
    main()
