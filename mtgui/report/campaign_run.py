"""A campaign run as the window receives it: every set's eval report, the aggregate, and the
pieces the HTML report is made of.

It sits below both front ends: the command line's campaign code makes it for a campaign file
(on the window's worker thread, :mod:`mtgui.cli.campaign_steps`), the window for its own test
sets (:mod:`mtgui.app.campaign`), the window shows it and exports its report
(:mod:`mtgui.views.results.campaign_view`); neither computes anything of its own from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.campaign import Aggregate, CampaignFound
from mtgui.engine.campaign import CampaignProgress as CampaignProgress
from mtgui.io.entries import LoadRequest
from mtgui.report.campaign import campaign_html
from mtgui.report.evaluation import evaluation_report


@dataclass(frozen=True)
class CampaignProject:
    """A campaign file as the window's tabs hold it: its test sets (name, files to read with
    their roles) and its settings (with BLEU's scale). The command line's code reads it
    (:mod:`mtgui.cli.campaign_project`), the window opens it (:mod:`mtgui.app.campaign`)."""

    path: Path
    settings: AnalysisSettings
    bleu_scale: int
    sets: tuple[tuple[str, tuple[LoadRequest, ...]], ...]


@dataclass(frozen=True)
class CampaignOutcome:
    """A finished campaign: its file, its settings (eval's options), every set's eval report
    in the file's order, the aggregate, and the files it read (never written over)."""

    path: Path
    settings: tuple[str, ...]
    sets: tuple[tuple[str, dict[str, Any]], ...]
    aggregate: Aggregate
    inputs: tuple[Path, ...]
    name: str = ""  # the window's test sets: the project's name (there is no campaign file)

    @property
    def title(self) -> str:
        """The campaign's name: its file's, without the suffix (as ``mtgui campaign``'s)."""
        return self.name or self.path.stem

    def metrics(self) -> list[str]:
        """The metrics ranked in any set, in the order the sets give them."""
        return list(dict.fromkeys(m for _, r in self.sets for m in r.get("rankings", {})))

    def systems(self) -> list[str]:
        """Every system, in the order of first appearance."""
        return list(dict.fromkeys(s["name"] for _, r in self.sets for s in r["systems"]))

    def html(self, created: datetime) -> str:
        """The campaign's HTML report, exactly as ``mtgui campaign --html`` writes it."""
        return campaign_html(self.title, self.sets, self.aggregate, self.settings, created)


def set_reports(found: CampaignFound) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Every set's eval report (as ``mtgui eval --json`` writes it), by name, in order."""
    reports = []
    for one in found.sets:
        result = one.result
        reports.append(
            (one.name, evaluation_report(result.corpus, result.statistics, result.bootstrap))
        )
    return tuple(reports)
