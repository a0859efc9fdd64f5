"""What ``mtgui eval`` prints and writes: tables on the terminal, JSON and CSV files.

Every output file is checked before any work starts (so a long run does not end in "file
exists"), written atomically, never over an input, and over an existing file only with
``--overwrite``. CSV files carry a UTF-8 byte-order mark so that Excel reads them as UTF-8.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from mtgui.engine.analysis import BootstrapResult
from mtgui.engine.corpus import Corpus
from mtgui.engine.errors import InputError
from mtgui.engine.report import evaluation_report, score_table, segment_table
from mtgui.engine.significance_report import grid_text, interval_table
from mtgui.engine.statistics import Statistics
from mtgui.engine.summary import summarize
from mtgui.io.reports import report_tables, write_reports
from mtgui.io.writers import check_writable, csv_text, json_text, write_text_atomic

T = TypeVar("T")


class _Progress(Protocol):
    """What every engine progress snapshot has."""

    @property
    def done(self) -> int: ...

    @property
    def total(self) -> int: ...


def drain(generator: Generator[_Progress, None, T], label: str) -> T:
    """Run an engine generator to its end, showing its progress at a terminal."""
    show = sys.stderr.isatty()
    while True:
        try:
            progress = next(generator)
        except StopIteration as finished:
            if show:
                print("\r\033[K", end="", file=sys.stderr, flush=True)
            result: T = finished.value
            return result
        if show:
            phase = getattr(progress, "phase", label)
            print(
                f"\r{phase}: {progress.done}/{progress.total}\033[K",
                end="",
                file=sys.stderr,
                flush=True,
            )


def input_paths(args: argparse.Namespace) -> list[Path]:
    """Every file named as an input: no output may be written over one of them."""
    return [*args.ref, *args.hyp, *args.scores, *([args.src] if args.src else [])]


def check_csv_folder(
    folder: Path, names: Sequence[str], overwrite: bool, inputs: Sequence[Path]
) -> None:
    """Check before any work that the CSV reports ``names`` can be written into ``folder``."""
    if folder.exists() and not folder.is_dir():
        raise InputError("this is a file, not a folder for the CSV reports.", path=folder)
    if not folder.parent.exists():
        raise InputError(
            "the folder for the CSV reports cannot be made: its parent does not exist.",
            path=folder,
        )
    for name in names:
        path = folder / name
        if path.exists():
            check_writable(path, overwrite, inputs)


@dataclass(frozen=True)
class EvalOutputs:
    """Where the results of one ``mtgui eval`` go."""

    json: Path | None
    segments: Path | None
    csv: Path | None
    samples: bool
    overwrite: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> EvalOutputs:
        """The outputs the options name, each checked now."""
        outputs = cls(args.json, args.segments, args.csv, args.samples, args.overwrite)
        inputs = input_paths(args)
        for target in (outputs.json, outputs.segments):
            if target is not None and str(target) != "-":
                check_writable(target, args.overwrite, inputs)
        if outputs.csv is not None:
            names = ("scores.csv", "pairs.csv", "settings.csv", "samples.csv")
            check_csv_folder(outputs.csv, names, args.overwrite, inputs)
        return outputs

    @property
    def json_to_stdout(self) -> bool:
        """``--json -``: the JSON report is the only thing printed."""
        return self.json is not None and str(self.json) == "-"

    def write(self, corpus: Corpus, statistics: Statistics, result: BootstrapResult | None) -> None:
        """Print the tables and write every file asked for."""
        report = evaluation_report(corpus, statistics, result)
        if self.json_to_stdout:
            sys.stdout.write(json_text(report))
        else:
            print(terminal_report(corpus, statistics, result))
            if self.json is not None:
                write_text_atomic(self.json, json_text(report))
        if self.segments is not None:
            write_text_atomic(self.segments, csv_text(*segment_table(corpus, statistics)), bom=True)
        if self.csv is not None:
            self._write_csv(statistics, result)

    def _write_csv(self, statistics: Statistics, result: BootstrapResult | None) -> None:
        """The CSV reports (see :mod:`mtgui.io.reports`)."""
        assert self.csv is not None
        write_reports(self.csv, report_tables(statistics, result, self.samples), self.overwrite)


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
