"""A campaign's reports: the JSON (each test set's report exactly as ``mtgui eval --json``
writes it, then the aggregate), the CSV tables, the terminal text and one HTML page.

JSON: ``{"mtgui_version", "campaign", "settings": [eval's options], "test_sets": [{"name",
"report": eval's report}], "aggregate": {"resamples", "level", "correction", "family",
"notes", "pairs": [{"metric", "x", "y", "sets", "set_names", "sets_better", "sets_worse",
"mean_delta", "deltas": {set: delta}, "ci_low", "ci_high", "p_value", "p_value_uncorrected",
"verdict", "better_on_at_least", "better_sets", "better_on_at_least_fisher",
"worse_on_at_least", "worse_sets", "worse_on_at_least_fisher"}]}, "notes"}``. ``p_value`` is
the one the verdict follows (corrected under a correction); the counts of sets are Dror et al.'s
partial conjunction (Bonferroni-Holm; Fisher's for independent sets), each direction at
alpha / 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape
from typing import Any

from mtgui._version import __version__
from mtgui.engine.campaign import Aggregate, AggregatePair
from mtgui.engine.core import printable
from mtgui.report.bidi import html_isolated
from mtgui.report.cells import four_decimals, json_ready
from mtgui.report.html_style import STYLE
from mtgui.report.html_table import html_table
from mtgui.report.table_text import align_table

AGGREGATE_COLUMNS = [
    *("metric", "x", "y", "sets", "sets_better", "sets_worse", "mean_delta", "ci_low"),
    *("ci_high", "p_value", "verdict", "better_on_at_least", "worse_on_at_least"),
]


def pair_entry(pair: AggregatePair) -> dict[str, Any]:
    """One pair's aggregate as JSON-ready data."""
    comparison = pair.comparison
    return {
        "metric": pair.metric,
        "x": pair.x,
        "y": pair.y,
        "sets": len(pair.sets),
        "set_names": list(pair.sets),
        "sets_better": pair.sets_better,
        "sets_worse": pair.sets_worse,
        "mean_delta": comparison.delta,
        "deltas": dict(zip(pair.sets, pair.deltas, strict=True)),
        "ci_low": comparison.ci_low,
        "ci_high": comparison.ci_high,
        "p_value": pair.p_value,
        "p_value_uncorrected": comparison.p_value,
        "verdict": comparison.verdict,
        "better_on_at_least": pair.better.at_least,
        "better_sets": [pair.sets[k] for k in pair.better.identified],
        "better_on_at_least_fisher": pair.better.at_least_fisher,
        "worse_on_at_least": pair.worse.at_least,
        "worse_sets": [pair.sets[k] for k in pair.worse.identified],
        "worse_on_at_least_fisher": pair.worse.at_least_fisher,
    }


def aggregate_report(found: Aggregate) -> dict[str, Any]:
    """The aggregate part of the JSON report."""
    return dict(
        json_ready(
            {
                "resamples": found.resamples,
                "level": found.level,
                "correction": found.correction.value,
                "family": found.family.value,
                "notes": list(found.notes),
                "pairs": [pair_entry(p) for p in found.pairs],
            }
        )
    )


def campaign_report(
    path: str, settings: Sequence[str], sets: Sequence[tuple[str, dict[str, Any]]], found: Aggregate
) -> dict[str, Any]:
    """The whole JSON report: each set's eval report, then the aggregate."""
    return {
        "mtgui_version": __version__,
        "campaign": path,
        "settings": list(settings),
        "test_sets": [{"name": name, "report": report} for name, report in sets],
        "aggregate": aggregate_report(found),
        "notes": [*set_notes(sets), *found.notes],
    }


