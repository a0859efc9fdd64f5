"""sacreBLEU's options (issue 36) on the shared datasets, against sacreBLEU's own API.

For each option, mtgui's score of a system equals sacreBLEU 2.6's with the same option on the
texts as mtgui read them (test_metrics_golden shows they are the texts sacreBLEU read), to 1e-9
on sacreBLEU's 0-100 scale: BLEU's smoothing methods and values, maximum orders and effective
order, at corpus and sentence level; chrF's and chrF++'s whitespace and eps smoothing; TER's
tokenizer options. All references of each dataset (two on the 2-reference set). sacreBLEU's
TER takes seconds per system, so TER is compared on the first segments of two systems (the
corpus TER of those segments, from mtgui's rows). Skipped where ../shared is absent.
"""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER
from shared_corpora import DATASETS, MISSING, corpus, golden

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import Statistics, compute_statistics

pytestmark = pytest.mark.shared

SYSTEMS = 2  # the first systems of each dataset
SENTENCES = 300  # segments compared at sentence level, and by TER

BLEU_OPTIONS = [
    {"bleu_smooth_method": "exp"},
    {"bleu_smooth_method": "floor"},
    {"bleu_smooth_method": "floor", "bleu_smooth_value": 0.3},
    {"bleu_smooth_method": "add-k"},
    {"bleu_smooth_method": "add-k", "bleu_smooth_value": 2.5},
    {"bleu_smooth_method": "none"},
    {"bleu_smooth_method": "exp", "bleu_max_order": 2},
    {"bleu_smooth_method": "exp", "bleu_max_order": 6},
    {"bleu_smooth_method": "none", "bleu_max_order": 6, "bleu_effective_order": True},
    {"bleu_smooth_method": "floor", "bleu_effective_order": True},
]
CHRF_OPTIONS = [
    {"chrf_whitespace": True},
    {"chrf_eps_smoothing": True},
    {"chrf_whitespace": True, "chrf_eps_smoothing": True, "chrf_char_order": 4, "chrf_beta": 1},
]
TER_OPTIONS = [
    {"ter_normalized": True},
    {"ter_no_punct": True},
    {"ter_normalized": True, "ter_asian_support": True},
    {"ter_case_sensitive": True},
]


def datasets() -> list:
    return DATASETS or [pytest.param("", marks=MISSING)]


def loaded(dataset: str) -> Corpus:
    return corpus(dataset, "txt", tuple(r["id"] for r in golden(dataset)["references"]))


def scored(texts: Corpus, metrics: tuple[str, ...], options: dict) -> Statistics:
    systems = texts.systems[:SYSTEMS]
    return compute_statistics(
        Corpus(texts.test_set, systems, (), ()), metrics, MetricSettings(**options)
    )


def sacrebleu_bleu(options: dict, effective: bool | None = None) -> BLEU:
    return BLEU(
        smooth_method=options["bleu_smooth_method"],
        smooth_value=options.get("bleu_smooth_value"),
        max_ngram_order=options.get("bleu_max_order", 4),
        effective_order=options.get("bleu_effective_order", False) if effective is None else True,
    )


@pytest.mark.parametrize("dataset", datasets())
@pytest.mark.parametrize("options", BLEU_OPTIONS, ids=str)
def test_bleu_options_equal_sacrebleu(dataset, options):
    texts = loaded(dataset)
    stats = scored(texts, ("bleu",), options)
    references = [list(ref.texts) for ref in texts.test_set.references]
    bleu = sacrebleu_bleu(options)
    for system in texts.systems[:SYSTEMS]:
        expected = bleu.corpus_score(list(system.hypotheses), references).score
        assert 100 * stats.score(system.name, "bleu") == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("dataset", datasets())
@pytest.mark.parametrize("options", BLEU_OPTIONS, ids=str)
def test_sentence_bleu_follows_the_smoothing(dataset, options):
    """Segment scores are sacreBLEU's sentence BLEU (always with the effective order, as
    sacreBLEU's sentence_bleu and its -sl) with the chosen smoothing and order."""
    texts = loaded(dataset)
    stats = scored(texts, ("bleu",), options)
    bleu = sacrebleu_bleu(options, effective=True)
    for system in texts.systems[:SYSTEMS]:
        mine = 100 * stats.segment_scores(system.name, "bleu")[:SENTENCES]
        expected = [
            bleu.sentence_score(hyp, [ref.texts[i] for ref in texts.test_set.references]).score
            for i, hyp in enumerate(system.hypotheses[:SENTENCES])
        ]
        np.testing.assert_allclose(mine, expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("dataset", datasets())
@pytest.mark.parametrize("options", CHRF_OPTIONS, ids=str)
@pytest.mark.parametrize("metric", ["chrf", "chrf++"])
def test_chrf_options_equal_sacrebleu(dataset, options, metric):
    texts = loaded(dataset)
    stats = scored(texts, (metric,), options)
    chrf = CHRF(
        char_order=options.get("chrf_char_order", 6),
        word_order=2 if metric == "chrf++" else 0,
        beta=options.get("chrf_beta", 2),
        whitespace=options.get("chrf_whitespace", False),
        eps_smoothing=options.get("chrf_eps_smoothing", False),
        references=[list(ref.texts) for ref in texts.test_set.references],
    )
    for system in texts.systems[:SYSTEMS]:
        expected = chrf.corpus_score(list(system.hypotheses), None).score
        assert stats.score(system.name, metric) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("dataset", datasets())
@pytest.mark.parametrize("options", TER_OPTIONS, ids=str)
def test_ter_options_equal_sacrebleu(dataset, options):
    texts = loaded(dataset)
    stats = scored(texts, ("ter",), options)
    ter = TER(
        normalized=options.get("ter_normalized", False),
        no_punct=options.get("ter_no_punct", False),
        asian_support=options.get("ter_asian_support", False),
        case_sensitive=options.get("ter_case_sensitive", False),
    )
    references = [list(ref.texts[:SENTENCES]) for ref in texts.test_set.references]
    metric = stats.metric("ter")
    for system in texts.systems[:SYSTEMS]:
        expected = ter.corpus_score(list(system.hypotheses[:SENTENCES]), references).score
        rows = stats.rows(system.name, "ter")[:SENTENCES]
        assert metric.score_one(rows.sum(axis=0)) == pytest.approx(expected, abs=1e-9)
