"""Campaigns: many test sets analysed each as one, then their verdicts combined per pair of
systems (counts of sets, a stratified bootstrap over the sets, Dror et al.'s partial
conjunction), and the driver that runs a whole campaign (:mod:`~mtgui.engine.campaign.run`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.campaign.combined import (
        Aggregate,
        AggregatePair,
        CampaignSet,
        aggregate,
        one_sided_p,
    )
    from mtgui.engine.campaign.partial import PartialConjunction, partial_conjunction
    from mtgui.engine.campaign.run import (
        CampaignFound,
        CampaignInput,
        CampaignProgress,
        CampaignSettings,
        SetAnalysed,
        iter_campaign,
    )

_MODULE_OF = {
    **dict.fromkeys(
        ("Aggregate", "AggregatePair", "CampaignSet", "aggregate", "one_sided_p"), "combined"
    ),
    **dict.fromkeys(("PartialConjunction", "partial_conjunction"), "partial"),
    **dict.fromkeys(
        (
            "CampaignFound",
            "CampaignInput",
            "CampaignProgress",
            "CampaignSettings",
            "SetAnalysed",
            "iter_campaign",
        ),
        "run",
    ),
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "Aggregate",
    "AggregatePair",
    "CampaignFound",
    "CampaignInput",
    "CampaignProgress",
    "CampaignSet",
    "CampaignSettings",
    "PartialConjunction",
    "SetAnalysed",
    "aggregate",
    "iter_campaign",
    "one_sided_p",
    "partial_conjunction",
]

__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
