"""Tokenizing on worker processes gives exactly the vocabulary and ids of tokenizing here."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mtgui.engine import token_pool
from mtgui.engine.extraction import ExtractionContext
from mtgui.engine.settings import Case, MetricSettings
from mtgui.io.demo import load_demo


@pytest.mark.parametrize("case", [Case.SENSITIVE, Case.FULL])
def test_the_workers_give_the_same_ids(monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    corpus = load_demo()
    settings = MetricSettings(case=case)
    monkeypatch.setattr(token_pool, "_allowed", True)
    monkeypatch.setattr(token_pool, "POOL_MIN_TOKENS", 0)
    pooled = ExtractionContext(corpus.test_set, settings)
    pooled.prefetch(corpus.systems)
    assert pooled._reference_jobs  # the workers were asked
    here = ExtractionContext(corpus.test_set, settings)
    assert list(pooled.vocabulary.items()) == list(here.vocabulary.items())
    pairs = list(zip(pooled.reference_ids, here.reference_ids, strict=True))
    pairs += [(pooled.hypothesis_ids(s), here.hypothesis_ids(s)) for s in corpus.systems]
    for a, b in pairs:
        for field in ("ids", "lengths", "segment", "position"):
            assert np.array_equal(getattr(a, field), getattr(b, field))


def test_without_permission_everything_is_tokenized_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A script that imports the engine never has its main module run again by workers."""
    corpus = load_demo()
    monkeypatch.setattr(token_pool, "_allowed", False)
    monkeypatch.setattr(token_pool, "POOL_MIN_TOKENS", 0)
    context = ExtractionContext(corpus.test_set, MetricSettings())
    context.prefetch(corpus.systems)
    assert not context._reference_jobs


@pytest.mark.parametrize(
    ("frozen", "supported", "pooled"),
    [(False, False, True), (True, False, False), (True, True, True)],
)
def test_a_bundled_program_uses_workers_only_after_freeze_support(
    monkeypatch: pytest.MonkeyPatch, frozen: bool, supported: bool, pooled: bool
) -> None:
    """In a bundle a worker is the program started again: without freeze_support() first in
    its entry point, each worker would run the whole program (packaging/mtgui_entry.py)."""
    monkeypatch.setattr(token_pool, "_allowed", True)
    monkeypatch.setattr(token_pool, "_freeze_supported", supported)
    monkeypatch.setattr(sys, "frozen", frozen, raising=False)
    assert token_pool.worth_a_pool(100_000, 3) is pooled
    assert token_pool.worth_a_pool(10, 3) is False  # small sets: never
