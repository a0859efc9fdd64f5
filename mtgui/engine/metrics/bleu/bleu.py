"""BLEU (Papineni et al. 2002) as mteval-v13a computes it, and sacreBLEU's sentence BLEU.

Statistics row: hypothesis length c, closest reference length r (ties go to the shorter), then
clipped matches m_1..m_4 and hypothesis n-gram counts t_1..t_4 (up to the maximum order N,
sacreBLEU's ``--bleu-max-order``). Corpus BLEU is
``BP * exp(sum_n log(p_n) / 4)`` with ``BP = exp(min(0, 1 - r/c))`` and mteval-v13a's
smoothing: an order with no match gets precision ``1 / (2^k t_n)``, k counting such orders
from 1, and an order without hypothesis n-grams counts as precision 1. On real test sets no
order is empty and this equals sacreBLEU's BLEU (``smooth:exp``) exactly; on a degenerate
resample (no match at all) mteval's smoothing still gives a small positive score where
sacreBLEU gives 0. BLEU is on mteval's 0-1 scale. sacreBLEU's smoothing methods
(``--smooth-method exp|floor|add-k|none``) and its effective order are
:func:`sacrebleu_bleu`, applied to the same summed rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.sacrebleu_options import (
    BLEU_ORDER,
    MTEVAL,
    check_bleu_order,
    check_smooth_method,
    check_smooth_value,
    smooth_value_of,
    smoothing_label,
)

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings

ORDER = BLEU_ORDER
_LN2 = float(np.log(2.0))


class Bleu(Metric):
    """Corpus BLEU with mteval-v13a's smoothing (or sacreBLEU's chosen one); sentence BLEU as
    sacreBLEU's ``sentence_bleu``.

    ``max_order``, ``smooth_method``, ``smooth_value`` and ``effective_order`` are sacreBLEU's
    ``--bleu-max-order``, ``--smooth-method``, ``--smooth-value`` and
    ``--bleu-effective-order`` (:mod:`~mtgui.engine.metrics.sacrebleu_options`); ``mteval`` (the
    default) is mteval-v13a's smoothing, described in the module's docstring. The maximum order
    sets the row's width; the smoothing and the effective order apply in the formula, so that
    they change no row.
    """

    name: ClassVar[str] = "bleu"
    label: ClassVar[str] = "BLEU"
    description: ClassVar[str] = (
        "BLEU (Papineni et al. 2002): n-gram precision with a brevity penalty, as mteval."
    )
    scale: ClassVar[str] = "0-1"
    # Smoothing and effective order apply in the formula on summed rows: they change no row.
    reads: ClassVar[tuple[str, ...] | None] = ("tokenize", "case", "bleu_max_order", "empty_refs")

    def __init__(
        self,
        max_order: int = ORDER,
        smooth_method: str = MTEVAL,
        smooth_value: float | None = None,
        effective_order: bool = False,
    ) -> None:
        self.order = check_bleu_order(max_order)
        self.smooth_method = check_smooth_method(smooth_method)
        self.smooth_value = check_smooth_value(smooth_value)
        self.effective_order = bool(effective_order)
        self.columns = bleu_columns(self.order)

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """BLEU with the settings' order and smoothing (mtgui's defaults without settings)."""
        if settings is None:
            return cls()
        return cls(
            settings.bleu_max_order,
            settings.bleu_smooth_method,
            settings.bleu_smooth_value,
            settings.bleu_effective_order,
        )

    def options(self) -> dict[str, Any]:
        """The options this BLEU was made with (to make another one like it)."""
        return {
            "max_order": self.order,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "effective_order": self.effective_order,
        }

    def prepare(self, context: ExtractionContext) -> None:
        """The references' n-gram index."""
        context.prepare_reference_ngrams()

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """[c, r, m_1..m_N, t_1..t_N] for every segment."""
        matches = context.matches(system)[: self.order]
        hyp_len = context.hypothesis_ids(system).lengths
        ref_lens = context.reference_ngrams.lengths
        ref_len = closest_reference_length(hyp_len, ref_lens, context.present)
        return np.column_stack(
            [hyp_len, ref_len, *(m.matched for m in matches), *(m.total for m in matches)]
        ).astype(np.float64)

    def score(self, sums: FloatArray) -> FloatArray:
        """BLEU of summed rows: mteval-v13a's smoothed BLEU, or sacreBLEU's with its smoothing.

        Where every order of every row has a match (every resample of a real test set), the
        log-precisions are ``log m_n - log t_n`` without the smoothing's masks: the very same
        numbers, in a quarter of the time (a tenth of the standing benchmark's bootstrap was
        spent here, on one core while the other waited).
        """
        order = self.order
        if self.smooth_method != MTEVAL:
            return sacrebleu_bleu(
                sums, order, self.smooth_method, self.smooth_value, self.effective_order
            )
        matches, totals = sums[..., 2 : 2 + order], sums[..., 2 + order : 2 + 2 * order]
        if self.effective_order:
            used = np.cumprod(totals > 0, axis=-1).astype(bool)
            mean_log = _log_precisions(sums, order).sum(axis=-1) / np.maximum(used.sum(-1), 1)
            return brevity_penalty(sums) * np.exp(mean_log)
        if matches.min(initial=np.inf) > 0 and totals.min(initial=np.inf) > 0:
            log_precisions = np.log(matches) - np.log(totals)
        else:
            log_precisions = _log_precisions(sums, order)
        return brevity_penalty(sums) * np.exp(log_precisions.sum(axis=-1) / order)

    def segment_scores(self, rows: FloatArray) -> FloatArray:
        """sacreBLEU's sentence BLEU (effective order) with the chosen smoothing (``exp`` for
        ``mteval``), on the 0-1 scale."""
        method = "exp" if self.smooth_method == MTEVAL else self.smooth_method
        return sentence_bleu(rows, self.order, method, self.smooth_value)

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """Brevity penalty, length ratio and lengths."""
        hyp_len, ref_len = float(sums[0]), float(sums[1])
        return {
            "bp": float(brevity_penalty(sums)),
            "ratio": hyp_len / ref_len if ref_len else float("nan"),
            "hyp_length": int(hyp_len),
            "ref_length": int(ref_len),
        }

    def details(self, sums: FloatArray) -> list[dict[str, Any]]:
        """Per order: hypothesis n-grams, clipped matches and precision."""
        order = self.order
        matches, totals = sums[2 : 2 + order], sums[2 + order :]
        return [
            {
                "n": n + 1,
                "hyp_ngrams": int(totals[n]),
                "matches": int(matches[n]),
                "precision": float(matches[n] / totals[n]) if totals[n] else float("nan"),
            }
            for n in range(order)
        ]

    def signature(self) -> str:
        """The smoothing, and the order and effective order where they are not the default."""
        return f"{self.name}[{bleu_options_label(self.options())}]"


