"""On the real WMT data, with every correction: the interval in the JSON holds 0 exactly when
the verdict is '~', and Holm at B = 1,000 (raised where it could find nothing) finds the pairs
Holm at B = 10,000 finds."""

from __future__ import annotations

import pytest
from shared_corpora import DATASETS, MISSING, corpus, golden, statistics

from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.corrections import Family
from mtgui.engine.inference.significance import TIE, Correction
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.text.settings import Case
from mtgui.report.evaluation import evaluation_report

pytestmark = pytest.mark.shared


def cases() -> list:
    return [pytest.param(d, id=d) for d in DATASETS] or [pytest.param("", marks=MISSING)]


def shared_statistics(dataset: str):
    refs = tuple(r["id"] for r in golden(dataset)["references"])
    return refs, statistics(dataset, "txt", refs, Case.SENSITIVE, ("bleu", "nist", "chrf"))


@pytest.mark.parametrize("dataset", cases())
@pytest.mark.parametrize("family", list(Family))
def test_the_json_interval_holds_zero_exactly_when_the_verdict_is_tie(dataset, family):
    refs, stats = shared_statistics(dataset)
    for correction in Correction:
        settings = BootstrapSettings(resamples=1000, correction=correction, family=family)
        result = run_to_end(iter_bootstrap(stats, settings))
        report = evaluation_report(corpus(dataset, "txt", refs), stats, result)
        for pair in report["pairs"]:
            holds = pair["ci_low"] <= 0 <= pair["ci_high"]
            assert (pair["verdict"] == TIE) == holds, (correction, pair)
            assert pair["mdd"] > 0
            if correction is not Correction.NONE:
                assert "ci_low_uncorrected" in pair


@pytest.mark.parametrize("dataset", cases())
def test_holm_at_1000_resamples_finds_the_pairs_holm_at_10000_finds(dataset):
    # BLEU only, from the statistics the other test cached (its rows serve BLEU alone): the
    # shared sets have 6-8 systems (15-28 pairs), so B = 1,000 is raised to 2,000 only where
    # Holm needs it (28 pairs need 1,120).
    _, cached = shared_statistics(dataset)
    stats = cached.with_metrics(tuple(m for m in cached.metrics if m.name == "bleu"))
    found = {}
    for resamples in (1000, 10_000):
        settings = BootstrapSettings(resamples=resamples, correction=Correction.HOLM)
        result = run_to_end(iter_bootstrap(stats, settings))
        found[resamples] = {(p.metric, p.x, p.y) for p in result.pairs if p.verdict != TIE}
    assert found[10_000] <= found[1000]
    assert found[10_000]  # the shared sets have systems far apart
