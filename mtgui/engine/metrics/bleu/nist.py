"""NIST (Doddington 2002) exactly as mteval-v13a computes it.

Information weights come from all references of the whole test set pooled:
``info(w_1..w_n) = log2(count(w_1..w_{n-1}) / count(w_1..w_n))``, the empty prefix counting
all reference words (Zhang & Vogel 2004, Eq. 5). They stay fixed during resampling: they are a
property of the reference set. mteval-v13a has a quirk that changes the 4th decimal: Perl reads
the prefix string ``"0"`` as false, so a bigram starting with the token ``0`` is weighted like a
unigram, over all reference words. ``MetricSettings.nist_zero_quirk`` (on by default) keeps it,
so that our NIST equals mteval's printed values; off, the formula as written is used.

Statistics row: information-weighted matches I_1..I_5, clipped matches m_1..m_5, hypothesis
n-gram counts t_1..t_5, and the reference words of the segment over all references.
``NIST = sum_n I_n / max(t_n, 1) * BP`` with ``BP = exp(beta * ln^2(min(rho, 1)))``,
``rho = t_1 / (reference words / R)`` and ``beta = ln(0.5) / ln^2(1.5)``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.metrics.base import Metric

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings
    from mtgui.engine.text.ngrams import ReferenceNgrams

ORDER = 5
BETA = math.log(0.5) / math.log(1.5) ** 2


class Nist(Metric):
    """mteval-v13a's NIST score, up to 5-grams."""

    name: ClassVar[str] = "nist"
    label: ClassVar[str] = "NIST"
    description: ClassVar[str] = (
        "NIST: n-gram matches weighted by how informative they are, as mteval."
    )
    scale: ClassVar[str] = "unbounded"
    reads: ClassVar[tuple[str, ...] | None] = ("tokenize", "case", "nist_zero_quirk", "empty_refs")
    columns = (
        *(f"info_{n}" for n in range(1, ORDER + 1)),
        *(f"match_{n}" for n in range(1, ORDER + 1)),
        *(f"hyp_{n}" for n in range(1, ORDER + 1)),
        "ref_words",
    )

    def __init__(self, num_references: int) -> None:
        self.num_references = num_references

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Nist:
        """NIST for ``test_set``: its length penalty compares with the mean reference length."""
        return cls(test_set.num_references)

    def prepare(self, context: ExtractionContext) -> None:
        """The references' n-gram index and the information weights."""
        self._memo_weights(context)

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """[I_1..I_5, m_1..m_5, t_1..t_5, reference words] for every segment."""
        weights = self._memo_weights(context)
        matches = context.matches(system)[:ORDER]
        n_segments = context.reference_ngrams.num_segments
        info = [
            np.bincount(
                m.matched_segments,
                weights=m.clipped_counts * w[m.matched_ids],
                minlength=n_segments,
            )
            for m, w in zip(matches, weights[:ORDER], strict=True)
        ]
        ref_words = reference_words(context)
        return np.column_stack(
            [*info, *(m.matched for m in matches), *(m.total for m in matches), ref_words]
        ).astype(np.float64)

    def _memo_weights(self, context: ExtractionContext) -> list[FloatArray]:
        """The information weights, made once per context."""
        return context.memo(("nist-info", context.settings.nist_zero_quirk), self._weights)

    def _weights(self, context: ExtractionContext) -> list[FloatArray]:
        """The information weight of every reference n-gram, order by order."""
        zero = context.vocabulary.get("0", -1) if context.settings.nist_zero_quirk else -1
        return information_weights(context.reference_ngrams, zero)

    def score(self, sums: FloatArray) -> FloatArray:
        """``sum_n I_n / max(t_n, 1)`` times the length penalty."""
        return self._precisions(sums).sum(axis=-1) * self._penalty(sums)

    def _precisions(self, sums: FloatArray) -> FloatArray:
        """The information-weighted precision of each order, shape (..., 5)."""
        info, totals = sums[..., 0:ORDER], sums[..., 2 * ORDER : 3 * ORDER]
        return info / np.maximum(totals, 1.0)

    def _penalty(self, sums: FloatArray) -> FloatArray:
        """mteval's ``nist_length_penalty(t_1 / (reference words / R))``."""
        hyp_words, ref_words = sums[..., 2 * ORDER], sums[..., 3 * ORDER]
        average = ref_words / self.num_references
        ratio = np.where(average > 0, hyp_words / np.where(average > 0, average, 1.0), np.inf)
        safe = np.clip(ratio, 1e-300, 1.0)
        penalty = np.exp(BETA * np.log(safe) ** 2)
        return np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, penalty))

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """Precision score before the penalty, the penalty and the length ratio."""
        average = sums[3 * ORDER] / self.num_references
        return {
            "precision_score": float(self._precisions(sums).sum()),
            "length_penalty": float(self._penalty(sums)),
            "ratio": float(sums[2 * ORDER] / average) if average else float("nan"),
        }

    def details(self, sums: FloatArray) -> list[dict[str, Any]]:
        """Zhang, Vogel & Waibel's Table 1: per order, how much of the score it gives."""
        info, matches = sums[0:ORDER], sums[ORDER : 2 * ORDER]
        totals, precisions = sums[2 * ORDER : 3 * ORDER], self._precisions(sums)
        whole = precisions.sum()
        return [
            {
                "n": n + 1,
                "hyp_ngrams": int(totals[n]),
                "matches": int(matches[n]),
                "info_gain": float(info[n]),
                "avg_info_gain": float(info[n] / matches[n]) if matches[n] else float("nan"),
                "precision_score": float(precisions[n]),
                "contribution_percent": float(100 * precisions[n] / whole) if whole else 0.0,
            }
            for n in range(ORDER)
        ]

    def signature(self) -> str:
        """NIST depends on the number of references through its length penalty."""
        return f"nist[refs={self.num_references}]"


