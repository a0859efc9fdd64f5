"""What a view says when it is asked for a metric or a system that the results it holds lack.

A view holds results made at some moment (the analysis shown, or a breakdown of an earlier
one), while the metric chooser and the systems offered elsewhere follow the files and settings
of now. The two can be out of step for a while: a breakdown made before chrF++ was ticked has
no chrF++ scores. Asked for what it lacks, a view shows nothing of it and says so in these
words, rather than looking it up and failing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from mtgui.engine.metrics import LABELS

NOT_IN_RESULTS = "not in these results"
"""The words every view uses for a metric or a system its results lack."""


def missing_text(
    metric: str | None,
    metrics: Collection[str],
    systems: Iterable[str] = (),
    known_systems: Collection[str] = (),
) -> str:
    """What is missing, in a sentence ("chrF++ is not in these results."), or "" if
    ``metric`` is among ``metrics`` (None: not asked) and every one of ``systems`` among
    ``known_systems``."""
    if metric is not None and metric not in metrics:
        return f"{LABELS.get(metric, metric)} is {NOT_IN_RESULTS}."
    absent = [name for name in dict.fromkeys(systems) if name not in known_systems]
    if not absent:
        return ""
    names = ", ".join(absent)
    return f"{names} {'is' if len(absent) == 1 else 'are'} {NOT_IN_RESULTS}."
