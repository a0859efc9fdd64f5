"""Metric-human agreement: system-level correlations, their intervals, the tests of pairs of
metrics, and the pairs of systems where a metric and the humans disagree."""

from __future__ import annotations

import json
import math
from types import MappingProxyType

import numpy as np
import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.metrics.human import Human
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.wer import Wer
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics, compute_statistics
from mtgui.engine.studies import iter_human_study
from mtgui.engine.studies.common import percentile_bounds
from mtgui.engine.studies.human.correlation_stats import (
    average_ranks,
    draw_systems,
    fisher_interval,
    over_drawn_systems,
    pearson_rows,
    spearman_rows,
    t_two_sided,
    williams_test,
)
from mtgui.engine.studies.human.meta_evaluation import pairwise_accuracy, tie_calibrated_accuracy
from mtgui.engine.studies.human.study import SYSTEMS_STREAM
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file, load_scores
from mtgui.report.study_tables import study_data, study_tables
from mtgui.report.study_text import study_text

SEGMENTS = 40
# System -> (M-BLEU, human score), the same on every segment, so that every resample scores
# exactly these and a pair is significantly different exactly when its scores differ.
SYSTEMS = {"F": (0.6, 2.0), "G": (0.4, 5.0), "H": (0.5, 3.0), "I": (0.3, 3.0), "J": (0.4, 1.0)}


def constant_statistics(
    systems: dict[str, tuple[float, float]], wer: dict[str, float] | None = None
) -> Statistics:
    """M-BLEU (and WER, when given) and human scores that are the same on every segment."""

    def rows(system: str, mbleu: float, human: float) -> dict[str, np.ndarray]:
        # M-BLEU row: c = r = 10 (no brevity penalty), 10 * p matches of 10 n-grams per order.
        row = [10, 10, *([10 * mbleu] * 4), *([10] * 4)]
        judged = [human, 1.0] if human == human else [0.0, 0.0]  # NaN: not judged
        found = {"mbleu": np.tile(row, (SEGMENTS, 1)), "human": np.tile(judged, (SEGMENTS, 1))}
        if wer is not None:  # WER row: edits, reference length
            found["wer"] = np.tile([10 * wer[system], 10], (SEGMENTS, 1))
        return found

    metrics = (MBleu(), Human()) if wer is None else (MBleu(), Wer(), Human())
    return Statistics(
        MetricSettings(),
        metrics,
        tuple(SystemStatistics(s, MappingProxyType(rows(s, *v))) for s, v in systems.items()),
    )


@pytest.fixture(scope="module")
def study():
    statistics = constant_statistics({**SYSTEMS, "X": (0.9, float("nan"))})
    return run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=200)))


def test_correlations_are_pearson_and_spearman_of_the_system_scores(study):
    metric = np.array([v[0] for v in SYSTEMS.values()])
    human = np.array([v[1] for v in SYSTEMS.values()])
    correlation = study.correlation("mbleu")
    assert correlation.systems == 5
    assert correlation.pearson == pytest.approx(np.corrcoef(metric, human)[0, 1], abs=1e-12)
    # Ranks by hand, ties sharing their mean rank: M-BLEU 0.3 < 0.4 = 0.4 < 0.5 < 0.6,
    # human 1 < 2 < 3 = 3 < 5.
    metric_ranks, human_ranks = [5, 2.5, 4, 1, 2.5], [2, 5, 3.5, 3.5, 1]
    expected = np.corrcoef(metric_ranks, human_ranks)[0, 1]
    assert correlation.spearman == pytest.approx(expected, abs=1e-12)
    # Every resample of segments gives the same scores: the interval over segments only
    # shrinks to the point, and all the uncertainty is in which systems were drawn.
    assert correlation.pearson_segments_low == pytest.approx(correlation.pearson, abs=1e-12)
    assert correlation.spearman_segments_high == pytest.approx(correlation.spearman, abs=1e-12)
    assert correlation.pearson_low < correlation.pearson - 0.1
    # Fisher's z by hand: tanh(atanh r +- 1.96 / sqrt(5 - 3)).
    z, half = math.atanh(correlation.pearson), 1.959963984540054 / math.sqrt(2)
    fisher = (correlation.pearson_fisher_low, correlation.pearson_fisher_high)
    assert fisher == pytest.approx((math.tanh(z - half), math.tanh(z + half)), abs=1e-12)


