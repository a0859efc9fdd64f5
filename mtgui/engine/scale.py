"""BLEU and M-BLEU on sacreBLEU's 0-100 scale instead of mteval's 0-1.

The scale is a way of reading the numbers, not a setting of the analysis: switching it must be
instant and must change every number the user sees the same way. So the analysis always runs on
the 0-1 scale and :func:`on_scale` turns a finished result into the same result times 100 for
those metrics: their metric objects score times 100 (so everything computed later from the
statistics -- segment scores, details, studies -- is on the new scale too), and the bootstrap's
scores, intervals, differences and rankings are multiplied. What does not depend on the unit
(relative intervals, RSDs, p-values, verdicts, clusters) is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

import numpy as np

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.intervals import ScoreInterval
from mtgui.engine.inference.ranking import Ranking
from mtgui.engine.inference.significance import PairComparison
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.resampling.bootstrap import BootstrapResult
from mtgui.engine.statistics.rows import Statistics

SCALES = (1, 100)
"""The scales BLEU and M-BLEU can be read on: mteval's 0-1 and sacreBLEU's 0-100."""


class BleuPercent(Bleu):
    """BLEU times 100, as sacreBLEU reports it."""

    scale: ClassVar[str] = "0-100"

    def score(self, sums: FloatArray) -> FloatArray:
        """BLEU of summed rows, times 100."""
        return 100.0 * super().score(sums)

    def segment_scores(self, rows: FloatArray) -> FloatArray:
        """Sentence BLEU, times 100."""
        return 100.0 * super().segment_scores(rows)

    def signature(self) -> str:
        """BLEU's, with the scale: a file of 0-100 scores must not pass for one of 0-1."""
        return f"{super().signature()}[scale=100]"


class MBleuPercent(MBleu):
    """M-BLEU times 100."""

    scale: ClassVar[str] = "0-100"

    def score(self, sums: FloatArray) -> FloatArray:
        """M-BLEU of summed rows, times 100."""
        return 100.0 * super().score(sums)

    def signature(self) -> str:
        """M-BLEU's, with the scale."""
        return f"{super().signature()}[scale=100]"


_PERCENT: Mapping[type[Metric], type[Metric]] = {Bleu: BleuPercent, MBleu: MBleuPercent}
SCALED_METRICS = frozenset(metric.name for metric in _PERCENT)
"""The metrics the scale applies to."""


def check_scale(scale: int) -> int:
    """``scale`` if it is one of :data:`SCALES`, else a ValueError saying which are."""
    if scale not in SCALES:
        raise ValueError(f"the BLEU scale must be 1 or 100, not {scale!r}")
    return scale


def on_scale(result: AnalysisResult, scale: int) -> AnalysisResult:
    """``result`` with BLEU and M-BLEU on the 0-``scale`` scale (``result`` itself for 1)."""
    if check_scale(scale) == 1:
        return result
    statistics = scaled_statistics(result.statistics)
    factors = {m.name: 100.0 for m in result.statistics.metrics if type(m) in _PERCENT}
    if not factors:
        return result
    bootstrap = scaled_bootstrap(result.bootstrap, factors)
    signature = bootstrap.signature.replace(
        result.statistics.signature(), statistics.signature(), 1
    )
    bootstrap = replace(bootstrap, signature=signature)
    return replace(result, statistics=statistics, bootstrap=bootstrap)


def scaled_statistics(statistics: Statistics) -> Statistics:
    """The same statistics, with BLEU and M-BLEU scoring on the 0-100 scale."""
    metrics = tuple(_on_percent(m) for m in statistics.metrics)
    return statistics.with_metrics(metrics)  # the same rows: their totals are kept


def _on_percent(metric: Metric) -> Metric:
    """``metric`` on the 0-100 scale, with its options (its order and smoothing), if it is
    BLEU or M-BLEU; else ``metric`` itself."""
    if type(metric) is Bleu:
        return BleuPercent(**metric.options())
    if type(metric) is MBleu:
        return MBleuPercent(**metric.options())
    return metric


def scaled_scores(
    scores: Mapping[tuple[str, str], FloatArray], scale: int
) -> dict[tuple[str, str], FloatArray]:
    """Resample scores by (system, metric), as a run in progress reports them, on the scale."""
    factor = float(check_scale(scale))
    return {
        key: values * factor if key[1] in SCALED_METRICS else values
        for key, values in scores.items()
    }


def scaled_bootstrap(bootstrap: BootstrapResult, factors: Mapping[str, float]) -> BootstrapResult:
    """``bootstrap`` with the scores of each metric in ``factors`` multiplied by its factor
    (its signature is left to the caller, who knows the statistics' new one)."""
    return replace(
        bootstrap,
        intervals=tuple(_interval(i, factors.get(i.metric, 1.0)) for i in bootstrap.intervals),
        pairs=tuple(_pair(p, factors.get(p.metric, 1.0)) for p in bootstrap.pairs),
        rankings=tuple(_ranking(r, factors.get(r.metric, 1.0)) for r in bootstrap.rankings),
    )


def _interval(interval: ScoreInterval, factor: float) -> ScoreInterval:
    if factor == 1.0:
        return interval
    return replace(
        interval,
        score=interval.score * factor,
        median=interval.median * factor,
        mean=interval.mean * factor,
        std=interval.std * factor,
        ci_low=interval.ci_low * factor,
        ci_high=interval.ci_high * factor,
        samples=np.asarray(interval.samples, dtype=np.float64) * factor,
    )


def _pair(pair: PairComparison, factor: float) -> PairComparison:
    if factor == 1.0:
        return pair
    scaled = {  # the optional figures in the metric's units, where present
        key: value * factor
        for key in ("ci_low_uncorrected", "ci_high_uncorrected", "mdd", "margin")
        if (value := getattr(pair, key)) is not None
    }
    return replace(
        pair,
        delta=pair.delta * factor,
        ci_low=pair.ci_low * factor,
        ci_high=pair.ci_high * factor,
        **scaled,
    )


def _ranking(ranking: Ranking, factor: float) -> Ranking:
    if factor == 1.0:
        return ranking
    systems = tuple(replace(entry, score=entry.score * factor) for entry in ranking.systems)
    return replace(ranking, systems=systems)
