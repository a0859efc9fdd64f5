"""The ``mtgui`` command: the desktop application, or ``mtgui eval`` on the command line.

Exit codes: 0 success, 2 bad input (a message on stderr, never a traceback), 1 an internal error
(a bug in mtgui; ``--debug`` shows the traceback). The command line never imports Qt, so it
works on machines without a display.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtgui import __version__
from mtgui.engine.analysis import iter_bootstrap
from mtgui.engine.bootstrap import DEFAULT_SEED, BootstrapSettings, Unit
from mtgui.engine.corpus import Corpus, Role
from mtgui.engine.errors import InputError
from mtgui.engine.metrics import DEFAULT_METRICS, METRIC_NAMES, parse_metric_names
from mtgui.engine.settings import TOKENIZERS, Case, MetricSettings
from mtgui.engine.statistics import iter_statistics
from mtgui.eval_outputs import EvalOutputs, drain
from mtgui.io.assemble import assemble
from mtgui.io.decode import ENCODINGS
from mtgui.io.loader import ROLE_FLAGS, load_file, load_scores

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2

_EVAL_EPILOG = """\
formats (told from the content, not the file name):
  NIST mteval SGML   <srcset>/<refset>/<tstset>; a refset may hold several references and a
                     tstset several systems (one sysid each)
  WMT XML            <dataset> with <src>, <ref translator=..>, <hyp system=..>; with --ref it
                     gives its references and source, with --hyp its systems
  plain text         one segment per line, matched to the segments by position
  scores (--scores)  CSV or TSV; columns system, score, and docid+segid or line
encodings: UTF-8 with or without BOM, UTF-16 with BOM; --encoding latin-1 for Latin-1 files.

