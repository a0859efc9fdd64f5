"""TER (Snover et al. 2006) exactly as sacreBLEU computes it by default.

sacreBLEU's ``TER`` extracts the statistics: per segment the fewest edits (with shifts) to any
reference, and the average reference length. Its default is kept whole: tercom tokenization,
no normalization, case-insensitive. mtgui's tokenizer and case settings therefore do not apply
to TER; the report's signature says so. ``TER = 100 * edits / reference length``; lower is
better. Scale 0-100 (it can exceed 100).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from mtgui.engine.metrics.base import FloatArray, Metric
from mtgui.engine.metrics.sacrebleu_chunks import iter_scorer, iter_segment_statistics
from mtgui.engine.running import run_to_end

if TYPE_CHECKING:
    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext


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

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment TER statistics."""
        return run_to_end(self.iter_extract(context, system))

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """sacreBLEU's per-segment TER statistics, chunk by chunk (one long segment can take a
        second: see :mod:`~mtgui.engine.metrics.sacrebleu_chunks`)."""
        scorer = yield from context.iter_memo("ter", _iter_reference_scorer)
        costs = _costs(system.hypotheses, context.memo("ter-lengths", _reference_lengths))
        hypotheses = system.hypotheses
        return (yield from iter_segment_statistics(scorer, hypotheses, len(self.columns), costs))

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


def _reference_lengths(context: ExtractionContext) -> FloatArray:
    """Per segment, the most words in any reference (for :func:`_costs`)."""
    lengths = [[len(text.split()) for text in ref.texts] for ref in context.test_set.references]
    return np.max(np.asarray(lengths, dtype=np.float64), axis=0, initial=0.0)


def _costs(hypotheses: Sequence[str], reference_lengths: FloatArray) -> FloatArray:
    """Each segment's estimated TER work, for chunks of even duration: on WMT21 is-en the time
    of sacreBLEU's TER grows about as (hypothesis words x reference words)^1.15, from a tenth
    of a millisecond to a fifth of a second."""
    words = np.fromiter((len(h.split()) for h in hypotheses), np.float64, len(hypotheses))
    return ((words + 1) * (reference_lengths + 1)) ** 1.15


def _iter_reference_scorer(context: ExtractionContext) -> Generator[int, None, Any]:
    """sacreBLEU's TER with the references cached."""
    from sacrebleu.metrics.ter import TER

    references = [ref.texts for ref in context.test_set.references]
    return (yield from iter_scorer(TER, references))
