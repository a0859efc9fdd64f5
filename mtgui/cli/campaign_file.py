"""Reading a campaign file (TOML): its ``[settings]`` and its ``[[test_sets]]``.

::

    [settings]                 # mtgui eval's options by their long names
    metrics = ["bleu", "chrf", "ter"]
    bootstrap = 1000
    correction = "holm"

    [[test_sets]]
    name = "newstest2023"
    refs = "wmt23/ref.txt"       # a file, or a list of files
    hyps = ["wmt23/A.txt", "wmt23/B.txt"]
    src = "wmt23/src.txt"        # optional; so are docids, scores (a spec or a list) and
                                 # names (the systems' names, as eval's --name)

Paths are relative to the campaign file. Everything wrong is an :class:`InputError` naming the
file, the line and what is wrong (a TOML syntax error, a missing or unknown key, a value of the
wrong type, a setting eval does not take or takes with other values), before any set is read.
The file itself is read as every input is (:mod:`mtgui.io.inputs`): a pipe, a device or a file
over :data:`MAX_CAMPAIGN_BYTES` is refused before it is read.
"""

from __future__ import annotations

import argparse
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any, NoReturn

from mtgui.cli.eval_options import add_eval_arguments, bootstrap_settings, metric_settings
from mtgui.cli.eval_outputs import input_paths
from mtgui.cli.score_specs import score_specs
from mtgui.engine.core import InputError
from mtgui.engine.metrics import parse_metric_names
from mtgui.io.inputs import read_input_bytes
from mtgui.io.run_inputs import RunInputs

MAX_CAMPAIGN_BYTES = 1 << 20
"""The largest campaign file read (1 MiB: thousands of test sets); a larger one is surely
not a campaign file."""

SET_KEYS = {"name", "refs", "hyps", "src", "docids", "scores", "names"}
REQUIRED_SET_KEYS = ("name", "refs", "hyps")
NOT_SETTINGS = {
    *("ref", "hyp", "src", "scores", "docids", "name", "demo", "runs"),
    *("json", "csv", "html", "pdf", "segments", "documents", "samples", "report-paths"),
    *("latex", "summary", "overwrite", "by", "length-buckets"),
    *("mqm", "mqm-categories"),  # MQM annotations are one set's input
    *("test-set", "language-pair", "origlang", "subset"),  # a named set is one set's input
}
"""Eval's options that a campaign's settings cannot hold: the inputs belong to each test set,
the outputs to the campaign command, and breakdowns are not part of a campaign."""


@dataclass(frozen=True)
class TestSetSpec:
    """One ``[[test_sets]]`` entry, its paths resolved against the campaign file's folder."""

    name: str
    refs: tuple[Path, ...]
    hyps: tuple[Path, ...]
    src: Path | None
    docids: Path | None
    scores: tuple[str, ...]
    names: tuple[str, ...]
    line: int

    def argv(self) -> list[str]:
        """The inputs as ``mtgui eval`` options."""
        words = ["--ref", *map(_word, self.refs), "--hyp", *map(_word, self.hyps)]
        if self.src is not None:
            words.append(f"--src={self.src}")
        if self.docids is not None:
            words.append(f"--docids={self.docids}")
        for spec in self.scores:
            words += ["--scores", _word(spec)]
        words += [f"--name={name}" for name in self.names]  # a name may begin with '-'
        return words


def _word(path: Path | str) -> str:
    """A path as an option's value that no parser takes for an option (``./-a.txt``)."""
    text = str(path)
    return f".{os.sep}{text}" if text.startswith("-") else text


@dataclass(frozen=True)
class CampaignSpec:
    """A campaign file, read and checked."""

    path: Path
    settings: tuple[str, ...]  # the [settings] as eval's options
    test_sets: tuple[TestSetSpec, ...]


class _Refusing(argparse.ArgumentParser):
    """An argument parser whose errors are exceptions, not an exit."""

    def error(self, message: str) -> NoReturn:
        raise _SettingError(message)


class _SettingError(Exception):
    """A setting eval's parser refused."""


def settings_parser() -> argparse.ArgumentParser:
    """Eval's options, parsing without exiting (for the campaign's settings)."""
    parser = _Refusing(prog="mtgui eval", add_help=False)
    add_eval_arguments(parser)
    return parser


