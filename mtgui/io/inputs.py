"""Opening the files a user names: regular files only, of a bounded size, errors in words.

Every file mtgui reads (data files, scores tables, sessions) is opened here, so that one rule
holds for all of them. A named pipe, a terminal, ``/dev/zero`` or a socket is refused before it
is opened: reading one can wait forever or never end. The check is made again on the open
file (``fstat``), and the file is opened non-blocking, so that a file swapped for a pipe in
between cannot hang the reader either. A regular file larger than :data:`MAX_INPUT_BYTES` is
refused too, before mtgui runs out of memory on it. Any error of the operating system becomes
an :class:`~mtgui.engine.core.errors.InputError` that names the file and says what is wrong in
words.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from mtgui.engine.core import InputError

MAX_INPUT_BYTES = 1 << 30
"""The largest file mtgui reads (1 GiB): far above any test set, far below running out of memory.

Reading a file takes several times its size in memory (its bytes, its text, its segments), so a
larger one is refused with a message instead of a MemoryError after minutes.
"""

_CHUNK = 1 << 20
_MAX_NEIGHBOURS = 10_000  # the entries of a missing file's folder looked at for a close name
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device (such as /dev/zero or a terminal)"),
    (stat.S_ISBLK, "a block device (a disk)"),
    (stat.S_ISSOCK, "a socket"),
)
_REASONS = {
    errno.ENOENT: "there is no such file.",
    errno.EISDIR: "this is a folder, not a file.",
    errno.EACCES: "mtgui is not allowed to read it (permission denied).",
    errno.EPERM: "mtgui is not allowed to read it (operation not permitted).",
    errno.ENAMETOOLONG: "the file name is too long for this system.",
    errno.ENOTDIR: "a part of its path is a file, not a folder.",
    errno.ELOOP: "its path goes round a loop of symbolic links.",
    errno.EIO: "the file cannot be read (input/output error: the disk or network drive may "
    "have a problem).",
}


def describe_os_error(error: OSError) -> str:
    """What an error of the operating system means, as a sentence for the user."""
    if error.errno in _REASONS:
        return _REASONS[error.errno]
    reason = error.strerror or str(error) or type(error).__name__
    return f"the file cannot be read ({reason})."


def describe_kind(mode: int) -> str | None:
    """What a file that is neither a regular file nor a folder is, in words (else None)."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "a special file")


def check_regular(path: str | Path, limit: int | None = None) -> os.stat_result:
    """The status of ``path`` if it is a regular file of at most ``limit`` bytes (None: any).

    Nothing is opened: this only looks at what ``path`` is.

    Raises
    ------
    InputError
        If ``path`` does not exist, cannot be examined, is a folder or a special file, or is
        too large.
    """
    try:
        info = os.stat(path)
    except OSError as error:
        hint = missing_file_hint(Path(path)) if error.errno == errno.ENOENT else None
        raise InputError(describe_os_error(error), path=path, hint=hint) from None
    except ValueError:  # a NUL character, or a name that cannot be encoded for this system
        raise InputError("this is not a valid file name.", path=path) from None
    _check_status(info, path, limit)
    return info


def missing_file_hint(path: Path) -> str | None:
    """What to check when a file named is not there: a file of a close name in its folder (a
    typo), else, for a relative path, the folder it was looked for in (mtgui run from another
    folder than the files'). None when neither applies."""
    from difflib import get_close_matches  # only on this error

    try:
        with os.scandir(path.parent) as entries:
            names = [entry.name for _, entry in zip(range(_MAX_NEIGHBOURS), entries, strict=False)]
    except (OSError, ValueError):
        names = []
    near = get_close_matches(path.name, names, n=1, cutoff=0.85)
    if near:
        return f"Did you mean {path.parent / near[0]}?"
    if not path.is_absolute():
        return f"A relative path is read from the current folder, {os.getcwd()}."
    return None


