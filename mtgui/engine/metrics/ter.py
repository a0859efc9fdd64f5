"""TER (Snover et al. 2006) exactly as sacreBLEU computes it by default.

sacreBLEU's ``TER`` extracts the statistics: per segment the fewest edits (with shifts) to any
reference, and the average reference length. Its default is kept whole: tercom tokenization,
no normalization, case-insensitive. mtgui's tokenizer and case settings therefore do not apply
to TER; the report's signature says so. ``TER = 100 * edits / reference length``; lower is
better. Scale 0-100 (it can exceed 100).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from mtgui.engine.metrics.base import FloatArray, Metric

if TYPE_CHECKING:
    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext


class Ter(Metric):
    """sacreBLEU's TER with its defaults."""

    name: ClassVar[str] = "ter"
    label: ClassVar[str] = "TER"
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[str] = "0-100"
    columns = ("edits", "ref_len")

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment TER statistics."""
        scorer = context.memo("ter", _reference_scorer)
        stats = scorer._extract_corpus_statistics(list(system.hypotheses), None)
        return np.asarray(stats, dtype=np.float64).reshape(len(system.hypotheses), 2)

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


def _reference_scorer(context: ExtractionContext) -> Any:
    """sacreBLEU's TER with the references cached."""
    from sacrebleu.metrics.ter import TER

    return TER(references=[list(ref.texts) for ref in context.test_set.references])
