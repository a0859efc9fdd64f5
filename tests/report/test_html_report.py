"""The HTML report: self-contained, complete, escaped, and saying what the numbers are."""

from __future__ import annotations

import re
from datetime import datetime
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.settings import Case
from mtgui.io.demo import load_demo
from mtgui.report.bidi import PDI, balanced, isolated
from mtgui.report.cells import four_decimals
from mtgui.report.html_report import html_report, metric_groups
from mtgui.report.significance import cluster_caption, grid_reading

WHEN = datetime(2026, 11, 23, 1, 30)
METRICS = ["bleu", "nist", "ter"]


@pytest.fixture(scope="module")
def analysis():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=300)
    return run_to_end(iter_analysis(corpus, METRICS, MetricSettings(), settings))


@pytest.fixture(scope="module")
def page(analysis):
    return html_report(analysis.corpus, analysis.statistics, analysis.bootstrap, WHEN)


class _Tags(HTMLParser):
    """Counts opened and closed tags, and collects what could fetch anything from outside."""

    VOID = frozenset({"br", "meta", "img", "hr", "input", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.external.append(f"{tag} {name}={value}")
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()


def test_the_page_is_well_formed_and_fetches_nothing(page):
    tags = _Tags()
    tags.feed(page)
    assert tags.open == []
    assert tags.external == []
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert "url(" not in page
    links = re.findall(r"https?://[^\"' ]+", page)
    assert set(links) == {"http://www.w3.org/2000/svg"}  # the SVG namespace, not a fetch


def test_the_page_says_what_was_compared(page, analysis):
    corpus, result = analysis.corpus, analysis.bootstrap
    assert "Made by mtgui" in page and "2026-11-23 01:30" in page
    assert "95 segments in 6 documents" in page
    for origin in [
        *(r.origin for r in corpus.test_set.references),
        *(s.origin for s in corpus.systems),
    ]:
        assert f"<code><bdi>{origin.file_name}</bdi></code>" in page
    assert result.signature in page
    assert "<th>Resamples</th><td>300</td>" in page
    assert "<th>Seed</th><td>12345</td>" in page
    assert "segment (asked for: auto)" in page
    assert "<th>Confidence level</th><td>95%</td>" in page


def test_every_score_and_interval_is_the_results(page, analysis):
    for interval in analysis.bootstrap.intervals:
        cell = (
            f'{four_decimals(interval.score)}<br><span class="ci">'
            f"[{four_decimals(interval.ci_low)}, {four_decimals(interval.ci_high)}]"
        )
        assert cell in page, (interval.system, interval.metric)


def test_every_metric_has_its_grid_sentence_clusters_and_distributions(page, analysis):
    result = analysis.bootstrap
    for metric in METRICS:
        label = analysis.statistics.metric(metric).label
        assert f"<h2><bdi>{label}</bdi></h2>" in page
        assert escape(grid_reading(result, metric, colours=True)) in page
        assert escape(cluster_caption(result, metric, isolated)) in page
        assert f'aria-label="Bootstrap distributions of {isolated(label)}"' in page
    # Lumen beats Ostrich clearly under BLEU on the demo: a blue ">" cell in the grid
    assert '<td class="better">&gt;</td>' in page
    assert '<td class="worse">&lt;</td>' in page
    assert page.count("<svg ") == len(METRICS)


def test_the_notes_are_in_the_page(page, analysis):
    assert "<h2>Notes</h2>" in page
    for note in analysis.bootstrap.notes:
        assert escape(note) in page


def test_names_from_files_are_escaped(analysis):
    hostile = "<script>alert('x')</script>"
    corpus = analysis.corpus.with_system_renamed("Lumen", hostile)
    statistics = compute_statistics(corpus, ["bleu"])
    result = run_to_end(
        iter_analysis(corpus, ["bleu"], MetricSettings(), BootstrapSettings(resamples=300))
    ).bootstrap
    page = html_report(corpus, statistics, result, WHEN)
    assert "<script" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page


def test_a_report_without_the_bootstrap_has_scores_only(analysis):
    page = html_report(analysis.corpus, analysis.statistics, None, WHEN)
    assert "no bootstrap was run" in page
    assert "<svg" not in page
    score = analysis.statistics.score("Lumen", "bleu")
    assert four_decimals(score) in page


def test_files_are_named_by_their_names_and_by_full_paths_only_on_request(analysis):
    corpus = analysis.corpus
    folders = {str(Path(o.path).parent) for o in corpus.origins()}
    names_only = html_report(corpus, analysis.statistics, analysis.bootstrap, WHEN)
    for folder in folders:
        assert folder not in names_only  # the sender's home folder and beyond stay home
    with_paths = html_report(corpus, analysis.statistics, analysis.bootstrap, WHEN, paths=True)
    for origin in corpus.origins():
        assert f"<code><bdi>{escape(origin.path)}</bdi></code>" in with_paths


@pytest.mark.parametrize(
    ("case", "words"),
    [
        (Case.FULL, "lowercased"),
        (Case.ASCII, "lowercased (A-Z only)"),
        (Case.SENSITIVE, "case-sensitive"),
    ],
)
def test_the_case_setting_is_said_as_it_was_used(analysis, case, words):
    statistics = compute_statistics(analysis.corpus, ["bleu"], MetricSettings(case=case))
    page = html_report(analysis.corpus, statistics, None, WHEN)
    assert f"<th>Case</th><td>{escape(words)}</td>" in page
    assert "Case</th><td>full" not in page


HOSTILE = "Lumen\u202e evil"  # an override never closed


def test_names_with_bidirectional_controls_are_balanced_and_isolated(analysis):
    corpus = analysis.corpus.with_system_renamed("Lumen", HOSTILE)
    result = run_to_end(
        iter_analysis(corpus, ["bleu"], MetricSettings(), BootstrapSettings(resamples=300))
    )
    page = html_report(result.corpus, result.statistics, result.bootstrap, WHEN)
    closed = "Lumen\u202e evil\u202c"
    assert page.count("\u202e") == page.count(closed)  # every override closed where it opens
    for chunk in page.split(closed)[:-1]:
        assert chunk.endswith(("<bdi>", "\u2068"))  # and inside an isolate
    assert f"<th><bdi>{closed}</bdi></th>" in page  # the scores table's row
    assert f"\u2068{closed}{PDI}</text>" in page  # the distribution's label


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", "plain"),
        ("a\u202eb", "a\u202eb\u202c"),  # an override closed at the end
        ("a\u202cb\u2069c", "abc"),  # closings that close nothing dropped
        ("\u2067x\u202ay", "\u2067x\u202ay\u202c\u2069"),  # closed innermost first
        ("\u2066x\u202ay\u2069z", "\u2066x\u202ay\u202c\u2069z"),  # PDI closes inside
        ("\u202bx\u2069y\u202c", "\u202bxy\u202c"),  # a PDI cannot close an embedding
    ],
)
def test_balanced_closes_what_a_name_opens_and_drops_what_closes_nothing(text, expected):
    assert balanced(text) == expected


