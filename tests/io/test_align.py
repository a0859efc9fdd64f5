"""Alignment across files: same documents and segments everywhere, or a precise error."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file


def sgml(kind: str, sysid: str, docs: dict[str, list[str]]) -> str:
    """An SGML set with the given documents, each segment's text '<doc>-<id>-<sysid>'."""
    body = []
    for doc, segs in docs.items():
        body.append(f'<doc docid="{doc}" sysid="{sysid}">')
        body += [f'<seg id="{s}">{doc}-{s}-{sysid}</seg>' for s in segs]
        body.append("</doc>")
    return f"<{kind}>\n" + "\n".join(body) + f"\n</{kind}>\n"


DOCS = {"d1": ["1", "2", "3"], "d2": ["1", "2"]}


@pytest.fixture
def ref(write):
    return load_file(write("ref.sgm", sgml("refset", "ref", DOCS)), {Role.REFERENCE})


def system(write, docs, name="S"):
    return load_file(write(f"{name}.sgm", sgml("tstset", name, docs)), {Role.SYSTEM})


def test_documents_and_segments_in_another_order_are_reordered(write, ref):
    shuffled = {"d2": ["2", "1"], "d1": ["3", "1", "2"]}
    corpus = assemble([ref, system(write, shuffled)])
    assert corpus.test_set.doc_ids == ("d1", "d1", "d1", "d2", "d2")
    assert corpus.test_set.seg_ids == ("1", "2", "3", "1", "2")
    assert corpus.system("S").hypotheses == ("d1-1-S", "d1-2-S", "d1-3-S", "d2-1-S", "d2-2-S")
    assert corpus.test_set.document_index().tolist() == [0, 0, 0, 1, 1]


def test_missing_document_is_named(write, ref):
    with pytest.raises(InputError) as caught:
        assemble([ref, system(write, {"d1": ["1", "2", "3"]})])
    assert "system 'S' lacks 1 of the test set's 2 documents ('d2')" in caught.value.problem
    assert caught.value.path is not None and caught.value.path.name == "S.sgm"


def test_extra_document_is_named(write, ref):
    with pytest.raises(InputError, match=r"has 1 document the test set does not have \('d3'\)"):
        assemble([ref, system(write, {**DOCS, "d3": ["1"]})])


def test_segment_count_mismatch_gives_counts_and_first_differing_id(write, ref):
    with pytest.raises(InputError) as caught:
        assemble([ref, system(write, {"d1": ["1", "3"], "d2": ["1", "2"]})])
    error = caught.value
    assert error.problem.startswith("document 'd1' of the system 'S' has 2 segments, the test set")
    assert "has 3; the first difference is segment 2: expected id '2', found '3'." in error.problem
    assert error.line == 4  # the line of the differing segment in S.sgm


def test_segment_missing_at_the_end_of_a_document(write, ref):
    with pytest.raises(InputError, match="segment 3: expected id '3', found no more segments"):
        assemble([ref, system(write, {"d1": ["1", "2"], "d2": ["1", "2"]})])


def test_plain_text_system_aligns_by_position_to_an_sgml_test_set(write, ref):
    plain = load_file(write("P.txt", "p1\np2\np3\np4\np5\n"), {Role.SYSTEM})
    corpus = assemble([ref, plain])
    assert corpus.system("P").hypotheses == ("p1", "p2", "p3", "p4", "p5")
    assert corpus.test_set.has_documents


def test_plain_text_with_one_line_too_few_is_refused_not_padded(write, ref):
    plain = load_file(write("P.txt", "p1\np2\np3\np4\n"), {Role.SYSTEM})
    with pytest.raises(InputError) as caught:
        assemble([ref, plain])
    assert "has 4 lines, but the test set has 5 segments (as in" in caught.value.problem
    assert "ref.sgm" in caught.value.problem


def test_plain_text_test_set_has_no_documents(write):
    files = [
        load_file(write("ref.txt", "a\nb\n"), {Role.REFERENCE}),
        load_file(write("sys.txt", "a\nc\n"), {Role.SYSTEM}),
    ]
    test_set = assemble(files).test_set
    assert not test_set.has_documents
    assert test_set.documents == ()
    assert test_set.document_index().tolist() == [0, 1]
    assert test_set.describe_segment(1) == "line 2"


def test_source_gives_the_order_and_a_second_identical_source_is_accepted(write, ref):
    src_docs = {"d2": ["1", "2"], "d1": ["1", "2", "3"]}
    source = load_file(write("src.sgm", sgml("srcset", "", src_docs)), {Role.SOURCE})
    again = load_file(write("src2.sgm", sgml("srcset", "", src_docs)), {Role.SOURCE})
    corpus = assemble([ref, source, again, system(write, DOCS)])
    assert corpus.test_set.doc_ids[0] == "d2"
    assert corpus.test_set.references[0].texts[0] == "d2-1-ref"


def test_two_different_sources_are_refused(write, ref):
    one = load_file(write("a.txt", "1\n2\n3\n4\n5\n"), {Role.SOURCE})
    two = load_file(write("b.txt", "1\n2\n3\n4\nX\n"), {Role.SOURCE})
    with pytest.raises(InputError, match="two different source texts are loaded"):
        assemble([ref, one, two])


def test_no_reference_is_refused(write):
    with pytest.raises(InputError, match="no reference translation is loaded"):
        assemble([system(write, DOCS)])
