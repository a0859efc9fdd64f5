"""chrF (Popović 2015) as sacreBLEU defines it: chrF2, character 1- to 6-grams, beta = 2.

The statistics are sacreBLEU's own (its ``CHRF`` extracts them: per segment, the statistics of
the reference with the best sentence-level chrF), so they are exactly sacreBLEU's. The corpus
score is sacreBLEU's formula, vectorised: per order precision and recall (with its 1e-16 for an
empty side), averaged over the orders where both hypothesis and reference have n-grams, then
``F_beta``. Scale 0-100. mtgui's case setting applies (sacreBLEU's chrF is case-sensitive by
default, like mtgui); the tokenizer setting does not: chrF works on characters.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from mtgui.engine.metrics.base import FloatArray, Metric
from mtgui.engine.metrics.sacrebleu_chunks import iter_scorer, iter_segment_statistics
from mtgui.engine.running import run_to_end

if TYPE_CHECKING:
    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext

CHAR_ORDER = 6
BETA = 2
_EPS = 1e-16


class Chrf(Metric):
    """sacreBLEU's chrF2."""

    name: ClassVar[str] = "chrf"
    label: ClassVar[str] = "chrF"
    description: ClassVar[str] = "chrF2: character n-gram F-score, as sacreBLEU computes it."
    scale: ClassVar[str] = "0-100"
    columns = tuple(
        f"{part}_{n}" for n in range(1, CHAR_ORDER + 1) for part in ("hyp", "ref", "match")
    )

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment chrF statistics."""
        return run_to_end(self.iter_extract(context, system))

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """sacreBLEU's per-segment chrF statistics, chunk by chunk (see
        :mod:`~mtgui.engine.metrics.sacrebleu_chunks`)."""
        scorer = yield from context.iter_memo("chrf", _iter_reference_scorer)
        hypotheses = context.folded_texts(system.hypotheses)
        return (yield from iter_segment_statistics(scorer, hypotheses, len(self.columns)))

    def score(self, sums: FloatArray) -> FloatArray:
        """sacreBLEU's ``_compute_f_score`` over summed rows."""
        hyp, ref, match = sums[..., 0::3], sums[..., 1::3], sums[..., 2::3]
        precision = np.where(hyp > 0, match / np.where(hyp > 0, hyp, 1.0), _EPS)
        recall = np.where(ref > 0, match / np.where(ref > 0, ref, 1.0), _EPS)
        effective = (hyp > 0) & (ref > 0)
        count = effective.sum(axis=-1)
        safe_count = np.maximum(count, 1)
        avg_p = np.where(count > 0, np.where(effective, precision, 0).sum(axis=-1) / safe_count, 0)
        avg_r = np.where(count > 0, np.where(effective, recall, 0).sum(axis=-1) / safe_count, 0)
        factor = BETA**2
        denominator = factor * avg_p + avg_r
        safe = np.where(denominator > 0, denominator, 1.0)
        f_score = (1 + factor) * avg_p * avg_r / safe
        return np.where(avg_p + avg_r > 0, 100 * f_score, 0.0)

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """The chrF parameters, for the report."""
        return {"char_order": CHAR_ORDER, "word_order": 0, "beta": BETA}

    def signature(self) -> str:
        """sacreBLEU's chrF settings."""
        return f"chrf[nc={CHAR_ORDER},nw=0,beta={BETA},space=no]"


def _iter_reference_scorer(context: ExtractionContext) -> Generator[int, None, Any]:
    """sacreBLEU's CHRF with the (case-folded) references cached."""
    from sacrebleu.metrics.chrf import CHRF

    references = [context.folded_texts(ref.texts) for ref in context.test_set.references]
    return (yield from iter_scorer(CHRF, references))
