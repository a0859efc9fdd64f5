"""The result in words, for a reader who does not read grids: a few sentences per metric.

Per metric: the best systems, who is significantly ahead of whom going down the ranking and by
how much, which neighbours the test set could not tell apart (with the smallest difference it
could have seen there and how many segments would see theirs), and, where human scores were
analysed with the metrics, whether the metric and the humans agree on the pairs they both tell
apart. Every number is one a table or tooltip shows, rounded the same way (scores and deltas to
four decimals, :func:`~mtgui.report.cells.four_decimals`; the test set's median detectable
difference as the grid's reading line gives it; segment counts as the paired view gives them):
a sentence never claims more precision than the tables.

Qt-free: the window's Summary tab, the HTML/PDF report and ``mtgui eval --summary`` all call
:func:`metric_summaries`. Names from the user's files go through ``name`` (made printable on a
terminal, isolated in a report), as :func:`~mtgui.report.significance.cluster_caption` does.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from mtgui.engine.core import printable
from mtgui.engine.inference import BETTER, EQUIVALENT, WORSE, PairComparison, smallest_unseen
from mtgui.engine.metrics import LABELS
from mtgui.engine.resampling import BootstrapResult
from mtgui.report.cells import four_decimals

HUMAN = "human"
"""The metric of human scores whose agreement the summary reports."""
Name = Callable[[str], str]


def metric_summaries(result: BootstrapResult, name: Name = printable) -> list[tuple[str, str]]:
    """(metric label, paragraph) for every metric of ``result``, in the result's order."""
    return [(LABELS[metric], metric_summary(result, metric, name)) for metric in result.metrics]


def summary_text(result: BootstrapResult, name: Name = printable) -> str:
    """Every metric's paragraph under its label, for the terminal."""
    return "\n\n".join(f"{label}: {text}" for label, text in metric_summaries(result, name))


def metric_summary(result: BootstrapResult, metric: str, name: Name = printable) -> str:
    """A few sentences on one metric: the best, the significant steps down the ranking, the
    neighbours not told apart, the smallest detectable difference, the humans' agreement."""
    order = [entry.system for entry in result.ranking(metric).systems]
    if len(order) < 2:
        return _alone(result, metric, order, name)
    sentences = [_best(result, metric, name)]
    steps = [result.pair(metric, x, y) for x, y in pairwise(order)]
    sentences += [_ahead(steps, name), _apart(result, metric, steps, name)]
    sentences.append(_unseen(result, metric))
    if metric != HUMAN and HUMAN in result.metrics:
        sentences.append(_humans(result, metric, order, name))
    return " ".join(s for s in sentences if s)


def _alone(result: BootstrapResult, metric: str, order: list[str], name: Name) -> str:
    """The sentence for a metric with fewer than two systems: nothing to compare."""
    if not order:
        return "No system was scored."
    score = four_decimals(result.interval(order[0], metric).score)
    return f"Only {name(order[0])} was scored ({score}): there is nothing to compare it with."


def _scored(result: BootstrapResult, metric: str, system: str, name: Name) -> str:
    """'A (0.3012)': a system with its score as the score table shows it."""
    return f"{name(system)} ({four_decimals(result.interval(system, metric).score)})"


def _best(result: BootstrapResult, metric: str, name: Name) -> str:
    """Who leads: the first cluster, and whether it is ahead of everyone else."""
    clusters = result.ranking(metric).clusters
    top = clusters[0]
    listed = _and([_scored(result, metric, s, name) for s in top])
    if len(clusters) == 1:
        return (
            f"The best score is {_scored(result, metric, top[0], name)}, but no system is "
            "significantly ahead of all the others."
        )
    if len(top) == 1:
        return f"{listed} is best, significantly ahead of every other system."
    return (
        f"{listed} lead: each of them is significantly ahead of every system outside this "
        "group, though not necessarily of each other."
    )


