"""``--scores`` and ``--lower-better``: which files of segment scores to load, as which metrics.

Every ``--scores`` value is one file and what to make of it:

- ``FILE``: a table read as today (its column from ``--score-column``), or COMET's output; the
  metric is ``human``, chosen with ``--metrics`` as before;
- ``FILE:COLUMN``: a table's column, as a metric named after the column;
- ``FILE:COLUMN=NAME`` and ``FILE=NAME``: the same under the name ``NAME``;
- ``FILE=SYSTEM:NAME``: a file that scores one system's output (one number per line), named.

A named metric is added to the metrics by itself. Paths may hold ``:`` and ``=`` (``C:\\x``):
the longest part of a value, cut before a ``:`` or ``=``, that is a file (or a device or a
pipe, which the reader refuses in words) is the file, and a
value that is a file as given is always a plain ``FILE``. ``--lower-better NAME`` says that a
lower score is better (MetricX, MQM errors, TER-like scores). ``--mqm FILE`` is WMT's MQM
annotations as the metric ``mqm`` (lower is better; ``--mqm-categories`` adds one metric per
error category).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.core import InputError, printable
from mtgui.engine.metrics import NAME_PATTERN, REGISTRY, parse_metric_names
from mtgui.io.decode import read_text
from mtgui.io.mqm import COLUMNS, MQM, is_mqm
from mtgui.io.mqm import categories as mqm_categories
from mtgui.io.score_sources import HUMAN, ScoreSource, load_score_source, scores_from_source
from mtgui.io.scores import ScoreTable

FORMS = "FILE, FILE:COLUMN, FILE:COLUMN=NAME, FILE=NAME or FILE=SYSTEM:NAME"


@dataclass(frozen=True)
class ScoreSpec:
    """One ``--scores`` value read: the source to load, and whether its metric joins the
    metrics by itself (it does when the user named it)."""

    source: ScoreSource
    automatic: bool
    mqm: bool = False  # given with --mqm: the file must be WMT's MQM annotations

    def load(self, encoding: str) -> ScoreTable:
        """The scores of this value, read from its file.

        Raises
        ------
        InputError
            If the file cannot be read as its format, or ``--mqm`` names a file that is not
            WMT's MQM annotations.
        """
        if not self.mqm:
            return load_score_source(self.source, encoding)
        decoded = read_text(self.source.path, encoding)
        if not is_mqm(decoded.text):
            raise InputError(
                "--mqm takes WMT's MQM annotations, a TSV whose first line names the columns "
                f"{' '.join(COLUMNS)}; this file's does not.",
                path=self.source.path,
                hint="Give other scores with --scores.",
            )
        return scores_from_source(decoded, self.source)


def score_specs(args: argparse.Namespace) -> list[ScoreSpec]:
    """Every ``--scores`` value read, with ``--lower-better`` applied.

    Raises
    ------
    InputError
        If a value names no file, a name is not a valid metric name or is one of mtgui's own
        metrics, one file is given the same name twice, or ``--lower-better`` names no scores.
    """
    specs = [parse_score_spec(str(value), args.score_column) for value in args.scores]
    specs += mqm_specs(getattr(args, "mqm", None) or [], getattr(args, "mqm_categories", False))
    seen: set[tuple[Path, str]] = set()
    for spec in specs:
        key = (spec.source.path, spec.source.metric)
        if key in seen:
            raise InputError(
                f"--scores gives the file twice as '{spec.source.metric}'.",
                path=spec.source.path,
                hint="Give each column its own name: FILE:COLUMN=NAME.",
            )
        seen.add(key)
    lower = [name.strip().lower() for name in getattr(args, "lower_better", None) or []]
    names = {spec.source.metric for spec in specs}
    unknown = [name for name in lower if name not in names]
    if unknown:
        raise InputError(
            f"--lower-better names '{printable(unknown[0])}', but no --scores is named so"
            + (f" (they are named {', '.join(sorted(names))})." if names else "."),
            hint=f"Name the scores with --scores {FORMS}.",
        )
    return [
        replace(s, source=replace(s.source, higher_is_better=False))
        if s.source.metric in lower
        else s
        for s in specs
    ]


def mqm_specs(paths: list[Path], categories: bool) -> list[ScoreSpec]:
    """``--mqm FILE``: the metric ``mqm`` (lower is better), and with ``categories`` one per
    error category of the file (``mqm-accuracy``...), its column naming the category."""
    specs = []
    for path in paths:
        specs.append(ScoreSpec(ScoreSource(path, None, MQM, None, False), True, mqm=True))
        for category in mqm_categories_of(path) if categories else []:
            source = ScoreSource(path, category, f"{MQM}-{category}"[:40], None, False)
            specs.append(ScoreSpec(source, True, mqm=True))
    return specs


def mqm_categories_of(path: Path) -> list[str]:
    """The error categories of an MQM file (none when it cannot be read: reading it for its
    scores then says why)."""
    try:
        return mqm_categories(read_text(path).text)
    except (InputError, OSError):
        return []


def parse_score_spec(value: str, score_column: str | None = None) -> ScoreSpec:
    """One ``--scores`` value (see the module's docstring); ``score_column`` is the table
    column of the forms that name none.

    Raises
    ------
    InputError
        If no file is found in the value, or its name is not one a metric may have.
    """
    if _is_file(value) or not any(sep in value for sep in ":="):
        return ScoreSpec(ScoreSource(Path(value), score_column), automatic=False)
    cut = _longest_file(value)
    if cut is None:
        raise InputError(
            f"--scores '{printable(value)}' names no file: neither it nor any part of it before "
            "a ':' or '=' is a file.",
            hint=f"Give {FORMS}.",
        )
    path, separator, rest = Path(value[:cut]), value[cut], value[cut + 1 :]
    if separator == "=":
        system, _, name = rest.rpartition(":")
        source = ScoreSource(path, score_column, _name(name, value), system or None)
        if system == "" and ":" in rest:
            raise InputError(f"--scores '{printable(value)}' names an empty system.")
        return ScoreSpec(source, automatic=True)
    column, equals, name = rest.partition("=")
    if not column.strip():
        raise InputError(f"--scores '{printable(value)}' names an empty column.", path=path)
    metric = _name(name if equals else column, value)
    return ScoreSpec(ScoreSource(path, column.strip(), metric), automatic=True)


def _longest_file(value: str) -> int | None:
    """Where the longest part of ``value`` that is a file ends (at a ':' or '=')."""
    cuts = [i for i, char in enumerate(value) if char in ":=" and i > 0]
    return next((i for i in reversed(cuts) if _is_file(value[:i])), None)


def _is_file(text: str) -> bool:
    """Whether ``text`` names something that is there and not a folder: a regular file, or a
    device or pipe, which the reader then refuses saying what it is (not "names no file")."""
    try:
        return os.path.exists(text) and not os.path.isdir(text)
    except ValueError:  # a NUL in the name
        return False


def _name(text: str, value: str) -> str:
    """A metric name the user gave (lower case), checked."""
    name = text.strip().lower()
    if not NAME_PATTERN.fullmatch(name):
        raise InputError(
            f"--scores '{printable(value)}': '{printable(text)}' cannot name a metric: a name "
            "starts with a letter and holds letters, digits, '.', '_', '+' or '-' (at most 40).",
            hint="Name it: FILE:COLUMN=NAME.",
        )
    if name in REGISTRY and name != HUMAN:
        raise InputError(
            f"--scores '{printable(value)}': '{name}' is the name of a metric mtgui computes "
            "itself.",
            hint="Give the loaded scores another name, such as "
            f"{name}-ext: FILE:COLUMN={name}-ext.",
        )
    return name


def external_names(args: argparse.Namespace) -> list[str]:
    """The names of the metrics the ``--scores`` values make, in order, each once."""
    return list(dict.fromkeys(spec.source.metric for spec in score_specs(args)))


def metric_names(args: argparse.Namespace, automatic: bool = True) -> tuple[str, ...]:
    """``--metrics``, where the names of loaded scores may be chosen too, followed by the named
    scores (unless ``automatic`` is false): what ``mtgui eval`` and the studies score.

    Raises
    ------
    InputError
        If ``--metrics`` names a metric that is neither mtgui's nor loaded, or a ``--scores``
        value is wrong (see :func:`score_specs`).
    """
    specs = score_specs(args)
    chosen = parse_metric_names(args.metrics, [spec.source.metric for spec in specs])
    if not automatic:
        return chosen
    named = [spec.source.metric for spec in specs if spec.automatic]
    return tuple(dict.fromkeys([*chosen, *named]))
