"""The paired t-test, the Wilcoxon signed-rank test and the win and loss rates of segments.

The p-values must be scipy's ``ttest_rel`` and ``wilcoxon`` with their defaults, on the segments
both systems were scored on; the test chosen with ``--test`` decides only the grid of metrics
that are means of segment scores; and on exchangeable systems it is significant 5% of the time
(a seeded simulation, tolerance from the Monte Carlo error).
"""

from __future__ import annotations

import csv
import json
import math
from types import MappingProxyType

import numpy as np
import pytest
from scipy import stats

from mtgui.cli.main import main
from mtgui.engine.calibration.documents import Share, standard_error
from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.choices import DecidingTest
from mtgui.engine.inference.segment_tests import check_test, compare_segments, paired_t, wilcoxon
from mtgui.engine.inference.significance import TIE, Correction
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.external import external_metric
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics, compute_statistics
from mtgui.io.demo import load_demo

Comet = external_metric("comet")
MetricX = external_metric("metricx", higher_is_better=False)


def scored(values: FloatArray) -> FloatArray:
    """External-score rows [score, judged]; NaN marks a segment not scored."""
    judged = ~np.isnan(values)
    return np.column_stack([np.where(judged, values, 0.0), judged]).astype(np.float64)


def statistics_of(scores: dict[str, FloatArray], metric=Comet) -> Statistics:
    systems = tuple(
        SystemStatistics(name, MappingProxyType({metric.name: scored(values)}))
        for name, values in scores.items()
    )
    return Statistics(MetricSettings(), (metric(),), systems)


def test_the_p_values_are_scipys_defaults_on_the_segments_both_were_scored_on():
    rng = np.random.default_rng(5)
    x = rng.normal(0.6, 0.1, 80)
    y = x - 0.01 + rng.normal(0, 0.05, 80)
    x[[3, 7]], y[[10]] = np.nan, np.nan  # not scored
    statistics = statistics_of({"X": x, "Y": y})
    (comparison, mirrored) = compare_segments(statistics)
    both = ~np.isnan(x) & ~np.isnan(y)
    assert comparison.segments == 77
    assert comparison.p_value_t == stats.ttest_rel(x[both], y[both]).pvalue
    assert comparison.p_value_wilcoxon == stats.wilcoxon(x[both], y[both]).pvalue
    assert comparison.win_rate == np.mean(x[both] > y[both])
    assert comparison.loss_rate == np.mean(x[both] < y[both])
    assert mirrored.x == "Y" and mirrored.p_value_t == comparison.p_value_t
    assert mirrored.win_rate == comparison.loss_rate


def test_wilcoxon_drops_zero_differences_as_scipy_does():
    x = np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    y = x - np.array([0, 0, 0.5, -0.2, 0.3, 0.1, 0.7, 0, 0.4, -0.6, 0.8, 0.9])
    assert wilcoxon(x, y) == stats.wilcoxon(x, y).pvalue
    assert math.isnan(wilcoxon(x, x)) and math.isnan(paired_t(x[:1], y[:1]))


def test_rates_follow_the_metrics_direction_and_ties_are_neither():
    x, y = np.array([1.0, 2.0, 3.0, 3.0]), np.array([2.0, 1.0, 1.0, 3.0])
    (lower_better, _) = compare_segments(statistics_of({"X": x, "Y": y}, MetricX))
    assert (lower_better.win_rate, lower_better.loss_rate) == (0.25, 0.5)


def test_bleu_gets_rates_but_no_segment_tests():
    comparisons = compare_segments(compute_statistics(load_demo(), ["bleu"]))
    bleu = next(c for c in comparisons if c.metric == "bleu")
    assert bleu.p_value_t is None and bleu.p_value_wilcoxon is None
    assert 0 <= bleu.win_rate + bleu.loss_rate <= 1


def test_the_t_test_and_wilcoxon_are_refused_without_a_mean_of_segment_scores():
    with pytest.raises(InputError, match="applies only to metrics that are means of segment"):
        check_test(DecidingTest.T, (Bleu(),))
    assert check_test(DecidingTest.WILCOXON, (Bleu(), Comet())) is DecidingTest.WILCOXON


def pair_of(statistics: Statistics, test: DecidingTest, correction=Correction.NONE):
    settings = BootstrapSettings(999, seed=1, test=test, correction=correction)
    return run_to_end(iter_bootstrap(statistics, settings))


def test_the_chosen_test_decides_the_grid_of_a_mean_of_segment_scores():
    rng = np.random.default_rng(9)
    x = rng.normal(0.6, 0.2, 60)
    y = x - 0.02 + rng.normal(0, 0.06, 60)  # a small, consistent advantage of X
    statistics = statistics_of({"X": x, "Y": y})
    for test in DecidingTest:
        result = pair_of(statistics, test)
        pair = result.pair("comet", "X", "Y")
        segments = result.segment_comparison("comet", "X", "Y")
        p = {
            DecidingTest.BOOTSTRAP: pair.p_value,
            DecidingTest.T: segments.p_value_t,
            DecidingTest.WILCOXON: segments.p_value_wilcoxon,
        }[test]
        assert pair.verdict == (">" if p < 0.05 else TIE), test
        assert result.pair("comet", "Y", "X").verdict == ("<" if p < 0.05 else TIE)
        assert (f"|test:{test}" in result.signature) == (test is not DecidingTest.BOOTSTRAP)
    note = pair_of(statistics, DecidingTest.T).notes[-1]
    assert note.startswith("The grid of comet follows the paired t-test")


