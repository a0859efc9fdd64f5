"""BLEU and M-BLEU read on sacreBLEU's 0-100 scale: the same result, times 100, everywhere.

The scaled result must equal what the analysis would give if BLEU were computed times 100 from
the start (scores, intervals, differences, rankings, segment scores), while everything that does
not depend on the unit (relative intervals, RSDs, p-values, verdicts) stays the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from shared_corpora import DATASETS, MISSING, golden, statistics

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.scale import (
    BleuPercent,
    check_scale,
    on_scale,
    scaled_scores,
    scaled_statistics,
)
from mtgui.engine.text.settings import Case
from mtgui.io.demo import load_demo

METRICS = ("bleu", "mbleu", "nist", "chrf")


@pytest.fixture(scope="module")
def result():
    settings = BootstrapSettings(resamples=300, seed=7)
    return run_to_end(iter_analysis(load_demo(), METRICS, MetricSettings(), settings))


def test_scale_1_is_the_result_itself(result):
    assert on_scale(result, 1) is result


@pytest.mark.parametrize("scale", [0, 10, -100, 1000])
def test_other_scales_are_refused(result, scale):
    with pytest.raises(ValueError, match="1 or 100"):
        on_scale(result, scale)
    with pytest.raises(ValueError):
        check_scale(scale)


def test_bleu_and_mbleu_are_multiplied_the_others_are_not(result):
    scaled = on_scale(result, 100)
    for system in result.bootstrap.systems:
        for metric in METRICS:
            factor = 100.0 if metric in ("bleu", "mbleu") else 1.0
            before = result.bootstrap.interval(system, metric)
            after = scaled.bootstrap.interval(system, metric)
            for field in ("score", "median", "mean", "std", "ci_low", "ci_high"):
                assert getattr(after, field) == pytest.approx(getattr(before, field) * factor)
            np.testing.assert_allclose(after.samples, before.samples * factor)
            assert after.rel_ci_low == before.rel_ci_low
            assert after.rel_ci_high == before.rel_ci_high
            assert after.rsd == before.rsd
            assert scaled.statistics.score(system, metric) == pytest.approx(
                result.statistics.score(system, metric) * factor, rel=1e-12
            )
            np.testing.assert_allclose(
                scaled.statistics.segment_scores(system, metric),
                result.statistics.segment_scores(system, metric) * factor,
            )
    assert 0.4 < result.bootstrap.interval("Lumen", "bleu").score < 0.9
    assert 40 < scaled.bootstrap.interval("Lumen", "bleu").score < 90


def test_differences_rankings_and_verdicts(result):
    scaled = on_scale(result, 100)
    for before, after in zip(result.bootstrap.pairs, scaled.bootstrap.pairs, strict=True):
        factor = 100.0 if before.metric in ("bleu", "mbleu") else 1.0
        assert after.delta == pytest.approx(before.delta * factor)
        assert (after.ci_low, after.ci_high) == pytest.approx(
            (before.ci_low * factor, before.ci_high * factor)
        )
        assert (after.p_value, after.verdict) == (before.p_value, before.verdict)
    for before, after in zip(result.bootstrap.rankings, scaled.bootstrap.rankings, strict=True):
        assert [e.system for e in after.systems] == [e.system for e in before.systems]
        assert after.clusters == before.clusters
        factor = 100.0 if before.metric in ("bleu", "mbleu") else 1.0
        assert [e.score for e in after.systems] == pytest.approx(
            [e.score * factor for e in before.systems]
        )


def test_the_scaled_result_is_what_a_bootstrap_of_percent_bleu_gives(result):
    """Scaling after the bootstrap equals bootstrapping the scaled metric: same draws."""
    scaled_stats = scaled_statistics(result.statistics)
    direct = run_to_end(iter_bootstrap(scaled_stats, result.bootstrap.settings))
    scaled = on_scale(result, 100).bootstrap
    for a, b in zip(direct.intervals, scaled.intervals, strict=True):
        assert (a.system, a.metric) == (b.system, b.metric)
        assert b.ci_low == pytest.approx(a.ci_low, rel=1e-12)
        assert b.ci_high == pytest.approx(a.ci_high, rel=1e-12)
        assert b.median == pytest.approx(a.median, rel=1e-12)
    assert [p.verdict for p in direct.pairs] == [p.verdict for p in scaled.pairs]
    assert direct.signature == scaled.signature


def test_the_signature_says_the_scale(result):
    scaled = on_scale(result, 100)
    assert "bleu[smooth=mteval][scale=100]" in scaled.bootstrap.signature
    assert "mbleu[scale=100]" in scaled.statistics.signature()
    assert "scale=100" not in result.bootstrap.signature
    # Everything else in the signature is the same.
    assert scaled.bootstrap.signature.replace("[scale=100]", "") == result.bootstrap.signature


def test_scores_of_a_run_in_progress():
    samples = np.array([0.25, 0.5])
    scaled = scaled_scores({("A", "bleu"): samples, ("A", "nist"): samples}, 100)
    assert scaled[("A", "bleu")].tolist() == [25.0, 50.0]
    assert scaled[("A", "nist")].tolist() == [0.25, 0.5]
    assert scaled_scores({("A", "mbleu"): samples}, 1)[("A", "mbleu")].tolist() == [0.25, 0.5]


def test_percent_bleu_is_still_bleu():
    metric = BleuPercent()
    assert isinstance(metric, Bleu)
    assert (metric.name, metric.label, metric.scale) == ("bleu", "BLEU", "0-100")


@pytest.mark.shared
@pytest.mark.parametrize("dataset", list(DATASETS) or [pytest.param("", marks=MISSING)])
def test_percent_bleu_is_sacrebleus_number(dataset):
    """On sacreBLEU's scale, BLEU is sacreBLEU's own number (not only after times 100)."""
    info = golden(dataset)
    sets = info["sacrebleu"]["scores"]
    refset = "single" if "single" in sets else max(sets, key=len)  # all the references
    refs = tuple(r["id"] for r in info["references"] if refset == "single" or r["id"] in refset)
    stats = scaled_statistics(statistics(dataset, "txt", refs, Case.SENSITIVE, ("bleu",)))
    for name, gold in sets[refset].items():
        assert stats.score(name, "bleu") == pytest.approx(gold["BLEU"]["score"], abs=1e-9)
        assert f"{stats.score(name, 'bleu'):.2f}" == f"{gold['BLEU']['score']:.2f}"


def test_the_references_study_of_a_scaled_result_is_on_its_scale(result):
    """The references study scores every subset again: on the scale of the result shown."""
    from mtgui.engine.studies.dispatch import iter_study

    def rows(analysis):
        study = run_to_end(
            iter_study(
                "refs",
                analysis.corpus,
                analysis.statistics,
                MetricSettings(),
                BootstrapSettings(resamples=100, seed=3),
                0,
            )
        )
        return {(r.references, r.system, r.metric): r for r in study.rows}, study

    unit, unit_study = rows(result)
    percent, percent_study = rows(on_scale(result, 100))
    assert unit.keys() == percent.keys() and unit
    for key, row in unit.items():
        factor = 100.0 if key[2] in ("bleu", "mbleu") else 1.0
        assert percent[key].score == pytest.approx(row.score * factor, rel=1e-12)
        assert percent[key].ci_high == pytest.approx(row.ci_high * factor, rel=1e-12)
        assert percent[key].rel_ci_low == pytest.approx(row.rel_ci_low, rel=1e-9)
    assert "bleu-scale:100" in percent_study.signature
    assert "bleu-scale" not in unit_study.signature
