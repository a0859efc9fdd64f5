"""Zhang & Vogel's studies (2004, section 4) and the agreement of the metrics with humans.

Each study is a generator ``iter_<study>(...)`` that yields :class:`StudyProgress` snapshots
(``done``, ``total``, ``phase`` and ``partial``, the result so far, of the same type as the
final one) after chunks of work of well under 100 ms, and returns a frozen result. It knows
nothing of threads: closing the generator is the cancel. Everything starts from the stored
per-segment statistics; the references study extracts again, against each subset of the
references, reusing every token, and the size study matches the texts once more, so that each
subset's NIST has its own information weights.

The names below are imported when first used (PEP 562), not with the package: the engine's
breakdown needs one module of it, and ``mtgui eval`` should not load every study (~35 ms).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.studies.common import (
        ALL,
        StudyProgress,
    )
    from mtgui.engine.studies.dispatch import Study, StudySettings, iter_study, iter_study_for
    from mtgui.engine.studies.human.accuracy import AccuracyTest, MetricAccuracy
    from mtgui.engine.studies.human.correlation_tests import CorrelationTest
    from mtgui.engine.studies.human.study import (
        HUMAN,
        HUMAN_ONLY,
        METRIC_ONLY,
        OPPOSITE,
        Disagreement,
        HumanStudy,
        MetricCorrelation,
        iter_human_study,
    )
    from mtgui.engine.studies.refs.run import (
        iter_refs_study,
    )
    from mtgui.engine.studies.refs.study import (
        DEFAULT_MAX_SUBSETS,
        REFS_RESAMPLES,
        TABLE4_FRACTIONS,
        TABLE4_REPEATS,
        RefsRow,
        RefsSettings,
        RefsSizeRow,
        RefsStudy,
    )
    from mtgui.engine.studies.resamples.study import (
        DEFAULT_RUNS,
        DEFAULT_SIZES,
        DEFAULT_STABILITY_SIZES,
        ResampleRow,
        ResamplesSettings,
        ResamplesStudy,
        StabilityRow,
        iter_resamples_study,
    )
    from mtgui.engine.studies.size.run import (
        iter_size_study,
    )
    from mtgui.engine.studies.size.study import (
        DEFAULT_FRACTIONS,
        SIZE_RESAMPLES,
        PairSeparation,
        SizeFit,
        SizeRow,
        SizeSettings,
        SizeStudy,
    )

_MODULE_OF = {
    "ALL": "common",
    "StudyProgress": "common",
    "Disagreement": "human.study",
    "HumanStudy": "human.study",
    "MetricCorrelation": "human.study",
    "iter_human_study": "human.study",
    "iter_refs_study": "refs.run",
    "RefsRow": "refs.study",
    "RefsSettings": "refs.study",
    "RefsSizeRow": "refs.study",
    "RefsStudy": "refs.study",
    "ResampleRow": "resamples.study",
    "ResamplesSettings": "resamples.study",
    "ResamplesStudy": "resamples.study",
    "StabilityRow": "resamples.study",
    "iter_resamples_study": "resamples.study",
    "iter_size_study": "size.run",
    "PairSeparation": "size.study",
    "SizeFit": "size.study",
    "SizeRow": "size.study",
    "SizeSettings": "size.study",
    "SizeStudy": "size.study",
    "CorrelationTest": "human.correlation_tests",
    "AccuracyTest": "human.accuracy",
    "MetricAccuracy": "human.accuracy",
    "DEFAULT_FRACTIONS": "size.study",
    "DEFAULT_MAX_SUBSETS": "refs.study",
    "DEFAULT_RUNS": "resamples.study",
    "DEFAULT_SIZES": "resamples.study",
    "DEFAULT_STABILITY_SIZES": "resamples.study",
    "HUMAN": "human.study",
    "HUMAN_ONLY": "human.study",
    "METRIC_ONLY": "human.study",
    "OPPOSITE": "human.study",
    "REFS_RESAMPLES": "refs.study",
    "SIZE_RESAMPLES": "size.study",
    "Study": "dispatch",
    "StudySettings": "dispatch",
    "TABLE4_FRACTIONS": "refs.study",
    "TABLE4_REPEATS": "refs.study",
    "iter_study": "dispatch",
    "iter_study_for": "dispatch",
}

__all__ = [
    "ALL",
    "DEFAULT_FRACTIONS",
    "DEFAULT_MAX_SUBSETS",
    "DEFAULT_RUNS",
    "DEFAULT_SIZES",
    "DEFAULT_STABILITY_SIZES",
    "HUMAN",
    "HUMAN_ONLY",
    "METRIC_ONLY",
    "OPPOSITE",
    "REFS_RESAMPLES",
    "SIZE_RESAMPLES",
    "TABLE4_FRACTIONS",
    "TABLE4_REPEATS",
    "AccuracyTest",
    "CorrelationTest",
    "Disagreement",
    "HumanStudy",
    "MetricAccuracy",
    "MetricCorrelation",
    "PairSeparation",
    "RefsRow",
    "RefsSettings",
    "RefsSizeRow",
    "RefsStudy",
    "ResampleRow",
    "ResamplesSettings",
    "ResamplesStudy",
    "SizeFit",
    "SizeRow",
    "SizeSettings",
    "SizeStudy",
    "StabilityRow",
    "Study",
    "StudyProgress",
    "StudySettings",
    "iter_human_study",
    "iter_refs_study",
    "iter_resamples_study",
    "iter_size_study",
    "iter_study",
    "iter_study_for",
]


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
