"""Campaigns in the window: the campaign of the project's test sets, the code that runs a
campaign file, and which files are campaign files.

A project of several test sets (one tab of inputs each, :mod:`mtgui.app.test_sets`) is a
campaign: :func:`sets_campaign` returns the run for a worker thread, which reads the files of
sets not shown yet (a session's), makes each set's corpus from its files (as its own analysis
does), and runs the engine's campaign driver (:func:`~mtgui.engine.campaign.iter_campaign`),
the same code as ``mtgui campaign``'s, then every set's report. The numbers are those of
``mtgui campaign`` on the same files and settings.

A campaign file (TOML) is read by the command line's code, which the window's layers may not
import; the launcher, above both, hands it over before the window opens (tests do the same):
:func:`provide_campaign_reader` the reading of a file into the window's tabs
(:mod:`mtgui.cli.campaign_project`: one tab per test set, the settings from the file), and
:func:`provide_campaign_steps` the running of a file in a campaign window of its own
(:mod:`mtgui.cli.campaign_steps`), for a file whose sets or settings the tabs cannot hold.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path

from mtgui.app.analysis import loaded_metrics
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.campaign import CampaignInput, CampaignSettings, iter_campaign
from mtgui.engine.core import InputError, Role
from mtgui.io.entries import LoadRequest, read_request
from mtgui.io.workspace import Workspace
from mtgui.report.campaign_run import (
    CampaignOutcome,
    CampaignProgress,
    CampaignProject,
    set_reports,
)

CampaignSteps = Callable[[Path], Generator[CampaignProgress, None, CampaignOutcome]]
"""Runs the campaign in a file: yields progress, returns the outcome (raises InputError)."""

CampaignRun = Callable[[], Generator[CampaignProgress, None, CampaignOutcome]]
"""A campaign ready to run on a worker thread."""

_provided: list[CampaignSteps] = []


CampaignReader = Callable[[Path], CampaignProject | None]
"""Reads a campaign file for the window's tabs (None: the tabs cannot hold it as it is, and it
runs in a campaign window); raises InputError with the file and the line."""

_readers: list[CampaignReader] = []


def provide_campaign_reader(reader: CampaignReader) -> None:
    """Give the window the code that reads a campaign file into tabs (the launcher calls
    this; without it, campaign files open in a campaign window)."""
    _readers[:] = [reader]


def campaign_reader() -> CampaignReader | None:
    """The code that reads a campaign file into tabs, if the launcher gave it."""
    return _readers[0] if _readers else None


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


@dataclass(frozen=True)
class SetFiles:
    """One test set of the window: its name, its files, and those still to read (a set of a
    session whose tab was never shown)."""

    name: str
    workspace: Workspace
    pending: tuple[LoadRequest, ...] = ()

    def may_compare(self) -> bool:
        """Whether this set takes part in the campaign: it holds a reference and a system, or
        it has files still to read (said once they are)."""
        return bool(self.pending) or holds_systems(self.workspace)

    def read(self) -> Workspace:
        """The workspace with the files still to read read (on a worker thread)."""
        if not self.pending:
            return self.workspace
        return self.workspace.with_entries(map(read_request, self.pending))


def holds_systems(workspace: Workspace) -> bool:
    """Whether a test set has what an analysis needs: a reference and a system."""
    roles = {entry.role for entry in workspace.entries if entry.ok and not entry.reading}
    return Role.REFERENCE in roles and Role.SYSTEM in roles


def campaign_sets(sets: Sequence[SetFiles]) -> list[SetFiles]:
    """The test sets that take part in the campaign (an empty tab is left out).

    Raises
    ------
    InputError
        If fewer than two sets hold a reference and a system, or a set's files are being
        read (the campaign runs again once they are).
    """
    for one in sets:
        if any(entry.reading for entry in one.workspace.entries):
            raise InputError(f"the files of the test set '{one.name}' are being read.")
    chosen = [one for one in sets if one.may_compare()]
    if len(chosen) < 2:
        raise InputError(
            "a campaign needs two test sets holding a reference and a system.",
            hint="Add a test set with the + beside the test sets' tabs.",
        )
    return chosen


def sets_campaign(
    sets: Sequence[SetFiles],
    settings: AnalysisSettings,
    bleu_scale: int,
    title: str,
    path: Path,
) -> CampaignRun:
    """The campaign of ``sets`` with ``settings``, ready for a worker thread, which reads the
    files still to read, makes each set's corpus (as its own analysis does) and runs the
    engine's campaign driver; ``title`` names it in its report, ``path`` is the project's file
    (or any path). A set's files that cannot be analysed are an
    :class:`~mtgui.engine.core.InputError` said of that set.

    Raises
    ------
    InputError
        If the settings cannot run (before anything is started).
    """
    shared = CampaignSettings(
        settings.metrics, settings.metric_settings(), settings.bootstrap_settings(), bleu_scale
    )
    words = settings_words(settings, bleu_scale)

    def run() -> Generator[CampaignProgress, None, CampaignOutcome]:
        inputs, paths = [], []
        for index, one in enumerate(sets):
            yield CampaignProgress(index, len(sets), one.name)
            workspace = one.read()
            paths += [entry.path for entry in workspace.entries]
            try:
                corpus = workspace.corpus()
                metrics, _ = loaded_metrics(settings.metrics, corpus)
            except InputError as error:
                raise InputError(f"test set '{one.name}': {error.message}") from None
            inputs.append(CampaignInput(one.name, corpus, metrics=metrics))
        found = yield from iter_campaign(inputs, shared)
        reports = set_reports(found)
        return CampaignOutcome(path, words, reports, found.aggregate, tuple(paths), title)

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
