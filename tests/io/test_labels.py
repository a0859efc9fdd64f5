"""Label files for breakdowns, and the document attributes the readers keep."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Origin
from mtgui.engine.core.errors import InputError
from mtgui.engine.statistics.grouping import NONE
from mtgui.io.demo import load_demo
from mtgui.io.labels import read_label_file
from mtgui.io.sgml import read_sgml
from mtgui.io.wmtxml import read_wmt_xml


def test_labels_by_line_group_the_segments_and_the_rest_is_none(write):
    path = write("topics.tsv", "line\ttopic\n1\tsport\n3\tsport\n2\tpolitics\n\n")
    labels = read_label_file(path)
    assert (labels.keyed_by, labels.name, labels.by) == ("line", "topic", "topics")
    test_set = load_demo().test_set
    grouping = labels.grouping(test_set)
    assert grouping.labels == ("sport", "politics", NONE)
    assert [m.tolist() for m in grouping.members[:2]] == [[0, 2], [1]]
    assert grouping.sizes()[2] == test_set.size - 3


def test_labels_by_docid_label_every_segment_of_the_document(write):
    path = write(
        "domains.tsv", "\ufeffdocid\tdomain\nbakery\tfood\nfestival\tfood\nrobotics\ttech\n"
    )
    grouping = read_label_file(path).grouping(load_demo().test_set)
    assert grouping.labels == ("food", "tech", NONE)
    assert grouping.sizes() == (16 + 17, 15, 95 - 48)  # bakery, festival; robotics


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("segment\tlabel\n1\ta\n", 1, "header"),
        ("line\n1\ta\n", 1, "header"),
        ("line\tlabel\n1\ta\tb\n", 2, "3 tab-separated columns"),
        ("line\tlabel\n1\ta\n01\tb\n", 3, "segment 1 is labelled twice (lines 2 and 3)"),
        ("line\tlabel\nfirst\ta\n", 2, "'first' is not a segment number"),
        ("line\tlabel\n0\ta\n", 2, "not a segment number"),
        ("docid\tlabel\nd1\t\n", 2, "empty label"),
        ("docid\tlabel\n", 1, "no labels"),
    ],
)
def test_a_bad_label_file_names_its_line_and_what_is_wrong(write, text, line, words):
    path = write("bad.tsv", text)
    with pytest.raises(InputError) as error:
        read_label_file(path)
    assert error.value.path == path and error.value.line == line
    assert words in error.value.message


def test_lines_and_documents_the_test_set_lacks_are_refused(write):
    test_set = load_demo().test_set
    beyond = read_label_file(write("a.tsv", "line\tx\n1\ta\n96\tb\n"))
    with pytest.raises(InputError) as error:
        beyond.grouping(test_set)
    assert error.value.line == 3 and "segment 96 is beyond the test set's 95" in error.value.message
    unknown = read_label_file(write("b.tsv", "docid\tx\nbakery\ta\nbakery-2\tb\n"))
    with pytest.raises(InputError) as error:
        unknown.grouping(test_set)
    assert error.value.line == 3 and "document 'bakery-2' is not in the test set" in str(
        error.value
    )


SGML = """<refset setid="s" srclang="de" trglang="en">
<DOC docid="n1" sysid="ref" GENRE="news" origlang='de' empty="">
<seg id="1">a</seg></DOC>
<doc docid="t1" sysid="ref"><seg id="1">b</seg></doc>
</refset>
"""


def test_sgml_keeps_every_attribute_of_a_document_but_its_ids():
    (stream,) = read_sgml(SGML, Origin("r.sgm", "NIST SGML", "utf-8"))
    assert stream.doc_attributes == {"n1": {"genre": "news", "origlang": "de"}, "t1": {}}


def test_wmt_xml_keeps_every_attribute_of_a_document_but_its_id():
    xml = (
        '<dataset id="x"><collection><doc id="d1" origlang="is" domain="news">'
        '<src lang="is"><p><seg id="1">a</seg></p></src>'
        '<ref lang="en" translator="A"><p><seg id="1">b</seg></p></ref>'
        "</doc></collection></dataset>"
    )
    streams = read_wmt_xml(xml, Origin("t.xml", "WMT XML", "utf-8"))
    assert all(s.doc_attributes == {"d1": {"origlang": "is", "domain": "news"}} for s in streams)


def test_the_demo_documents_have_a_genre():
    attributes = load_demo().test_set.doc_attributes
    assert attributes["robotics"] == {"genre": "science"}
    assert sorted({a["genre"] for a in attributes.values()}) == ["culture", "local", "science"]
