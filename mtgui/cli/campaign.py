"""``mtgui campaign FILE.toml``: many test sets, each analysed exactly as ``mtgui eval``
analyses it alone (the same options, the same seed, the same numbers), then their verdicts
combined pair by pair (:mod:`mtgui.engine.campaign`).

The campaign file (:mod:`mtgui.cli.campaign_file`) is read and checked whole, and every output
is checked, before the first set is loaded.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from mtgui.cli.campaign_file import CampaignSpec, campaign_inputs, read_campaign, set_arguments
from mtgui.cli.eval import Loader, analyse
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import command_settings
from mtgui.engine.campaign import Aggregate, CampaignSet, aggregate
from mtgui.engine.core import InputError, printable
from mtgui.engine.resampling import BootstrapResult
from mtgui.io.outputs import OutputPlan
from mtgui.io.writers import json_text, write_stdout
from mtgui.report.campaign import (
    AGGREGATE_COLUMNS,
    aggregate_rows,
    campaign_html,
    campaign_report,
    campaign_text,
)
from mtgui.report.evaluation import evaluation_report
from mtgui.report.files import CSV_KEY, report_tables, write_planned_reports

CAMPAIGN_CSV = ("aggregate.csv", "scores.csv", "pairs.csv")


def add_campaign_parser(commands: Any, summary: str) -> None:
    """The ``campaign`` subcommand and its options."""
    parser = commands.add_parser(
        "campaign",
        help=summary,
        description="Analyse every test set of a campaign file exactly as mtgui eval does, "
        "then, for every pair of systems found in several sets and every metric, count the "
        "sets where one is better, combine the sets in a stratified bootstrap and count on "
        "how many sets one is better with the family-wise error controlled.",
    )
    parser.add_argument("file", metavar="FILE.toml", type=Path, help="the campaign file")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON ('-': stdout)")
    parser.add_argument("--html", metavar="FILE", help="write the report as one HTML file")
    parser.add_argument(
        "--csv",
        metavar="DIR",
        help="write aggregate.csv, and scores.csv and pairs.csv of every set, into DIR",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the traceback of internal errors",
    )


@dataclass(frozen=True)
class SetAnalysis:
    """One test set's analysis and its eval report."""

    name: str
    bootstrap: BootstrapResult
    report: dict[str, Any]
    tables: dict[str, Any]
    higher_is_better: dict[str, bool]


def analyse_set(spec: CampaignSpec, index: int, load: Loader, fork: bool = True) -> SetAnalysis:
    """One test set, loaded and analysed as ``mtgui eval`` would with the same options
    (``fork=False`` in the window: see :func:`~mtgui.cli.eval.analyse`)."""
    test_set = spec.test_sets[index]
    args = set_arguments(spec, test_set)
    try:
        corpus = load(args)
        chosen = command_settings(args, metric_names(args))
        found = analyse(args, corpus, chosen, fork=fork)
    except InputError as error:
        raise InputError(
            f"test set '{test_set.name}' (line {test_set.line}): {error.message}",
            path=spec.path,
        ) from None
    if found.result is None:
        raise InputError(
            "a campaign needs the bootstrap: remove 'bootstrap = 0' from the settings.",
            path=spec.path,
        )
    report = evaluation_report(corpus, found.statistics, found.result)
    tables = report_tables(found.statistics, found.result)
    higher = {m.name: m.higher_is_better for m in found.statistics.metrics}
    return SetAnalysis(test_set.name, found.result, report, tables, higher)


def run_campaign_sets(spec: CampaignSpec, load: Loader) -> tuple[list[SetAnalysis], Aggregate]:
    """Every set analysed, then the aggregate."""
    analyses = [analyse_set(spec, k, load) for k in range(len(spec.test_sets))]
    sets = [CampaignSet(a.name, a.bootstrap, a.higher_is_better) for a in analyses]
    return analyses, aggregate(sets, analyses[0].bootstrap.settings.seed)


def _plan(args: argparse.Namespace, spec: CampaignSpec) -> OutputPlan:
    """Every output checked before the work (never over an input)."""
    plan = OutputPlan(args.overwrite, campaign_inputs(spec))
    if args.csv is not None:
        plan.add_folder(CSV_KEY, args.csv, list(CAMPAIGN_CSV))
    if args.json is not None:
        plan.add_file("--json", args.json)
    if args.html is not None:
        plan.add_file("--html", args.html)
    plan.prepare()
    return plan


def run_campaign(args: argparse.Namespace, load: Loader) -> int:
    """Read the campaign, check the outputs, analyse every set, aggregate, write."""
    spec = read_campaign(args.file)
    plan = _plan(args, spec)
    try:
        analyses, found = run_campaign_sets(spec, load)
        named = [(a.name, a.report) for a in analyses]
        report = campaign_report(str(spec.path), spec.settings, named, found)
        if not plan.to_stdout:
            write_stdout(campaign_text(found, [a.name for a in analyses]) + "\n")
        for note in report["notes"]:
            print(f"mtgui: note: {printable(note)}", file=sys.stderr)
        if "--json" in plan:
            plan.write("--json", json_text(report))
        if "--html" in plan:
            page = campaign_html(
                spec.path.stem, named, found, spec.settings, datetime.now().astimezone()
            )
            plan.write("--html", page)
        if args.csv is not None:
            write_planned_reports(plan, _csv_tables(analyses, found))
    finally:
        plan.close()
    return 0


def _csv_tables(analyses: list[SetAnalysis], found: Aggregate) -> dict[str, Any]:
    """aggregate.csv, and every set's scores.csv and pairs.csv with a test_set column."""
    tables: dict[str, Any] = {"aggregate.csv": (AGGREGATE_COLUMNS, aggregate_rows(found))}
    for name in ("scores.csv", "pairs.csv"):
        header = ["test_set", *analyses[0].tables[name][0]]
        rows = [[a.name, *row] for a in analyses for row in a.tables[name][1]]
        tables[name] = (header, rows)
    return tables
