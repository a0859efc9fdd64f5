"""The temporary files that make writes atomic: named so that they can be recognised, and
removed whatever ends the run.

A file is written as ``.NAME.mtgui-PID.tmp`` next to its final place, then moved into place in
one step. Every temporary file (and every folder made for outputs) is registered here until
it is moved into place or removed, so that whoever ends the process early (the command line's
handlers of SIGTERM, SIGHUP and Ctrl+C, or the application when it quits) can remove them with
:func:`discard_pending`. A process killed outright (SIGKILL, a power cut) cannot clean up:
the next write into the same folder removes the temporary files of mtgui processes that no
longer run (:func:`remove_stale`). Nothing here installs a signal handler or imports Qt.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from itertools import count
from pathlib import Path

_NAME_MAX = 255  # bytes in one file name on every common file system
_TEMPORARY = re.compile(r"\..*\.mtgui-(?P<pid>[0-9]+)(?:-[0-9]+)?\.tmp", re.DOTALL)


class _Pending:
    """Temporary files and made folders that are not yet in their final state."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.files: set[str] = set()
        self.folders: list[str] = []

    def add_file(self, path: str) -> None:
        with self._lock:
            self.files.add(path)

    def discard_file(self, path: str) -> None:
        with self._lock:
            self.files.discard(path)

    def add_folder(self, path: str) -> None:
        with self._lock:
            self.folders.append(path)

    def discard_folder(self, path: str) -> None:
        with self._lock:
            if path in self.folders:
                self.folders.remove(path)

    def take(self) -> tuple[list[str], list[str]]:
        with self._lock:
            files, folders = sorted(self.files), self.folders[::-1]
            self.files, self.folders = set(), []
        return files, folders


PENDING = _Pending()


def discard_pending() -> None:
    """Remove every temporary file not yet moved into place, and every folder made for
    outputs that is still empty (safe to call at any time, from anywhere, twice)."""
    files, folders = PENDING.take()
    for path in files:
        with contextlib.suppress(OSError):
            os.unlink(path)
    for path in folders:
        with contextlib.suppress(OSError):
            os.rmdir(path)  # only if empty: a folder that holds a report stays


def temporary_name(name: str, pid: int, attempt: int = 0) -> str:
    """``.NAME.mtgui-PID.tmp`` (``-N`` before ``.tmp`` after the first attempt), with NAME
    shortened where the whole would be longer than a file name may be."""
    suffix = f".mtgui-{pid}{f'-{attempt}' if attempt else ''}.tmp"
    room = _NAME_MAX - 1 - len(suffix.encode())
    stem = name.encode()[:room].decode(errors="ignore")
    return f".{stem}{suffix}"


def is_temporary(name: str) -> bool:
    """Whether ``name`` is the name of one of mtgui's temporary files."""
    return _TEMPORARY.fullmatch(name) is not None


def remove_stale(folder: Path) -> None:
    """Remove the temporary files in ``folder`` that mtgui processes no longer running left
    behind (a run killed outright). Problems are ignored: this is housekeeping."""
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.startswith(".")]
    except OSError:
        return
    for name in names:
        found = _TEMPORARY.fullmatch(name)
        if found is None:
            continue
        path = os.path.join(folder, name)
        if not _is_running(int(found["pid"]), path):
            with contextlib.suppress(OSError):
                os.unlink(path)


def _is_running(pid: int, path: str) -> bool:
    """Whether the process that made the temporary file ``path`` may still be writing it."""
    if pid == os.getpid():
        return path in PENDING.files  # ours only if this process registered it
    if pid <= 0:
        return False
    if os.name == "nt":
        return True  # os.kill(pid, 0) would not ask there, it would send Ctrl+C
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True


class Temporary:
    """An open temporary file next to ``final``, registered until it is moved or removed.

    It is made with mode 0666 less the umask, as the final file would be by a plain write.
    """

    def __init__(self, final: Path) -> None:
        self.final = final
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        for attempt in count():
            path = final.parent / temporary_name(final.name, os.getpid(), attempt)
            # Registered before it exists: a signal raised between the file's making and its
            # registration would leave it behind. A name with our process number that is
            # not ours to write is stale, so removing it on the way out harms nothing.
            PENDING.add_file(str(path))
            try:
                self.fd = os.open(path, flags, 0o666)
            except FileExistsError:
                PENDING.discard_file(str(path))
                if attempt < 100:
                    continue
                raise
            except OSError:  # not made (a signal's exception keeps it registered)
                PENDING.discard_file(str(path))
                raise
            break
        self.path = path
        self._moved = False

    def write(self, data: bytes, mode: int | None = None) -> None:
        """Write ``data``, give the file ``mode`` if one is given, and close it (to disk)."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view) :]
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(self.fd, mode)
            os.fsync(self.fd)
        finally:
            self._close()

    def moved(self) -> None:
        """The file is in its final place now: nothing to clean up."""
        self._moved = True
        PENDING.discard_file(str(self.path))

    def discard(self) -> None:
        """Close and remove the file, unless it was moved into place."""
        self._close()
        if not self._moved:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        PENDING.discard_file(str(self.path))

    def _close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)
