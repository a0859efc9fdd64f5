"""The test-set size study (Zhang & Vogel 4.1) on data whose answer is known."""

from __future__ import annotations

import math
import threading
from itertools import combinations
from types import MappingProxyType

import numpy as np
import pytest
from study_runs import METRICS, demo_statistics, run

from mtgui.engine.calibration.documents import synthetic_pool
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import compare
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.human import Human
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import Statistics, SystemStatistics
from mtgui.engine.studies import ALL, SizeSettings, iter_size_study
from mtgui.engine.studies.common import pair_signs
from mtgui.engine.studies.size.study import smallest_separation


@pytest.fixture
def demo():
    return demo_statistics()


def small(**changes) -> SizeSettings:
    values = {"bootstrap": BootstrapSettings(resamples=100), "fractions": (0.5, 1.0), "repeats": 3}
    return SizeSettings(**{**values, **changes})


def iid_statistics(size: int, seed: int) -> Statistics:
    """Two systems whose segments are independent draws: BLEU rows and human-like means."""
    bleu_a, bleu_b = synthetic_pool(size, 0.05, seed)
    rng = np.random.default_rng(seed)
    human = [np.column_stack([rng.normal(mu, 1, size), np.ones(size)]) for mu in (0.5, 0.7)]
    systems = (
        SystemStatistics(name, MappingProxyType({"bleu": bleu, "human": judged}))
        for name, bleu, judged in zip("AB", (bleu_a, bleu_b), human, strict=True)
    )
    return Statistics(MetricSettings(), (Bleu(), Human()), tuple(systems))


def test_halving_the_data_widens_the_interval_by_the_square_root_of_two():
    """Segments drawn independently: the bootstrap CI of n/2 segments is sqrt(2) times wider.

    Tolerance 6%: over six seeds of this very setting the ratio varied with a standard
    deviation of about 2% (K = 20 subsets of 500 out of 1,000 segments, B = 400 each; the
    spread of the subsets' own variances and the percentile noise of B = 400), so 6% is about
    three standard deviations, while a wrong scaling (1 or 2) is far outside.
    """
    settings = SizeSettings(BootstrapSettings(resamples=400, seed=7), (0.25, 0.5, 1.0), 20)
    _, study = run(iter_size_study(iid_statistics(1000, 7), settings))
    for system in "AB":
        for metric in ("bleu", "human"):
            _, half, whole = study.series(system, metric)
            assert (half.segments, whole.segments) == (500, 1000)
            ratio = (half.ci_high - half.ci_low) / (whole.ci_high - whole.ci_low)
            assert ratio == pytest.approx(math.sqrt(2), rel=0.06), (system, metric)
            relative = (half.rel_ci_high - half.rel_ci_low) / (whole.rel_ci_high - whole.rel_ci_low)
            if metric == "human":  # off a ratio scale: no relative interval, as in mtgui eval
                assert math.isnan(relative), system
            else:
                assert relative == pytest.approx(math.sqrt(2), rel=0.06), (system, metric)
    # The fitted rule of thumb is the square-root law: doubling narrows the CI by 29.3%.
    assert study.fit().exponent == pytest.approx(-0.5, abs=0.03)
    assert study.fit().narrowing == pytest.approx(29.3, abs=2.0)


def test_every_table_has_a_row_for_every_system_metric_and_fraction(demo):
    statistics, documents = demo
    settings = small(fractions=(0.2, 0.5, 1.0))
    _, study = run(iter_size_study(statistics, settings, documents))
    systems, fractions = statistics.system_names, settings.fractions
    keys = [(r.metric, r.system, r.fraction) for r in study.rows]
    assert keys == [(m, s, f) for m in METRICS for s in systems for f in fractions]
    pairs = [(p.metric, p.x, p.y) for p in study.pairs]
    assert pairs == [(m, x, y) for m in METRICS for x, y in combinations(systems, 2)]
    assert all(len(p.x_better) == len(p.y_better) == 3 for p in study.pairs)
    fits = [(f.system, f.metric) for f in study.fits]
    per_system = [(s, m) for m in METRICS for s in systems]
    assert fits == [*per_system, *((ALL, m) for m in METRICS), (ALL, ALL)]
    assert study.by_document and study.repeats_done == 3
    assert [r.pieces for r in study.series("Lumen", "bleu")] == [1, 3, 6]  # of 6 documents


