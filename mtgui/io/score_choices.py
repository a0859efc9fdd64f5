"""What a scores file given to the window offers, and the one question the window asks of it.
No Qt.

A scores file is one metric or several (:mod:`mtgui.io.score_sources`): a table may hold a
``comet`` and a ``bleurt`` column, a file of one number per line scores one system's output
without saying which, and COMET's output says neither what to call its scores nor which way
they go. The window reads the file once (:func:`score_offer`: its format, the columns that may
hold scores, a default name and direction for each), then asks once, in one dialog, what to
load (:class:`ScoresQuestion`); the answer is a list of
:class:`~mtgui.io.score_sources.ScoreSource`, which the file is read with, and which sessions
keep so that reopening asks nothing.

A plain table of human scores (one ``score``, ``z`` or ``raw`` column, say) is not asked about:
it is read as ``human`` at once, as it always was.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from mtgui.engine.metrics import NAME_PATTERN, REGISTRY
from mtgui.io.field_formats import DA_RAW, DA_Z, METRICX_JSONL, MTME_SEGMENTS, WMT_DA
from mtgui.io.mqm import MQM, MQM_TSV
from mtgui.io.mqm import categories as mqm_categories
from mtgui.io.plaintext import split_lines
from mtgui.io.score_formats import (
    COMET_JSON,
    COMET_OUTPUT,
    LINE_SCORES,
    SCORES_TABLE,
    score_format,
)
from mtgui.io.score_sources import HUMAN, ScoreSource, needs_system
from mtgui.io.scores import (
    MISSING,
    SCORE_COLUMNS,
    looks_like_scores,
    normalize_column,
    score_columns,
    value_columns,
)

if TYPE_CHECKING:
    from mtgui.io.entries import Entry

FORMAT_WORDS = {
    SCORES_TABLE: "a table of scores",
    LINE_SCORES: "one score per line",
    COMET_OUTPUT: "comet-score's output",
    COMET_JSON: "comet-score's JSON file",
    WMT_DA: "WMT's DA scores per segment (z: standardized per annotator; raw: 0-100)",
    MQM_TSV: "WMT's MQM error annotations (an error penalty per segment: lower is better)",
    METRICX_JSONL: "MetricX's output (an error score: lower is better)",
    MTME_SEGMENTS: "mt-metrics-eval's segment scores",
}
"""Each format in the words of the question."""

_LOWER_WORDS = frozenset({"ter", "hter", "wer", "cer", "error", "errors", "penalty"})
_LOWER_PREFIXES = ("metricx", "mqm")  # MetricX's and MQM's scores count errors: lower is better
_NOT_SCORES = frozenset({"n", "nall", "count", "counts", "num", "number", "judgments", "time"})
_KNOWN = ("comet", "xcomet", "cometkiwi", "bleurt", "metricx", "mqm", "bertscore", "prism")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SNIFF = 1 << 16
NAME_RULE = (
    "a name starts with a letter and holds lower-case letters, digits, '.', '_', '+' or '-' "
    "(at most 40)"
)


@dataclass(frozen=True)
class ScoreChoice:
    """One metric a scores file may give: its column (None: the file has no columns), the name
    and direction offered, and whether it is ticked at first."""

    column: str | None
    metric: str
    higher_is_better: bool = True
    chosen: bool = True
    label: str | None = None  # what the dialog calls it, where not the column's name


@dataclass(frozen=True)
class ScoreOffer:
    """What a scores file holds, and what the window offers to load from it."""

    path: Path
    format: str
    choices: tuple[ScoreChoice, ...]
    needs_system: bool = False

    @property
    def asks(self) -> bool:
        """Whether the user is asked: anything but a plain table of human scores (a single
        human column, read as ``human`` at once as mtgui always did)."""
        if self.needs_system or self.format != SCORES_TABLE:
            return True
        human = [c for c in self.choices if _is_human_column(c.column)]
        chosen = [c for c in self.choices if c.chosen]
        return not (len(human) == 1 and chosen == human)


class ScoredSystem(NamedTuple):
    """A loaded system as a scores file may name it: the name shown, the name the file uses
    (a table names systems as their files do), and its file."""

    shown: str
    name: str
    path: Path


@dataclass(frozen=True)
class ScoresQuestion:
    """The question of one scores file: which of its choices to load, under which names and
    directions, and (for a file that does not say) which system's output it scores.

    ``loaded`` holds the metrics of the other scores files (name -> higher is better): a name
    loaded already must keep its direction, its scores being pooled with the new ones.
    """

    offer: ScoreOffer
    systems: tuple[ScoredSystem, ...] = ()
    system: str | None = None  # the default: the system whose file name fits best
    loaded: Mapping[str, bool] = field(default_factory=dict, hash=False)

    @property
    def path(self) -> Path:
        """The scores file."""
        return self.offer.path

    def defaults(self) -> list[ScoreSource]:
        """The answer of a user who changes nothing: the choices ticked at first."""
        system = self.system if self.offer.needs_system else None
        return [
            ScoreSource(self.path, c.column, c.metric, system, c.higher_is_better)
            for c in self.offer.choices
            if c.chosen
        ]

    def problem(self, sources: Sequence[ScoreSource]) -> str | None:
        """Why ``sources`` cannot be the answer (in words for the user), or None."""
        if not sources:
            return "Tick the scores to load (or Cancel to leave the file out)."
        names = [s.metric for s in sources]
        for name in names:
            problem = name_problem(name)
            if problem is not None:
                return problem
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice is not None:
            return f"Two columns are called '{twice}': give each its own name."
        for source in sources:
            loaded = self.loaded.get(source.metric)
            if loaded is not None and loaded != source.higher_is_better:
                return (
                    f"Scores called '{source.metric}' are loaded already, where "
                    f"{'higher' if loaded else 'lower'} is better: these must go the same way "
                    "(they are pooled with them), or take another name."
                )
        if self.offer.needs_system and not all(s.system for s in sources):
            return "Choose the system whose output these scores are of."
        return None


def name_problem(name: str) -> str | None:
    """Why loaded scores cannot be called ``name``, or None."""
    if not NAME_PATTERN.fullmatch(name):
        return f"'{name}' cannot name a metric: {NAME_RULE}."
    if name in REGISTRY and name != HUMAN:
        return (
            f"'{name}' is the name of a metric mtgui computes itself: call these scores "
            f"something else, such as {name}-ext."
        )
    return None


def window_score_format(text: str, path: Path) -> str | None:
    """The scores format of a file given to the window without a role, or None when it is not
    a scores file (a translation, most often).

    Stricter than :func:`~mtgui.io.score_formats.score_format`, which reads a file the user
    says holds scores: here a file is one number per line only if every line is a number or
    empty, and JSON only if it is named ``.json`` or parses, so that a system's output whose
    first line is "2019" or "[Music]" stays a translation.
    """
    found = score_format(text, path=path)
    if found is not None and found not in (SCORES_TABLE, LINE_SCORES, COMET_OUTPUT, COMET_JSON):
        return found  # the field's formats and MQM: their content says what they are
    if looks_like_scores(text):
        return SCORES_TABLE
    columns = value_columns(text)
    if columns and looks_like_scores(text, columns[0]):
        return SCORES_TABLE
    if found == COMET_OUTPUT:
        return found
    if found == COMET_JSON and (path.suffix.lower() == ".json" or _parses(text)):
        return found
    if found == LINE_SCORES and _numbers_only(text):
        return found
    return None


def score_offer(text: str, path: Path, found: str) -> ScoreOffer:
    """What the scores file ``path`` (of format ``found``) offers to load, with the defaults:
    a table's first human column (score, z, raw...) as ``human`` and its other columns under
    their own names (ids and counts not offered); another format's scores named after
    the metric its file name says (``metricx-sysB.txt``: metricx), else comet or scores."""
    field = _field_offer(text, path, found)
    if field is not None:
        return field
    if found != SCORES_TABLE:
        name = _name_from_file(path) or ("comet" if found in (COMET_OUTPUT, COMET_JSON) else "")
        name = name or "scores"
        choice = ScoreChoice(None, name, not lower_is_better(name))
        return ScoreOffer(path, found, (choice,), needs_system(text))
    # The human column read by default first, as the table reader picks it (z before raw).
    human = sorted(score_columns(text), key=lambda c: SCORE_COLUMNS.index(normalize_column(c)))
    columns = [c for c in dict.fromkeys([*value_columns(text), *human]) if not _not_scores(c)]
    choices = []
    for column in columns:
        first_human = bool(human) and column == human[0]
        name = HUMAN if first_human else metric_name(column)
        chosen = first_human or not _is_human_column(column)
        choices.append(ScoreChoice(column, name, not lower_is_better(name), chosen))
    return ScoreOffer(path, found, tuple(choices))


def _field_offer(text: str, path: Path, found: str) -> ScoreOffer | None:
    """The offer of one of the field's files: WMT's DA file its z scores as human (raw not
    ticked); MQM's its penalty as mqm and, not ticked, each error category's; MetricX's its
    predictions as metricx; mt-metrics-eval's its scores under its metric's name. None for
    another format."""
    choices: tuple[ScoreChoice, ...]
    if found == WMT_DA:
        choices = (
            ScoreChoice(DA_Z, HUMAN, True, True),
            ScoreChoice(DA_RAW, f"{HUMAN}-raw", True, False),
        )
    elif found == MQM_TSV:
        per_category = tuple(
            ScoreChoice(c, f"{MQM}-{c}"[:40], False, False, f"{c} errors")
            for c in mqm_categories(text)
        )
        choices = (ScoreChoice(None, MQM, False, True, "all errors"), *per_category)
    elif found == METRICX_JSONL:
        name = _name_from_file(path) or "metricx"
        choices = (ScoreChoice(None, name, False, True),)
    elif found == MTME_SEGMENTS:
        name = metric_name(path.name.removesuffix(".score").removesuffix(".seg"))
        choices = (ScoreChoice(None, name, not lower_is_better(name), True),)
    else:
        return None
    return ScoreOffer(path, found, choices, needs_system(text))


def scores_question(
    offer: ScoreOffer, systems: Sequence[ScoredSystem], loaded: Mapping[str, bool]
) -> ScoresQuestion:
    """The question of ``offer``, with the systems loaded now and the other files' metrics: a
    name loaded already takes its direction, and the system whose file name fits best is the
    default (:func:`best_system`)."""
    choices = tuple(
        replace(c, higher_is_better=loaded.get(c.metric, c.higher_is_better)) for c in offer.choices
    )
    offer = ScoreOffer(offer.path, offer.format, choices, offer.needs_system)
    system = best_system(offer.path, systems) if offer.needs_system else None
    return ScoresQuestion(offer, tuple(systems), system, dict(loaded))


def metric_name(column: str) -> str:
    """The name offered for a column's scores: the column's name in lower case, made a valid
    name (``COMET-22 (da)``: comet-22-da), and not one of mtgui's own (``chrf``: chrf-ext)."""
    name = re.sub(r"[^a-z0-9_.+-]+", "-", column.strip().lower()).strip("-")
    if not name or not name[0].isalpha():
        name = f"m-{name}" if name else "scores"
    name = name[:40]
    if name in REGISTRY and name != HUMAN:
        name = f"{name[:36]}-ext"
    return name


