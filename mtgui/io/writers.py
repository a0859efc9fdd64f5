"""Writing outputs: atomically, never over an input, over a file only when told to.

Where a path leads decides how it is written (:func:`mtgui.io.targets.examine`):

- a new file, or an existing regular file (only when the caller allows replacing it), is
  written to a temporary file next to it (``.NAME.mtgui-PID.tmp``, see
  :mod:`mtgui.io.temporaries`) and moved into place in one step, so a crash, a full disk or a
  signal never leaves a half-written file where a good one was. A new file gets the mode a
  plain write would give it (0666 less the umask); a replaced file keeps its mode. A symbolic
  link is followed: the file it points to is replaced, the link stays;
- a character device (a terminal, ``/dev/null``), a named pipe, or an open descriptor
  (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``) is written into as it is, appended,
  without a temporary file: nothing is replaced, so this needs no permission to overwrite;
- anything else (a folder, a socket, a block device) is refused.

An output is never one of the inputs, checked once more at the last moment. Every problem is an
:class:`InputError` naming the path, never an ``OSError``; so is a failure to write standard
output (a full disk).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import os
import stat
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from mtgui.engine.core import InputError
from mtgui.io.run_inputs import READ, RunInputs, refuse_input
from mtgui.io.targets import (
    Kind,
    Target,
    examine,
    os_reason,
    path_error,
    stat_or_none,
)
from mtgui.io.temporaries import Temporary, remove_stale


def check_writable(path: Path, overwrite: bool, inputs: Collection[Path] = ()) -> None:
    """Refuse to write over an input file or into a folder given as input (see
    :mod:`mtgui.io.run_inputs`), over an existing file unless ``overwrite``, into a folder
    that does not exist, or into anything but a file, a device or a pipe."""
    examine(path, overwrite, RunInputs((READ, p) for p in inputs))


def write_text_atomic(path: Path, text: str, bom: bool = False) -> None:
    """Write ``text`` (UTF-8, with a byte-order mark if ``bom``) to ``path`` in one step."""
    write_bytes_atomic(path, text.encode("utf-8-sig" if bom else "utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step, replacing what is there (the caller asked);
    into a device, a pipe or an open descriptor as it is."""
    write_target(examine(path, overwrite=True), data, overwrite=True)


def write_target(
    target: Target,
    data: bytes,
    overwrite: bool,
    inputs: Collection[tuple[int, int]] = frozenset(),
) -> None:
    """Write ``data`` where ``target`` says; ``inputs`` are checked once more at the end."""
    if target.kind is Kind.STDOUT:
        write_stdout(data.decode("utf-8"))
    elif target.kind is Kind.STREAM:
        _write_stream(target, data)
    else:
        _write_replacing(target, data, overwrite, inputs)


def _write_stream(target: Target, data: bytes) -> None:
    """Append to a device, pipe or descriptor (what was printed before comes first)."""
    flush_stdout()
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target.final, flags)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    except OSError as error:
        raise path_error(target.given, error) from None


def _write_replacing(
    target: Target, data: bytes, overwrite: bool, inputs: Collection[tuple[int, int]]
) -> None:
    """Write a temporary file next to the target and move it into place."""
    try:
        temporary = make_temporary(target)
        try:
            existing = stat_or_none(target.final)
            if existing is not None:
                _check_still_replaceable(target, existing, overwrite, inputs)
            mode = None if existing is None else stat.S_IMODE(existing.st_mode) & 0o777
            temporary.write(data, mode)
            _move(temporary, target, replace=existing is not None or overwrite)
        finally:
            temporary.discard()  # unless it was moved into place
    except OSError as error:
        raise path_error(target.given, error) from None


def make_temporary(target: Target) -> Temporary:
    """The temporary file for ``target`` (stale ones of dead runs removed first)."""
    remove_stale(target.final.parent)
    return Temporary(target.final)