def _ahead(steps: list[PairComparison], name: Name) -> str:
    """The significant steps between neighbours in the ranking, with their deltas."""
    found = [p for p in steps if p.verdict in (BETTER, WORSE)]
    if not found:
        return ""
    listed = _and([f"{name(p.x)} ahead of {name(p.y)} by {_size(p)}" for p in found])
    return f"Going down the ranking, significantly: {listed}."


def _apart(result: BootstrapResult, metric: str, steps: list[PairComparison], name: Name) -> str:
    """The neighbours not told apart (or shown equivalent), each with the difference the test
    set could have seen there and the segments that would see theirs."""
    unit = result.settings.unit.value
    close = [p for p in steps if p.verdict not in (BETTER, WORSE)]
    equal = [p for p in close if p.verdict == EQUIVALENT]
    unsure = [p for p in close if p.verdict != EQUIVALENT]
    parts = []
    if unsure:
        listed = _and([_unsure_pair(p, unit, result.units, name) for p in unsure])
        parts.append(f"This test set could not tell apart {listed}.")
    if equal:
        listed = _and([f"{name(p.x)} and {name(p.y)}" for p in equal])
        parts.append(f"Shown equivalent within the margin: {listed}.")
    return " ".join(parts)


FAR_BEYOND = 100
"""A difference that would need more than this many times the test set's units is said to be
beyond any such test set, in words: a count of millions of documents reads as a promise."""


def _unsure_pair(pair: PairComparison, unit: str, units: int, name: Name) -> str:
    """'A and B (0.0012 apart; it would see about 0.0150; about 1,200 segments would settle
    it)', each part only when known."""
    details = [f"{_size(pair)} apart"]
    if pair.mdd is not None and pair.mdd > 0:  # 0 (or NaN): two systems' identical outputs
        details.append(f"it could see about {four_decimals(pair.mdd)}")
    needed = pair.units_needed
    if needed is not None and needed == needed and needed != float("inf"):
        if units and needed > FAR_BEYOND * units:
            details.append(f"it would take over a hundred times this test set's {unit}s")
        else:
            details.append(f"about {max(needed, 1):,.0f} {unit}s would likely settle it")
    return f"{name(pair.x)} and {name(pair.y)} ({'; '.join(details)})"


def _size(pair: PairComparison) -> str:
    """A delta's size as the tables show the delta (four decimals), without its sign."""
    return four_decimals(abs(pair.delta))


def _unseen(result: BootstrapResult, metric: str) -> str:
    """The test set's median minimum detectable difference, as the grid's reading line says."""
    mdd = smallest_unseen(result.pairs, metric)
    if mdd != mdd:  # NaN
        return ""
    return (
        f"Across all pairs, differences smaller than about {mdd:.3g} {LABELS[metric]} can go "
        "unseen on this test set."
    )


def _humans(result: BootstrapResult, metric: str, order: list[str], name: Name) -> str:
    """Whether the metric and the human scores agree on the pairs they both tell apart, and
    the pairs where they order the systems the other way round."""
    both, opposite, humans_only = 0, [], 0
    for i, x in enumerate(order):
        for y in order[i + 1 :]:
            said, human = result.pair(metric, x, y).verdict, result.pair(HUMAN, x, y).verdict
            if human in (BETTER, WORSE) and said not in (BETTER, WORSE):
                humans_only += 1
            if said in (BETTER, WORSE) and human in (BETTER, WORSE):
                both += 1
                if said != human:
                    opposite.append((x, y) if said == BETTER else (y, x))
    label = LABELS[metric]
    if not both:
        text = f"No pair is significantly different under both {label} and the human scores."
    elif not opposite:
        text = (
            f"Where both {label} and the human scores find a significant difference, they agree "
            "on its direction."
        )
    else:
        listed = _and([f"{name(a)} ahead of {name(b)}" for a, b in opposite])
        text = f"{label} and the human scores disagree: {label} puts {listed}; humans the reverse."
    if humans_only:
        text += f" The humans separate some pairs that {label} does not."
    return text


def _and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
