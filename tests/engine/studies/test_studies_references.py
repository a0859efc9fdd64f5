"""The number-of-references study (Zhang & Vogel 4.2) and scoring against reference subsets."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from metric_corpora import make_corpus
from study_runs import METRICS, run

from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics, iter_statistics
from mtgui.engine.studies import RefsSettings, iter_refs_study
from mtgui.engine.studies.refs.study import reference_subsets
from mtgui.io.demo import load_demo

REFERENCE = [
    "the cat sat on the mat",
    "a dog barked at the man",
    "it rained all day long",
    "we went home early",
]
HYPOTHESES = {
    "A": ["the cat sat on a mat", "the dog barked at a man", "it rained all day", "we went home"],
    "B": ["a cat is on the mat", "a dog barks", "rain all day long", "we went early home"],
}


def small(**changes) -> RefsSettings:
    values = {"bootstrap": BootstrapSettings(resamples=100), "fractions": (0.5, 1.0), "repeats": 2}
    return RefsSettings(**{**values, **changes})


def test_a_duplicated_reference_changes_nothing_in_bleus_clipping():
    """With references [A] and [A, A'] (A' a copy of A) the BLEU statistics are identical:
    the closest reference length and the clipping caps are the same."""
    one = compute_statistics(make_corpus([REFERENCE], **HYPOTHESES), METRICS)
    two = compute_statistics(make_corpus([REFERENCE, list(REFERENCE)], **HYPOTHESES), METRICS)
    for system in HYPOTHESES:
        np.testing.assert_array_equal(one.rows(system, "bleu"), two.rows(system, "bleu"))
        for metric in METRICS:  # NIST's counts double but its score does not change
            assert two.score(system, metric) == pytest.approx(one.score(system, metric), 1e-12)


def test_the_study_finds_no_difference_between_a_reference_and_its_copy():
    corpus = make_corpus([REFERENCE, list(REFERENCE)], **HYPOTHESES)
    _, study = run(iter_refs_study(corpus, METRICS, settings=small(repeats=0)))
    assert study.subsets == (("ref0",), ("ref1",), ("ref0", "ref1"))
    for row in (r for r in study.rows if r.references == 1):
        both = next(
            r
            for r in study.rows
            if (r.references, r.system, r.metric) == (2, row.system, row.metric)
        )
        assert row.score_min == row.score_max  # the two single references score alike
        for field in ("score", "median", "ci_low", "ci_high"):
            assert getattr(both, field) == pytest.approx(getattr(row, field), rel=1e-12)


@pytest.mark.parametrize("chosen", [(0,), (1,), (1, 0)])
def test_a_restricted_context_scores_as_if_only_those_references_were_loaded(chosen):
    corpus = load_demo()
    metrics = ("bleu", "nist", "mbleu", "wer", "chrf", "ter")
    context = ExtractionContext(corpus.test_set, MetricSettings())
    child = context.with_references(chosen)
    subset = replace(corpus, test_set=child.test_set)
    restricted = run_to_end(iter_statistics(subset, metrics, MetricSettings(), child))
    alone = compute_statistics(subset, metrics)  # a fresh context: tokenizes everything
    for system in corpus.system_names:
        for metric in metrics:
            # Exact, but for NIST's information sums: the n-gram ids come from the vocabulary of
            # all references, so a segment's weights are added in another order (1 ulp).
            np.testing.assert_allclose(
                restricted.rows(system, metric),
                alone.rows(system, metric),
                rtol=1e-14,
                err_msg=metric,
            )
            if metric != "nist":
                assert np.array_equal(restricted.rows(system, metric), alone.rows(system, metric))
    # Nothing was tokenized again: tokens and token ids are the parent's own objects.
    assert child.reference_ids[0] is context.reference_ids[chosen[0]]
    system = corpus.systems[0]
    assert child.hypothesis_ids(system) is context.hypothesis_ids(system)


def test_tables_have_a_row_for_every_number_of_references_system_metric_and_size():
    corpus = load_demo()
    _, study = run(iter_refs_study(corpus, METRICS, settings=small()))
    systems = corpus.system_names
    assert [(r.references, r.metric, r.system) for r in study.rows] == [
        (r, m, s) for r in (1, 2) for m in METRICS for s in systems
    ]
    assert [r.subsets for r in study.rows] == [2] * 12 + [1] * 12
    assert [(r.references, r.metric, r.system, r.fraction) for r in study.sizes] == [
        (r, m, s, f) for r in (1, 2) for m in METRICS for s in systems for f in (0.5, 1.0)
    ]
    full = compute_statistics(corpus, METRICS)  # all references: the scores of mtgui eval
    for row in (r for r in study.rows if r.references == 2):
        assert row.score == pytest.approx(full.score(row.system, row.metric), rel=1e-12)
    one = [r for r in study.rows if r.references == 1 and r.metric == "bleu"]
    two = [r for r in study.rows if r.references == 2 and r.metric == "bleu"]
    # The demo's systems are noisy copies of reference B: one reference scores them lower.
    assert all(a.score < b.score for a, b in zip(one, two, strict=True))


def test_many_references_are_sampled_reproducibly():
    subsets = reference_subsets(5, 3, seed=1)
    sizes = [len(s) for s in subsets]
    assert sizes == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5]
    assert len(set(subsets)) == len(subsets)
    assert subsets == reference_subsets(5, 3, seed=1)
    assert reference_subsets(5, 3, seed=2) != subsets
    assert reference_subsets(3, 10, seed=1) == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]


def test_progress_grows_to_its_total_and_the_same_seed_repeats_the_study():
    corpus = load_demo()
    snapshots, study = run(iter_refs_study(corpus, METRICS, settings=small()))
    dones = [s.done for s in snapshots]
    assert dones == sorted(dones)
    # The 4 systems matched against both references; per subset, the 4 systems and its
    # bootstrap; then Table 4's 2 x 2 test sets, for all subsets at once.
    assert dones[-1] == snapshots[-1].total == 4 + 3 * (4 + 1) + 2 * 2
    assert [len(s.partial.subsets) for s in snapshots][-1] == 3
    assert snapshots[-1].partial == study
    assert run(iter_refs_study(corpus, METRICS, settings=small()))[1] == study


def test_a_higher_bleu_order_leaves_nist_as_it_was():
    """BLEU's maximum order above NIST's 5 widens the references' n-gram index; NIST's subset
    tables keep their own orders (the study once failed on the sixth)."""
    corpus = make_corpus([REFERENCE, list(REFERENCE)], **HYPOTHESES)
    metrics = ("bleu", "nist")
    _, usual = run(iter_refs_study(corpus, metrics, settings=small()))
    _, wide = run(iter_refs_study(corpus, metrics, MetricSettings(bleu_max_order=6), small()))
    assert usual.sizes and wide.sizes  # Table 4, where NIST's subset tables are used
    nist = [r for r in usual.rows if r.metric == "nist"]
    assert nist == [r for r in wide.rows if r.metric == "nist"]


def test_the_signature_names_the_metrics_options():
    corpus = make_corpus([REFERENCE, list(REFERENCE)], **HYPOTHESES)
    settings = MetricSettings(bleu_smooth_method="floor", chrf_whitespace=True)
    _, study = run(iter_refs_study(corpus, ("bleu", "nist", "chrf"), settings, small(repeats=0)))
    assert "|metrics:bleu[smooth=floor[0.10]],nist,chrf[nc=6,nw=0,beta=2,space=yes]|" in (
        study.signature
    )
