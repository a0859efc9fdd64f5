"""``mtgui eval --by KEY`` and ``--length-buckets``: the breakdowns a run is asked for.

Everything that can be checked without the inputs is checked when the options are read (the
bucket edges, each label file, two breakdowns that would write one file), so a long run never
ends in a mistake of its options; what needs the test set (does any document have this
attribute? is every docid of the label file there?) is checked right after loading, before
any scoring.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

from mtgui.engine.core import InputError, TestSet
from mtgui.engine.metrics import MetricSettings
from mtgui.engine.statistics import (
    DEFAULT_LENGTH_EDGES,
    LENGTH,
    Grouping,
    check_edges,
    group_by_attribute,
    group_by_length,
)
from mtgui.io.labels import LabelFile, read_label_file
from mtgui.report.breakdown import breakdown_file

_LABEL_SUFFIXES = (".tsv", ".txt", ".csv")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def add_breakdown_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the breakdowns."""
    group = parser.add_argument_group("breakdowns")
    group.add_argument(
        "--by",
        metavar="KEY",
        action="append",
        default=[],
        help="also score, bootstrap and compare the systems within each group of segments: "
        "KEY is a document attribute (origlang, genre, domain, ...), 'length' (buckets of "
        "the reference's length in tokens) or a label file FILE.tsv with a header 'line<TAB>"
        "NAME' or 'docid<TAB>NAME'; repeat for several",
    )
    group.add_argument(
        "--length-buckets",
        metavar="EDGES",
        help="edges of the --by length buckets, increasing (default: "
        f"{','.join(map(str, DEFAULT_LENGTH_EDGES))}, as compare-mt: <10, [10,20), ..., >=60)",
    )


@dataclass(frozen=True)
class BreakdownRequest:
    """One ``--by``: a document attribute, ``length`` with its edges, or a label file."""

    by: str
    edges: tuple[int, ...] = DEFAULT_LENGTH_EDGES
    labels: LabelFile | None = None

    @property
    def file_key(self) -> str:
        """The name in the CSV reports' file names (``breakdown-<key>.csv``)."""
        return _UNSAFE.sub("_", self.by).strip("_") or "labels"

    def grouping(self, test_set: TestSet, settings: MetricSettings) -> Grouping:
        """The groups on the loaded test set.

        Raises
        ------
        InputError
            For an attribute no document has (saying which they have), or a label file that
            names lines or documents the test set does not have.
        """
        if self.labels is not None:
            return self.labels.grouping(test_set)
        if self.by == LENGTH:
            return group_by_length(test_set, settings, self.edges)
        return group_by_attribute(test_set, self.by)


def breakdown_requests(args: argparse.Namespace) -> list[BreakdownRequest]:
    """The breakdowns the options ask for, each checked as far as it can be before loading.

    Raises
    ------
    InputError
        For bad --length-buckets, a label file that cannot be read or is wrong in itself, or two
        breakdowns whose reports would have one name.
    """
    keys: list[str] = list(getattr(args, "by", []))
    edges = _edges(getattr(args, "length_buckets", None), LENGTH in keys)
    requests = []
    for key in dict.fromkeys(key.strip() for key in keys):
        if not key:
            raise InputError("--by needs a key: a document attribute, 'length' or a label file.")
        if _is_label_file(key):
            labels = read_label_file(Path(key), getattr(args, "encoding", "auto"))
            requests.append(BreakdownRequest(labels.by, labels=labels))
        else:
            requests.append(BreakdownRequest(key, edges if key == LENGTH else ()))
    seen: dict[str, str] = {}
    for request in requests:
        name = breakdown_file(request.file_key)
        if name in seen:
            raise InputError(
                f"--by {seen[name]} and --by {request.by} would both write {name}.",
                hint="Rename the label file.",
            )
        seen[name] = request.by
    return requests


def breakdown_report_names(requests: list[BreakdownRequest], bootstrap: bool) -> list[str]:
    """The CSV files the breakdowns write into the --csv folder, known before the run."""
    names = []
    for request in requests:
        names.append(breakdown_file(request.file_key))
        if bootstrap:
            names.append(breakdown_file(request.file_key, pairs=True))
    return names


def label_file_paths(args: argparse.Namespace) -> list[Path]:
    """The label files the --by options name (inputs: no output may replace one)."""
    keys = (key.strip() for key in getattr(args, "by", []))
    return [Path(key) for key in keys if key and _is_label_file(key)]


def _is_label_file(key: str) -> bool:
    """A --by value names a label file when it looks like a path or is a file."""
    path = Path(key)
    return "/" in key or "\\" in key or path.suffix.lower() in _LABEL_SUFFIXES or path.is_file()


def _edges(text: str | None, wanted: bool) -> tuple[int, ...]:
    """The --length-buckets edges (compare-mt's by default)."""
    if text is None:
        return DEFAULT_LENGTH_EDGES
    if not wanted:
        raise InputError(
            "--length-buckets sets the buckets of --by length, which is not asked for.",
            hint="Add --by length, or leave --length-buckets out.",
        )
    edges = []
    for part in text.split(","):
        try:
            edges.append(int(part.strip()))
        except ValueError:
            raise InputError(
                f"--length-buckets takes whole numbers separated by commas (e.g. 10,20,30), "
                f"and '{part.strip()}' is not one."
            ) from None
    try:
        return check_edges(edges)
    except InputError as error:
        raise InputError(f"--length-buckets {text}: {error.problem}", hint=error.hint) from None
