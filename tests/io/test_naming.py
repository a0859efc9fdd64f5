"""System and reference names: from the files, shortened, overridden, never merged."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.naming import apply_renames, shorten


@pytest.mark.parametrize(
    ("stems", "expected"),
    [
        (["newstest2014.en-de.KIT", "newstest2014.en-de.UU"], ["KIT", "UU"]),
        (["nt.is-en.Allegro.eu", "nt.is-en.Facebook-AI"], ["Allegro.eu", "Facebook-AI"]),
        (["out.A.de-en", "out.B.de-en"], ["A", "B"]),
        (["sysA", "sysB"], ["sysA", "sysB"]),
        (["x.a", "x.b.a"], ["a", "b.a"]),  # each keeps at least one part
        (["a.x", "a.x.x"], ["x", "x.x"]),
    ],
)
def test_shorten_drops_shared_dotted_parts(stems, expected):
    assert shorten(stems) == expected


def test_names_come_from_sysid_else_from_the_file_name(write):
    ref = load_file(write("ref.txt", "a\n"), {Role.REFERENCE})
    files = [
        ref,
        load_file(write("run.de-en.Alpha.en", "a\n"), {Role.SYSTEM}),
        load_file(write("run.de-en.Beta.v2.en", "a\n"), {Role.SYSTEM}),
        load_file(
            write(
                "whatever.sgm",
                '<tstset><doc docid="d" sysid="G.7"><seg id="1">a</seg></doc></tstset>',
            ),
            {Role.SYSTEM},
        ),
    ]
    corpus = assemble(files)
    assert corpus.system_names == ("Alpha", "Beta.v2", "G.7")
    assert corpus.test_set.references[0].name == "ref"


def test_one_file_named_system_keeps_its_whole_stem(write):
    files = [
        load_file(write("ref.txt", "a\n"), {Role.REFERENCE}),
        load_file(write("newstest2021.is-en.Allegro.eu.en", "a\n"), {Role.SYSTEM}),
    ]
    assert assemble(files).system_names == ("newstest2021.is-en.Allegro.eu",)


def test_two_systems_with_one_name_are_an_error_not_a_merge(write):
    files = [
        load_file(write("ref.txt", "a\n"), {Role.REFERENCE}),
        load_file(write("a/sys.txt", "a\n"), {Role.SYSTEM}),
        load_file(write("b/sys.txt", "b\n"), {Role.SYSTEM}),
    ]
    with pytest.raises(InputError) as caught:
        assemble(files)
    assert "two systems are both named 'sys' (from sys.txt and from sys.txt)" in str(caught.value)
    corpus = assemble(files, renames=["first", "second"])
    assert corpus.system_names == ("first", "second")


def test_same_sgml_system_loaded_twice_is_an_error(write):
    text = '<tstset><doc docid="d" sysid="S"><seg id="1">a</seg></doc></tstset>'
    ref = load_file(write("ref.txt", "a\n"), {Role.REFERENCE})
    first = load_file(write("s1.sgm", text), {Role.SYSTEM})
    with pytest.raises(InputError, match="two systems are both named 'S'"):
        assemble([ref, first, first])


def test_references_with_one_name_are_numbered(write):
    text = '<refset><doc docid="d" sysid="ref"><seg id="1">{}</seg></doc></refset>'
    files = [
        load_file(write("r1.sgm", text.format("a")), {Role.REFERENCE}),
        load_file(write("r2.sgm", text.format("b")), {Role.REFERENCE}),
        load_file(write("s.txt", "a\n"), {Role.SYSTEM}),
    ]
    assert [r.name for r in assemble(files).test_set.references] == ["ref", "ref#2"]


def test_renames_in_order_or_old_equals_new():
    assert apply_renames(["a", "b"], ["X", "Y"]) == ["X", "Y"]
    assert apply_renames(["a", "b"], ["b=Beta"]) == ["a", "Beta"]
    assert apply_renames(["a", "b"], []) == ["a", "b"]


@pytest.mark.parametrize(
    ("renames", "words"),
    [
        (["X"], "1 name was given with --name, but 2 systems are loaded (a, b)"),
        (["c=X"], "there is no system called 'c'"),
        (["a=X", "Y"], "not a mix of both"),
        (["a= "], "the new name is empty"),
        (["X", " "], "cannot be empty"),
    ],
)
def test_bad_renames_are_explained(renames, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        apply_renames(["a", "b"], renames)
