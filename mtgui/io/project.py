"""Project files: one ``.mtgui`` archive that holds a piece of work whole, to hand on. No Qt.

A session (:mod:`mtgui.io.session`) names files where they lie on one machine; a project holds
them. The archive is a zip file with:

- ``mtgui-project.json``: what it is (``{"mtgui_project": 1, "mtgui_version": ...}``);
- ``inputs/<digest>/<name>``: every input file by content, once each (``digest``: the first
  16 hex digits of its SHA-256), under its own name;
- ``session.mtgui.json``: the session (roles, score columns, renames, hidden systems, settings,
  the metric shown) naming the files by their place in the archive only, so that no path of
  the machine it was made on is needed (nor told) to open it;
- ``report.html`` and ``results.json``: the report to send and the numbers (as ``mtgui eval
  --json`` writes them), when there was a result; to read without mtgui. Opening a project
  runs the analysis again from the inputs and settings, which gives the same numbers.

Opening extracts the archive into a folder of its own under the user's data folder (the
caller asks before replacing one that holds another project) and opens its session. A project
may come from anyone, so the archive is checked before anything is written: a member with an
absolute path, a ``..`` or a drive in its path, a link, a duplicate name, too many members, or
sizes or compression ratios no project of text files has, are refused in words; the sizes are
checked again while extracting, since a zip's directory may lie. Every write is atomic: the
archive is written whole or not at all, and a project folder is extracted beside its place and
moved there in one step.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from mtgui._version import __version__
from mtgui.engine.core import InputError
from mtgui.io.session import SESSION_SUFFIX, Session, session_to_dict
from mtgui.io.session_files import MAX_SESSION_FILES
from mtgui.io.writers import check_writable, json_text, write_bytes_atomic

PROJECT_SUFFIX = ".mtgui"
PROJECT_VERSION = 1
MANIFEST = "mtgui-project.json"
SESSION_NAME = "session" + SESSION_SUFFIX
REPORT_NAME = "report.html"
RESULTS_NAME = "results.json"
INPUTS = "inputs"
MAX_MEMBERS = MAX_SESSION_FILES + 3
"""A project holds at most a session's files and its three own members."""
MAX_TOTAL_BYTES = 4 << 30
"""All members together, uncompressed: 4 GiB (WMT's largest test sets with 100 systems are a
fraction of this)."""
MAX_RATIO = 200
"""The largest compression ratio of a member over :data:`_RATIO_FROM` bytes: text compresses
5 to 20 times; a member that claims 1,000 is a bomb."""
_RATIO_FROM = 1 << 20
_CHUNK = 1 << 20
_SAFE_NAME = re.compile(r"[^\w.+-]+")


@dataclass(frozen=True)
class SavedProject:
    """What a saved project holds: its input files, and the files left out (missing)."""

    path: Path
    files: int
    left_out: tuple[str, ...] = ()


def is_project_file(path: Path) -> bool:
    """Whether ``path`` is named as a project (``*.mtgui``)."""
    return path.suffix.lower() == PROJECT_SUFFIX


# -- saving ---------------------------------------------------------------------------------


def project_bytes(
    session: Session, report_html: str | None = None, results_json: str | None = None
) -> tuple[bytes, tuple[str, ...]]:
    """The archive of ``session`` with its files' contents, and the names of the files left
    out because they could not be read (a file gone missing since it was loaded)."""
    root = Path(tempfile.gettempdir()) / "mtgui-project"  # where the names are relative to
    members: dict[str, bytes] = {}
    left_out: list[str] = []
    others = tuple(_archived(other, root, members, left_out) for other in session.test_sets)
    shown = replace(_archived(session, root, members, left_out), test_sets=others)
    # Names relative to the archive only: no path of this machine goes into the project.
    saved = session_to_dict(shown, root)
    for part in [saved, *saved.get("test_sets", [])]:
        for entry in part["files"]:
            entry["path"] = entry.pop("relative")
    manifest = {"mtgui_project": PROJECT_VERSION, "mtgui_version": __version__}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json_text(manifest))
        archive.writestr(SESSION_NAME, json_text(saved))
        for name, data in members.items():
            archive.writestr(name, data)
        if report_html is not None:
            archive.writestr(REPORT_NAME, report_html)
        if results_json is not None:
            archive.writestr(RESULTS_NAME, results_json)
    return buffer.getvalue(), tuple(left_out)


def _archived(
    session: Session, root: Path, members: dict[str, bytes], left_out: list[str]
) -> Session:
    """``session`` (one test set's part) with its files' paths in the archive; their contents
    put in ``members``, the names of those that cannot be read now in ``left_out``."""
    files = []
    for item in session.files:
        try:
            data = item.path.read_bytes()
        except OSError:
            left_out.append(item.path.name)
            continue
        name = f"{INPUTS}/{hashlib.sha256(data).hexdigest()[:16]}/{_safe(item.path.name)}"
        members[name] = data
        files.append(replace(item, path=root / name))
    return replace(session, files=tuple(files))


def write_project(
    path: Path,
    session: Session,
    report_html: str | None = None,
    results_json: str | None = None,
) -> SavedProject:
    """Write the project of ``session`` to ``path`` in one step (replacing it: the caller
    asked first); never over one of its own files.

    Raises
    ------
    InputError
        If ``path`` is one of the session's files, or cannot be written.
    """
    check_writable(path, overwrite=True, inputs=session.all_paths)
    data, left_out = project_bytes(session, report_html, results_json)
    write_bytes_atomic(path, data)
    return SavedProject(path, len(session.all_paths) - len(left_out), left_out)


