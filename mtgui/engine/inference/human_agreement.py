"""What a metric delta means to humans: how often they would agree with it (Kocmi et al. 2024).

A difference of 0.8 BLEU says little to a reader until it is said how often humans rank the two
systems the same way. Kocmi, Zouhar, Federmann and Post (2024, "Navigating the Metrics Maze:
Reconciling Score Magnitudes and Accuracies", ACL, https://aclanthology.org/2024.acl-long.110)
fitted, per metric, the share of WMT system pairs whose human ranking agrees with a
system-level metric delta of a given size: ``accuracy(d) = a / (1 + exp(-b d))`` in percent,
``d`` in the metric's points (BLEU and chrF 0-100; COMET-family and BLEURT scores times 100).
Their published ``(a, b)`` are facts carried over here; the code is ours.

The estimate describes the WMT pairs the curve was fitted on, not this test set: it is a
reading aid beside the delta and its test, never a test itself. It depends only on the size of
the delta (``|d|``), and is shown only for a metric they calibrated, computed as they computed
it: cased, as their fits were made (sacreBLEU's defaults); mtgui's BLEU with the default 13a
tokenizer (their ``bleu``) or with ``flores200`` (``spBLEU200``), four orders, smoothed as
sacreBLEU's default ``exp`` or mtgui's ``mteval`` (the same corpus BLEU wherever every order
has a match, as on any real test set); chrF with sacreBLEU's defaults (not chrF++); and loaded
scores named after a COMET or BLEURT model they calibrated (:data:`ALIASES`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.external import ExternalScores
from mtgui.engine.metrics.sacrebleu_options import BLEU_ORDER, MTEVAL
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.settings import DEFAULT_TOKENIZER, Case

CALIBRATED_SMOOTHING: Final = (MTEVAL, "exp")
"""BLEU smoothings whose corpus BLEU is sacreBLEU's default, on which the fits were made."""

AGREEMENT_PAPER: Final = (
    "Kocmi, Zouhar, Federmann and Post (2024), Navigating the Metrics Maze: Reconciling Score "
    "Magnitudes and Accuracies, ACL 2024"
)
"""The paper, without its address (a report that must fetch nothing names it so)."""

AGREEMENT_CAVEAT: Final = (
    "a sigmoid fitted on WMT system pairs, an estimate, not a property of this test set"
)
"""What the estimate is, in words."""

HUMAN_AGREEMENT_SOURCE: Final = (
    f"{AGREEMENT_PAPER}, https://aclanthology.org/2024.acl-long.110: {AGREEMENT_CAVEAT}"
)
"""Where the estimate comes from and what it is, in words (JSON ``human_agreement_source``)."""

CITATION: Final = "Kocmi et al. 2024"
"""The short citation shown beside an estimate."""

UNIT_BOUND: Final = 1.5
"""Loaded COMET-like scores are read as 0-1 scores (and multiplied by 100) when every system's
score lies within [-UNIT_BOUND, UNIT_BOUND]; otherwise as already on the 0-100 scale."""


@dataclass(frozen=True)
class AgreementFit:
    """One metric's fitted curve: ``a`` in percent (the accuracy it tends to), ``b`` per point."""

    name: str  # the metric's name in the paper's tool ("bleu", "comet22")
    label: str  # how people write it ("BLEU", "COMET-22")
    a: float
    b: float

    def accuracy(self, delta: float) -> float:
        """The estimated share (0-1) of humans agreeing with a delta of ``|delta|`` points."""
        return self.a / 100.0 / (1.0 + math.exp(-self.b * abs(delta)))

    def delta(self, accuracy: float) -> float | None:
        """The delta in points whose estimated accuracy is ``accuracy`` (0-1): the curve
        inverted; None at or above the curve's ceiling ``a`` or at or below 0."""
        ratio = self.a / 100.0 / accuracy if accuracy > 0 else math.inf
        if ratio <= 1.0 or math.isinf(ratio):
            return None
        return -math.log(ratio - 1.0) / self.b


FITS: Final = {
    fit.name: fit
    for fit in (
        AgreementFit("bleu", "BLEU", 88.33333333333225, 0.9663926931178954),
        AgreementFit("chrf", "chrF", 92.999999999972, 1.1142732157139852),
        AgreementFit("spBLEU200", "spBLEU-200", 90.99999999998793, 0.8079046528617078),
        AgreementFit("bleurt-default", "BLEURT (default)", 94.66666666666666, 0.4947232832741672),
        AgreementFit("bleurt-20", "BLEURT-20", 98.33333333332963, 1.3727206190931929),
        AgreementFit("comet20", "COMET-20", 97.33333333332897, 0.7266990738678005),
        AgreementFit("comet22", "COMET-22", 96.22374133884283, 2.8359194570556636),
        AgreementFit("comet21qe", "COMET-21-QE", 93.7997435048193, 43.38413992717536),
        AgreementFit("cometkiwi22", "CometKiwi-22", 98.88141616584615, 2.719280643871758),
        AgreementFit("xcomet-XXL", "XCOMET-XXL", 98.93432477039522, 1.1629533711748128),
    )
}
"""The published fits, by the paper's tool's metric names."""

