"""Campaigns in the window: the campaign of the project's test sets, the code that runs a
campaign file, and which files are campaign files.

A project of several test sets (one tab of inputs each, :mod:`mtgui.app.test_sets`) is a
campaign: :func:`sets_campaign` makes, on the GUI thread, each set's corpus from its files
(as its own analysis does) and the shared settings, and returns the run for a worker thread:
the engine's campaign driver (:func:`~mtgui.engine.campaign.iter_campaign`), the same code as
``mtgui campaign``'s, then every set's report. The numbers are those of ``mtgui campaign`` on
the same files and settings.

A campaign file (TOML) is read by the command line's code (:mod:`mtgui.cli.campaign_steps`),
which the window's layers may not import; the launcher, above both, hands it over with
:func:`provide_campaign_steps` before the window opens (tests do the same). The window then
runs it on a worker thread through :class:`~mtgui.app.runs.RunController`, as an analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from pathlib import Path

from mtgui.app.analysis import loaded_metrics
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.campaign import CampaignInput, CampaignSettings, iter_campaign
from mtgui.engine.core import InputError, Role
from mtgui.io.workspace import Workspace
from mtgui.report.campaign_run import CampaignOutcome, CampaignProgress, set_reports

CampaignSteps = Callable[[Path], Generator[CampaignProgress, None, CampaignOutcome]]
"""Runs the campaign in a file: yields progress, returns the outcome (raises InputError)."""

CampaignRun = Callable[[], Generator[CampaignProgress, None, CampaignOutcome]]
"""A campaign ready to run on a worker thread."""

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


def holds_systems(workspace: Workspace) -> bool:
    """Whether a test set has what an analysis needs: a reference and a system."""
    roles = {entry.role for entry in workspace.entries if not entry.problem}
    return Role.REFERENCE in roles and Role.SYSTEM in roles


def campaign_sets(sets: Sequence[tuple[str, Workspace, bool]]) -> list[tuple[str, Workspace]]:
    """The test sets that take part in the campaign: those holding a reference and a system
    (an empty tab is left out). Sets whose files are still to be read are an error.

    Raises
    ------
    InputError
        Naming the first set whose files are still being read or not read yet.
    """
    for name, _, unread in sets:
        if unread:
            raise InputError(
                f"the files of the test set '{name}' are not all read yet.",
                hint="Show its tab (its files are read then), or wait until they are.",
            )
    return [(name, workspace) for name, workspace, _ in sets if holds_systems(workspace)]


def sets_campaign(
    sets: Sequence[tuple[str, Workspace]],
    settings: AnalysisSettings,
    bleu_scale: int,
    title: str,
    path: Path,
) -> CampaignRun:
    """The campaign of ``sets`` (name, files) with ``settings``, ready for a worker thread;
    ``title`` names it in its report, ``path`` is the project's file (or any path).

    Raises
    ------
    InputError
        If a set's files cannot be analysed (said of that set), or the settings cannot run.
    """
    inputs = []
    for name, workspace in sets:
        try:
            corpus = workspace.corpus()
            metrics, _ = loaded_metrics(settings.metrics, corpus)
        except InputError as error:
            raise InputError(f"test set '{name}': {error.message}") from None
        inputs.append(CampaignInput(name, corpus, metrics=metrics))
    shared = CampaignSettings(
        settings.metrics, settings.metric_settings(), settings.bootstrap_settings(), bleu_scale
    )
    words = settings_words(settings, bleu_scale)
    paths = tuple(e.path for _, w in sets for e in w.entries)

    def run() -> Generator[CampaignProgress, None, CampaignOutcome]:
        found = yield from iter_campaign(inputs, shared)
        return CampaignOutcome(path, words, set_reports(found), found.aggregate, paths, title)

    return run


def settings_words(settings: AnalysisSettings, bleu_scale: int) -> tuple[str, ...]:
    """The settings as the campaign report names them: the metrics, then every setting that
    is not its default, as ``name=value``."""
    values = settings.to_dict()
    defaults = AnalysisSettings().to_dict()
    words = [f"metrics={','.join(settings.metrics)}"]
    for key, value in values.items():
        if key != "metrics" and defaults.get(key) != value:
            words.append(f"{key}={value}")
    if bleu_scale != 1:
        words.append(f"bleu_scale={bleu_scale}")
    return tuple(words)
