"""mtgui: tells whether one machine-translation system is really better than another.

The Python API is :func:`evaluate` (score, bootstrap and compare, as ``mtgui eval`` does),
:func:`read` (the inputs as one aligned corpus), see :mod:`mtgui.api`, and :func:`campaign`
(a campaign file's report, as ``mtgui campaign --json`` writes it). They are loaded on first
use, so that ``import mtgui`` stays light for the command line and the window.

The package is split so that everything that computes lives in :mod:`mtgui.engine` and
:mod:`mtgui.io` (pure Python and numpy, no Qt) and the desktop application in
:mod:`mtgui.views` and :mod:`mtgui.views.window.launch` only shows what the engine produced.
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Any

from mtgui._version import __version__

if TYPE_CHECKING:
    from mtgui.api import Comparison, Evaluation, Progress, evaluate, read

__all__ = ["Comparison", "Evaluation", "Progress", "__version__", "campaign", "evaluate", "read"]
_API = ("Comparison", "Evaluation", "Progress", "evaluate", "read")


def campaign(path: str | PathLike[str]) -> dict[str, Any]:
    """Run the campaign file at ``path`` (TOML, as ``mtgui campaign`` reads it) and return its
    report: the dict ``mtgui campaign --json`` writes, every set's eval report under
    ``"test_sets"`` and the aggregate of every pair under ``"aggregate"``, the same numbers.

    It runs the command line's own campaign code (the API's layer may not import the command
    line, this package's top may), in this process, set after set.

    Raises
    ------
    InputError
        A bad campaign file or input, with the file and the line, as the command line says it.
    """
    from pathlib import Path

    from mtgui.cli.campaign_steps import campaign_steps
    from mtgui.report.campaign import campaign_report

    run = campaign_steps(Path(path))
    while True:
        try:
            next(run)
        except StopIteration as finished:
            outcome = finished.value
            break
    return campaign_report(str(outcome.path), outcome.settings, outcome.sets, outcome.aggregate)


def __getattr__(name: str) -> Any:
    """The API's names, imported from :mod:`mtgui.api` when first asked for."""
    if name in _API:
        from mtgui import api

        return getattr(api, name)
    raise AttributeError(f"module 'mtgui' has no attribute '{name}'")
