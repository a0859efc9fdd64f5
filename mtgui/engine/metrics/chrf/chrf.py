"""chrF (Popović 2015) as sacreBLEU defines it: by default chrF2, character 1- to 6-grams.

The statistics are sacreBLEU's (per segment, the statistics of the reference with the best
sentence-level chrF), computed natively by :mod:`~mtgui.engine.metrics.chrf.extract`: characters and
words become integers and the n-grams of a chunk of segments are counted with one sort,
instead of one Python ``Counter`` entry per n-gram (sacreBLEU's way, ten times slower and
gigabytes on a large test set). The corpus score is sacreBLEU's formula, vectorised: per order
precision and recall (with its 1e-16 for an empty side), averaged over the orders where both
hypothesis and reference have n-grams, then ``F_beta``. Scale 0-100. mtgui's case setting
applies (sacreBLEU's chrF is case-sensitive by default, like mtgui); the tokenizer setting does
not: chrF works on characters, and its word n-grams (a word order above 0) are split as
sacreBLEU splits them.

The character order, word order and beta are sacreBLEU's ``--chrf-char-order``,
``--chrf-word-order`` and ``--chrf-beta`` (:mod:`~mtgui.engine.metrics.chrf.options`), taken from
the metric settings, as are ``--chrf-whitespace`` (whitespace kept in the character n-grams) and
``--chrf-eps-smoothing`` (each order's F-score averaged, as chrF++.py, Moses and NLTK do);
chrF++ (:mod:`.chrfpp`) is this metric with word order 2.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.chrf.options import check_chrf_option

# mtgui.engine.metrics.chrf.extract (with its symbol tables, 2-3 ms to import) is imported where
# chrF is extracted: a run without chrF, the standing benchmark's, does not load it.
if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.chrf.extract import ChrfReferences, ReferenceWords
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings

_EPS = 1e-16


class Chrf(Metric):
    """sacreBLEU's chrF with the given orders and beta (its defaults: chrF2, 6, 0)."""

    name: ClassVar[str] = "chrf"
    label: ClassVar[str] = "chrF"
    description: ClassVar[str] = (
        "chrF: character n-gram F-score (chrF2 unless set otherwise), as sacreBLEU computes it."
    )
    scale: ClassVar[str] = "0-100"
    # eps smoothing changes which reference is the best of several
    reads: ClassVar[tuple[str, ...] | None] = (
        "case",
        "chrf_char_order",
        "chrf_word_order",
        "chrf_beta",
        "chrf_whitespace",
        "chrf_eps_smoothing",
        "empty_refs",
    )

    def __init__(
        self,
        char_order: int = chrf_options.CHAR_ORDER,
        word_order: int = chrf_options.WORD_ORDER,
        beta: int = chrf_options.BETA,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        self.char_order = check_chrf_option("char_order", char_order)
        self.word_order = check_chrf_option("word_order", word_order)
        self.beta = check_chrf_option("beta", beta)
        self.whitespace = bool(whitespace)  # sacreBLEU's --chrf-whitespace
        self.eps_smoothing = bool(eps_smoothing)  # sacreBLEU's --chrf-eps-smoothing
        # sacreBLEU's layout: [hyp, ref, match] per character order, then per word order
        self.columns = tuple(
            f"{kind}{part}_{n}"
            for kind, orders in (("", self.char_order), ("word_", self.word_order))
            for n in range(1, orders + 1)
            for part in ("hyp", "ref", "match")
        )

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """chrF with the settings' orders and beta (sacreBLEU's defaults without settings)."""
        if settings is None:
            return cls()
        return cls(
            settings.chrf_char_order,
            settings.chrf_word_order,
            settings.chrf_beta,
            settings.chrf_whitespace,
            settings.chrf_eps_smoothing,
        )

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """sacreBLEU's per-segment chrF statistics."""
        return run_to_end(self.iter_extract(context, system))

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """sacreBLEU's per-segment chrF statistics, chunk by chunk (see
        :mod:`~mtgui.engine.metrics.chrf.extract`); yields the segments done after each chunk."""
        from mtgui.engine.metrics.chrf.extract import iter_rows

        references = yield from self._iter_reference_side(context)
        hypotheses = context.folded_texts(system.hypotheses)
        return (
            yield from iter_rows(
                references,
                hypotheses,
                self.char_order,
                self.word_order,
                self.beta,
                self.eps_smoothing,
                context.present,
            )
        )

    def score(self, sums: FloatArray) -> FloatArray:
        """sacreBLEU's ``_compute_f_score`` over summed rows (with ``--chrf-eps-smoothing``:
        the mean of each order's F-score, an order without n-grams counting 1e-16)."""
        if self.eps_smoothing:
            from mtgui.engine.metrics.chrf.extract import f_scores

            return f_scores(sums, self.beta, eps_smoothing=True)
        hyp, ref, match = sums[..., 0::3], sums[..., 1::3], sums[..., 2::3]
        precision = np.where(hyp > 0, match / np.where(hyp > 0, hyp, 1.0), _EPS)
        recall = np.where(ref > 0, match / np.where(ref > 0, ref, 1.0), _EPS)
        effective = (hyp > 0) & (ref > 0)
        count = effective.sum(axis=-1)
        safe_count = np.maximum(count, 1)
        avg_p = np.where(count > 0, np.where(effective, precision, 0).sum(axis=-1) / safe_count, 0)
        avg_r = np.where(count > 0, np.where(effective, recall, 0).sum(axis=-1) / safe_count, 0)
        factor = self.beta**2
        denominator = factor * avg_p + avg_r
        safe = np.where(denominator > 0, denominator, 1.0)
        f_score = (1 + factor) * avg_p * avg_r / safe
        return np.where(avg_p + avg_r > 0, 100 * f_score, 0.0)

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """The chrF parameters, for the report."""
        return {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}

    def signature(self) -> str:
        """sacreBLEU's chrF settings."""
        space = "yes" if self.whitespace else "no"
        eps = ",eps=yes" if self.eps_smoothing else ""
        options = f"nc={self.char_order},nw={self.word_order},beta={self.beta},space={space}{eps}"
        return f"{self.name}[{options}]"

    def prepare(self, context: ExtractionContext) -> None:
        """The references' symbols (and words, for chrF++)."""
        run_to_end(self._iter_reference_side(context))

    def _iter_reference_side(
        self, context: ExtractionContext
    ) -> Generator[int, None, ChrfReferences]:
        """The references' symbols, with their words for chrF++: cached once in ``context``
        for chrF and chrF++ of every system."""
        from mtgui.engine.metrics.chrf.extract import with_words_of

        key = ("chrf-symbols", self.whitespace)
        references = yield from context.iter_memo(key, self._iter_references)
        if self.word_order:
            words = yield from context.iter_memo(("chrf-words",), self._iter_reference_words)
            references = with_words_of(references, words)
        return references

    def _iter_references(self, context: ExtractionContext) -> Generator[int, None, ChrfReferences]:
        """The (case-folded) references' characters as symbols."""
        from mtgui.engine.metrics.chrf.extract import iter_references

        references = [context.folded_texts(ref.texts) for ref in context.test_set.references]
        return (yield from iter_references(references, False, self.whitespace))

    def _iter_reference_words(
        self, context: ExtractionContext
    ) -> Generator[int, None, ReferenceWords]:
        """The (case-folded) references' words as symbols, and their encoder."""
        from mtgui.engine.metrics.chrf.extract import iter_reference_words

        references = [context.folded_texts(ref.texts) for ref in context.test_set.references]
        return (yield from iter_reference_words(references))
