"""External segment scores as metrics of their own: names, directions, means, intervals, grids.

The numbers are worked out by hand. Two segments, three systems, the same scores under a
higher-is-better ``comet`` and a lower-is-better ``metricx``: A = [0, 1], B = [1, 2], C = [3, 3].
A resample of two segments draws each segment 0, 1 or 2 times, so A's resampled mean is 0, 0.5
or 1 with chances 1/4, 1/2, 1/4: the 95% percentile interval is [0, 1] (a quarter of the
resamples sit at each end) and the median 0.5; B's is A's + 1; C's is always 3. B - A is 1 in
every resample and C - B at least 1, so every pair differs significantly, and the direction of
the metric decides which way.
"""

from __future__ import annotations

import numpy as np
import pytest
from metric_corpora import ORIGIN, make_corpus

from mtgui.engine.core.corpus import Corpus, SegmentScores
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import LABELS, external_metric, metrics_for, parse_metric_names
from mtgui.engine.metrics.external import ExternalScores
from mtgui.engine.metrics.human import Human
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.studies.human.study import iter_human_study

SCORES = {"A": [0.0, 1.0], "B": [1.0, 2.0], "C": [3.0, 3.0]}


def _scores(metric: str, higher: bool) -> list[SegmentScores]:
    return [
        SegmentScores(name, np.array(values), np.ones(2, np.int64), ORIGIN, metric, higher)
        for name, values in SCORES.items()
    ]


@pytest.fixture
def corpus() -> Corpus:
    base = make_corpus([["a", "b"]], A=["a", "b"], B=["a", "c"], C=["d", "b"])
    scores = (*_scores("comet", True), *_scores("metricx", False))
    return Corpus(base.test_set, base.systems, scores)


def test_the_factory_makes_one_class_per_name_and_direction():
    comet = external_metric("comet")
    assert comet is external_metric("comet", True) and issubclass(comet, ExternalScores)
    assert (comet.name, comet.label, comet.higher_is_better) == ("comet", "comet", True)
    metricx = external_metric("metricx", False)
    assert metricx is not external_metric("metricx", True)
    assert not metricx.higher_is_better and not metricx.ratio_scale
    assert external_metric("human") is Human
    assert external_metric("human", False) is not Human
    assert comet().signature() == "comet[ext,higher]"
    assert metricx().signature() == "metricx[ext,lower]"
    assert Human().signature() == "human"  # as before external scores had names
    assert LABELS["comet"] == "comet" == LABELS.get("comet", "comet")
    assert LABELS["bleu"] == "BLEU"
    with pytest.raises(ValueError, match="not a valid metric name"):
        external_metric("Has Space")


def test_corpus_lists_its_external_metrics_and_keeps_scores_apart(corpus):
    assert corpus.external_metrics() == {"comet": True, "metricx": False}
    assert corpus.scores_of("A", "comet").metric == "comet"  # type: ignore[union-attr]
    assert corpus.scores_of("A") is None  # no "human" loaded
    renamed = corpus.with_system_renamed("A", "Z")
    assert renamed.scores_of("Z", "metricx").means.tolist() == [0.0, 1.0]  # type: ignore[union-attr]


def test_one_system_may_not_have_two_score_sets_of_one_metric(corpus):
    twice = (*corpus.scores, _scores("comet", True)[0])
    with pytest.raises(InputError, match="comet: A"):
        Corpus(corpus.test_set, corpus.systems, twice)


def test_metrics_for_makes_registry_and_external_metrics(corpus):
    made = metrics_for(corpus.test_set, ["bleu", "metricx"], None, corpus.external_metrics())
    assert [m.name for m in made] == ["bleu", "metricx"]
    assert not made[1].higher_is_better
    assert parse_metric_names("BLEU,comet", ["comet"]) == ("bleu", "comet")
    with pytest.raises(InputError, match="unknown metric 'comet'"):
        parse_metric_names("bleu,comet")


def test_scores_are_the_means_of_the_segment_scores(corpus):
    stats = compute_statistics(corpus, ["comet", "metricx"])
    assert [stats.score(s, "comet") for s in "ABC"] == [0.5, 1.5, 3.0]
    assert [stats.score(s, "metricx") for s in "ABC"] == [0.5, 1.5, 3.0]
    assert stats.signature().endswith("metrics:comet[ext,higher],metricx[ext,lower]")
    assert stats.segment_scores("B", "metricx").tolist() == [1.0, 2.0]


def test_asking_for_scores_that_are_not_loaded_says_so(corpus):
    with pytest.raises(InputError, match="no scores named 'mqm' are loaded"):
        compute_statistics(corpus, ["mqm"])
    with pytest.raises(InputError, match="human metric needs per-segment scores"):
        compute_statistics(corpus, ["human"])


def test_intervals_grids_and_ranks_follow_each_metrics_direction(corpus):
    stats = compute_statistics(corpus, ["comet", "metricx"])
    result = run_to_end(iter_bootstrap(stats, BootstrapSettings(resamples=1000, seed=7)))
    for metric in ("comet", "metricx"):
        a, b, c = (result.interval(s, metric) for s in "ABC")
        assert (a.ci_low, a.median, a.ci_high) == (0.0, 0.5, 1.0)
        assert (b.ci_low, b.median, b.ci_high) == (1.0, 1.5, 2.0)
        assert (c.ci_low, c.ci_high) == (3.0, 3.0)
        assert np.isnan(a.rel_ci_low)  # no ratio scale: no relative interval
        assert result.pair(metric, "B", "A").delta == 1.0
    assert result.pair("comet", "B", "A").verdict == ">"
    assert result.pair("metricx", "B", "A").verdict == "<"
    assert result.pair("comet", "C", "B").verdict == ">"
    assert result.pair("metricx", "C", "B").verdict == "<"
    assert [e.system for e in result.ranking("comet").systems] == ["C", "B", "A"]
    assert [e.system for e in result.ranking("metricx").systems] == ["A", "B", "C"]
    assert [e.best_rank for e in result.ranking("metricx").systems] == [1, 2, 3]
    order, _ = result.grid("metricx")
    assert order == ["A", "B", "C"]


def test_human_study_with_an_external_metric_as_the_humans(corpus):
    stats = compute_statistics(corpus, ["comet", "metricx"])
    settings = BootstrapSettings(resamples=1000, seed=7)
    study = run_to_end(iter_human_study(stats, settings, human="metricx"))
    assert study.human == "metricx" and study.systems == ("A", "B", "C")
    assert "human:metricx" in study.signature
    comet = study.correlation("comet")
    assert comet.pearson == pytest.approx(1.0) and comet.spearman == pytest.approx(1.0)
    # Same numbers, opposite directions: every pair is significant both ways, and opposite.
    assert (comet.pairs, comet.agree, comet.opposite) == (3, 0, 3)
    worst = next(d for d in study.disagreements if {d.x, d.y} == {"A", "C"})
    assert (worst.x, worst.metric_verdict, worst.human_verdict) == ("C", ">", "<")
