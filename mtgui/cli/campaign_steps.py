"""A campaign file run as a generator of progress, for the window's worker thread.

The window cannot import the command line (the layers in pyproject.toml), so the launcher
hands it :func:`campaign_steps` for the campaign files it opens; the window runs it as it runs
analyses (:class:`~mtgui.app.runs.RunController`). The file and its sets' inputs are read as
``mtgui campaign`` reads them (:func:`~mtgui.cli.campaign.campaign_inputs`), then the engine's
campaign driver (:func:`~mtgui.engine.campaign.iter_campaign`) runs them, so the numbers are
the command line's, to the bit, and a cancel takes effect within a set. No child process is
forked (other threads run in the window).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from mtgui.cli.campaign import campaign_inputs, set_analyses
from mtgui.cli.campaign_file import CampaignSpec, campaign_input_paths, read_campaign
from mtgui.cli.main import load_inputs
from mtgui.engine.campaign import CampaignProgress, iter_campaign
from mtgui.report.campaign_run import CampaignOutcome


def campaign_steps(path: Path) -> Generator[CampaignProgress, None, CampaignOutcome]:
    """Read the campaign file and its sets' files, analyse the sets one by one (with their
    progress), then aggregate. Bad input raises :class:`~mtgui.engine.core.InputError` with
    the file and the line, as on the command line."""
    spec = read_campaign(path)
    total = len(spec.test_sets)
    yield CampaignProgress(0, total, spec.test_sets[0].name)
    inputs, settings = campaign_inputs(spec, load_inputs)
    found = yield from iter_campaign(inputs, settings, fork=False)
    analyses = set_analyses(found)
    return CampaignOutcome(
        spec.path,
        spec.settings,
        tuple((a.name, a.report) for a in analyses),
        found.aggregate,
        _inputs(spec),
    )


def _inputs(spec: CampaignSpec) -> tuple[Path, ...]:
    """The files the campaign reads, scores files among them (an export never replaces
    them), as the command line checks its outputs against."""
    return campaign_input_paths(spec).paths()