def test_the_interval_over_systems_correlates_the_systems_drawn_in_each_resample(study):
    """Recomputed one resample at a time with numpy's corrcoef, from the study's own stream."""
    metric = np.array([v[0] for v in SYSTEMS.values()])
    human = np.array([v[1] for v in SYSTEMS.values()])
    draws = draw_systems(study.settings.seed, SYSTEMS_STREAM, len(SYSTEMS), 200)
    values = []
    for drawn in draws:
        x, y = metric[drawn], human[drawn]
        if np.ptp(x) > 0 and np.ptp(y) > 0:  # else no correlation: left out
            values.append(np.corrcoef(x, y)[0, 1])
    correlation = study.correlation("mbleu")
    assert correlation.undefined_resamples == 200 - len(values) > 0  # G and J alike, H and I
    low, high = np.percentile(values, [2.5, 97.5])
    assert (correlation.pearson_low, correlation.pearson_high) == pytest.approx((low, high))
    assert f"{correlation.undefined_resamples} of 200 resamples" in " ".join(study.notes)


def test_disagreements_come_in_three_kinds_named_from_the_better_system(study):
    found = {(d.kind, d.x, d.y): (d.metric_verdict, d.human_verdict) for d in study.disagreements}
    assert found == {
        # Zhang, Vogel & Waibel's F vs G: the metric says F, the humans G, both significantly.
        ("opposite", "F", "G"): (">", "<"),
        ("opposite", "F", "H"): (">", "<"),
        ("opposite", "F", "I"): (">", "<"),
        ("opposite", "H", "G"): (">", "<"),
        ("opposite", "J", "I"): (">", "<"),
        ("metric_only", "H", "I"): (">", "~"),  # the humans score H and I alike
        ("human_only", "G", "J"): ("~", ">"),  # the metric scores G and J alike
    }
    fg = study.of_kind("opposite")[0]
    assert fg.metric_delta == pytest.approx(0.2) and fg.human_delta == pytest.approx(-3.0)
    counts = study.correlation("mbleu")
    assert (counts.pairs, counts.agree, counts.opposite) == (10, 3, 5)
    assert (counts.metric_only, counts.human_only) == (1, 1)


def test_systems_without_human_scores_are_left_out(study):
    assert study.systems == tuple(SYSTEMS) and study.left_out == ("X",)
    assert "left out: X" in " ".join(study.notes)
    assert study.bootstrap is not None and study.bootstrap.systems == tuple(SYSTEMS)
    assert study.bootstrap.interval("G", "human").score == 5.0


def test_average_ranks_share_ties_and_spearman_is_undefined_with_undefined_scores():
    values = np.array([[3.0, 1.0], [1.0, 1.0], [3.0, 2.0], [2.0, 1.0]])
    assert average_ranks(values).tolist() == [[3.5, 2.0], [1.0, 2.0], [3.5, 4.0], [2.0, 2.0]]
    first = np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 3.0]])
    second = np.array([[1.0, 3.0], [2.0, 2.0], [3.0, 1.0]])
    rho = spearman_rows(first, second)
    assert rho[0] == pytest.approx(1.0) and np.isnan(rho[1])


def test_ranks_are_the_same_in_every_chunk_of_columns():
    values = np.random.default_rng(1).normal(size=(6, 10_000))  # more columns than one chunk
    values[:, 9_000] = 1.0  # all tied: every rank the mean, 3.5
    expected = values.argsort(axis=0).argsort(axis=0) + 1.0
    expected[:, 9_000] = 3.5
    assert np.array_equal(average_ranks(values), expected)


def test_the_study_needs_human_scores_and_an_automatic_metric():
    statistics = constant_statistics(SYSTEMS)
    only_human = Statistics(
        statistics.settings,
        (Human(),),
        tuple(
            SystemStatistics(s.system, MappingProxyType({"human": s.rows["human"]}))
            for s in statistics.systems
        ),
    )
    with pytest.raises(InputError, match="needs an automatic metric"):
        next(iter_human_study(only_human))
    no_scores = constant_statistics({"F": (0.6, float("nan")), "G": (0.4, 1.0)})
    with pytest.raises(InputError, match="two or more systems with human scores"):
        next(iter_human_study(no_scores))


