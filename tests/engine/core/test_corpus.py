"""The corpus model: invariants, documents, renaming."""

from __future__ import annotations

import numpy as np
import pytest

from mtgui.engine.core.corpus import (
    Corpus,
    Origin,
    SegmentScores,
    SystemOutput,
    TestSet,
    TextColumn,
)
from mtgui.engine.core.errors import InputError

ORIGIN = Origin("/data/x.sgm", "NIST SGML", "UTF-8")


def make_corpus(*names: str) -> Corpus:
    test_set = TestSet(
        doc_ids=("b", "b", "a", "b"),
        seg_ids=("1", "2", "1", "3"),
        references=(TextColumn("ref", ("r1", "r2", "r3", "r4"), ORIGIN),),
    )
    systems = tuple(SystemOutput(n, ("h1", "h2", "h3", "h4"), ORIGIN) for n in names)
    scores = (
        SegmentScores(names[0], np.array([1.0, np.nan, 3.0, 4.0]), np.array([1, 0, 2, 1]), ORIGIN),
    )
    return Corpus(test_set, systems, scores)


def test_documents_in_order_of_first_appearance_and_their_index():
    test_set = make_corpus("A").test_set
    assert test_set.size == 4
    assert test_set.documents == ("b", "a")
    assert test_set.document_index().tolist() == [0, 0, 1, 0]
    assert test_set.describe_segment(2) == "document 'a', segment 1"


def test_the_document_index_if_any_is_none_for_plain_text():
    test_set = make_corpus("A").test_set
    index = test_set.document_index_if_any()
    assert index is not None and index.tolist() == [0, 0, 1, 0]
    plain = TestSet(
        doc_ids=("", "", ""),
        seg_ids=("1", "2", "3"),
        references=(TextColumn("ref", ("r1", "r2", "r3"), ORIGIN),),
        has_documents=False,
    )
    assert plain.document_index_if_any() is None
    assert plain.document_index().tolist() == [0, 1, 2]  # a unit per segment, for resampling


def test_rename_moves_the_scores_along():
    corpus = make_corpus("A", "B").with_system_renamed("A", " Alpha ")
    assert corpus.system_names == ("Alpha", "B")
    scores = corpus.scores_of("Alpha")
    assert scores is not None and scores.num_scored == 3
    assert corpus.scores_of("A") is None


@pytest.mark.parametrize(
    ("new", "words"), [("B", "two systems are both named 'B'"), ("  ", "cannot be empty")]
)
def test_rename_refuses_a_taken_or_empty_name(new, words):
    with pytest.raises(InputError, match=words):
        make_corpus("A", "B").with_system_renamed("A", new)


def test_duplicate_systems_are_refused_with_their_files():
    with pytest.raises(InputError, match=r"two systems are both named 'A' \(from x.sgm and from"):
        make_corpus("A", "A")


def test_test_set_needs_a_reference():
    with pytest.raises(InputError, match="no reference translation is loaded"):
        TestSet(doc_ids=("a",), seg_ids=("1",), references=())


def test_score_arrays_are_read_only():
    scores = make_corpus("A").scores[0]
    with pytest.raises(ValueError, match="read-only"):
        scores.means[0] = 2.0


def test_origin_file_name_for_both_separators():
    assert ORIGIN.file_name == "x.sgm"
    assert Origin("C:\\data\\y.txt", "plain text", "UTF-8").file_name == "y.txt"


def test_origins_name_every_stream_read_source_references_systems():
    from mtgui.io.demo import load_demo

    corpus = load_demo()
    names = [origin.file_name for origin in corpus.origins()]
    assert names == ["reference.sgm", "reference.sgm", *(f"{s}.sgm" for s in corpus.system_names)]
