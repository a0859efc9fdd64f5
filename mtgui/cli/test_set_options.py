"""``--test-set NAME -l PAIR`` (with ``--origlang`` and ``--subset``): a test set of sacreBLEU's
catalogue in place of ``--ref``, ``--src`` and ``--docids`` (see :mod:`mtgui.io.test_sets`).

sacreBLEU's short ``-t`` is mtgui's (and mteval's) ``--hyp``, so the test set has only its long
name here; ``-l``, ``--origlang``/``-ol`` and ``--subset`` are sacreBLEU's.
"""

from __future__ import annotations

import argparse

from mtgui.engine.core import Corpus, InputError
from mtgui.io.test_sets import NamedTestSet, keep_segments, named_test_set, subset_mask


def add_test_set_arguments(group: argparse._ArgumentGroup) -> None:
    """The options of a named test set (in the inputs group)."""
    group.add_argument(
        "--test-set",
        metavar="NAME",
        help="a test set of sacreBLEU's catalogue (wmt23, wmt19, iwslt17...: sacrebleu --list) "
        "in place of --ref, --src and --docids: its references, source and document ids, read "
        "from sacreBLEU's cache ($SACREBLEU, default ~/.sacrebleu) and downloaded there by "
        "sacreBLEU's code when missing; needs -l",
    )
    group.add_argument(
        "--language-pair",
        "-l",
        metavar="PAIR",
        help="the language pair of --test-set, as sacreBLEU names it (en-de)",
    )
    group.add_argument(
        "--origlang",
        "-ol",
        metavar="LANG",
        help="with --test-set: only the documents first written in LANG, or with non-LANG "
        "all others (as sacreBLEU)",
    )
    group.add_argument(
        "--subset",
        metavar="REGEX",
        help="with --test-set: only the documents whose domain (WMT XML sets) or sacreBLEU's "
        "annotation (wmt18, wmt19: country:US, politics...) matches REGEX (as sacreBLEU)",
    )


def test_set_of(args: argparse.Namespace) -> NamedTestSet | None:
    """The test set ``--test-set`` names (found or downloaded), or None without one.

    Raises
    ------
    InputError
        If it is given with --ref, --src, --docids or --demo, if --origlang or --subset is given
        without it, or if the set cannot be had (see :func:`named_test_set`).
    """
    name = getattr(args, "test_set", None)
    filters = [f"--{option}" for option in ("origlang", "subset") if getattr(args, option, None)]
    if name is None:
        if filters or getattr(args, "language_pair", None):
            given = filters[0] if filters else "--language-pair"
            raise InputError(
                f"{given} needs a test set of sacreBLEU's catalogue (--test-set NAME).",
            )
        return None
    inputs = (
        ("--ref", args.ref),
        ("--src", args.src),
        ("--docids", getattr(args, "docids", None)),
        ("--demo", getattr(args, "demo", False)),
    )
    for option, value in inputs:
        if value:
            raise InputError(
                f"--test-set {name} gives the references, the source and the document ids; "
                f"{option} cannot be given with it.",
                hint="Give either --test-set NAME -l PAIR or your own --ref files.",
            )
    return named_test_set(name, args.language_pair)


def filtered(corpus: Corpus, named: NamedTestSet, args: argparse.Namespace) -> Corpus:
    """``corpus`` with only the segments ``--origlang`` and ``--subset`` keep (as it is
    without them)."""
    origlang, subset = getattr(args, "origlang", None), getattr(args, "subset", None)
    if origlang is None and subset is None:
        return corpus
    asked = " ".join(
        f"{option} {value}"
        for option, value in (("--origlang", origlang), ("--subset", subset))
        if value is not None
    )
    return keep_segments(corpus, subset_mask(named, origlang, subset), asked)
