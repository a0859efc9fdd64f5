"""BLEU and M-BLEU: the papers' worked examples, sacreBLEU's sentence BLEU, degenerate input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metric_corpora import make_corpus
from sacrebleu.metrics.bleu import BLEU

from mtgui.engine.metrics.bleu import bleu as bleu_module
from mtgui.engine.metrics.bleu.bleu import Bleu, closest_reference_length
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.settings import Case

# Papineni et al. (2002), section 2.1, Example 1 (hyphenation of "directions" undone) and
# Example 2; words only, compared ignoring capitalization, as the paper counts them.
REFERENCES_1 = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
CANDIDATE_1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
WORDS = MetricSettings(tokenize="none", case=Case.FULL)


def totals(references, hypothesis, settings=WORDS):
    corpus = make_corpus([[r] for r in references], system=[hypothesis])
    return compute_statistics(corpus, ["bleu"], settings).totals("system", "bleu")


def test_papineni_modified_precisions():
    one, two = totals(REFERENCES_1, CANDIDATE_1), totals(REFERENCES_1, CANDIDATE_2)
    assert (one[2], one[6]) == (17, 18)  # unigrams 17/18
    assert (two[2], two[6]) == (8, 14)  # unigrams 8/14
    assert (one[3], one[7]) == (10, 17)  # bigrams 10/17
    assert (two[3], two[7]) == (1, 13)  # bigrams 1/13
    example_2 = totals(["The cat is on the mat", "There is a cat on the mat"], "the " * 7)
    assert (example_2[2], example_2[6]) == (2, 7)


@pytest.mark.parametrize(
    ("precisions", "expected", "paper"),
    [((1.00, 0.21, 0.11, 0.06), 0.193, 0.19), ((0.35, 0.32, 0.28, 0.26), 0.300, 0.29)],
)
def test_zhang_vogel_waibel_constructed_example(precisions, expected, paper):
    """Systems A and B of Zhang, Vogel & Waibel (2004): BLEU without brevity penalty."""
    matches = [round(p * 10_000) for p in precisions]
    row = np.array([10_000, 10_000, *matches, *[10_000] * 4], dtype=float)
    score = Bleu().score_one(row)
    assert round(score, 3) == expected
    assert abs(score - paper) < 0.011  # the paper prints 0.19 and 0.29


def test_brevity_penalty_and_closest_reference_length_tie_goes_to_the_shorter():
    assert closest_reference_length(np.array([7]), np.array([[11, 8, 6, 7]])).tolist() == [7]
    assert closest_reference_length(np.array([7]), np.array([[11, 8, 6]])).tolist() == [6]
    row = np.array([8, 10, 8, 7, 6, 5, 8, 7, 6, 5], dtype=float)
    assert Bleu().summary(row)["bp"] == pytest.approx(math.exp(1 - 10 / 8))
    assert Bleu().score_one(row) == pytest.approx(math.exp(1 - 10 / 8))


def test_mteval_smoothing_of_orders_without_matches():
    # 4 unigrams matched of 4, no bigram match among 3, trigrams and 4-grams unmatched too
    row = np.array([4, 4, 4, 0, 0, 0, 4, 3, 2, 1], dtype=float)
    expected = math.exp((0 + math.log(1 / (2 * 3)) + math.log(1 / (4 * 2)) + math.log(1 / 8)) / 4)
    assert Bleu().score_one(row) == pytest.approx(expected)


def test_a_batch_with_a_match_in_every_order_scores_as_the_smoothed_formula_to_the_bit():
    rng = np.random.default_rng(4)
    totals = rng.integers(1, 10**6, (500, 3, 4)).astype(float)
    matches = np.floor(totals * rng.random(totals.shape)) + 1  # 1 <= m_n <= t_n
    lengths = rng.integers(1, 10**6, (500, 3, 2)).astype(float)
    sums = np.concatenate([lengths, np.minimum(matches, totals), totals], axis=-1)
    masked = bleu_module.brevity_penalty(sums) * np.exp(
        bleu_module._log_precisions(sums).sum(axis=-1) / 4
    )
    assert np.array_equal(Bleu().score(sums), masked)
    sums[7, 1, 4] = 0  # one resample of one system without a bigram match: smoothed, as before
    scores = Bleu().score(sums)
    assert scores[7, 1] == Bleu().score_one(sums[7, 1]) and scores[7, 1] > 0
    np.testing.assert_array_equal(np.delete(scores.ravel(), 22), np.delete(masked.ravel(), 22))


def test_m_bleu_is_the_arithmetic_mean_of_precisions():
    row = np.array([100, 100, 50, 40, 30, 20, 100, 100, 100, 100], dtype=float)
    assert MBleu().score_one(row) == pytest.approx((0.5 + 0.4 + 0.3 + 0.2) / 4)


EMPTY = MetricSettings(empty_refs="empty")  # an empty reference line is a reference of no words
TOKENS = st.sampled_from(["a", "b", "c", "d", "e", "f", ".", ","])
SENTENCES = st.lists(TOKENS, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SENTENCES, SENTENCES, SENTENCES), min_size=1, max_size=6))
def test_sentence_bleu_equals_sacrebleu(triples):
    refs_a, refs_b, hyps = (list(column) for column in zip(*triples, strict=True))
    corpus = make_corpus([refs_a, refs_b], system=hyps)
    stats = compute_statistics(corpus, ["bleu"], EMPTY)  # sacreBLEU's "" is an empty reference
    ours = stats.segment_scores("system", "bleu")
    sacre = BLEU(effective_order=True)
    for i, hyp in enumerate(hyps):
        assert ours[i] * 100 == pytest.approx(
            sacre.sentence_score(hyp, [refs_a[i], refs_b[i]]).score, abs=1e-9
        )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(SENTENCES, SENTENCES), min_size=1, max_size=8))
def test_corpus_bleu_equals_sacrebleu_when_every_order_has_ngrams(pairs):
    refs, hyps = (list(column) for column in zip(*pairs, strict=True))
    stats = compute_statistics(make_corpus([refs], system=hyps), ["bleu"], EMPTY)
    row = stats.totals("system", "bleu")
    sacre = BLEU().corpus_score(hyps, [refs])
    assert row[2:6].tolist() == sacre.counts and row[6:10].tolist() == sacre.totals
    if all(sacre.totals) and any(sacre.counts):
        assert stats.score("system", "bleu") * 100 == pytest.approx(sacre.score, abs=1e-9)


@pytest.mark.parametrize(
    ("references", "hypotheses", "bleu"),
    [
        (["a b c"], [""], 0.0),  # an empty hypothesis
        (["a b c", "d e"], ["", ""], 0.0),  # an all-empty system
        (["a b c d e"], ["a b c d e"], 1.0),  # a test set of one segment
        (["a b"], ["a b"], 1.0),  # orders 3 and 4 have no n-grams: precision 1 (mteval)
        ([""], ["a"], math.exp(math.log(1 / 2) / 4)),  # an empty reference
    ],
)
def test_degenerate_input_gets_defined_scores(references, hypotheses, bleu):
    corpus = make_corpus([references], system=hypotheses)
    stats = compute_statistics(corpus, ["bleu", "nist", "mbleu", "chrf", "ter", "wer"], EMPTY)
    assert stats.score("system", "bleu") == pytest.approx(bleu)
    for metric in ("nist", "mbleu", "chrf", "ter", "wer"):
        assert math.isfinite(stats.score("system", metric))
    assert np.isfinite(stats.segment_scores("system", "bleu")).all()