class _Lines:
    """Where the keys of a TOML file's tables are, for messages (tomllib gives no positions)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def header(self, table: str, index: int = 0) -> int | None:
        """The line of the ``index``-th ``[table]`` or ``[[table]]`` header (1-based)."""
        pattern = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]\]?\s*(#.*)?$")
        found = [n for n, line in enumerate(self.lines, 1) if pattern.match(line)]
        return found[index] if index < len(found) else None

    def top_key(self, key: str) -> int | None:
        """The line of ``key`` outside any table (before the first header), if there."""
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[.=]")
        for number, line in enumerate(self.lines, 1):
            if line.lstrip().startswith("["):
                return None
            if pattern.match(line):
                return number
        return None

    def key(self, table: str, index: int, key: str) -> int | None:
        """The line of ``key`` in the ``index``-th ``table`` (its header's if not found)."""
        start = self.header(table, index)
        if start is None:
            return None
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return number
        return start


def read_campaign(path: Path) -> CampaignSpec:
    """Read and check a campaign file (see the module docstring)."""
    text = _campaign_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = _decode_line(str(error))
        raise InputError(
            f"this is not valid TOML: {_without_position(str(error))}.", path=path, line=line
        ) from None
    lines = _Lines(text)
    unknown = [key for key in data if key not in ("settings", "test_sets")]
    if unknown:
        raise InputError(
            f"unknown table or key '{unknown[0]}'.",
            path=path,
            line=lines.header(unknown[0]) or lines.top_key(unknown[0]),
            hint="A campaign file has a [settings] table and [[test_sets]] entries.",
        )
    settings = _settings(data.get("settings", {}), path, lines)
    sets = data.get("test_sets")
    if not isinstance(sets, list) or not sets:
        raise InputError(
            "the campaign has no test set.",
            path=path,
            hint="Add [[test_sets]] entries with name, refs and hyps.",
        )
    specs = [_test_set(entry, k, path, lines) for k, entry in enumerate(sets)]
    names = [s.name for s in specs]
    for spec in specs:
        if names.count(spec.name) > 1:
            raise InputError(
                f"two test sets are named '{spec.name}'; give each its own name.",
                path=path,
                line=lines.key(
                    "test_sets", names.index(spec.name, names.index(spec.name) + 1), "name"
                ),
            )
    campaign = CampaignSpec(path, tuple(settings), tuple(specs))
    _check_metrics(campaign, lines.key("settings", 0, "metrics"))
    return campaign


def _check_metrics(spec: CampaignSpec, line: int | None) -> None:
    """The ``metrics`` setting checked for every set, as ``mtgui eval --metrics`` checks it,
    before any set is read: a name is mtgui's or one of that set's named ``scores`` (those are
    metrics of their set only). A set whose ``scores`` cannot be made out yet is left to say so
    when it is read."""
    named: dict[str, list[str]] = {}
    for test_set in spec.test_sets:
        try:
            specs = score_specs(set_arguments(spec, test_set))
        except InputError:
            continue  # its own error comes when the set is read, in its words
        named[test_set.name] = [score.source.metric for score in specs]
    chosen = set_arguments(spec, spec.test_sets[0]).metrics  # the same text for every set
    checks = [("", [name for names in named.values() for name in names])]
    checks += [(f"test set '{name}': ", external) for name, external in named.items()]
    for within, external in checks:  # a name no set knows first, then a set that lacks one
        try:
            parse_metric_names(chosen, external)
        except InputError as error:
            raise InputError(
                f"setting 'metrics': {within}{error.problem}",
                path=spec.path,
                line=line,
                hint=error.hint,
            ) from None


def _campaign_text(path: Path) -> str:
    """The campaign file's text: a regular file of at most :data:`MAX_CAMPAIGN_BYTES` in
    UTF-8 (a pipe, a device or a folder is refused before it is read, as every input is)."""
    try:
        data = read_input_bytes(path, MAX_CAMPAIGN_BYTES)
    except InputError as error:
        raise InputError(
            f"the campaign file cannot be read: {error.problem}", path=path, hint=error.hint
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(
            f"the campaign file is not UTF-8 text (byte {data[error.start]:#04x}).",
            path=path,
            line=line,
            hint="Save it as UTF-8, as TOML requires.",
        ) from None


def _decode_line(message: str) -> int | None:
    """The line tomllib's message gives, if any."""
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None


def _without_position(message: str) -> str:
    """tomllib's message without its "(at line n, column m)" (the line is said first)."""
    return re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)


def _settings(table: object, path: Path, lines: _Lines) -> list[str]:
    """The [settings] as eval's options, each checked by eval's own parser."""
    if not isinstance(table, Mapping):
        raise InputError(
            "settings must be a table ([settings]).", path=path, line=lines.header("settings")
        )
    parser = settings_parser()
    words: list[str] = []
    placed: list[tuple[list[str], int | None]] = []  # each setting's words and its line
    for key, value in table.items():
        line = lines.key("settings", 0, key)
        option = "--" + key.replace("_", "-")
        if key.replace("_", "-") in NOT_SETTINGS:
            raise InputError(
                f"'{key}' cannot be a campaign setting.",
                path=path,
                line=line,
                hint="Inputs belong to each [[test_sets]] entry; outputs to the command line.",
            )
        action = parser._option_string_actions.get(option)
        if action is None:
            ending = _did_you_mean(key, _setting_names(parser))
            raise InputError(
                f"'{key}' is not an option of mtgui eval{ending}",
                path=path,
                line=line,
                hint="Settings are eval's options by their long names (see mtgui eval --help).",
            )
        given = _as_words(option, value, action, path, line)
        try:
            parser.parse_args(["--ref", "x", "--hyp", "y", *given])
        except _SettingError as error:
            raise InputError(f"setting '{key}': {error}.", path=path, line=line) from None
        words += given
        placed.append((given, line))
    try:
        _check_ranges(parser, words)
    except InputError as error:
        raise InputError(
            f"the settings are not valid: {error.problem}",
            path=path,
            line=_culprit(parser, placed) or lines.header("settings"),
        ) from None
    except _SettingError as error:
        raise InputError(
            f"the settings do not go together: {error}.", path=path, line=lines.header("settings")
        ) from None
    return words


def _setting_names(parser: argparse.ArgumentParser) -> list[str]:
    """The keys a campaign's settings may have: eval's long options but the inputs and
    outputs (:data:`NOT_SETTINGS`)."""
    names = (option[2:] for option in parser._option_string_actions if option.startswith("--"))
    return sorted(name for name in names if name not in NOT_SETTINGS and name != "debug")


def _did_you_mean(key: str, names: Iterable[str]) -> str:
    """The end of a sentence about an unknown key: ``"; did you mean 'metrics'?"`` when a
    valid name is close, as eval's misspelt options are answered, else ``"."``."""
    near = get_close_matches(key.replace("_", "-"), list(names), n=1)
    return f"; did you mean '{near[0]}'?" if near else "."


def _check_ranges(parser: argparse.ArgumentParser, words: list[str]) -> None:
    """Eval's checks after parsing (ranges, and a bootstrap, which a campaign needs)."""
    args = parser.parse_args(["--ref", "x", "--hyp", "y", *words])
    metric_settings(args)
    bootstrap_settings(args)
    if args.bootstrap == 0:
        raise InputError("a campaign needs the bootstrap: remove 'bootstrap = 0'.")


def _culprit(
    parser: argparse.ArgumentParser, placed: list[tuple[list[str], int | None]]
) -> int | None:
    """The line of the first setting that is refused on its own (None if only together)."""
    for given, line in placed:
        try:
            _check_ranges(parser, given)
        except (InputError, _SettingError):
            return line
    return None


def _as_words(
    option: str, value: Any, action: argparse.Action, path: Path, line: int | None
) -> list[str]:
    """One setting as command-line words: ``true`` a flag, ``false`` nothing, a list repeated
    for options given several times or joined by commas (``metrics``)."""
    if isinstance(value, bool):
        if action.nargs == 0 or action.nargs == "?":
            return [option] if value else []
        raise InputError(
            f"setting '{option[2:]}' takes a value, not {str(value).lower()}.", path=path, line=line
        )
    if isinstance(value, list):
        items = [_scalar(option, v, path, line) for v in value]
        if isinstance(action, argparse._AppendAction | argparse._ExtendAction):
            return [word for item in items for word in (option, item)]
        return [option, ",".join(items)]
    return [option, _scalar(option, value, path, line)]


def _scalar(option: str, value: Any, path: Path, line: int | None) -> str:
    """A setting's value as a word (text or a number)."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value)
    raise InputError(
        f"setting '{option[2:]}' has a value of the wrong kind ({type(value).__name__}).",
        path=path,
        line=line,
    )


def _test_set(entry: object, index: int, path: Path, lines: _Lines) -> TestSetSpec:
    """One [[test_sets]] entry, checked, its paths resolved."""
    header = lines.header("test_sets", index)
    if not isinstance(entry, Mapping):
        raise InputError("each test set must be a table ([[test_sets]]).", path=path, line=header)
    for key in entry:
        if key not in SET_KEYS:
            raise InputError(
                f"test set {index + 1}: unknown key '{key}'{_did_you_mean(key, SET_KEYS)}",
                path=path,
                line=lines.key("test_sets", index, key),
                hint=f"A test set has {', '.join(sorted(SET_KEYS))}.",
            )
    for key in REQUIRED_SET_KEYS:
        if key not in entry:
            raise InputError(f"test set {index + 1} has no '{key}'.", path=path, line=header)
    name = entry["name"]
    if not isinstance(name, str) or not name.strip():
        raise InputError(
            f"test set {index + 1}: 'name' must be a non-empty string.",
            path=path,
            line=lines.key("test_sets", index, "name"),
        )
    folder = path.parent

    def paths(key: str) -> tuple[Path, ...]:
        value = entry.get(key, [])
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
            raise InputError(
                f"test set '{name}': '{key}' must be a file or a list of files.",
                path=path,
                line=lines.key("test_sets", index, key),
            )
        if key in REQUIRED_SET_KEYS and not values:
            raise InputError(
                f"test set '{name}': '{key}' names no file.",
                path=path,
                line=lines.key("test_sets", index, key),
            )
        return tuple(folder / v for v in values)

    def strings(key: str) -> tuple[str, ...]:
        value = entry.get(key, [])
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise InputError(
                f"test set '{name}': '{key}' must be text or a list of texts.",
                path=path,
                line=lines.key("test_sets", index, key),
            )
        return tuple(values)

    single = {key: paths(key) for key in ("src", "docids")}
    for key, found in single.items():
        if len(found) > 1:
            raise InputError(
                f"test set '{name}': '{key}' is one file.",
                path=path,
                line=lines.key("test_sets", index, key),
            )
    return TestSetSpec(
        name,
        paths("refs"),
        paths("hyps"),
        single["src"][0] if single["src"] else None,
        single["docids"][0] if single["docids"] else None,
        tuple(_relative_spec(folder, s) for s in strings("scores")),
        strings("names"),
        header or 0,
    )


def _relative_spec(folder: Path, spec: str) -> str:
    """A --scores spec with its file resolved against the campaign's folder (the spec begins
    with the file)."""
    return spec if Path(spec).is_absolute() else str(folder / spec)


def set_arguments(spec: CampaignSpec, test_set: TestSetSpec) -> argparse.Namespace:
    """The options ``mtgui eval`` would have for this test set alone."""
    parser = settings_parser()
    try:
        args = parser.parse_args([*test_set.argv(), *spec.settings])
    except _SettingError as error:
        raise InputError(
            f"test set '{test_set.name}': {error}.", path=spec.path, line=test_set.line
        ) from None
    args.demo, args.debug, args.command = False, False, "eval"
    return args


def campaign_input_paths(spec: CampaignSpec) -> RunInputs:
    """Every file the campaign reads (the campaign file and each set's inputs as eval's
    :func:`~mtgui.cli.eval_outputs.input_paths` names them: references, outputs, source,
    document ids, scores, folders of outputs), so that no output of the campaign is written
    over one, not even with ``--overwrite``, nor into a folder read as a whole."""
    inputs = RunInputs([("campaign", spec.path)])
    for test_set in spec.test_sets:
        try:
            named = input_paths(set_arguments(spec, test_set))
        except InputError as error:
            raise InputError(
                f"test set '{test_set.name}': {error.message}", path=spec.path, line=test_set.line
            ) from None
        inputs.include(named, f"test set '{test_set.name}'")
    return inputs
