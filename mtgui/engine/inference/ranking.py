"""Ranking systems per metric, with clusters of systems that are not significantly different.

Systems are sorted by their full-set score (best first; for TER and WER the lowest). Each system
gets a rank range: from 1 + the number of systems significantly better than it, to the number
of systems not significantly worse. Clusters cut the sorted list only where every system above
the cut is significantly better than every system below it, as WMT reports its rankings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mtgui.engine.inference.significance import BETTER, WORSE


@dataclass(frozen=True)
class RankedSystem:
    """A system's place in one metric's ranking."""

    system: str
    score: float
    best_rank: int
    worst_rank: int
    cluster: int  # 1 for the best cluster


@dataclass(frozen=True)
class Ranking:
    """One metric's ranking, best first."""

    metric: str
    systems: tuple[RankedSystem, ...]

    @property
    def clusters(self) -> list[list[str]]:
        """The systems of each cluster, best cluster first."""
        groups: dict[int, list[str]] = {}
        for entry in self.systems:
            groups.setdefault(entry.cluster, []).append(entry.system)
        return [groups[key] for key in sorted(groups)]


def rank(
    metric: str,
    scores: dict[str, float],
    higher_is_better: bool,
    verdict: Callable[[str, str], str],
) -> Ranking:
    """Rank ``scores``; ``verdict(x, y)`` is ``>`` when x is significantly better than y."""
    ordered = sorted(scores, key=lambda s: scores[s], reverse=higher_is_better)
    count = len(ordered)
    clusters = _clusters(ordered, verdict)
    entries = []
    for system in ordered:
        better = sum(verdict(other, system) == BETTER for other in ordered if other != system)
        worse = sum(verdict(other, system) == WORSE for other in ordered if other != system)
        entries.append(
            RankedSystem(system, scores[system], 1 + better, count - worse, clusters[system])
        )
    return Ranking(metric, tuple(entries))


def _clusters(ordered: Sequence[str], verdict: Callable[[str, str], str]) -> dict[str, int]:
    """Cluster numbers: a cut after position k where all above beat all below."""
    cluster, result = 1, {}
    for k, system in enumerate(ordered):
        result[system] = cluster
        above, below = ordered[: k + 1], ordered[k + 1 :]
        if below and all(verdict(a, b) == BETTER for a in above for b in below):
            cluster += 1
    return result