def lower_is_better(name: str) -> bool:
    """Whether scores called ``name`` are offered as lower-is-better: MetricX, MQM, TER and
    other error counts."""
    words = [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]
    return any(w in _LOWER_WORDS or w.startswith(_LOWER_PREFIXES) for w in words)


def best_system(path: Path, systems: Sequence[ScoredSystem]) -> str | None:
    """The system whose name or file name fits the scores file's name best: a system named in
    it (the longest such name), else the most alike by characters."""
    stem = path.stem.lower()

    def fit(system: ScoredSystem) -> float:
        names = {system.shown.lower(), system.name.lower()}
        contained = [len(n) for n in names if n and n in stem]
        if contained:
            return 2.0 + max(contained) / 1000
        other = Path(system.path).stem.lower()
        return max(difflib.SequenceMatcher(None, stem, n).ratio() for n in (*names, other))

    return max(systems, key=fit).name if systems else None


@dataclass(frozen=True)
class ExternalMetric:
    """A metric of loaded scores, as the window lists it: its direction, and whether any of
    its files was read (a session's file may have gone missing)."""

    name: str
    higher_is_better: bool
    loaded: bool


def external_metrics(entries: Iterable[Entry]) -> dict[str, ExternalMetric]:
    """The metrics the scores files name, in load order: what the user said of each file
    (kept when the file could not be read), else what its table was read as."""
    found: dict[str, ExternalMetric] = {}
    for entry in entries:
        tables = {t.metric: t.higher_is_better for t in entry.score_tables}
        said = {s.metric: s.higher_is_better for s in entry.sources}
        for name, higher in {**tables, **said}.items():
            before = found.get(name)
            loaded = name in tables or (before is not None and before.loaded)
            found[name] = ExternalMetric(name, higher, loaded)
    return found


def _not_scores(column: str) -> bool:
    """Whether a numeric column is an id (``sid``, ``rid``, ``HITId``) or a count (``N``),
    never offered as scores."""
    name = normalize_column(column)
    return name in _NOT_SCORES or name.endswith("id") or name in ("idx", "index")


def _is_human_column(column: str | None) -> bool:
    return column is not None and normalize_column(column) in SCORE_COLUMNS


def _name_from_file(path: Path) -> str | None:
    """A metric's name that the file's name holds (``metricx-sysB.txt``), if any."""
    for word in re.split(r"[^a-z0-9]+", path.stem.lower()):
        if word.startswith(_KNOWN):
            return metric_name(word)
    return None


def _parses(text: str) -> bool:
    try:
        json.loads(text.lstrip("\ufeff"))
    except ValueError:
        return False
    return True


def _numbers_only(text: str) -> bool:
    """Whether every line of the start of ``text`` is a number or empty (at least one not)."""
    lines = split_lines(text[:_SNIFF].lstrip("\ufeff"))
    if len(text) > _SNIFF:
        lines = lines[:-1]  # cut short
    values = [line.strip() for line in lines if line.strip().lower() not in MISSING]
    return bool(values) and all(_NUMBER.fullmatch(value) for value in values)
