"""Project files from the window: what goes into a ``.mtgui`` archive, and where one opens.

The archive itself is :mod:`mtgui.io.project`'s; this module gathers what the window has (the
files, names and settings as a session; the report and the numbers of the result shown) and
says in words what was written. A project opens into :func:`default_projects_folder`, one
folder per project under the user's data folder, so that it needs no path of the machine it
was made on.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from mtgui.engine.analysis import AnalysisResult
from mtgui.io.project import SavedProject, write_project
from mtgui.io.session import Session
from mtgui.io.writers import json_text


def default_projects_folder() -> Path:
    """Where projects open: ``projects`` in the user's data folder for mtgui."""
    location = QStandardPaths.StandardLocation.AppLocalDataLocation
    data = QStandardPaths.writableLocation(location)
    return (Path(data) if data else Path.home() / ".local" / "share" / "mtgui") / "projects"


def save_project(
    path: Path, session: Session, result: AnalysisResult | None, report: str | None = None
) -> SavedProject:
    """Write the project of ``session`` (what is loaded: every test set) to ``path`` (the
    user agreed to replace it), with the report and the numbers of ``result`` when there is
    one; ``report`` is the report to put in its place (a campaign's, of several test sets).

    Raises
    ------
    InputError
        If ``path`` is one of the loaded files, or cannot be written.
    """
    from mtgui.report.evaluation import evaluation_report
    from mtgui.report.html_report import html_report

    page, results = report, None
    if result is not None:
        created = datetime.now().astimezone()
        if page is None:
            page = html_report(result.corpus, result.statistics, result.bootstrap, created)
        results = json_text(evaluation_report(result.corpus, result.statistics, result.bootstrap))
    return write_project(path, session, page, results)


def saved_text(saved: SavedProject) -> str:
    """The status line after saving: where, how many files, and any left out."""
    text = f"Saved the project as {saved.path} ({saved.files:,} files)."
    if saved.left_out:
        names = ", ".join(saved.left_out[:3]) + (", ..." if len(saved.left_out) > 3 else "")
        text += f" Left out, as they cannot be read now: {names}."
    return text
