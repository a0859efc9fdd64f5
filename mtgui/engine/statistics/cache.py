"""Statistics rows kept between analyses, so that a setting change re-uses what it can.

A metric's rows for a system depend only on the system's texts, the references' texts, the
metric and the few settings it reads (:data:`SETTINGS_READ`): not on the system's name, not on
B, the seed, the level, the unit or the correction. The window keeps one
:class:`StatisticsCache` and hands it to every run (:func:`~mtgui.engine.analysis.iter_analysis`),
so that a new seed only resamples again, ticking one more metric extracts only that metric, and
a renamed or re-shown system reuses its rows.

Keys are made of the texts themselves (:class:`TextsKey`: the tuple, its hash computed once,
and a strong reference so that it cannot be confused with a later tuple at the same address).
Equal texts give equal keys even when the workspace assembles new tuples for them (it does,
for files aligned by document), and comparing two tuples of the same strings is quick: Python
compares each pair of items by identity first.

Bound: the rows of the latest run are kept (they are the result shown's, shared with it, so
they cost nothing more); other rows are kept, the most recently used first, only while they
take at most ``budget`` bytes (:data:`DEFAULT_BUDGET`): enough for earlier settings and
hidden systems of a WMT-sized set, while a set of 100,000 segments keeps little beyond the
rows of its latest run.

Threads: runs use the cache from their worker threads, and a cancelled run's thread may still
finish one step while the next run starts, so every access takes a lock, held only for a few
dictionary operations: extraction happens outside it, and the GUI thread only ever creates or
clears the cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, fields

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.corpus import Corpus
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.external import ExternalScores
from mtgui.engine.metrics.registry import METRIC_CLASSES
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.spm import SPM_TOKENIZERS, spm_model_identity

DEFAULT_BUDGET = 256 * 2**20
"""Bytes of rows kept beyond those of the latest run (256 MiB)."""

_ALL_SETTINGS = tuple(f.name for f in fields(MetricSettings))
SETTINGS_READ: dict[str, tuple[str, ...]] = {
    metric.name: metric.reads for metric in METRIC_CLASSES if metric.reads is not None
}
"""The :class:`MetricSettings` fields each metric's rows depend on, as each metric class says
(:attr:`Metric.reads`); a metric without such a list depends on all of them (never wrongly
reused, at worst extracted again). ``tests/engine/statistics/test_statistics_cache.py`` checks
that changing any other field leaves each metric's rows as they are."""


class TextsKey:
    """A tuple of texts as a dictionary key: hashed once, equal to a tuple of equal texts."""

    __slots__ = ("_hash", "texts")

    def __init__(self, texts: tuple[str, ...]) -> None:
        self.texts = texts  # a strong reference: the key lives as long as its entry
        self._hash = hash(texts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TextsKey):
            return NotImplemented
        return self.texts is other.texts or (
            self._hash == other._hash and self.texts == other.texts
        )


@dataclass(frozen=True)
class RowsKey:
    """What one metric's rows of one system are made from."""

    references: tuple[TextsKey, ...]
    hypotheses: TextsKey
    metric: str
    options: tuple[Hashable, ...]  # the values of the settings the metric reads


def references_key(references: Sequence[tuple[str, ...]]) -> tuple[TextsKey, ...]:
    """The key part of a test set's references (in their order: chrF's ties and NIST's
    weights are read over them)."""
    return tuple(TextsKey(texts) for texts in references)


def rows_key(
    references: tuple[TextsKey, ...],
    hypotheses: TextsKey,
    metric: Metric,
    settings: MetricSettings,
) -> RowsKey | None:
    """The key of ``metric``'s rows for a system, or None if they are not kept.

    Loaded scores (human, COMET...) are not kept: their rows are copies of the scores, made in
    no time, and they follow the system's name rather than its texts.
    """
    if isinstance(metric, ExternalScores):
        return None
    read = SETTINGS_READ.get(metric.name, _ALL_SETTINGS)
    options = tuple(getattr(settings, name) for name in read)
    if "tokenize" in read and settings.tokenize in SPM_TOKENIZERS:
        options += (spm_model_identity(settings.tokenize),)  # its tokens are the model file's
    return RowsKey(references, hypotheses, metric.name, options)


class StatisticsCache:
    """Rows of earlier runs by :class:`RowsKey`, bounded and safe to share between threads.

    ``hits`` and ``misses`` count the look-ups that found rows and those that did not (the
    tests and the benchmark read them).
    """

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._rows: OrderedDict[RowsKey, FloatArray] = OrderedDict()  # least recent first
        self._pinned: frozenset[RowsKey] = frozenset()

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)

    @property
    def nbytes(self) -> int:
        """The bytes of all rows kept."""
        with self._lock:
            return sum(rows.nbytes for rows in self._rows.values())

    def begin(self, keys: Collection[RowsKey]) -> None:
        """A run starts that needs ``keys``: keep those whatever their size, and let the
        rows of earlier runs go beyond the budget."""
        with self._lock:
            self._pinned = frozenset(keys)
            self._evict()

    def holds(self, key: RowsKey) -> bool:
        """Whether rows are kept for ``key`` (counted neither as a hit nor as a miss)."""
        with self._lock:
            return key in self._rows

    def get(self, key: RowsKey) -> FloatArray | None:
        """The rows kept for ``key`` (read-only), or None."""
        with self._lock:
            rows = self._rows.get(key)
            if rows is None:
                self.misses += 1
                return None
            self.hits += 1
            self._rows.move_to_end(key)
            return rows

    def put(self, key: RowsKey, rows: FloatArray) -> None:
        """Keep ``rows`` (read-only: they are shared with every result made of them)."""
        with self._lock:
            self._rows[key] = rows
            self._rows.move_to_end(key)
            self._evict()

    def clear(self) -> None:
        """Forget every row (a new project)."""
        with self._lock:
            self._rows.clear()
            self._pinned = frozenset()

    def _evict(self) -> None:
        """Drop the least recently used rows not pinned until the others fit the budget."""
        spare = [key for key in self._rows if key not in self._pinned]
        extra = sum(self._rows[key].nbytes for key in spare)
        for key in spare:
            if extra <= self.budget:
                break
            extra -= self._rows.pop(key).nbytes


def corpus_keys(
    corpus: Corpus, metrics: Sequence[Metric], settings: MetricSettings
) -> list[dict[str, RowsKey | None]]:
    """For every system of ``corpus`` (in order), the key of each metric's rows by name.

    Hashing a system's texts takes about a millisecond per 100,000 segments, once per run.
    """
    references = references_key([column.texts for column in corpus.test_set.references])
    keys = []
    for system in corpus.systems:
        hypotheses = TextsKey(system.hypotheses)
        keys.append({m.name: rows_key(references, hypotheses, m, settings) for m in metrics})
    return keys
