"""The options of ``mtgui study``: what each study needs besides ``mtgui eval``'s options."""

from __future__ import annotations

import argparse
from typing import Any

from mtgui.engine.resampling import BootstrapSettings
from mtgui.engine.studies import (
    DEFAULT_FRACTIONS,
    DEFAULT_MAX_SUBSETS,
    DEFAULT_RUNS,
    DEFAULT_SIZES,
    DEFAULT_STABILITY_SIZES,
    REFS_RESAMPLES,
    SIZE_RESAMPLES,
    TABLE4_FRACTIONS,
    TABLE4_REPEATS,
    RefsSettings,
    ResamplesSettings,
    SizeSettings,
)

StudySettings = SizeSettings | RefsSettings | ResamplesSettings | BootstrapSettings
"""The settings of any study (the human study's are the bootstrap's)."""
STUDY_HELP: dict[str, tuple[str, str, int | None]] = {
    "size": (
        "how much test data is needed (Zhang & Vogel 4.1)",
        "For 10%, 20%, ..., 100% of the documents (of the segments without documents), "
        "bootstrap random subsets, --repeats times each: the average score and relative CI of "
        "every system (Table 2), the fitted rule of thumb (how much doubling the data narrows "
        "the CI), and for each pair of systems the smallest size from which it is significantly "
        "different in at least --agreement of the subsets.",
        SIZE_RESAMPLES,
    ),
    "refs": (
        "how many reference translations are needed (Zhang & Vogel 4.2)",
        "Score with every subset of 1..R references (at most --max-subsets per size, drawn at "
        "random): the median and relative CI by number of references (Table 3), and crossed "
        "with test-set size (Table 4, --repeats random subsets at each of --fractions).",
        REFS_RESAMPLES,
    ),
    "resamples": (
        "how many bootstrap resamples are needed (Zhang & Vogel 4.3)",
        "The median and relative CI with B = --sizes resamples (Table 5: each column equals "
        "mtgui eval --bootstrap B), and how much the CI bounds move over --runs runs with other "
        "seeds at each of --stability-sizes (Table 6).",
        None,
    ),
    "human": (
        "how the metrics agree with human scores (Zhang, Vogel & Waibel)",
        "With per-segment human scores (--scores; 'human' is added to the metrics): the human "
        "scores' CI and grid, each metric's system-level Pearson and Spearman correlation with "
        "them (intervals over systems and segments, by Fisher's z and over segments only), "
        "Williams' test and a paired bootstrap of whether one metric agrees better than "
        "another, and the pairs of systems on which a metric and the humans disagree "
        "significantly.",
        BootstrapSettings.resamples,
    ),
}
"""Per study: the help line, the description and the default B (None: B is the study's
subject)."""


def add_study_options(parser: argparse.ArgumentParser, study: str) -> None:
    """The options of one study."""
    group = parser.add_argument_group("study")
    if study == "size":
        group.add_argument("--fractions", **_fractions(DEFAULT_FRACTIONS))
        group.add_argument(
            "--repeats", "-k", **_count(SizeSettings.repeats, "random subsets at each size")
        )
        group.add_argument(
            "--agreement",
            type=float,
            default=SizeSettings.agreement,
            metavar="SHARE",
            help="share of the subsets in which a pair must be significantly different "
            f"(default: {SizeSettings.agreement})",
        )
    elif study == "refs":
        what = "reference subsets per number of references, at most; more are drawn at random"
        group.add_argument("--max-subsets", **_count(DEFAULT_MAX_SUBSETS, what))
        group.add_argument("--fractions", **_fractions(TABLE4_FRACTIONS))
        what = "random subsets at each size for Table 4 (0: no Table 4)"
        group.add_argument("--repeats", "-k", **_count(TABLE4_REPEATS, what))
    elif study == "resamples":
        group.add_argument("--sizes", **_numbers(DEFAULT_SIZES, "values of B for Table 5"))
        what = "values of B for Table 6"
        group.add_argument("--stability-sizes", **_numbers(DEFAULT_STABILITY_SIZES, what))
        what = "runs with other seeds for Table 6 (0: no Table 6)"
        group.add_argument("--runs", **_count(DEFAULT_RUNS, what))
    elif study == "human":
        group.add_argument(
            "--human",
            metavar="NAME",
            default="human",
            type=str.lower,
            help="the loaded scores that play the humans' part, named as in --scores "
            "FILE:COLUMN=NAME (default: human, the scores of a plain --scores FILE); every "
            "other metric, other loaded scores included, is compared with them",
        )


def study_settings(args: argparse.Namespace, bootstrap: BootstrapSettings) -> StudySettings:
    """The settings of the study the options ask for."""
    if args.study == "size":
        return SizeSettings(bootstrap, args.fractions, args.repeats, args.agreement)
    if args.study == "refs":
        return RefsSettings(bootstrap, args.max_subsets, args.fractions, args.repeats)
    if args.study == "resamples":
        return ResamplesSettings(bootstrap, args.sizes, args.stability_sizes, args.runs)
    return bootstrap


def _fractions(default: tuple[float, ...]) -> dict[str, Any]:
    """The keywords of a --fractions option."""
    shown = ",".join(f"{f:g}" for f in default)
    return {
        "type": _fraction_list,
        "default": default,
        "metavar": "LIST",
        "help": f"sizes as shares of the test set, e.g. 0.1,0.5,1 or 10%%,50%% (default: {shown})",
    }


def _count(default: int, what: str) -> dict[str, Any]:
    """The keywords of an option that counts something."""
    return {"type": int, "default": default, "metavar": "N", "help": f"{what} (default: {default})"}


def _numbers(default: tuple[int, ...], what: str) -> dict[str, Any]:
    """The keywords of an option that takes a list of whole numbers."""
    shown = ",".join(map(str, default))
    return {
        "type": _int_list,
        "default": default,
        "metavar": "LIST",
        "help": f"{what}, comma-separated (default: {shown})",
    }


def _fraction_list(text: str) -> tuple[float, ...]:
    """``0.1,0.5,1`` or ``10%,50%,100%``."""
    values = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        percent = part.endswith("%")
        number = float(part.rstrip("%"))
        values.append(number / 100 if percent else number)
    if not values:
        raise ValueError(text)
    return tuple(values)


def _int_list(text: str) -> tuple[int, ...]:
    """``1000,2000,5000``."""
    values = tuple(int(part) for part in text.split(",") if part.strip())
    if not values:
        raise ValueError(text)
    return values
