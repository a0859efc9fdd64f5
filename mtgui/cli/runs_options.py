"""``mtgui eval --runs NAME FILE FILE [FILE ...]``: one system trained several times.

Each file is one run's output (one system per file); the runs are loaded as systems named
``NAME#1``, ``NAME#2``, ... (in the order given), analysed as every system is, and the system
``NAME`` is then made of them (:mod:`mtgui.engine.runs`).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path

from mtgui.engine.core import InputError, Role, printable
from mtgui.engine.runs import RunGroup
from mtgui.io.loader import load_file
from mtgui.io.streams import LoadedFile


def add_runs_argument(parser: argparse.ArgumentParser) -> None:
    """The --runs option (repeatable)."""
    parser.add_argument(
        "--runs",
        dest="system_runs",  # a study's --runs is its number of repetitions
        nargs="+",
        action="append",
        default=[],
        metavar=("NAME", "FILE"),
        help="a system trained several times: its name, then one output file per run (two or "
        "more); repeat for each such system. The runs appear as NAME#1, NAME#2, ...; NAME "
        "scores the mean of its runs, with their spread, and is compared by a two-level "
        "bootstrap (and stratified randomization with --paired-ar)",
    )


def run_specs(args: argparse.Namespace) -> list[tuple[str, list[Path]]]:
    """Every --runs as (name, files), checked: a name given once, that is not a file (the name
    forgotten), two files or more, none of them twice (the runs' spread would be made up)."""
    specs: list[tuple[str, list[Path]]] = []
    seen: dict[tuple[int, int], str] = {}  # each run file, as "NAME run k"
    for given in getattr(args, "system_runs", None) or []:
        name, files = given[0], [Path(f) for f in given[1:]]
        if not name.strip() or "#" in name:
            raise InputError(f"--runs {printable(name)!r}: name the system (a name without '#').")
        if any(name == other for other, _ in specs):
            raise InputError(f"--runs {printable(name)} is given twice; give each system once.")
        if _looks_like_a_file(name):
            raise InputError(
                f"--runs {printable(name)}: the first word after --runs is the system's name, "
                "but this is a file.",
                path=name,
                hint=f"Name the system first: --runs NAME {printable(name)} ...",
            )
        if len(files) < 2:
            raise InputError(
                f"--runs {printable(name)}: give two run files or more after the name.",
                hint="For example --runs mine run1.txt run2.txt run3.txt.",
            )
        _refuse_repeated(name, files, seen)
        specs.append((name, files))
    return specs


def refuse_runs_among_systems(args: argparse.Namespace, systems: list[Path]) -> None:
    """Refuse a run file that is also a ``--hyp`` file (a system counted twice, once as a
    run): as eval refuses a file given twice as system output."""
    runs: dict[tuple[int, int], str] = {}
    for name, files in run_specs(args):
        for number, path in enumerate(files, start=1):
            identity = _identity(path)
            if identity is not None:
                runs.setdefault(identity, f"run {number} of --runs {printable(name)}")
    for path in systems:
        identity = _identity(path)
        if identity is not None and identity in runs:
            raise InputError(
                f"this file is given as system output (--hyp) and as {runs[identity]}.",
                path=path,
                hint="Each system and each run counts once.",
            )


def _identity(path: Path) -> tuple[int, int] | None:
    """A file's device and inode (the same for every spelling of it), None if unreadable."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None  # the reader says what is wrong with it
    return (info.st_dev, info.st_ino)


def _looks_like_a_file(name: str) -> bool:
    """Whether ``name`` is a path to an existing file (with a folder or an extension), as when
    the name was left out: ``--runs out/run1.txt out/run2.txt out/run3.txt``."""
    path = Path(name)
    return (len(path.parts) > 1 or bool(path.suffix)) and path.is_file()


def _refuse_repeated(name: str, files: list[Path], seen: dict[tuple[int, int], str]) -> None:
    """Refuse a run file given twice, in this --runs or an earlier one (``seen``), however
    spelled: a link is the file it leads to."""
    for number, path in enumerate(files, start=1):
        identity = _identity(path)
        if identity is None:
            continue
        here = f"run {number} of --runs {printable(name)}"
        first = seen.setdefault(identity, here)
        if first != here:
            raise InputError(
                f"{first} and {here} are the same file; each run is one training's output, "
                "and a run given twice would make the runs look more alike than they are.",
                path=path,
            )


def run_groups(args: argparse.Namespace) -> list[RunGroup]:
    """The systems with runs the options name, with their runs' names in the corpus."""
    return [
        RunGroup(name, tuple(f"{name}#{i}" for i in range(1, len(files) + 1)))
        for name, files in run_specs(args)
    ]


def load_run_files(args: argparse.Namespace) -> list[LoadedFile]:
    """Every run file, its one system output named ``NAME#i``."""
    loaded = []
    for name, files in run_specs(args):
        for number, path in enumerate(files, start=1):
            file = load_file(path, {Role.SYSTEM}, args.encoding)
            streams = [s for s in file.streams if s.role is Role.SYSTEM]
            if len(streams) != 1:
                raise InputError(
                    f"--runs {name}: this file holds {len(streams)} system outputs; give one "
                    "file per run.",
                    path=path,
                )
            loaded.append(replace(file, streams=(replace(streams[0], name=f"{name}#{number}"),)))
    return loaded
