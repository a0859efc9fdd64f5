"""Where an output path leads, and whether mtgui may write there (before anything is written).

:func:`examine` follows symbolic links to the file that would be written and says how
(:class:`Kind`): a new file, an existing regular file to replace (only when the caller allows
it), or a stream written into as it is (a character device such as a terminal or
``/dev/null``, a named pipe, or an open descriptor: ``/dev/stdout``, ``/dev/fd/N``,
``/proc/self/fd/N``, which are not followed further). Anything else (a folder, a socket, a
block device) is refused, and so is every input: two paths are the same file when they have
the same device and inode, however they are spelled (symbolic and hard links included). Every
problem is an :class:`InputError` naming the path, never an ``OSError``.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from mtgui.engine.core import InputError
from mtgui.io.run_inputs import refuse_input

STDOUT = "-"
"""The name that stands for standard output (``--json -``, ``--segments -``)."""

_MAX_LINKS = 40
_DESCRIPTORS = re.compile(r"/proc/[^/]+/fd")  # where /dev/stdout and /dev/fd/N lead


class Kind(Enum):
    """How an output is written."""

    NEW = "new"  # a file to make (atomically)
    FILE = "file"  # a regular file to replace (atomically)
    STREAM = "stream"  # a device, pipe or open descriptor: written into as it is
    STDOUT = "stdout"  # standard output


@dataclass(frozen=True)
class Target:
    """Where one output goes, as :func:`examine` found it.

    ``final`` is the path written (symbolic links resolved); ``identity`` is the same for two
    targets exactly when they are the same file (device and inode; for a file to be made, its
    folder's and its name).
    """

    given: Path
    final: Path
    kind: Kind
    identity: tuple[object, ...]


def examine(
    path: Path,
    overwrite: bool,
    inputs: Collection[tuple[int, int]] = frozenset(),
    folder_made: bool = False,
    label: str = "this output",
) -> Target:
    """Where ``path`` leads and how to write it; :class:`InputError` if it must not be.

    ``folder_made``: the folder of ``path`` does not exist yet and will be made first.
    ``label`` names the output in a refusal (``--json``); ``inputs`` may be a
    :class:`~mtgui.io.run_inputs.RunInputs`, which also refuses a folder read as input.
    """
    try:
        final, descriptor = _resolve_links(path)
        info = stat_or_none(final)
        if info is None and descriptor:
            raise InputError("no such descriptor is open.", path=path)
        folder = None if descriptor else final.parent
        if info is None:
            refuse_input(inputs, None, label, path, folder)
            return Target(path, final, Kind.NEW, _new_identity(path, final, folder_made))
        refuse_input(inputs, (info.st_dev, info.st_ino), label, path, folder)
        identity = ("inode", info.st_dev, info.st_ino)
        _refuse_special(path, info.st_mode)
        if descriptor or stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            return Target(path, final, Kind.STREAM, identity)
        if not overwrite:
            raise InputError(
                "the file already exists.",
                path=path,
                hint="Choose another name, or allow replacing it (--overwrite).",
            )
        return Target(path, final, Kind.FILE, identity)
    except OSError as error:
        raise path_error(path, error) from None


def _resolve_links(path: Path) -> tuple[Path, bool]:
    """The path that ``path`` leads to, links followed; and whether it is an open descriptor
    (``/proc/PID/fd/N``, where ``/dev/stdout`` leads), which is not followed further."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        folder = os.path.realpath(os.path.dirname(current))
        current = os.path.join(folder, os.path.basename(current))
        if _DESCRIPTORS.fullmatch(folder):
            return Path(current), True
        if not os.path.islink(current):
            return Path(current), False
        current = os.path.join(folder, os.readlink(current))
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))


def stat_or_none(path: Path) -> os.stat_result | None:
    """``os.stat`` (links followed), or None if nothing is there."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _new_identity(given: Path, final: Path, folder_made: bool) -> tuple[object, ...]:
    """The identity of a file still to be made: its folder's device and inode and its name
    (the folder's parent and the folder's name too when the folder is still to be made)."""
    folder, names = final.parent, [final.name]
    if folder_made:
        folder, names = folder.parent, [folder.name, final.name]
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        raise InputError("the folder to write into does not exist.", path=given) from None
    if not stat.S_ISDIR(info.st_mode):
        raise InputError("the folder to write into is not a folder.", path=given)
    return ("new", info.st_dev, info.st_ino, *names)


_SPECIAL = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISBLK, "a block device (a disk)"),
)


def _refuse_special(path: Path, mode: int) -> None:
    """Refuse what mtgui does not write into: anything but a regular file, a character
    device and a named pipe."""
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISREG(mode):
        return
    what = next((name for test, name in _SPECIAL if test(mode)), "a special file")
    raise InputError(
        f"this is {what}, which mtgui does not write into.",
        path=path,
        hint="Give the name of a file.",
    )


def path_error(path: Path | str, error: OSError) -> InputError:
    """An OSError about ``path`` as a message for people."""
    return InputError(f"cannot be written: {os_reason(error)}", path=path)


_REASONS = {
    errno.ENAMETOOLONG: "the name is too long for this system.",
    errno.ENOTDIR: "a part of this path is a file, not a folder.",
    errno.EACCES: "permission denied.",
    errno.EPERM: "the system does not allow this.",
    errno.EROFS: "the file system is read-only.",
    errno.ENOSPC: "there is no space left on the device.",
    errno.EDQUOT: "the disk quota is exhausted.",
    errno.ELOOP: "too many symbolic links.",
    errno.EISDIR: "this is a folder.",
}


def os_reason(error: OSError) -> str:
    """What an OSError means, in plain words."""
    return _REASONS.get(error.errno or 0, f"{error.strerror or error}.")