def test_a_correction_applies_to_the_chosen_tests_p_values():
    rng = np.random.default_rng(11)
    base = rng.normal(0.6, 0.2, 40)
    scores = {f"S{k}": base + rng.normal(0, 0.05, 40) + 0.01 * k for k in range(4)}
    statistics = statistics_of(scores)
    plain = pair_of(statistics, DecidingTest.T)
    held = pair_of(statistics, DecidingTest.T, Correction.HOLM)
    found = [c.p_value_t for c in plain.segment_comparisons if c.x < c.y]
    adjusted = sorted(found)
    m = len(adjusted)
    holm = np.maximum.accumulate([min(1, (m - i) * p) for i, p in enumerate(adjusted)])
    significant = sum(p < 0.05 for p in holm)
    assert sum(p.verdict != TIE for p in held.pairs if p.x < p.y) == significant
    assert "with Holm's correction" in held.notes[-1]


@pytest.mark.parametrize("test", [DecidingTest.T, DecidingTest.WILCOXON])
def test_on_exchangeable_systems_the_segment_tests_are_significant_five_percent(test):
    """400 test sets of 40 segments; X and Y swap a fair coin per segment."""
    rng = np.random.default_rng(33)
    trials, hits = 400, 0
    for _ in range(trials):
        quality = rng.normal(0.6, 0.2, 40)
        a, b = quality + rng.normal(0, 0.1, 40), quality + rng.normal(0, 0.1, 40)
        flip = rng.random(40) < 0.5
        x, y = np.where(flip, a, b), np.where(flip, b, a)
        (comparison, _) = compare_segments(statistics_of({"X": x, "Y": y}))
        hits += comparison.p_value(test) < 0.05
    share = Share(int(hits), trials)
    assert abs(share.value - 0.05) <= 4 * standard_error(0.05, trials), share


def test_the_json_report_has_the_segment_fields(write, capsys):
    ref = write("ref.txt", "".join(f"w{i} a b c\n" for i in range(30)))
    a = write("A.txt", "".join(f"w{i} a b c\n" for i in range(30)))
    b = write("B.txt", "".join(f"w{i} a b {'c' if i % 3 else 'x'}\n" for i in range(30)))
    rows = "".join(
        f"{s}\t{i + 1}\t{0.5 + (0.1 if s == 'A' else 0) * (i % 2)}\n"
        for s in "AB"
        for i in range(30)
    )
    scores = write("comet.tsv", "system\tline\tscore\n" + rows)
    common = ["eval", "--ref", str(ref), "--hyp", str(a), str(b), "--name", "A", "--name", "B"]
    common += ["--json", "-", "-b", "200"]
    assert main([*common, "--scores", f"{scores}=comet", "--test", "wilcoxon"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bootstrap"]["test"] == "wilcoxon"
    comet = next(p for p in report["pairs"] if p["metric"] == "comet" and p["x"] == "A")
    assert comet["win_rate"] == 0.5 and comet["loss_rate"] == 0.0
    x = np.array([0.5 + 0.1 * (i % 2) for i in range(30)])
    y = np.full(30, 0.5)
    assert comet["p_value_wilcoxon"] == stats.wilcoxon(x, y).pvalue
    assert comet["p_value_t"] == stats.ttest_rel(x, y).pvalue
    bleu = next(p for p in report["pairs"] if p["metric"] == "bleu" and p["x"] == "A")
    assert "p_value_t" not in bleu and bleu["win_rate"] > 0 and bleu["loss_rate"] == 0


def test_the_command_line_refuses_the_t_test_without_segment_scores(write, capsys):
    ref = write("ref.txt", "a b c\nd e f\n")
    a, b = write("A.txt", "a b c\nd e\n"), write("B.txt", "a b\nd e f\n")
    assert main(["eval", "--ref", str(ref), "--hyp", str(a), str(b), "--test", "t"]) == 2
    err = capsys.readouterr().err
    assert "applies only to metrics that are means of segment scores" in err
    assert "Traceback" not in err


def test_pairs_csv_and_settings_csv_have_the_segment_columns(write, tmp_path, capsys):
    ref = write("ref.txt", "".join(f"w{i} a b c\n" for i in range(30)))
    a = write("A.txt", "".join(f"w{i} a b c\n" for i in range(30)))
    b = write("B.txt", "".join(f"w{i} a b {'c' if i % 3 else 'x'}\n" for i in range(30)))
    rows = "".join(
        f"{s}\t{i + 1}\t{0.5 + 0.1 * (s == 'A') * (i % 2)}\n" for s in "AB" for i in range(30)
    )
    scores = write("comet.tsv", "system\tline\tscore\n" + rows)
    folder = tmp_path / "reports"
    args = ["eval", "--ref", str(ref), "--hyp", str(a), str(b), "--name", "A", "--name", "B"]
    args += ["--scores", f"{scores}=comet", "--test", "t", "-b", "200", "--csv", str(folder)]
    assert main(args) == 0
    capsys.readouterr()
    with (folder / "pairs.csv").open(encoding="utf-8-sig") as handle:
        pairs = list(csv.DictReader(handle))
    comet = next(p for p in pairs if p["metric"] == "comet" and p["x"] == "A")
    assert float(comet["win_rate"]) == 0.5 and float(comet["loss_rate"]) == 0.0
    assert float(comet["p_value_t"]) > 0 and float(comet["p_value_wilcoxon"]) > 0
    bleu = next(p for p in pairs if p["metric"] == "bleu" and p["x"] == "A")
    assert bleu["p_value_t"] == "" and float(bleu["win_rate"]) > 0
    settings = (folder / "settings.csv").read_text(encoding="utf-8")
    assert "test,t" in settings and "interval,percentile" in settings