def test_the_whole_test_set_is_the_same_subset_every_time(demo):
    statistics, documents = demo
    _, study = run(iter_size_study(statistics, small(), documents))
    for system in statistics.system_names:
        whole = study.series(system, "bleu")[-1]
        assert whole.segments == 95 and whole.repeats == 3
        assert whole.score == pytest.approx(statistics.score(system, "bleu"), rel=1e-12)
        assert whole.score_std == 0.0
        half = study.series(system, "bleu")[0]
        assert half.score_std > 0  # different documents in each subset


def test_subsets_of_segments_without_documents(demo):
    statistics, _ = demo
    settings = small(bootstrap=BootstrapSettings(resamples=100, unit=Unit.DOCUMENT))
    _, study = run(iter_size_study(statistics, settings))
    assert not study.by_document
    assert [r.segments for r in study.series("Quill", "nist")] == [48, 95]  # round(47.5) = 48
    assert "no documents, so single segments were resampled" in " ".join(study.notes)


def test_the_same_seed_gives_the_same_study_and_another_seed_another(demo):
    statistics, documents = demo
    first = run(iter_size_study(statistics, small(), documents))[1]
    again = run(iter_size_study(statistics, small(), documents))[1]
    other = small(bootstrap=BootstrapSettings(resamples=100, seed=1))
    different = run(iter_size_study(statistics, other, documents))[1]
    assert first.rows == again.rows and first.pairs == again.pairs
    assert first.rows != different.rows


def test_snapshots_grow_until_the_result(demo):
    statistics, documents = demo
    snapshots, study = run(iter_size_study(statistics, small(repeats=4), documents))
    dones = [s.done for s in snapshots]
    assert dones == sorted(dones) and dones[-1] == snapshots[-1].total == 8
    assert {s.phase for s in snapshots} == {"size"}
    repeats = [s.partial.repeats_done for s in snapshots]
    assert repeats == sorted(repeats) and repeats[-1] == 4
    first = snapshots[0].partial.series("Lumen", "bleu")
    assert all(row.repeats == 0 and math.isnan(row.score) for row in first)
    assert snapshots[-1].partial == study


def test_closing_the_generator_cancels_and_leaves_no_thread(demo):
    statistics, documents = demo
    study = iter_size_study(statistics, small(repeats=50), documents)
    for _ in range(3):
        next(study)
    study.close()
    assert not [t for t in threading.enumerate() if t.name == "mtgui-draw"]
    with pytest.raises(StopIteration):
        next(study)


def test_vectorised_verdicts_are_the_paired_comparisons(demo):
    statistics, _ = demo
    result = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=300)))
    systems = statistics.system_names
    for metric in statistics.metrics:
        samples = np.stack([result.interval(s, metric.name).samples for s in systems])
        signs = pair_signs(samples, 0.95, metric.higher_is_better)
        expected = [
            {">": 1, "<": -1, "~": 0}[
                compare(metric.name, x, y, (0.0, 0.0), (samples[i], samples[j]), 0.95, True).verdict
            ]
            for (i, x), (j, y) in combinations(enumerate(systems), 2)
        ]
        assert signs.tolist() == expected


def test_the_smallest_separating_fraction_must_hold_for_every_larger_one():
    settings = SizeSettings(fractions=(0.1, 0.2, 0.3, 0.4, 0.5), repeats=100)
    # 0.2 separates by luck; from 0.4 on it holds.
    assert smallest_separation(settings, (0.5, 0.97, 0.9, 0.95, 1.0), (0,) * 5) == (0.4, ">")
    assert smallest_separation(settings, (0,) * 5, (0.96, 0.96, 0.96, 0.99, 1.0)) == (0.1, "<")
    assert smallest_separation(settings, (0.99, 0.99, 0.5, 0.99, 0.94), (0,) * 5) == (None, "~")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"fractions": (0.0, 0.5)}, "above 0 and at most 1"),
        ({"fractions": (0.5, 1.5)}, "above 0 and at most 1"),
        ({"repeats": 0}, "repetitions"),
        ({"agreement": 0.4}, "agreement"),
    ],
)
def test_settings_that_make_no_sense_are_refused(changes, message):
    with pytest.raises(InputError, match=message):
        SizeSettings(**changes)