metrics (scales as mteval and sacreBLEU print them):
  bleu   BLEU, 0-1, as mteval-v13a (= sacreBLEU's BLEU / 100)
  nist   NIST, as mteval-v13a (up to 5-grams)
  mbleu  M-BLEU of Zhang & Vogel (2004), 0-1
  chrf   chrF2, 0-100, as sacreBLEU
  ter    TER, 0-100, as sacreBLEU (tercom tokenization, case-insensitive; lower is better)
  wer    word error rate against the closest reference, 0-1 (lower is better)
  human  the mean of the per-segment scores given with --scores

examples:
  mtgui eval --ref ref.sgm --hyp systems/*.sgm
  mtgui eval --src src.txt --ref ref.A.txt --ref ref.B.txt --hyp sysA.txt --hyp sysB.txt \\
             --name A --name B
  mtgui eval --ref newstest2021.is-en.all.xml --hyp newstest2021.is-en.all.xml \\
             --scores human.tsv --score-column z --metrics bleu,chrf,human
  mtgui eval --ref ref.sgm --hyp sys.sgm --lowercase ascii --json report.json
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``mtgui`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="mtgui",
        description="Is one machine-translation system really better than another? Without a "
        "command, mtgui opens its desktop application.",
    )
    parser.add_argument("--version", action="version", version=f"mtgui {__version__}")
    parser.add_argument(
        "--demo", action="store_true", help="open the application on the bundled demo data"
    )
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of internal errors"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    evaluate = commands.add_parser(
        "eval",
        help="score systems on the command line",
        description="Load references, system outputs and optional per-segment scores, check "
        "that they cover the same segments, and score every system.",
        epilog=_EVAL_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_input_arguments(evaluate)
    _add_metric_arguments(evaluate)
    # SUPPRESS: an option given before the command must not be reset by the command's default.
    evaluate.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the traceback of internal errors",
    )
    return parser


def _add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say what to load (shared by every command that evaluates)."""
    group = parser.add_argument_group("inputs")
    files: dict[str, Any] = {
        "metavar": "FILE",
        "action": "extend",
        "nargs": "+",
        "default": [],
        "type": Path,
    }
    group.add_argument(
        "--ref", "-r", **files, help="reference translations (repeat for several references)"
    )
    group.add_argument("--hyp", "-t", **files, help="system outputs (repeat, or list several)")
    group.add_argument("--src", "-s", metavar="FILE", type=Path, help="the source text (optional)")
    group.add_argument(
        "--scores", **files, help="per-segment scores, e.g. human judgments (CSV/TSV)"
    )
    group.add_argument(
        "--score-column",
        metavar="COLUMN",
        help="which column of --scores holds the score (default: the first of score, z, raw)",
    )
    group.add_argument(
        "--name",
        "-n",
        metavar="NAME",
        action="append",
        default=[],
        help="name the systems: once per system in load order, or OLD=NEW",
    )
    group.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default="auto",
        help="encoding of files without a byte-order mark (default: UTF-8)",
    )
    group.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS,
        help="evaluate the bundled demo data instead of files",
    )


def _add_metric_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say how to score."""
    group = parser.add_argument_group("scoring")
    group.add_argument(
        "--metrics",
        "-m",
        default=",".join(DEFAULT_METRICS),
        metavar="LIST",
        help=f"comma-separated metrics from {','.join(METRIC_NAMES)} "
        f"(default: {','.join(DEFAULT_METRICS)})",
    )
    group.add_argument(
        "--tokenize",
        "-tok",
        choices=TOKENIZERS,
        default="13a",
        help="tokenizer for BLEU, NIST, M-BLEU and WER (default: 13a, as mteval-v13a and "
        "sacreBLEU)",
    )
    group.add_argument(
        "--lowercase",
        "-lc",
        nargs="?",
        const="full",
        choices=("full", "ascii"),
        default=None,
        help="compare case-insensitively: full (all letters, as sacreBLEU -lc; the default "
        "when no value is given) or ascii (A-Z only, as mteval-v13a without -c). Without this "
        "option letters are compared case-sensitively",
    )
    group.add_argument(
        "--nist-formula",
        action="store_true",
        help="NIST information weights as the formula says, without mteval-v13a's quirk for "
        "bigrams after the token '0' (the default reproduces mteval exactly)",
    )
    resampling = parser.add_argument_group("confidence and significance")
    resampling.add_argument(
        "--bootstrap",
        "-b",
        type=int,
        default=2000,
        metavar="B",
        help="bootstrap resamples, 100 to 100,000 (default: 2000; 0 turns the bootstrap off)",
    )
    resampling.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"random seed, recorded in the report (default: {DEFAULT_SEED}, as sacreBLEU)",
    )
    resampling.add_argument(
        "--ci",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="confidence level of the intervals and verdicts (default: 0.95)",
    )
    resampling.add_argument(
        "--unit",
        choices=[u.value for u in Unit],
        default="segment",
        help="resample single segments (default) or whole documents, whose sentences are "
        "correlated (needs documents: SGML or XML input)",
    )
    resampling.add_argument(
        "--paired-ar",
        type=int,
        nargs="?",
        const=10_000,
        default=0,
        metavar="R",
        help="also run approximate randomization with R trials (default R: 10,000)",
    )
    resampling.add_argument(
        "--holm",
        action="store_true",
        help="adjust the p-values of each metric's grid for multiple comparisons (Holm)",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--json",
        metavar="FILE",
        type=Path,
        help="write the report as JSON to FILE ('-' for standard output)",
    )
    output.add_argument(
        "--segments", metavar="FILE", type=Path, help="write segment-level scores as CSV to FILE"
    )
    output.add_argument(
        "--csv",
        metavar="DIR",
        type=Path,
        help="write CSV reports into DIR: scores with CIs, pairs, one grid per metric",
    )
    output.add_argument(
        "--samples",
        action="store_true",
        help="with --csv, also write every bootstrap score (samples.csv)",
    )
    output.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )


def metric_settings(args: argparse.Namespace) -> MetricSettings:
    """The scoring settings the options ask for."""
    case = Case.SENSITIVE if args.lowercase is None else Case(args.lowercase)
    return MetricSettings(args.tokenize, case, nist_zero_quirk=not args.nist_formula)


def load_inputs(args: argparse.Namespace) -> Corpus:
    """Load every file named on the command line into one corpus.

    A file given under several options (a WMT XML file as --ref and --hyp) is read once.
    """
    if args.demo:
        from mtgui.demo import load_demo

        return load_demo()
    if not args.ref:
        raise InputError("no reference given.", hint="Name the reference file(s) with --ref.")
    if not args.hyp:
        raise InputError("no system output given.", hint="Name the system file(s) with --hyp.")
    wanted: dict[Path, set[Role]] = {}
    for role, paths in (
        (Role.SOURCE, [args.src] if args.src else []),
        (Role.REFERENCE, args.ref),
        (Role.SYSTEM, args.hyp),
    ):
        for path in paths:
            roles = wanted.setdefault(path, set())
            if role in roles:
                raise InputError(
                    f"this file is given twice as {role.label} ({ROLE_FLAGS[role]}).",
                    path=path,
                    hint="Each system and each reference counts once.",
                )
            roles.add(role)
    files = [load_file(path, roles, args.encoding) for path, roles in wanted.items()]
    scores = [load_scores(path, args.score_column, args.encoding) for path in args.scores]
    corpus = assemble(files, scores, args.name)
    if not corpus.systems:
        raise InputError("the files given with --hyp hold no system output.")
    return corpus


def bootstrap_settings(args: argparse.Namespace) -> BootstrapSettings | None:
    """The resampling the options ask for; None with --bootstrap 0."""
    if args.bootstrap == 0:
        return None
    return BootstrapSettings(
        resamples=args.bootstrap,
        level=args.ci,
        seed=args.seed,
        unit=Unit(args.unit),
        ar_trials=args.paired_ar,
        holm=args.holm,
    )


def run_eval(args: argparse.Namespace) -> int:
    """``mtgui eval``: load, score, bootstrap, print the tables and write what was asked."""
    metrics = parse_metric_names(args.metrics)
    settings, resampling = metric_settings(args), bootstrap_settings(args)
    outputs = EvalOutputs.from_args(args)
    corpus = load_inputs(args)
    statistics = drain(iter_statistics(corpus, metrics, settings), "scoring")
    result = None
    if resampling is not None:
        documents = corpus.test_set.document_index() if corpus.test_set.has_documents else None
        result = drain(iter_bootstrap(statistics, resampling, documents), "resampling")
    outputs.write(corpus, statistics, result)
    return EXIT_OK


def run_gui(args: argparse.Namespace) -> int:
    """Open the desktop application (Qt is imported only here).

    Without a display Qt would abort with a core dump, so say what to do instead.
    """
    headless = sys.platform.startswith("linux") and not any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    )
    if headless:
        raise InputError(
            "there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY "
            "is set).",
            hint="Run mtgui on a desktop, under xvfb-run, or use the command line: mtgui eval "
            "--help.",
        )
    from mtgui.app import run_application

    return run_application(demo=args.demo)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtgui`` command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "eval":
            return run_eval(args)
        return run_gui(args)
    except InputError as error:
        print(f"mtgui: {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("mtgui: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if args.debug:
            traceback.print_exc()
        print(
            f"mtgui: internal error ({type(error).__name__}: {error}). This is a bug in mtgui; "
            "please report it with the command you ran (--debug shows the details).",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
