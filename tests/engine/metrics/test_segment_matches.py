"""Matched tokens of one segment: hand-made segments, and agreement with BLEU's statistics."""

from __future__ import annotations

import numpy as np
import pytest
from shared_corpora import corpus, statistics

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.metrics.segment_matches import match_segment
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.engine.text.settings import Case
from mtgui.io.demo import load_demo

WORDS = MetricSettings(tokenize="none", case=Case.FULL)
MIXED = MetricSettings()  # 13a, case-sensitive


def test_papineni_clipping_marks_the_first_two_of_seven():
    """Papineni et al. (2002) 2.1: 'the' x 7 against 'The cat is on the mat' -> 2/7."""
    found = match_segment("the the the the the the the", ["The cat is on the mat"], WORDS)
    assert found.matches == (2, 0, 0, 0) and found.totals == (7, 6, 5, 4)
    assert found.hypothesis.orders == (1, 1, 0, 0, 0, 0, 0)
    assert found.hypothesis.links == (0,) * 6  # "the the" is no reference bigram
    assert found.references[0].orders == (1, 0, 0, 0, 1, 0)  # both "the", shown in their case
    assert found.references[0].shown[0] == "The" and found.references[0].tokens[0] == "the"


def test_case_sensitive_clipping_leaves_the_capitalised_word_out():
    found = match_segment("the the the the the the the", ["The cat is on the mat"], MIXED)
    assert found.matches == (1, 0, 0, 0)
    assert found.references[0].orders == (0, 0, 0, 0, 1, 0)


def test_the_clip_is_the_largest_count_in_a_single_reference():
    """Two references with one 'the' each clip to 1, not 2; with two in one reference, to 2."""
    hyp = "the the the"
    assert match_segment(hyp, ["the cat", "on the mat"], MIXED).matches[0] == 1
    both = match_segment(hyp, ["the cat", "the cat and the dog"], MIXED)
    assert both.matches[0] == 2
    assert both.hypothesis.orders == (1, 1, 0)
    assert both.references[0].orders == (1, 0)  # one match marks one occurrence per reference
    assert both.references[1].orders == (1, 0, 0, 1, 0)


def test_highest_order_and_links_show_whole_ngrams():
    found = match_segment(
        "the cat sat on the mat today", ["the cat sat on a mat", "a dog sat on the mat"], MIXED
    )
    # "the cat sat on" is a 4-gram of reference 1; "sat on the mat" a 4-gram of reference 2.
    assert found.hypothesis.orders == (4, 4, 4, 4, 4, 4, 0)
    assert found.hypothesis.links == (4, 4, 4, 4, 4, 0)
    assert found.matches == (5, 5, 4, 2)  # the second 'the' only inside a 4-gram
    assert found.totals == (7, 6, 5, 4)
    ref_1, ref_2 = found.references
    assert ref_1.pairs() == [
        ("the", 4), ("cat", 4), ("sat", 4), ("on", 4), ("a", 0), ("mat", 1)
    ]  # fmt: skip
    assert ref_2.orders == (0, 0, 4, 4, 4, 4)
    assert found.bleu_row == (7, 6, 5, 5, 4, 2, 7, 6, 5, 4)


def test_a_reference_ngram_is_marked_only_as_often_as_the_hypothesis_matched_it():
    found = match_segment("a b", ["a b x a b"], MIXED)
    assert found.references[0].orders == (2, 2, 0, 0, 0)
    assert found.references[0].links == (2, 0, 0, 0)


def test_13a_tokens_and_ascii_case_are_the_metrics_own():
    settings = MetricSettings(case=Case.ASCII)
    found = match_segment("Hello, World!", ["hello world."], settings)
    assert found.hypothesis.tokens == ("hello", ",", "world", "!")
    assert found.hypothesis.shown == ("Hello", ",", "World", "!")
    assert found.hypothesis.orders == (1, 0, 1, 0)
    assert found.references[0].orders == (1, 1, 0)


def test_full_lowercasing_that_moves_a_token_boundary_shows_the_compared_tokens():
    # "&AMP;" lowercased becomes "&amp;", which 13a decodes to "&": the tokens differ.
    found = match_segment("A &AMP; B", ["a & b"], MetricSettings(case=Case.FULL))
    assert found.hypothesis.shown == found.hypothesis.tokens == ("a", "&", "b")
    assert found.matches[:2] == (3, 2)


def test_empty_hypothesis_and_closest_reference_length():
    found = match_segment("", ["a b", "a b c d"], MIXED)
    assert found.hypothesis.tokens == () and found.hypothesis.links == ()
    assert found.matches == (0, 0, 0, 0) and found.totals == (0, 0, 0, 0)
    assert found.ref_len == 2
    tie = match_segment("a b c", ["a b", "a b c d"], MIXED)
    assert tie.ref_len == 2  # distance 1 both ways: the shorter one, as BLEU does


def test_a_segment_needs_a_reference():
    with pytest.raises(ValueError, match="reference"):
        match_segment("a", [], MIXED)


def assert_rows_agree(corpus_: Corpus, stats: Statistics) -> None:
    """Every segment of every system: the per-segment counts equal the BLEU statistics row."""
    references = [ref.texts for ref in corpus_.test_set.references]
    for system in corpus_.systems:
        rows = stats.rows(system.name, "bleu")
        found = np.array(
            [
                match_segment(hyp, [ref[i] for ref in references], stats.settings).bleu_row
                for i, hyp in enumerate(system.hypotheses)
            ],
            dtype=np.float64,
        )
        mismatched = np.flatnonzero((found != rows).any(axis=1))
        assert not len(mismatched), (system.name, mismatched[:5])


@pytest.mark.parametrize("case", [Case.SENSITIVE, Case.FULL])
def test_counts_equal_the_bleu_statistics_on_the_demo(case):
    demo = load_demo()
    assert_rows_agree(demo, compute_statistics(demo, ["bleu"], MetricSettings(case=case)))


@pytest.mark.shared
@pytest.mark.parametrize(
    ("dataset", "form", "refs", "case"),
    [
        ("wmt21-newstest2021-de-en-2ref", "txt", ("A", "B"), Case.ASCII),
        ("wmt21-newstest2021-is-en", "sgm", ("A",), Case.SENSITIVE),
    ],
)
def test_counts_equal_the_bleu_statistics_on_wmt(shared_data, dataset, form, refs, case):
    assert_rows_agree(corpus(dataset, form, refs), statistics(dataset, form, refs, case, ("bleu",)))
