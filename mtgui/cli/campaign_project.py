"""A campaign file as the window opens it: one tab of inputs per ``[[test_sets]]``, the
window's settings from ``[settings]``.

The window cannot import the command line (the layers in pyproject.toml), so the launcher
hands it :func:`campaign_project` (:func:`~mtgui.app.campaign.provide_campaign_reader`). The
file is read and checked as ``mtgui campaign`` reads it, and each set's options as ``mtgui
eval`` takes them; the window then reads the files itself, as it reads dropped ones. A file
whose sets or settings the window's tabs cannot hold as they are (scores given by spec, systems
renamed by ``names``, or settings the window has no control for: ``bootstrap = 0``, a level
with more than three decimals, ``paired-ar`` with another number of trials,
``no-raise-resamples``, ``nist-formula``) gives None: the window runs it in a campaign window
of its own instead, so that its numbers are still the command line's.
"""

from __future__ import annotations

from pathlib import Path

from mtgui.cli.campaign_file import TestSetSpec, read_campaign, set_arguments
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import CommandSettings, command_settings
from mtgui.engine.core import Role
from mtgui.engine.resampling import AR_TRIALS
from mtgui.io.entries import LoadRequest
from mtgui.report.campaign_run import CampaignProject


def campaign_project(path: Path) -> CampaignProject | None:
    """The campaign file at ``path`` as test sets and settings for the window's tabs, or None
    if the tabs cannot hold it as it is (see the module docstring).

    Raises
    ------
    InputError
        If the file is not a campaign file mtgui reads (the file, the line, what is wrong).
    """
    spec = read_campaign(path)
    sets = []
    chosen: CommandSettings | None = None
    for test_set in spec.test_sets:
        if test_set.scores or test_set.names:
            return None
        args = set_arguments(spec, test_set)
        chosen = command_settings(args, metric_names(args))
        if not window_holds(chosen):
            return None
        sets.append((test_set.name, set_requests(test_set)))
    assert chosen is not None  # a campaign file has a test set (read_campaign)
    return CampaignProject(spec.path, chosen.analysis, chosen.bleu_scale, tuple(sets))


def window_holds(chosen: CommandSettings) -> bool:
    """Whether the window's settings give exactly these settings' numbers."""
    return (
        chosen.bootstrap
        and chosen.level == chosen.analysis.level
        and chosen.ar_trials in (0, AR_TRIALS)
        and chosen.raise_resamples
        and not chosen.nist_formula
    )


def set_requests(test_set: TestSetSpec) -> tuple[LoadRequest, ...]:
    """The files of one test set, each with the role the campaign file gives it."""
    requests = [LoadRequest(p, Role.REFERENCE) for p in test_set.refs]
    requests += [LoadRequest(p, Role.SYSTEM) for p in test_set.hyps]
    if test_set.src is not None:
        requests.append(LoadRequest(test_set.src, Role.SOURCE))
    if test_set.docids is not None:
        requests.append(LoadRequest(test_set.docids, Role.DOCUMENT_IDS))
    return tuple(requests)
