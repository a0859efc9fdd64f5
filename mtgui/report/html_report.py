"""A report to send: one self-contained HTML file with everything an evaluation found.

For people who do not have mtgui: what was compared (files, systems, references, settings,
signature, date, version), the score table with intervals and ranks, each metric's coloured
grid with how to read it and its clusters, the distributions, and the notes. Self-contained
means no external links, scripts, fonts or images: the plots are inline SVG and the style sheet
is in the file, so it opens the same anywhere, offline, years later. Every text that comes from
the user's files (system names, file names) is escaped and isolated (:mod:`mtgui.report.bidi`).
The same HTML, printed, is the PDF.

The report is meant to be sent, so it names files by their names only: a full path tells the
reader the sender's user name and folders. ``paths=True`` (``--report-paths``) gives the full
paths. The scores of many metrics are split into tables of at most
:data:`METRICS_PER_TABLE` metrics each, so that a table fits a printed page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from html import escape

from mtgui._version import __version__
from mtgui.engine.core import Corpus, counted
from mtgui.engine.inference import (
    AGREEMENT_CAVEAT,
    AGREEMENT_PAPER,
    BETTER,
    EQUIVALENT,
    WORSE,
    HumanAgreement,
)
from mtgui.engine.metrics import Metric
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.report.agreement import metric_agreement
from mtgui.report.bidi import balanced, html_isolated, isolated
from mtgui.report.cells import four_decimals
from mtgui.report.html_plots import distribution_svg
from mtgui.report.html_style import STYLE
from mtgui.report.settings_text import CASE_WORDS, scale_note
from mtgui.report.significance import cluster_caption, grid_reading
from mtgui.report.verdicts import metric_summaries

VERDICT_CLASS = {BETTER: "better", WORSE: "worse", EQUIVALENT: "equal"}
METRICS_PER_TABLE = 4
"""At most this many metrics side by side in a scores table (their cells fit an A4 page)."""


def html_report(
    corpus: Corpus,
    statistics: Statistics,
    result: BootstrapResult | None,
    created: datetime,
    paths: bool = False,
) -> str:
    """The whole report as one HTML document; files named by their names, or by their full
    paths when ``paths``."""
    title = report_title(corpus)
    body = [
        f"<h1>MT evaluation: {html_isolated(_test_set_name(corpus))}</h1>",
        f'<p class="made">Made by mtgui {escape(__version__)} on '
        f"{escape(created.strftime('%Y-%m-%d %H:%M'))}.</p>",
        _summary(result),
        _compared(corpus, statistics, result, paths),
        _scores(statistics, result),
    ]
    if result is not None:
        body += [_metric_section(statistics, result, metric) for metric in result.metrics]
    body.append(_notes(corpus, statistics, result))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(part for part in body if part)
        + "\n</body>\n</html>\n"
    )


def _summary(result: BootstrapResult | None) -> str:
    """The result in words, first: a paragraph per metric for a reader who reads no grid."""
    if result is None:
        return ""
    paragraphs = "\n".join(
        f"<p><strong>{html_isolated(label)}</strong>: {escape(text)}</p>"
        for label, text in metric_summaries(result, isolated)
    )
    return f'<h2>Summary</h2>\n<div class="summary">\n{paragraphs}\n</div>'


def report_title(corpus: Corpus) -> str:
    """The report's title (and the PDF's): what was evaluated (its bidirectional controls
    balanced: a title is shown on its own line, in a window's title bar or a file list)."""
    return f"MT evaluation: {balanced(_test_set_name(corpus))}"


def _test_set_name(corpus: Corpus) -> str:
    """The test set's name from its files' metadata, else the reference file's name."""
    metadata = corpus.test_set.metadata
    for key in ("setid", "collection", "testsuite"):
        if metadata.get(key):
            return metadata[key]
    return corpus.test_set.references[0].origin.file_name if corpus.test_set.references else ""


def _compared(
    corpus: Corpus, statistics: Statistics, result: BootstrapResult | None, paths: bool
) -> str:
    """What was compared and how: files, systems, references and every setting."""
    test_set = corpus.test_set
    documents = len(test_set.documents) if test_set.has_documents else 0
    size = counted(test_set.size, "segment") + (
        f" in {counted(documents, 'document')}" if documents else ""
    )
    rows = [  # (name, HTML): names from the user's files isolated, the rest escaped
        ("Test set", escape(size)),
        ("References", ", ".join(html_isolated(r.name) for r in test_set.references)),
        ("Systems", ", ".join(html_isolated(name) for name in corpus.system_names)),
        ("Metrics", ", ".join(_metric_label(metric) for metric in statistics.metrics)),
        ("Tokenizer", escape(statistics.settings.tokenize)),
        ("Case", escape(CASE_WORDS[statistics.settings.case])),
    ]
    if result is not None:
        rows += [(name, escape(value)) for name, value in _resampling(result)]
    signature = (
        result.signature if result is not None else f"mtgui:{__version__}|{statistics.signature()}"
    )
    rows.append(("Signature", f"<code>{escape(signature)}</code>"))
    cells = "\n".join(f"<tr><th>{escape(name)}</th><td>{value}</td></tr>" for name, value in rows)
    files = "\n".join(
        f"<li><code>{html_isolated(name)}</code> ({escape(form)})</li>"
        for name, form in _files(corpus, paths)
    )
    return (
        "<h2>What was compared</h2>\n"
        f'<table class="facts">\n{cells}\n</table>\n'
        f'<h3>Files</h3>\n<ul class="files">\n{files}\n</ul>'
    )


def _resampling(result: BootstrapResult) -> list[tuple[str, str]]:
    """How the bootstrap was run, as (name, text) rows."""
    settings = result.settings
    unit = str(settings.unit)
    if result.unit_requested != settings.unit:
        unit += f" (asked for: {result.unit_requested})"
    return [
        ("Resamples", f"{settings.resamples:,}"),
        ("Seed", str(settings.seed)),
        ("Unit resampled", unit),
        ("Confidence level", f"{settings.level * 100:g}%"),
        ("Correction", settings.correction.label),
        ("Family", settings.family.words),
    ]


def _files(corpus: Corpus, paths: bool) -> list[tuple[str, str]]:
    """Every file read, once, in the order source, references, systems, scores: its name (or
    full path) and its format."""
    origins = dict.fromkeys(corpus.origins())
    return [(o.path if paths else o.file_name, o.format) for o in origins]


def _metric_label(metric: Metric) -> str:
    """A metric's label as HTML (a --scores metric is named by the user), with its scale."""
    return html_isolated(metric.label) + escape(scale_note(metric))


def _scores(statistics: Statistics, result: BootstrapResult | None) -> str:
    """Systems best first (by the first metric), each metric's score, interval and rank."""
    metrics = statistics.metrics
    if result is not None:
        order = [entry.system for entry in result.ranking(metrics[0].name).systems]
    else:
        order = list(statistics.system_names)
    level = f"{result.settings.level * 100:g}%" if result is not None else ""
    caption = (
        f"Each cell: the score on the whole test set, its {level} bootstrap interval below it, "
        "and its rank range (1 is best; a range where systems cannot be told apart)."
        if result is not None
        else "Scores on the whole test set (no bootstrap was run)."
    )
    groups = metric_groups(metrics)
    tables = [
        _score_table(statistics, result, order, group, escape(caption) if k == 0 else "")
        for k, group in enumerate(groups)
    ]
    return "<h2>Scores</h2>\n" + "\n".join(tables)


def metric_groups(metrics: Sequence[Metric]) -> list[Sequence[Metric]]:
    """``metrics`` in as few groups of at most :data:`METRICS_PER_TABLE` as there can be, of
    sizes that differ by one at most (5 metrics: 3 and 2, not 4 and 1)."""
    count = -(-len(metrics) // METRICS_PER_TABLE)
    size, extra = divmod(len(metrics), count) if count else (0, 0)
    groups, start = [], 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        groups.append(metrics[start:end])
        start = end
    return groups


def _score_table(
    statistics: Statistics,
    result: BootstrapResult | None,
    order: Sequence[str],
    metrics: Sequence[Metric],
    caption: str,
) -> str:
    """One table of the systems (in ``order``) against ``metrics``, with ``caption`` (HTML)
    if there is one."""
    head = "".join(f"<th>{html_isolated(m.label)}</th>" for m in metrics)
    rows = []
    for system in order:
        cells = "".join(_score_cell(statistics, result, system, m.name) for m in metrics)
        rows.append(f"<tr><th>{html_isolated(system)}</th>{cells}</tr>")
    caption = f"<caption>{caption}</caption>\n" if caption else ""
    return (
        f'<table class="scores">\n{caption}'
        f"<tr><th>System</th>{head}</tr>\n" + "\n".join(rows) + "\n</table>"
    )


def _score_cell(
    statistics: Statistics, result: BootstrapResult | None, system: str, metric: str
) -> str:
    """One score with its interval and rank (when the bootstrap ran)."""
    if result is None:
        return f'<td class="num">{four_decimals(statistics.score(system, metric))}</td>'
    interval = result.interval(system, metric)
    entry = next(e for e in result.ranking(metric).systems if e.system == system)
    rank = (
        str(entry.best_rank)
        if entry.best_rank == entry.worst_rank
        else (f"{entry.best_rank}–{entry.worst_rank}")
    )
    return (
        f'<td class="num">{four_decimals(interval.score)}<br><span class="ci">'
        f"[{four_decimals(interval.ci_low)}, {four_decimals(interval.ci_high)}]</span><br>"
        f'<span class="rank">rank {rank}</span></td>'
    )


def _metric_section(statistics: Statistics, result: BootstrapResult, metric: str) -> str:
    """A metric's grid with its reading sentence and clusters, then its distributions."""
    label = statistics.metric(metric).label
    order, matrix = result.grid(metric)
    numbers = "".join(f"<th>{k + 1}</th>" for k in range(len(order)))
    rows = []
    for k, (system, row) in enumerate(zip(order, matrix, strict=True)):
        cells = "".join(_verdict_cell(verdict) for verdict in row)
        rows.append(f"<tr><th>{k + 1} {html_isolated(system)}</th>{cells}</tr>")
    svg = distribution_svg(result, metric, f"Bootstrap distributions of {isolated(label)}")
    return (
        f'<section class="metric">\n<h2>{html_isolated(label)}</h2>\n'
        f"<p>{escape(grid_reading(result, metric, colours=True))}</p>\n"
        f'<table class="grid">\n<tr><th></th>{numbers}</tr>\n' + "\n".join(rows) + "\n</table>\n"
        f"<p>{escape(cluster_caption(result, metric, isolated))}</p>\n"
        f"{pairs_table(result, metric, metric_agreement(statistics, metric))}\n"
        f"<figure>\n{svg}\n<figcaption>{escape(_distribution_caption(result))}</figcaption>\n"
        "</figure>\n</section>"
    )


PAIR_HEADERS = ("Pair", "Difference", "Interval", "Verdict", "p-value", "MDD", "Units needed")
TEST_HEADERS = ("t-test p", "Wilcoxon p")
RATE_HEADERS = ("Wins", "Losses")


AGREEMENT_HEADER = "Humans agree"


def pairs_table(
    result: BootstrapResult, metric: str, agreement: HumanAgreement | None = None
) -> str:
    """Every pair of the metric's grid once (the better-ranked system first): its difference,
    how often humans would agree with it (with ``agreement``, the metric's fit from Kocmi et
    al. 2024), the interval beside its verdict, the p-value the verdict follows, what it
    cannot see (the minimum detectable difference, the units needed as an estimate) and, where
    the metric has segment scores, the win/loss rates and (for means of segment scores) the
    t-test and Wilcoxon p-values."""
    order, _ = result.grid(metric)
    wanted = [(x, y) for k, x in enumerate(order) for y in order[k + 1 :]]
    found = [result.segment_comparison(metric, x, y) for x, y in wanted]
    rates = any(c is not None and c.segments for c in found)
    tests = any(c is not None and c.p_value_t is not None for c in found)
    headers = (
        PAIR_HEADERS[:2]
        + ((AGREEMENT_HEADER,) if agreement else ())
        + PAIR_HEADERS[2:]
        + (TEST_HEADERS if tests else ())
        + (RATE_HEADERS if rates else ())
    )
    rows = []
    for (x, y), comparison in zip(wanted, found, strict=True):
        pair = result.pair(metric, x, y)
        p_value = pair.p_corrected if pair.p_corrected is not None else pair.p_value
        cells = [
            f"<th>{html_isolated(x)} vs {html_isolated(y)}</th>",
            _number(pair.delta, signed=True),
            *([_share(_or_nan(agreement.of(pair.delta)))] if agreement else []),
            f'<td class="num">[{_signed(pair.ci_low)}, {_signed(pair.ci_high)}]</td>',
            _verdict_cell(pair.verdict),
            _number(p_value),
            _number(pair.mdd),
            _number(pair.units_needed, whole=True),
        ]
        if tests:
            cells += [
                _number(None if comparison is None else comparison.p_value_t),
                _number(None if comparison is None else comparison.p_value_wilcoxon),
            ]
        if rates:
            cells += [
                _share(math.nan if comparison is None else comparison.win_rate),
                _share(math.nan if comparison is None else comparison.loss_rate),
            ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    caption = _pairs_caption(result, tests, rates) + (
        _agreement_caption(agreement) if agreement else ""
    )
    return (
        f'<table class="pairs">\n<caption>{escape(caption)}</caption>\n'
        f"<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>"
    )


def _pairs_caption(result: BootstrapResult, tests: bool, rates: bool) -> str:
    """What the pairs table's columns are."""
    unit = result.settings.unit.value
    words = (
        "Difference: the first system's score minus the second's. Interval: the one beside the "
        "verdict (under a correction the corrected one, which holds 0 exactly when the verdict is "
        "~). p-value: the one the verdict follows. MDD: the minimum detectable difference, a true "
        "difference this large would be found about 80% of the time. Units needed: about how "
        f"many {unit}s would make this pair's difference detectable at 80% power (an estimate)."
    )
    if tests:
        words += (
            " t-test p and Wilcoxon p: the paired t-test and the Wilcoxon signed-rank test on the "
            "segment scores."
        )
    if rates:
        words += (
            " Wins and Losses: the share of segments where the first system is better and where "
            "it is worse."
        )
    return words


def _agreement_caption(agreement: HumanAgreement) -> str:
    """What the humans' agreement column is, where it came from and what was assumed."""
    assumed = "".join(f" Assumed: {words}." for words in agreement.assumptions)
    return (
        f" Humans agree: about how often humans would agree with a difference this large, "
        f"estimated from {agreement.fit.label}'s fit by {AGREEMENT_PAPER} (ACL Anthology "
        f"2024.acl-long.110): {AGREEMENT_CAVEAT}.{assumed}"
    )


def _or_nan(value: float | None) -> float:
    """``value``, or NaN for None (a blank cell)."""
    return math.nan if value is None else value


def _share(value: float) -> str:
    """A share of segments as a percent cell."""
    return '<td class="num"></td>' if value != value else f'<td class="num">{value:.1%}</td>'


def _signed(value: float) -> str:
    """A bound with its sign, four decimals."""
    return "" if value != value else f"{value:+.4f}"


def _number(value: float | None, signed: bool = False, whole: bool = False) -> str:
    """A number cell (blank where the number is unknown)."""
    if value is None or value != value or value == float("inf"):
        return '<td class="num"></td>'
    text = (
        f"{max(value, 1):,.0f}" if whole else (_signed(value) if signed else four_decimals(value))
    )
    return f'<td class="num">{text}</td>'


def _verdict_cell(verdict: str) -> str:
    """A grid cell: the verdict's symbol on its colour (the diagonal is blank)."""
    if not verdict:
        return '<td class="self"></td>'
    css = VERDICT_CLASS.get(verdict, "same")
    return f'<td class="{css}">{escape(verdict)}</td>'


def _distribution_caption(result: BootstrapResult) -> str:
    """How to read the stacked histograms."""
    level = f"{result.settings.level * 100:g}%"
    return (
        f"The {result.settings.resamples:,} bootstrap scores of each system, best first, on one "
        f"shared axis; the shaded band is the {level} interval, the dark line the score on the "
        "whole test set."
    )


def _notes(corpus: Corpus, statistics: Statistics, result: BootstrapResult | None) -> str:
    """Everything the reader should know about the result, as the command line says it."""
    later = result.notes if result else statistics.notes
    notes: Sequence[str] = list(dict.fromkeys([*corpus.notes, *later]))
    if not notes:
        return ""
    items = "\n".join(f"<li>{escape(balanced(note))}</li>" for note in notes)
    return f'<h2>Notes</h2>\n<ul class="notes">\n{items}\n</ul>'
