"""Names for systems and references: from the files, shortened, and as the user overrides them.

A stream's name is the ``sysid`` (SGML) or ``system``/``translator`` (XML) where the file gives
one; otherwise the file name without its last extension. When several names come from file
names, the dot-separated parts they all share at the start and at the end are dropped, so that
``newstest2014.en-de.KIT.de`` and ``newstest2014.en-de.UU.de`` become ``KIT`` and ``UU``. Only
the last extension is ever cut on its own, so ``Allegro.eu.txt`` stays ``Allegro.eu``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from mtgui.engine.core import InputError
from mtgui.io.streams import TextStream


def names_from_files(streams: Sequence[TextStream]) -> list[str]:
    """A name for every stream: its own, or one made from its file name."""
    stems = [PurePath(s.origin.path.replace("\\", "/")).stem for s in streams]
    nameless = [i for i, s in enumerate(streams) if not s.name]
    short = shorten([stems[i] for i in nameless]) if len(nameless) > 1 else None
    names = [s.name or stems[i] for i, s in enumerate(streams)]
    if short is not None:
        for i, name in zip(nameless, short, strict=True):
            names[i] = name
    return names


def shorten(stems: Sequence[str]) -> list[str]:
    """Drop the dot-separated parts that all ``stems`` share at the start and at the end.

    Each name keeps at least one part, and names that would become equal are left whole.
    """
    parts = [stem.split(".") for stem in stems]
    shortest = min(len(p) for p in parts)
    head = 0
    while head < shortest - 1 and len({p[head] for p in parts}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({p[-1 - tail] for p in parts}) == 1:
        tail += 1
    short = [".".join(p[head : len(p) - tail]) for p in parts]
    return short if len(set(short)) == len(short) else list(stems)


def apply_renames(names: Sequence[str], renames: Sequence[str]) -> list[str]:
    """Apply the user's names: all plain (in order) or all ``OLD=NEW``.

    Raises
    ------
    InputError
        If the number of plain names differs from the number of systems, or ``OLD`` is unknown.
    """
    result = list(names)
    if not renames:
        return result
    if all("=" in r for r in renames):
        for rename in renames:
            old, new = (part.strip() for part in rename.split("=", 1))
            if old not in result:
                raise InputError(
                    f"--name {rename}: there is no system called '{old}' (the systems are: "
                    f"{', '.join(result)})."
                )
            if not new:
                raise InputError(f"--name {rename}: the new name is empty.")
            result[result.index(old)] = new
        return result
    if any("=" in r for r in renames):
        raise InputError(
            "--name takes either plain names (one per system, in order) or OLD=NEW pairs, "
            "not a mix of both."
        )
    if len(renames) != len(result):
        names = "1 name was" if len(renames) == 1 else f"{len(renames)} names were"
        systems = "1 system is" if len(result) == 1 else f"{len(result)} systems are"
        raise InputError(
            f"{names} given with --name, but {systems} loaded ({', '.join(result)}).",
            hint="Give one name per system, in the order of the --hyp files, or use OLD=NEW.",
        )
    if any(not r.strip() for r in renames):
        raise InputError("--name: a system name cannot be empty.")
    return [r.strip() for r in renames]