ALIASES: Final = {
    "comet22": "comet22",
    "comet-22": "comet22",
    "wmt22-comet-da": "comet22",
    "comet": "comet22",
    "comet20": "comet20",
    "comet-20": "comet20",
    "wmt20-comet-da": "comet20",
    "comet21qe": "comet21qe",
    "comet-21-qe": "comet21qe",
    "cometkiwi22": "cometkiwi22",
    "cometkiwi-22": "cometkiwi22",
    "cometkiwi": "cometkiwi22",
    "wmt22-cometkiwi-da": "cometkiwi22",
    "xcomet-xxl": "xcomet-XXL",
    "bleurt-20": "bleurt-20",
    "bleurt20": "bleurt-20",
    "bleurt-default": "bleurt-default",
}
"""Names of loaded scores (lower case, ``_`` read as ``-``) and the fit each is read with."""

PLAIN_COMET: Final = (
    "scores named 'comet' are read as COMET-22 (wmt22-comet-da), COMET's default model since "
    "unbabel-comet 2.0"
)
"""The assumption behind reading loaded ``comet`` scores with COMET-22's fit."""


@dataclass(frozen=True)
class HumanAgreement:
    """A metric's fit, and how to turn the metric's deltas as mtgui shows them into its points."""

    fit: AgreementFit
    factor: float  # the paper's points per unit of the metric as shown (100 for 0-1 scores)
    assumptions: tuple[str, ...] = ()  # what was assumed to match the metric with the fit

    def of(self, delta: float) -> float | None:
        """The estimated share (0-1) of humans agreeing with ``delta`` (None for NaN)."""
        if not math.isfinite(delta):
            return None
        return self.fit.accuracy(delta * self.factor)


def agreement_for(
    metric: Metric, settings: MetricSettings, scores: Iterable[float]
) -> HumanAgreement | None:
    """The fit of ``metric`` scored under ``settings``, or None if Kocmi et al. calibrated no
    metric computed that way. ``scores`` are the systems' scores under the metric, which say
    the scale of loaded scores (see :data:`UNIT_BOUND`)."""
    if isinstance(metric, ExternalScores):
        return _external(metric, scores)
    if settings.case != Case.SENSITIVE:  # their BLEU and chrF are cased
        return None
    if metric.name == "bleu" and _default_bleu(settings):
        name = {DEFAULT_TOKENIZER: "bleu", "flores200": "spBLEU200"}.get(settings.tokenize)
        factor = 1.0 if metric.scale == "0-100" else 100.0
        return None if name is None else HumanAgreement(FITS[name], factor)
    if metric.name == "chrf" and _default_chrf(metric) and _default_chrf_options(settings):
        return HumanAgreement(FITS["chrf"], 1.0)
    return None


def _default_bleu(settings: MetricSettings) -> bool:
    """Whether BLEU is scored with sacreBLEU's defaults but its tokenizer: four orders and
    ``exp`` smoothing or ``mteval``'s, which give the same corpus BLEU wherever every order
    has a match (the score is on summed counts of the whole set)."""
    return (
        settings.bleu_smooth_method in CALIBRATED_SMOOTHING
        and settings.bleu_max_order == BLEU_ORDER
    )


def _default_chrf_options(settings: MetricSettings) -> bool:
    """Whether chrF's other options are sacreBLEU's defaults (no whitespace, no eps)."""
    return not settings.chrf_whitespace and not settings.chrf_eps_smoothing


def _default_chrf(metric: Metric) -> bool:
    """Whether ``metric`` is sacreBLEU's default chrF (chrF2, character order 6, no words)."""
    defaults = {
        "char_order": chrf_options.CHAR_ORDER,
        "word_order": chrf_options.WORD_ORDER,
        "beta": chrf_options.BETA,
    }
    return all(getattr(metric, key, None) == value for key, value in defaults.items())


def _external(metric: ExternalScores, scores: Iterable[float]) -> HumanAgreement | None:
    """The fit of loaded scores named after a calibrated model, on the scale they seem to be."""
    name = ALIASES.get(metric.name.lower().replace("_", "-"))
    finite = [score for score in scores if math.isfinite(score)]
    if name is None or not metric.higher_is_better or not finite:
        return None
    unit = all(abs(score) <= UNIT_BOUND for score in finite)
    scale = (
        f"{metric.name} scores read as 0-1 scores (every system's within "
        f"[-{UNIT_BOUND:g}, {UNIT_BOUND:g}]) and multiplied by 100"
        if unit
        else f"{metric.name} scores read as already multiplied by 100"
    )
    plain = (PLAIN_COMET,) if metric.name.lower() == "comet" else ()
    return HumanAgreement(FITS[name], 100.0 if unit else 1.0, (*plain, scale))


def agreement_words(share: float) -> str:
    """The estimate in words, with its source."""
    return f"humans would agree with this difference about {share:.0%} of the time ({CITATION})"
