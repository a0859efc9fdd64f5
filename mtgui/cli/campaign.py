"""``mtgui campaign FILE.toml``: many test sets, each analysed exactly as ``mtgui eval``
analyses it alone (the same options, the same seed, the same numbers), then their verdicts
combined pair by pair. The work is the engine's campaign driver
(:func:`~mtgui.engine.campaign.iter_campaign`), which the window runs too; here are only the
file, the reading of each set's inputs and the outputs.

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

from mtgui.cli.campaign_file import (
    CampaignSpec,
    campaign_input_paths,
    read_campaign,
    set_arguments,
)
from mtgui.cli.eval import Loader
from mtgui.cli.progress import drain
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import command_settings
from mtgui.engine.campaign import (
    Aggregate,
    CampaignFound,
    CampaignInput,
    CampaignSettings,
    iter_campaign,
)
from mtgui.engine.core import InputError, printable
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.runtime import TRIM_FROM, keep_freed_memory
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


def campaign_inputs(
    spec: CampaignSpec, load: Loader
) -> tuple[list[CampaignInput], CampaignSettings]:
    """Every set of the campaign read, as ``mtgui eval`` reads it with the same options, and
    the settings they share (eval's options as :func:`command_settings` reads them once per
    set: a set's named scores are metrics of that set only)."""
    inputs, shared = [], None
    for test_set in spec.test_sets:
        args = set_arguments(spec, test_set)
        where = f"test set '{test_set.name}' (line {test_set.line})"
        try:
            corpus = load(args)
            chosen = command_settings(args, metric_names(args))
        except InputError as error:
            raise InputError(f"{where}: {error.message}", path=spec.path) from None
        resampling = chosen.bootstrap_settings()
        if resampling is None:
            raise InputError(
                "a campaign needs the bootstrap: remove 'bootstrap = 0' from the settings.",
                path=spec.path,
            )
        metrics = chosen.analysis.metrics
        if shared is None:
            scoring = chosen.metric_settings()
            shared = CampaignSettings(metrics, scoring, resampling, chosen.bleu_scale)
        inputs.append(CampaignInput(test_set.name, corpus, where, spec.path, metrics))
    assert shared is not None  # a campaign file has at least one set (read_campaign)
    if min(one.corpus.test_set.size for one in inputs) < TRIM_FROM:
        keep_freed_memory()  # short runs: reusing freed pages beats faulting new ones in
    return inputs, shared


def set_analyses(found: CampaignFound) -> list[SetAnalysis]:
    """Every set's eval report and CSV tables, as ``mtgui eval`` of that set alone makes
    them."""
    analyses = []
    for one in found.sets:
        result = one.result
        report = evaluation_report(result.corpus, result.statistics, result.bootstrap)
        tables = report_tables(result.statistics, result.bootstrap)
        higher = one.campaign_set().higher_is_better
        analyses.append(SetAnalysis(one.name, result.bootstrap, report, tables, higher))
    return analyses


def run_campaign_sets(spec: CampaignSpec, load: Loader) -> tuple[list[SetAnalysis], Aggregate]:
    """Every set read and analysed by the engine's campaign driver
    (:func:`~mtgui.engine.campaign.iter_campaign`), then the aggregate."""
    inputs, settings = campaign_inputs(spec, load)
    found = drain(iter_campaign(inputs, settings, fork=True), "campaign")
    return set_analyses(found), found.aggregate


def _plan(args: argparse.Namespace, spec: CampaignSpec) -> OutputPlan:
    """Every output checked before the work (never over an input)."""
    plan = OutputPlan(args.overwrite, campaign_input_paths(spec))
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
