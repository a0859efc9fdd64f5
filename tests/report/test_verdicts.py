"""The summary in words: who is best, who is ahead of whom, what the test set cannot tell
apart, the humans' agreement; and no number the tables do not show."""

from __future__ import annotations

import re

import numpy as np
import pytest
from metric_corpora import ORIGIN, make_corpus

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.corpus import Corpus, SegmentScores
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import LABELS
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.report.cells import four_decimals
from mtgui.report.significance import grid_text, interval_table, power_lines
from mtgui.report.verdicts import metric_summaries, metric_summary, summary_text

NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@pytest.fixture(scope="module")
def demo():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200)
    return run_to_end(iter_analysis(corpus, ["bleu", "ter"], MetricSettings(), settings))


def _shown(result, metrics) -> str:
    """Every text the tables, grids and pair tooltips show."""
    parts = []
    for metric in metrics:
        parts += [interval_table(result, metric), grid_text(result, metric)]
    for pair in result.pairs:
        parts.append(four_decimals(pair.delta, signed=True))
        parts += power_lines(pair, result.settings.level, result.settings.unit.value)
    return "\n".join(parts)


def test_every_number_in_the_summary_is_one_the_tables_show(demo):
    text = summary_text(demo.bootstrap)
    shown = _shown(demo.bootstrap, demo.statistics.metrics)
    numbers = NUMBER.findall(text)
    assert len(numbers) > 10
    for number in numbers:
        assert number in shown, number


def test_the_demo_summary_names_the_best_the_steps_and_the_unresolved(demo):
    result = demo.bootstrap
    labels = [label for label, _ in metric_summaries(result)]
    assert labels == ["BLEU", "TER"]
    text = metric_summary(result, "bleu")
    top = result.ranking("bleu").clusters[0]
    for name in top:
        assert f"{name} ({four_decimals(result.interval(name, 'bleu').score)})" in text
    assert "significantly" in text
    assert "could not tell apart" in text and "would likely settle it" in text
    assert "can go unseen on this test set" in text


SCORES = {"A": [0.0, 1.0], "B": [1.0, 2.0], "C": [3.0, 3.0]}


def _scores(metric: str, higher: bool, scores=SCORES) -> list[SegmentScores]:
    return [
        SegmentScores(name, np.array(values), np.ones(2, np.int64), ORIGIN, metric, higher)
        for name, values in scores.items()
    ]


def _result(*scores: list[SegmentScores]):
    base = make_corpus([["a", "b"]], A=["a", "b"], B=["a", "c"], C=["d", "b"])
    corpus = Corpus(base.test_set, base.systems, tuple(s for group in scores for s in group))
    metrics = list(dict.fromkeys(s.metric for group in scores for s in group))
    stats = compute_statistics(corpus, metrics)
    return run_to_end(iter_bootstrap(stats, BootstrapSettings(resamples=200, seed=7)))


def test_humans_who_order_the_systems_the_other_way_are_named():
    # metricx is lower-is-better on the same numbers: it ranks A first, the humans C first.
    result = _result(_scores("human", True), _scores("metricx", False))
    text = metric_summary(result, "metricx")
    assert text.startswith("A (0.5000) is best, significantly ahead of every other system.")
    assert "metricx and the human scores disagree: metricx puts A ahead of B, A ahead of C" in text
    assert "disagree" not in metric_summary(result, "human")  # not compared with itself


def test_humans_who_agree_are_said_to_agree():
    result = _result(_scores("human", True), _scores("comet", True))
    assert "they agree on its direction" in metric_summary(result, "comet")


def test_one_system_and_no_difference_are_said_in_words():
    same = {"A": [1.0, 2.0], "B": [2.0, 1.0], "C": [1.0, 2.0]}
    text = metric_summary(_result(_scores("comet", True, same)), "comet")
    assert "no system is significantly ahead of all the others" in text
    assert "could not tell apart" in text
    assert LABELS["comet"] == "comet"


def test_identical_outputs_claim_no_detectable_difference_of_zero():
    same = {"A": [1.0, 2.0], "B": [1.0, 2.0], "C": [3.0, 1.0]}
    text = metric_summary(_result(_scores("comet", True, same)), "comet")
    assert "(0.0000 apart)" in text and "it could see about 0.0000" not in text


def test_a_difference_no_test_set_of_this_kind_could_settle_is_said_in_words():
    """A pair 0.0001 apart on a test set that sees 0.02 would need millions of units: the
    summary says it would take over a hundred times the test set, not a count of millions."""
    from dataclasses import replace

    from mtgui.report.verdicts import FAR_BEYOND, _unsure_pair

    corpus = load_demo()
    result = run_to_end(
        iter_analysis(corpus, ["bleu"], MetricSettings(), BootstrapSettings(resamples=100))
    ).bootstrap
    pair = replace(result.pairs[0], delta=1e-4, mdd=0.02, units_needed=4e7)
    text = _unsure_pair(pair, "segment", result.units, str)
    assert "over a hundred times this test set's segments" in text and "40,000,000" not in text
    near = replace(pair, units_needed=FAR_BEYOND * result.units / 2)
    assert "segments would likely settle it" in _unsure_pair(near, "segment", result.units, str)
