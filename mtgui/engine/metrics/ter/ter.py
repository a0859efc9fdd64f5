"""TER (Snover et al. 2006) exactly as sacreBLEU computes it by default, compiled.

Per segment: the fewest edits (with shifts) to any reference, and the references' average
length; ``TER = 100 * edits / reference length``, lower is better, on a 0-100 scale (it can
exceed 100). The text is prepared as sacreBLEU prepares it, by sacreBLEU's own
``TercomTokenizer``: by default no normalization, no punctuation removal, case-insensitive;
sacreBLEU's ``--ter-normalized``, ``--ter-no-punct``, ``--ter-asian-support`` and
``--ter-case-sensitive`` are this metric's options. mtgui's tokenizer and case settings do not
apply to TER; the report's signature says so.

The edits are counted by :mod:`~mtgui.engine.metrics.ter.search`, a compiled port of sacreBLEU's
``lib_ter`` that gives its numbers exactly, about 60x faster. Each system's segments go through it
in chunks of about a twentieth of a second (see
:mod:`~mtgui.engine.runtime.timed_chunks`), so a cancel never waits longer.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Self

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.segment_limits import check_ter_cells
from mtgui.engine.runtime.timed_chunks import iter_in_chunks

if TYPE_CHECKING:
    from collections.abc import Callable

    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings

_REFERENCE_BLOCK = 5000  # segments of references tokenized between two yields


class Ter(Metric):
    """sacreBLEU's TER with its defaults, or its tokenizer options."""

    name: ClassVar[str] = "ter"
    label: ClassVar[str] = "TER"
    description: ClassVar[str] = (
        "TER: edits needed to turn the output into a reference (lower is better)."
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[str] = "0-100"
    # tercom's tokenization with sacreBLEU's options; mtgui's tokenizer and case do not apply
    reads: ClassVar[tuple[str, ...] | None] = (
        "ter_normalized",
        "ter_no_punct",
        "ter_asian_support",
        "ter_case_sensitive",
        "empty_refs",
    )
    columns = ("edits", "ref_len")

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self.tokenizer_options = _TokenizerOptions(
            bool(normalized), bool(no_punct), bool(asian_support), bool(case_sensitive)
        )

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """TER with the settings' tokenizer options (sacreBLEU's defaults without settings)."""
        if settings is None:
            return cls()
        return cls(
            settings.ter_normalized,
            settings.ter_no_punct,
            settings.ter_asian_support,
            settings.ter_case_sensitive,
        )

    def prepare(self, context: ExtractionContext) -> None:
        """The references' words and their ids."""
        run_to_end(_iter_reference_side(context, self.tokenizer_options))

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment TER statistics."""
        return run_to_end(self.iter_extract(context, system))

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """sacreBLEU's per-segment TER statistics, chunk by chunk; yields the segments done."""
        from mtgui.engine.metrics.ter.search import ter_rows, warm_up

        options = self.tokenizer_options
        references = yield from _iter_reference_side(context, options)
        warm_up()  # compiling (or loading the compiled code) must not count as a chunk's work
        hypotheses = system.hypotheses
        rows = np.zeros((len(hypotheses), len(self.columns)))

        def work(start: int, stop: int) -> None:
            ids, starts = _encode(hypotheses[start:stop], references.vocabulary, options)
            ref_words = references.lengths[:, start:stop]
            check_ter_cells(context.test_set, system, start, np.diff(starts), ref_words)
            ref_starts, ref_ends = references.bounds(start, stop)
            present = np.ascontiguousarray(context.present[start:stop].T)
            ter_rows(ids, starts, references.ids, ref_starts, ref_ends, present, rows[start:stop])

        costs = _costs(references.hypothesis_words(hypotheses), references.longest)
        yield from iter_in_chunks(len(hypotheses), work, costs)
        return rows

    def score(self, sums: FloatArray) -> FloatArray:
        """``100 * edits / reference length`` (100 for an empty reference with edits)."""
        return 100 * error_rate(sums)

    def signature(self) -> str:
        """sacreBLEU's TER settings, which ignore mtgui's tokenizer and case."""
        o = self.tokenizer_options
        yes = {True: "yes", False: "no"}
        case = "mixed" if o.case_sensitive else "lc"
        return (
            f"ter[tok=tercom,case={case},norm={yes[o.normalized]},punct={yes[not o.no_punct]},"
            f"asian={yes[o.asian_support]}]"
        )


def error_rate(sums: FloatArray) -> FloatArray:
    """edits / reference length; 1 when the reference is empty but there are edits, else 0."""
    edits, length = sums[..., 0], sums[..., 1]
    safe = np.where(length > 0, length, 1.0)
    return np.where(length > 0, edits / safe, np.where(edits > 0, 1.0, 0.0))


@dataclass(frozen=True)
class _TerReferences:
    """The references as TER sees them: word ids (every word any reference uses), flat."""

    vocabulary: dict[str, int]
    ids: IntArray  # every reference's words, reference after reference
    starts: IntArray  # (R, N): where reference r of segment s begins in ``ids``
    lengths: IntArray  # (R, N): its words

    @property
    def longest(self) -> FloatArray:
        """Per segment, the most words in any reference (for :func:`_costs`)."""
        return np.max(self.lengths, axis=0, initial=0).astype(np.float64)

    def bounds(self, start: int, stop: int) -> tuple[IntArray, IntArray]:
        """Where the references of segments ``start:stop`` begin and end in ``ids``."""
        starts = np.ascontiguousarray(self.starts[:, start:stop])
        return starts, starts + self.lengths[:, start:stop]

    @staticmethod
    def hypothesis_words(hypotheses: Sequence[str]) -> FloatArray:
        """Each hypothesis' words (an estimate: before tokenization)."""
        return np.fromiter((len(h.split()) for h in hypotheses), np.float64, len(hypotheses))


@dataclass(frozen=True)
class _TokenizerOptions:
    """sacreBLEU's ``TercomTokenizer`` options (its defaults: all off)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False


def _tokenizer(options: _TokenizerOptions) -> Callable[[str], list[str]]:
    """sacreBLEU's TER preprocessing: its ``TercomTokenizer`` with ``options`` of the text
    without trailing whitespace, in words."""
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    tokenizer = TercomTokenizer(
        normalized=options.normalized,
        no_punct=options.no_punct,
        asian_support=options.asian_support,
        case_sensitive=options.case_sensitive,
    )
    return lambda text: tokenizer(text.rstrip()).split()


def _iter_reference_side(
    context: ExtractionContext, options: _TokenizerOptions
) -> Generator[int, None, _TerReferences]:
    """The references' words and ids, made once per context (and options) for every system."""
    return (
        yield from context.iter_memo(
            ("ter", options), lambda context: _iter_references(context, options)
        )
    )


def _iter_references(
    context: ExtractionContext, options: _TokenizerOptions
) -> Generator[int, None, _TerReferences]:
    """Tokenize every reference once, in blocks (yielding 0 between them: no segment of a
    system is done yet), and give each word an id."""
    words = _tokenizer(options)
    vocabulary: dict[str, int] = {}
    blocks: list[IntArray] = []
    texts = [ref.texts for ref in context.test_set.references]
    size = len(texts[0]) if texts else 0
    lengths = np.zeros((len(texts), size), dtype=np.int64)
    for r, column in enumerate(texts):
        for start in range(0, size, _REFERENCE_BLOCK):
            ids: list[int] = []
            for s in range(start, min(start + _REFERENCE_BLOCK, size)):
                tokens = words(column[s])
                lengths[r, s] = len(tokens)
                ids.extend(vocabulary.setdefault(token, len(vocabulary)) for token in tokens)
            blocks.append(np.asarray(ids, dtype=np.int64))
            yield 0
    flat_starts = np.cumsum(lengths.ravel()) - lengths.ravel()
    return _TerReferences(
        vocabulary,
        np.concatenate([np.zeros(0, np.int64), *blocks]),
        flat_starts.reshape(lengths.shape),
        lengths,
    )


def _encode(
    hypotheses: Sequence[str], vocabulary: dict[str, int], options: _TokenizerOptions
) -> tuple[IntArray, IntArray]:
    """The hypotheses' word ids (-1 for a word no reference has: TER compares a hypothesis'
    words with the reference's only, never with each other) and where each begins."""
    words = _tokenizer(options)
    lookup = vocabulary.get
    ids: list[int] = []
    starts = [0]
    for text in hypotheses:
        tokens = words(text)
        ids.extend(lookup(token, -1) for token in tokens)
        starts.append(len(ids))
    return np.asarray(ids, dtype=np.int64), np.asarray(starts, dtype=np.int64)


def _costs(words: FloatArray, reference_lengths: FloatArray) -> FloatArray:
    """Each segment's estimated TER work, for chunks of even duration: TER's time grows about
    as (hypothesis words x reference words)^1.15 (measured with sacreBLEU on WMT21 is-en, from
    a tenth of a millisecond to a fifth of a second a segment)."""
    return ((words + 1) * (reference_lengths + 1)) ** 1.15
