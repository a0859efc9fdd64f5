"""Every input of one run in one list, which every output of the run is checked against.

Whatever option names an input (``--ref``, ``--hyp``, ``--src``, ``--scores``, a ``--by``
label file, a folder of system outputs, and the files the loaders really read), it goes into
one :class:`RunInputs`, which knows each input by the file it is: its device and inode, so
that a symbolic link, a hard link, ``..`` or another spelling of an input is the input. The
output check (:mod:`mtgui.io.targets`, :class:`mtgui.io.outputs.OutputPlan`) asks it two
things: is this file an input (then it is never written over, ``--overwrite`` or not), and is
this folder one that inputs are read from as a whole (then no output goes into it: the next
run on that folder would read the outputs as inputs). A refusal names the output's option, the
output and the input with the option that named it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.core import InputError

Identity = tuple[int, int]
"""A file's device and inode: the same for every path that leads to it."""

READ = "read"
"""The option of a file that a loader read (no option names it as such)."""


@dataclass(frozen=True)
class RunInput:
    """One input: the option that named it (for messages), the path as given, and the folder
    given with the option when the input is a file in it."""

    option: str
    path: Path
    within: Path | None = None

    def describe(self) -> str:
        """How a message names it: ``--by labels.tsv``, ``sys/a.txt in --hyp sys``."""
        if self.within is not None:
            return f"{self.path} in {self.option} {self.within}"
        return str(self.path) if self.option == READ else f"{self.option} {self.path}"


class RunInputs:
    """The inputs of one run, by identity (a collection of :data:`Identity`, so that code that
    only asks "is this an input?" may take it as a set).

    A folder given as an input counts as a folder read (see :meth:`folder_of`), and every file
    under it as an input file, whatever the reader later takes from it.
    """

    def __init__(self, entries: Iterable[tuple[str, str | Path]] = ()) -> None:
        self._files: dict[Identity, RunInput] = {}
        self._folders: dict[Identity, RunInput] = {}
        for option, path in entries:
            self.add(option, path)

    def add(self, option: str, path: str | Path) -> None:
        """Add the input ``path`` named by ``option`` (nothing if it does not exist: the reader
        will say what is wrong with it)."""
        given = RunInput(option, Path(path))
        info = _stat(path)
        if info is None:
            return
        identity = (info.st_dev, info.st_ino)
        if not stat.S_ISDIR(info.st_mode):
            self._files.setdefault(identity, given)
            return
        self._folders.setdefault(identity, given)
        for inner, file in _files_under(path):
            self._files.setdefault(inner, RunInput(option, file, Path(path)))

    def include(self, other: RunInputs, prefix: str) -> None:
        """Add every input of ``other`` (files and folders read as a whole), its option named
        after ``prefix`` (a campaign's test set: ``test set 'wmt23' --hyp``)."""
        for mine, theirs in ((self._files, other._files), (self._folders, other._folders)):
            for identity, given in theirs.items():
                mine.setdefault(identity, replace(given, option=f"{prefix} {given.option}"))

    def paths(self) -> tuple[Path, ...]:
        """Every input as it was given (folders read as a whole, then files): for a check that
        takes paths (:func:`~mtgui.io.writers.check_writable`)."""
        given = [*self._folders.values(), *self._files.values()]
        return tuple(dict.fromkeys(entry.path for entry in given))

    def __contains__(self, identity: object) -> bool:
        return identity in self._files

    def __iter__(self) -> Iterator[Identity]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def file_at(self, identity: Identity) -> RunInput | None:
        """The input that is the file ``identity``, if any."""
        return self._files.get(identity)

    def folder_of(self, folder: str | Path) -> RunInput | None:
        """The input that reads the folder ``folder`` as a whole, if any."""
        info = _stat(folder)
        return None if info is None else self._folders.get((info.st_dev, info.st_ino))

    def refuse_file(self, identity: Identity, output: str, path: str | Path) -> None:
        """Refuse writing the output ``output`` (an option) to ``path`` if it is an input."""
        found = self._files.get(identity)
        if found is not None:
            raise InputError(
                f"this is one of the input files ({found.describe()}), and {output} would "
                "replace it; mtgui never writes over an input, not even with --overwrite.",
                path=path,
                hint="Choose another output file.",
            )

    def refuse_folder(self, folder: str | Path, output: str, path: str | Path) -> None:
        """Refuse writing the output ``output`` into ``folder`` if inputs are read from it as a
        folder (``path`` is the output as given)."""
        found = self.folder_of(folder)
        if found is not None:
            raise InputError(
                f"{output} would write into the folder read as input ({found.describe()}); "
                "mtgui writes no output there, because every later run on that folder would "
                "read it as an input.",
                path=path,
                hint="Choose another folder for the outputs.",
            )


def refuse_input(
    inputs: Collection[Identity],
    identity: Identity | None,
    output: str,
    path: str | Path,
    folder: Path | None,
) -> None:
    """Refuse an output at ``path`` that is the input ``identity`` (None: a file still to be
    made) or goes into ``folder`` when inputs are read from it as a folder; ``inputs`` is a
    :class:`RunInputs` or any collection of identities (which knows no folders)."""
    if isinstance(inputs, RunInputs):
        if identity is not None:
            inputs.refuse_file(identity, output, path)
        if folder is not None:
            inputs.refuse_folder(folder, output, path)
    elif identity is not None and identity in inputs:
        raise InputError(
            "this is one of the input files; mtgui will not write over it.",
            path=path,
            hint="Choose another output file.",
        )


def _stat(path: str | Path) -> os.stat_result | None:
    """``os.stat`` (links followed), or None when it cannot be had."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _files_under(folder: str | Path) -> Iterator[tuple[Identity, Path]]:
    """The identity and path of every file under ``folder``, subfolders too (links followed,
    as readers do): a file in a subfolder is not read by a run, but is still the user's data."""
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            info = _stat(path)
            if info is not None:
                yield (info.st_dev, info.st_ino), Path(path)
