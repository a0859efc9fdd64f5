"""chrF++ and chrF's options (character order, word order, beta) against sacreBLEU's CHRF.

sacreBLEU's chrF++ is ``CHRF(word_order=2)``; its options are ``char_order``, ``word_order`` and
``beta``. Every number here is sacreBLEU's, computed in the test by its Python API.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metric_corpora import make_corpus
from sacrebleu.metrics.chrf import CHRF

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import REGISTRY, create_metrics
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.chrf.chrfpp import ChrfPlusPlus
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.settings import Case
from mtgui.io.demo import load_demo

# (character order, word order, beta): sacreBLEU's defaults, chrF++, and others people use
COMBOS = [(6, 0, 2), (6, 2, 2), (6, 0, 1), (6, 2, 3), (4, 1, 1), (8, 3, 2), (1, 0, 0), (2, 4, 10)]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda orders: st.tuples(
            st.just(orders),
            st.integers(0, 5),
            st.lists(st.integers(0, 30), min_size=3 * orders, max_size=3 * orders),
        )
    )
)
def test_the_formula_equals_sacrebleu_for_any_orders_and_beta(case):
    orders, beta, stats = case
    metric = Chrf(char_order=orders, word_order=0, beta=beta)
    expected = CHRF(char_order=orders, word_order=0, beta=beta)._compute_f_score(stats)
    assert metric.score_one(np.array(stats, dtype=float)) == pytest.approx(expected, abs=1e-9)


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.mark.parametrize(("chars", "words", "beta"), COMBOS)
def test_corpus_scores_equal_sacrebleu_for_each_option(demo, chars, words, beta):
    settings_ = MetricSettings(chrf_char_order=chars, chrf_word_order=words, chrf_beta=beta)
    stats = compute_statistics(demo, ["chrf", "chrf++"], settings_)
    references = [list(ref.texts) for ref in demo.test_set.references]
    for system in demo.systems:
        hypotheses = list(system.hypotheses)
        chrf = CHRF(char_order=chars, word_order=words, beta=beta)
        plus = CHRF(char_order=chars, word_order=2, beta=beta)
        assert stats.score(system.name, "chrf") == pytest.approx(
            chrf.corpus_score(hypotheses, references).score, abs=1e-9
        )
        assert stats.score(system.name, "chrf++") == pytest.approx(
            plus.corpus_score(hypotheses, references).score, abs=1e-9
        )
        # the rows are sacreBLEU's segment statistics; a corpus is their sum
        rows = stats.rows(system.name, "chrf++")
        expected = CHRF(char_order=chars, word_order=2, beta=beta, references=references)
        segments = expected._extract_corpus_statistics(hypotheses, None)
        assert np.array_equal(rows, np.asarray(segments, dtype=np.float64))


def test_segment_scores_are_sacrebleu_sentence_scores(demo):
    stats = compute_statistics(demo, ["chrf++"])
    system = demo.systems[0]
    scores = stats.segment_scores(system.name, "chrf++")
    chrfpp = CHRF(word_order=2)
    for i in range(0, demo.test_set.size, 7):
        references = [ref.texts[i] for ref in demo.test_set.references]
        expected = chrfpp.sentence_score(system.hypotheses[i], references).score
        assert scores[i] == pytest.approx(expected, abs=1e-9)


def test_case_folding_applies_to_chrfpp():
    refs = [["The Cat sat on the mat.", "It rained ALL day."], ["A cat sat.", "Rain, all day."]]
    hyps = ["the cat sits on the Mat", "It rained all day."]
    stats = compute_statistics(
        make_corpus(refs, system=hyps), ["chrf++"], MetricSettings(case=Case.FULL)
    )
    expected = CHRF(word_order=2, lowercase=True).corpus_score(hyps, refs).score
    assert stats.score("system", "chrf++") == pytest.approx(expected, abs=1e-9)


def test_names_labels_and_signatures_record_the_options():
    assert REGISTRY["chrf++"].label == "chrF++" and REGISTRY["chrf++"].scale == "0-100"
    assert Chrf().signature() == "chrf[nc=6,nw=0,beta=2,space=no]"
    assert ChrfPlusPlus().signature() == "chrf++[nc=6,nw=2,beta=2,space=no]"
    made = create_metrics(
        ("chrf", "chrf++"),
        load_demo().test_set,
        MetricSettings(chrf_char_order=4, chrf_word_order=1, chrf_beta=1),
    )
    assert [m.signature() for m in made] == [
        "chrf[nc=4,nw=1,beta=1,space=no]",
        "chrf++[nc=4,nw=2,beta=1,space=no]",  # chrF++'s word order stays 2
    ]
    assert len(made[0].columns) == 3 * 5 and made[0].columns[-1] == "word_match_1"
    assert made[1].summary(np.zeros(18)) == {"char_order": 4, "word_order": 2, "beta": 1}


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "chrf_char_order",
            0,
            "the chrF character order must be a whole number from 1 to 20, not 0",
        ),
        ("chrf_char_order", 1000, "from 1 to 20, not 1000"),
        ("chrf_word_order", -1, "the chrF word order must be a whole number from 0 to 10"),
        ("chrf_beta", -1, "the chrF beta must be a whole number from 0 to 10, not -1"),
        ("chrf_beta", 1.5, "not 1.5"),
        ("chrf_beta", True, "not True"),
    ],
)
def test_bad_options_are_refused_in_words(option, value, message):
    with pytest.raises(InputError, match=message):
        MetricSettings(**{option: value})
    with pytest.raises(InputError, match=f'the setting "{option}" should be a whole number'):
        AnalysisSettings.from_mapping({option: value})
    assert getattr(AnalysisSettings.from_mapping({option: value}, strict=False), option) == (
        getattr(AnalysisSettings(), option)
    )


def test_the_settings_object_keeps_the_options_for_sessions():
    chosen = AnalysisSettings(
        metrics=("chrf", "chrf++"), chrf_char_order=4, chrf_word_order=1, chrf_beta=3
    )
    plain = chosen.to_dict()
    assert (plain["chrf_char_order"], plain["chrf_word_order"], plain["chrf_beta"]) == (4, 1, 3)
    assert AnalysisSettings.from_mapping(plain) == chosen
    assert chosen.metric_settings() == MetricSettings(
        chrf_char_order=4, chrf_word_order=1, chrf_beta=3
    )
    old_session = {k: v for k, v in plain.items() if not k.startswith("chrf_")}
    assert AnalysisSettings.from_mapping(old_session).chrf_beta == 2  # sacreBLEU's default


def test_bootstrap_resamples_chrfpp_like_any_sum_of_rows(demo):
    bootstrap = BootstrapSettings(resamples=200, seed=7)
    result = run_to_end(iter_analysis(demo, ["chrf", "chrf++"], MetricSettings(), bootstrap))
    stats = result.statistics
    for system in stats.system_names:
        for metric in ("chrf", "chrf++"):
            interval = result.bootstrap.interval(system, metric)
            assert interval.score == pytest.approx(stats.score(system, metric))
            assert interval.ci_low <= interval.score <= interval.ci_high
    assert "chrf++[nc=6,nw=2,beta=2,space=no]" in result.bootstrap.signature
