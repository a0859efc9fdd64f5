"""Breakdowns: the groups by hand, and each group scored exactly as a run on it alone."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.breakdown import (
    MIN_GROUP_SEGMENTS,
    group_corpus,
    iter_breakdowns,
    iter_joined_breakdown,
    joined_family,
    renumbered,
)
from mtgui.engine.core.corpus import Corpus, Origin, SystemOutput, TestSet, TextColumn
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.choices import DecidingTest
from mtgui.engine.inference.corrections import Family
from mtgui.engine.inference.intervals import INTERVAL_FIELDS
from mtgui.engine.inference.significance import TIE, Correction, holm
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.grouping import (
    NONE,
    attribute_keys,
    bucket_labels,
    check_edges,
    group_by_attribute,
    group_by_length,
)
from mtgui.io.demo import load_demo
from mtgui.report.significance import verdict_basis

ORIGIN = Origin("t.sgm", "NIST SGML", "utf-8")
METRICS = ("bleu", "nist", "mbleu", "chrf", "ter", "wer")


def small_corpus() -> Corpus:
    """Four documents: d1 and d3 German originals, d2 English, d4 without origlang."""
    doc_ids = ("d1", "d1", "d2", "d3", "d3", "d3", "d4")
    refs = ("a b", "a b c d e", "one", "x y z", "p q r s t u", "k", "m n o")
    test_set = TestSet(
        doc_ids=doc_ids,
        seg_ids=("1", "2", "1", "1", "2", "3", "1"),
        references=(TextColumn("A", refs, ORIGIN),),
        doc_attributes={
            "d1": {"origlang": "de", "genre": "news"},
            "d2": {"origlang": "en"},
            "d3": {"origlang": "de"},
            "d4": {"genre": "talk"},
        },
    )
    return Corpus(test_set, (SystemOutput("S", refs, ORIGIN),))


def test_groups_by_attribute_in_order_of_first_appearance_with_none_last():
    test_set = small_corpus().test_set
    assert attribute_keys(test_set) == ("genre", "origlang")
    grouping = group_by_attribute(test_set, "origlang")
    assert grouping.labels == ("de", "en", NONE)
    assert [m.tolist() for m in grouping.members] == [[0, 1, 3, 4, 5], [2], [6]]
    genre = group_by_attribute(test_set, "genre")
    assert genre.labels == ("news", "talk", NONE)
    assert genre.sizes() == (2, 1, 4)


def test_an_attribute_no_document_has_is_refused_naming_those_they_have():
    with pytest.raises(InputError) as error:
        group_by_attribute(small_corpus().test_set, "domain")
    assert "'domain'" in error.value.message
    assert "genre, origlang" in error.value.message


def test_length_buckets_count_the_first_references_tokens():
    test_set = small_corpus().test_set
    grouping = group_by_length(test_set, MetricSettings(), (2, 5))
    # token counts: 2, 5, 1, 3, 6, 1, 3
    assert grouping.labels == ("<2", "[2,5)", ">=5")
    assert [m.tolist() for m in grouping.members] == [[2, 5], [0, 3, 6], [1, 4]]
    default = group_by_length(test_set, MetricSettings())
    assert default.labels == ("<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60")
    assert default.sizes() == (7, 0, 0, 0, 0, 0, 0)


def test_bucket_names_and_edges_follow_compare_mt():
    assert bucket_labels((10, 11, 20)) == ("<10", "10", "[11,20)", ">=20")
    assert check_edges([1, 5]) == (1, 5)
    for bad in ([10, 5], [10, 10], [0, 3], []):
        with pytest.raises(InputError):
            check_edges(bad)


def test_document_numbers_follow_first_appearance():
    assert renumbered(np.array([3, 1, 3, 0, 1])).tolist() == [0, 1, 0, 2, 1]


def assert_same(group, alone, metrics=METRICS):
    """A group's bootstrap equals the run on its segments alone (NIST to 1e-12: its weights
    are summed in another order, see subset_nist)."""
    assert group.bootstrap.settings == alone.bootstrap.settings
    assert group.bootstrap.notes == alone.bootstrap.notes
    for metric in metrics:
        for system in alone.statistics.system_names:
            mine = group.bootstrap.interval(system, metric)
            theirs = alone.bootstrap.interval(system, metric)
            assert group.score(system, metric) == pytest.approx(theirs.score, rel=1e-12)
            for field in ("score", *INTERVAL_FIELDS):
                a, b = getattr(mine, field), getattr(theirs, field)
                if metric == "nist":
                    assert a == pytest.approx(b, rel=1e-12, abs=1e-12), (metric, field)
                else:
                    assert a == b or (math.isnan(a) and math.isnan(b)), (metric, field)
    verdicts = [(p.metric, p.x, p.y, p.verdict) for p in group.bootstrap.pairs]
    assert verdicts == [(p.metric, p.x, p.y, p.verdict) for p in alone.bootstrap.pairs]
    for mine, theirs in zip(group.bootstrap.pairs, alone.bootstrap.pairs, strict=True):
        if mine.metric != "nist":
            assert (mine.delta, mine.ci_low, mine.ci_high, mine.p_value) == (
                theirs.delta,
                theirs.ci_low,
                theirs.ci_high,
                theirs.p_value,
            )


@pytest.mark.parametrize("unit", [Unit.AUTO, Unit.DOCUMENT])
def test_each_group_equals_a_run_on_its_segments_alone(unit):
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200, seed=7, unit=unit)
    analysis = run_to_end(iter_analysis(corpus, METRICS, MetricSettings(), settings))
    grouping = group_by_attribute(corpus.test_set, "genre")
    assert grouping.labels == ("local", "science", "culture")
    assert grouping.sizes() == (48, 15, 32)
    (breakdown,) = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    assert [g.documents for g in breakdown.groups] == [3, 1, 2]
    for group, segments in zip(breakdown.groups, grouping.members, strict=True):
        alone = run_to_end(
            iter_analysis(group_corpus(corpus, segments), METRICS, MetricSettings(), settings)
        )
        assert group.segments == len(segments)
        assert_same(group, alone)
    # Asked for documents, the 3 documents of "local" are resampled, with a warning; the
    # single one of "science" cannot be, so its segments are.
    units = [g.bootstrap.settings.unit for g in breakdown.groups]
    if unit is Unit.DOCUMENT:
        assert units == [Unit.DOCUMENT, Unit.SEGMENT, Unit.DOCUMENT]
    else:
        assert units == [Unit.SEGMENT] * 3


def test_small_and_empty_groups_are_listed_with_a_note_and_no_interval():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200)
    analysis = run_to_end(iter_analysis(corpus, ("bleu",), MetricSettings(), settings))
    grouping = group_by_length(corpus.test_set, MetricSettings(), (13, 15, 20))
    assert grouping.labels == ("<13", "[13,15)", "[15,20)", ">=20")
    assert grouping.sizes() == (0, 2, 58, 35)
    (breakdown,) = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    empty, small, *_ = breakdown.groups
    assert empty.bootstrap is None and empty.notes == ("No segment falls in this group.",)
    assert math.isnan(empty.score("Lumen", "bleu"))
    assert small.bootstrap is None and small.segments < MIN_GROUP_SEGMENTS
    assert "too few to bootstrap" in small.notes[0]
    alone = run_to_end(
        iter_analysis(
            group_corpus(corpus, grouping.members[1]), ("bleu",), MetricSettings(), settings
        )
    )
    assert small.score("Lumen", "bleu") == alone.statistics.score("Lumen", "bleu")
    assert all(g.bootstrap is not None for g in breakdown.groups[2:])


def test_without_a_bootstrap_groups_have_scores_only():
    corpus = small_corpus()
    analysis = run_to_end(
        iter_analysis(corpus, ("bleu",), MetricSettings(), BootstrapSettings(resamples=100))
    )
    grouping = group_by_attribute(corpus.test_set, "origlang")
    (breakdown,) = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], None))
    assert [g.segments for g in breakdown.groups] == [5, 1, 1]
    assert all(g.bootstrap is None and not g.notes for g in breakdown.groups)
    assert breakdown.group("de").score("S", "bleu") == 1.0  # the system is the reference


@pytest.mark.parametrize("correction", [Correction.HOLM, Correction.MAXT])
def test_family_all_makes_the_groups_and_the_whole_set_one_family(correction):
    corpus = load_demo()
    settings = BootstrapSettings(resamples=1000, seed=7, correction=correction, family=Family.ALL)
    settings = settings.enough_for(4, 2, groups=3)  # as mtgui eval raises B for its --by groups
    analysis = run_to_end(iter_analysis(corpus, ["bleu", "chrf"], MetricSettings(), settings))
    grouping = group_by_attribute(corpus.test_set, "genre")
    made = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    result, (breakdown,) = joined_family(analysis.statistics, analysis.bootstrap, made)
    runs = [result, *(g.bootstrap for g in breakdown.groups)]
    firsts = [run.pairs[: len(run.pairs) // 2] for run in runs]
    pairs = [p for first in firsts for p in first]
    systems = len(result.systems)
    assert all(len(first) == systems * (systems - 1) for first in firsts)  # 2 metrics
    for run in runs:
        assert any("in 3 groups of the breakdowns together" in note for note in run.notes)
        for pair in run.pairs:  # one verdict, one interval, in the joined family too
            assert (pair.verdict == TIE) == (pair.ci_low <= 0 <= pair.ci_high), pair
    assert all(run.joined == len(pairs) for run in runs)
    basis = verdict_basis(result, "bleu")
    assert f"the {len(pairs)} pairs of every metric" in basis and "breakdown group" in basis
    if correction is Correction.HOLM:
        expected = holm([p.p_value for p in pairs])
        assert [p.p_holm for p in pairs] == pytest.approx(expected)
    # a bigger family is stricter: no pair the runs found alone is found only now
    alone = [g.bootstrap for g in made[0].groups]
    for before, after in zip([analysis.bootstrap, *alone], runs, strict=True):
        found_now = {(p.metric, p.x, p.y) for p in after.pairs if p.verdict != TIE}
        found_before = {(p.metric, p.x, p.y) for p in before.pairs if p.verdict != TIE}
        assert found_now <= found_before


def test_family_of_each_metric_leaves_the_groups_their_own():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200, seed=7, correction=Correction.MAXT)
    analysis = run_to_end(iter_analysis(corpus, ["bleu"], MetricSettings(), settings))
    grouping = group_by_attribute(corpus.test_set, "genre")
    made = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    assert joined_family(analysis.statistics, analysis.bootstrap, made) == (
        analysis.bootstrap,
        made,
    )


@pytest.mark.parametrize("family", [Family.ALL, Family.METRIC])
def test_a_breakdown_of_a_finished_analysis_joins_its_family_as_eval_does(family):
    """The window's path (a breakdown after the analysis) against the command line's (B
    chosen for the groups first): max-T needs no more resamples, so nothing is drawn again."""
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200, seed=7, correction=Correction.MAXT, family=family)
    analysis = run_to_end(iter_analysis(corpus, ["bleu"], MetricSettings(), settings))
    grouping = group_by_attribute(corpus.test_set, "genre")
    breakdown, whole = run_to_end(
        iter_joined_breakdown(corpus, analysis.statistics, analysis.bootstrap, grouping)
    )
    made = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    result, (expected,) = joined_family(analysis.statistics, analysis.bootstrap, made)
    assert [g.bootstrap.pairs for g in breakdown.groups] == [
        g.bootstrap.pairs for g in expected.groups
    ]
    if family is Family.METRIC:
        assert whole is None
    else:
        assert whole is not None and whole.joined == 6 * 4
        assert whole.pairs == result.pairs and whole.notes == result.notes


def test_groups_decided_by_a_segment_test_are_not_joined_and_a_note_says_so():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200, seed=7, correction=Correction.MAXT)
    settings = replace(settings, family=Family.ALL)
    analysis = run_to_end(iter_analysis(corpus, ["bleu"], MetricSettings(), settings))
    grouping = group_by_attribute(corpus.test_set, "genre")
    made = run_to_end(iter_breakdowns(corpus, analysis.statistics, [grouping], settings))
    by_t = replace(analysis.bootstrap, settings=replace(settings, test=DecidingTest.T))
    result, breakdowns = joined_family(analysis.statistics, by_t, made)
    assert breakdowns == made and result.pairs == by_t.pairs
    assert "--test t decides each run's grid on its own" in result.notes[-1]
