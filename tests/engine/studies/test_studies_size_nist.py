"""The size study scores NIST on each subset as a test set of its own (Zhang & Vogel 4.1).

A subset's information weights come from its own references; the answer to compare with is the
NIST of a corpus made of only the subset's segments, extracted from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple, replace
from itertools import combinations

import numpy as np
import pytest
from metric_corpora import make_corpus
from shared_corpora import corpus as shared_corpus
from study_runs import METRICS, run

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.draws import iter_resample_scores, stack_units
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.engine.studies import (
    RefsSettings,
    SizeRow,
    SizeSettings,
    iter_refs_study,
    iter_size_study,
)
from mtgui.engine.studies.common import derived_seed, percentile_bounds
from mtgui.engine.studies.size.run import _SUBSETS_STREAM
from mtgui.engine.studies.subset_nist import NistInputs, iter_subset_nist
from mtgui.io.demo import load_demo

NIST = "nist"


def sub_corpus(corpus: Corpus, segments: np.ndarray) -> Corpus:
    """The corpus with only the given segments (in order): a test set of its own."""

    def pick(texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(texts[i] for i in segments)

    test_set = corpus.test_set
    test_set = replace(
        test_set,
        doc_ids=pick(test_set.doc_ids),
        seg_ids=pick(test_set.seg_ids),
        references=tuple(replace(r, texts=pick(r.texts)) for r in test_set.references),
        source=None,
    )
    systems = tuple(replace(s, hypotheses=pick(s.hypotheses)) for s in corpus.systems)
    return Corpus(test_set, systems)


def scores_alone(corpus: Corpus, segments: np.ndarray, settings: MetricSettings) -> np.ndarray:
    """Every system's NIST on the segments alone, extracted from scratch."""
    alone = compute_statistics(sub_corpus(corpus, segments), (NIST,), settings)
    return np.array([alone.score(s, NIST) for s in corpus.system_names])


def own_scores(
    corpus: Corpus, statistics: Statistics, chosen: np.ndarray, settings: MetricSettings
) -> np.ndarray:
    """Every system's NIST on the chosen segments from the stored rows and the subset's own
    information sums."""
    table = run_to_end(iter_subset_nist(NistInputs.of(corpus, settings), corpus.system_names))
    information = table.information(chosen)
    nist = statistics.metric(NIST)
    scores = []
    for s, system in enumerate(corpus.system_names):
        rows = np.array(statistics.rows(system, NIST)[chosen])
        rows[:, :5] = information[:, 5 * s : 5 * s + 5]
        scores.append(nist.score_one(rows.sum(axis=0)))
    return np.array(scores)


def same_rows(rows: Sequence[SizeRow], others: Sequence[SizeRow], metric: str) -> bool:
    """Whether the rows of ``metric`` are the same (NaN equal to NaN: one subset's spread)."""
    mine = [astuple(r) for r in rows if r.metric == metric]
    theirs = [astuple(r) for r in others if r.metric == metric]
    return len(mine) == len(theirs) and all(
        a[:3] == b[:3] and np.array_equal(a[3:], b[3:], equal_nan=True)
        for a, b in zip(mine, theirs, strict=True)
    )


def numbers_corpus() -> Corpus:
    """Segments full of the token ``0``, where mteval-v13a's quirk changes NIST's weights."""
    references = [
        [
            "the 0 x 0 y was 0 x here",
            "0 y and 0 z are 0 x",
            "a 0 b 0 c 0 d",
            "0 x 0 x 0 x 0 y",
            "we saw 0 z and 0 y today",
            "the x was 0 here and 0 there",
        ],
        [
            "the 0 x and 0 y were 0 x here",
            "0 y or 0 z is 0 x",
            "a 0 b c 0 d",
            "0 x 0 x 0 y 0 y",
            "we saw 0 z and 0 x today",
            "x was 0 here and there 0",
        ],
    ]
    return make_corpus(
        references,
        A=["the 0 x 0 y here", "0 y and 0 z", "a 0 b 0 d", "0 x 0 x", "saw 0 z today", "0 here"],
        B=["0 x was here", "0 z are 0 x", "0 b 0 c", "0 x 0 y 0 y", "we 0 y", "x was 0 there"],
    )


