"""The NIST SGML reader on small hand-made files with every quirk of real WMT SGML."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.loader import load_file

REFSET = """<refset setid="demo" srclang="any" trglang="de">
<doc sysid="ref" docid="d1" genre="news">
<seg id="1">Standard & Poor's sagt &quot;ja&quot;</seg>
<seg id="2">Zweiter   Satz.</seg>
</doc>
<doc sysid="ref" docid="d2">
<seg id="1">Nur einer.</seg>
</doc>
</refset>
"""


def test_reads_refset_keeping_entities_and_raw_ampersands(write):
    loaded = load_file(write("ref.sgm", REFSET), {Role.REFERENCE})
    (stream,) = loaded.streams
    assert stream.role is Role.REFERENCE
    assert stream.name == "ref"
    assert stream.doc_ids == ("d1", "d1", "d2")
    assert stream.seg_ids == ("1", "2", "1")
    # Entities are left for the tokenizer, as mteval does; whitespace runs collapse.
    assert stream.texts == ("Standard & Poor's sagt &quot;ja&quot;", "Zweiter Satz.", "Nur einer.")
    assert stream.lines == (3, 4, 7)
    assert stream.metadata == {"setid": "demo", "srclang": "any", "trglang": "de"}
    assert loaded.origin.format == "NIST SGML"


def test_upper_case_tags_multiline_segments_and_crlf(write):
    text = (
        '<TSTSET setid="x" srclang="en" trglang="de">\r\n'
        '<DOC sysid="KIT" docid="d1">\r\n'
        '<SEG id="1">\r\n  first\r\n  line \r\n</SEG>\r\n'
        '<seg id="2"></seg>\r\n'
        "</DOC>\r\n</TSTSET>\r\n"
    )
    (stream,) = load_file(write("kit.sgm", text), {Role.SYSTEM}).streams
    assert stream.name == "KIT"
    assert stream.texts == ("first line", "")  # empty segments are allowed
    assert stream.lines == (3, 7)


def test_wrapper_declaration_and_doc_sysid_winning_over_set_sysid(write):
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE mteval SYSTEM "ftp://example.invalid/mteval-xml-v1.3.dtd">\n'
        "<mteval>\n"
        '  <tstset setid="s" srclang="en" trglang="de" sysid="post.memory.mert">\n'
        '    <doc sysid="UU" docid="d1" genre="nw">\n'
        '      <seg id="1">M &amp; C</seg>\n'
        "    </doc>\n  </tstset>\n</mteval>\n"
    )
    (stream,) = load_file(write("uu.sgm", text)).streams
    assert stream.name == "UU"
    assert stream.texts == ("M &amp; C",)


def test_set_sysid_is_used_when_documents_have_none(write):
    text = '<tstset sysid="S1"><doc docid="a"><seg id="1">x</seg></doc></tstset>'
    (stream,) = load_file(write("s.sgm", text)).streams
    assert stream.name == "S1"


def test_no_sysid_at_all_leaves_the_name_to_the_file(write):
    text = '<tstset><doc docid="a"><seg id="1">x</seg></doc></tstset>'
    (stream,) = load_file(write("s.sgm", text)).streams
    assert stream.name is None


def test_paragraph_and_headline_wrappers_and_byte_order_mark_inside_segment(write):
    text = (
        '<srcset setid="s" srclang="is">\n<doc docid="text_5" origlang="is">\n'
        '<hl><seg id="1">Title</seg></hl>\n<p>\n<seg id="2">a\ufeffb</seg>\n'
        '<seg id="3">\u00a0c\u2003d\u00a0</seg>\n</p>\n</doc>\n</srcset>\n'
    )
    (stream,) = load_file(write("src.sgm", text), {Role.SOURCE}).streams
    assert stream.name is None  # a source has no system name
    # U+FEFF is not whitespace to Perl, so mteval keeps it; NBSP and EM SPACE are.
    assert stream.texts == ("Title", "a\ufeffb", "c d")


def test_several_references_in_one_refset_are_told_apart_by_sysid(write):
    docs = []
    for sysid in ("A", "B"):
        docs.append(
            f'<doc sysid="{sysid}" docid="d1"><seg id="1">{sysid} one</seg>'
            f'<seg id="2">{sysid} two</seg></doc>'
        )
    text = "<refset setid='s'>\n" + "\n".join(docs) + "\n</refset>\n"
    streams = load_file(write("refs.sgm", text), {Role.REFERENCE}).streams
    assert [s.name for s in streams] == ["A", "B"]
    assert streams[1].texts == ("B one", "B two")


def test_several_systems_in_one_tstset(write):
    text = (
        "<tstset>"
        '<doc sysid="X" docid="d1"><seg id="1">x1</seg></doc>'
        '<doc sysid="Y" docid="d1"><seg id="1">y1</seg></doc>'
        '<doc sysid="X" docid="d2"><seg id="1">x2</seg></doc>'
        '<doc sysid="Y" docid="d2"><seg id="1">y2</seg></doc>'
        "</tstset>"
    )
    streams = load_file(write("many.sgm", text), {Role.SYSTEM}).streams
    assert [(s.name, s.texts) for s in streams] == [("X", ("x1", "x2")), ("Y", ("y1", "y2"))]


def test_self_closing_segment_is_empty(write):
    text = '<tstset><doc docid="a" sysid="s"><seg id="1"/><seg id="2">b</seg></doc></tstset>'
    (stream,) = load_file(write("s.sgm", text)).streams
    assert stream.texts == ("", "b")


def test_unquoted_and_single_quoted_attributes(write):
    text = "<tstset><doc docid=d1 sysid='s'><seg id=7>b</seg></doc></tstset>"
    (stream,) = load_file(write("s.sgm", text)).streams
    assert (stream.name, stream.doc_ids, stream.seg_ids) == ("s", ("d1",), ("7",))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("<doc docid='a'><seg id='1'>x</seg></doc>", None, "no <srcset>, <refset> or <tstset>"),
        ("<tstset>\n<doc docid='a'><seg id='1'>x</seg></doc>\n", 1, "never closed (no </tstset>)"),
        (
            "<refset><doc docid='a'><seg id='1'>x</seg></doc></refset>"
            "<tstset><doc docid='a'><seg id='1'>x</seg></doc></tstset>",
            None,
            "mixes",
        ),
        ("<tstset>\n<doc sysid='s'>\n<seg id='1'>x</seg></doc></tstset>", 2, "no docid"),
        ("<tstset>\n<doc docid='a'>\n<seg>x</seg></doc></tstset>", 3, "no id attribute"),
        (
            "<tstset>\n<doc docid='a'>\n<seg id='1'>x\n<seg id='2'>y</seg></doc></tstset>",
            3,
            "contains another <seg>",
        ),
        (
            "<tstset>\n<doc docid='a'>\n<seg id='1'>x</seg>\n<seg id='1'>y</seg></doc></tstset>",
            4,
            "two segments with id '1' (lines 3 and 4)",
        ),
        ("<tstset>\n<doc docid='a'>\n</doc></tstset>", 2, "document 'a' has no <seg>"),
        ("<tstset>\n</tstset>", 1, "holds no <doc>"),
        (
            "<tstset>\n<doc docid='a'>\n<seg id='1'>x</seg>\n</tstset>",
            2,
            "never closed (no </doc>)",
        ),
    ],
)
def test_malformed_sgml_is_refused_with_its_line(write, text, line, words):
    path = write("bad.sgm", text)
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.line == line
    assert words in caught.value.problem
    assert str(path) in str(caught.value)


def test_document_twice_for_one_system_is_refused(write):
    text = (
        "<tstset>\n"
        '<doc docid="a" sysid="s"><seg id="1">x</seg></doc>\n'
        '<doc docid="a" sysid="s"><seg id="1">y</seg></doc>\n'
        "</tstset>"
    )
    with pytest.raises(InputError, match=r"document 'a' of 's' occurs twice \(from line 2 and"):
        load_file(write("dup.sgm", text))


def test_role_must_match_the_set(write):
    path = write("ref.sgm", REFSET)
    with pytest.raises(
        InputError,
        match=r"holds a reference \(<refset>\), but it was given as "
        r"system output \(--hyp\)",
    ):
        load_file(path, {Role.SYSTEM})
