"""sacreBLEU's per-segment chrF statistics, computed natively in chunks of segments.

The rows are exactly sacreBLEU's ``CHRF._extract_corpus_statistics``: per order (character
orders, then word orders) ``[hypothesis n-grams, reference n-grams, clipped matches]``, the
hypothesis count being 0 where the reference has no n-gram of that order
(``_get_match_statistics``), and with several references the statistics of the reference whose
sentence-level F-score is highest, the first one on a tie (``_compute_segment_statistics``).
That F-score is computed with sacreBLEU's very operations in the same order, so that the choice
is the same to the last bit.

The references are turned into symbols once per test set (:func:`iter_references`); a system is
then done chunk by chunk (:func:`iter_rows`), each chunk sized to a fixed number of symbols
(a few hundredths of a second), yielding after each so that a cancel is prompt and memory
stays a few arrays of one chunk's size besides the rows.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.metrics.chrf.counts import clipped_matches
from mtgui.engine.metrics.chrf.symbols import Alphabet, Symbols, WordIds, characters

if TYPE_CHECKING:  # the pool is imported where chrF runs: not by every command
    from concurrent.futures import Future

MatchCounter = Callable[[Sequence[Symbols], int, int], IntArray]  # chrf_counts.clipped_matches
CHUNK_SYMBOLS = 1 << 16  # symbols of the hypothesis and all references per chunk (~3-10 ms)
THREADS = 2  # chunks counted at once (this machine's cores; more threads would not help)
KERNEL_SYMBOLS = 1 << 20  # a system's symbols from which the compiled counting pays (below)
REFERENCE_CHUNK = 4096  # references turned into symbols per step
_EPS = 1e-16  # sacreBLEU's eps in _compute_f_score


@dataclass(frozen=True)
class ChrfReferences:
    """The references of a test set as symbols: characters, and words if asked for."""

    characters: tuple[Symbols, ...]  # ids of the alphabet
    alphabet: Alphabet
    words: ReferenceWords | None  # None: no word orders
    whitespace: bool = False


@dataclass(frozen=True)
class ReferenceWords:
    """The references' word tokens as ids, and the encoder that made them (never changed
    after: each system's hypotheses are encoded by a copy, which knows the references' words
    already)."""

    symbols: tuple[Symbols, ...]
    encoder: WordIds

    @property
    def alphabet(self) -> int:
        """The number of ids: the vocabulary's, and one for a token no reference has."""
        return len(self.encoder.vocabulary) + 1


def iter_references(
    texts: Sequence[Sequence[str]], with_words: bool, whitespace: bool = False
) -> Generator[int, None, ChrfReferences]:
    """Every reference (``texts[r][i]``: reference r of segment i) as symbols, a step of
    :data:`REFERENCE_CHUNK` segments at a time; yields 0 after each step."""
    size = len(texts[0]) if texts else 0
    chars: list[list[Symbols]] = [[] for _ in texts]
    for start in range(0, size, REFERENCE_CHUNK):
        for r, reference in enumerate(texts):
            chars[r].append(characters(reference[start : start + REFERENCE_CHUNK], whitespace))
        yield 0
    alphabet = Alphabet.of([part for parts in chars for part in parts])
    ids = []
    for parts in chars:
        ids.append(_joined([alphabet.ids(part) for part in parts]))
        yield 0
    references = ChrfReferences(tuple(ids), alphabet, None, whitespace)
    if not with_words:
        return references
    return with_words_of(references, (yield from iter_reference_words(texts)))


def iter_reference_words(texts: Sequence[Sequence[str]]) -> Generator[int, None, ReferenceWords]:
    """Every reference's word tokens as ids, and their encoder, a step of
    :data:`REFERENCE_CHUNK` segments at a time; yields 0 after each step."""
    word_ids = WordIds({}, grow=True)
    tokens: list[list[Symbols]] = [[] for _ in texts]
    for start in range(0, len(texts[0]) if texts else 0, REFERENCE_CHUNK):
        for r, reference in enumerate(texts):
            tokens[r].append(word_ids.encode(reference[start : start + REFERENCE_CHUNK]))
        yield 0
    return ReferenceWords(tuple(_joined(parts) for parts in tokens), word_ids)


