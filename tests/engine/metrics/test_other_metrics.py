"""chrF, TER, WER and human scores: formulas against sacreBLEU, hand counts, WMT's means."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metric_corpora import ORIGIN, make_corpus
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtgui.engine.core.corpus import SegmentScores
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.settings import Case

COUNTS = st.integers(0, 40)


@settings(max_examples=300, deadline=None)
@given(st.lists(COUNTS, min_size=18, max_size=18))
def test_chrf_formula_equals_sacrebleu_on_any_statistics(stats):
    assert Chrf().score_one(np.array(stats, dtype=float)) == pytest.approx(
        CHRF()._compute_f_score(stats), abs=1e-9
    )


@settings(max_examples=100, deadline=None)
@given(st.tuples(COUNTS, COUNTS))
def test_ter_formula_equals_sacrebleu(stats):
    assert Ter().score_one(np.array(stats, dtype=float)) == pytest.approx(
        TER()._compute_score_from_stats(list(stats)).score
    )


def test_chrf_and_ter_corpus_scores_with_two_references_and_case():
    refs_a = ["The cat sat on the mat.", "It rained ALL day."]
    refs_b = ["A cat was sitting on the mat.", "Rain fell the whole day."]
    hyps = ["the cat sits on the mat", "It rained the whole day."]
    corpus = make_corpus([refs_a, refs_b], system=hyps)
    stats = compute_statistics(corpus, ["chrf", "ter"])
    assert stats.score("system", "chrf") == pytest.approx(
        CHRF().corpus_score(hyps, [refs_a, refs_b]).score, abs=1e-9
    )
    assert stats.score("system", "ter") == pytest.approx(
        TER().corpus_score(hyps, [refs_a, refs_b]).score, abs=1e-9
    )
    lowered = compute_statistics(corpus, ["chrf"], MetricSettings(case=Case.FULL))
    assert lowered.score("system", "chrf") == pytest.approx(
        CHRF(lowercase=True).corpus_score(hyps, [refs_a, refs_b]).score, abs=1e-9
    )


def test_wer_counts_edits_to_the_closest_reference():
    corpus = make_corpus(
        [["a b c d", "x y"], ["a b c", "x y z"]], system=["a c d", "x z"]
    )  # segment 1: ref 1 needs 1 edit (b deleted), ref 2 needs 2; segment 2: 1 edit each
    stats = compute_statistics(corpus, ["wer"], MetricSettings(tokenize="none"))
    rows = stats.rows("system", "wer")
    assert rows.tolist() == [[1, 4], [1, 2]]  # tie on segment 2: the shorter reference
    assert stats.score("system", "wer") == pytest.approx(2 / 6)


def test_human_metric_averages_judged_segments_only():
    corpus = make_corpus([["a", "b", "c"]], system=["a", "b", "c"])
    scores = SegmentScores("system", np.array([1.0, np.nan, 4.0]), np.array([2, 0, 1]), ORIGIN)
    corpus = type(corpus)(corpus.test_set, corpus.systems, (scores,))
    stats = compute_statistics(corpus, ["human"])
    assert stats.score("system", "human") == pytest.approx(2.5)
    segment = stats.segment_scores("system", "human")
    assert segment[0] == 1.0 and np.isnan(segment[1])


def test_human_metric_needs_scores():
    corpus = make_corpus([["a"]], system=["a"])
    with pytest.raises(InputError, match="needs per-segment scores"):
        compute_statistics(corpus, ["human"])


def test_segment_chrf_and_ter_equal_sacrebleu_sentence_scores():
    refs_a = ["The cat sat on the mat.", "It rained ALL day.", ""]
    refs_b = ["A cat was sitting on the mat.", "Rain fell the whole day.", "Nothing."]
    hyps = ["the cat sits on the mat", "It rained the whole day.", "Nothing at all."]
    empty = MetricSettings(empty_refs="empty")  # "" is sacreBLEU's reference of no words
    stats = compute_statistics(make_corpus([refs_a, refs_b], system=hyps), ["chrf", "ter"], empty)
    chrf, ter = stats.segment_scores("system", "chrf"), stats.segment_scores("system", "ter")
    for i, hyp in enumerate(hyps):
        refs = [refs_a[i], refs_b[i]]
        assert chrf[i] == pytest.approx(CHRF().sentence_score(hyp, refs).score, abs=1e-9)
        assert ter[i] == pytest.approx(TER().sentence_score(hyp, refs).score, abs=1e-9)


def test_scores_of_many_summed_rows_at_once_equal_scores_one_by_one():
    """The bootstrap scores a (B, k) array of resample sums in one call."""
    from mtgui.io.demo import load_demo

    corpus = load_demo()
    stats = compute_statistics(corpus, ["bleu", "nist", "mbleu", "chrf", "ter", "wer"])
    rng = np.random.default_rng(3)
    for metric in stats.metrics:
        rows = stats.rows("Quill", metric.name)
        resamples = np.stack(
            [rows[rng.integers(0, len(rows), len(rows))].sum(axis=0) for _ in range(20)]
        )
        together = metric.score(resamples)
        assert together.shape == (20,)
        assert together.tolist() == [metric.score_one(r) for r in resamples]
