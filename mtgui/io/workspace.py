"""What the desktop application has loaded: files, their roles, their problems. No Qt.

A :class:`Workspace` is an immutable list of entries (:class:`~mtgui.io.entries.Entry`), one
per file the user gave: the file read (its streams or its score table), the reason it could not
be, or a place held for a file still being read. ``corpus()`` assembles whatever loaded into a
:class:`~mtgui.engine.core.corpus.Corpus`, or explains what is missing. Adding, replacing and
removing files return new workspaces, so a worker thread can read one while the window builds
the next; adding many files at once takes time in proportion to their number.

Every system stream has an identity of its own, its :data:`SystemKey`: the file it is in and
its position among the file's streams. Renames and hidden flags are kept by that identity, not
by name, so renaming one of two systems that share a name renames that one only, and removing
a file forgets what was said about its systems. Sessions store them by name (``renames`` and
``hidden``); a workspace made from a session keeps those as requests (``asked_renames``,
``asked_hidden``) until a system of that name is loaded, and then binds them to its identity.

:func:`describe_loaded` says in a window title what is loaded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from mtgui.engine.core import Corpus, InputError, Role
from mtgui.io.assemble import assemble
from mtgui.io.entries import Entry
from mtgui.io.naming import names_from_files
from mtgui.io.streams import TextStream

SystemKey = tuple[Path, int]
"""A system stream's identity: its file, and its position among the file's streams."""


@dataclass(frozen=True)
class Workspace:
    """The files of one session, in the order they were given, and what the user said of their
    systems: new names and hidden systems by identity, and by name what a session asks for."""

    entries: tuple[Entry, ...] = ()
    renamed_systems: Mapping[SystemKey, str] = field(default_factory=dict, hash=False)
    hidden_systems: frozenset[SystemKey] = frozenset()
    asked_renames: tuple[tuple[str, str], ...] = ()  # [old, new] from a session, not yet loaded
    asked_hidden: frozenset[str] = frozenset()  # hidden names from a session, not yet loaded

    @classmethod
    def from_names(
        cls, renames: Iterable[tuple[str, str]] = (), hidden: Iterable[str] = ()
    ) -> Workspace:
        """An empty workspace that renames and hides systems by name as they are loaded.

        ``renames`` are [old, new] pairs as sessions store them (in order: a pair may rename
        what an earlier one named), ``hidden`` the names of hidden systems.
        """
        return cls(asked_renames=tuple(renames), asked_hidden=frozenset(hidden))

    # -- files ------------------------------------------------------------------------------

    def with_entry(self, entry: Entry) -> Workspace:
        """A workspace with ``entry`` added, or in the place of the entry of the same path."""
        return self.with_entries([entry])

    def with_entries(self, entries: Iterable[Entry]) -> Workspace:
        """A workspace with ``entries`` added, each in the place of the entry of its path if
        there is one (a file read again). Takes time in proportion to the number of files."""
        places = {e.path: number for number, e in enumerate(self.entries)}
        listed = list(self.entries)
        for entry in entries:
            place = places.get(entry.path)
            if place is None:
                places[entry.path] = len(listed)
                listed.append(entry)
            else:
                listed[place] = entry
        return replace(self, entries=tuple(listed))._kept()._bound()

    def replaced(self, old: Path, entry: Entry) -> Workspace:
        """A workspace where ``entry`` (a new version of a file) takes the place of ``old``.

        The systems of the new version keep the names and hidden flags of the old one's
        systems at the same positions.
        """
        if not any(e.path == old for e in self.entries):
            return self.with_entry(entry)
        kept = [e for e in self.entries if e.path != entry.path or e.path == old]
        entries = tuple(entry if e.path == old else e for e in kept)

        def moved(key: SystemKey) -> SystemKey | None:
            if key[0] == old:
                return entry.path, key[1]
            return None if key[0] == entry.path else key

        names = {
            key: name
            for key, name in ((moved(k), n) for k, n in self.renamed_systems.items())
            if key is not None
        }
        hidden = frozenset(k for k in map(moved, self.hidden_systems) if k is not None)
        workspace = replace(self, entries=entries, renamed_systems=names, hidden_systems=hidden)
        return workspace._kept()._bound()

    def without(self, path: Path) -> Workspace:
        """A workspace without the file at ``path``, and without what was said of its systems."""
        return replace(
            self,
            entries=tuple(e for e in self.entries if e.path != path),
            renamed_systems={k: n for k, n in self.renamed_systems.items() if k[0] != path},
            hidden_systems=frozenset(k for k in self.hidden_systems if k[0] != path),
        )

    # -- systems ----------------------------------------------------------------------------

    def system_keys(self) -> list[SystemKey]:
        """The identities of the system streams loaded, in load order."""
        return [(e.path, number) for e in self.entries for number in e.system_numbers()]

    def _base_names(self) -> tuple[list[SystemKey], list[str]]:
        """The system streams' identities and the names their files give them (no renames)."""
        found: list[tuple[SystemKey, TextStream]] = [
            ((entry.path, number), entry.loaded.streams[number])
            for entry in self.entries
            if entry.loaded is not None
            for number in entry.system_numbers()
        ]
        return [key for key, _ in found], names_from_files([stream for _, stream in found])

    def system_names(self) -> dict[SystemKey, str]:
        """The name each system stream goes by, keyed by its identity, renames applied.

        The same names as :meth:`corpus` gives them (plain-text systems are named after their
        files), so the files panel can show, rename and hide plain-text systems too.
        """
        keys, names = self._base_names()
        renamed = self.renamed_systems
        return {key: renamed.get(key, name) for key, name in zip(keys, names, strict=True)}

    def scored_systems(self) -> list[tuple[str, str, Path]]:
        """Each system as a scores file names it: (the name shown, the name a scores file
        gives it, its file). A scores file names systems as their files do and its scores
        follow renames (:meth:`corpus`); where two files give one name, by the name shown."""
        keys, base = self._base_names()
        shown = [self.renamed_systems.get(key, name) for key, name in zip(keys, base, strict=True)]
        used = base if len(set(base)) == len(base) else shown
        return list(zip(shown, used, [key[0] for key in keys], strict=True))

    @property
    def renames(self) -> tuple[tuple[str, str], ...]:
        """The renames by name, as sessions store them: (the name in the file, the new name).

        In load order, so that read back (:meth:`from_names`) each pair names the same system
        again; where files give two systems one name, each of them has a pair, renamed or not.
        """
        keys, names = self._base_names()
        shared = {name for name, count in Counter(names).items() if count > 1}
        done = tuple(
            (name, self.renamed_systems.get(key, name))
            for key, name in zip(keys, names, strict=True)
            if self.renamed_systems.get(key, name) != name or name in shared
        )
        return done + self.asked_renames

    @property
    def hidden(self) -> frozenset[str]:
        """The names of the hidden systems, as sessions store them."""
        names = self.system_names()
        shown = frozenset(names[key] for key in self.hidden_systems if key in names)
        return shown | self.asked_hidden

    def rename_problem(self, key: SystemKey, new: str) -> str | None:
        """Why system ``key`` cannot be called ``new`` (in words for the user), or None."""
        new = new.strip()
        if not new:
            return "A system needs a name: this one is empty."
        names = self.system_names()
        if key not in names:
            return "This system is no longer loaded."
        other = next((k for k, name in names.items() if name == new and k != key), None)
        if other is not None:
            return (
                f"'{new}' is already the name of another system (in {other[0].name}), and "
                "mtgui never merges two systems. Choose a name no other system has."
            )
        return None

    def renamed_system(self, key: SystemKey, new: str) -> Workspace:
        """A workspace where system ``key`` is called ``new``.

        Raises
        ------
        InputError
            If ``new`` is empty or another system has that name (:meth:`rename_problem`).
        """
        problem = self.rename_problem(key, new)
        if problem is not None:
            raise InputError(problem)
        return replace(self, renamed_systems={**self.renamed_systems, key: new.strip()})

    def renamed(self, old: str, new: str) -> Workspace:
        """A workspace where the system called ``old`` (the first, in load order) is called
        ``new``; if none is loaded, the first system of that name to be loaded will be."""
        key = next((k for k, name in self.system_names().items() if name == old), None)
        if key is None:
            return replace(self, asked_renames=(*self.asked_renames, (old, new)))
        return self.renamed_system(key, new)

    def with_system_hidden(self, key: SystemKey, hidden: bool) -> Workspace:
        """A workspace where system ``key`` is left out of the analysis (or not)."""
        keys = self.hidden_systems | {key} if hidden else self.hidden_systems - {key}
        return replace(self, hidden_systems=keys)

    def with_hidden(self, system: str, hidden: bool) -> Workspace:
        """A workspace where the systems called ``system`` are left out of the analysis (or
        not); if none is loaded, they will be when they are."""
        keys = [k for k, name in self.system_names().items() if name == system]
        if not keys:
            names = self.asked_hidden | {system} if hidden else self.asked_hidden - {system}
            return replace(self, asked_hidden=names)
        workspace = self
        for key in keys:
            workspace = workspace.with_system_hidden(key, hidden)
        return workspace

    def _kept(self) -> Workspace:
        """Forget names and hidden flags of systems whose files are gone or that are no
        longer systems (a file read again may differ); files not read (yet) keep theirs."""
        systems: dict[Path, set[int] | None] = {
            e.path: (set(e.system_numbers()) if e.loaded is not None else None)
            for e in self.entries
        }

        def keep(key: SystemKey) -> bool:
            if key[0] not in systems:
                return False
            numbers = systems[key[0]]
            return numbers is None or key[1] in numbers

        names = {k: n for k, n in self.renamed_systems.items() if keep(k)}
        hidden = frozenset(k for k in self.hidden_systems if keep(k))
        if len(names) == len(self.renamed_systems) and hidden == self.hidden_systems:
            return self
        return replace(self, renamed_systems=names, hidden_systems=hidden)

    def _bound(self) -> Workspace:
        """The asked renames and hidden names bound to the systems now loaded that match.

        A pair [old, new] renames the first system, in load order, whose file calls it
        ``old`` and that has no new name yet; failing that, the first system renamed ``old``
        (a pair may rename what an earlier pair named). Pairs and names that match nothing
        wait for more files.
        """
        if not self.asked_renames and not self.asked_hidden:
            return self
        keys, base = self._base_names()
        names = dict(self.renamed_systems)
        unnamed: dict[str, list[SystemKey]] = {}  # by the name in the file
        renamed: dict[str, list[SystemKey]] = {}  # by a new name, other than the file's
        for key, name in zip(keys, base, strict=True):
            if key not in names:
                unnamed.setdefault(name, []).append(key)
            elif names[key] != name:
                renamed.setdefault(names[key], []).append(key)
        bases = dict(zip(keys, base, strict=True))
        waiting = []
        for old, new in self.asked_renames:
            found = unnamed.get(old) or renamed.get(old)
            if not found:
                waiting.append((old, new))
                continue
            key, new = found.pop(0), new.strip()
            if new:  # an empty name (a hand-edited session) is ignored
                names[key] = new
            if names.get(key, old) != bases[key]:
                renamed.setdefault(names[key], []).append(key)
        current: dict[str, list[SystemKey]] = {}
        for key, name in zip(keys, base, strict=True):
            current.setdefault(names.get(key, name), []).append(key)
        hidden = set(self.hidden_systems)
        for name in self.asked_hidden:
            hidden.update(current.get(name, ()))
        return replace(
            self,
            renamed_systems=names,
            hidden_systems=frozenset(hidden),
            asked_renames=tuple(waiting),
            asked_hidden=frozenset(n for n in self.asked_hidden if n not in current),
        )

    # -- the analysis -----------------------------------------------------------------------

    def corpus(self) -> Corpus:
        """Everything that loaded, assembled; renames applied, hidden systems left out.

        Raises
        ------
        InputError
            If there is no reference or no system yet, or the files do not fit together.
        """
        files = [e.loaded for e in self.entries if e.loaded is not None]
        tables = [table for e in self.entries for table in e.score_tables]
        keys, base = self._base_names()
        final = [self.renamed_systems.get(key, name) for key, name in zip(keys, base, strict=True)]
        if len(set(base)) == len(base):
            # Score tables name the systems as their files do; their scores follow a rename.
            corpus = _with_names(assemble(files, tables), dict(zip(base, final, strict=True)))
        else:  # two files give one name: the user's names tell them apart (or the error says)
            corpus = assemble(files, tables, renames=final)
        if not corpus.systems:
            raise InputError("no system output is loaded yet.", hint="Add a system's output.")
        hidden = {final[i] for i, key in enumerate(keys) if key in self.hidden_systems}
        visible = tuple(s for s in corpus.systems if s.name not in hidden)
        scores = tuple(s for s in corpus.scores if s.system not in hidden)
        if not visible:
            raise InputError("every system is hidden.", hint="Show at least one system.")
        return replace(corpus, systems=visible, scores=scores)


def _with_names(corpus: Corpus, names: Mapping[str, str]) -> Corpus:
    """``corpus`` with its systems (and their scores) renamed all at once, old name -> new."""
    if all(old == new for old, new in names.items()):
        return corpus
    systems = tuple(s.renamed(names.get(s.name, s.name)) for s in corpus.systems)
    scores = tuple(s.renamed(names.get(s.system, s.system)) for s in corpus.scores)
    return replace(corpus, systems=systems, scores=scores)


def describe_loaded(
    workspace: Workspace, segments: int | None = None, session: Path | None = None
) -> str:
    """A window title: the session's name and what is loaded in a few words, then 'mtgui'.

    For example '4 systems, 2 references, 95 segments — mtgui' (the segments once known).
    """
    streams = [s for e in workspace.entries if e.loaded is not None for s in e.loaded.streams]
    parts = []
    if streams:
        keys = workspace.system_keys()
        systems = sum(key not in workspace.hidden_systems for key in keys)
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
