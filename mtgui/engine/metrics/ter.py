"""TER (Snover et al. 2006) exactly as sacreBLEU computes it by default, compiled.

Per segment: the fewest edits (with shifts) to any reference, and the references' average
length; ``TER = 100 * edits / reference length``, lower is better, on a 0-100 scale (it can
exceed 100). sacreBLEU's default is kept whole: tercom tokenization (its own tokenizer, applied
here), no normalization, no punctuation removal, case-insensitive. mtgui's tokenizer and case
settings therefore do not apply to TER; the report's signature says so.

The edits are counted by :mod:`~mtgui.engine.ter_search`, a compiled port of sacreBLEU's
``lib_ter`` that gives its numbers exactly, about 60x faster. Each system's segments go through it
in chunks of about a twentieth of a second (see
:mod:`~mtgui.engine.timed_chunks`), so a cancel never waits longer.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from mtgui.engine.metrics.base import FloatArray, Metric
from mtgui.engine.running import run_to_end
from mtgui.engine.segment_limits import check_ter_cells
from mtgui.engine.timed_chunks import iter_in_chunks

if TYPE_CHECKING:
    from collections.abc import Callable

    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext

IntArray = npt.NDArray[np.int64]
_REFERENCE_BLOCK = 5000  # segments of references tokenized between two yields


class Ter(Metric):
    """sacreBLEU's TER with its defaults."""

    name: ClassVar[str] = "ter"
    label: ClassVar[str] = "TER"
    description: ClassVar[str] = (
        "TER: edits needed to turn the output into a reference (lower is better)."
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[str] = "0-100"
    columns = ("edits", "ref_len")

    def prepare(self, context: ExtractionContext) -> None:
        """The references' words and their ids."""
        run_to_end(_iter_reference_side(context))

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment TER statistics."""
        return run_to_end(self.iter_extract(context, system))

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """sacreBLEU's per-segment TER statistics, chunk by chunk; yields the segments done."""
        from mtgui.engine.ter_search import ter_rows, warm_up

        references = yield from _iter_reference_side(context)
        warm_up()  # compiling (or loading the compiled code) must not count as a chunk's work
        hypotheses = system.hypotheses
        rows = np.zeros((len(hypotheses), len(self.columns)))

        def work(start: int, stop: int) -> None:
            ids, starts = _encode(hypotheses[start:stop], references.vocabulary)
            ref_words = references.lengths[:, start:stop]
            check_ter_cells(context.test_set, system, start, np.diff(starts), ref_words)
            ref_starts, ref_ends = references.bounds(start, stop)
            ter_rows(ids, starts, references.ids, ref_starts, ref_ends, rows[start:stop])

        costs = _costs(references.hypothesis_words(hypotheses), references.longest)
        yield from iter_in_chunks(len(hypotheses), work, costs)
        return rows

    def score(self, sums: FloatArray) -> FloatArray:
        """``100 * edits / reference length`` (100 for an empty reference with edits)."""
        return 100 * error_rate(sums)

    def signature(self) -> str:
        """sacreBLEU's TER settings, which ignore mtgui's tokenizer and case."""
        return "ter[tok=tercom,case=lc,norm=no,punct=yes,asian=no]"


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


def _tokenizer() -> Callable[[str], list[str]]:
    """sacreBLEU's TER preprocessing with its defaults: ``TercomTokenizer`` (case-insensitive,
    no normalization, punctuation kept) of the text without trailing whitespace, in words."""
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    tokenizer = TercomTokenizer(
        normalized=False, no_punct=False, asian_support=False, case_sensitive=False
    )
    return lambda text: tokenizer(text.rstrip()).split()


def _iter_reference_side(context: ExtractionContext) -> Generator[int, None, _TerReferences]:
    """The references' words and ids, made once per context for every system."""
    return (yield from context.iter_memo("ter", _iter_references))


def _iter_references(context: ExtractionContext) -> Generator[int, None, _TerReferences]:
    """Tokenize every reference once, in blocks (yielding 0 between them: no segment of a
    system is done yet), and give each word an id."""
    words = _tokenizer()
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


def _encode(hypotheses: Sequence[str], vocabulary: dict[str, int]) -> tuple[IntArray, IntArray]:
    """The hypotheses' word ids (-1 for a word no reference has: TER compares a hypothesis'
    words with the reference's only, never with each other) and where each begins."""
    words = _tokenizer()
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
