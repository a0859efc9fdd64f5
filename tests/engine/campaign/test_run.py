"""The campaign driver (:func:`mtgui.engine.campaign.iter_campaign`): each set analysed as one
set alone, the aggregate of those analyses, progress within a set (so a cancel stops there),
and a set's problem said of that set."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from metric_corpora import make_corpus
from synthetic_sets import noisy, sentences

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.campaign import (
    CampaignInput,
    CampaignSet,
    CampaignSettings,
    aggregate,
    iter_campaign,
)
from mtgui.engine.core import InputError
from mtgui.engine.metrics import MetricSettings
from mtgui.engine.resampling import BootstrapSettings
from mtgui.engine.scale import on_scale

SETTINGS = CampaignSettings(
    ("bleu", "chrf"), MetricSettings(), BootstrapSettings(resamples=100, seed=7), bleu_scale=100
)


def _corpus(seed: int, systems: dict[str, float], count: int = 30):
    rng = np.random.default_rng(seed)
    reference = sentences(rng, count)
    outputs = {name: noisy(rng, reference, rate) for name, rate in systems.items()}
    return make_corpus([[" ".join(words) for words in reference]], **outputs)


def _drain(run):
    steps = []
    while True:
        try:
            steps.append(next(run))
        except StopIteration as finished:
            return steps, finished.value


def _inputs():
    return [
        CampaignInput("one", _corpus(1, {"A": 0.1, "B": 0.3, "C": 0.35})),
        CampaignInput("two", _corpus(2, {"A": 0.15, "B": 0.3})),
    ]


def test_each_set_is_analysed_as_alone_and_the_aggregate_is_of_those_analyses():
    inputs = _inputs()
    steps, found = _drain(iter_campaign(inputs, SETTINGS))
    assert [s.name for s in found.sets] == ["one", "two"]
    alone = []
    for one, got in zip(inputs, found.sets, strict=True):
        _, result = _drain(
            iter_analysis(one.corpus, SETTINGS.metrics, SETTINGS.scoring, SETTINGS.resampling)
        )
        result = on_scale(result, 100)
        got_scores = [
            (i.system, i.metric, i.score, i.ci_low, i.ci_high)
            for i in got.result.bootstrap.intervals
        ]
        assert got_scores == [
            (i.system, i.metric, i.score, i.ci_low, i.ci_high) for i in result.bootstrap.intervals
        ]
        assert [p.p_value for p in got.result.bootstrap.pairs] == [
            p.p_value for p in result.bootstrap.pairs
        ]
        higher = {m.name: m.higher_is_better for m in result.statistics.metrics}
        alone.append(CampaignSet(one.name, result.bootstrap, higher))
    expected = aggregate(alone, SETTINGS.resampling.seed)
    assert [(p.metric, p.x, p.y, p.comparison.delta, p.p_value) for p in found.aggregate.pairs] == [
        (p.metric, p.x, p.y, p.comparison.delta, p.p_value) for p in expected.pairs
    ]
    assert steps[-1].done == steps[-1].total == 2 and steps[-1].current == ""


def test_the_run_reports_within_a_set_and_stops_there_when_closed():
    run = iter_campaign(_inputs(), SETTINGS)
    first = next(run)
    assert (first.done, first.current, first.part) == (0, "one", 0.0)
    within = next(step for step in run if step.part > 0)  # the first set under way
    assert within.done == 0 and within.current == "one"
    run.close()  # as a cancel does: nothing more is analysed
    with pytest.raises(StopIteration):
        next(run)


def test_a_sets_problem_is_said_of_that_set():
    bad = CampaignInput("news", _corpus(3, {"A": 0.1}), "test set 'news' (line 9)")
    with pytest.raises(InputError, match=r"test set 'news' \(line 9\): ") as caught:
        _drain(iter_campaign([bad], replace(SETTINGS, metrics=("nosuch",))))
    assert caught.value.problem.startswith("test set 'news' (line 9): ")
    with pytest.raises(InputError, match="at least one test set"):
        _drain(iter_campaign([], SETTINGS))


def test_sets_with_the_same_references_are_noted_as_one_set_counted_twice():
    systems = {"A": 0.1, "B": 0.3}
    inputs = [
        CampaignInput("one", _corpus(1, systems, count=20)),
        CampaignInput("two", _corpus(2, systems, count=20)),
        CampaignInput("copy", _corpus(1, {"A": 0.2, "B": 0.25}, count=20)),  # one's references
    ]
    settings = replace(SETTINGS, metrics=("bleu",))
    _, found = _drain(iter_campaign(inputs, settings))
    assert found.aggregate.notes[0] == (
        "'one' and 'copy' have the same references: they are one test set counted twice in "
        "the aggregate."
    )
    _, apart = _drain(iter_campaign(inputs[:2], settings))
    assert not any("same references" in note for note in apart.aggregate.notes)