def with_words_of(references: ChrfReferences, words: ReferenceWords) -> ChrfReferences:
    """``references`` with the words of :func:`iter_reference_words` (so that chrF and
    chrF++ share the characters of one test set)."""
    return replace(references, words=words)


def iter_rows(
    references: ChrfReferences,
    hypotheses: Sequence[str],
    char_order: int,
    word_order: int,
    beta: int,
    eps_smoothing: bool = False,
    present: npt.NDArray[np.bool_] | None = None,
) -> Generator[int, None, FloatArray]:
    """sacreBLEU's chrF statistics of every hypothesis, shape (N, 3 * (char_order +
    word_order)); yields the segments done after each chunk. ``present`` (shape (N, R)) leaves
    out missing references (sacreBLEU's ``None``: :mod:`~mtgui.engine.metrics.missing_refs`).

    The texts of a chunk become symbols on this thread (Python string work, which holds the
    GIL); their counting, compiled kernels and numpy calls that release it, runs on
    :data:`THREADS` threads, a chunk each, so that a second core helps. Closing the
    generator cancels the chunks not started and waits for those under way (a few
    hundredths of a second at most).
    """
    if word_order and references.words is None:
        raise ValueError("these references were prepared without words")
    rows = np.zeros((len(hypotheses), 3 * (char_order + word_order)))
    count = _counter(sum(map(len, hypotheses)) + sum(len(r.values) for r in references.characters))
    words = references.words if word_order else None
    encoder = words.encoder.for_hypotheses() if words else None
    from concurrent.futures import ThreadPoolExecutor

    pending: deque[tuple[int, Future[FloatArray]]] = deque()
    pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="chrf")
    try:
        for start, stop in _chunks(references, hypotheses):
            chunk = list(hypotheses[start:stop])
            kinds = [_characters_kind(references, chunk, start, char_order)]
            if words and encoder:
                sources = [encoder.encode(chunk)]
                sources += [ref.part(start, stop) for ref in words.symbols]
                kinds.append(_Kind(sources, word_order, words.alphabet))
            chosen = None if present is None else present[start:stop].T
            job = pool.submit(_best_rows, kinds, beta, eps_smoothing, count, chosen)
            pending.append((start, job))
            while len(pending) > THREADS or (pending and pending[0][1].done()):
                yield _collect(rows, *pending.popleft())
        while pending:
            yield _collect(rows, *pending.popleft())
    finally:
        for _, future in pending:
            future.cancel()
        pool.shutdown(wait=True)
    return rows


@dataclass(frozen=True)
class _Kind:
    """One kind of n-grams of a chunk: the hypothesis's and references' symbols, the orders
    and the number of distinct symbols."""

    sources: list[Symbols]
    orders: int
    alphabet: int


def _characters_kind(
    references: ChrfReferences, chunk: list[str], start: int, char_order: int
) -> _Kind:
    """The characters of the hypotheses ``chunk`` (segments from ``start``) and of their
    references."""
    hypotheses = references.alphabet.ids(characters(chunk, references.whitespace))
    stop = start + len(chunk)
    sources = [hypotheses] + [ref.part(start, stop) for ref in references.characters]
    return _Kind(sources, char_order, references.alphabet.size)


def _counter(symbols: int) -> MatchCounter:
    """The compiled counting (:mod:`~mtgui.engine.metrics.chrf.kernel`, 3-5x faster) where it pays,
    else numpy's.

    Loading numba and the kernels takes about 0.4 s once per process (imported here, not at
    startup), more than numpy's counting of a small test set takes: so the kernels count a
    system of :data:`KERNEL_SYMBOLS` symbols or more (its hypotheses' characters and the
    references'), or any once numba is loaded (by TER, WER or an earlier chrF). They are
    loaded before the first chunk, so that no chunk is charged with it."""
    if symbols < KERNEL_SYMBOLS and "numba" not in sys.modules:
        return clipped_matches
    from mtgui.engine.metrics.chrf import kernel as chrf_kernel

    chrf_kernel.warm_up()
    return chrf_kernel.clipped_matches


