"""Every output of one run, checked together before any work starts, then written.

The command line (``mtgui eval``, ``mtgui study``) and the desktop application's CSV export
name all their outputs to an :class:`OutputPlan` first. It refuses, with an
:class:`InputError` that names the path and says what is wrong, before anything is computed
or written: an output that is one of the inputs (however it is spelled), an existing file
without permission to replace it, two outputs that name the same file, two outputs on standard
output, a missing folder, a name too long, and anything that is neither a file, a device nor
a pipe (see :mod:`mtgui.io.writers`). :meth:`OutputPlan.prepare` then makes (and removes
again) the folders still missing and a temporary file for every file output, which proves that
each can really be written (permissions, read-only disks, names too long) before the work
starts. :meth:`OutputPlan.close` removes a folder made for outputs that stayed empty.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from mtgui.engine.core import InputError
from mtgui.io.run_inputs import READ, Identity, RunInputs
from mtgui.io.targets import (
    STDOUT,
    Kind,
    Target,
    examine,
    os_reason,
    path_error,
)
from mtgui.io.temporaries import PENDING
from mtgui.io.writers import make_temporary, write_target


@dataclass(frozen=True)
class _Planned:
    """One output: the option that names it (for messages), and where it goes."""

    label: str
    target: Target


class OutputPlan:
    """The outputs of one run, each checked when it is added.

    Parameters
    ----------
    overwrite
        Whether existing files may be replaced (never an input).
    inputs
        The inputs of the run (:class:`~mtgui.io.run_inputs.RunInputs`, each with the option
        that named it), or the files (or folders of files) it reads.
    """

    def __init__(self, overwrite: bool, inputs: RunInputs | Iterable[str | Path] = ()) -> None:
        self.overwrite = overwrite
        self.inputs = (
            inputs if isinstance(inputs, RunInputs) else RunInputs((READ, p) for p in inputs)
        )
        self._planned: dict[str, _Planned] = {}
        self._folders: list[Path] = []  # to make in prepare()
        self._made: list[Path] = []  # made by prepare()
        self._folder_claims: list[tuple[str, tuple[object, ...]]] = []  # (key, identity)
        self.to_stdout = False
        """Whether one of the outputs is standard output (so nothing else may be printed)."""

    def __contains__(self, key: str) -> bool:
        return key in self._planned

    def add_file(self, key: str, path: str | Path, label: str | None = None) -> None:
        """Plan the output ``key``: ``path``, or standard output if it is ``-`` (a string).

        A file may go into a folder that :meth:`add_folder` added before and will make.
        """
        if str(path) == STDOUT and not isinstance(path, Path):
            target = Target(Path(STDOUT), Path(STDOUT), Kind.STDOUT, _stdout_identity())
        else:
            path = Path(path)
            made = Path(os.path.realpath(path.parent)) in self._folders  # an output folder
            target = examine(path, self.overwrite, self.inputs, made, label or key)
        self._add(key, label or key, target)

    def add_folder(self, key: str, folder: str | Path, names: Sequence[str]) -> None:
        """Plan the files ``names`` in ``folder`` (made if missing), as ``key/name``."""
        if str(folder) == STDOUT and not isinstance(folder, Path):
            raise InputError(
                f"{key} writes several files into a folder, so it cannot be standard output (-).",
                hint="Give a folder (./- for a folder named '-').",
            )
        folder = Path(folder)
        self.inputs.refuse_folder(folder, key, folder)
        made, identity = self._examine_folder(folder)
        self._claim_folder(key, folder, identity)
        for name in names:
            label = f"{key} ({name})"
            target = examine(folder / name, self.overwrite, self.inputs, made, label)
            self._add(f"{key}/{name}", label, target)

    def _examine_folder(self, folder: Path) -> tuple[bool, tuple[object, ...]]:
        """Whether ``folder`` must be made, and its identity (as :class:`Target`'s);
        InputError if it cannot be a folder of reports."""
        try:
            info = os.stat(folder)
        except FileNotFoundError:
            final = Path(os.path.realpath(folder))
            try:
                parent = os.stat(final.parent)
            except FileNotFoundError:
                parent = None
            except OSError as error:
                raise path_error(folder, error) from None
            if parent is None or not stat.S_ISDIR(parent.st_mode):
                raise InputError(
                    "the folder for the CSV reports cannot be made: its parent does not exist.",
                    path=folder,
                ) from None
            self._folders.append(final)
            return True, ("new", parent.st_dev, parent.st_ino, final.name)
        except OSError as error:
            raise path_error(folder, error) from None
        if not stat.S_ISDIR(info.st_mode):
            raise InputError("this is a file, not a folder for the CSV reports.", path=folder)
        return False, ("inode", info.st_dev, info.st_ino)

    def _claim_folder(self, key: str, folder: Path, identity: tuple[object, ...]) -> None:
        """Refuse a folder that another output names as its file; else remember it."""
        for other in self._planned.values():
            if other.target.identity == identity:
                raise InputError(
                    f"{other.label} names the folder that {key} writes into.",
                    path=folder,
                    hint="Give each output a path of its own.",
                )
        self._folder_claims.append((key, identity))

    def _add(self, key: str, label: str, target: Target) -> None:
        """Add a checked output; refuse a second output to the same file (or folder)."""
        for folder_key, identity in self._folder_claims:
            if identity == target.identity:
                raise InputError(
                    f"{label} names the folder that {folder_key} writes into.",
                    path=target.given,
                    hint="Give each output a path of its own.",
                )
        for other in self._planned.values():
            if other.target.identity != target.identity:
                continue
            if target.kind is Kind.STDOUT and other.target.kind is Kind.STDOUT:
                problem = f"{other.label} and {label} both ask for standard output (-)."
                raise InputError(problem, hint="Only one output can go there.")
            raise InputError(
                f"{other.label} and {label} name the same file.",
                path=target.given,
                hint="Give each output a file of its own.",
            )
        self._planned[key] = _Planned(label, target)
        self.to_stdout = self.to_stdout or target.kind is Kind.STDOUT

    def check_inputs(self, paths: Iterable[str | Path]) -> None:
        """Refuse again now that the files really read are known (``paths``)."""
        for path in paths:
            self.inputs.add(READ, path)
        for planned in self._planned.values():
            kind, *inode = planned.target.identity
            if kind == "inode":
                found = cast(Identity, tuple(inode))
                self.inputs.refuse_file(found, planned.label, planned.target.given)

    def prepare(self) -> None:
        """Prove that every output can be written before the work starts: make each missing
        folder and a temporary file for each file output, then remove them again (so nothing
        of the outputs lies about, in an input folder say, while the run reads and works);
        InputError if one cannot be made."""
        made: list[Path] = []
        try:
            for folder in self._folders:
                try:
                    os.mkdir(folder)
                except OSError as error:
                    raise InputError(
                        f"the folder for the CSV reports cannot be made: {os_reason(error)}",
                        path=folder,
                    ) from None
                made.append(folder)
            for planned in self._planned.values():
                if planned.target.kind in (Kind.NEW, Kind.FILE):
                    try:
                        make_temporary(planned.target).discard()
                    except OSError as error:
                        raise path_error(planned.target.given, error) from None
        finally:
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(folder)

    def write(self, key: str, data: str | bytes, bom: bool = False) -> None:
        """Write the output ``key`` (text as UTF-8; a byte-order mark if ``bom``, except on
        standard output), making its folder first if it is still missing."""
        planned = self._planned.pop(key)
        if isinstance(data, str):
            bom = bom and planned.target.kind is not Kind.STDOUT
            data = data.encode("utf-8-sig" if bom else "utf-8")
        folder = planned.target.final.parent
        if folder in self._folders and folder not in self._made:
            self._make_folder(folder, planned.target.given)
        write_target(planned.target, data, self.overwrite, self.inputs)

    def _make_folder(self, folder: Path, given: Path) -> None:
        """Make a folder of outputs, registered for removal while it is empty."""
        try:
            os.mkdir(folder)
        except FileExistsError:
            return  # made meanwhile: the files are checked one by one as they are written
        except OSError as error:
            raise path_error(given.parent, error) from None
        PENDING.add_folder(str(folder))
        self._made.append(folder)

    def close(self) -> None:
        """Remove the folders made for outputs that are still empty (a run that failed)."""
        for folder in reversed(self._made):
            PENDING.discard_folder(str(folder))
            with contextlib.suppress(OSError):  # it holds reports: it stays
                os.rmdir(folder)
        self._made = []


def _stdout_identity() -> tuple[object, ...]:
    """What standard output is, as a file (to refuse a second output into the same file)."""
    try:
        info = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError):
        return ("stdout",)
    return ("inode", info.st_dev, info.st_ino)