def reference_words(context: ExtractionContext) -> FloatArray:
    """Per segment, the words of its references scaled to R references: ``words * R / R_i``
    with ``R_i`` the references it has (:mod:`~mtgui.engine.metrics.missing_refs`), so that
    the penalty's ``reference words / R`` is the sum of the segments' mean reference lengths.
    A segment with all its references has exactly its words."""
    lengths, present = context.reference_ngrams.lengths, context.present
    words = np.where(present, lengths, 0).sum(axis=1).astype(np.float64)
    count = present.sum(axis=1)
    full = count == present.shape[1]
    scaled: FloatArray = np.where(full, words, words * present.shape[1] / np.maximum(count, 1))
    return scaled


def information_weights(references: ReferenceNgrams, zero_token: int = -1) -> list[FloatArray]:
    """``log2(count(prefix) / count(n-gram))`` for every reference n-gram of each order.

    ``zero_token`` is the vocabulary id of the token ``0`` when mteval-v13a's quirk is wanted
    (bigrams after it are weighted over all reference words), else -1.
    """
    total = float(references.total_words)
    weights = []
    previous_counts: FloatArray | None = None
    for n, order in enumerate(references.orders, start=1):
        counts = order.pooled_counts.astype(np.float64)
        if n > 1 and len(order.pairs) != len(counts):  # no reference n-gram of this order
            weights.append(np.zeros_like(counts))
            previous_counts = counts
            continue
        if previous_counts is None:
            prefix_counts = np.full_like(counts, total)
        else:
            prefix = order.pairs // references.vocabulary_size
            prefix_counts = previous_counts[prefix]
            if n == 2 and zero_token >= 0:
                prefix_counts = np.where(prefix == zero_token, total, prefix_counts)
        seen = counts > 0  # every reference n-gram; its prefix was seen at least as often
        ratio = np.where(seen, prefix_counts, 1.0) / np.where(seen, counts, 1.0)
        weights.append(np.where(seen, np.log2(ratio), 0.0))
        previous_counts = counts
    return weights
