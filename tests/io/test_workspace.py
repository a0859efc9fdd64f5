"""The desktop app's workspace of loaded files (Qt-free): add, replace, remove, rename, hide."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.io.entries import LoadRequest, guess_role, iter_read, read_entry
from mtgui.io.folders import expand_paths
from mtgui.io.workspace import Workspace, describe_loaded

REF = '<refset><doc docid="d" sysid="ref"><seg id="1">a b</seg><seg id="2">c</seg></doc></refset>'


@pytest.fixture
def files(write):
    return {
        "ref": write("ref.sgm", REF),
        "a": write("sys.A.txt", "a b\nc\n"),
        "b": write("sys.B.txt", "a x\nc\n"),
        "scores": write("human.tsv", "system\tline\tscore\nA\t1\t0.5\n"),
        "bad": write("bad.sgm", "<tstset>\n<doc docid='d'>\n"),
    }


def workspace_with(files, *names, roles=None):
    requests = [LoadRequest(files[n], (roles or {}).get(n)) for n in names]
    workspace = Workspace()
    for entry in run_to_end(iter_read(requests)):
        workspace = workspace.with_entry(entry)
    return workspace


def test_entries_load_or_carry_their_problem(files):
    workspace = workspace_with(
        files, "ref", "a", "b", "scores", "bad", roles={"a": Role.SYSTEM, "b": Role.SYSTEM}
    )
    assert [e.ok for e in workspace.entries] == [True, True, True, True, False]
    assert "never closed" in workspace.entries[-1].problem
    assert workspace.entries[3].scores is not None  # the table was recognised by its header
    corpus = workspace.corpus()
    assert corpus.system_names == ("A", "B")
    assert corpus.scores_of("A") is not None


def test_replace_remove_rename_hide(files, write):
    workspace = workspace_with(files, "ref", "a", "b", roles={"a": Role.SYSTEM, "b": Role.SYSTEM})
    write("sys.A.txt", "a b\nc d\n")
    workspace = workspace.with_entry(read_entry(files["a"], Role.SYSTEM))  # a new version
    assert len(workspace.entries) == 3
    assert workspace.corpus().system("A").hypotheses == ("a b", "c d")
    renamed = workspace.renamed("B", "Beta")
    assert renamed.corpus().system_names == ("A", "Beta")
    hidden = renamed.with_hidden("A", True)
    assert hidden.corpus().system_names == ("Beta",)
    assert hidden.with_hidden("A", False).corpus().system_names == ("A", "Beta")
    with pytest.raises(InputError, match="every system is hidden"):
        hidden.with_hidden("Beta", True).corpus()
    with pytest.raises(InputError, match="no system output is loaded yet"):
        workspace.without(files["a"]).without(files["b"]).corpus()
    with pytest.raises(InputError, match="no reference translation is loaded"):
        workspace.without(files["ref"]).corpus()


def test_plain_text_without_a_role_is_read_once_as_guessed_and_asks(files, write, tmp_path):
    ref = write("newstest.ref.en", "a b\nc\n")
    guessed = read_entry(ref, None)
    assert guessed.asks_role and guessed.plain_role is Role.REFERENCE
    as_system = guessed.with_role(Role.SYSTEM)
    assert not as_system.asks_role
    assert (as_system.role, as_system.plain_role) == (Role.SYSTEM, Role.SYSTEM)
    assert as_system.loaded.streams[0].texts == ("a b", "c")
    sgml = read_entry(files["ref"], None)
    assert not sgml.asks_role and sgml.plain_role is None
    with pytest.raises(ValueError, match="says its own role"):
        sgml.with_role(Role.SYSTEM)
    assert read_entry(files["scores"], None).role is Role.SCORES
    assert guess_role(tmp_path / "newstest2021.de-en.ref.A.en") is Role.REFERENCE
    assert guess_role(tmp_path / "newstest2021.de-en.src.de") is Role.SOURCE
    assert guess_role(tmp_path / "newstest2021.de-en.Online-A.en") is Role.SYSTEM


def test_a_new_version_from_another_path_takes_the_old_ones_place(files, write):
    workspace = workspace_with(files, "ref", "a", "b", roles={"a": Role.SYSTEM, "b": Role.SYSTEM})
    newer = write("sys.A.v2.txt", "a b\nc d\n")
    replaced = workspace.replaced(files["a"], read_entry(newer, Role.SYSTEM))
    assert [e.path for e in replaced.entries] == [files["ref"], newer, files["b"]]
    # A version that was listed already is not listed twice.
    again = replaced.replaced(files["b"], read_entry(newer, Role.SYSTEM))
    assert [e.path for e in again.entries] == [files["ref"], newer]
    # Replacing a file that is gone adds the new one.
    assert len(workspace.replaced(files["bad"], read_entry(newer, Role.SYSTEM)).entries) == 4


def test_system_names_are_those_of_the_corpus_with_renames(files):
    workspace = workspace_with(files, "ref", "a", "b", roles={"a": Role.SYSTEM, "b": Role.SYSTEM})
    renamed = workspace.renamed("A", "Alpha")
    names = renamed.system_names()
    assert names == {(files["a"], 0): "Alpha", (files["b"], 0): "B"}
    assert tuple(names.values()) == renamed.corpus().system_names
    assert renamed.with_hidden("Alpha", True).corpus().system_names == ("B",)


def test_the_window_title_says_what_is_loaded_in_a_few_words(files, tmp_path):
    assert describe_loaded(Workspace()) == "mtgui"
    assert describe_loaded(Workspace(), session=tmp_path / "x.mtgui.json") == "x.mtgui.json — mtgui"
    workspace = workspace_with(files, "ref", "a", "b", roles={"a": Role.SYSTEM, "b": Role.SYSTEM})
    assert describe_loaded(workspace) == "2 systems, 1 reference — mtgui"
    hidden = workspace.with_hidden("B", True)
    assert describe_loaded(hidden, 2000) == "1 system, 1 reference, 2,000 segments — mtgui"
    named = describe_loaded(workspace, 2, tmp_path / "work.mtgui.json")
    assert named == "work.mtgui.json: 2 systems, 1 reference, 2 segments — mtgui"


def test_folders_stand_for_their_visible_files_in_name_order(tmp_path, write):
    """A dropped folder is read as `mtgui eval --hyp FOLDER` reads it (mtgui.io.folders)."""
    write("set/b.txt", "x")
    write("set/a/z.txt", "x")
    write("set/.hidden/y.txt", "x")
    write("set/.dotfile", "x")
    single = write("other.txt", "x")
    found = expand_paths([tmp_path / "set", single])
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["set/b.txt", "other.txt"]
    assert "1 subfolder (a)" in found.notes()[0]
