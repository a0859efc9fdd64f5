"""What the desktop application has loaded: files, their roles, their problems. No Qt.

A :class:`Workspace` is an immutable list of entries, one per file the user gave: the file
read (its streams or its score table), or the reason it could not be. ``corpus()`` assembles
whatever loaded into a :class:`~mtgui.engine.corpus.Corpus`, or explains what is missing.
Adding, replacing and removing files return new workspaces, so a worker thread can read one
while the window builds the next.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from mtgui.engine.corpus import Corpus, Role
from mtgui.engine.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.decode import read_text
from mtgui.io.loader import detect_format, load_decoded, scores_from_decoded
from mtgui.io.naming import names_from_files
from mtgui.io.scores import ScoreTable
from mtgui.io.streams import PLAIN_TEXT, SCORES_TABLE, LoadedFile


@dataclass(frozen=True)
class Entry:
    """One file the user gave, and what became of it."""

    path: Path
    role: Role | None  # what the user said (plain text), or None for self-describing files
    loaded: LoadedFile | None = None
    scores: ScoreTable | None = None
    problem: str | None = None
    asks_role: bool = False  # plain text read as its name suggests, not yet confirmed

    @property
    def ok(self) -> bool:
        """Whether the file could be read."""
        return self.problem is None

    @property
    def plain_role(self) -> Role | None:
        """The role of a plain-text file's single stream (None for other files)."""
        if self.loaded is None or self.loaded.origin.format != PLAIN_TEXT:
            return None
        return self.loaded.streams[0].role

    def with_role(self, role: Role) -> Entry:
        """This plain-text entry as ``role`` (no need to read the file again)."""
        if self.loaded is None or self.loaded.origin.format != PLAIN_TEXT:
            raise ValueError(f"{self.path.name} is not plain text: it says its own role")
        streams = tuple(replace(s, role=role) for s in self.loaded.streams)
        loaded = replace(self.loaded, streams=streams)
        return replace(self, role=role, loaded=loaded, asks_role=False)


@dataclass(frozen=True)
class Workspace:
    """The files of one session, in the order they were given."""

    entries: tuple[Entry, ...] = ()
    renames: tuple[tuple[str, str], ...] = field(default=())
    hidden: frozenset[str] = frozenset()

    def with_entry(self, entry: Entry) -> Workspace:
        """A workspace with ``entry`` added, or in the place of the entry of the same path."""
        if any(e.path == entry.path for e in self.entries):
            entries = tuple(entry if e.path == entry.path else e for e in self.entries)
            return replace(self, entries=entries)
        return replace(self, entries=(*self.entries, entry))

    def replaced(self, old: Path, entry: Entry) -> Workspace:
        """A workspace where ``entry`` (a new version of a file) takes the place of ``old``."""
        if not any(e.path == old for e in self.entries):
            return self.with_entry(entry)
        kept = [e for e in self.entries if e.path != entry.path or e.path == old]
        return replace(self, entries=tuple(entry if e.path == old else e for e in kept))

    def without(self, path: Path) -> Workspace:
        """A workspace without the file at ``path``."""
        return replace(self, entries=tuple(e for e in self.entries if e.path != path))

    def renamed(self, old: str, new: str) -> Workspace:
        """A workspace where system ``old`` is called ``new``."""
        return replace(self, renames=(*self.renames, (old, new)))

    def with_hidden(self, system: str, hidden: bool) -> Workspace:
        """A workspace where ``system`` is left out of the analysis (or not)."""
        names = set(self.hidden)
        (names.add if hidden else names.discard)(system)
        return replace(self, hidden=frozenset(names))

    def system_names(self) -> dict[tuple[Path, int], str]:
        """The name each system stream goes by, keyed by (file, stream number), renames applied.

        The same names as :meth:`corpus` gives them (plain-text systems are named after their
        files), so the files panel can show, rename and hide plain-text systems too.
        """
        found = [
            (entry.path, number, stream)
            for entry in self.entries
            if entry.loaded is not None
            for number, stream in enumerate(entry.loaded.streams)
            if stream.role is Role.SYSTEM
        ]
        names = names_from_files([stream for _, _, stream in found])
        for old, new in self.renames:
            names = [new if name == old else name for name in names]
        return {(path, number): name for (path, number, _), name in zip(found, names, strict=True)}

    def corpus(self) -> Corpus:
        """Everything that loaded, assembled; renames applied, hidden systems left out.

        Raises
        ------
        InputError
            If there is no reference or no system yet, or the files do not fit together.
        """
        files = [e.loaded for e in self.entries if e.loaded is not None]
        tables = [e.scores for e in self.entries if e.scores is not None]
        corpus = assemble(files, tables)
        for old, new in self.renames:
            if old in corpus.system_names:
                corpus = corpus.with_system_renamed(old, new)
        if not corpus.systems:
            raise InputError("no system output is loaded yet.", hint="Add a system's output.")
        visible = tuple(s for s in corpus.systems if s.name not in self.hidden)
        scores = tuple(s for s in corpus.scores if s.system not in self.hidden)
        if not visible:
            raise InputError("every system is hidden.", hint="Show at least one system.")
        return replace(corpus, systems=visible, scores=scores)


