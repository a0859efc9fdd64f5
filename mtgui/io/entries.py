"""One file the user gave to the desktop application, read into an :class:`Entry`. No Qt.

An entry is the file read (its streams or its score table), the reason it could not be, or a
place held for a file still being read. :func:`read_entry` never raises: a problem becomes the
entry's message, in the window's words. :func:`iter_read` reads many, one by one, for a worker
thread (:class:`mtgui.app.file_loader.FileLoader`); the entries then go into a
:class:`~mtgui.io.workspace.Workspace`.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.core import InputError, Role
from mtgui.io.decode import AUTO, DecodedText, UndecodedError, read_text
from mtgui.io.docids import looks_like_docids
from mtgui.io.field_formats import refusal
from mtgui.io.loader import detect_format, load_decoded, scores_from_decoded
from mtgui.io.score_choices import ScoreOffer, score_offer, window_score_format
from mtgui.io.score_sources import ScoreSource, scores_from_source
from mtgui.io.scores import ScoreTable
from mtgui.io.streams import PLAIN_TEXT, SCORES_TABLE, LoadedFile
from mtgui.io.window_words import undecoded_message, window_message


@dataclass(frozen=True)
class Entry:
    """One file the user gave, and what became of it.

    A scores file gives one metric (``scores``) or several (``more_scores``: a table's other
    columns); ``sources`` are what the user said of it (columns, names, directions, system),
    kept even when it could not be read so that a session's missing file still names its
    metrics. ``offer`` is set, and nothing read, while the user has yet to say what to load.
    ``encoding`` is the one the user chose for the file (:data:`~mtgui.io.decode.AUTO`: none);
    ``encodings`` are those the window offers to read a file that did not decode with it.
    """

    path: Path
    role: Role | None  # what the user said (plain text), or None for self-describing files
    loaded: LoadedFile | None = None
    scores: ScoreTable | None = None
    problem: str | None = None
    asks_role: bool = False  # plain text read as its name suggests, not yet confirmed
    reading: bool = False  # a place held for a file that is being read
    more_scores: tuple[ScoreTable, ...] = ()
    sources: tuple[ScoreSource, ...] = ()
    offer: ScoreOffer | None = None  # a scores file to ask about before it is read
    encoding: str = AUTO  # the encoding the user chose (AUTO: the byte-order mark, else UTF-8)
    encodings: tuple[str, ...] = ()  # those that may read a file that did not decode

    @property
    def score_tables(self) -> tuple[ScoreTable, ...]:
        """Every metric's scores the file gave, in the order of its columns."""
        return () if self.scores is None else (self.scores, *self.more_scores)

    @property
    def asks(self) -> bool:
        """Whether the user must say something before the file can be listed."""
        return self.asks_role or self.offer is not None

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

    def system_numbers(self) -> list[int]:
        """The positions of the system streams among the file's streams."""
        if self.loaded is None:
            return []
        return [n for n, s in enumerate(self.loaded.streams) if s.role is Role.SYSTEM]

    def with_role(self, role: Role) -> Entry:
        """This plain-text entry as ``role`` (no need to read the file again)."""
        if self.loaded is None or self.loaded.origin.format != PLAIN_TEXT:
            raise ValueError(f"{self.path.name} is not plain text: it says its own role")
        streams = tuple(replace(s, role=role) for s in self.loaded.streams)
        loaded = replace(self.loaded, streams=streams)
        return replace(self, role=role, loaded=loaded, asks_role=False)


def placeholder(path: Path, role: Role | None, encoding: str = AUTO) -> Entry:
    """The entry of a file that is being read: listed in its place until it is read."""
    return Entry(path, role, reading=True, encoding=encoding)


def guess_role(path: Path) -> Role:
    """A first guess for a plain-text file's role, from its name ('ref', 'src', '.docids'...)."""
    if looks_like_docids(path):
        return Role.DOCUMENT_IDS
    parts = {part.lower() for part in path.name.replace("-", ".").replace("_", ".").split(".")}
    if parts & {"ref", "refs", "reference", "references"}:
        return Role.REFERENCE
    if parts & {"src", "source"}:
        return Role.SOURCE
    return Role.SYSTEM


