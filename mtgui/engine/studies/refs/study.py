"""How many reference translations are needed (Zhang & Vogel 2004, 4.2, Table 3, Figure 8,
Table 4).

For r = 1..R references, every subset of r of the R references (or, when there are more than
``max_subsets`` such subsets, that many drawn at random with the study's seed) scores every
system again: the statistics are re-extracted against the subset through a restricted
:class:`~mtgui.engine.metrics.extraction.ExtractionContext`, which reuses every token and token id
and rebuilds only the reference n-gram index and NIST's information weights (with R = r in NIST's
length penalty); the clipped matches are derived from those against all references
(:mod:`~mtgui.engine.studies.refs.matches`), not matched again. chrF and TER are re-extracted
through their usual path, at their usual cost. Human scores do not depend on the references.

Each subset's statistics are bootstrapped with the same seed (the same resamples for every
subset, so that the differences between rows come from the references, not from resampling),
and Table 3 averages over the subsets of r references each system's score, bootstrap median and
(relative) CI. Table 4 crosses references with test-set size: each subset's statistics go
through the size study (:mod:`mtgui.engine.studies.size.study`, by default 10 random test sets at
each of 50%, 60%, ..., 100%), averaged over the subsets of r references the same way. The size
studies of all subsets run at once (:func:`~mtgui.engine.studies.size.run.iter_size_studies`):
they share every test set and its resamples, so each is drawn and multiplied once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import numpy as np

from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.missing_refs import MISSING, fewer_references_note
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.scale import SCALES
from mtgui.engine.studies.size.study import SizeSettings

REFS_RESAMPLES = 500
"""The study's default B, for Table 3 and for each test set of Table 4."""
DEFAULT_MAX_SUBSETS = 10
TABLE4_FRACTIONS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
TABLE4_REPEATS = 10
_SUBSETS_STREAM = 4  # the random choice of reference subsets: default_rng([seed, 4])


def _refs_bootstrap() -> BootstrapSettings:
    return BootstrapSettings(resamples=REFS_RESAMPLES)


@dataclass(frozen=True)
class RefsSettings:
    """How many reference subsets per r, the bootstrap, and Table 4's sizes and repetitions
    (``repeats`` 0: no Table 4)."""

    bootstrap: BootstrapSettings = field(default_factory=_refs_bootstrap)
    max_subsets: int = DEFAULT_MAX_SUBSETS
    fractions: tuple[float, ...] = TABLE4_FRACTIONS
    repeats: int = TABLE4_REPEATS
    bleu_scale: int = 1  # BLEU and M-BLEU on 0-1 or on sacreBLEU's 0-100 (engine.scale)

    def __post_init__(self) -> None:
        if self.bleu_scale not in SCALES:
            raise InputError(f"the BLEU scale must be 1 or 100, not {self.bleu_scale}.")
        if self.max_subsets < 1:
            raise InputError(f"at least one reference subset is needed, not {self.max_subsets}.")
        if self.repeats < 0:
            raise InputError(f"the number of repetitions cannot be negative ({self.repeats}).")
        if self.repeats:  # the size study checks the fractions and repetitions
            fractions = self.size_settings().fractions
            object.__setattr__(self, "fractions", fractions)

    def size_settings(self) -> SizeSettings:
        """The size study run on each reference subset for Table 4."""
        return SizeSettings(self.bootstrap, self.fractions, max(self.repeats, 1))

    def signature(self) -> str:
        """The study part of a result's signature."""
        fractions = ",".join(f"{f:g}" for f in self.fractions)
        scale = "|bleu-scale:100" if self.bleu_scale == 100 else ""
        return (
            f"refs|subsets:{self.max_subsets}|fractions:{fractions}|repeats:{self.repeats}|"
            f"{self.bootstrap.signature()}{scale}"
        )


@dataclass(frozen=True)
class RefsRow:
    """Table 3: one system under one metric with r references, averaged over the subsets."""

    references: int
    system: str
    metric: str
    subsets: int  # reference subsets averaged so far
    score: float
    score_min: float  # the lowest and highest score over the subsets
    score_max: float
    median: float
    ci_low: float
    ci_high: float
    rel_ci_low: float  # percent
    rel_ci_high: float


@dataclass(frozen=True)
class RefsSizeRow:
    """Table 4: the average relative CI with r references on a fraction of the test set."""

    references: int
    fraction: float
    system: str
    metric: str
    subsets: int
    score: float
    rel_ci_low: float
    rel_ci_high: float


@dataclass(frozen=True)
class RefsStudy:
    """The number-of-references study, complete or (in a progress snapshot) so far."""

    settings: RefsSettings
    signature: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    references: tuple[str, ...]  # the names of all references
    subsets: tuple[tuple[str, ...], ...]  # the reference subsets scored, in order
    rows: tuple[RefsRow, ...]  # Table 3: r by r, then metric, then system
    sizes: tuple[RefsSizeRow, ...]  # Table 4: r by r, then metric, system and fraction
    notes: tuple[str, ...] = ()


def reference_subsets(count: int, limit: int, seed: int) -> list[tuple[int, ...]]:
    """For r = 1..count, every subset of r references, or ``limit`` of them drawn at random."""
    rng = np.random.default_rng([seed, _SUBSETS_STREAM])
    chosen: list[tuple[int, ...]] = []
    for r in range(1, count + 1):
        if comb(count, r) <= limit:
            chosen += combinations(range(count), r)
            continue
        every = list(combinations(range(count), r))
        chosen += [every[i] for i in sorted(rng.choice(len(every), limit, replace=False))]
    return chosen


def study_notes(
    corpus: Corpus, settings: RefsSettings, subsets: int, empty_refs: str = MISSING
) -> list[str]:
    """What the user should know about the reference subsets (and the segments with fewer
    references, whose empty lines count where a subset leaves them none)."""
    count = corpus.test_set.num_references
    notes = fewer_references_note(corpus.test_set, empty_refs)
    if notes:
        notes.append(
            "A subset of the references that leaves a segment none of its own scores that "
            "segment against the subset's empty lines."
        )
    if count == 1:
        notes.append("The test set has a single reference, so there are no fewer to compare.")
    if subsets < 2**count - 1:
        notes.append(
            f"Where more than {settings.max_subsets} subsets of the {count} references have the "
            f"same size, {settings.max_subsets} of them drawn at random were scored."
        )
    return notes