@pytest.mark.shared
def test_is_en_correlations_are_the_golden_ones(shared_data):
    """WMT21 is-en, 8 systems, DA z-scores: Pearson of sacreBLEU's BLEU and chrF2 with DA, as
    recorded in golden.json (computed there independently of mtgui)."""
    folder = shared_data / "wmt21-newstest2021-is-en"
    golden = json.loads((folder / "golden.json").read_text(encoding="utf-8"))
    files = [load_file(folder / "txt/newstest2021.is-en.ref.A.en", {Role.REFERENCE})]
    files += [load_file(folder / s["txt"], {Role.SYSTEM}) for s in golden["systems"]]
    corpus = assemble(files, [load_scores(folder / "human/seg-scores-mapped.tsv", "z")])
    statistics = compute_statistics(corpus, ("bleu", "chrf", "human"))
    study = run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=200)))
    expected = golden["human_da"]["system_level_pearson_vs_DA_z_over_the_8_systems"]
    assert len(study.systems) == 8 and not study.left_out
    assert study.correlation("bleu").pearson == pytest.approx(expected["sacreBLEU_BLEU"], abs=1e-9)
    assert study.correlation("chrf").pearson == pytest.approx(expected["chrF2"], abs=1e-9)
    assert 0.7 < study.correlation("bleu").spearman <= 1.0
    # No metric contradicts the humans on this set, but both see differences they do not.
    assert not study.of_kind("opposite") and study.of_kind("metric_only")
    # Over 8 systems, the interval over systems and segments is far wider than the one over
    # segments only; Fisher's z (no resampling) is pinned here.
    bleu = study.correlation("bleu")
    assert bleu.pearson_high - bleu.pearson_low > 2 * (
        bleu.pearson_segments_high - bleu.pearson_segments_low
    )
    fisher = (bleu.pearson_fisher_low, bleu.pearson_fisher_high)
    assert fisher == pytest.approx((0.66548, 0.98802), abs=1e-5)
    # Williams' test, BLEU against chrF: deterministic, r(BLEU, chrF) = 0.98697 over 8 systems.
    test = study.correlation_test("bleu", "chrf")
    assert (test.metric_x, test.pearson_xy) == ("bleu", pytest.approx(0.98697, abs=1e-5))
    assert (test.williams_t, test.williams_p_value) == pytest.approx((1.40566, 0.21882), abs=1e-5)
    assert test.williams_verdict == test.bootstrap_verdict == "~"


def test_fisher_intervals_by_hand():
    # r = 0.5, n = 12, 95%: atanh(0.5) = 0.5493061443, z_0.975 = 1.9599639845.
    # Pearson: half width 1.9599639845 / sqrt(9) = 0.6533213282, so
    # tanh(-0.1040151838) = -0.1036416812 and tanh(1.2026274725) = 0.8344542852.
    assert fisher_interval(0.5, 12, 0.95) == pytest.approx((-0.1036416812, 0.8344542852))
    # Spearman (Fieller, Hartley & Pearson 1957): half width 1.9599639845 * sqrt(1.06 / 9)
    # = 0.6726354758: tanh(-0.1233293315) = -0.1227078277, tanh(1.2219416201) = 0.8402259835.
    spearman = fisher_interval(0.5, 12, 0.95, spearman=True)
    assert spearman == pytest.approx((-0.1227078277, 0.8402259835))
    # Undefined: fewer than 4 systems, no correlation, or |r| = 1 (z infinite).
    for r, n in ((0.5, 3), (math.nan, 12), (1.0, 12), (-1.0, 12)):
        assert all(math.isnan(bound) for bound in fisher_interval(r, n, 0.95))


def test_williams_t_by_hand():
    # r12 = 0.9, r13 = 0.7, r23 = 0.8, n = 20 (Graham & Baldwin 2014, eq. 2):
    # K = 1 - 0.81 - 0.49 - 0.64 + 2 (0.9)(0.7)(0.8) = 0.068;
    # numerator (0.9 - 0.7) sqrt(19 x 1.8) = 0.2 x 5.8480766 = 1.1696153;
    # denominator sqrt(2 x 0.068 x 19 / 17 + (1.6 / 2)^2 x 0.2^3) = sqrt(0.152 + 0.00512)
    # = 0.3963836; t = 2.9507153 with 17 degrees of freedom.
    t, p = williams_test(0.9, 0.7, 0.8, 20)
    assert t == pytest.approx(2.9507153, abs=1e-7)
    # Between the tables' two-sided critical values t_17 = 2.898 (p 0.01) and 3.222 (0.005).
    assert 0.005 < p < 0.01
    assert p == pytest.approx(two_sided_p_closed_form(t, 17), rel=1e-9)
    assert williams_test(0.7, 0.9, 0.8, 20) == pytest.approx((-t, p))  # symmetric
    assert williams_test(0.8, 0.8, 0.5, 10) == (0.0, pytest.approx(1.0))
    assert all(math.isnan(v) for v in williams_test(0.9, 0.7, 0.8, 3))  # n - 3 = 0
    assert all(math.isnan(v) for v in williams_test(0.9, 0.9, 1.0, 20))  # identical metrics


