"""The ``mtgui`` command: the desktop application, or ``mtgui eval`` / ``mtgui study`` on the
command line. Here are its parser, the loading of the inputs its options name (the same for
both commands), and how a command ends.

Exit codes: 0 success, 2 bad input or an output that cannot be written (a message on stderr,
never a traceback), 1 an internal error (a bug in mtgui; ``--debug`` shows the traceback), 130
after Ctrl+C, 143 after SIGTERM, 129 after SIGHUP (temporary files removed). The command line
never imports Qt, so it works on machines without a display.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from mtgui._version import __version__
from mtgui.cli.eval import run_eval
from mtgui.cli.eval_options import EVAL_EPILOG, add_eval_arguments
from mtgui.cli.eval_outputs import PdfMaker
from mtgui.cli.runs_options import (
    add_runs_argument,
    load_run_files,
    refuse_runs_among_systems,
)
from mtgui.cli.score_specs import score_specs
from mtgui.cli.signals import Terminated, release_signals, signals_deferred, signals_unwind
from mtgui.cli.test_set_options import filtered, test_set_of
from mtgui.engine.core import Corpus, InputError, Role, printable
from mtgui.io.assemble import assemble
from mtgui.io.docids import read_docids
from mtgui.io.folders import expand_paths
from mtgui.io.loader import ROLE_FLAGS, load_file
from mtgui.io.targets import os_reason
from mtgui.io.temporaries import discard_pending
from mtgui.io.test_sets import with_set_details
from mtgui.io.writers import guard_closed_streams

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2
COMMANDS = ("eval", "study", "campaign")


STUDY_SUMMARY = "how much test data, how many references, how many resamples; metrics vs humans"
CAMPAIGN_SUMMARY = "many test sets, each analysed as eval does, then their verdicts combined"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for ``mtgui`` and its subcommands.

    For ``command`` ``"eval"``, ``study`` is only named (with its summary, for the errors), not
    given its options: their defaults are the studies' own, and importing those modules took
    14 ms of every ``mtgui eval``."""
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
        epilog=EVAL_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_eval_arguments(evaluate)
    add_runs_argument(evaluate)
    # SUPPRESS: an option given before the command must not be reset by the command's default.
    evaluate.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the traceback of internal errors",
    )
    if command == "eval":
        commands.add_parser("study", help=STUDY_SUMMARY)
        commands.add_parser("campaign", help=CAMPAIGN_SUMMARY)
    else:
        from mtgui.cli.study import add_study_parser

        add_study_parser(commands, STUDY_SUMMARY)
        from mtgui.cli.campaign import add_campaign_parser

        add_campaign_parser(commands, CAMPAIGN_SUMMARY)
    return parser


