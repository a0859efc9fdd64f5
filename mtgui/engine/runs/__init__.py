"""Systems trained several times (MultEval's runs): each system's mean over its runs with
their spread, and comparisons by the two-level bootstrap and stratified randomization.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.runs.analysis import RunsResult, all_groups, analyse_runs, check_groups
    from mtgui.engine.runs.randomization import stratified_randomization
    from mtgui.engine.runs.two_level import (
        RunGroup,
        RunSummary,
        TwoLevel,
        draw_runs,
        summarize_runs,
        two_level,
        welch_factor,
    )

_MODULE_OF = {
    **dict.fromkeys(("RunsResult", "all_groups", "analyse_runs", "check_groups"), "analysis"),
    "stratified_randomization": "randomization",
    **dict.fromkeys(
        (
            "RunGroup",
            "RunSummary",
            "TwoLevel",
            "draw_runs",
            "summarize_runs",
            "two_level",
            "welch_factor",
        ),
        "two_level",
    ),
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "RunGroup",
    "RunSummary",
    "RunsResult",
    "TwoLevel",
    "all_groups",
    "analyse_runs",
    "check_groups",
    "draw_runs",
    "stratified_randomization",
    "summarize_runs",
    "two_level",
    "welch_factor",
]

__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
