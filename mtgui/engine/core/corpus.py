"""The corpus model: a test set, the system outputs aligned to it, and per-segment scores.

Everything downstream (metrics, bootstrap, studies, views) works on these frozen objects. They
hold the segments in one fixed order (the order of the test set's first file that has
documents, else line order), so that segment ``i`` means the same sentence in every reference,
every system output and every score array.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.errors import InputError


class Role(StrEnum):
    """What a file (or a part of one) is to the evaluation."""

    SOURCE = "source"
    REFERENCE = "reference"
    SYSTEM = "system"
    SCORES = "scores"
    DOCUMENT_IDS = "docids"  # plain text: one document id per segment (mtgui.io.docids)

    @property
    def label(self) -> str:
        """The role in words, for messages: 'system output' rather than 'system'."""
        return {Role.SYSTEM: "system output", Role.DOCUMENT_IDS: "document ids"}.get(
            self, self.value
        )


@dataclass(frozen=True)
class Origin:
    """Where something was read from, for messages and for the files panel."""

    path: str
    format: str
    encoding: str

    @property
    def file_name(self) -> str:
        """The file name without its folder."""
        return self.path.replace("\\", "/").rsplit("/", 1)[-1]


@dataclass(frozen=True)
class TextColumn:
    """One text per segment of the test set: a reference translation or the source."""

    name: str
    texts: tuple[str, ...]
    origin: Origin


@dataclass(frozen=True)
class SystemOutput:
    """A machine-translation system's output: one hypothesis per segment of the test set."""

    name: str
    hypotheses: tuple[str, ...]
    origin: Origin

    def renamed(self, name: str) -> SystemOutput:
        """The same output under another name."""
        return replace(self, name=name)


@dataclass(frozen=True)
class SegmentScores:
    """Per-segment numeric scores of one system under one external metric (human judgments,
    COMET, MetricX...).

    ``means[i]`` is the mean of the ``counts[i]`` judgments of segment ``i``; segments nobody
    judged have count 0 and mean NaN. ``metric`` names the metric the scores make (``human``
    unless the user named it); ``higher_is_better`` is its direction (False for MetricX).
    ``annotations`` maps a segment to what its judgments marked (MQM's errors, each span
    between ``<v>`` and ``</v>``), for the segment view.
    """

    system: str
    means: npt.NDArray[np.float64]
    counts: npt.NDArray[np.int64]
    origin: Origin
    metric: str = "human"
    higher_is_better: bool = True
    annotations: Mapping[int, tuple[str, ...]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.means.flags.writeable = False
        self.counts.flags.writeable = False

    @property
    def num_scored(self) -> int:
        """How many segments have at least one judgment."""
        return int(np.count_nonzero(self.counts))

    def renamed(self, name: str) -> SegmentScores:
        """The same scores under another system name."""
        return replace(self, system=name)


@dataclass(frozen=True)
class TestSet:
    """The segments to translate, in order, with their document and segment ids.

    ``doc_ids[i]`` and ``seg_ids[i]`` identify segment ``i``. Plain-text test sets have no
    documents: their ``doc_ids`` are empty strings, ``seg_ids`` are line numbers and
    ``has_documents`` is false; resampling by document then falls back to single segments.
    ``doc_attributes`` maps a document id to the attributes its ``<doc>`` tag gave besides
    its id (``origlang``, ``genre``, ...), for breakdowns by them; documents without any are
    absent, and test sets made without it (plain text, older code) have none.
    """

    __test__ = False  # not a pytest test class, despite the name

    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]
    references: tuple[TextColumn, ...]
    source: TextColumn | None = None
    has_documents: bool = True
    metadata: dict[str, str] = field(default_factory=dict, compare=False)
    doc_attributes: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        size = len(self.doc_ids)
        if len(self.seg_ids) != size:
            raise ValueError("doc_ids and seg_ids differ in length")
        if not self.references:
            raise InputError(
                "no reference translation is loaded.",
                hint="Add at least one file of reference translations.",
            )
        columns = [*self.references, *([self.source] if self.source else [])]
        for column in columns:
            if len(column.texts) != size:
                raise ValueError(f"{column.name} has {len(column.texts)} texts, not {size}")
        _require_unique_names([ref.name for ref in self.references], "references")

    @property
    def size(self) -> int:
        """The number of segments N."""
        return len(self.doc_ids)

    @property
    def num_references(self) -> int:
        """The number of reference translations R."""
        return len(self.references)

    @property
    def documents(self) -> tuple[str, ...]:
        """The distinct document ids in order of first appearance."""
        return tuple(dict.fromkeys(self.doc_ids)) if self.has_documents else ()

    def document_index(self) -> npt.NDArray[np.int64]:
        """For every segment, the number of its document (0, 1, ...), for resampling by document.

        Without documents every segment is a unit of its own.
        """
        if not self.has_documents:
            return np.arange(self.size, dtype=np.int64)
        numbers = {doc: number for number, doc in enumerate(self.documents)}
        return np.fromiter((numbers[doc] for doc in self.doc_ids), np.int64, self.size)

    def document_index_if_any(self) -> npt.NDArray[np.int64] | None:
        """The :meth:`document_index`, or None without documents: what the bootstrap and the
        studies take as ``document_index``. None says "no documents" (segments are resampled,
        with a note), where an index with a document per segment would pass for N documents."""
        return self.document_index() if self.has_documents else None

    def segment_attribute(self, key: str) -> tuple[str | None, ...]:
        """For every segment, its document's value of attribute ``key`` (None without one)."""
        values = {doc: attrs.get(key) for doc, attrs in self.doc_attributes.items()}
        return tuple(values.get(doc) for doc in self.doc_ids)

    def describe_segment(self, index: int) -> str:
        """How to name segment ``index`` to a user: by document and id, or by line."""
        if self.has_documents:
            return f"document '{self.doc_ids[index]}', segment {self.seg_ids[index]}"
        return f"line {index + 1}"


