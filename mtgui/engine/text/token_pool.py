"""Tokenizing large test sets on worker processes, with exactly the ids of tokenizing here.

Why: tokenizing (13a's regular expressions, splitting, numbering tokens through a dictionary) is
Python work that holds the interpreter lock; on 100,000 segments it is half of the extraction,
and in the window it competes with the GUI thread for the lock. On worker processes it runs on
the machine's other core while this process matches n-grams (numpy, which mostly releases the
lock) and the window stays responsive.

A worker tokenizes a text and numbers its distinct tokens in order of first appearance; only
those distinct tokens and an int32 array of local numbers come back, never millions of token
strings. The references' vocabulary is their distinct tokens merged in order (the same order of
first appearance as :func:`~mtgui.engine.text.ngrams.number_references`), and a system's local
numbers are mapped onto it with one lookup per distinct token, so the ids are identical.

Small test sets are tokenized here: starting the workers (a fresh interpreter importing numpy)
would cost more than it saves. The workers are started once, by ``spawn`` (forking a process
that runs Qt threads is unsafe), and kept for later runs. ``spawn`` runs the main script again
in each worker, which is harmless only for a script that guards its work with ``if __name__ ==
"__main__"``; so workers are used only once :func:`allow_workers` was called (by ``mtgui`` and
the window's launcher, and by the benchmarks), never for a script that merely imports the
engine. In a bundled program (PyInstaller) a worker is the program itself, started again: there
they are used only once its entry point has called ``multiprocessing.freeze_support()``, which
runs the worker and exits (:func:`freeze_support_done`). A worker that fails (a broken pool)
costs time, not results: the text is then tokenized here.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from mtgui.engine.text.settings import Case
from mtgui.engine.text.tokenize import SEGMENT_BREAK, tokenize_flat

if TYPE_CHECKING:  # imported where a pool starts: 15 ms of every command that starts none
    from concurrent.futures import Future, ProcessPoolExecutor

POOL_MIN_TOKENS = 200_000
"""Segments x texts (references and systems) from which the workers pay off."""
_WORKERS = max(1, min(2, os.cpu_count() or 1))
_PACK_BLOCK = 10_000  # texts (or tokens) handled per hold of the interpreter lock
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_allowed = False
_freeze_supported = False


def allow_workers() -> None:
    """Let large test sets be tokenized on worker processes (see the module docstring): call it
    from a main script that does its work under ``if __name__ == "__main__"``."""
    global _allowed
    _allowed = True


def freeze_support_done() -> None:
    """Say that a bundled program's entry point has called ``multiprocessing.freeze_support()``
    first thing, so that workers may be started as that program (see the module docstring)."""
    global _freeze_supported
    _freeze_supported = True


@dataclass(frozen=True)
class PackedTexts:
    """Texts as one UTF-8 byte string, a newline between two, for a worker.

    Why: a job's arguments are pickled on a thread of this process while holding the
    interpreter lock; a list of 100,000 texts took 26-42 ms in one hold (and more on a busy
    machine), during which the window could not draw. Packed in blocks of
    :data:`_PACK_BLOCK` texts, each hold is about a millisecond, and a byte string pickles as
    one copy.
    """

    data: bytes
    count: int

    def unpacked(self) -> list[str]:
        """The texts again."""
        return self.data.decode("utf-8", "surrogatepass").split("\n") if self.count else []


def packed(texts: Sequence[str]) -> PackedTexts | None:
    """``texts`` packed, or None if one of them holds a newline (then they go as a list)."""
    blocks = []
    for start in range(0, len(texts), _PACK_BLOCK):
        block = texts[start : start + _PACK_BLOCK]
        joined = "\n".join(block)
        if joined.count("\n") != len(block) - 1:
            return None
        blocks.append(joined.encode("utf-8", "surrogatepass"))
    return PackedTexts(b"\n".join(blocks), len(texts))


@dataclass(frozen=True)
class LocalIds:
    """One text's tokens, numbered among its own distinct tokens."""

    packed_tokens: bytes  # the distinct tokens in order of first appearance, UTF-8, a newline
    # between two (a token never holds whitespace): one copy to pickle back, not 100,000 strings
    ids: npt.NDArray[np.int32]  # every token's number in ``tokens``, segment after segment
    lengths: npt.NDArray[np.int64]  # tokens per segment

    @property
    def tokens(self) -> list[str]:
        """The distinct tokens, in order of first appearance."""
        data = self.packed_tokens
        return data.decode("utf-8", "surrogatepass").split("\n") if data else []

    def vocabulary_ids(self, vocabulary: dict[str, int]) -> npt.NDArray[np.int64]:
        """Every token's id in ``vocabulary`` (-1 for tokens it lacks)."""
        tokens = self.tokens
        table = np.empty(len(tokens), dtype=np.int64)
        for start in range(0, len(tokens), _PACK_BLOCK):  # in blocks, for the GIL
            block = tokens[start : start + _PACK_BLOCK]
            table[start : start + len(block)] = np.fromiter(
                map(vocabulary.get, block, repeat(-1)), np.int64, len(block)
            )
        return table[self.ids]


