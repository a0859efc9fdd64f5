"""Zhang & Vogel's studies (2004, section 4) and the agreement of the metrics with humans.

Each study is a generator ``iter_<study>(...)`` that yields :class:`StudyProgress` snapshots
(``done``, ``total``, ``phase`` and ``partial``, the result so far, of the same type as the
final one) after chunks of work of well under 100 ms, and returns a frozen result. It knows
nothing of threads: closing the generator is the cancel. Everything starts from the stored
per-segment statistics; the references study extracts again, against each subset of the
references, reusing every token, and the size study matches the texts once more, so that each
subset's NIST has its own information weights.
"""

from mtgui.engine.studies.common import ALL, StudyProgress
from mtgui.engine.studies.human.study import (
    Disagreement,
    HumanStudy,
    MetricCorrelation,
    iter_human_study,
)
from mtgui.engine.studies.refs.run import iter_refs_study
from mtgui.engine.studies.refs.study import RefsRow, RefsSettings, RefsSizeRow, RefsStudy
from mtgui.engine.studies.resamples.study import (
    ResampleRow,
    ResamplesSettings,
    ResamplesStudy,
    StabilityRow,
    iter_resamples_study,
)
from mtgui.engine.studies.size.run import iter_size_study
from mtgui.engine.studies.size.study import (
    PairSeparation,
    SizeFit,
    SizeRow,
    SizeSettings,
    SizeStudy,
)

__all__ = [
    "ALL",
    "Disagreement",
    "HumanStudy",
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
    "StudyProgress",
    "iter_human_study",
    "iter_refs_study",
    "iter_resamples_study",
    "iter_size_study",
]
