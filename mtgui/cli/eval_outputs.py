"""What ``mtgui eval`` prints and writes: tables on the terminal, JSON, CSV and LaTeX files.

Every output is checked before any work starts (so a long run does not end in "file exists"),
see :class:`mtgui.io.outputs.OutputPlan`; written atomically, never over an input, and over an
existing file only with ``--overwrite``. ``-`` is standard output for ``--json``,
``--segments``, ``--documents`` and ``--latex`` (one of them at most); then the tables are not
printed. CSV files carry a UTF-8 byte-order mark so that Excel reads them as UTF-8 (not on
standard output). Notes go to standard error too, and into the JSON report.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from mtgui.cli.breakdown_options import label_file_paths
from mtgui.cli.runs_options import run_specs
from mtgui.cli.score_specs import score_specs
from mtgui.cli.settings import CommandSettings
from mtgui.cli.signals import signals_deferred, stage
from mtgui.engine.core import Corpus, InputError, printable
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.io.outputs import OutputPlan
from mtgui.io.run_inputs import RunInputs
from mtgui.io.writers import csv_text, json_text, write_stdout
from mtgui.report.breakdown import breakdown_report, breakdown_tables, breakdown_text
from mtgui.report.evaluation import evaluation_report, score_table, segment_table
from mtgui.report.files import CSV_KEY, report_names, report_tables, write_planned_reports
from mtgui.report.significance import grid_text, interval_table
from mtgui.report.summary import summarize
from mtgui.report.verdicts import metric_summary, summary_text

_WIDTH = 79  # the summary's paragraphs are wrapped to fit a terminal of 80 columns

# Imported where used: the per-document table, the HTML report and the breakdowns (5 ms to
# import together) are not loaded by a run that does not ask for them.
if TYPE_CHECKING:
    from mtgui.engine.breakdown import Breakdown
    from mtgui.engine.runs import RunsResult


def input_paths(args: argparse.Namespace) -> RunInputs:
    """Every file or folder the options name as an input, each with its option: no output may
    be written over one, nor into a folder read as input (:mod:`mtgui.io.run_inputs`)."""
    named: list[tuple[str, str | Path]] = [
        *(("--ref", path) for path in args.ref),
        *(("--hyp", path) for path in args.hyp),
        *(("--src", path) for path in ([args.src] if args.src else [])),
        *(("--mqm" if s.mqm else "--scores", s.source.path) for s in score_specs(args)),
        *(("--by", path) for path in label_file_paths(args)),
        *(("--docids", path) for path in _listed(getattr(args, "docids", None))),
        *(("--runs", path) for _, files in run_specs(args) for path in files),
    ]
    return RunInputs(named)


def _listed(value: object) -> list[str | Path]:
    """An option's value as a list of paths (none, one, or several)."""
    if value is None:
        return []
    if isinstance(value, str | Path):
        return [value]
    return [p for p in value if isinstance(p, str | Path)] if isinstance(value, list) else []


def read_paths(corpus: Corpus) -> list[str]:
    """Every file the corpus was really read from."""
    return [origin.path for origin in corpus.origins()]


def print_notes(notes: Sequence[str], in_table: bool) -> None:
    """Every note on standard error, unless the table that holds them is on the terminal."""
    if in_table and sys.stdout.isatty():
        return
    for note in notes:
        print(f"mtgui: note: {printable(note)}", file=sys.stderr)


PdfMaker = Callable[[str, str], bytes]
"""Makes a PDF of an HTML report with a title (:func:`mtgui.views.export.pdf_export.pdf_bytes`,
handed in by :mod:`mtgui.launch`: the command line itself never imports Qt)."""


