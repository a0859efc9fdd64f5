"""M-BLEU (Zhang & Vogel 2004, Eq. 4): the arithmetic instead of the geometric mean.

``M-BLEU = BP * sum_n p_n / 4`` with BLEU's precisions and brevity penalty, so it shares
BLEU's statistics row and never collapses to 0 when one order has no match. An order without
hypothesis n-grams has precision 0. Scale 0-1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from mtgui.engine.metrics.base import FloatArray, Metric
from mtgui.engine.metrics.bleu import ORDER, Bleu, brevity_penalty

if TYPE_CHECKING:
    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext


class MBleu(Metric):
    """Zhang & Vogel's modified BLEU."""

    name: ClassVar[str] = "mbleu"
    label: ClassVar[str] = "M-BLEU"
    description: ClassVar[str] = (
        "M-BLEU (Zhang & Vogel 2004): BLEU with the arithmetic mean of the precisions."
    )
    scale: ClassVar[str] = "0-1"
    columns = Bleu.columns

    def prepare(self, context: ExtractionContext) -> None:
        """BLEU's."""
        Bleu().prepare(context)

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """BLEU's rows (computed once and shared)."""
        return context.rows(Bleu(), system)

    def score(self, sums: FloatArray) -> FloatArray:
        """``BP * mean(p_n)``."""
        matches, totals = sums[..., 2 : 2 + ORDER], sums[..., 2 + ORDER : 2 + 2 * ORDER]
        precisions = matches / np.where(totals > 0, totals, 1.0)
        return brevity_penalty(sums) * precisions.sum(axis=-1) / ORDER

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """The brevity penalty."""
        return {"bp": float(brevity_penalty(sums))}
