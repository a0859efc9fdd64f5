"""The runs' part of the reports: each system over its runs (mean, ``sd_runs``, ``s_sel``,
two-level interval) and the pairs of such systems (two-level bootstrap and stratified
randomization), as JSON, CSV, terminal text and an HTML section.

JSON: ``"runs": {"systems": [{"name", "runs": [run names], "scores": {metric: {"score",
"runs": [each run's score], "sd_runs", "s_sel", "ci_low", "ci_high"}}}], "pairs": [{"metric",
"x", "y", "delta", "ci_low", "ci_high", "p_value", "p_value_ar", "verdict", ...}], "notes"}``.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from mtgui.engine.inference import PAIR_FIELDS
from mtgui.report.cells import four_decimals, json_ready
from mtgui.report.html_table import html_table
from mtgui.report.table_text import align_table

if TYPE_CHECKING:
    from mtgui.engine.runs import RunsResult

RUN_SCORE_COLUMNS = ["system", "metric", "runs", "score", "sd_runs", "s_sel", "ci_low", "ci_high"]
RUN_PAIR_COLUMNS = ["metric", "x", "y", "delta", "ci_low", "ci_high", "p_value", "p_value_ar"]
RUNS_CSV = ("runs.csv", "run_pairs.csv")
"""The CSV files of the runs (with --csv)."""


def runs_report(runs: RunsResult) -> dict[str, Any]:
    """The runs' part of the JSON report."""
    metrics = list(dict.fromkeys(s.metric for s in runs.summaries))
    systems = []
    for group in runs.groups:
        scores = {}
        for metric in metrics:
            found = runs.summary(group.name, metric)
            scores[metric] = {
                "score": found.score,
                "runs": list(found.runs),
                "sd_runs": found.sd_runs,
                "s_sel": found.s_sel,
                "ci_low": found.ci_low,
                "ci_high": found.ci_high,
            }
        systems.append({"name": group.name, "runs": list(group.runs), "scores": scores})
    pairs = [
        {
            **{name: getattr(pair, name) for name in PAIR_FIELDS},
            "p_value_ar": pair.p_value_ar,
            "p_corrected": pair.p_corrected,
        }
        for pair in runs.pairs
    ]
    result = {"systems": systems, "pairs": pairs, "notes": list(runs.notes)}
    return dict(json_ready(result))


def runs_tables(runs: RunsResult) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """The CSV tables of the runs: per system and metric, and per pair."""
    scores = [
        [s.system, s.metric, len(s.runs), s.score, s.sd_runs, s.s_sel, s.ci_low, s.ci_high]
        for s in runs.summaries
    ]
    pairs = [
        [p.metric, p.x, p.y, p.delta, p.ci_low, p.ci_high, _deciding(p), p.p_value_ar]
        for p in runs.pairs
    ]
    return {RUNS_CSV[0]: (RUN_SCORE_COLUMNS, scores), RUNS_CSV[1]: (RUN_PAIR_COLUMNS, pairs)}


def _deciding(pair: Any) -> float:
    """The p-value the verdict follows (the corrected one under a correction)."""
    corrected = pair.p_corrected
    return float(pair.p_value if corrected is None else corrected)


def _rows(runs: RunsResult) -> tuple[list[list[str]], list[list[str]]]:
    """The systems' and the pairs' table rows, as text."""
    systems = [
        [
            s.system,
            s.metric,
            str(len(s.runs)),
            four_decimals(s.score),
            four_decimals(s.sd_runs),
            four_decimals(s.s_sel),
            f"[{four_decimals(s.ci_low)}, {four_decimals(s.ci_high)}]",
        ]
        for s in runs.summaries
    ]
    pairs = [
        [
            p.metric,
            p.x,
            p.y,
            four_decimals(p.delta, signed=True),
            f"[{four_decimals(p.ci_low, True)}, {four_decimals(p.ci_high, True)}]",
            four_decimals(_deciding(p)),
            four_decimals(p.p_value_ar),
            p.verdict,
        ]
        for p in runs.pairs
        if _first(runs, p.x, p.y)
    ]
    return systems, pairs


def _first(runs: RunsResult, x: str, y: str) -> bool:
    """Whether x comes before y among the systems (each unordered pair shown once)."""
    names = [g.name for g in runs.groups]
    return names.index(x) < names.index(y)


SYSTEM_HEADER = ["system", "metric", "runs", "mean", "sd_runs", "s_sel", "interval"]
PAIR_HEADER = ["metric", "x", "y", "delta", "interval", "p", "p (AR)", "verdict"]


def runs_text(runs: RunsResult) -> str:
    """The runs' tables for the terminal."""
    systems, pairs = _rows(runs)
    parts = [
        "\n\nSystems over their runs (mean of the runs; sd_runs across runs; s_sel: mean "
        "bootstrap sd within a run; two-level bootstrap interval):",
        align_table([SYSTEM_HEADER, *systems]),
        "\nPairs over runs (two-level bootstrap; p (AR): randomization stratified over runs):",
        align_table([PAIR_HEADER, *pairs]),
    ]
    parts += [f"Note: {note}" for note in runs.notes]
    return "\n".join(parts)


def runs_html(runs: RunsResult) -> str:
    """The runs' section of the HTML report."""
    systems, pairs = _rows(runs)

    notes = "".join(f"<p>{escape(note)}</p>" for note in runs.notes)
    return (
        '<section id="runs"><h2>Systems over their runs</h2>'
        "<p>A system trained several times scores the mean of its runs' scores; sd_runs is "
        "the standard deviation of the runs' scores, s_sel the mean within-run bootstrap "
        "standard deviation (MultEval's). Intervals and pairs come from a two-level bootstrap "
        "(the same segments for all, and a draw of each system's seed luck from the runs' "
        "spread less their segment noise), widened by Student's t for the few runs; p (AR) is "
        "approximate randomization stratified over runs, which varies the segments only, not "
        "the seeds.</p>"
        f"{html_table(SYSTEM_HEADER, systems, 2)}<h3>Pairs</h3>"
        f"{html_table(PAIR_HEADER, pairs, 3, words=1)}"
        f"{notes}</section>"
    )
