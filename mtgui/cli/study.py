"""``mtgui study size|refs|resamples|human``: Zhang & Vogel's studies on the command line.

Each study takes the inputs and scoring options of ``mtgui eval``, its bootstrap options (its
own default B, stated in ``--help``) and options of its own; it prints its tables, and writes
them as JSON (``--json FILE``, ``-`` for standard output) and as CSV files (``--csv DIR``).
Output files are checked before any work starts, written atomically, never over an input, and
over an existing file only with ``--overwrite``, as ``mtgui eval`` does.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgui._version import __version__
from mtgui.cli.eval import Loader
from mtgui.cli.eval_options import (
    add_input_arguments,
    add_output_arguments,
    add_resampling_arguments,
    add_scoring_arguments,
)
from mtgui.cli.eval_outputs import input_paths, print_notes, read_paths
from mtgui.cli.progress import drain
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import command_settings
from mtgui.cli.study_options import STUDY_HELP, add_study_options, study_settings
from mtgui.engine.core import Corpus, InputError
from mtgui.engine.metrics import ExtractionContext, MetricSettings
from mtgui.engine.statistics import iter_statistics
from mtgui.engine.studies import RefsSettings
from mtgui.io.outputs import OutputPlan
from mtgui.io.score_sources import HUMAN
from mtgui.io.writers import json_text, write_stdout
from mtgui.report.evaluation import describe_settings, describe_test_set
from mtgui.report.files import CSV_KEY, write_planned_reports
from mtgui.report.study_tables import CSV_FILES, study_data, study_tables
from mtgui.report.study_text import study_text
from mtgui.report.summary import summarize

if TYPE_CHECKING:  # the studies' code is imported when a study runs, not by every command
    from mtgui.engine.studies import Study, StudySettings


def add_study_parser(commands: Any, summary: str) -> None:
    """``mtgui study`` and its four studies, under the subcommands of ``mtgui``."""
    study = commands.add_parser(
        "study",
        help=summary,
        description="Zhang & Vogel's studies (2004, section 4) on your own data, and the "
        "agreement of the metrics with human scores.",
    )
    studies = study.add_subparsers(dest="study", metavar="STUDY", required=True)
    for name, (summary, description, resamples) in STUDY_HELP.items():
        parser = studies.add_parser(
            name,
            help=summary,
            description=description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        add_input_arguments(parser)
        add_scoring_arguments(parser)
        add_resampling_arguments(parser, resamples, paired_tests=False)
        add_study_options(parser, name)
        add_output_arguments(
            parser,
            f"write the tables as CSV into DIR ({', '.join(CSV_FILES[name])})",
            segments=False,
        )
        parser.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="show the traceback of internal errors",
        )


def run_study(args: argparse.Namespace, load: Loader) -> int:
    """Check the options and outputs, load, run the study, print and write its tables."""
    metrics = metric_names(args, automatic=args.study != "refs")  # refs: scores do not change
    chosen = command_settings(args, metrics)  # the study's own options are read below
    human = getattr(args, "human", HUMAN)
    if args.study == "human" and human not in metrics:
        metrics = (*metrics, human)
    scoring, bootstrap = chosen.metric_settings(), chosen.bootstrap_settings()
    if bootstrap is None:
        raise InputError("a study needs the bootstrap.", hint="Give --bootstrap 100 or more.")
    settings = study_settings(args, bootstrap)
    outputs = StudyOutputs.from_args(args)
    corpus = load(args)
    if args.study == "human" and human not in corpus.external_metrics() and human == HUMAN:
        raise InputError(
            "the human study needs per-segment human scores, and none are loaded.",
            hint="Load them with --scores FILE.",
        )
    result = _run(corpus, metrics, scoring, settings, human)
    outputs.write(corpus, metrics, scoring, result)
    return 0


def _run(
    corpus: Corpus,
    metrics: tuple[str, ...],
    scoring: MetricSettings,
    settings: StudySettings,
    human: str = HUMAN,
) -> Study:
    """Extract the statistics (not for the references study, which does it per reference
    subset) and run the study that ``settings`` are for (``human``: the metric that plays the
    humans' part in the human study)."""
    statistics, context = None, None
    if not isinstance(settings, RefsSettings):
        context = ExtractionContext(corpus.test_set, scoring, corpus.scores)
        statistics = drain(iter_statistics(corpus, metrics, scoring, context), "scoring")
    from mtgui.engine.studies import iter_study_for

    study = iter_study_for(settings, corpus, metrics, scoring, statistics, context, human)
    return drain(study, "study")


@dataclass(frozen=True)
class StudyOutputs:
    """Where the results of one ``mtgui study`` go, all checked before any work starts."""

    study: str
    plan: OutputPlan
    csv: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> StudyOutputs:
        """The outputs the options name, each checked now and proved writable (see
        :meth:`OutputPlan.prepare`)."""
        plan = OutputPlan(args.overwrite, input_paths(args))
        if args.csv is not None:  # first: the JSON file may go into its folder
            plan.add_folder(CSV_KEY, args.csv, CSV_FILES[args.study])
        if args.json is not None:
            plan.add_file("--json", args.json)
        plan.prepare()
        return cls(args.study, plan, args.csv is not None)

    def write(
        self, corpus: Corpus, metrics: tuple[str, ...], scoring: MetricSettings, result: Study
    ) -> None:
        """Print the tables (unless the JSON goes to standard output) and write every file."""
        try:
            self.plan.check_inputs(read_paths(corpus))  # the files really read, once more
            notes = [*corpus.notes, *getattr(result, "notes", ())]
            report = {
                "mtgui_version": __version__,
                "study": self.study,
                "settings": describe_settings(metrics, scoring, result.signature),
                "test_set": describe_test_set(corpus.test_set),
                "notes": notes,
                "signature": result.signature,
                "result": study_data(result),
            }
            if not self.plan.to_stdout:
                write_stdout(f"{summarize(corpus)}\n\n{study_text(result)}\n")
            print_notes(notes, in_table=not self.plan.to_stdout)
            if "--json" in self.plan:
                self.plan.write("--json", json_text(report))
            if self.csv:
                write_planned_reports(self.plan, study_tables(result))
        finally:
            self.plan.close()