def two_sided_p_closed_form(t: float, df: int) -> float:
    """P(|T| >= |t|) for integer df by the finite series of Abramowitz & Stegun 26.7.3-4."""
    theta = math.atan(abs(t) / math.sqrt(df))
    c, s = math.cos(theta), math.sin(theta)
    if df % 2:
        term, total = c, 0.0
        for j in range((df - 1) // 2):
            total += term
            term *= c * c * (2 * j + 2) / (2 * j + 3)
        inside = 2 / math.pi * (theta + s * total) if df > 1 else 2 * theta / math.pi
    else:
        term, total = 1.0, 0.0
        for j in range(df // 2):
            total += term
            term *= c * c * (2 * j + 1) / (2 * j + 2)
        inside = s * total
    return 1 - inside


@pytest.mark.parametrize(
    ("t", "df", "p"),  # two-sided critical values of Student's t, as in every table
    [
        (12.7062047, 1, 0.05),
        (4.3026527, 2, 0.05),
        (2.5705818, 5, 0.05),
        (2.2281389, 10, 0.05),
        (2.1098156, 17, 0.05),
        (2.8982305, 17, 0.01),
        (3.2224499, 17, 0.005),
    ],
)
def test_the_t_distribution_matches_the_tables(t, df, p):
    assert t_two_sided(t, df) == pytest.approx(p, rel=1e-6)
    assert t_two_sided(-t, df) == pytest.approx(p, rel=1e-6)


def test_the_t_distribution_matches_the_closed_form_for_integer_df():
    for df in range(1, 40):
        for t in (0.0, 0.3, 1.0, 2.0, 3.5, 8.0):
            assert t_two_sided(t, df) == pytest.approx(two_sided_p_closed_form(t, df), abs=1e-12)


def test_resampling_systems_covers_the_population_correlation_far_better():
    """Systems drawn from a population whose metric and human scores correlate 0.7; each test
    set adds a little noise (sd 0.1 against 1 between systems). The segment-only interval is
    about the observed systems and misses 0.7 most of the time; resampling the systems too
    covers it about 93% of the time (Monte Carlo: 200 replications, standard error ~2%)."""
    rho, n, resamples, replications, noise = 0.7, 10, 500, 200, 0.1
    rng = np.random.default_rng(7)
    covered = {"systems": 0, "segments": 0}
    for replication in range(replications):
        quality = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], size=n)
        full = quality + rng.normal(0, noise, size=(n, 2))
        samples = full[:, :, None] + rng.normal(0, noise, size=(n, 2, resamples))
        draws = draw_systems(replication, SYSTEMS_STREAM, n, resamples)
        drawn = [over_drawn_systems(samples[:, k], draws) for k in (0, 1)]
        for kind, values in (
            ("systems", pearson_rows(*drawn)),
            ("segments", pearson_rows(samples[:, 0], samples[:, 1])),
        ):
            low, _, high = percentile_bounds(values[None, :], 0.95)
            covered[kind] += bool(low[0] <= rho <= high[0])
    systems, segments = covered["systems"] / replications, covered["segments"] / replications
    assert systems >= 0.85  # 0.925 with these seeds; 95% nominal, 4 standard errors below
    assert segments <= 0.5  # 0.325 with these seeds
    assert systems - segments >= 0.4


LOWER = {"F": 0.50, "G": 0.20, "H": 0.45, "I": 0.40, "J": 0.60, "K": 0.30}
HIGHER = {"F": (0.6, 2.0), "G": (0.4, 5.0), "H": (0.5, 3.0), "I": (0.3, 3.5), "J": (0.4, 1.0)}
HIGHER["K"] = (0.45, 4.0)


