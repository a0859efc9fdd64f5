"""What the metrics of one test set share while they extract statistics.

Tokenizing the references, building their n-gram index and NIST's information weights happens
once per test set and settings; tokenizing and matching a system's output happens once per
system and serves BLEU, M-BLEU, NIST and WER alike. A context restricted to some of the
references (:meth:`ExtractionContext.with_references`, for the references study) shares the
token ids and rebuilds only what depends on which references are used. On a large
test set the tokenizing runs on worker processes (:mod:`~mtgui.engine.text.token_pool`), a few
systems ahead of the matching (:meth:`ExtractionContext.prefetch`), with the very same ids.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.corpus import SegmentScores, SystemOutput, TestSet
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.missing_refs import present_references
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.ngrams import (
    OrderMatches,
    ReferenceNgrams,
    TokenIds,
    match,
    number_references,
)
from mtgui.engine.text.token_pool import (
    LocalIds,
    merged_vocabulary,
    result_or_none,
    submit,
    worth_a_pool,
)
from mtgui.engine.text.tokenize import fold_case, tokenize_flat

if TYPE_CHECKING:
    from concurrent.futures import Future

    from mtgui.engine.core.arrays import FloatArray
    from mtgui.engine.metrics.base import Metric

T = TypeVar("T")
MAX_ORDER = 5  # NIST needs 5-grams; BLEU uses the first 4
_AHEAD = 3  # systems tokenized ahead on the workers: enough to keep both busy, little memory


class ExtractionContext:
    """Caches for one test set under one set of metric settings."""

    def __init__(
        self,
        test_set: TestSet,
        settings: MetricSettings,
        scores: Sequence[SegmentScores] = (),
    ) -> None:
        self.test_set = test_set
        self.settings = settings
        self._scores = {(s.metric, s.system): s for s in scores}
        self._memo: dict[Hashable, Any] = {}
        self._systems: dict[tuple[str, str], Any] = {}
        self._parent: tuple[ExtractionContext, tuple[int, ...]] | None = None
        self._reference_jobs: list[Future[LocalIds]] = []
        self._jobs: dict[str, tuple[Sequence[str], Future[LocalIds]]] = {}
        self._queue: list[SystemOutput] = []  # systems still to hand to the workers, in order
        self.prefetching = False  # whether worker processes tokenize for this context
        # (N, R): the references each segment is scored with (an empty line is a missing
        # reference unless the settings say otherwise: metrics.missing_refs); made now, so
        # that a forked helper shares it (a few milliseconds on 100,000 segments)
        self.present: npt.NDArray[np.bool_] = present_references(test_set, settings.empty_refs)

    def with_references(self, chosen: Sequence[int]) -> ExtractionContext:
        """This context with only the references ``chosen`` (their positions), sharing its ids.

        For scoring with fewer references (Zhang & Vogel 4.2) without tokenizing anything
        again: the references' token ids and the systems' token ids come from this context,
        whose vocabulary (of all references) stays valid for any subset of them. Only
        what depends on which references are used is built anew: the reference n-gram index,
        the matches, NIST's information weights and what chrF and TER prepare of the references.
        """
        references = tuple(self.test_set.references[i] for i in chosen)
        child = ExtractionContext(
            replace(self.test_set, references=references),
            self.settings,
            tuple(self._scores.values()),
        )
        child._parent = (self, tuple(chosen))
        return child

    @cached_property
    def vocabulary(self) -> dict[str, int]:
        """Token ids: every token the references use (all references, in a restricted context)."""
        if self._parent is not None:
            return self._parent[0].vocabulary
        local = self._local_references()
        if local is not None:
            return merged_vocabulary(local)
        return self._numbered_here[0]

    @cached_property
    def reference_ids(self) -> list[TokenIds]:
        """Every reference as token ids."""
        if self._parent is not None:
            parent, chosen = self._parent
            return [parent.reference_ids[i] for i in chosen]
        local = self._local_references()
        if local is not None:
            return [TokenIds.from_ids(r.vocabulary_ids(self.vocabulary), r.lengths) for r in local]
        return self._numbered_here[1]

    @cached_property
    def _numbered_here(self) -> tuple[dict[str, int], list[TokenIds]]:
        """The vocabulary and the references' ids, made together from tokens made here.

        The tokens are let go once numbered: nothing else needs them, and they are a string
        per token (270,000 on the standing benchmark's four references, whose freeing took
        4 ms at the end of the extraction, when the context went; millions on large sets,
        which a context the window keeps for its next run held all that time)."""
        return number_references(self.tokenize(ref.texts) for ref in self.test_set.references)

    @property
    def restricted(self) -> bool:
        """Whether this context has only some of the test set's references
        (:meth:`with_references`)."""
        return self._parent is not None

    @cached_property
    def reference_ngrams(self) -> ReferenceNgrams:
        """The references' n-grams up to order 5, or BLEU's maximum order if higher."""
        order = max(MAX_ORDER, self.settings.bleu_max_order)
        return ReferenceNgrams(self.reference_ids, len(self.vocabulary), order)

    def prepare_reference_ngrams(self) -> None:
        """Build the references' n-gram index now (see :meth:`Metric.prepare`)."""
        _ = self.reference_ngrams  # a cached property: built once, then kept

    def prefetch(self, systems: Sequence[SystemOutput]) -> None:
        """Start tokenizing the references and the first of ``systems`` (to be extracted in this
        order) on worker processes, if the test set is large enough to gain from it; each
        system taken starts the next. Without this call everything is tokenized here."""
        test_set = self.test_set
        texts = test_set.num_references + len(systems)
        if not systems or self._parent is not None or not worth_a_pool(test_set.size, texts):
            return
        self.prefetching = True
        if "reference_ids" not in self.__dict__ and not self._reference_jobs:
            for ref in test_set.references:
                self._reference_jobs.append(self._submit(ref.texts))
                if _refused(self._reference_jobs[-1]):
                    return  # the workers cannot work: everything is tokenized here
        self._queue = list(systems)
        self._submit_ahead()

    def _submit(self, texts: Sequence[str]) -> Future[LocalIds]:
        """Hand ``texts`` to the workers."""
        return submit(texts, self.settings.tokenize, self.settings.case)

    def _local_references(self) -> list[LocalIds] | None:
        """The workers' tokens of every reference, or None (not asked for, or a worker failed)."""
        local = [result_or_none(job) for job in self._reference_jobs]
        if not local or any(r is None for r in local):
            self._reference_jobs = []  # from now on tokenized here
            return None
        return [r for r in local if r is not None]

    def _submit_ahead(self) -> None:
        """Keep up to ``_AHEAD`` systems on the workers."""
        while self._queue and len(self._jobs) < _AHEAD:
            system = self._queue.pop(0)
            job = self._submit(system.hypotheses)
            self._jobs[system.name] = (system.hypotheses, job)
            if _refused(job):
                self._queue = []  # the workers cannot work: the rest is tokenized here

    def _take_job(self, system: SystemOutput) -> LocalIds | None:
        """The workers' tokens of ``system``, if they were asked for them (else None)."""
        texts, job = self._jobs.pop(system.name, (None, None))
        self._submit_ahead()
        if job is None or texts is not system.hypotheses:
            return None
        return result_or_none(job)

    def tokenize(self, texts: Sequence[str]) -> list[str]:
        """Tokens under the current tokenizer and case settings, flat (see ``tokenize_flat``)."""
        return tokenize_flat(texts, self.settings.tokenize, self.settings.case)

    def folded_texts(self, texts: Sequence[str]) -> list[str]:
        """Texts with the case setting applied (for character-level metrics)."""
        return [fold_case(text, self.settings.case) for text in texts]

    def hypothesis_ids(self, system: SystemOutput) -> TokenIds:
        """A system's output as token ids (unknown to the references: -1).

        A restricted context asks its parent, which keeps them for the next subset.
        """
        if self._parent is not None:
            return self._parent[0].hypothesis_ids(system)
        return self._per_system("ids", system, lambda: self._encode(system))

    def _encode(self, system: SystemOutput) -> TokenIds:
        """Tokenize a system's output (or take what the workers did) and look its tokens up."""
        local = self._take_job(system)
        if local is None:
            return TokenIds.encode(self.tokenize(system.hypotheses), self.vocabulary)
        return TokenIds.from_ids(local.vocabulary_ids(self.vocabulary), local.lengths)

    def matches(self, system: SystemOutput) -> list[OrderMatches]:
        """Clipped n-gram matches of a system, orders 1 to 5 (or BLEU's maximum order)."""
        return self._per_system(
            "matches", system, lambda: match(self.reference_ngrams, self.hypothesis_ids(system))
        )

    def rows(self, metric: Metric, system: SystemOutput) -> FloatArray:
        """A metric's statistics for a system, extracted once."""
        return run_to_end(self.iter_rows(metric, system))

    def iter_rows(self, metric: Metric, system: SystemOutput) -> Generator[int, None, FloatArray]:
        """:meth:`rows` as a generator: a slow metric yields the segments it has done after
        each chunk (see :meth:`Metric.iter_extract`); nothing is cached unless it finishes."""
        key = (f"rows:{metric.name}", system.name)
        cached = self._systems.get(key)
        if cached is None or cached[0] is not system.hypotheses:
            rows = yield from metric.iter_extract(self, system)
            cached = (system.hypotheses, rows)
            self._systems[key] = cached
        result: FloatArray = cached[1]
        return result

    def remember(self, metric: str, system: SystemOutput, rows: FloatArray) -> None:
        """Take ``rows`` as the rows of the metric called ``metric`` for ``system`` (rows an
        earlier run extracted: :mod:`~mtgui.engine.statistics.cache`), so that a metric that
        shares them (M-BLEU, BLEU's) finds them here instead of extracting them again."""
        self._systems[(f"rows:{metric}", system.name)] = (system.hypotheses, rows)

    def remember_matches(self, system: SystemOutput, matches: list[OrderMatches]) -> None:
        """Take ``matches`` as ``system``'s clipped matches against these references (found
        another way: the references study derives a subset's from the matches against all the
        references), so that the metrics that use them do not match again."""
        self._systems[("matches", system.name)] = (system.hypotheses, matches)

    def scores_of(self, name: str, metric: str = "human") -> SegmentScores | None:
        """The loaded per-segment scores of a system under an external metric."""
        return self._scores.get((metric, name))

    def memo(self, key: Hashable, factory: Callable[[ExtractionContext], T]) -> T:
        """A value computed once per context (reference caches of single metrics)."""
        if key not in self._memo:
            self._memo[key] = factory(self)
        result: T = self._memo[key]
        return result

    def iter_memo(
        self, key: Hashable, factory: Callable[[ExtractionContext], Generator[int, None, T]]
    ) -> Generator[int, None, T]:
        """:meth:`memo` for a value built by a generator (one that can be cancelled between
        its steps; a cancelled one is built again next time)."""
        if key not in self._memo:
            self._memo[key] = yield from factory(self)
        result: T = self._memo[key]
        return result

    def forget(self, system: SystemOutput) -> None:
        """Drop what is cached for a system (its statistics are stored elsewhere)."""
        for key in [k for k in self._systems if k[1] == system.name]:
            del self._systems[key]

    def _per_system(self, what: str, system: SystemOutput, compute: Callable[[], T]) -> T:
        """Cache per system; an entry is reused only for the very same hypotheses."""
        key = (what, system.name)
        cached = self._systems.get(key)
        if cached is None or cached[0] is not system.hypotheses:
            cached = (system.hypotheses, compute())
            self._systems[key] = cached
        value: T = cached[1]
        return value


def _refused(job: Future[LocalIds]) -> bool:
    """Whether the workers refused a job outright (their pool is broken or cannot start)."""
    return job.done() and job.exception() is not None
