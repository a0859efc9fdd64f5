"""How to resample: B, the level, the seed, the unit, the correction and its
family (:class:`BootstrapSettings`), with the rules that check each value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.choices import DecidingTest, IntervalMethod
from mtgui.engine.inference.corrections import Family, family_size, resamples_needed, rounded_up
from mtgui.engine.inference.significance import Correction, alpha_of, tail_rank
from mtgui.engine.runtime.gil_free import distinct_count

MIN_RESAMPLES, MAX_RESAMPLES = 100, 100_000


DEFAULT_RESAMPLES = 2000  # as in the papers


RAISED = "The bootstrap drew "
"""How the note that says B was raised begins (:meth:`BootstrapSettings.raise_note`)."""


AR_TRIALS = 10_000  # approximate randomization trials when no number is given (as sacreBLEU)


MIN_LEVEL, DEFAULT_LEVEL, MAX_LEVEL = 0.5, 0.95, 0.999


DEFAULT_SEED = 12345  # sacreBLEU's default seed


# Seeds are numpy's 32-bit seeds: default_rng takes any whole number from 0, and the studies'
# derived seeds (32-bit words of a SeedSequence) stay in this range too.
MAX_SEED = 2**32 - 1


# AUTO resamples documents from MIN_DOCUMENTS on; below FEW_DOCUMENTS a note says their
# intervals run a little narrow (bench/bench_calibration.py; see resolve_unit).
MIN_DOCUMENTS, FEW_DOCUMENTS = 10, 30


SEGMENTS_NOTE = (
    "If the sentences of a document are alike, as in news, the intervals are too narrow and "
    "false positives can be far above the level (measured: 32-59% at 5% on WMT news "
    "documents)."
)


"""What resampling single segments costs when documents exist, in words (see resolve_unit)."""


DOCIDS_HINT = (
    "Give the documents with --docids FILE (one document id per line, as WMT's *.docids; in "
    "the window, a file of the role 'document ids'), or load SGML or WMT XML files."
)


"""How to give plain text its documents."""


_NARROW_PERCENTILES = "Whole documents were resampled, but with only"


_NO_DOCUMENTS_NOTE = (
    "The test set has no documents, so single segments were resampled. "
    f"{SEGMENTS_NOTE} {DOCIDS_HINT}"
)


class Unit(StrEnum):
    """What is resampled: single segments, or whole documents (Koehn's caveat on correlation).

    ``AUTO`` (the default) resamples documents when the test set has enough of them
    (:data:`MIN_DOCUMENTS`), else segments; a result always records the unit actually used.
    """

    AUTO = "auto"
    SEGMENT = "segment"
    DOCUMENT = "document"


@dataclass(frozen=True)
class BootstrapSettings:
    """How to resample. ``ar_trials`` > 0 adds approximate randomization with that many trials;
    ``correction`` corrects each metric's grid for its many comparisons, and then decides the
    verdicts."""

    resamples: int = DEFAULT_RESAMPLES
    level: float = DEFAULT_LEVEL
    seed: int = DEFAULT_SEED
    unit: Unit = Unit.AUTO
    ar_trials: int = 0
    correction: Correction = Correction.NONE
    family: Family = Family.METRIC
    raise_resamples: bool = True  # False: refuse a B too small for the correction
    equivalence: tuple[tuple[str, float], ...] = ()  # (metric, margin) for equivalence tests
    raised_from: int | None = None  # the B asked for, when it was raised (see enough_for)
    test: DecidingTest = DecidingTest.BOOTSTRAP  # for means of segment scores (segment_tests)
    interval: IntervalMethod = IntervalMethod.AUTO  # see resolve_interval

    def __post_init__(self) -> None:
        check_resamples(self.resamples)
        check_level(self.level)
        check_seed(self.seed)
        if tail_rank(self.resamples, self.level) < 1:
            raise InputError(
                f"with {self.resamples:,} resamples no difference can be significant at "
                f"{self.level * 100:g}%: the smallest bootstrap p-value is 2/(B + 1).",
                hint=f"Use at least {fewest_resamples(self.level):,} resamples at this level.",
            )
        if self.ar_trials and not MIN_RESAMPLES <= self.ar_trials <= MAX_RESAMPLES:
            raise InputError(
                f"the number of randomization trials must be from {MIN_RESAMPLES:,} to "
                f"{MAX_RESAMPLES:,}, not {self.ar_trials:,}."
            )
        object.__setattr__(self, "unit", Unit(self.unit))
        object.__setattr__(self, "correction", Correction(self.correction))
        object.__setattr__(self, "test", DecidingTest(self.test))
        object.__setattr__(self, "interval", IntervalMethod(self.interval))
        object.__setattr__(self, "family", Family(self.family))
        for metric, margin in self.equivalence:
            check_margin(metric, margin)

    def margin(self, metric: str) -> float | None:
        """The equivalence margin asked for ``metric``, None if none was."""
        return next((margin for name, margin in self.equivalence if name == metric), None)

    def enough_for(self, systems: int, metrics: int, groups: int = 0) -> BootstrapSettings:
        """These settings with B raised, where the correction could reject nothing over the
        family of ``systems`` systems and ``metrics`` metrics, to the smallest round number
        that can (``raised_from`` keeps the B asked for; :meth:`raise_note` says why); or an
        :class:`InputError` in words where raising is not allowed or not possible. ``groups``:
        the breakdowns' groups, which join the family under ``--family all``."""
        pairs = family_size(systems, metrics, self.family)
        if self.family is Family.ALL:
            pairs *= 1 + groups
        needed = resamples_needed(self.correction, pairs, self.level)
        if self.resamples >= needed:
            return self
        raised = max(rounded_up(needed), MIN_RESAMPLES)
        if not self.raise_resamples or raised > MAX_RESAMPLES:
            raise InputError(
                f"with {self.resamples:,} resamples {self.correction.label} over "
                f"{_comparisons(pairs, self.family)} can find no difference at "
                f"{self.level * 100:g}%: {_why(pairs, self.level, needed)}.",
                hint=f"Use at least {needed:,} resamples ({raised:,}), or the max-T correction "
                "(--correction maxt), which needs no more; without --no-raise-resamples mtgui "
                "raises B itself."
                if raised <= MAX_RESAMPLES
                else "Use the max-T correction (--correction maxt), or fewer systems.",
            )
        return replace(self, resamples=raised, raised_from=self.resamples)

    def raise_note(self, systems: int, metrics: int, groups: int = 0) -> list[str]:
        """The note that says B was raised, from what to what and why (none if it was not);
        ``groups`` as for :meth:`enough_for`."""
        if self.raised_from is None:
            return []
        pairs = family_size(systems, metrics, self.family)
        if self.family is Family.ALL:
            pairs *= 1 + groups
        needed = resamples_needed(self.correction, pairs, self.level)
        return [
            f"{RAISED}{self.resamples:,} resamples instead of the "
            f"{self.raised_from:,} asked for: with {self.correction.label} over "
            f"{_comparisons(pairs, self.family)}, {_why(pairs, self.level, needed)}; with "
            "fewer, no difference could be significant."
        ]

    def signature(self) -> str:
        """The resampling part of a result's signature."""
        ar = f"|ar:{self.ar_trials}" if self.ar_trials else ""
        correction = "" if self.correction is Correction.NONE else f"|{self.correction}"
        if self.family is Family.ALL:
            correction += "|family:all"
        margins = "".join(f"|eq:{metric}={margin:g}" for metric, margin in self.equivalence)
        test = "" if self.test is DecidingTest.BOOTSTRAP else f"|test:{self.test}"
        interval = "" if self.interval is IntervalMethod.PERCENTILE else f"|ci:{self.interval}"
        return (
            f"bs:{self.resamples}|seed:{self.seed}|unit:{self.unit}|level:{self.level}"
            f"{ar}{correction}{margins}{test}{interval}"
        )

    def resolved(self, document_index: IntArray | None) -> tuple[BootstrapSettings, list[str]]:
        """These settings with the unit that will really be resampled, and notes that say why
        when it is not the one asked for or when it is unreliable (see :func:`resolve_unit`)."""
        unit, notes = resolve_unit(self.unit, document_index)
        interval, interval_notes = resolve_interval(
            self.interval, unit, document_index, self.correction
        )
        if interval is not IntervalMethod.PERCENTILE:  # the narrow percentiles are not used
            notes = [note for note in notes if not note.startswith(_NARROW_PERCENTILES)]
        return replace(self, unit=unit, interval=interval), [*notes, *interval_notes]


def check_margin(metric: str, margin: float) -> float:
    """``margin`` if it is an equivalence margin (a positive finite number), else an
    :class:`InputError` naming the metric."""
    number = isinstance(margin, int | float | np.floating) and not isinstance(margin, bool)
    if not number or not 0 < margin < float("inf"):
        raise InputError(
            f"the equivalence margin of {metric} must be a positive number, not {margin!r}.",
            hint="For example --equivalence bleu=0.01 (one BLEU point on the 0-1 scale).",
        )
    return float(margin)


def _comparisons(pairs: int, family: Family) -> str:
    """The family's size and kind in words."""
    counted = "1 comparison" if pairs == 1 else f"{pairs:,} comparisons"
    return f"{counted} ({family.words})"


def _why(pairs: int, level: float, needed: int) -> str:
    """Why a correction needs ``needed`` resamples, in words."""
    alpha = float(alpha_of(level))
    return (
        f"the smallest p-value a pair can get, 2/(B + 1), must stay below {alpha:g}/{pairs:,} "
        f"for any difference to be significant, which takes at least {needed:,} resamples"
    )


def check_resamples(resamples: int) -> int:
    """``resamples`` if it is a number of bootstrap resamples mtgui takes (a whole number from
    :data:`MIN_RESAMPLES` to :data:`MAX_RESAMPLES`), else an :class:`InputError`: the one rule
    of the engine, the command line and sessions."""
    if isinstance(resamples, bool) or not isinstance(resamples, int | np.integer):
        raise InputError(f"the number of resamples must be a whole number, not {resamples!r}.")
    if not MIN_RESAMPLES <= resamples <= MAX_RESAMPLES:
        raise InputError(
            f"the number of resamples must be from {MIN_RESAMPLES:,} to {MAX_RESAMPLES:,}, "
            f"not {resamples:,}."
        )
    return int(resamples)


def check_level(level: float) -> float:
    """``level`` if it is a confidence level mtgui takes (:data:`MIN_LEVEL` to
    :data:`MAX_LEVEL`), else an :class:`InputError`: the one rule of the engine, the command
    line and sessions."""
    if isinstance(level, bool) or not isinstance(level, int | float | np.floating):
        raise InputError(f"the confidence level must be a number, not {level!r}.")
    if not MIN_LEVEL <= level <= MAX_LEVEL:  # NaN fails too
        raise InputError(
            f"the confidence level must be from {MIN_LEVEL} to {MAX_LEVEL}, not {level}.",
            hint="0.95 means 95% intervals.",
        )
    return level


def check_seed(seed: int) -> int:
    """``seed`` if it is a seed mtgui takes (a whole number from 0 to :data:`MAX_SEED`), else
    an :class:`InputError`: the one rule of the engine, the command line and sessions. numpy's
    ``default_rng`` refuses negative seeds, and it would do so on the thread that draws the
    resamples."""
    whole = isinstance(seed, int | np.integer) and not isinstance(seed, bool)
    if not whole or not 0 <= seed <= MAX_SEED:
        raise InputError(
            f"the seed must be a whole number from 0 to {MAX_SEED:,}, not {seed!r}.",
        )
    return int(seed)


def fewest_resamples(level: float) -> int:
    """The smallest B at which a difference can be significant at ``level``."""
    return next(b for b in range(1, MAX_RESAMPLES + 2) if tail_rank(b, level) >= 1)


def resolve_unit(unit: Unit, document_index: IntArray | None) -> tuple[Unit, list[str]]:
    """The unit to resample for the unit asked for, and notes in words.

    ``AUTO`` takes documents when there are at least :data:`MIN_DOCUMENTS` of them: sentences
    of one document are alike, and resampling them one by one then gives intervals that are too
    narrow however large the test set (95% intervals covered the true BLEU about 79% of the
    time in ``bench/bench_calibration.py``). Document resampling is itself a little narrow
    with few documents (89-93% from 10 to 30), and below 10 worse than segment resampling on
    some measures, so with fewer documents segments are resampled, with a note. ``DOCUMENT``
    without documents falls back to segments, with a note; with few documents it is kept, with
    a warning.

    Whenever segments are resampled while the documents are unknown (plain text without
    document ids), or known but a segment unit was forced, a note (:data:`SEGMENTS_NOTE`) says
    what that costs: where a document's sentences are alike, a true null was called
    significant at 5% in 32-59% of WMT news test sets (issue 33's review), and how to give
    document ids.
    """
    documents = 0 if document_index is None else distinct_count(document_index)
    if unit is Unit.SEGMENT:
        if documents > 1:
            return unit, [
                f"Single segments were resampled as asked, though the test set has {documents:,} "
                f"documents. {SEGMENTS_NOTE} Resample documents (unit auto or document) to "
                "take that into account."
            ]
        return unit, [] if documents else [_NO_DOCUMENTS_NOTE]
    if documents == 0:
        return Unit.SEGMENT, [_NO_DOCUMENTS_NOTE]
    if documents == 1 and unit is Unit.DOCUMENT:  # every resample would be the test set itself
        return Unit.SEGMENT, ["The test set is one document, so single segments were resampled."]
    if documents >= FEW_DOCUMENTS:
        return Unit.DOCUMENT, []
    counted = "1 document" if documents == 1 else f"{documents} documents"
    are = "is" if documents == 1 else "are"
    if documents >= MIN_DOCUMENTS:
        return Unit.DOCUMENT, [
            f"{_NARROW_PERCENTILES} {counted} the intervals are a "
            f"little too narrow (95% intervals cover about 89-93% below {FEW_DOCUMENTS} "
            "documents)."
        ]
    if unit is Unit.DOCUMENT:
        return unit, [
            f"Whole documents were resampled as asked, but {counted} {are} too few for that to "
            f"be reliable (mtgui wants {MIN_DOCUMENTS} or more): the intervals are too narrow."
        ]
    return Unit.SEGMENT, [
        f"Single segments were resampled: {counted} {are} too few to resample documents "
        f"reliably (mtgui wants {MIN_DOCUMENTS} or more). {SEGMENTS_NOTE}"
    ]


def resolve_interval(
    method: IntervalMethod,
    unit: Unit,
    document_index: IntArray | None,
    correction: Correction = Correction.NONE,
) -> tuple[IntervalMethod, list[str]]:
    """How intervals are read for the method asked for, and a note when ``AUTO`` chose.

    ``AUTO`` takes the studentized interval (:mod:`mtgui.engine.resampling.studentized`) where
    documents are resampled and there are :data:`MIN_DOCUMENTS` to :data:`FEW_DOCUMENTS` - 1 of
    them: there 95% percentile intervals cover only about 88-92%, and BCa no better, while the
    studentized ones come closer to 95% (``bench/bench_calibration.py --intervals``). Elsewhere
    it takes percentiles, the papers' interval, which is calibrated there. Under a correction
    every method gives way to the correction's own intervals (percentile ones at the level
    that decided each pair, :mod:`mtgui.engine.inference.corrections`), with a note if one was asked
    for.
    """
    if correction is not Correction.NONE:  # the correction gives each pair its own interval
        if method in (IntervalMethod.AUTO, IntervalMethod.PERCENTILE):
            return IntervalMethod.PERCENTILE, []
        return IntervalMethod.PERCENTILE, [
            f"The intervals are percentile ones, not {method.label}: under {correction.label} "
            "each pair's interval is the one at the level that decided it, so that it agrees "
            "with the corrected verdict. BCa and studentized intervals apply without a "
            "correction."
        ]
    if method is not IntervalMethod.AUTO:
        return method, []
    documents = 0 if document_index is None else distinct_count(document_index)
    if unit is Unit.DOCUMENT and MIN_DOCUMENTS <= documents < FEW_DOCUMENTS:
        return IntervalMethod.STUDENTIZED, [
            f"Whole documents were resampled; with only {documents} of them percentile "
            "intervals run a little narrow (95% ones cover about 88-92% below "
            f"{FEW_DOCUMENTS} documents), so the intervals and verdicts are studentized "
            "(bootstrap-t), which cover close to the level there."
        ]
    return IntervalMethod.PERCENTILE, []