def read_entry(
    path: Path,
    role: Role | None,
    score_column: str | None = None,
    sources: tuple[ScoreSource, ...] = (),
    encoding: str = AUTO,
) -> Entry:
    """Read one file into an entry; a problem becomes the entry's message, never an exception.

    The file is decoded once. Plain text read without a role does not say what it is: it
    comes back as what its name suggests, with ``asks_role`` set, for the user to confirm. A
    scores file is read as ``sources`` say (or as human scores of ``score_column``, as
    sessions of earlier versions say); without them, a plain table of human scores is read at
    once and any other comes back with its ``offer``, for the user to say what to load.
    A file without a byte-order mark is read in ``encoding``; one that does not decode comes
    back with the encodings that may read it, for the window to offer.
    """
    if score_column is not None and not sources:
        sources = (ScoreSource(path, score_column),)
    sources = tuple(replace(s, path=path) for s in sources)  # a new version of a file
    try:
        decoded = read_text(path, encoding)
    except UndecodedError as error:
        role = Role.SCORES if sources else role
        problem = undecoded_message(error)
        return Entry(
            path, role, problem=problem, sources=sources, encoding=encoding, encodings=error.choices
        )
    except InputError as error:
        role = Role.SCORES if sources else role
        return Entry(path, role, problem=window_message(error), sources=sources, encoding=encoding)
    entry = _read_decoded(decoded, path, role, sources)
    return entry if encoding == AUTO else replace(entry, encoding=encoding)


def _read_decoded(
    decoded: DecodedText, path: Path, role: Role | None, sources: tuple[ScoreSource, ...]
) -> Entry:
    """The entry of a file's text (see :func:`read_entry`)."""
    try:
        if sources:
            tables = tuple(scores_from_source(decoded, source) for source in sources)
            return Entry(
                path, Role.SCORES, scores=tables[0], more_scores=tables[1:], sources=sources
            )
        kind = detect_format(decoded.text)
        found = None
        if role in (None, Role.SCORES) and kind in (PLAIN_TEXT, SCORES_TABLE):
            found = window_score_format(decoded.text, path)
        refused = refusal(found, path) if found is not None else None
        if refused is not None:
            raise InputError(refused, path=path)
        if role is Role.SCORES or found is not None:
            offer = score_offer(decoded.text, path, found or SCORES_TABLE)
            if offer.asks:
                return Entry(path, Role.SCORES, offer=offer)
            return Entry(path, Role.SCORES, scores=scores_from_decoded(decoded, path))
        if role is None and kind == PLAIN_TEXT:
            loaded = load_decoded(decoded, path, {guess_role(path)})
            return Entry(path, None, loaded=loaded, asks_role=True)
        return Entry(path, role, loaded=load_decoded(decoded, path, {role} if role else None))
    except InputError as error:
        role = Role.SCORES if sources else role
        return Entry(path, role, problem=window_message(error), sources=sources)


@dataclass(frozen=True)
class LoadRequest:
    """A file to read: its role if the user gave one, and the entry it replaces if any."""

    path: Path
    role: Role | None = None
    replaces: Path | None = None
    score_column: str | None = None  # a scores table's human column (sessions of mtgui 0.1)
    sources: tuple[ScoreSource, ...] = ()  # what to load from a scores file, as the user said
    encoding: str = AUTO  # the encoding the user chose for the file

    def placeholder(self) -> Entry:
        """The entry listed for this file while it is read."""
        return placeholder(self.path, self.role, self.encoding)


def read_request(request: LoadRequest) -> Entry:
    """The entry of one file to read (see :func:`read_entry`)."""
    return read_entry(
        request.path, request.role, request.score_column, request.sources, request.encoding
    )


def iter_read(
    requests: Sequence[LoadRequest], stop: threading.Event | None = None
) -> Generator[tuple[int, int, Entry], None, list[Entry]]:
    """Read files one by one (for a worker thread), yielding (done, total, entry).

    Once ``stop`` is set, no further file is started: the entries read so far are returned
    (the window sets it when one file takes so long that the others go on without it).
    """
    entries = []
    for done, request in enumerate(requests, start=1):
        if stop is not None and stop.is_set():
            break
        entry = read_request(request)
        entries.append(entry)
        yield done, len(requests), entry
    return entries
