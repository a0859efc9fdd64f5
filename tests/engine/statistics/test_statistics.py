"""Statistics extraction: properties every metric must have, progress, immutability."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from mtgui.engine.core.corpus import Corpus, SystemOutput, TestSet
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics import METRIC_NAMES, parse_metric_names
from mtgui.engine.scale import scaled_statistics
from mtgui.engine.statistics.rows import (
    StatisticsProgress,
    compute_statistics,
    iter_statistics,
    prepare_segment_scores,
)
from mtgui.io.demo import load_demo

AUTOMATIC = tuple(name for name in METRIC_NAMES if name != "human")


@pytest.fixture(scope="module")
def demo() -> Corpus:
    return load_demo()


@pytest.fixture(scope="module")
def demo_statistics(demo):
    return compute_statistics(demo, AUTOMATIC)


def subset(corpus: Corpus, order) -> Corpus:
    """The corpus restricted to (and reordered by) the segment indices in ``order``."""
    test_set = corpus.test_set

    def pick(texts):
        return tuple(texts[i] for i in order)

    new_test_set = TestSet(
        doc_ids=pick(test_set.doc_ids),
        seg_ids=pick(test_set.seg_ids),
        references=tuple(replace(r, texts=pick(r.texts)) for r in test_set.references),
        has_documents=test_set.has_documents,
    )
    systems = tuple(replace(s, hypotheses=pick(s.hypotheses)) for s in corpus.systems)
    return Corpus(new_test_set, systems)


def test_scores_do_not_depend_on_segment_order(demo, demo_statistics):
    order = np.random.default_rng(7).permutation(demo.test_set.size)
    shuffled = compute_statistics(subset(demo, order), AUTOMATIC)
    for name in demo.system_names:
        for metric in AUTOMATIC:
            assert shuffled.score(name, metric) == pytest.approx(
                demo_statistics.score(name, metric), rel=1e-12
            ), (name, metric)


def test_halves_sum_to_the_whole(demo, demo_statistics):
    size = demo.test_set.size
    halves = [range(0, size // 2), range(size // 2, size)]
    parts = [compute_statistics(subset(demo, list(h)), AUTOMATIC) for h in halves]
    for name in demo.system_names:
        # NIST's weights belong to the whole reference set, so only its sums are compared.
        np.testing.assert_allclose(
            demo_statistics.rows(name, "nist").sum(axis=0),
            sum(demo_statistics.rows(name, "nist")[list(h)].sum(axis=0) for h in halves),
            rtol=1e-12,
        )
        for metric in ("bleu", "mbleu", "chrf", "ter", "wer"):
            whole = demo_statistics.rows(name, metric)
            glued = np.vstack([part.rows(name, metric) for part in parts])
            np.testing.assert_array_equal(glued, whole)
            np.testing.assert_allclose(
                parts[0].totals(name, metric) + parts[1].totals(name, metric),
                demo_statistics.totals(name, metric),
            )


def test_a_system_equal_to_the_reference_scores_bleu_1(demo):
    reference = demo.test_set.references[0]
    one_reference = replace(demo.test_set, references=(reference,))
    copy = SystemOutput("copy", reference.texts, reference.origin)
    stats = compute_statistics(Corpus(one_reference, (copy,)), AUTOMATIC)
    assert stats.score("copy", "bleu") == 1.0
    assert stats.score("copy", "mbleu") == 1.0
    assert stats.score("copy", "chrf") == pytest.approx(100.0)
    assert stats.score("copy", "ter") == 0.0
    assert stats.score("copy", "wer") == 0.0


def test_progress_per_system_and_read_only_results(demo):
    generator = iter_statistics(demo, ("bleu", "nist"))
    progress = []
    with pytest.raises(StopIteration) as finished:
        while True:
            progress.append(next(generator))
    assert progress == [
        StatisticsProgress(i + 1, 4, name) for i, name in enumerate(demo.system_names)
    ]
    result = finished.value.value
    rows = result.rows("Lumen", "bleu")
    assert rows.shape == (95, 10)
    with pytest.raises(ValueError, match="read-only"):
        rows[0, 0] = 1


def test_demo_systems_are_ordered_as_their_noise(demo_statistics):
    bleu = {name: demo_statistics.score(name, "bleu") for name in demo_statistics.system_names}
    assert bleu["Lumen"] > bleu["Quill"] > bleu["Tessera"] > bleu["Ostrich"]


def test_metric_names_are_parsed_and_checked():
    assert parse_metric_names(" BLEU,nist ,bleu") == ("bleu", "nist")
    with pytest.raises(InputError, match="unknown metric 'meteor'"):
        parse_metric_names("bleu,meteor")
    with pytest.raises(InputError, match="unknown metric"):
        parse_metric_names(" , ")


def test_systems_are_ranked_best_first_in_each_metric_s_direction():
    from mtgui.engine.statistics.rows import compute_statistics
    from mtgui.io.demo import load_demo

    statistics = compute_statistics(load_demo(), ("bleu", "ter"))
    assert statistics.ranked_systems("bleu") == ["Lumen", "Quill", "Tessera", "Ostrich"]
    ter = {name: statistics.score(name, "ter") for name in statistics.system_names}
    assert statistics.ranked_systems("ter") == sorted(ter, key=ter.get)  # lower is better


def test_totals_and_segment_scores_are_kept_read_only_and_equal_to_fresh_ones(demo):
    statistics = compute_statistics(demo, ("bleu", "nist", "chrf"))
    for name in statistics.system_names:
        for metric in statistics.metrics:
            rows = statistics.rows(name, metric.name)
            totals = statistics.totals(name, metric.name)
            scores = statistics.segment_scores(name, metric.name)
            np.testing.assert_array_equal(totals, rows.sum(axis=0))
            np.testing.assert_array_equal(scores, metric.segment_scores(rows))
            assert statistics.totals(name, metric.name) is totals  # computed once
            assert statistics.segment_scores(name, metric.name) is scores
            with pytest.raises(ValueError, match="read-only"):
                scores[0] = 1.0


def test_prepared_segment_scores_are_those_asked_for_later(demo):
    statistics = compute_statistics(demo, ("bleu", "mbleu"))
    steps = list(prepare_segment_scores(statistics))
    assert steps == [None] * len(statistics.system_names)  # a step per system, to cancel
    kept = {
        (name, m.name): statistics.segment_scores(name, m.name)
        for name in statistics.system_names
        for m in statistics.metrics
    }
    fresh = compute_statistics(demo, ("bleu", "mbleu"))
    for (name, metric), scores in kept.items():
        np.testing.assert_array_equal(scores, fresh.segment_scores(name, metric))


def test_what_is_kept_is_shared_with_other_metrics_but_never_with_other_rows(demo):
    statistics = compute_statistics(demo, ("bleu",))
    full = statistics.totals("Lumen", "bleu")
    half = replace(
        statistics,
        systems=tuple(replace(s, rows={"bleu": s.rows["bleu"][:40]}) for s in statistics.systems),
    )
    np.testing.assert_array_equal(half.totals("Lumen", "bleu"), half.rows("Lumen", "bleu").sum(0))
    assert statistics.totals("Lumen", "bleu") is full
    scaled = scaled_statistics(statistics)
    assert scaled.totals("Lumen", "bleu") is full  # the same rows: the same totals
    np.testing.assert_array_equal(
        scaled.segment_scores("Lumen", "bleu"), 100.0 * statistics.segment_scores("Lumen", "bleu")
    )
