"""The one settings object: what a person chooses for an analysis, its defaults and its rules.

The settings panel shows an :class:`AnalysisSettings`, sessions and the remembered
preferences store it (as a :class:`SettingsDict` of plain JSON values), and the command line
takes its defaults from it; the engine gets it as :class:`MetricSettings` and
:class:`BootstrapSettings`. Every value is checked by one rule, the engine's own where there is
one (:func:`check_resamples`, :func:`check_level`, :func:`check_seed`), so that a session, the
preferences, the panel and the command line accept exactly the same values.

Read from a mapping (a session, the preferences), settings that are missing take their
defaults and unknown ones are ignored (a newer or older mtgui may write others); a bad value is
an error in words, or quietly its default where the user never edits the values by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.choices import DecidingTest, IntervalMethod
from mtgui.engine.inference.corrections import Family
from mtgui.engine.inference.significance import Correction
from mtgui.engine.metrics import sacrebleu_options
from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.external import NAME_PATTERN
from mtgui.engine.metrics.missing_refs import EMPTY_REFS, MISSING
from mtgui.engine.metrics.registry import DEFAULT_METRICS, METRIC_NAMES
from mtgui.engine.metrics.settings import FLAGS, MetricSettings
from mtgui.engine.resampling.settings import (
    AR_TRIALS,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_LEVEL,
    MIN_RESAMPLES,
    BootstrapSettings,
    Unit,
    check_level,
    check_resamples,
    check_seed,
)
from mtgui.engine.text.settings import DEFAULT_TOKENIZER, TOKENIZERS, Case

_DEFAULT_METRIC_SETTINGS = MetricSettings()


class SettingsDict(TypedDict):
    """:class:`AnalysisSettings` as plain values, as sessions and the preferences store it."""

    metrics: list[str]
    resamples: int
    level: float
    seed: int
    unit: str
    randomization: bool
    correction: str
    family: str
    equivalence: str
    test: str
    interval: str
    tokenizer: str
    case: str
    chrf_char_order: int
    chrf_word_order: int
    chrf_beta: int
    # sacreBLEU's other options: written only when not their default, so that a session or
    # the preferences without them are as mtgui wrote them before it had them
    bleu_smooth_method: NotRequired[str]
    bleu_smooth_value: NotRequired[float | None]
    bleu_max_order: NotRequired[int]
    bleu_effective_order: NotRequired[bool]
    chrf_whitespace: NotRequired[bool]
    chrf_eps_smoothing: NotRequired[bool]
    ter_normalized: NotRequired[bool]
    ter_no_punct: NotRequired[bool]
    ter_asian_support: NotRequired[bool]
    ter_case_sensitive: NotRequired[bool]
    empty_refs: NotRequired[str]


SACREBLEU_SETTINGS = (
    "bleu_smooth_method",
    "bleu_smooth_value",
    "bleu_max_order",
    *FLAGS,
    "empty_refs",
)
"""sacreBLEU's options beyond chrF's orders and beta
(:mod:`~mtgui.engine.metrics.sacrebleu_options`), and what an empty reference line is
(:mod:`~mtgui.engine.metrics.missing_refs`), named as the fields of
:class:`~mtgui.engine.metrics.settings.MetricSettings`: the "Advanced" settings."""


@dataclass(frozen=True)
class AnalysisSettings:
    """Everything the settings panel holds; checked when made, so always valid.

    ``randomization`` adds approximate randomization with :data:`AR_TRIALS` trials; ``level``
    is kept to three decimals, as the panel shows it.

    Raises
    ------
    InputError
        If a value is not one mtgui takes, saying which and what it should be.
    """

    metrics: tuple[str, ...] = DEFAULT_METRICS
    resamples: int = DEFAULT_RESAMPLES
    level: float = DEFAULT_LEVEL
    seed: int = DEFAULT_SEED
    unit: Unit = Unit.AUTO
    randomization: bool = False
    correction: Correction = Correction.NONE
    family: Family = Family.METRIC
    equivalence: str = ""  # "bleu=0.01, chrf=0.5": equivalence margins (see parse_margins)
    test: DecidingTest = DecidingTest.BOOTSTRAP
    interval: IntervalMethod = IntervalMethod.AUTO
    tokenizer: str = DEFAULT_TOKENIZER
    case: Case = Case.SENSITIVE
    chrf_char_order: int = chrf_options.CHAR_ORDER
    chrf_word_order: int = chrf_options.WORD_ORDER
    chrf_beta: int = chrf_options.BETA
    bleu_smooth_method: str = sacrebleu_options.MTEVAL
    bleu_smooth_value: float | None = None
    bleu_max_order: int = sacrebleu_options.BLEU_ORDER
    bleu_effective_order: bool = False
    chrf_whitespace: bool = False
    chrf_eps_smoothing: bool = False
    ter_normalized: bool = False
    ter_no_punct: bool = False
    ter_asian_support: bool = False
    ter_case_sensitive: bool = False
    empty_refs: str = MISSING

    def __post_init__(self) -> None:
        for item in fields(self):
            object.__setattr__(self, item.name, _checked(item.name, getattr(self, item.name)))

    @classmethod
    def from_mapping(
        cls, data: object, *, strict: bool = True, path: Path | None = None
    ) -> AnalysisSettings:
        """The settings in ``data`` (a session's "settings", the stored preferences).

        Missing settings default and unknown ones are ignored. With ``strict`` a bad value is an
        :class:`InputError` naming ``path``; without, it quietly takes its default. A "holm"
        flag (mtgui 0.1, before "correction") set to true means Holm's correction.
        """
        if not isinstance(data, Mapping):
            if strict:
                problem = f'"settings" should be an object, not {describe_value(data)}.'
                raise InputError(problem, path=path)
            return cls()
        values: dict[str, Any] = {}
        for key in _RULES:
            if key not in data:
                continue
            try:
                values[key] = _checked(key, data[key], path)
            except InputError:
                if strict:
                    raise
        if values.pop("holm", False) is True and "correction" not in data:
            values["correction"] = Correction.HOLM
        return cls(**values)

    def to_dict(self) -> SettingsDict:
        """The settings as plain values (a new dict each time: callers may change it); of
        :data:`SACREBLEU_SETTINGS`, only those that are not their default."""
        values: SettingsDict = {
            "metrics": list(self.metrics),
            "resamples": self.resamples,
            "level": self.level,
            "seed": self.seed,
            "unit": self.unit.value,
            "randomization": self.randomization,
            "correction": self.correction.value,
            "family": self.family.value,
            "equivalence": self.equivalence,
            "test": self.test.value,
            "interval": self.interval.value,
            "tokenizer": self.tokenizer,
            "case": self.case.value,
            "chrf_char_order": self.chrf_char_order,
            "chrf_word_order": self.chrf_word_order,
            "chrf_beta": self.chrf_beta,
        }
        for name in SACREBLEU_SETTINGS:
            if getattr(self, name) != getattr(_DEFAULT_METRIC_SETTINGS, name):
                values[name] = getattr(self, name)  # type: ignore[literal-required]
        return values

    def sacrebleu_options(self) -> dict[str, Any]:
        """The values of :data:`SACREBLEU_SETTINGS`, by name."""
        return {name: getattr(self, name) for name in SACREBLEU_SETTINGS}

    def metric_settings(self) -> MetricSettings:
        """Tokenizer, case and chrF's options, as the metrics take them.

        Raises
        ------
        InputError
            If the tokenizer needs an extra that is not installed (ja-mecab, ko-mecab): a
            session or the preferences may name one, the analysis cannot use it.
        """
        return MetricSettings(
            self.tokenizer,
            self.case,
            chrf_char_order=self.chrf_char_order,
            chrf_word_order=self.chrf_word_order,
            chrf_beta=self.chrf_beta,
            **self.sacrebleu_options(),
        )

    def bootstrap_settings(self) -> BootstrapSettings:
        """The resampling, as the bootstrap takes it.

        Raises
        ------
        InputError
            If no difference could be significant with so few resamples at this level.
        """
        return BootstrapSettings(
            resamples=self.resamples,
            level=self.level,
            seed=self.seed,
            unit=self.unit,
            ar_trials=AR_TRIALS if self.randomization else 0,
            correction=self.correction,
            family=self.family,
            equivalence=tuple(
                (metric, margin)
                for metric, margin in parse_margins(self.equivalence)
                if metric in self.metrics
            ),
            test=self.test,
            interval=self.interval,
        )


def parse_margins(text: str) -> list[tuple[str, float]]:
    """Equivalence margins written ``METRIC=MARGIN`` separated by commas or spaces
    ("bleu=0.01, chrf=0.5"); a ValueError for anything else (a margin must be positive)."""
    margins = []
    for item in text.replace(",", " ").split():
        metric, equals, number = item.partition("=")
        margin = float(number) if equals else float("nan")
        if not _metric_name(metric) or not 0 < margin < float("inf"):
            raise ValueError(item)
        margins.append((metric, margin))
    return margins


def _margins(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(value)
    parse_margins(value)
    return " ".join(value.replace(",", " ").split()).replace(" ", ", ")


def describe_value(value: object) -> str:
    """What a JSON value is, in words ("the number 5"): messages say what they found."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the text "{value}"'
    return "a list" if isinstance(value, list | tuple) else "an object"


# -- the rules: each gives the value as kept, or raises ValueError (or the engine's InputError)


def _checked(key: str, value: object, path: Path | None = None) -> Any:
    """``value`` as the setting ``key`` keeps it, or an :class:`InputError` in words."""
    expected, rule = _RULES[key]
    try:
        return rule(value)
    except (ValueError, InputError):
        problem = f'the setting "{key}" should be {expected}, not {describe_value(value)}.'
        raise InputError(problem, path=path) from None


def _metrics(value: object) -> tuple[str, ...]:
    """Built-in metrics, or names that loaded scores may have (``comet``): the settings do not
    know what is loaded; a session checks its names against its scores files."""
    if not isinstance(value, list | tuple) or not all(_metric_name(name) for name in value):
        raise ValueError(value)
    return tuple(dict.fromkeys(value))


def _metric_name(name: object) -> bool:
    """Whether ``name`` is a built-in metric's or one loaded scores may have."""
    return isinstance(name, str) and (name in METRIC_NAMES or bool(NAME_PATTERN.fullmatch(name)))


def _level(value: object) -> float:
    return round(float(check_level(value)), 3)  # type: ignore[arg-type]  # checked there


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def _one_of(choices: tuple[str, ...]) -> tuple[str, Callable[[object], str]]:
    def rule(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(value)
        return value

    return "one of " + ", ".join(f'"{c}"' for c in choices), rule


def _chrf(option: str) -> tuple[str, Callable[[object], int]]:
    _, low, high = chrf_options.LIMITS[option]

    def rule(value: object) -> int:
        return chrf_options.check_chrf_option(option, value)

    return f"a whole number from {low} to {high}", rule


def _member_of(kind: type[StrEnum]) -> tuple[str, Callable[[object], StrEnum]]:
    expected, rule = _one_of(tuple(member.value for member in kind))
    return expected, lambda value: kind(rule(value))


_RULES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    # the setting: (what it should be, in words; its rule), in the order they are checked
    "metrics": (
        "a list of metric names from " + ", ".join(METRIC_NAMES) + ", or names of loaded scores",
        _metrics,
    ),
    "resamples": (f"a whole number from {MIN_RESAMPLES:,} to {MAX_RESAMPLES:,}", check_resamples),
    "level": (
        f"a number from {MIN_LEVEL} to {MAX_LEVEL} "
        f"({DEFAULT_LEVEL} means {DEFAULT_LEVEL:.0%} intervals)",
        _level,
    ),
    "seed": (f"a whole number from 0 to {MAX_SEED:,}", check_seed),
    "unit": _member_of(Unit),
    "randomization": ("true or false", _flag),
    "correction": _member_of(Correction),
    "family": _member_of(Family),
    "equivalence": ('margins written as "bleu=0.01, chrf=0.5"', _margins),
    "holm": ("true or false", _flag),  # before "correction" (mtgui 0.1): true means Holm's
    "test": _member_of(DecidingTest),
    "interval": _member_of(IntervalMethod),
    "tokenizer": _one_of(TOKENIZERS),
    "case": _member_of(Case),
    "chrf_char_order": _chrf("char_order"),
    "chrf_word_order": _chrf("word_order"),
    "chrf_beta": _chrf("beta"),
    "bleu_smooth_method": _one_of(sacrebleu_options.SMOOTH_METHODS),
    "bleu_smooth_value": (
        f"a number from 0 to {sacrebleu_options.MAX_SMOOTH_VALUE:g}, or null (the method's "
        "default)",
        sacrebleu_options.check_smooth_value,
    ),
    "bleu_max_order": (
        f"a whole number from {sacrebleu_options.MIN_BLEU_ORDER} to "
        f"{sacrebleu_options.MAX_BLEU_ORDER}",
        sacrebleu_options.check_bleu_order,
    ),
    **dict.fromkeys(FLAGS, ("true or false", _flag)),
    "empty_refs": _one_of(EMPTY_REFS),
}