def test_many_metrics_are_split_into_tables_of_even_sizes_of_four_at_most():
    sizes = {n: [len(g) for g in metric_groups(list(range(n)))] for n in range(1, 10)}
    assert sizes == {
        1: [1],
        2: [2],
        3: [3],
        4: [4],
        5: [3, 2],
        6: [3, 3],
        7: [4, 3],
        8: [4, 4],
        9: [3, 3, 3],
    }


def test_every_metric_of_many_is_in_a_scores_table_once(analysis):
    statistics = compute_statistics(analysis.corpus, ["bleu", "nist", "mbleu", "chrf", "ter"])
    page = html_report(analysis.corpus, statistics, None, WHEN)
    assert page.count('<table class="scores">') == 2
    for label in ("BLEU", "NIST", "M-BLEU", "chrF", "TER"):
        assert page.count(f"<th><bdi>{label}</bdi></th>") == 1


def test_the_summary_in_words_comes_first(page, analysis):
    from mtgui.report.verdicts import metric_summary

    assert page.index("<h2>Summary</h2>") < page.index("<h2>What was compared</h2>")
    text = metric_summary(analysis.bootstrap, "ter", isolated)
    assert f"<strong><bdi>TER</bdi></strong>: {escape(text)}</p>" in page


def test_every_pair_is_in_the_pairs_table_with_what_it_cannot_see(page, analysis):
    result = analysis.bootstrap
    systems = len(result.systems)
    assert page.count('<table class="pairs">') == len(METRICS)
    rows = re.findall(r"<tr><th><bdi>.*?</tr>", page)
    assert len(rows) >= len(METRICS) * systems * (systems - 1) // 2
    pair = next(p for p in result.pairs if p.metric == "bleu")
    assert four_decimals(pair.mdd) in page
    assert "MDD" in page and "Units needed" in page and "(an estimate)" in page
