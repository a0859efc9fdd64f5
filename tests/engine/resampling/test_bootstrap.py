"""The bootstrap and significance engine on cases whose answer is known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from metric_corpora import make_corpus

from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.intervals import summarize_samples
from mtgui.engine.inference.significance import holm
from mtgui.engine.resampling.bootstrap import BootstrapResult, iter_bootstrap
from mtgui.engine.resampling.draws import BootstrapProgress
from mtgui.engine.resampling.settings import FEW_DOCUMENTS, MIN_DOCUMENTS, BootstrapSettings, Unit
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo

METRICS = ("bleu", "nist", "mbleu", "chrf", "ter", "wer")


def run(generator) -> tuple[list[BootstrapProgress], BootstrapResult]:
    progress = []
    while True:
        try:
            progress.append(next(generator))
        except StopIteration as finished:
            return progress, finished.value


@pytest.fixture(scope="module")
def demo_statistics():
    return compute_statistics(load_demo(), METRICS)


def test_identical_systems_are_indistinguishable_with_p_1():
    refs = [["the cat sat on the mat", "a dog barked", "it rained all day long"]]
    same = ["the cat sat on a mat", "the dog barked", "it rained all day"]
    stats = compute_statistics(make_corpus(refs, A=same, B=same), METRICS)
    settings = BootstrapSettings(resamples=300, ar_trials=200, correction="holm")
    _, result = run(iter_bootstrap(stats, settings))
    for metric in METRICS:
        pair = result.pair(metric, "A", "B")
        assert (pair.delta, pair.ci_low, pair.ci_high) == (0.0, 0.0, 0.0)
        assert pair.verdict == "~"
        assert pair.p_value == 1.0 and pair.p_value_ar == 1.0 and pair.p_holm == 1.0
        assert pair.win_fraction == 0.0 and pair.tie_fraction == 1.0


@pytest.mark.parametrize("resamples", [100, 1000])
def test_a_system_better_on_every_segment_wins_at_any_b(resamples):
    refs = [["the cat sat on the mat", "a dog barked at the man", "it rained all day long"]]
    good = refs[0]
    bad = ["the dog sat on mat", "a cat barked at man", "it snowed all day"]
    stats = compute_statistics(make_corpus(refs, Good=good, Bad=bad), METRICS)
    _, result = run(iter_bootstrap(stats, BootstrapSettings(resamples=resamples)))
    for metric in ("bleu", "nist", "mbleu", "chrf", "ter", "wer"):
        pair = result.pair(metric, "Good", "Bad")
        assert pair.verdict == ">", metric  # TER and WER: lower is better, still ">"
        assert pair.win_fraction == 1.0
        assert result.pair(metric, "Bad", "Good").verdict == "<"
    assert result.pair("ter", "Good", "Bad").delta < 0  # the number is smaller, the system better
    assert result.ranking("ter").systems[0].system == "Good"


def test_one_segment_every_resample_is_the_test_set():
    stats = compute_statistics(make_corpus([["a b c d"]], S=["a b c e"]), ("bleu", "chrf"))
    _, result = run(iter_bootstrap(stats, BootstrapSettings(resamples=100)))
    interval = result.interval("S", "bleu")
    assert np.all(interval.samples == interval.score)
    assert (interval.ci_low, interval.median, interval.ci_high) == (interval.score,) * 3
    assert interval.std == 0 and interval.rel_ci_low == 0 and interval.rel_ci_high == 0


def test_two_documents_give_only_the_three_possible_resamples():
    refs = [["a b c d", "e f g h", "x y z w"]]
    stats = compute_statistics(make_corpus(refs, S=["a b c d", "e f x h", "q r s t"]), ("bleu",))
    documents = np.array([0, 0, 1])
    settings = BootstrapSettings(resamples=500, unit=Unit.DOCUMENT)
    _, result = run(iter_bootstrap(stats, settings, documents))
    rows = stats.rows("S", "bleu")
    first, second = rows[:2].sum(axis=0), rows[2]
    possible = {stats.metric("bleu").score_one(r) for r in (2 * first, first + second, 2 * second)}
    observed = set(result.interval("S", "bleu").samples.tolist())
    assert observed == possible  # 500 draws hit all three of them
    shares = [np.mean(result.interval("S", "bleu").samples == p) for p in sorted(possible)]
    assert sorted(shares) == pytest.approx([0.25, 0.25, 0.5], abs=0.07)


def test_same_seed_same_results_whatever_the_chunk_size(demo_statistics):
    settings = BootstrapSettings(resamples=200, ar_trials=100)
    results = [run(iter_bootstrap(demo_statistics, settings, chunk=c))[1] for c in (1, 7, 200)]
    for other in results[1:]:
        for a, b in zip(results[0].intervals, other.intervals, strict=True):
            np.testing.assert_array_equal(a.samples, b.samples)
        assert results[0].pairs == other.pairs
    different = run(iter_bootstrap(demo_statistics, BootstrapSettings(resamples=200, seed=1)))[1]
    assert not np.array_equal(different.intervals[0].samples, results[0].intervals[0].samples)


def test_progress_snapshots_grow_and_are_read_only(demo_statistics):
    progress, result = run(
        iter_bootstrap(demo_statistics, BootstrapSettings(resamples=250), chunk=100)
    )
    assert [p.done for p in progress] == [100, 200, 250]
    assert all(p.total == 250 and p.phase == "bootstrap" for p in progress)
    first = progress[0].scores[("Lumen", "bleu")]
    assert first.shape == (100,)
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 0.0
    np.testing.assert_array_equal(first, result.interval("Lumen", "bleu").samples[:100])


def test_demo_significance_matches_how_the_demo_was_made(demo_statistics):
    _, result = run(iter_bootstrap(demo_statistics, BootstrapSettings()))
    assert result.pair("bleu", "Lumen", "Quill").verdict == "~"  # meant to be indistinguishable
    for better, worse in [("Lumen", "Tessera"), ("Quill", "Tessera"), ("Tessera", "Ostrich")]:
        assert result.pair("bleu", better, worse).verdict == ">"
    assert result.ranking("bleu").clusters == [["Lumen", "Quill"], ["Tessera"], ["Ostrich"]]
    lumen = result.ranking("bleu").systems[0]
    assert (lumen.best_rank, lumen.worst_rank) == (1, 2)


def test_every_pair_is_found_by_its_metric_and_systems(demo_statistics):
    _, result = run(iter_bootstrap(demo_statistics, BootstrapSettings(resamples=200)))
    assert len({(p.metric, p.x, p.y) for p in result.pairs}) == len(result.pairs)
    for p in result.pairs:
        assert result.pair(p.metric, p.x, p.y) is p
    with pytest.raises(KeyError):
        result.pair("bleu", "Lumen", "Lumen")  # a system is not compared with itself


def test_interval_summary_by_hand():
    samples = np.arange(1.0, 101.0)  # 1..100
    interval = summarize_samples("S", "m", 50.0, samples, 0.9)
    assert interval.median == 50.5 and interval.mean == 50.5
    assert interval.ci_low == pytest.approx(np.percentile(samples, 5))
    assert interval.ci_high == pytest.approx(np.percentile(samples, 95))
    assert interval.rel_ci_low == pytest.approx(-100 * (50.5 - interval.ci_low) / 50.5)
    assert interval.rel_ci_high == pytest.approx(100 * (interval.ci_high - 50.5) / 50.5)
    assert interval.rsd == pytest.approx(100 * samples.std(ddof=1) / 50.5)


def test_holm_by_hand():
    # sorted p: 0.01 (x3 -> 0.03), 0.02 (x2 -> 0.04), 0.04 (x1 -> 0.04, monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    adjusted = holm([0.01, float("nan")])
    assert adjusted[0] == 0.01 and math.isnan(adjusted[1])


def test_holm_is_applied_per_metric(demo_statistics):
    _, result = run(
        iter_bootstrap(demo_statistics, BootstrapSettings(resamples=300, correction="holm"))
    )
    pairs = [p for p in result.pairs if p.metric == "bleu"]
    assert all(p.p_holm is not None and p.p_holm >= p.p_value for p in pairs)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"resamples": 99}, "from 100 to 100,000"),
        ({"resamples": 100_001}, "from 100"),
        ({"level": 1.0}, "confidence level"),
        ({"ar_trials": 5}, "randomization trials"),
    ],
)
def test_settings_are_checked(options, words):
    with pytest.raises(InputError, match=words):
        BootstrapSettings(**options)


def test_document_unit_without_documents_falls_back_with_a_note(demo_statistics):
    settings = BootstrapSettings(resamples=100, unit=Unit.DOCUMENT)
    _, result = run(iter_bootstrap(demo_statistics, settings, None))
    (note,) = result.notes
    assert note.startswith("The test set has no documents, so single segments were resampled.")
    assert "32-59% at 5%" in note and "--docids" in note
    assert result.settings.unit is Unit.SEGMENT and result.unit_requested is Unit.DOCUMENT
    assert "unit:segment" in result.signature


@pytest.mark.parametrize(
    ("documents", "unit", "used", "note"),
    [
        (None, Unit.AUTO, Unit.SEGMENT, "false positives can be far above the level"),
        (None, Unit.SEGMENT, Unit.SEGMENT, "Give the documents with --docids FILE"),
        (FEW_DOCUMENTS, Unit.AUTO, Unit.DOCUMENT, ""),
        (FEW_DOCUMENTS - 1, Unit.AUTO, Unit.DOCUMENT, "the intervals and verdicts are studentized"),
        (MIN_DOCUMENTS, Unit.AUTO, Unit.DOCUMENT, "the intervals and verdicts are studentized"),
        (MIN_DOCUMENTS - 1, Unit.AUTO, Unit.SEGMENT, "too few to resample documents reliably"),
        (MIN_DOCUMENTS - 1, Unit.DOCUMENT, Unit.DOCUMENT, "too few for that to be reliable"),
        (1, Unit.DOCUMENT, Unit.SEGMENT, "The test set is one document, so single segments"),
        (1, Unit.AUTO, Unit.SEGMENT, "1 document is too few to resample documents reliably"),
        (FEW_DOCUMENTS, Unit.SEGMENT, Unit.SEGMENT, "false positives can be far above the level"),
    ],
)
def test_the_unit_really_resampled_is_recorded(demo_statistics, documents, unit, used, note):
    size = demo_statistics.rows("Lumen", "bleu").shape[0]
    index = None if documents is None else np.arange(size) % documents
    settings = BootstrapSettings(resamples=100, unit=unit)
    _, result = run(iter_bootstrap(demo_statistics, settings, index))
    assert result.settings.unit is used and result.unit_requested is unit
    assert f"unit:{used}" in result.signature
    assert note in " ".join(result.notes) and bool(note) == bool(result.notes)
    explicit = run(iter_bootstrap(demo_statistics, BootstrapSettings(100, unit=used), index))[1]
    np.testing.assert_array_equal(
        result.interval("Lumen", "bleu").samples, explicit.interval("Lumen", "bleu").samples
    )


def test_one_system_has_intervals_and_no_pairs_and_none_is_an_error(demo_statistics):
    from mtgui.engine.statistics.rows import Statistics

    one = Statistics(demo_statistics.settings, demo_statistics.metrics, demo_statistics.systems[:1])
    _, result = run(iter_bootstrap(one, BootstrapSettings(resamples=100)))
    assert result.pairs == () and len(result.intervals) == len(METRICS)
    assert result.ranking("bleu").clusters == [["Lumen"]]
    none = Statistics(demo_statistics.settings, demo_statistics.metrics, ())
    with pytest.raises(InputError, match="no system output to compare"):
        run(iter_bootstrap(none, BootstrapSettings(resamples=100)))


def test_scoring_all_systems_of_a_metric_at_once_gives_the_scores_of_one_by_one(
    demo_statistics, monkeypatch
):
    """The bootstrap scores a chunk's sums of every system in one call per metric; every
    metric's scores are bit for bit those of one call per system and metric (the old way)."""
    settings = BootstrapSettings(resamples=400, seed=11)
    _, together = run(iter_bootstrap(demo_statistics, settings, chunk=150))

    def one_by_one(columns):
        return {(key[1], i): ([key], columns[key][None, :]) for i, key in enumerate(columns)}

    monkeypatch.setattr("mtgui.engine.resampling.draws._by_metric", one_by_one)
    _, apart = run(iter_bootstrap(demo_statistics, settings, chunk=150))
    assert len(together.intervals) == len(demo_statistics.system_names) * len(METRICS)
    for mine, theirs in zip(together.intervals, apart.intervals, strict=True):
        assert (mine.system, mine.metric) == (theirs.system, theirs.metric)
        assert mine.samples.tobytes() == theirs.samples.tobytes()
