"""M-BLEU (Zhang & Vogel 2004, Eq. 4): the arithmetic instead of the geometric mean.

``M-BLEU = BP * sum_n p_n / 4`` with BLEU's precisions and brevity penalty, so it shares
BLEU's statistics row and never collapses to 0 when one order has no match. An order without
hypothesis n-grams has precision 0. Scale 0-1. The maximum order N is BLEU's
(``--bleu-max-order``, 4 by default): ``BP * sum_n p_n / N``; BLEU's smoothing does not apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import ORDER, Bleu, bleu_columns, brevity_penalty
from mtgui.engine.metrics.sacrebleu_options import check_bleu_order

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings


class MBleu(Metric):
    """Zhang & Vogel's modified BLEU."""

    name: ClassVar[str] = "mbleu"
    label: ClassVar[str] = "M-BLEU"
    description: ClassVar[str] = (
        "M-BLEU (Zhang & Vogel 2004): BLEU with the arithmetic mean of the precisions."
    )
    scale: ClassVar[str] = "0-1"
    reads: ClassVar[tuple[str, ...] | None] = ("tokenize", "case", "bleu_max_order", "empty_refs")

    def __init__(self, max_order: int = ORDER) -> None:
        self.order = check_bleu_order(max_order)
        self.columns = bleu_columns(self.order)

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """M-BLEU up to BLEU's maximum order (4 without settings)."""
        return cls() if settings is None else cls(settings.bleu_max_order)

    def options(self) -> dict[str, Any]:
        """The options this M-BLEU was made with (to make another one like it)."""
        return {"max_order": self.order}

    def prepare(self, context: ExtractionContext) -> None:
        """BLEU's."""
        Bleu(self.order).prepare(context)

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """BLEU's rows (computed once and shared)."""
        return context.rows(Bleu(self.order), system)

    def score(self, sums: FloatArray) -> FloatArray:
        """``BP * mean(p_n)``."""
        order = self.order
        matches, totals = sums[..., 2 : 2 + order], sums[..., 2 + order : 2 + 2 * order]
        precisions = matches / np.where(totals > 0, totals, 1.0)
        return brevity_penalty(sums) * precisions.sum(axis=-1) / order

    def signature(self) -> str:
        """M-BLEU, with its order where it is not 4."""
        return self.name if self.order == ORDER else f"{self.name}[order={self.order}]"

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """The brevity penalty."""
        return {"bp": float(brevity_penalty(sums))}