def _check_still_replaceable(
    target: Target, existing: os.stat_result, overwrite: bool, inputs: Collection[tuple[int, int]]
) -> None:
    """The file found at the last moment may be replaced (it may have appeared meanwhile)."""
    refuse_input(inputs, (existing.st_dev, existing.st_ino), "this output", target.given, None)
    if not stat.S_ISREG(existing.st_mode):
        raise InputError(
            "this is no longer a regular file; it was left as it is.", path=target.given
        )
    if not overwrite:
        raise InputError(
            "the file appeared while mtgui was working; it was left as it is.",
            path=target.given,
            hint="Choose another name, or allow replacing it (--overwrite).",
        )


def _move(temporary: Temporary, target: Target, replace: bool) -> None:
    """Move the written temporary file into place; without ``replace``, never over a file
    that appeared meanwhile (a hard link fails if the name is taken; where the file system
    has no hard links, the last check above has to do)."""
    if not replace:
        try:
            os.link(temporary.path, target.final)
        except FileExistsError:
            raise InputError(
                "the file appeared while mtgui was working; it was left as it is.",
                path=target.given,
            ) from None
        except OSError:
            os.replace(temporary.path, target.final)
        temporary.discard()  # the link is in place; the temporary name goes
        return
    os.replace(temporary.path, target.final)
    temporary.moved()


class _ClosedStream(io.TextIOBase):
    """What stands for standard output when the process was started with it closed
    (``mtgui eval ... >&-``: Python's ``sys.stdout`` is None). Writing to it fails as writing
    to a closed descriptor does, so that an output asked for there (a table, ``--json -``) is
    an error in words, not an internal error; nothing else needs it."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it was closed when mtgui started")

    def isatty(self) -> bool:
        return False


def guard_closed_streams() -> None:
    """Give a process started with standard output or error closed stand-ins for them, and
    keep their descriptors (1, 2) on /dev/null, so that no file mtgui opens later takes
    descriptor 1 or 2 (where a library's or a child's stray print would land in it)."""
    for descriptor, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        with contextlib.suppress(OSError):
            opened = os.open(os.devnull, os.O_WRONLY)
            if opened != descriptor:
                os.dup2(opened, descriptor)
                os.close(opened)
        setattr(sys, name, _ClosedStream() if name == "stdout" else open(os.devnull, "w"))  # noqa: SIM115


def write_stdout(text: str) -> None:
    """Print ``text`` to standard output now; a failure (a full disk) is an InputError."""
    try:
        sys.stdout.write(text)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _stdout_error(error) from None
    flush_stdout()


def flush_stdout() -> None:
    """Flush standard output; a failure (a full disk) is an InputError."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _stdout_error(error) from None


def _stdout_error(error: OSError) -> InputError:
    return InputError(f"cannot write to standard output: {os_reason(error)}")


def json_text(data: Any) -> str:
    """Pretty JSON with a final newline (NaN must already be None)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """CSV with a header line; floats in full precision; text that a spreadsheet would run
    as a formula made inert (:func:`inert_cell`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([inert_cell(cell) for cell in header])
    writer.writerows([inert_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_CHARACTERS = set("0123456789.,%eE+-\N{MINUS SIGN}\N{PLUS-MINUS SIGN} ")


def inert_cell(cell: Any) -> Any:
    """``cell``, or, if it is text that Excel, LibreOffice or Google Sheets would take for a
    formula (it begins with ``= + - @``, a tab or a carriage return: a system or test set
    named ``=HYPERLINK(...)`` or ``+cmd|...``), the text after a ``'``, which shows it as the
    text it is and runs nothing (OWASP's advice on CSV injection). Numbers, signed numbers
    written as text (``-0.5``, ``+1.2%``) and cells of one character (the verdict ``=``, a
    ``-`` for nothing) stay as they are: no formula can hide in them."""
    if not isinstance(cell, str) or len(cell) < 2 or not cell.startswith(_FORMULA_STARTS):
        return cell
    if cell[0] in "+-" and set(cell) <= _NUMBER_CHARACTERS:
        return cell
    return "'" + cell