def guess_role(path: Path) -> Role:
    """A first guess for a plain-text file's role, from its name ('ref', 'src', ...)."""
    parts = {part.lower() for part in path.name.replace("-", ".").replace("_", ".").split(".")}
    if parts & {"ref", "refs", "reference", "references"}:
        return Role.REFERENCE
    if parts & {"src", "source"}:
        return Role.SOURCE
    return Role.SYSTEM


def read_entry(path: Path, role: Role | None) -> Entry:
    """Read one file into an entry; a problem becomes the entry's message, never an exception.

    The file is decoded once. Plain text read without a role does not say what it is: it
    comes back as what its name suggests, with ``asks_role`` set, for the user to confirm.
    """
    try:
        decoded = read_text(path)
        kind = detect_format(decoded.text)
        if role is Role.SCORES or (role is None and kind == SCORES_TABLE):
            return Entry(path, Role.SCORES, scores=scores_from_decoded(decoded, path))
        if role is None and kind == PLAIN_TEXT:
            loaded = load_decoded(decoded, path, {guess_role(path)})
            return Entry(path, None, loaded=loaded, asks_role=True)
        return Entry(path, role, loaded=load_decoded(decoded, path, {role} if role else None))
    except InputError as error:
        return Entry(path, role, problem=error.message)


@dataclass(frozen=True)
class LoadRequest:
    """A file to read: its role if the user gave one, and the entry it replaces if any."""

    path: Path
    role: Role | None = None
    replaces: Path | None = None


def iter_read(
    requests: Sequence[LoadRequest],
) -> Generator[tuple[int, int, Entry], None, list[Entry]]:
    """Read files one by one (for a worker thread), yielding (done, total, entry)."""
    entries = []
    for done, request in enumerate(requests, start=1):
        entry = read_entry(request.path, request.role)
        entries.append(entry)
        yield done, len(requests), entry
    return entries


def describe_loaded(
    workspace: Workspace, segments: int | None = None, session: Path | None = None
) -> str:
    """A window title: the session's name and what is loaded in a few words, then 'mtgui'.

    For example '4 systems, 2 references, 95 segments — mtgui' (the segments once known).
    """
    streams = [s for e in workspace.entries if e.loaded is not None for s in e.loaded.streams]
    parts = []
    if streams:
        systems = len(set(workspace.system_names().values()) - workspace.hidden)
        references = sum(stream.role is Role.REFERENCE for stream in streams)
        parts = [_count(systems, "system"), _count(references, "reference")]
        if segments is not None:
            parts.append(_count(segments, "segment"))
    what = ", ".join(parts)
    if session is not None:
        what = f"{session.name}: {what}" if what else session.name
    return f"{what} — mtgui" if what else "mtgui"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def expand_folders(paths: Sequence[Path]) -> list[Path]:
    """Folders replaced by the visible files in them (recursively), in name order."""
    result: list[Path] = []
    for path in paths:
        if path.is_dir():
            result += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and not any(part.startswith(".") for part in p.parts)
            )
        else:
            result.append(path)
    return result