def _check_status(info: os.stat_result, path: str | Path, limit: int | None) -> None:
    """Refuse folders, special files and files over ``limit`` bytes (None: any size)."""
    if stat.S_ISDIR(info.st_mode):
        raise InputError("this is a folder, not a file.", path=path)
    kind = describe_kind(info.st_mode)
    if kind is not None:
        raise InputError(
            f"this is {kind}, not a regular file; mtgui reads only regular files, because "
            "reading anything else can wait forever or never end.",
            path=path,
            hint="Save the data to a file and give that file.",
        )
    if limit is not None and info.st_size > limit:
        raise _too_large(path, info.st_size, limit)


def _too_large(path: str | Path, size: int | None, limit: int) -> InputError:
    """The error for a file over the size limit (``size`` None: it grew past it while read)."""
    what = f"{size:,} bytes" if size is not None else f"more than {limit:,} bytes"
    return InputError(
        f"this file is too large to read ({what}); mtgui reads files of at most {limit:,} bytes.",
        path=path,
        hint="Is this really a test set? Split it, or give the file that was meant.",
    )


def read_input_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The whole contents of the regular file ``path``, refused if over ``limit`` bytes.

    ``limit`` defaults to :data:`MAX_INPUT_BYTES`. A file that grows past the limit while it is
    read is refused too: at most ``limit + 1`` bytes are ever read.

    Raises
    ------
    InputError
        As :func:`check_regular`, or if the file cannot be opened or read.
    """
    limit = MAX_INPUT_BYTES if limit is None else limit
    info = check_regular(path, limit)
    descriptor = _open(path)
    try:
        # Checked again on the open file: the path may have been replaced in between.
        _check_status(os.fstat(descriptor), path, limit)
        data = _read_bounded(descriptor, info.st_size, limit, path)
    except OSError as error:
        raise _read_error(error, info, path) from None
    finally:
        os.close(descriptor)
    return data


def read_input_head(path: str | Path, size: int) -> bytes:
    """At most the first ``size`` bytes of the regular file ``path`` (a sniff; never blocks).

    Raises
    ------
    InputError
        As :func:`read_input_bytes`, except that a large file is fine.
    """
    info = check_regular(path, limit=None)
    descriptor = _open(path)
    try:
        _check_status(os.fstat(descriptor), path, None)
        return os.read(descriptor, size)
    except OSError as error:
        raise _read_error(error, info, path) from None
    finally:
        os.close(descriptor)


def _read_error(error: OSError, info: os.stat_result, path: str | Path) -> InputError:
    """The error of a failed read in words. An input/output error on a "regular" file of size
    0 is no disk's fault: such files are the system's own (``/proc/self/mem``, most of
    ``/proc`` and ``/sys``), whose contents are made as they are read, when they can be."""
    if error.errno == errno.EIO and info.st_size == 0:
        return InputError(
            "this cannot be read as a file: it is a file of the system (such as those under "
            "/proc), and reading it gives an input/output error.",
            path=path,
            hint="Give a file of data.",
        )
    return InputError(describe_os_error(error), path=path)


def _open(path: str | Path) -> int:
    """A read-only, non-blocking descriptor for ``path`` (non-blocking: a pipe put there after
    the check must not make ``open`` wait for a writer)."""
    try:
        return os.open(path, _OPEN_FLAGS)
    except OSError as error:
        raise InputError(describe_os_error(error), path=path) from None
    except ValueError:
        raise InputError("this is not a valid file name.", path=path) from None


def _read_bounded(descriptor: int, expected: int, limit: int, path: str | Path) -> bytes:
    """Read to the end of the file, but never more than ``limit + 1`` bytes.

    The first read asks for the whole expected size (one allocation, no copy for the usual
    file); further reads only happen if the file grew since it was examined.
    """
    chunks = []
    total = 0
    want = min(expected, limit) + 1
    while want > 0:
        chunk = os.read(descriptor, want)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = min(_CHUNK, limit + 1 - total)
    if total > limit:
        raise _too_large(path, None, limit)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
