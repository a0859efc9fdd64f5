"""A campaign run as a generator of progress, for the window's worker thread.

The window cannot import the command line (the layers in pyproject.toml), so the launcher
hands it :func:`campaign_steps`; the window runs it as it runs analyses
(:class:`~mtgui.app.runs.RunController`), so that a cancel takes effect between two sets. Each
set is analysed by the same code as ``mtgui campaign`` (:func:`~mtgui.cli.campaign.analyse_set`),
and the aggregate has the same seed: the numbers are the command line's, to the bit. No
child process is forked (other threads run in the window).
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from mtgui.cli.campaign import analyse_set
from mtgui.cli.campaign_file import CampaignSpec, campaign_inputs, read_campaign
from mtgui.cli.main import load_inputs
from mtgui.engine.campaign import CampaignSet, aggregate
from mtgui.report.campaign_run import CampaignOutcome, CampaignProgress


def campaign_steps(path: Path) -> Generator[CampaignProgress, None, CampaignOutcome]:
    """Read the campaign file, analyse its sets one by one (a progress snapshot before each),
    then aggregate. Bad input raises :class:`~mtgui.engine.core.InputError` with the file and
    the line, as on the command line."""
    spec = read_campaign(path)
    total = len(spec.test_sets)
    analyses = []
    for index, test_set in enumerate(spec.test_sets):
        yield CampaignProgress(index, total, test_set.name)
        analyses.append(analyse_set(spec, index, load_inputs, fork=False))
    yield CampaignProgress(total, total, "")
    sets = [CampaignSet(a.name, a.bootstrap, a.higher_is_better) for a in analyses]
    found = aggregate(sets, analyses[0].bootstrap.settings.seed)
    return CampaignOutcome(
        spec.path,
        spec.settings,
        tuple((a.name, a.report) for a in analyses),
        found,
        _inputs(spec),
    )


def _inputs(spec: CampaignSpec) -> tuple[Path, ...]:
    """The files the campaign reads, scores files among them (an export never replaces
    them), as the command line checks its outputs against."""
    return campaign_inputs(spec).paths()
