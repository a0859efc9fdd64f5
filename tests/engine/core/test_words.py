"""Counts in words: "1 system", never "1 systems"."""

from __future__ import annotations

from mtgui.engine.core import counted


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "system") == "1 system"
    assert [counted(n, "segment") for n in (0, 2, 1200)] == [
        "0 segments",
        "2 segments",
        "1,200 segments",
    ]
    assert (counted(1, "entry", "entries"), counted(3, "entry", "entries")) == (
        "1 entry",
        "3 entries",
    )
