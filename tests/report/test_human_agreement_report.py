"""How often humans would agree with a pair's delta (Kocmi et al. 2024) in the JSON report and
the HTML report's pairs table: present for a calibrated metric, absent for the others."""

from __future__ import annotations

from datetime import datetime

import pytest

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference import HUMAN_AGREEMENT_SOURCE
from mtgui.engine.inference.human_agreement import FITS
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.scale import on_scale
from mtgui.io.demo import load_demo
from mtgui.report.agreement import metric_agreement
from mtgui.report.evaluation import evaluation_report
from mtgui.report.html_report import AGREEMENT_HEADER, html_report, pairs_table


def _analysis(metrics):
    settings = BootstrapSettings(resamples=100)
    return run_to_end(iter_analysis(load_demo(), metrics, MetricSettings(), settings))


@pytest.fixture(scope="module")
def analysis():
    return _analysis(["bleu", "chrf", "ter"])


def test_json_pairs_carry_the_estimate_only_for_calibrated_metrics(analysis):
    report = evaluation_report(analysis.corpus, analysis.statistics, analysis.bootstrap)
    assert report["human_agreement_source"] == HUMAN_AGREEMENT_SOURCE
    assert set(report["human_agreement_fits"]) == {"bleu", "chrf"}
    assert report["human_agreement_fits"]["bleu"]["points_per_unit"] == 100
    for pair in report["pairs"]:
        if pair["metric"] == "ter":
            assert "human_agreement" not in pair
            continue
        fit = FITS[pair["metric"]]
        points = pair["delta"] * (100 if pair["metric"] == "bleu" else 1)
        assert pair["human_agreement"] == pytest.approx(fit.accuracy(points))
        assert 0 <= pair["human_agreement"] <= 1


def test_json_estimate_is_the_same_on_either_bleu_scale(analysis):
    unit = evaluation_report(analysis.corpus, analysis.statistics, analysis.bootstrap)
    scaled = on_scale(analysis, 100)
    percent = evaluation_report(scaled.corpus, scaled.statistics, scaled.bootstrap)
    assert [p.get("human_agreement") for p in percent["pairs"]] == pytest.approx(
        [p.get("human_agreement") for p in unit["pairs"]]
    )


def test_json_without_a_calibrated_metric_says_nothing_of_it():
    found = _analysis(["ter"])
    report = evaluation_report(found.corpus, found.statistics, found.bootstrap)
    assert "human_agreement_source" not in report
    assert all("human_agreement" not in pair for pair in report["pairs"])


def test_html_pairs_table_shows_the_estimate_with_its_source(analysis):
    bootstrap = analysis.bootstrap
    agreement = metric_agreement(analysis.statistics, "bleu")
    table = pairs_table(bootstrap, "bleu", agreement)
    assert f"<th>{AGREEMENT_HEADER}</th>" in table and "Kocmi" in table
    pair = bootstrap.pair("bleu", *bootstrap.grid("bleu")[0][:2])
    assert agreement is not None
    assert f"{agreement.of(pair.delta):.1%}" in table
    assert AGREEMENT_HEADER not in pairs_table(bootstrap, "ter")
    page = html_report(analysis.corpus, analysis.statistics, bootstrap, datetime(2026, 1, 1))
    assert page.count(f"<th>{AGREEMENT_HEADER}</th>") == 2  # BLEU's and chrF's, not TER's