def bleu_columns(order: int) -> tuple[str, ...]:
    """The names of BLEU's statistics columns up to ``order``."""
    return (
        "hyp_len",
        "ref_len",
        *(f"match_{n}" for n in range(1, order + 1)),
        *(f"hyp_{n}" for n in range(1, order + 1)),
    )


def bleu_options_label(options: dict[str, Any]) -> str:
    """``smooth=mteval``, then ``order=N`` and ``eff=yes`` where they are not the default."""
    parts = [f"smooth={smoothing_label(options['smooth_method'], options['smooth_value'])}"]
    if options["max_order"] != ORDER:
        parts.append(f"order={options['max_order']}")
    if options["effective_order"]:
        parts.append("eff=yes")
    return ",".join(parts)


def closest_reference_length(
    hyp_len: IntArray, ref_lens: IntArray, present: npt.NDArray[np.bool_] | None = None
) -> IntArray:
    """Per segment, the reference length closest to the hypothesis length; ties -> shorter.

    ``ref_lens`` has shape (N, R); ``present`` (the same shape) leaves out the missing
    references (sacreBLEU's ``None``), as long as a segment has one.
    """
    distance = np.abs(ref_lens - hyp_len[:, None])
    key = distance * (int(ref_lens.max(initial=0)) + 1) + ref_lens
    if present is not None:
        key = np.where(present, key, int(key.max(initial=0)) + 1)
    closest: IntArray = ref_lens[np.arange(len(ref_lens)), key.argmin(axis=1)]
    return closest


