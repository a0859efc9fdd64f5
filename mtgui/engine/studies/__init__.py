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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgui.engine.studies.common import (
        ALL,
        StudyProgress,
    )
    from mtgui.engine.studies.human.study import (
        Disagreement,
        HumanStudy,
        MetricCorrelation,
        iter_human_study,
    )
    from mtgui.engine.studies.refs.run import (
        iter_refs_study,
    )
    from mtgui.engine.studies.refs.study import (
        RefsRow,
        RefsSettings,
        RefsSizeRow,
        RefsStudy,
    )
    from mtgui.engine.studies.resamples.study import (
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
}

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


def __getattr__(name: str) -> Any:
    """A study's name, from the module that defines it, imported now."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value  # found directly next time
    return value