@dataclass(frozen=True)
class EvalOutputs:
    """Where the results of one ``mtgui eval`` go, all checked before any work starts."""

    plan: OutputPlan
    csv: bool
    samples: bool
    make_pdf: PdfMaker | None = None
    report_paths: bool = False  # the HTML and PDF name files by full path (else by name)
    summary: bool = False  # the result in words too (--summary)

    @classmethod
    def from_args(
        cls,
        args: argparse.Namespace,
        settings: CommandSettings,
        make_pdf: PdfMaker | None = None,
        breakdown_names: Sequence[str] = (),
    ) -> EvalOutputs:
        """The outputs the options name, each checked now and proved writable (see
        :meth:`OutputPlan.prepare`), for the metrics and resampling of ``settings``;
        ``breakdown_names`` are the breakdowns' CSV files."""
        plan = OutputPlan(args.overwrite, input_paths(args))
        if args.csv is not None:  # first: the other files may go into its folder
            metrics, bootstrap = settings.analysis.metrics, settings.bootstrap
            names = report_names(metrics, bootstrap, args.samples)
            if run_specs(args):
                from mtgui.report.runs import RUNS_CSV

                names = [*names, *RUNS_CSV]
            plan.add_folder(CSV_KEY, args.csv, [*names, *breakdown_names])
        if args.json is not None:
            plan.add_file("--json", args.json)
        if args.segments is not None:
            plan.add_file("--segments", args.segments)
        if args.documents is not None:
            plan.add_file("--documents", args.documents)
        if getattr(args, "latex", None) is not None:
            plan.add_file("--latex", args.latex)
        for key in ("--html", "--pdf"):
            if getattr(args, key[2:]) is not None:
                plan.add_file(key, getattr(args, key[2:]))
        if "--pdf" in plan and make_pdf is None:
            raise InputError(
                "this entry point cannot write PDF (it has no Qt).", hint="Run the mtgui command."
            )
        plan.prepare()
        paths = getattr(args, "report_paths", False)
        summary = getattr(args, "summary", False)
        return cls(plan, args.csv is not None, args.samples, make_pdf, paths, summary)

    def check_corpus(self, corpus: Corpus) -> None:
        """Refuse, before the work, what the loaded corpus cannot give: per-document scores
        of a test set without documents (plain text)."""
        if "--documents" in self.plan:
            from mtgui.engine.statistics import require_documents

            require_documents(corpus.test_set)

    def write(
        self,
        corpus: Corpus,
        statistics: Statistics,
        result: BootstrapResult | None,
        breakdowns: Sequence[tuple[str, Breakdown]] = (),
        runs: RunsResult | None = None,
    ) -> None:
        """Print the tables (unless an output is standard output) and write every file;
        ``breakdowns`` are (file key, breakdown) of each --by, ``runs`` the systems made of
        runs (--runs)."""
        try:
            self.plan.check_inputs(read_paths(corpus))  # the files really read, once more
            report = evaluation_report(corpus, statistics, result)
            if breakdowns:
                report["breakdowns"] = breakdown_report([b for _, b in breakdowns])
            if self.summary:
                report["summary"] = summary_report(result)
            if runs is not None:
                from mtgui.report.runs import runs_report, runs_tables, runs_text

                report["runs"] = runs_report(runs)
                report["notes"] = [*report["notes"], *runs.notes]
            if not self.plan.to_stdout:
                text = terminal_report(corpus, statistics, result)
                text += "".join(breakdown_text(b, statistics.metrics) for _, b in breakdowns)
                text += runs_text(runs) if runs is not None else ""
                if self.summary:
                    text += "\n\n" + summary_terminal(result)
                write_stdout(text + "\n")
            print_notes(report["notes"], in_table=not self.plan.to_stdout)
            stage("outputs")
            if "--json" in self.plan:
                self.plan.write("--json", json_text(report))
            if "--segments" in self.plan:
                table = csv_text(*segment_table(corpus, statistics))
                self.plan.write("--segments", table, bom=True)
            if "--documents" in self.plan:
                from mtgui.report.documents import document_table

                table = csv_text(*document_table(corpus, statistics))
                self.plan.write("--documents", table, bom=True)
            if "--latex" in self.plan:
                from mtgui.report.latex import latex_report

                self.plan.write("--latex", latex_report(corpus, statistics, result))
            if self.csv:
                write_planned_reports(self.plan, report_tables(statistics, result, self.samples))
                for key, breakdown in breakdowns:
                    tables = breakdown_tables(breakdown, key, result is not None)
                    write_planned_reports(self.plan, tables)
                if runs is not None:
                    write_planned_reports(self.plan, runs_tables(runs))
            self._write_documents(corpus, statistics, result, runs)
        finally:
            self.plan.close()

    def _write_documents(
        self,
        corpus: Corpus,
        statistics: Statistics,
        result: BootstrapResult | None,
        runs: RunsResult | None = None,
    ) -> None:
        """The report to send, as HTML and as PDF, when asked for."""
        if "--html" not in self.plan and "--pdf" not in self.plan:
            return
        from mtgui.report.html_report import html_report, report_title

        created = datetime.now().astimezone()
        page = html_report(corpus, statistics, result, created, self.report_paths)
        if runs is not None:  # the runs' section before the end of the body
            head, _, tail = page.rpartition("</body>")
            from mtgui.report.runs import runs_html

            page = f"{head}{runs_html(runs)}\n</body>{tail}"
        if "--html" in self.plan:
            self.plan.write("--html", page)
            stage("html")
        if "--pdf" in self.plan and self.make_pdf is not None:
            stage("pdf")
            with signals_deferred():  # Qt's import and drawing must not be cut by an exception
                pdf = self.make_pdf(page, report_title(corpus))
            stage("pdf made")
            self.plan.write("--pdf", pdf)


def summary_report(result: BootstrapResult | None) -> dict[str, str]:
    """The JSON report's ``summary``: each metric's paragraph by the metric's name, with the
    names exactly as in the files (empty without the bootstrap: the words rest on it)."""
    if result is None:
        return {}
    return {metric: metric_summary(result, metric, str) for metric in result.metrics}


def summary_terminal(result: BootstrapResult | None) -> str:
    """The result in words for the terminal, under its title."""
    if result is None:
        return "Summary: none without the bootstrap (--bootstrap 0): the words rest on it."
    return "Summary in words:\n" + "\n\n".join(
        textwrap.fill(paragraph, _WIDTH, break_on_hyphens=False)
        for paragraph in summary_text(result).split("\n\n")
    )


def terminal_report(corpus: Corpus, statistics: Statistics, result: BootstrapResult | None) -> str:
    """What was loaded, the score table, and per metric the intervals and the grid."""
    parts = [summarize(corpus), f"\nScores ({statistics.signature()}):", score_table(statistics)]
    if result is None:
        return "\n".join(parts)
    settings = result.settings
    parts.append(
        f"\nBootstrap: {settings.resamples} resamples of {settings.unit.value}s, seed "
        f"{settings.seed}, {settings.level * 100:g}% intervals."
    )
    parts += [f"Note: {note}" for note in result.notes]
    for metric in statistics.metrics:
        direction = "" if metric.higher_is_better else " (lower is better)"
        parts += [
            f"\n{metric.label}{direction}",
            interval_table(result, metric),
            grid_text(result, metric),
        ]
    parts.append(f"\nSignature: {result.signature}")
    return "\n".join(parts)
