"""The desktop app's workspace of loaded files (Qt-free): add, replace, remove, rename, hide."""

from __future__ import annotations

import pytest

from mtgui.engine.corpus import Role
from mtgui.engine.errors import InputError
from mtgui.engine.running import run_to_end
from mtgui.io.workspace import Workspace, guess_role, iter_read, needs_role, read_entry

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
    requests = [(files[n], (roles or {}).get(n)) for n in names]
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


def test_roles_of_plain_text_are_asked_and_guessed(files, tmp_path):
    assert needs_role(files["a"]) and not needs_role(files["ref"])
    assert not needs_role(files["scores"])
    assert guess_role(tmp_path / "newstest2021.de-en.ref.A.en") is Role.REFERENCE
    assert guess_role(tmp_path / "newstest2021.de-en.src.de") is Role.SOURCE
    assert guess_role(tmp_path / "newstest2021.de-en.Online-A.en") is Role.SYSTEM