@dataclass(frozen=True)
class Corpus:
    """Everything one evaluation needs: the test set, the systems, and any per-segment scores.

    ``notes`` are things the user should know about what was loaded but that do not stop the
    evaluation (scores for systems that are not loaded, for example).
    """

    test_set: TestSet
    systems: tuple[SystemOutput, ...] = ()
    scores: tuple[SegmentScores, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        size = self.test_set.size
        for system in self.systems:
            if len(system.hypotheses) != size:
                raise ValueError(f"{system.name} has {len(system.hypotheses)} hypotheses")
        _require_unique_names(
            [s.name for s in self.systems],
            "systems",
            [s.origin.file_name for s in self.systems],
        )
        known = {s.name for s in self.systems}
        for scores in self.scores:
            if scores.system not in known:
                raise ValueError(f"scores for unknown system {scores.system}")
            if scores.means.shape != (size,):
                raise ValueError(f"scores of {scores.system} have shape {scores.means.shape}")
        _require_unique_names([f"{s.metric}: {s.system}" for s in self.scores], "score sets")
        directions = {s.metric: s.higher_is_better for s in self.scores}
        if any(directions[s.metric] != s.higher_is_better for s in self.scores):
            raise ValueError("the scores of one metric disagree on its direction")

    def origins(self) -> tuple[Origin, ...]:
        """Where every text and score came from: source, references, systems, scores (a file
        that holds several, once per stream)."""
        test_set = self.test_set
        origins = [test_set.source.origin] if test_set.source is not None else []
        origins += [r.origin for r in test_set.references] + [s.origin for s in self.systems]
        return (*origins, *(s.origin for s in self.scores))

    @property
    def system_names(self) -> tuple[str, ...]:
        """The names of the systems, in load order."""
        return tuple(s.name for s in self.systems)

    def system(self, name: str) -> SystemOutput:
        """The system called ``name``."""
        for system in self.systems:
            if system.name == name:
                return system
        raise KeyError(name)

    def scores_of(self, name: str, metric: str = "human") -> SegmentScores | None:
        """The per-segment scores of system ``name`` under ``metric``, if any were loaded."""
        return next((s for s in self.scores if (s.system, s.metric) == (name, metric)), None)

    def external_metrics(self) -> dict[str, bool]:
        """The metrics made of loaded per-segment scores, in load order: name -> whether
        higher is better. What :func:`mtgui.engine.metrics.metrics_for` takes as ``external``,
        and what a front end lists beside the built-in metrics."""
        return {s.metric: s.higher_is_better for s in self.scores}

    def with_system_renamed(self, old: str, new: str) -> Corpus:
        """A copy with system ``old`` called ``new`` (its scores follow it).

        Raises
        ------
        InputError
            If ``new`` is empty or another system already has that name.
        """
        new = new.strip()
        if not new:
            raise InputError("a system name cannot be empty.")
        self.system(old)  # KeyError for an unknown name is a programming error
        systems = tuple(s.renamed(new) if s.name == old else s for s in self.systems)
        scores = tuple(s.renamed(new) if s.system == old else s for s in self.scores)
        return replace(self, systems=systems, scores=scores)


def _require_unique_names(
    names: Sequence[str], what: str, files: Sequence[str | None] | None = None
) -> None:
    """Raise :class:`InputError` naming the first name that occurs twice."""
    seen: dict[str, str | None] = {}
    for name, file in zip(names, files or [None] * len(names), strict=True):
        if name in seen:
            where = ""
            if file is not None:
                where = f" (from {seen[name]} and from {file})"
            raise InputError(
                f"two {what} are both named '{name}'{where}; mtgui will not merge them.",
                hint="Give one of them another name (--name on the command line, or rename it "
                "in the files panel).",
            )
        seen[name] = file