@pytest.fixture(scope="module")
def two_metrics():
    statistics = constant_statistics(HIGHER, wer=LOWER)
    return run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=500, seed=3)))


def test_a_lower_is_better_metric_is_compared_by_the_strength_of_its_agreement(two_metrics):
    human = np.array([v[1] for v in HIGHER.values()])
    mbleu = np.array([v[0] for v in HIGHER.values()])
    wer = np.array(list(LOWER.values()))
    assert two_metrics.correlation("wer").pearson == pytest.approx(np.corrcoef(wer, human)[0, 1])
    assert two_metrics.correlation("wer").pearson < -0.9  # WER tracks the humans closely
    test = two_metrics.correlation_test("mbleu", "wer")
    assert test is two_metrics.correlation_test("wer", "mbleu")
    # Oriented: WER's agreement is -r, and it agrees better than M-BLEU, so it is x.
    assert (test.metric_x, test.metric_y) == ("wer", "mbleu")
    assert test.agreement_x == pytest.approx(-np.corrcoef(wer, human)[0, 1])
    assert test.agreement_y == pytest.approx(np.corrcoef(mbleu, human)[0, 1])
    assert test.pearson_xy == pytest.approx(-np.corrcoef(wer, mbleu)[0, 1])
    assert (
        test.difference == pytest.approx(test.agreement_x - test.agreement_y)
        and test.difference > 0
    )
    expected = williams_test(test.agreement_x, test.agreement_y, test.pearson_xy, 6)
    assert (test.williams_t, test.williams_p_value) == pytest.approx(expected)
    assert test.williams_t > 0


def test_the_bootstrap_of_the_difference_uses_the_same_resamples_and_mtguis_p_value(
    two_metrics,
):
    """Recomputed resample by resample: the same systems drawn for both metrics, d_b their
    oriented Pearson's difference, p = min(1, 2 (min(#{d <= 0}, #{d >= 0}) + 1) / (B + 1))."""
    human = np.array([v[1] for v in HIGHER.values()])
    mbleu = np.array([v[0] for v in HIGHER.values()])
    wer = np.array(list(LOWER.values()))
    differences = []
    for drawn in draw_systems(3, SYSTEMS_STREAM, 6, 500):
        x, y, h = -wer[drawn], mbleu[drawn], human[drawn]
        if min(np.ptp(x), np.ptp(y), np.ptp(h)) > 0:
            differences.append(np.corrcoef(x, h)[0, 1] - np.corrcoef(y, h)[0, 1])
    d = np.array(differences)
    test = two_metrics.correlation_test("wer", "mbleu")
    assert test.undefined_resamples == 500 - len(d)
    tail = min((d <= 0).sum(), (d >= 0).sum())
    assert test.bootstrap_p_value == pytest.approx(min(1.0, 2 * (tail + 1) / (len(d) + 1)))
    assert test.difference_low <= test.difference <= test.difference_high
    significant = test.bootstrap_p_value < 0.05
    assert test.bootstrap_verdict == (">" if significant else "~")
    assert (test.difference_low > 0) == significant


def test_the_outputs_hold_the_new_intervals_and_tests(two_metrics):
    tables = study_tables(two_metrics)
    header, rows = tables["correlation-tests.csv"]
    assert header[:3] == ["metric_x", "metric_y", "systems"] and len(rows) == 1
    assert {"williams_t", "williams_p_value", "bootstrap_p_value"} <= set(header)
    header, rows = tables["correlations.csv"]
    assert {"pearson_fisher_low", "pearson_segments_high", "undefined_resamples"} <= set(header)
    data = json.loads(json.dumps(study_data(two_metrics)))
    assert data["correlation_tests"][0]["metric_x"] == "wer"
    assert "pearson_fisher_high" in data["correlations"][0]
    text = study_text(two_metrics)
    assert "Fisher z" in text and "Segments only" in text and "Systems+segments" in text
    assert "WER vs M-BLEU" in text and "Williams t" in text


