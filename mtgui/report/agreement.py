"""How often humans would agree with a pair's delta (Kocmi et al. 2024), for every output.

The engine's :func:`~mtgui.engine.inference.agreement_for` needs the metric, its settings and
the systems' scores (which say the scale of loaded COMET-like scores); a finished analysis has
them all in its statistics, so the JSON, the HTML report and the window ask here.
"""

from __future__ import annotations

from mtgui.engine.inference import HumanAgreement, agreement_for, agreement_words
from mtgui.engine.statistics import Statistics


def metric_agreement(statistics: Statistics, metric: str) -> HumanAgreement | None:
    """The fit for ``metric`` as ``statistics`` scored it, or None where there is none."""
    scores = (statistics.score(system, metric) for system in statistics.system_names)
    return agreement_for(statistics.metric(metric), statistics.settings, scores)


def agreement_sentence(agreement: HumanAgreement | None, delta: float) -> str:
    """ "Humans would agree with this difference about 64% of the time (Kocmi et al. 2024)."
    with what was assumed, or "" where the metric has no fit or the delta is not a number."""
    share = None if agreement is None else agreement.of(delta)
    if agreement is None or share is None:
        return ""
    words = agreement_words(share)
    assumed = "; ".join(agreement.assumptions)
    return f"{words[0].upper()}{words[1:]}" + (f"; {assumed}." if assumed else ".")