def brevity_penalty(sums: FloatArray) -> FloatArray:
    """``exp(min(0, 1 - r/c))``, and 0 for an empty hypothesis (mteval-v13a)."""
    hyp_len, ref_len = sums[..., 0], sums[..., 1]
    safe = np.where(hyp_len > 0, hyp_len, 1.0)
    return np.where(hyp_len > 0, np.exp(np.minimum(0.0, 1.0 - ref_len / safe)), 0.0)


def _log_precisions(sums: FloatArray, order: int = ORDER) -> FloatArray:
    """log p_n with mteval-v13a's smoothing, shape (..., order)."""
    matches, totals = sums[..., 2 : 2 + order], sums[..., 2 + order : 2 + 2 * order]
    unmatched = (totals > 0) & (matches == 0)
    k = np.cumsum(unmatched, axis=-1)
    safe_totals = np.where(totals > 0, totals, 1.0)
    safe_matches = np.where(matches > 0, matches, 1.0)
    smoothed = -(k * _LN2 + np.log(safe_totals))
    plain = np.log(safe_matches) - np.log(safe_totals)
    return np.where(totals == 0, 0.0, np.where(matches == 0, smoothed, plain))


def sentence_bleu(
    rows: FloatArray, order: int = ORDER, method: str = "exp", value: float | None = None
) -> FloatArray:
    """sacreBLEU's ``sentence_bleu`` (effective order; by default ``exp`` smoothing), 0-1
    scale.

    Orders are used up to the last one with hypothesis n-grams; with ``exp`` an order without a
    match gets ``1 / (2^k t_n)``; no match at all gives 0; ``BP = exp(1 - r/c)`` when
    ``c < r``.
    """
    return sacrebleu_bleu(rows, order, method, value, effective_order=True)


def sacrebleu_bleu(
    sums: FloatArray,
    order: int,
    method: str,
    value: float | None,
    effective_order: bool,
) -> FloatArray:
    """sacreBLEU's ``BLEU.compute_bleu`` of summed rows, vectorised, on the 0-1 scale.

    No match at all gives 0. add-k adds its value to the matches and n-grams of the orders from
    2 on. The orders are used up to the first without hypothesis n-grams; without the
    effective order an order not used, or one whose precision is 0 (no match under ``none``,
    ``add-k`` with 0 or ``floor`` with 0), makes the score 0 (sacreBLEU's ``my_log`` of 0).
    With ``exp`` the k-th order without a match gets ``1 / (2^k t_n)``, with ``floor``
    ``value / t_n``.
    """
    hyp_len, ref_len = sums[..., 0], sums[..., 1]
    matches, totals = sums[..., 2 : 2 + order], sums[..., 2 + order : 2 + 2 * order]
    any_match = matches.sum(axis=-1) > 0
    smooth = smooth_value_of(method, value)
    if method == "add-k":
        added = np.zeros(order)
        added[1:] = smooth
        matches, totals = matches + added, totals + added
    used = np.cumprod(totals > 0, axis=-1).astype(bool)  # orders before the first empty one
    effective = used.sum(axis=-1) if effective_order else np.full(used.shape[:-1], order)
    unmatched = used & (matches == 0)
    safe_totals = np.where(totals > 0, totals, 1.0)
    if method == "exp":
        k = np.cumsum(unmatched, axis=-1)
        zero_log = -(k * _LN2 + np.log(safe_totals))
    elif method == "floor" and smooth > 0:
        zero_log = np.log(smooth) - np.log(safe_totals)
    else:  # precision 0: sacreBLEU's my_log gives -9999999999, and the score 0
        zero_log = np.full(totals.shape, -np.inf)
    log_p = np.where(
        matches > 0,
        np.log(np.where(matches > 0, matches, 1.0)) - np.log(safe_totals),
        zero_log,
    )
    counted = used if effective_order else np.ones_like(used)
    zero = (counted & ~used).any(axis=-1) | (used & np.isneginf(log_p)).any(axis=-1)
    mean_log = np.where(used & ~zero[..., None], log_p, 0.0).sum(axis=-1) / np.maximum(effective, 1)
    safe_hyp = np.where(hyp_len > 0, hyp_len, 1.0)
    bp = np.where(
        hyp_len < ref_len, np.where(hyp_len > 0, np.exp(1 - ref_len / safe_hyp), 0.0), 1.0
    )
    return np.where(any_match & (effective > 0) & ~zero, bp * np.exp(mean_log), 0.0)