def set_notes(sets: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """Every set's notes, each said once with the sets it concerns."""
    where: dict[str, list[str]] = {}
    for name, report in sets:
        for note in report.get("notes", []):
            where.setdefault(note, []).append(name)
    return [f"{', '.join(names)}: {note}" for note, names in where.items()]


def aggregate_rows(found: Aggregate) -> list[list[Any]]:
    """The aggregate as CSV rows (:data:`AGGREGATE_COLUMNS`)."""
    rows = []
    for pair in found.pairs:
        entry = pair_entry(pair)
        rows.append([entry[c] for c in AGGREGATE_COLUMNS])
    return rows


def _text_rows(found: Aggregate, metric: str) -> list[list[str]]:
    """One metric's aggregate as text rows."""
    rows = []
    for pair in found.pairs:
        if pair.metric != metric:
            continue
        c, n = pair.comparison, len(pair.sets)
        rows.append(
            [
                pair.x,
                pair.y,
                str(n),
                f"{pair.sets_better}/{pair.sets_worse}",
                four_decimals(c.delta, signed=True),
                f"[{four_decimals(c.ci_low, True)}, {four_decimals(c.ci_high, True)}]",
                four_decimals(pair.p_value),
                c.verdict,
                f"{pair.better.at_least}/{n}",
                f"{pair.worse.at_least}/{n}",
            ]
        )
    return rows


TEXT_HEADER = [
    *("x", "y", "sets", "> / <", "mean delta", "interval", "p", "verdict"),
    *("x better on >=", "x worse on >="),
]


def campaign_text(found: Aggregate, sets: Sequence[str]) -> str:
    """The aggregate for the terminal, one table per metric (names made printable: a test
    set's name can hold a terminal's control sequences)."""
    noun = "test set" if len(sets) == 1 else "test sets"
    parts = [
        f"Campaign of {len(sets)} {noun}: {', '.join(printable(s) for s in sets)}.",
        f"Aggregate over the sets holding both systems: sets with '>' / '<', the mean delta and "
        f"its stratified bootstrap ({found.resamples} resamples, {found.level * 100:g}% level, "
        f"correction {found.correction.value}); 'better on >= k' counts sets with the "
        "family-wise error controlled (Dror et al. 2017).",
    ]
    for metric in dict.fromkeys(p.metric for p in found.pairs):
        parts += [f"\n{metric}", align_table([TEXT_HEADER, *_text_rows(found, metric)])]
    parts += [f"Note: {printable(note)}" for note in found.notes]
    return "\n".join(parts)


def _score_grid(sets: Sequence[tuple[str, dict[str, Any]]], metric: str) -> str:
    """Systems x test sets: each system's score and its rank cluster in each set."""
    systems = list(dict.fromkeys(s["name"] for _, report in sets for s in report["systems"]))
    header = ["system", *(name for name, _ in sets)]
    rows = []
    for system in systems:
        row = [system]
        for _, report in sets:
            ranking = report.get("rankings", {}).get(metric, [])
            entry = next((e for e in ranking if e["system"] == system), None)
            if entry is None:
                score = next(
                    (
                        s["scores"].get(metric, {}).get("score")
                        for s in report["systems"]
                        if s["name"] == system
                    ),
                    None,
                )
                row.append(four_decimals(score) if score is not None else "")
            else:
                row.append(f"{four_decimals(entry['score'])} ({entry['cluster']})")
        rows.append(row)
    return html_table(header, rows, 1, named_columns=True)


def campaign_html(
    title: str,
    sets: Sequence[tuple[str, dict[str, Any]]],
    found: Aggregate,
    settings: Sequence[str],
    created: datetime,
) -> str:
    """The campaign as one self-contained HTML page: the sets, per metric the systems' scores
    in every set with their clusters, and the aggregate of every pair."""
    metrics = list(dict.fromkeys(m for _, report in sets for m in report.get("rankings", {})))
    body = [
        f"<h1>MT evaluation campaign: {html_isolated(title)}</h1>",
        f'<p class="made">Made by mtgui {escape(__version__)} on '
        f"{escape(created.strftime('%Y-%m-%d %H:%M'))}.</p>",
        "<h2>What was compared</h2>",
        html_table(
            ["test set", "segments", "systems"],
            [
                [
                    name,
                    str(report["test_set"].get("segments", "")),
                    str(len(report["systems"])),
                ]
                for name, report in sets
            ],
            1,
        ),
        f"<p>Settings: <code>{escape(' '.join(settings) or '(eval defaults)')}</code>. Each test "
        "set was analysed exactly as <code>mtgui eval</code> analyses it alone.</p>",
    ]
    for metric in metrics:
        body += [
            f"<h2>{escape(metric)}</h2>",
            "<h3>Scores per test set (rank cluster in brackets, 1 best)</h3>",
            _score_grid(sets, metric),
            "<h3>Across the test sets</h3>",
            "<p>For each pair of systems in two sets or more: the sets where x is significantly "
            "better or worse, the mean delta over the sets with its stratified bootstrap "
            "interval and p-value (the verdict follows it, corrected as the sets are), and on "
            "at least how many sets x is better (or worse) with the family-wise error "
            "controlled (Dror et al. 2017, Bonferroni-Holm partial conjunction).</p>",
            html_table(TEXT_HEADER, _text_rows(found, metric), 2),
        ]
    notes = [*set_notes(sets), *found.notes]
    if notes:
        body += ["<h2>Notes</h2>", *(f"<p>{escape(n)}</p>" for n in notes)]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
