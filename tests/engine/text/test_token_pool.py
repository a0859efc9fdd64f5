"""Tokenizing on worker processes gives exactly the vocabulary and ids of tokenizing here."""

from __future__ import annotations

import pickle
import subprocess
import sys
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pytest

from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text import token_pool
from mtgui.engine.text.settings import Case
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


class _BrokenPool:
    """A pool whose worker died: every submit raises, as ProcessPoolExecutor's then does."""

    def __init__(self) -> None:
        self.shut_down = False

    def submit(self, *args: object) -> None:
        raise BrokenProcessPool("a child process terminated abruptly")

    def shutdown(self, wait: bool, cancel_futures: bool) -> None:
        self.shut_down = True


def test_a_broken_pool_costs_time_not_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed (for want of memory, say) breaks the pool, and the pool then refuses
    every job: the texts are tokenized here with the same ids, and the next run starts new
    workers. Before, the refusal ended the run with an internal error."""
    corpus = load_demo()
    broken = _BrokenPool()
    monkeypatch.setattr(token_pool, "_allowed", True)
    monkeypatch.setattr(token_pool, "POOL_MIN_TOKENS", 0)
    monkeypatch.setattr(token_pool, "_pool", broken)
    pooled = ExtractionContext(corpus.test_set, MetricSettings())
    pooled.prefetch(corpus.systems)
    assert broken.shut_down and token_pool._pool is None  # dropped: the next run starts anew
    assert len(pooled._reference_jobs) == 1 and not pooled._jobs  # no more jobs for this run
    here = ExtractionContext(corpus.test_set, MetricSettings())
    assert list(pooled.vocabulary.items()) == list(here.vocabulary.items())
    for system in corpus.systems:
        a, b = pooled.hypothesis_ids(system), here.hypothesis_ids(system)
        assert np.array_equal(a.ids, b.ids) and np.array_equal(a.lengths, b.lengths)
    assert token_pool._pool is None  # nothing handed to workers after the refusal


def test_a_system_refused_by_the_workers_stops_the_handing_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pool that breaks after the references were handed out: the systems still queued are
    tokenized here, with the same ids, instead of each starting new workers."""
    corpus = load_demo()
    monkeypatch.setattr(token_pool, "_allowed", True)
    monkeypatch.setattr(token_pool, "POOL_MIN_TOKENS", 0)
    context = ExtractionContext(corpus.test_set, MetricSettings())
    broken = _BrokenPool()
    with monkeypatch.context() as patched:  # the references only: a pool that works
        patched.setattr(context, "_submit_ahead", lambda: None)
        context.prefetch(corpus.systems)
    monkeypatch.setattr(token_pool, "_pool", broken)
    context._submit_ahead()
    assert len(context._jobs) == 1 and not context._queue
    here = ExtractionContext(corpus.test_set, MetricSettings())
    for system in corpus.systems:
        a, b = context.hypothesis_ids(system), here.hypothesis_ids(system)
        assert np.array_equal(a.ids, b.ids) and np.array_equal(a.lengths, b.lengths)


@pytest.mark.parametrize(
    "texts",
    [
        [],
        [""],
        ["", ""],
        ["one", "", "two words", "ünïcode ✓", "lone surrogate \udcff here"],
        [f"segment {i}" for i in range(25_001)],  # over two blocks
    ],
)
def test_texts_go_to_a_worker_packed_and_come_back_the_same(texts: list[str]) -> None:
    packed = token_pool.packed(texts)
    assert packed is not None and packed.unpacked() == texts
    pickled = pickle.loads(pickle.dumps(packed))
    assert pickled.unpacked() == texts


def test_texts_with_a_newline_go_as_a_list() -> None:
    """A newline inside a text would split it in two: such texts are not packed."""
    assert token_pool.packed(["a", "b\nc"]) is None
    assert token_pool.packed(["a\r", "b\u2028c"]) is not None  # only \n separates


def test_a_worker_tokenizes_packed_texts_as_the_texts() -> None:
    texts = [text for system in load_demo().systems for text in system.hypotheses]
    texts += ["lone surrogate \udcff here", ""]
    packed = token_pool.packed(texts)
    assert packed is not None
    for case in Case:
        ours = token_pool.encode_locally(packed, "13a", case)
        theirs = pickle.loads(pickle.dumps(token_pool.encode_locally(texts, "13a", case)))
        assert ours.tokens == theirs.tokens and len(set(ours.tokens)) == len(ours.tokens)
        assert np.array_equal(ours.ids, theirs.ids)
        assert np.array_equal(ours.lengths, theirs.lengths)


def test_submit_packs_the_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[object] = []

    class Recording:
        def submit(self, function: object, texts: object, *args: object) -> Future[object]:
            sent.append(texts)
            return Future()

    monkeypatch.setattr(token_pool, "_pool", Recording())
    token_pool.submit(["a b", "c"], "13a", Case.SENSITIVE)
    token_pool.submit(["a\nb", "c"], "13a", Case.SENSITIVE)
    assert isinstance(sent[0], token_pool.PackedTexts) and sent[0].unpacked() == ["a b", "c"]
    assert sent[1] == ["a\nb", "c"]


def test_a_program_that_used_the_workers_exits_without_a_word() -> None:
    program = (
        "from mtgui.engine.text import token_pool\n"
        "from mtgui.engine.text.settings import Case\n"
        "if __name__ == '__main__':\n"
        "    token_pool.allow_workers()\n"
        "    job = token_pool.submit(['a b .', 'c d'], '13a', Case.SENSITIVE)\n"
        "    print(len(token_pool.result_or_none(job).ids))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "5", "")
