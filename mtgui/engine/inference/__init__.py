"""What the resampled scores mean: p-values, intervals, verdicts, corrections for many
comparisons (Holm, Benjamini-Hochberg, max-T), power and equivalence, segment-level tests,
the ranking and how often humans would agree with a metric delta (Kocmi et al. 2024).

Pure functions of arrays of resampled scores; the bootstrap that makes them is
:mod:`mtgui.engine.resampling`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.inference.choices import DecidingTest, IntervalMethod
    from mtgui.engine.inference.corrections import Family
    from mtgui.engine.inference.human_agreement import (
        AGREEMENT_CAVEAT,
        AGREEMENT_PAPER,
        HUMAN_AGREEMENT_SOURCE,
        AgreementFit,
        HumanAgreement,
        agreement_for,
        agreement_words,
    )
    from mtgui.engine.inference.intervals import INTERVAL_FIELDS, ScoreInterval
    from mtgui.engine.inference.power import smallest_unseen
    from mtgui.engine.inference.ranking import Ranking, rank
    from mtgui.engine.inference.segment_tests import (
        SEGMENT_TEST_FIELDS,
        SegmentComparison,
        describe_segments,
    )
    from mtgui.engine.inference.significance import (
        BETTER,
        EQUIVALENT,
        OPTIONAL_PAIR_FIELDS,
        PAIR_FIELDS,
        TIE,
        WORSE,
        Correction,
        PairComparison,
    )

_MODULE_OF = {
    "AGREEMENT_CAVEAT": "human_agreement",
    "AGREEMENT_PAPER": "human_agreement",
    "AgreementFit": "human_agreement",
    "HUMAN_AGREEMENT_SOURCE": "human_agreement",
    "HumanAgreement": "human_agreement",
    "agreement_words": "human_agreement",
    "agreement_for": "human_agreement",
    "BETTER": "significance",
    "Correction": "significance",
    "DecidingTest": "choices",
    "EQUIVALENT": "significance",
    "Family": "corrections",
    "INTERVAL_FIELDS": "intervals",
    "IntervalMethod": "choices",
    "OPTIONAL_PAIR_FIELDS": "significance",
    "PAIR_FIELDS": "significance",
    "PairComparison": "significance",
    "Ranking": "ranking",
    "rank": "ranking",
    "SEGMENT_TEST_FIELDS": "segment_tests",
    "ScoreInterval": "intervals",
    "SegmentComparison": "segment_tests",
    "TIE": "significance",
    "WORSE": "significance",
    "describe_segments": "segment_tests",
    "smallest_unseen": "power",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "AGREEMENT_CAVEAT",
    "AGREEMENT_PAPER",
    "BETTER",
    "EQUIVALENT",
    "HUMAN_AGREEMENT_SOURCE",
    "INTERVAL_FIELDS",
    "OPTIONAL_PAIR_FIELDS",
    "PAIR_FIELDS",
    "SEGMENT_TEST_FIELDS",
    "TIE",
    "WORSE",
    "AgreementFit",
    "Correction",
    "DecidingTest",
    "Family",
    "HumanAgreement",
    "IntervalMethod",
    "PairComparison",
    "Ranking",
    "ScoreInterval",
    "SegmentComparison",
    "agreement_for",
    "agreement_words",
    "describe_segments",
    "rank",
    "smallest_unseen",
]


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
