"""Folders given instead of files: which files in them mtgui reads, and what it leaves out.

The command line (``--hyp DIR``) and the desktop (a dropped folder) read a folder the same way,
through :func:`expand_paths`: the regular files directly in it, in name order. What is left
out is returned with the reason, so that the caller can say so:

- hidden entries (a name starting with "."; only the entry's own name counts, never the folder
  the user gave or its ancestors, so ``~/.work/systems`` reads like any other folder);
- subfolders: a folder is read one level deep. Real test-set folders keep other things in their
  subfolders (the sources and references beside the system outputs, other language pairs,
  other formats of the same files, golden scores, a ``.git``), and reading them too would mix
  those in as system outputs. What the user sees in the folder is what is read;
- entries that are not regular files (named pipes, devices, sockets: reading one can hang);
- entries that cannot be examined (a broken link, or a folder that may be listed but not
  searched).

A folder that cannot be listed at all is a problem of its own, as is one that holds nothing to
read: the command line stops on them, the desktop says so and goes on with the rest.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mtgui.engine.core import InputError
from mtgui.io.inputs import describe_kind, describe_os_error

HIDDEN = "hidden"
SUBFOLDER = "subfolder"
SPECIAL = "not a regular file"
UNREADABLE = "cannot be examined"

_SHOW = 5  # how many names a note lists


@dataclass(frozen=True)
class Skipped:
    """An entry of a folder that is not read, and why (one of the reasons above)."""

    path: Path
    reason: str
    detail: str = ""  # e.g. "a named pipe (FIFO)" or the operating system's reason


@dataclass(frozen=True)
class FolderContents:
    """What one folder given by the user holds for mtgui."""

    folder: Path
    files: tuple[Path, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    problem: str | None = None  # the folder itself cannot be listed

    def error(self) -> InputError | None:
        """The error that stops the command line: the folder cannot be read or gives nothing."""
        if self.problem is not None:
            return InputError(self.problem, path=self.folder)
        if self.files:
            return None
        if not self.skipped:
            return InputError("this folder holds no files.", path=self.folder)
        return InputError(
            f"this folder holds no files mtgui can read: {_describe(self.skipped)}.",
            path=self.folder,
            hint=_hint(self.skipped),
        )

    def note(self, *, hidden: bool = False) -> str | None:
        """A sentence on the entries left out (hidden ones only if ``hidden``), or None."""
        told = [s for s in self.skipped if hidden or s.reason != HIDDEN]
        if not told or not self.files:
            return None
        hint = _hint(told)
        return f"{self.folder}: not read: {_describe(told)}." + (f" {hint}" if hint else "")


@dataclass(frozen=True)
class Expansion:
    """The paths the user gave with each folder replaced by its files (see the module)."""

    files: tuple[Path, ...]
    folders: tuple[FolderContents, ...]

    def errors(self) -> list[InputError]:
        """The folders that cannot be read or hold nothing to read."""
        return [e for e in (f.error() for f in self.folders) if e is not None]

    def notes(self, *, hidden: bool = False) -> list[str]:
        """Sentences on what was left out of the folders (hidden entries only if ``hidden``)."""
        return [n for n in (f.note(hidden=hidden) for f in self.folders) if n is not None]

    def messages(self) -> list[str]:
        """Everything a user should be told: the errors' messages, then the notes."""
        return [error.message for error in self.errors()] + self.notes()


def expand_paths(paths: Iterable[Path]) -> Expansion:
    """``paths`` with each folder replaced by the regular files directly in it, in name order.

    A path that is not a folder (or cannot be examined) is kept as it is: reading it says
    what is wrong with it.
    """
    files: list[Path] = []
    folders: list[FolderContents] = []
    for path in paths:
        if _is_folder(path):
            contents = list_folder(path)
            folders.append(contents)
            files += contents.files
        else:
            files.append(path)
    return Expansion(tuple(files), tuple(folders))


def list_folder(folder: Path) -> FolderContents:
    """The regular files directly in ``folder``, in name order, and what was left out."""
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as error:
        return FolderContents(folder, problem=_folder_problem(error))
    files: list[Path] = []
    skipped: list[Skipped] = []
    for entry in entries:
        path = folder / entry.name
        if entry.name.startswith("."):
            skipped.append(Skipped(path, HIDDEN))
            continue
        try:
            mode = entry.stat().st_mode  # follows links: a link to a file is a file
        except OSError as error:
            skipped.append(Skipped(path, UNREADABLE, _entry_problem(error)))
            continue
        if stat.S_ISREG(mode):
            files.append(path)
        elif stat.S_ISDIR(mode):
            skipped.append(Skipped(path, SUBFOLDER))
        else:
            skipped.append(Skipped(path, SPECIAL, describe_kind(mode) or ""))
    return FolderContents(folder, tuple(files), tuple(skipped))


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (or a link to one); False if it cannot be examined."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _folder_problem(error: OSError) -> str:
    """Why a folder cannot be listed, in words."""
    reason = describe_os_error(error).rstrip(".")
    if isinstance(error, PermissionError):
        reason = "mtgui is not allowed to list it (permission denied)"
    return f"this folder cannot be read: {reason}."


def _entry_problem(error: OSError) -> str:
    """Why an entry of a folder cannot be examined, in a few words."""
    if isinstance(error, FileNotFoundError):
        return "a link to nothing"
    if isinstance(error, PermissionError):
        return "permission denied"
    return describe_os_error(error).rstrip(".")


def _describe(skipped: Sequence[Skipped]) -> str:
    """'2 subfolders (a, b); 1 hidden entry (.git)' and the like, grouped by reason."""
    groups: dict[str, list[Skipped]] = {}
    for item in skipped:
        groups.setdefault(item.reason, []).append(item)
    parts = []
    for reason, items in groups.items():
        names = [_name(item) for item in items[:_SHOW]] + (["..."] if len(items) > _SHOW else [])
        parts.append(f"{_count(len(items), reason)} ({', '.join(names)})")
    return "; ".join(parts)


def _hint(skipped: Sequence[Skipped]) -> str | None:
    """Why subfolders are not read, if any were left out."""
    if not any(item.reason == SUBFOLDER for item in skipped):
        return None
    return "A folder is read one level deep: give a subfolder itself to read the files in it."


def _name(item: Skipped) -> str:
    """An entry's name, with the detail where there is one."""
    return f"{item.path.name}: {item.detail}" if item.detail else item.path.name


def _count(number: int, reason: str) -> str:
    """'1 subfolder', '2 hidden entries', '1 entry that is not a regular file', ..."""
    if reason == SUBFOLDER:
        return f"{number} subfolder" + ("" if number == 1 else "s")
    entries = "entry" if number == 1 else "entries"
    if reason == HIDDEN:
        return f"{number} hidden {entries}"
    verb = "is" if number == 1 else "are"
    if reason == SPECIAL:
        return f"{number} {entries} that {verb} not a regular file"
    return f"{number} {entries} that cannot be examined"