def expand_folders(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """Folders replaced by the files directly in them, in name order (:mod:`mtgui.io.folders`),
    and notes on what else was left out of them (subfolders, pipes and the like, not hidden
    files). A folder that cannot be read or holds nothing to read stops the run."""
    expansion = expand_paths(paths)
    errors = expansion.errors()
    if errors:
        raise errors[0]
    return list(expansion.files), expansion.notes()


DEMO_EXCLUDES = {
    "ref": "--ref",
    "hyp": "--hyp",
    "src": "--src",
    "docids": "--docids",
    "scores": "--scores",
    "mqm": "--mqm",
    "system_runs": "--runs",  # eval's; a study's --runs (a count) is its own dest "runs"
    "name": "--name",
}
"""The options that name inputs (or rename them), which ``--demo`` replaces by its own files,
by their argparse dests."""


def refuse_files_with_demo(args: argparse.Namespace) -> None:
    """Refuse ``--demo`` given with files of one's own: the demo would be evaluated and the
    files silently left out, a result the user did not ask for."""
    given = [option for dest, option in DEMO_EXCLUDES.items() if getattr(args, dest, None)]
    if given:
        raise InputError(
            f"--demo evaluates the bundled demo data; {', '.join(given)} cannot be given with it.",
            hint="Leave out --demo to evaluate your own files.",
        )


def load_inputs(args: argparse.Namespace) -> Corpus:
    """Load every file named on the command line into one corpus.

    A file given under several options (a WMT XML file as --ref and --hyp) is read once; a
    folder given with --hyp stands for the files in it. ``--test-set`` stands for the
    references, the source and the document ids of a set in sacreBLEU's cache (its documents'
    original language and domain become their attributes), and ``--origlang`` and ``--subset``
    keep the segments sacreBLEU keeps.
    """
    named = test_set_of(args)  # first: --demo with --test-set or --origlang is a mistake
    if args.demo:
        from mtgui.io.demo import load_demo

        refuse_files_with_demo(args)
        return load_demo()
    references = list(named.references) if named else args.ref
    source = named.source if named else args.src
    docids = named.docids if named else getattr(args, "docids", None)
    if not references:
        raise InputError(
            "no reference given.",
            hint="Name the reference file(s) with --ref, or a test set of sacreBLEU's with "
            "--test-set NAME -l PAIR.",
        )
    runs = load_run_files(args)
    if not args.hyp and not runs:
        raise InputError("no system output given.", hint="Name the system file(s) with --hyp.")
    wanted: dict[Path, set[Role]] = {}
    systems, folder_notes = expand_folders(args.hyp)
    refuse_runs_among_systems(args, systems)
    for role, paths in (
        (Role.SOURCE, [source] if source else []),
        (Role.REFERENCE, references),
        (Role.SYSTEM, systems),
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
    files = [load_file(path, roles, args.encoding) for path, roles in wanted.items()] + runs
    scores = [spec.load(args.encoding) for spec in score_specs(args)]
    if named is not None and any(s.has_documents for f in files for s in f.streams):
        docids = None  # a named set's outputs given as its SGML or XML files bring documents
    documents = read_docids(docids, args.encoding) if docids is not None else None
    corpus = assemble(files, scores, args.name, documents)
    if not corpus.systems:
        raise InputError("the files given with --hyp hold no system output.")
    if named is not None:
        corpus = filtered(with_set_details(corpus, named), named, args)
    return replace(corpus, notes=(*folder_notes, *corpus.notes))


OpenWindow = Callable[[bool, Sequence[Path]], int]
"""Opens the window (on the demo, or with files) and returns the exit code when it closes."""


def run_gui(args: argparse.Namespace, open_window: OpenWindow | None) -> int:
    """Open the desktop application through ``open_window`` (:func:`mtgui.launch.open_window`).

    Without a display Qt would abort with a core dump, so say what to do instead.
    """
    if open_window is None:
        raise InputError("this entry point runs commands only.", hint="Run mtgui eval --help.")
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
    return open_window(args.demo, [Path(f) for f in args.files])


def command_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The parser of the command ``args`` ran (``eval``, or a study within ``study``), or
    ``parser`` itself without one."""
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        chosen = getattr(args, action.dest, None) if action.dest != argparse.SUPPRESS else None
        if isinstance(action, argparse._SubParsersAction) and chosen in action.choices:
            return command_parser(action.choices[chosen], args)
    return parser


def unrecognized(unknown: list[str], parser: argparse.ArgumentParser) -> str:
    """argparse's "unrecognized arguments", with what a newcomer most likely meant: the option
    of that name misspelt, or a file or a second metric given without its option."""
    from difflib import get_close_matches  # only now: every run's start stays light

    message = f"unrecognized arguments: {' '.join(unknown)}"
    options = [option for option in parser._option_string_actions if option.startswith("--")]
    for word in unknown:
        name = word.split("=", 1)[0]
        if name.startswith("--"):
            near = get_close_matches(name, options, n=1)
            if near:
                return f"{message}. Did you mean {near[0]}?"
    if any(not word.startswith("-") for word in unknown):
        return (
            f"{message}. Files and values go after their option (--ref FILE, --hyp FILE ...); "
            "repeat --ref, --name or --by for several, and give --metrics one comma-separated "
            "list (--metrics bleu,chrf)."
        )
    return message


def _leading_files(arguments: list[str]) -> list[str]:
    """``mtgui FILE ...`` opens the window with those files: the arguments before any option
    or command (argparse cannot mix a list of files with subcommands)."""
    files = []
    for argument in arguments:
        if argument.startswith("-") or argument in COMMANDS:
            break
        files.append(argument)
    return files


def _run_command(args: argparse.Namespace, make_pdf: PdfMaker | None) -> int:
    """Run ``mtgui eval`` or ``mtgui study``; whatever ends it, leave no temporary file."""
    with signals_unwind():
        try:
            if args.command == "eval":
                return run_eval(args, load_inputs, make_pdf)
            if args.command == "campaign":
                from mtgui.cli.campaign import run_campaign  # only now: see build_parser

                return run_campaign(args, load_inputs)
            from mtgui.cli.study import run_study  # only now: see build_parser

            return run_study(args, load_inputs)
        finally:
            with signals_deferred():  # the clean-up is not cut short by a second signal
                discard_pending()


def _silence_stdout() -> None:
    """After standard output failed (a closed pipe, a full disk), send what is still buffered
    to /dev/null, so that Python's last flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _flush_stdout() -> OSError | None:
    """Flush standard output; if that fails, silence it and return the error."""
    try:
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        return error
    return None


def main(
    argv: Sequence[str] | None = None,
    open_window: OpenWindow | None = None,
    make_pdf: PdfMaker | None = None,
) -> int:
    """Run the command line on ``argv``; returns the exit code. Without a command the window
    opens through ``open_window`` (the ``mtgui`` command passes :func:`mtgui.launch.open_window`;
    without one only commands run); ``--pdf`` is written through ``make_pdf``, likewise."""
    guard_closed_streams()  # started with >&- or 2>&-
    arguments = list(sys.argv[1:] if argv is None else argv)
    files = _leading_files(arguments)
    rest = arguments[len(files) :]
    parser = build_parser(next((word for word in rest if not word.startswith("-")), None))
    try:
        args, unknown = parser.parse_known_args(rest)
        if unknown:
            parser.error(unrecognized(unknown, command_parser(parser, args)))
    except SystemExit:  # --help, --version or a wrong option: nothing to run
        release_signals()
        raise
    args.files = files
    code = _main(args, open_window, make_pdf)
    failed = _flush_stdout()
    if failed is not None and not isinstance(failed, BrokenPipeError) and code == EXIT_OK:
        print(f"mtgui: cannot write to standard output: {os_reason(failed)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


def _main(
    args: argparse.Namespace, open_window: OpenWindow | None, make_pdf: PdfMaker | None
) -> int:
    """Run what ``args`` ask for; every failure becomes a message and an exit code."""
    try:
        if args.command in COMMANDS:
            return _run_command(args, make_pdf)
        received = release_signals()  # the window handles signals its own way
        if received is not None:
            raise Terminated(received)
        return run_gui(args, open_window)
    except InputError as error:
        print(f"mtgui: {printable(error.message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        _silence_stdout()
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("mtgui: interrupted", file=sys.stderr)
        return 130
    except Terminated as terminated:
        interrupted = terminated.signum == signal.SIGINT
        print(f"mtgui: {'interrupted' if interrupted else 'terminated'}", file=sys.stderr)
        return 128 + terminated.signum
    except Exception as error:
        if args.debug:
            traceback.print_exc()
        print(
            f"mtgui: internal error ({type(error).__name__}: {printable(str(error))}). This is a "
            "bug in mtgui; please report it with the command you ran (--debug shows the details).",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
