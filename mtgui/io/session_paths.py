"""Where a session's files are: each is stored twice, and found again after a move. No Qt.

A file is stored absolute, and relative to the session file's folder when it is in that folder
or at most :data:`NEAR` folders above it. Reading tries the relative path first, so a project
folder that was moved or shared keeps working, and the absolute one second.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

from mtgui.io.inputs import describe_os_error

NEAR = 2
"""Files at most this many folders above the session's folder are stored relative too."""


def relative_path(path: Path, folder: Path) -> str | None:
    """``path`` relative to ``folder`` (with /), if it is in it or near it; else None."""
    try:
        relative = PurePath(os.path.relpath(path, folder))
    except ValueError:  # another drive (Windows)
        return None
    if relative.parts.count("..") > NEAR:
        return None
    return relative.as_posix()


def why_missing(path: Path) -> str | None:
    """None if ``path`` exists, else why it cannot be found, in a few words."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return describe_os_error(error).rstrip(".")
    except ValueError:  # a NUL character, or a name this system cannot encode
        return "not a valid file name"
    return None


def locate(absolute: str, relative: str | None, folder: Path) -> Path:
    """The relative path (from the session's folder) if it exists, else the stored one."""
    if relative is not None:
        near = Path(os.path.normpath(folder / relative))
        if why_missing(near) is None:
            return near
    stored = Path(absolute)
    return stored if stored.is_absolute() else Path(os.path.normpath(folder / stored))
