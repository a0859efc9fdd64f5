"""Campaigns in the window: where the window finds the code that runs one, and which files
are campaign files.

A campaign is run by the command line's code (:mod:`mtgui.cli.campaign_steps`), which the
window's layers may not import; the launcher, above both, hands it over with
:func:`provide_campaign_steps` before the window opens (tests do the same). The window then
runs it on a worker thread through :class:`~mtgui.app.runs.RunController`, as an analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path

from mtgui.report.campaign_run import CampaignOutcome, CampaignProgress

CampaignSteps = Callable[[Path], Generator[CampaignProgress, None, CampaignOutcome]]
"""Runs the campaign in a file: yields progress, returns the outcome (raises InputError)."""

_provided: list[CampaignSteps] = []


def provide_campaign_steps(steps: CampaignSteps) -> None:
    """Give the window the code that runs a campaign (the launcher calls this)."""
    _provided[:] = [steps]


def campaign_steps() -> CampaignSteps | None:
    """The code that runs a campaign, if the launcher gave it (else the window offers none)."""
    return _provided[0] if _provided else None


def is_campaign_file(path: Path) -> bool:
    """Whether ``path`` is opened as a campaign: a ``.toml`` file (the window reads no other
    TOML). Its contents are not judged here: opening it says what is wrong, with the line."""
    return path.suffix.lower() == ".toml"
