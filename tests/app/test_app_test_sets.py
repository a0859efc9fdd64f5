"""The project's test sets (:mod:`mtgui.app.test_sets`): names, the set shown as sets come and
go, and the name taken from the reference."""

from __future__ import annotations

from pathlib import Path

import mtgui.resources as mtgui_resources
import pytest

from mtgui.app.test_sets import StoredSet, TestSets, reference_name
from mtgui.engine.core import Role
from mtgui.io.entries import Entry
from mtgui.io.loader import load_file
from mtgui.io.workspace import Workspace


def _with_reference(name: str) -> Workspace:
    return Workspace().with_entry(Entry(Path("/data") / name, Role.REFERENCE))


def test_sets_are_added_named_removed_and_put_back_the_set_shown_kept():
    sets = TestSets()
    assert sets.names() == ["Test set 1"]
    assert sets.add() == 1 and sets.add("wiki") == 2
    assert sets.names() == ["Test set 1", "Test set 2", "wiki"]
    sets.take(2)
    removed = sets.remove(0)  # before the one shown: it stays shown
    assert sets.current == 1 and sets.shown().name == "wiki"
    sets.insert(0, removed)
    assert sets.current == 2 and sets.shown().name == "wiki"
    sets.remove(2)  # the one shown, the last: the one before is shown
    assert sets.current == 1
    sets.remove(1)
    with pytest.raises(ValueError, match="last test set"):
        sets.remove(0)
    assert sets.add() == 1 and sets.names()[1] == "Test set 2"  # a name no set has


def test_a_set_follows_its_reference_until_the_user_names_it():
    sets = TestSets()
    sets.add()
    assert sets.follow_reference(_with_reference("newstest2023.de-en.ref"))
    assert sets.shown().name == "newstest2023.de-en"
    sets.take(1)
    assert sets.follow_reference(_with_reference("newstest2023.de-en.ref"))
    assert sets.shown().name == "newstest2023.de-en (2)"  # two tabs, two names
    sets.rename(1, "  wiki ")
    assert not sets.follow_reference(_with_reference("other.ref"))
    assert sets.names() == ["newstest2023.de-en", "wiki"]
    sets.rename(1, "")
    assert sets.names()[1] == "Test set 2" and not sets.shown().named
    assert StoredSet("x", pending=[object()]).holds_files()  # type: ignore[list-item]


def test_a_set_is_named_after_the_test_set_its_reference_file_names():
    """SGML's setid (the demo's reference.sgm says "mtgui-demo"), not the file's name."""
    demo = Path(mtgui_resources.__file__).parent / "demo" / "reference.sgm"
    entry = Entry(demo, None, loaded=load_file(demo))
    assert reference_name(Workspace().with_entry(entry)) == "mtgui-demo"
    assert reference_name(_with_reference("newstest.en.txt")) == "newstest.en"