@pytest.mark.parametrize("quirk", [True, False], ids=["mteval-quirk", "formula"])
@pytest.mark.parametrize("data", ["demo", "zeros"])
def test_a_subset_scores_nist_as_the_subset_alone_would(data, quirk):
    corpus = load_demo() if data == "demo" else numbers_corpus()
    settings = MetricSettings(tokenize="13a" if data == "demo" else "none", nist_zero_quirk=quirk)
    statistics = compute_statistics(corpus, (NIST,), settings)
    rng = np.random.default_rng(5)
    size = corpus.test_set.size
    for count in (1, size // 3, size // 2, size - 1):
        chosen = np.zeros(size, dtype=bool)
        chosen[rng.choice(size, count, replace=False)] = True
        expected = scores_alone(corpus, np.flatnonzero(chosen), settings)
        found = own_scores(corpus, statistics, chosen, settings)
        np.testing.assert_allclose(found, expected, rtol=1e-10)
        whole_weights = [
            statistics.metric(NIST).score_one(statistics.rows(s, NIST)[chosen].sum(axis=0))
            for s in corpus.system_names
        ]
        assert not np.allclose(whole_weights, expected, rtol=1e-6)


def test_the_zero_quirk_matters_on_the_numbers_corpus():
    """Otherwise the test above would not tell the two weightings apart."""
    corpus = numbers_corpus()
    chosen = np.array([True, False, True, True, False, False])
    quirk, formula = (
        scores_alone(
            corpus, np.flatnonzero(chosen), MetricSettings(tokenize="none", nist_zero_quirk=on)
        )
        for on in (True, False)
    )
    assert np.all(np.abs(quirk - formula) > 1e-3)


@pytest.mark.parametrize("quirk", [True, False], ids=["mteval-quirk", "formula"])
def test_the_study_scores_each_subset_of_documents_as_a_test_set_of_its_own(quirk):
    """Half of the demo's 6 documents, once: the study's NIST is that of one of the 20 corpora
    of 3 documents alone, for every system at once."""
    corpus = load_demo()
    settings = MetricSettings(nist_zero_quirk=quirk)
    statistics = compute_statistics(corpus, METRICS, settings)
    documents = corpus.test_set.document_index()
    study_settings = SizeSettings(BootstrapSettings(resamples=100), (0.5, 1.0), repeats=1)
    nist = NistInputs.of(corpus, settings)
    _, study = run(iter_size_study(statistics, study_settings, documents, nist))
    found = np.array([study.series(s, NIST)[0].score for s in corpus.system_names])
    alone = [
        scores_alone(corpus, np.flatnonzero(np.isin(documents, chosen)), settings)
        for chosen in combinations(range(6), 3)
    ]
    assert min(float(np.max(np.abs(found - a))) for a in alone) < 1e-9
    # BLEU and M-BLEU are what they were.
    _, before = run(iter_size_study(statistics, study_settings, documents))
    for metric in ("bleu", "mbleu"):
        assert same_rows(study.rows, before.rows, metric)


@pytest.mark.parametrize("unit", [Unit.SEGMENT, Unit.DOCUMENT])
def test_the_bootstrap_of_a_subset_keeps_its_own_weights(unit):
    """The subset's resamples are those of the subset alone, extracted from scratch, with the
    same seed: the same median and interval (to the rounding of the information sums)."""
    corpus = load_demo()
    statistics = compute_statistics(corpus, METRICS)
    documents = corpus.test_set.document_index()
    bootstrap = BootstrapSettings(resamples=200, unit=unit)
    study_settings = SizeSettings(bootstrap, (0.5, 1.0), repeats=1)
    nist = NistInputs.of(corpus, statistics.settings)
    _, study = run(iter_size_study(statistics, study_settings, documents, nist))
    # The subset of the first repetition: the first half of the study's own random order.
    order = np.random.default_rng([bootstrap.seed, _SUBSETS_STREAM]).permutation(6)
    segments = np.flatnonzero(np.isin(documents, order[:3]))
    subset = sub_corpus(corpus, segments)
    alone = compute_statistics(subset, METRICS)
    units = subset.test_set.document_index() if unit is Unit.DOCUMENT else np.arange(len(segments))
    seed = derived_seed(bootstrap.seed, _SUBSETS_STREAM, 0, 0)
    resampled = run_to_end(
        iter_resample_scores(alone, stack_units(alone, units), replace(bootstrap, seed=seed))
    )
    for system in corpus.system_names:
        row = study.series(system, NIST)[0]
        assert row.score == pytest.approx(alone.score(system, NIST), rel=1e-12)
        low, median, high = percentile_bounds(resampled[(system, NIST)], bootstrap.level)
        assert (row.ci_low, row.median, row.ci_high) == pytest.approx((low, median, high), rel=1e-9)


@pytest.mark.parametrize("quirk", [True, False], ids=["mteval-quirk", "formula"])
def test_the_whole_test_set_has_the_information_sums_of_the_statistics(quirk):
    corpus = load_demo()
    settings = MetricSettings(nist_zero_quirk=quirk)
    statistics = compute_statistics(corpus, (NIST,), settings)
    table = run_to_end(iter_subset_nist(NistInputs.of(corpus, settings), corpus.system_names))
    information = table.information(np.ones(corpus.test_set.size, dtype=bool))
    for s, system in enumerate(corpus.system_names):  # to the last bit
        assert np.array_equal(
            information[:, 5 * s : 5 * s + 5], statistics.rows(system, NIST)[:, :5]
        )


@pytest.mark.parametrize("unit", [Unit.SEGMENT, Unit.DOCUMENT])
def test_the_whole_test_set_scores_nist_exactly_as_the_statistics(unit):
    corpus = load_demo()
    statistics = compute_statistics(corpus, METRICS)
    documents = corpus.test_set.document_index()
    settings = SizeSettings(BootstrapSettings(resamples=100, unit=unit), (0.5, 1.0), repeats=3)
    nist = NistInputs.of(corpus, statistics.settings)
    _, study = run(iter_size_study(statistics, settings, documents, nist))
    _, before = run(iter_size_study(statistics, settings, documents))
    for system in corpus.system_names:
        half, whole = study.series(system, NIST)
        assert whole.score == statistics.score(system, NIST)  # exactly
        assert whole.score_std == 0.0
        # The whole set's weights are the statistics' own: the same resamples, bit for bit.
        # (Without the texts the score is summed from rows rounded for the bootstrap: 1e-15.)
        previous = before.series(system, NIST)[-1]
        assert same_rows([whole], [replace(previous, score=whole.score)], NIST)
        assert previous.score == pytest.approx(whole.score, rel=1e-14)
        assert half.score < before.series(system, NIST)[0].score  # fewer words, less information
    assert study.signature == before.signature + "|nist-weights:subset"
    assert not any("NIST" in note for note in study.notes)
    assert any("NIST's information weights are the whole test set's" in n for n in before.notes)


def test_the_references_study_weighs_nist_with_each_subset_of_documents_and_references():
    """Table 4 with one reference averages the size studies of each reference alone, each
    subset of documents weighing NIST with that reference in those documents only."""
    corpus = load_demo()
    refs = RefsSettings(BootstrapSettings(resamples=100), fractions=(0.5, 1.0), repeats=3)
    _, study = run(iter_refs_study(corpus, METRICS, settings=refs))
    documents = corpus.test_set.document_index()
    alone = []
    for reference in corpus.test_set.references:
        single = replace(corpus, test_set=replace(corpus.test_set, references=(reference,)))
        statistics = compute_statistics(single, METRICS)
        nist = NistInputs.of(single, statistics.settings)
        alone.append(run(iter_size_study(statistics, refs.size_settings(), documents, nist))[1])
    for system in corpus.system_names:
        rows = [r for r in study.sizes if (r.references, r.system, r.metric) == (1, system, NIST)]
        for row, *sizes in zip(rows, *(a.series(system, NIST) for a in alone), strict=True):
            expected = np.mean([size.score for size in sizes])
            assert (row.fraction, row.subsets) == (sizes[0].fraction, 2)
            assert row.score == pytest.approx(expected, rel=1e-12)
        assert rows[0].score < rows[1].score - 0.5  # half the documents: far less information


def test_without_nist_among_the_metrics_nothing_is_matched():
    corpus = load_demo()
    statistics = compute_statistics(corpus, ("bleu",))
    settings = SizeSettings(BootstrapSettings(resamples=100), (0.5, 1.0), repeats=2)
    nist = NistInputs.of(corpus, statistics.settings)
    _, study = run(iter_size_study(statistics, settings, corpus.test_set.document_index(), nist))
    _, before = run(iter_size_study(statistics, settings, corpus.test_set.document_index()))
    assert same_rows(study.rows, before.rows, "bleu") and study.notes == before.notes
    assert not nist.context._systems and not nist.context._memo  # nothing tokenized


def test_the_texts_must_be_read_with_the_statistics_settings():
    corpus = load_demo()
    statistics = compute_statistics(corpus, METRICS)
    nist = NistInputs.of(corpus, MetricSettings(nist_zero_quirk=False))
    with pytest.raises(ValueError, match="settings"):
        next(iter_size_study(statistics, nist=nist))


@pytest.mark.shared
def test_nist_rises_with_the_size_of_a_real_test_set(shared_data):
    """WMT21 is-en (47 documents, 8 systems): with each subset's own weights NIST rises with
    size, as in Zhang & Vogel's Figure 4; with the whole set's it hardly moves."""
    corpus = shared_corpus("wmt21-newstest2021-is-en", "sgm", ("A",))
    statistics = compute_statistics(corpus, METRICS)
    documents = corpus.test_set.document_index()
    settings = SizeSettings(BootstrapSettings(resamples=100), (0.1, 0.3, 0.6, 1.0), repeats=10)
    nist = NistInputs.of(corpus, statistics.settings)
    _, study = run(iter_size_study(statistics, settings, documents, nist))
    _, before = run(iter_size_study(statistics, settings, documents))
    own = np.array([[r.score for r in study.series(s, NIST)] for s in corpus.system_names])
    whole = np.array([[r.score for r in before.series(s, NIST)] for s in corpus.system_names])
    # At 10% every system loses more than a point of NIST against the whole set's weights.
    assert np.all(whole[:, 0] - own[:, 0] > 1.0)
    # Every system rises from size to size, by far more than the whole-weight curve moves.
    assert np.all(np.diff(own, axis=1) > 0)
    assert np.all(np.diff(own.mean(axis=0)) > 0.1)
    rise, drift = np.ptp(own.mean(axis=0)), np.ptp(whole.mean(axis=0))
    assert rise > 1.0 and drift < rise / 5
    assert own[:, -1].tolist() == [statistics.score(s, NIST) for s in corpus.system_names]
    np.testing.assert_allclose(own[:, -1], whole[:, -1], rtol=1e-14)
    # One real subset against the same documents scored alone, both ways of weighing.
    chosen = np.isin(documents, np.arange(0, 47, 9))
    for quirk in (True, False):
        scoring = MetricSettings(nist_zero_quirk=quirk)
        np.testing.assert_allclose(
            own_scores(corpus, statistics, chosen, scoring),
            scores_alone(corpus, np.flatnonzero(chosen), scoring),
            rtol=1e-10,
        )