def test_too_few_systems_give_undefined_values_and_notes_not_errors():
    three = constant_statistics({k: HIGHER[k] for k in "FGH"})
    study = run_to_end(iter_human_study(three, BootstrapSettings(resamples=100)))
    correlation = study.correlation("mbleu")
    assert not math.isnan(correlation.pearson) and not math.isnan(correlation.pearson_low)
    assert math.isnan(correlation.pearson_fisher_low) and math.isnan(
        correlation.spearman_fisher_high
    )
    assert "need at least 4 systems" in " ".join(study.notes)
    two = constant_statistics({k: HIGHER[k] for k in "FG"}, wer={k: LOWER[k] for k in "FG"})
    study = run_to_end(iter_human_study(two, BootstrapSettings(resamples=100)))
    assert math.isnan(study.correlation("wer").pearson_low)
    test = study.correlation_test("mbleu", "wer")
    assert math.isnan(test.williams_t) and math.isnan(test.bootstrap_p_value)
    assert test.bootstrap_verdict == test.williams_verdict == "~"
    assert "at least 3 systems" in " ".join(study.notes)
    assert "WER vs M-BLEU" in study_text(study) or "M-BLEU vs WER" in study_text(study)


def test_studies_leave_the_relative_intervals_of_human_scores_empty():
    """Human scores are off a ratio scale: the resamples and size studies give their absolute
    intervals and no relative ones, as mtgui eval does."""
    from mtgui.engine.studies.resamples.study import ResamplesSettings, iter_resamples_study
    from mtgui.engine.studies.size.run import iter_size_study
    from mtgui.engine.studies.size.study import SizeSettings

    statistics = constant_statistics(SYSTEMS)
    resamples = run_to_end(
        iter_resamples_study(statistics, ResamplesSettings(sizes=(200,), runs=0))
    )
    size = run_to_end(iter_size_study(statistics, SizeSettings(BootstrapSettings(100), repeats=2)))
    for rows in (resamples.rows, size.rows):
        human = [r for r in rows if r.metric == "human"]
        other = [r for r in rows if r.metric == "mbleu"]
        assert human and all(np.isnan([r.rel_ci_low, r.rel_ci_high]).all() for r in human)
        assert all(np.isfinite([r.ci_low, r.ci_high]).all() for r in human)
        assert all(np.isfinite([r.rel_ci_low, r.rel_ci_high]).all() for r in other)


@pytest.fixture(scope="module")
def judged():
    statistics = constant_statistics(HIGHER, wer=LOWER)
    return run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=100, seed=3)))


def test_the_human_study_judges_every_metric(judged):
    """WER (lower is better) ranks the six systems as the humans do; M-BLEU gets 5 of 15 pairs.
    Constant segments: every permutation p-value is 0 or 1 and equals the humans' where the
    signs agree."""
    human = np.array([v[1] for v in HIGHER.values()])
    mbleu = np.array([v[0] for v in HIGHER.values()])
    wer = judged.accuracy("wer")
    assert wer.pairwise_accuracy == 1.0 and wer.soft_pairwise_accuracy == 1.0
    assert wer.segment_kendall_b == pytest.approx(1.0) and wer.metric_cluster == 1
    bleu = judged.accuracy("mbleu")
    assert bleu.pairwise_accuracy == pytest.approx(pairwise_accuracy(human, mbleu))
    assert bleu.tie_calibrated_accuracy == pytest.approx(tie_calibrated_accuracy(human, mbleu)[0])
    assert bleu.metric_cluster == 2
    (test,) = judged.accuracy_tests
    assert (test.metric_x, test.metric_y, test.accuracy_verdict) == ("wer", "mbleu", ">")
    correlation = judged.correlation_test("wer", "mbleu")
    assert 0 < correlation.permutation_p_value < 0.05
    assert correlation.permutation_verdict == ">"


def test_the_outputs_hold_the_accuracies(judged):
    data = json.loads(json.dumps(study_data(judged)))
    row = next(a for a in data["accuracies"] if a["metric"] == "mbleu")
    assert {"pairwise_accuracy", "soft_pairwise_accuracy", "metric_cluster"} <= set(row)
    assert data["accuracy_tests"][0]["metric_x"] == "wer"
    header, rows = study_tables(judged)["accuracy.csv"]
    assert header[:3] == ["metric", "metric_cluster", "systems"] and len(rows) == 2
    assert [row[0] for row in rows] == ["wer", "mbleu"]  # best first
    header, rows = study_tables(judged)["accuracy-tests.csv"]
    assert header[:2] == ["metric_x", "metric_y"] and len(rows) == 1
    text = study_text(judged)
    assert "As the WMT metrics task judges metrics" in text and "p permutation" in text
