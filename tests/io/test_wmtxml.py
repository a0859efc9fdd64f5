"""The WMT XML reader on small hand-made files."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import detect_format, load_file
from mtgui.io.streams import WMT_XML

XML = """<?xml version='1.0' encoding='utf-8'?>
<dataset id="nt21">
 <collection id="news">
  <doc id="d1" origlang="is">
   <src lang="is"><p><seg id="1">Halló</seg><seg id="2">M&amp;C</seg></p></src>
   <ref lang="en" translator="A"><p><seg id="1">Hello</seg><seg id="2">M&amp;C</seg></p></ref>
   <ref lang="en" translator="B"><p><seg id="1">Hi</seg><seg id="2">M and C</seg></p></ref>
   <hyp system="S1" lang="en"><p><seg id="1">Hello</seg><seg id="2">M&amp;amp;C</seg></p></hyp>
   <hyp system="S2" lang="en"><p><seg id="1">Hallo</seg><seg id="2"></seg></p></hyp>
  </doc>
  <doc id="d2" origlang="is">
   <src lang="is"><p><seg id="1">Bless</seg></p></src>
   <ref lang="en" translator="A"><p><seg id="1">Bye</seg></p></ref>
   <ref lang="en" translator="B"><p><seg id="1">Goodbye</seg></p></ref>
   <hyp system="S1" lang="en"><p><seg id="1">Bye</seg></p></hyp>
   <hyp system="S2" lang="en"><p><seg id="1">Bye bye</seg></p></hyp>
  </doc>
 </collection>
</dataset>
"""


def test_reads_source_references_and_systems(write):
    path = write("all.xml", XML)
    assert detect_format(XML) == WMT_XML
    streams = load_file(path).streams
    assert [(s.role, s.name) for s in streams] == [
        (Role.SOURCE, None),
        (Role.REFERENCE, "A"),
        (Role.REFERENCE, "B"),
        (Role.SYSTEM, "S1"),
        (Role.SYSTEM, "S2"),
    ]
    system = streams[3]
    # Entities are decoded once by the XML parser: a literal "&amp;" in the output stays.
    assert system.texts == ("Hello", "M&amp;C", "Bye")
    assert system.doc_ids == ("d1", "d1", "d2")
    assert system.seg_ids == ("1", "2", "1")
    assert streams[4].texts[1] == ""
    assert streams[0].metadata == {"setid": "nt21", "srclang": "is", "trglang": "en"}


def test_roles_select_parts_and_a_reference_request_brings_the_source(write):
    path = write("all.xml", XML)
    refs = load_file(path, {Role.REFERENCE}).streams
    assert [s.role for s in refs] == [Role.SOURCE, Role.REFERENCE, Role.REFERENCE]
    systems = load_file(path, {Role.SYSTEM}).streams
    assert [s.name for s in systems] == ["S1", "S2"]


def test_whole_file_assembles_into_a_two_reference_corpus(write):
    corpus = assemble([load_file(write("all.xml", XML))])
    assert corpus.test_set.num_references == 2
    assert corpus.test_set.documents == ("d1", "d2")
    assert corpus.system_names == ("S1", "S2")
    assert corpus.test_set.source is not None
    assert corpus.test_set.source.texts == ("Halló", "M&C", "Bless")


def test_dataset_without_collection_and_with_a_declared_utf16_encoding(write):
    text = (
        '<?xml version="1.0" encoding="UTF-16"?>\n<dataset id="x"><doc id="a">'
        '<src lang="de"><p><seg id="1">Grüße</seg></p></src></doc></dataset>'
    )
    path = write("u16.xml", b"\xff\xfe" + text.encode("utf-16-le"))
    (stream,) = load_file(path).streams
    assert stream.texts == ("Grüße",)
    assert load_file(path).origin.encoding == "UTF-16 LE"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (
            '<dataset>\n<doc id="a">\n<src><seg id="1">a & b</seg></src></doc></dataset>',
            3,
            "not well-formed",
        ),
        ('<dataset>\n<doc>\n<src><seg id="1">a</seg></src></doc></dataset>', 2, "<doc> has no id"),
        (
            '<dataset>\n<doc id="a">\n<hyp lang="en"><seg id="1">a</seg></hyp></doc></dataset>',
            3,
            "<hyp> has no system",
        ),
        ('<dataset>\n<doc id="a">\n<src><seg>a</seg></src></doc></dataset>', 3, "<seg> has no id"),
        (
            '<dataset>\n<doc id="a">\n<src><seg id="1">a</seg>\n<seg id="1">b</seg></src>'
            "</doc></dataset>",
            4,
            "two segments with id '1'",
        ),
        (
            '<dataset>\n<doc id="a">\n<hyp system="S"><seg id="1">a</seg></hyp>\n'
            '<hyp system="S"><seg id="1">b</seg></hyp></doc></dataset>',
            4,
            "has its <hyp> by 'S' twice",
        ),
        ("<dataset>\n</dataset>", None, "holds no <doc>"),
        ('<dataset>\n<doc id="a"><src></src></doc></dataset>', 2, "has no <seg>"),
    ],
)
def test_malformed_xml_is_refused_with_its_line(write, text, line, words):
    path = write("bad.xml", text)
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert words in caught.value.problem
    assert caught.value.line == line


def test_a_reference_covering_only_some_documents_is_left_out_with_a_note(write):
    broken = XML.replace('<ref lang="en" translator="B"><p><seg id="1">Goodbye</seg></p></ref>', "")
    path = write("all.xml", broken)
    corpus = assemble([load_file(path)])
    assert [r.name for r in corpus.test_set.references] == ["A"]
    assert corpus.test_set.documents == ("d1", "d2")
    assert corpus.notes == (
        f"{path}: reference 'B' covers only 1 of the 2 documents and was left out.",
    )


def test_documents_without_references_are_left_out_with_a_note(write):
    suite = (
        '  <doc id="suite-1" origlang="is">\n'
        '   <src lang="is"><p><seg id="1">Próf</seg></p></src>\n'
        '   <hyp system="S1" lang="en"><p><seg id="1">Test</seg></p></hyp>\n'
        '   <hyp system="S2" lang="en"><p><seg id="1">Exam</seg></p></hyp>\n'
        "  </doc>\n"
    )
    text = XML.replace(" </collection>", suite + " </collection>")
    corpus = assemble([load_file(write("all.xml", text))])
    assert corpus.test_set.documents == ("d1", "d2")
    assert corpus.system("S1").hypotheses == ("Hello", "M&amp;C", "Bye")
    assert corpus.notes == (
        f"{write('all.xml', text)}: 1 of 3 documents has no reference and was left out of "
        "the test set.",
    )


def test_references_that_share_no_document_are_refused_in_words(write):
    # Found by the property tests: d1 has only reference A, d2 only reference B, so no
    # document has every reference and nothing was left; the loader then failed with an
    # IndexError instead of saying so.
    disjoint = XML.replace(
        '<ref lang="en" translator="B"><p><seg id="1">Hi</seg><seg id="2">M and C</seg></p></ref>',
        "",
    ).replace('<ref lang="en" translator="A"><p><seg id="1">Bye</seg></p></ref>', "")
    path = write("all.xml", disjoint)
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.message == (
        f"{path}: no reference covers every document, and no document has every reference "
        "('A' covers 1 of 2; 'B' covers 1 of 2). Give every document the same references "
        "(the same translator names)."
    )