def _safe(name: str) -> str:
    """A file name that is a plain name in any file system (the original's, mostly)."""
    cleaned = _SAFE_NAME.sub("_", name).strip("._") or "file"
    return cleaned[:120]


# -- opening --------------------------------------------------------------------------------


def check_archive(path: Path) -> list[zipfile.ZipInfo]:
    """The members of the project archive ``path``, every one checked (see the module).

    Raises
    ------
    InputError
        If it is not a zip file, not a project, or holds anything a project never holds.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(
            f"this is not an mtgui project (not a zip archive: {error}).", path=path
        ) from None
    if len(members) > MAX_MEMBERS:
        raise InputError(
            f"the project holds {len(members):,} files; a project holds at most "
            f"{MAX_MEMBERS:,}. It was not opened.",
            path=path,
        )
    seen: set[str] = set()
    total = 0
    for member in members:
        _check_member(member, path)
        key = member.filename.rstrip("/").casefold()
        if key in seen:
            raise InputError(
                f"the project holds '{member.filename}' twice: one would hide the other. "
                "It was not opened.",
                path=path,
            )
        seen.add(key)
        total += member.file_size
    if total > MAX_TOTAL_BYTES:
        raise InputError(
            f"the project would take {total / (1 << 30):.1f} GiB once extracted; a project "
            f"holds at most {MAX_TOTAL_BYTES >> 30} GiB. It was not opened.",
            path=path,
        )
    names = {m.filename for m in members}
    if MANIFEST not in names or SESSION_NAME not in names:
        raise InputError(
            f"this is not an mtgui project (it has no {MANIFEST} or no {SESSION_NAME}).",
            path=path,
        )
    return members


def _check_member(member: zipfile.ZipInfo, path: Path) -> None:
    """Refuse a member whose name leaves the project's folder, a link, or a bomb."""
    name = member.filename
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if (
        name.startswith(("/", "\\"))
        or re.match(r"^[A-Za-z]:", name)
        or ".." in parts
        or "\x00" in name
    ):
        raise InputError(
            f"the project holds a file named '{name}', which would be written outside its "
            "folder. It was not opened.",
            path=path,
        )
    mode = member.external_attr >> 16
    if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):  # a link, a device...
        raise InputError(
            f"the project holds '{name}', which is a link or a special file, not a file. "
            "It was not opened.",
            path=path,
        )
    size, packed = member.file_size, max(member.compress_size, 1)
    if size > _RATIO_FROM and size / packed > MAX_RATIO:
        raise InputError(
            f"the project's file '{name}' would grow {size / packed:,.0f} times when "
            f"extracted (text grows at most about 20 times). It was not opened.",
            path=path,
        )


def project_folder(path: Path, projects: Path) -> Path:
    """The folder a project file opens into: its name, under ``projects``."""
    return projects / _safe(path.name.removesuffix(path.suffix) or "project")


def extract_project(path: Path, projects: Path, may_replace: Callable[[Path], bool]) -> Path | None:
    """Extract the project ``path`` into its folder under ``projects`` and return its session
    file; None if the folder holds another project and ``may_replace(folder)`` says no.

    A folder that already holds this very archive's content is used as it is.

    Raises
    ------
    InputError
        If the archive is refused (:func:`check_archive`) or cannot be extracted.
    """
    members = check_archive(path)
    folder = project_folder(path, projects)
    stamp = _stamp(path)
    if folder.exists():
        if (folder / ".mtgui-archive").is_file() and _read(folder / ".mtgui-archive") == stamp:
            return folder / SESSION_NAME
        if not may_replace(folder):
            return None
    projects.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=projects))
    try:
        _extract(path, members, staging)
        (staging / ".mtgui-archive").write_text(stamp, encoding="utf-8")
        _swap(staging, folder)
    except OSError as error:
        raise InputError(
            f"the project could not be extracted into {folder}: {error.strerror or error}.",
            path=path,
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder / SESSION_NAME


def _extract(path: Path, members: list[zipfile.ZipInfo], target: Path) -> None:
    """Write every member under ``target``, never more bytes than it declared."""
    with zipfile.ZipFile(path) as archive:
        for member in members:
            out = target.joinpath(*PurePosixPath(member.filename).parts)
            if member.is_dir():
                out.mkdir(parents=True, exist_ok=True)
                continue
            out.parent.mkdir(parents=True, exist_ok=True)
            written = 0
            with archive.open(member) as source, out.open("wb") as sink:
                while chunk := source.read(_CHUNK):
                    written += len(chunk)
                    if written > member.file_size:
                        raise InputError(
                            f"the project's file '{member.filename}' is larger than the "
                            "archive says. It was not opened.",
                            path=path,
                        )
                    sink.write(chunk)


def _swap(staging: Path, folder: Path) -> None:
    """Put the extracted ``staging`` in ``folder``'s place; the old folder goes only once
    the new one is there."""
    old = None
    if folder.exists():
        old = folder.with_name(f".{folder.name}-old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        folder.rename(old)
    staging.rename(folder)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _stamp(path: Path) -> str:
    """What identifies an archive's content: the SHA-256 of its bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return ""
