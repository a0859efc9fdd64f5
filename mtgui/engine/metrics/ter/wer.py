"""WER: word edit distance to the closest reference over that reference's length.

Words are the tokens of mtgui's tokenizer and case setting. Per segment the reference with the
fewest edits is taken (ties: the shorter one); the corpus WER is the sum of edits over the sum
of those references' lengths, as a fraction. Lower is better. The edits are the plain
Levenshtein distance over words, from the compiled kernel TER's beam search also uses
(:mod:`~mtgui.engine.metrics.ter.editdistance`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.ter.ter import error_rate

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput
    from mtgui.engine.metrics.extraction import ExtractionContext


class Wer(Metric):
    """Word error rate against the closest reference."""

    name: ClassVar[str] = "wer"
    label: ClassVar[str] = "WER"
    description: ClassVar[str] = (
        "WER: word edit distance to the closest reference (lower is better)."
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[str] = "0-1"
    reads: ClassVar[tuple[str, ...] | None] = ("tokenize", "case", "empty_refs")
    columns = ("edits", "ref_len")

    def prepare(self, context: ExtractionContext) -> None:
        """The references' token ids and lengths (kept with their n-gram index)."""
        context.prepare_reference_ngrams()

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """[edits, reference length] of the closest reference, for every segment."""
        from mtgui.engine.metrics.ter.editdistance import (
            edit_distances,  # compiled: imported when used
        )

        hyp = context.hypothesis_ids(system)
        edits = np.column_stack(
            [
                edit_distances(hyp.ids, hyp.lengths, ref.ids, ref.lengths)
                for ref in context.reference_ids
            ]
        )  # (N, R)
        lengths = context.reference_ngrams.lengths
        key = edits * (int(lengths.max(initial=0)) + 1) + lengths
        key = np.where(context.present, key, int(key.max(initial=0)) + 1)  # missing references
        best = key.argmin(axis=1)
        rows = np.arange(len(best))
        return np.column_stack([edits[rows, best], lengths[rows, best]]).astype(np.float64)

    def score(self, sums: FloatArray) -> FloatArray:
        """Edits over reference length."""
        return error_rate(sums)
