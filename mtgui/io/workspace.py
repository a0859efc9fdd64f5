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
from mtgui.io.loader import detect_format, load_file, load_scores
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

    @property
    def ok(self) -> bool:
        """Whether the file could be read."""
        return self.problem is None


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


def needs_role(path: Path) -> bool:
    """Whether the user must say what a file is: plain text does not say it itself."""
    return _format_of(path) == PLAIN_TEXT


def guess_role(path: Path) -> Role:
    """A first guess for a plain-text file's role, from its name ('ref', 'src', ...)."""
    parts = {part.lower() for part in path.name.replace("-", ".").replace("_", ".").split(".")}
    if parts & {"ref", "refs", "reference", "references"}:
        return Role.REFERENCE
    if parts & {"src", "source"}:
        return Role.SOURCE
    return Role.SYSTEM


def read_entry(path: Path, role: Role | None) -> Entry:
    """Read one file into an entry; a problem becomes the entry's message, never an exception."""
    try:
        if role is Role.SCORES or (role is None and _format_of(path) == SCORES_TABLE):
            return Entry(path, Role.SCORES, scores=load_scores(path))
        return Entry(path, role, loaded=load_file(path, {role} if role else None))
    except InputError as error:
        return Entry(path, role, problem=error.message)


def iter_read(
    requests: Sequence[tuple[Path, Role | None]],
) -> Generator[tuple[int, int, Entry], None, list[Entry]]:
    """Read files one by one (for a worker thread), yielding (done, total, entry)."""
    entries = []
    for done, (path, role) in enumerate(requests, start=1):
        entry = read_entry(path, role)
        entries.append(entry)
        yield done, len(requests), entry
    return entries


def _format_of(path: Path) -> str | None:
    """A file's format from its content; None if it cannot be read (reading it again to load
    it reports the problem)."""
    try:
        return detect_format(read_text(path).text)
    except InputError:
        return None
