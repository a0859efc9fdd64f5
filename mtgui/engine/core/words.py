"""Counts in words for messages: "1 system", "2 systems" (never "1 systems")."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, the noun plural unless the number is 1 (``plural``, else the
    noun with an ``s``): ``counted(1, "system")`` is ``"1 system"``, ``counted(1200,
    "segment")`` is ``"1,200 segments"``, ``counted(2, "entry", "entries")`` is
    ``"2 entries"``."""
    word = noun if number == 1 else (plural or f"{noun}s")
    return f"{number:,} {word}"
