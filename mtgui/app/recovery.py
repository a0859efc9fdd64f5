"""The recovery file: the window's work, kept on disk as it changes, offered back after a crash.

While files are loaded, the window's session (its files with their roles and score choices,
the systems' names and hidden systems, the settings and the metric shown: the session format
of :mod:`mtgui.io.session`) is written to a file of its own in a folder beside the preferences
(``~/.config/mtgui/recovery`` on Linux), a moment after each change (:data:`SAVE_DELAY_MS`:
a burst of changes is one write) and at once when an unexpected error happens. Writes are
atomic: a kill in the middle leaves the previous file whole. A clean quit removes the file.

Each running mtgui has its own file, ``recovery-<pid>-<tag>.mtgui.json``, and holds a lock
beside it (``.lock``, a :class:`QLockFile`) for as long as it runs, so that two windows never
write over each other's file, and a start offers only the files whose process is gone (a lock
whose process no longer exists is stale: :meth:`RecoveryFolder.orphans`). The window asks
whether to restore or discard each one, newest first; nothing is restored or deleted without
being asked.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer

from mtgui.engine.core import InputError
from mtgui.io.session import SESSION_SUFFIX, Session, read_session, session_to_dict
from mtgui.io.writers import json_text, write_text_atomic

SAVE_DELAY_MS = 1500
"""How long after a change the recovery file is written (later changes join that write)."""

PREFIX = "recovery-"
_LOCK_SUFFIX = ".lock"
_SHOW = 3  # how many file names the offer lists

Snapshot = Callable[[], tuple[Session, Path | None] | None]
"""What to keep: the session of the window now and its own session file, or None if nothing
is loaded (then there is nothing to lose, and no recovery file)."""


def recovery_folder(settings_file: str | Path) -> Path:
    """The folder of recovery files: ``recovery`` beside the preferences' file (``QSettings
    .fileName()``), in the user's configuration folder that mtgui already uses."""
    return Path(settings_file).parent / "recovery"


@dataclass
class Orphan:
    """A recovery file whose process is gone, locked by this one until it is decided on."""

    path: Path
    lock: QLockFile
    saved: float  # when it was last written (seconds since the epoch)

    def read(self) -> tuple[Session, Path | None]:
        """Its session, and the session file the work was saved as, if any.

        Raises
        ------
        InputError
            If it cannot be read (a recovery file from another version, say).
        """
        session = read_session(self.path, missing_ok=True)
        return session, _session_path(self.path)

    def describe(self) -> str:
        """What it holds, in a sentence for the offer."""
        when = time.strftime("%H:%M on %d %b %Y", time.localtime(self.saved))
        try:
            session, original = self.read()
        except InputError as error:
            return f"Work saved at {when}, which cannot be read back: {error.problem}"
        names = [path.name for path in session.paths]
        listed = ", ".join(names[:_SHOW]) + (", ..." if len(names) > _SHOW else "")
        count = "1 file" if len(names) == 1 else f"{len(names):,} files"
        named = f" (the session {original.name})" if original is not None else ""
        return f"Work{named} saved at {when}: {count} ({listed})."

    def discard(self) -> None:
        """Delete it (the user said so) and its lock."""
        with contextlib.suppress(OSError):
            self.path.unlink()
        self.release()

    def release(self) -> None:
        """Keep it for the next start: give its lock back."""
        self.lock.unlock()


class RecoveryFolder:
    """The folder where every running mtgui keeps its recovery file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def orphans(self) -> list[Orphan]:
        """The recovery files of processes that are gone, newest first, each locked by this
        process until it is restored, discarded or released. Files of mtgui windows still
        open (their lock held) are left alone."""
        found = []
        for path in self._files():
            lock = QLockFile(str(_lock_path(path)))
            lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
            if not lock.tryLock(0):
                continue  # another mtgui still runs and writes it
            try:
                saved = path.stat().st_mtime
            except OSError:  # gone meanwhile
                lock.unlock()
                continue
            found.append(Orphan(path, lock, saved))
        return sorted(found, key=lambda orphan: orphan.saved, reverse=True)

    def _files(self) -> list[Path]:
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        return [
            self.folder / name
            for name in names
            if name.startswith(PREFIX) and name.endswith(SESSION_SUFFIX)
        ]


class RecoveryFile(QObject):
    """This process's recovery file: written a moment after each change, removed on a clean
    quit (:meth:`discard`)."""

    def __init__(self, folder: Path, snapshot: Snapshot, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        tag = uuid.uuid4().hex[:8]
        self.path = folder / f"{PREFIX}{os.getpid()}-{tag}{SESSION_SUFFIX}"
        self.problem = ""  # why the last write failed ("": it did not)
        self._snapshot = snapshot
        self._written = ""  # the text on disk now ("": no file)
        self._lock: QLockFile | None = None
        self._timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_now)

    def changed(self) -> None:
        """The work changed: write it soon (changes until then join the same write)."""
        if not self._timer.isActive():
            self._timer.start()

    def save_now(self) -> None:
        """Write the work now, if it changed (nothing loaded: remove the file). A failure to
        write is kept in :attr:`problem`, never raised: the window goes on without it."""
        self._timer.stop()
        snapshot = self._snapshot()
        if snapshot is None or not snapshot[0].files:
            self._remove()
            return
        session, original = snapshot
        data = session_to_dict(session, self.folder)
        data["recovery"] = {"session_path": None if original is None else str(original)}
        try:
            text = json_text(data)
            if text == self._written:
                return
            self._take_lock()
            write_text_atomic(self.path, text)
        except (InputError, OSError, ValueError) as error:
            self.problem = getattr(error, "problem", str(error))
            return
        self.problem, self._written = "", text

    def discard(self) -> None:
        """A clean quit: nothing to recover, the file and its lock go."""
        self._timer.stop()
        self._remove()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    def _take_lock(self) -> None:
        """Hold this file's lock from its first write until the process ends."""
        if self._lock is not None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        lock = QLockFile(str(_lock_path(self.path)))
        lock.setStaleLockTime(0)
        if not lock.tryLock(0):
            raise OSError(f"its lock {_lock_path(self.path).name} is held by another process")
        self._lock = lock

    def _remove(self) -> None:
        if self._written:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._written = ""


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + _LOCK_SUFFIX)


def _session_path(path: Path) -> Path | None:
    """The session file the recovered work had been saved as (kept in the recovery file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    kept = data.get("recovery", {}) if isinstance(data, dict) else {}
    value = kept.get("session_path") if isinstance(kept, dict) else None
    return Path(value) if isinstance(value, str) and value else None