def _best_rows(
    kinds: list[_Kind],
    beta: int,
    eps_smoothing: bool,
    count: MatchCounter,
    present: npt.NDArray[np.bool_] | None = None,
) -> FloatArray:
    """A chunk's rows: the statistics of each segment's best reference (the first best one on
    a tie, as sacreBLEU's strict ``>``) among those ``present`` (shape (R, chunk))."""
    stats = np.concatenate(
        [_order_statistics(k.sources, k.orders, k.alphabet, count) for k in kinds], axis=2
    )
    flat = stats.reshape(stats.shape[0], stats.shape[1], -1).astype(np.float64)
    scores = f_scores(flat, beta, eps_smoothing)
    if present is not None:
        scores = np.where(present, scores, -np.inf)
    best = np.argmax(scores, axis=0)
    return flat[best, np.arange(flat.shape[1])]


def _collect(rows: FloatArray, start: int, future: Future[FloatArray]) -> int:
    """Put a finished chunk's rows in place; return the segments done."""
    chunk = future.result()
    rows[start : start + len(chunk)] = chunk
    return start + len(chunk)


def f_scores(stats: FloatArray, beta: int, eps_smoothing: bool = False) -> FloatArray:
    """sacreBLEU's ``CHRF._compute_f_score`` of each row of ``stats`` (..., 3 * orders), with
    its operations in its order (a reference is chosen by comparing these floats)."""
    factor = beta**2
    shape = stats.shape[:-1]
    score, avg_prec, avg_rec = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    effective = np.zeros(shape, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(stats.shape[-1] // 3):
            n_hyp, n_ref, n_match = stats[..., 3 * i], stats[..., 3 * i + 1], stats[..., 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, _EPS)
            rec = np.where(n_ref > 0, n_match / n_ref, _EPS)
            denom = factor * prec + rec
            score += np.where(denom > 0, (1 + factor) * prec * rec / denom, _EPS)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective += both
        if eps_smoothing:
            return 100 * score / (stats.shape[-1] // 3)
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        f_score = (1 + factor) * avg_prec * avg_rec
        f_score = f_score / (factor * avg_prec + avg_rec)
        return np.where(avg_prec + avg_rec != 0, 100 * f_score, 0.0)


def _order_statistics(
    sources: list[Symbols], max_order: int, alphabet: int, count: MatchCounter
) -> IntArray:
    """[hypothesis n-grams, reference n-grams, matches] per reference, segment and order:
    shape (R, N, max_order, 3); the symbols are below ``alphabet``."""
    matches = count(sources, max_order, alphabet)
    orders = np.arange(1, max_order + 1)
    hyp = np.maximum(sources[0].lengths[:, None] - orders + 1, 0)
    ref = np.maximum(np.stack([s.lengths for s in sources[1:]])[:, :, None] - orders + 1, 0)
    # sacreBLEU counts no hypothesis n-gram where the reference has none of that order
    hyp_counted = np.where(ref > 0, hyp[None], 0)
    return np.stack([hyp_counted, ref, matches], axis=-1)


def _chunks(references: ChrfReferences, hypotheses: Sequence[str]) -> list[tuple[int, int]]:
    """Consecutive (start, stop) of about :data:`CHUNK_SYMBOLS` symbols each, at least one
    segment (the hypothesis is counted by its length with spaces: an upper bound)."""
    costs = np.fromiter(map(len, hypotheses), np.int64, len(hypotheses)) + 1
    for reference in references.characters:
        costs += reference.lengths
    ends = np.cumsum(costs)
    bounds = [0]
    while bounds[-1] < len(hypotheses):
        before = ends[bounds[-1] - 1] if bounds[-1] else 0
        stop = int(np.searchsorted(ends, before + CHUNK_SYMBOLS, side="right"))
        bounds.append(max(stop, bounds[-1] + 1))
    return list(pairwise(bounds))


def _joined(parts: list[Symbols]) -> Symbols:
    """Consecutive parts as one."""
    if not parts:
        return Symbols(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64))
    values = np.concatenate([p.values for p in parts])
    return Symbols.from_lengths(values, np.concatenate([p.lengths for p in parts]))
