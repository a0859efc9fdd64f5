"""The results as LaTeX for a paper (``mtgui eval --latex FILE``): per metric a table of the
scores with their intervals and ranks, and the significance grid, ``booktabs`` style.

Every table is made by :func:`~mtgui.report.table_text.latex_text`, the generator of the
window's "Export LaTeX..." too, so that both escape names alike (``& % $ # _ { } ~ ^ \\``, and
line breaks, which become spaces). What the numbers were made with (the signature, the
bootstrap, the notes) heads the file as ``%`` comments, so that the file says how to reproduce
it without adding text to the paper. Each table is a ``table`` float with a caption that a
user may keep or cut.
"""

from __future__ import annotations

from mtgui._version import __version__
from mtgui.engine.core import Corpus, counted
from mtgui.engine.metrics import Metric
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.report.cells import four_decimals
from mtgui.report.table_text import latex_escape, latex_text

_PREAMBLE = "% needs \\usepackage{booktabs} in the preamble"


def latex_report(corpus: Corpus, statistics: Statistics, result: BootstrapResult | None) -> str:
    """The whole file: the comments, then per metric its scores and (with a bootstrap) its
    grid."""
    parts = [_header(corpus, statistics, result)]
    for metric in statistics.metrics:
        if result is None:
            parts.append(_float(_plain_scores(statistics, metric), _plain_caption(metric)))
            continue
        parts.append(_float(_scores(result, metric), _scores_caption(result, metric)))
        parts.append(_float(_grid(result, metric), _grid_caption(metric)))
    return "\n".join(parts)


def _header(corpus: Corpus, statistics: Statistics, result: BootstrapResult | None) -> str:
    """What made the numbers, as comments (each line one comment: a line break in a name or a
    note cannot end a comment early)."""
    lines = [
        f"mtgui {__version__}: {counted(len(statistics.system_names), 'system')}, "
        f"{counted(corpus.test_set.size, 'segment')}, "
        f"{counted(corpus.test_set.num_references, 'reference')}",
        f"signature: {result.signature if result else statistics.signature()}",
    ]
    if result is not None:
        settings = result.settings
        lines.append(
            f"bootstrap: {settings.resamples} resamples of {settings.unit.value}s, seed "
            f"{settings.seed}, {settings.level * 100:g}% intervals"
        )
    notes = result.notes if result else statistics.notes
    lines += [f"note: {note}" for note in dict.fromkeys([*corpus.notes, *notes])]
    comments = [f"% {' '.join(line.split())}" for line in lines]
    return "\n".join([*comments, _PREAMBLE]) + "\n"


def _float(tabular: str, caption: str) -> str:
    """A ``table`` float holding ``tabular``, captioned."""
    return (
        "\\begin{table}[t]\n\\centering\n" + tabular + f"\\caption{{{caption}}}\n\\end{{table}}\n"
    )


def _scores(result: BootstrapResult, metric: Metric) -> str:
    """Rank, system, score, interval and cluster, best first."""
    level = f"{result.settings.level * 100:g}%"
    header = ["Rank", "System", metric.label, f"{level} CI", "Cluster"]
    rows = []
    for entry in result.ranking(metric.name).systems:
        interval = result.interval(entry.system, metric.name)
        ranks = (
            str(entry.best_rank)
            if entry.best_rank == entry.worst_rank
            else f"{entry.best_rank}--{entry.worst_rank}"
        )
        low, high = four_decimals(interval.ci_low), four_decimals(interval.ci_high)
        score = four_decimals(interval.score)
        rows.append([ranks, entry.system, score, f"[{low}, {high}]", str(entry.cluster)])
    return _tabular(header, rows)


def _plain_scores(statistics: Statistics, metric: Metric) -> str:
    """System and score, best first (no bootstrap: no intervals)."""
    rows = [
        [name, four_decimals(statistics.score(name, metric.name))]
        for name in statistics.ranked_systems(metric.name)
    ]
    return _tabular(["System", metric.label], rows)


def _grid(result: BootstrapResult, metric: Metric) -> str:
    """Row against column, the systems numbered as in the scores table's order."""
    order, matrix = result.grid(metric.name)
    header = ["", "System", *(str(k + 1) for k in range(len(order)))]
    rows = [
        [str(k + 1), name, *row] for k, (name, row) in enumerate(zip(order, matrix, strict=True))
    ]
    return _tabular(header, rows)


def _tabular(header: list[str], rows: list[list[str]]) -> str:
    """The shared booktabs tabular, without its own comment lines (the file has them once)."""
    text = latex_text(header, rows)
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("%"))


def _direction(metric: Metric) -> str:
    return "" if metric.higher_is_better else " (lower is better)"


def _scores_caption(result: BootstrapResult, metric: Metric) -> str:
    level = f"{result.settings.level * 100:g}"
    return latex_escape(
        f"{metric.label}{_direction(metric)}: scores with {level}% bootstrap confidence "
        f"intervals ({result.settings.resamples} resamples). Rank: the ranks a system can take; "
        "a cluster holds systems not distinguishable from each other."
    )


def _grid_caption(metric: Metric) -> str:
    reading = latex_escape(
        f"{metric.label}: row against column: > the row system is significantly better, "
        "< significantly worse, "
    )
    return reading + "$\\sim$ not distinguishable (= equivalent, where a margin is given)."


def _plain_caption(metric: Metric) -> str:
    return latex_escape(f"{metric.label}{_direction(metric)}: scores (no bootstrap).")
