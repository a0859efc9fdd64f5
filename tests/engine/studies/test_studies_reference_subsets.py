"""The references study's shortcuts give, for every subset of the references, exactly what a
context restricted to that subset computes from scratch: the clipped matches (derived from the
matches against all references and each reference's own counts) and NIST's information sums of
any subset of the segments (one table for every subset of the references)."""

from __future__ import annotations

from dataclasses import fields, replace
from itertools import combinations

import numpy as np
import pytest
from metric_corpora import make_corpus
from shared_corpora import corpus as shared_corpus

from mtgui.engine.core.corpus import Corpus, TextColumn
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.studies import kernels
from mtgui.engine.studies.refs.matches import iter_reference_matches
from mtgui.engine.studies.subset_nist import NistInputs, iter_subset_nist
from mtgui.io.demo import load_demo

REFERENCES = [
    ["the cat sat on the mat the cat", "0 x 0 y 0 x", "a b a b a b c", "we went home", ""],
    ["the cat is on the mat", "0 x and 0 y", "a b c a b c", "we went home early", "a"],
    ["a cat sat on a mat the", "0 y 0 y 0 x 0", "b a b a", "home we went", "b a"],
    ["the cat sat on the mat the cat", "x 0 x", "a b a b a b c", "we went", "a b"],  # like 0
]
SYSTEMS = {
    "A": ["the cat the cat the cat sat", "0 x 0 x 0 x 0 y", "a b a b a b a b", "we went home", "a"],
    "B": ["a cat on a mat", "0 y", "c b a", "home home home", ""],
}


def hand_made() -> Corpus:
    """Four references with repeated n-grams (clipping differs by reference) and a copy."""
    return make_corpus(REFERENCES, **SYSTEMS)


def more_references(corpus: Corpus) -> Corpus:
    """The corpus with its first two systems as two more references (four on the 2-reference
    WMT21 de-en, as the benchmark set has)."""
    extra = tuple(
        TextColumn(f"extra{i}", s.hypotheses, s.origin) for i, s in enumerate(corpus.systems[:2])
    )
    test_set = replace(corpus.test_set, references=corpus.test_set.references + extra)
    return replace(corpus, test_set=test_set, systems=corpus.systems[2:])


def subsets(count: int) -> list[tuple[int, ...]]:
    return [c for r in range(1, count + 1) for c in combinations(range(count), r)]


def assert_same_matches(found, expected) -> None:
    assert len(found) == len(expected)
    for mine, theirs in zip(found, expected, strict=True):
        for field in fields(theirs):
            a, b = getattr(mine, field.name), getattr(theirs, field.name)
            assert a.dtype == b.dtype and np.array_equal(a, b), field.name


def check_matches(corpus: Corpus, settings: MetricSettings) -> None:
    derived = run_to_end(iter_reference_matches(ExtractionContext(corpus.test_set, settings)))
    for system in corpus.systems:
        derived.add(system)
    for chosen in subsets(corpus.test_set.num_references):
        child = ExtractionContext(corpus.test_set, settings).with_references(chosen)
        for system in corpus.systems:
            assert_same_matches(derived.matches(system.name, chosen), child.matches(system))


@pytest.mark.parametrize("data", ["hand-made", "demo"])
def test_the_matches_against_a_subset_of_the_references_are_derived_exactly(data):
    corpus = hand_made() if data == "hand-made" else load_demo()
    check_matches(corpus, MetricSettings(tokenize="none" if data == "hand-made" else "13a"))


@pytest.mark.shared
def test_the_derived_matches_are_exact_on_real_data_with_four_references(shared_data):
    corpus = more_references(shared_corpus("wmt21-newstest2021-de-en-2ref", "txt", ("A", "B")))
    check_matches(corpus, MetricSettings())


def check_information(corpus: Corpus, settings: MetricSettings, tries: int = 4) -> None:
    """Every source of one table against a table of its references alone, bit for bit, on
    random subsets of the segments, picked and arranged."""
    names = corpus.system_names
    sources = subsets(corpus.test_set.num_references)
    inputs = NistInputs(ExtractionContext(corpus.test_set, settings), corpus.systems)
    table = run_to_end(iter_subset_nist(inputs, names, False, sources))
    alone = []
    for chosen in sources:
        child = ExtractionContext(corpus.test_set, settings).with_references(chosen)
        alone.append(run_to_end(iter_subset_nist(NistInputs(child, corpus.systems), names)))
    rng = np.random.default_rng(3)
    size = corpus.test_set.size
    order = rng.permutation(size)
    for arranged in (False, True):
        if arranged:
            table.arrange(order)
        for count in np.linspace(1, size, tries).astype(int):
            chosen = np.zeros(size, dtype=bool)
            chosen[order[:count] if arranged else rng.choice(size, count, replace=False)] = True
            found = table.information_of_sources(chosen).reshape(count, len(sources), -1)
            for s, single in enumerate(alone):
                assert np.array_equal(found[:, s], single.information(chosen)), sources[s]


@pytest.mark.parametrize("quirk", [True, False], ids=["mteval-quirk", "formula"])
def test_one_table_gives_every_subset_of_the_references_its_own_nist(quirk):
    check_information(hand_made(), MetricSettings(tokenize="none", nist_zero_quirk=quirk))
    check_information(load_demo(), MetricSettings(nist_zero_quirk=quirk))


@pytest.mark.shared
def test_one_table_is_exact_on_real_data_with_four_references(shared_data):
    corpus = more_references(shared_corpus("wmt21-newstest2021-de-en-2ref", "txt", ("A", "B")))
    check_information(corpus, MetricSettings(), tries=3)


def test_numpy_and_the_kernels_give_the_same_sums(monkeypatch):
    rng = np.random.default_rng(1)
    pairs, grams, size = 5000, 300, 400
    bins = np.sort(rng.integers(0, size, pairs))
    ids = rng.integers(0, grams, pairs)
    clipped = rng.integers(1, 4, pairs).astype(np.float64)
    caps = rng.integers(0, 4, (pairs, 3)).astype(np.int32)
    members = np.array([[True, False, False], [False, True, True], [True, True, True]])
    weights = rng.random((3, grams)) * 8
    compiled = kernels.information_sums(bins, ids, clipped, caps, members, weights, size)
    shared = kernels.information_sums(bins, ids, clipped, None, members, weights, size)
    monkeypatch.setattr(kernels, "COMPILED", False)
    assert np.array_equal(
        compiled, kernels.information_sums(bins, ids, clipped, caps, members, weights, size)
    )
    assert np.array_equal(
        shared, kernels.information_sums(bins, ids, clipped, None, members, weights, size)
    )
    capped = np.minimum(clipped, caps[:, 1:].max(axis=1))
    assert np.array_equal(compiled[:, 1], np.bincount(bins, capped * weights[1, ids], size))


@pytest.mark.parametrize("units", [1, 5, 1650])
def test_the_counts_are_those_of_the_ordinary_bootstrap(units, monkeypatch):
    from mtgui.engine.resampling.draws import draw_counts

    expected = draw_counts(np.random.default_rng(9), 300, units)
    assert np.array_equal(kernels.draw_counts(np.random.default_rng(9), 300, units), expected)
    monkeypatch.setattr(kernels, "COMPILED", False)
    assert np.array_equal(kernels.draw_counts(np.random.default_rng(9), 300, units), expected)
