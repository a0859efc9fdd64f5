"""How often humans would agree with a metric delta: Kocmi et al. (2024)'s fits, checked
against their paper's table of deltas, their tool's 63.989% and mtgui's metrics and scales."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtgui.engine.inference import agreement_for
from mtgui.engine.inference.human_agreement import FITS, PLAIN_COMET
from mtgui.engine.metrics import external_metric
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.chrf.chrfpp import ChrfPlusPlus
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.scale import BleuPercent

# The paper's table: the delta needed for each estimated accuracy, from 50% in steps of 5%.
PAPER_DELTAS = {
    "bleu": (0.27, 0.52, 0.78, 1.06, 1.39, 1.79, 2.34, 3.35),
    "chrf": (0.14, 0.33, 0.54, 0.76, 1.00, 1.28, 1.63, 2.12, 3.05),
    "comet22": (0.03, 0.10, 0.18, 0.26, 0.35, 0.45, 0.56, 0.71, 0.94, 1.53),
    "spBLEU200": (0.25, 0.52, 0.82, 1.13, 1.49, 1.91, 2.46, 3.28, 5.57),
}


@pytest.mark.parametrize("metric", sorted(PAPER_DELTAS))
def test_the_inverted_fits_give_the_papers_table(metric):
    fit = FITS[metric]
    for k, expected in enumerate(PAPER_DELTAS[metric]):
        delta = fit.delta(0.50 + 0.05 * k)
        assert delta is not None
        assert round(delta, 2) == pytest.approx(expected, abs=1e-9), (metric, k)
        assert fit.accuracy(delta) == pytest.approx(0.50 + 0.05 * k)


def test_the_tools_example_and_the_curves_ceiling():
    assert FITS["bleu"].accuracy(1.0) == pytest.approx(0.63989, abs=5e-6)
    assert FITS["bleu"].accuracy(-1.0) == FITS["bleu"].accuracy(1.0)  # |delta|
    assert FITS["bleu"].delta(0.90) is None  # above a = 88.3%
    assert FITS["bleu"].delta(0.0) is None


def test_bleu_by_tokenizer_and_scale():
    unit = agreement_for(Bleu(), MetricSettings(), [0.3, 0.31])
    assert unit is not None and unit.fit.name == "bleu" and unit.factor == 100
    assert unit.of(0.01) == pytest.approx(0.63989, abs=5e-6)
    percent = agreement_for(BleuPercent(), MetricSettings(), [30.0, 31.0])
    assert percent is not None and percent.of(1.0) == pytest.approx(unit.of(0.01))
    flores = agreement_for(Bleu(), MetricSettings(tokenize="flores200"), [0.3])
    assert flores is not None and flores.fit.name == "spBLEU200"
    assert agreement_for(Bleu(), MetricSettings(tokenize="char"), [0.3]) is None
    assert unit.of(math.nan) is None


def test_chrf_but_not_chrf_plus_plus_nor_other_metrics():
    chrf = agreement_for(Chrf(), MetricSettings(), [55.0])
    assert chrf is not None and chrf.fit.name == "chrf" and chrf.factor == 1
    assert agreement_for(Chrf(word_order=2), MetricSettings(), [55.0]) is None
    assert agreement_for(Chrf(beta=1), MetricSettings(), [55.0]) is None
    assert agreement_for(ChrfPlusPlus(), MetricSettings(), [55.0]) is None
    assert agreement_for(Ter(), MetricSettings(), [40.0]) is None


@pytest.mark.parametrize(
    ("name", "fit"),
    [
        ("comet22", "comet22"),
        ("comet-22", "comet22"),
        ("wmt22-comet-da", "comet22"),
        ("comet", "comet22"),
        ("comet20", "comet20"),
        ("cometkiwi", "cometkiwi22"),
        ("wmt22-cometkiwi-da", "cometkiwi22"),
        ("xcomet-xxl", "xcomet-XXL"),
        ("xcomet_xxl", "xcomet-XXL"),
        ("bleurt20", "bleurt-20"),
        ("bleurt-default", "bleurt-default"),
    ],
)
def test_loaded_scores_by_name(name, fit):
    found = agreement_for(external_metric(name)(), MetricSettings(), [0.84, 0.85])
    assert found is not None and found.fit.name == fit


def test_loaded_scores_scale_and_assumptions_in_words():
    unit = agreement_for(external_metric("comet")(), MetricSettings(), [0.84, -1.2, math.nan])
    assert unit is not None and unit.factor == 100
    assert unit.assumptions[0] == PLAIN_COMET and "0-1" in unit.assumptions[1]
    hundred = agreement_for(external_metric("comet22")(), MetricSettings(), [84.0, 85.0])
    assert hundred is not None and hundred.factor == 1
    assert "already multiplied by 100" in hundred.assumptions[0]
    assert unit.of(0.01) == pytest.approx(hundred.of(1.0))
    settings = MetricSettings()
    assert agreement_for(external_metric("human")(), settings, [0.1]) is None
    assert agreement_for(external_metric("comet", False)(), settings, [0.1]) is None
    assert agreement_for(external_metric("comet")(), settings, [math.nan]) is None


@pytest.mark.parametrize(
    "options",
    [
        {"case": "full"},
        {"case": "ascii"},
        {"bleu_smooth_method": "floor"},
        {"bleu_smooth_method": "add-k"},
        {"bleu_smooth_method": "none"},
        {"bleu_max_order": 3},
    ],
)
def test_no_estimate_for_bleu_scored_unlike_the_fits(options):
    """The fits are on cased BLEU with sacreBLEU's default smoothing and four orders."""
    assert agreement_for(Bleu(), MetricSettings(**options), [0.3]) is None


@pytest.mark.parametrize(
    "options", [{"case": "full"}, {"chrf_whitespace": True}, {"chrf_eps_smoothing": True}]
)
def test_no_estimate_for_chrf_scored_unlike_the_fits(options):
    assert agreement_for(Chrf(), MetricSettings(**options), [55.0]) is None


def test_bleu_smoothed_as_exp_or_mteval_has_the_fit_and_the_same_corpus_score():
    """mteval's and sacreBLEU's exp smoothing give the same corpus BLEU where every order has
    a match; they differ only where one has none."""
    for method in ("exp", "mteval"):
        assert agreement_for(Bleu(), MetricSettings(bleu_smooth_method=method), [0.3]) is not None
    every = np.array([[9.0, 10.0, 7.0, 5.0, 3.0, 1.0, 9.0, 8.0, 7.0, 6.0]])
    exp, mteval = Bleu(smooth_method="exp"), Bleu(smooth_method="mteval")
    assert exp.score(every)[0] == pytest.approx(mteval.score(every)[0], rel=1e-12)