def encode_locally(texts: Sequence[str] | PackedTexts, tokenizer: str, case: Case) -> LocalIds:
    """Tokenize ``texts`` and number their distinct tokens (runs on a worker)."""
    if isinstance(texts, PackedTexts):
        texts = texts.unpacked()
    flat = tokenize_flat(texts, tokenizer, case)
    numbering = dict.fromkeys([SEGMENT_BREAK])  # the break first: number 0
    numbering.update(dict.fromkeys(flat))
    lookup = dict(zip(numbering, range(len(numbering)), strict=True))
    ids = np.fromiter(map(lookup.__getitem__, flat), np.int32, len(flat))
    breaks = np.flatnonzero(ids == 0)
    lengths = np.diff(np.concatenate(([-1], breaks, [len(ids)]))) - 1
    tokens = "\n".join(list(numbering)[1:]).encode("utf-8", "surrogatepass")
    return LocalIds(tokens, np.delete(ids, breaks) - 1, lengths.astype(np.int64))


def merged_vocabulary(references: Sequence[LocalIds]) -> dict[str, int]:
    """Ids for the references' tokens in order of first appearance, reference after reference."""
    tokens: dict[str, None] = {}
    for reference in references:
        tokens.update(dict.fromkeys(reference.tokens))
    return dict(zip(tokens, range(len(tokens)), strict=True))


def workers_running() -> bool:
    """Whether worker processes were started (and are kept for later runs)."""
    return _pool is not None


def worth_a_pool(segments: int, texts: int) -> bool:
    """Whether tokenizing ``texts`` texts of ``segments`` segments gains from the workers."""
    startable = _freeze_supported or not getattr(sys, "frozen", False)
    return _allowed and startable and segments * texts >= POOL_MIN_TOKENS


def result_or_none(job: Future[LocalIds]) -> LocalIds | None:
    """The worker's result, or None if the worker failed (then the caller tokenizes here)."""
    try:
        return job.result()
    except Exception:  # a broken pool or worker: tokenize here instead
        return None


def _let_go() -> None:
    """At exit, after the pool's own exit handler has stopped its workers, drop the pool.

    Left for the interpreter's teardown, the pool may be collected after the modules of
    ``concurrent.futures`` (imported later than this one, where the first pool starts), and its
    callback then prints an AttributeError on the way out (seen once at the end of a test run).
    """
    global _pool
    with _pool_lock:
        _pool = None


def submit(texts: Sequence[str], tokenizer: str, case: Case) -> Future[LocalIds]:
    """Tokenize ``texts`` on a worker (the workers start on first use).

    Never raises: where the workers cannot take the job (a worker died, say killed for want of
    memory, which breaks the whole pool; or none could be started) the future holds the error,
    :func:`result_or_none` gives None and the text is tokenized here; a broken pool is
    dropped, so that a later run starts new workers.
    """
    global _pool
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with _pool_lock:
            if _pool is None:
                context = multiprocessing.get_context("spawn")
                _pool = ProcessPoolExecutor(max_workers=_WORKERS, mp_context=context)
                atexit.unregister(_let_go)  # once, however many pools were started
                atexit.register(_let_go)
            pool = _pool
        job = packed(texts) or list(texts)
        return pool.submit(encode_locally, job, tokenizer, case)
    except Exception as error:
        with _pool_lock:
            if _pool is not None and isinstance(error, BrokenProcessPool):
                _pool.shutdown(wait=False, cancel_futures=True)
                _pool = None
        failed: Future[LocalIds] = Future()
        failed.set_exception(error)
        return failed
