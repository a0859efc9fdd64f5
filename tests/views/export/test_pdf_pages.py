"""The PDF report's pages, rendered as a reader sees them (poppler's pdftoppm and pdftotext):
nothing past the right margin and no table row cut in two, at 1 to 8 metrics and 10 systems."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.corpus import Corpus, Origin, Role
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.scores import read_scores
from mtgui.report.html_report import html_report, metric_groups
from mtgui.views.export.pdf_export import pdf_bytes
from mtgui.views.export.pdf_pages import MARGIN_MM, Unit, joined, page_cuts

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
    reason="pdftoppm and pdftotext (poppler-utils) are not installed: the PDF pages cannot be "
    "rendered to check them",
)

METRICS = ["bleu", "nist", "mbleu", "chrf", "chrf++", "ter", "wer", "human"]
SYSTEMS = [f"System-{k:02d}" for k in range(10)]
WORDS = "the a cat dog sat on mat and ran far away quickly to house of river".split()  # noqa: SIM905
METRIC_LABELS = ("BLEU", "NIST", "M-BLEU", "chrF", "chrF++", "TER", "WER", "human")
DPI = 40
RIGHT_BAND_MM = MARGIN_MM - 3  # the band next to the paper's edge that must stay white


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """10 systems on 60 segments, each with human scores (an eighth metric)."""
    return _corpus(tmp_path_factory.mktemp("ten"), SYSTEMS)


def _corpus(folder: Path, systems: list[str]) -> Corpus:
    """``systems`` on 60 segments, each with human scores."""
    rng = np.random.default_rng(5)
    reference = [" ".join(rng.choice(WORDS, 9)) for _ in range(60)]
    (folder / "ref.txt").write_text("\n".join(reference) + "\n", encoding="utf-8")
    files = [load_file(folder / "ref.txt", {Role.REFERENCE})]
    for k, name in enumerate(systems):
        lines = [_perturbed(line, rng, 0.1 + 0.04 * (k % 10)) for line in reference]
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        files.append(load_file(folder / f"{name}.txt", {Role.SYSTEM}))
    scores = ["system\tsegment\tscore"] + [
        f"{name}\t{i + 1}\t{rng.normal(80 - 2 * k, 10):.2f}"
        for k, name in enumerate(systems)
        for i in range(60)
    ]
    table = read_scores("\n".join(scores) + "\n", Origin(str(folder / "h.tsv"), "table", "utf-8"))
    return assemble(files, [table])


def _perturbed(line: str, rng: np.random.Generator, rate: float) -> str:
    words = line.split()
    return " ".join(str(rng.choice(WORDS)) if rng.random() < rate else w for w in words)


def _pdf(corpus, count: int, folder: Path) -> Path:
    settings = BootstrapSettings(resamples=100)
    result = run_to_end(iter_analysis(corpus, METRICS[:count], MetricSettings(), settings))
    page = html_report(result.corpus, result.statistics, result.bootstrap, datetime(2026, 1, 2))
    path = folder / f"report-{count}.pdf"
    path.write_bytes(pdf_bytes(page, "ten systems"))
    return path


def _page_images(pdf: Path) -> list[QImage]:
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", pdf, prefix], check=True)
    return [QImage(str(p)) for p in sorted(pdf.parent.glob(f"{prefix.name}-*.png"))]


def _page_texts(pdf: Path) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", pdf, "-"], check=True, capture_output=True, text=True
    ).stdout
    return text.split("\f")[:-1]


def _non_white_columns(image: QImage, band: int) -> list[int]:
    """The columns of the band at the right edge of ``image`` that have a non-white pixel."""
    width, height = image.width(), image.height()
    return [
        x
        for x in range(width - band, width)
        if any(image.pixelColor(x, y).lightness() < 250 for y in range(height))
    ]


@needs_poppler
@pytest.mark.parametrize("count", range(1, 9))
def test_every_page_keeps_the_right_margin_white_and_every_row_whole(qapp, corpus, tmp_path, count):
    pdf = _pdf(corpus, count, tmp_path)
    images = _page_images(pdf)
    band = int(RIGHT_BAND_MM / 25.4 * DPI)
    for number, image in enumerate(images, start=1):
        assert _non_white_columns(image, band) == [], f"page {number} draws into the margin"
    pages = _page_texts(pdf)
    assert len(pages) == len(images)
    rows = [row for page in pages for row in _score_rows(page)]
    tables = len(metric_groups(METRICS[:count]))
    assert sorted(rows) == sorted(SYSTEMS * tables)  # every row whole, on one page
    for page in pages:  # a heading is on the page of the table it heads
        if re.search(r"^\s*Scores\s*$", page, re.M):
            after = page[re.search(r"^\s*Scores\s*$", page, re.M).end() :]
            assert re.search(r"^\s*System\s+\S", after, re.M), page
        last = [line.strip() for line in page.splitlines() if line.strip()][-2]  # before "k / n"
        assert last not in ("Scores", "What was compared", "Files", *METRIC_LABELS), page
    for page in pages:  # a table continued on a page shows its header row again
        found = _ROW.search(page)
        if found is not None:
            assert re.search(r"^\s*System\s+\S", page[: found.start()], re.M), page


_ROW = re.compile(r"^\s*(System-\d\d)((?:\s+-?\d+\.\d+)+)\s*$", re.M)


def _score_rows(page: str) -> list[str]:
    """The systems whose scores-table row is whole on ``page``: a line with the name and its
    scores, the next with as many intervals, the one after with as many ranks."""
    lines = [line for line in page.splitlines() if line.strip()]
    whole = []
    for k, line in enumerate(lines):
        found = _ROW.match(line)
        if found is None:
            continue
        count = len(found.group(2).split())
        intervals = re.findall(r"\[-?[\d.]+, -?[\d.]+\]", "".join(lines[k + 1 : k + 2]))
        ranks = re.findall(r"rank \d", "".join(lines[k + 2 : k + 3]))
        if len(intervals) == count == len(ranks):
            whole.append(found.group(1))
    return whole


@needs_poppler
def test_a_grid_wider_than_a_landscape_page_is_made_smaller_to_fit(qapp, tmp_path):
    names = [f"system-{k:02d}" for k in range(28)]
    names.append("a-name-of-many-letters-without-a-space-that-no-line-can-break-anywhere")
    pdf = _pdf(_corpus(tmp_path, names), 1, tmp_path)
    band = int(RIGHT_BAND_MM / 25.4 * DPI)
    for number, image in enumerate(_page_images(pdf), start=1):
        assert image.width() > image.height()  # landscape
        assert _non_white_columns(image, band) == [], f"page {number} draws into the margin"


@needs_poppler
@pytest.mark.parametrize("count", [1, 5, 8])
def test_no_word_is_placed_past_the_right_margin(qapp, corpus, tmp_path, count):
    pdf = _pdf(corpus, count, tmp_path)
    boxes = subprocess.run(
        ["pdftotext", "-bbox", pdf, "-"], check=True, capture_output=True, text=True
    ).stdout
    margin = MARGIN_MM / 25.4 * 72  # points
    pages = re.findall(r'<page width="([\d.]+)" height="[\d.]+">(.*?)</page>', boxes, re.S)
    assert pages
    for width, words in pages:
        right = [float(x) for x in re.findall(r'xMax="([\d.]+)"', words)]
        assert right and max(right) <= float(width) - margin + 1  # even where clipped away


def test_pages_are_cut_between_units_never_through_one():
    units = [Unit(0, 10), Unit(12, 30, keep_with_next=True), Unit(31, 50), Unit(52, 60)]
    groups = joined(units)
    assert groups == [Unit(0, 10), Unit(12, 50), Unit(52, 60)]
    cuts = page_cuts(groups, [], height=40, total=60)
    assert cuts[0] == 0 and cuts[-1] == 60
    for top, bottom in pairwise(cuts):
        assert bottom - top <= 40
        for group in groups:
            assert not group.top < top < group.bottom  # no cut inside a group


def test_a_forced_break_starts_a_page():
    cuts = page_cuts([Unit(0, 10), Unit(20, 30)], [20.0], height=100, total=30)
    assert cuts == [0.0, 20.0, 30.0]


def test_a_unit_taller_than_a_page_is_cut_where_the_page_ends():
    cuts = page_cuts([Unit(0, 250)], [], height=100, total=250, reserved=lambda top: 500.0)
    assert cuts[0] == 0 and cuts[-1] == 250
    assert all(b > a for a, b in pairwise(cuts))  # every page moves on


def test_blank_space_after_the_last_unit_makes_no_page_of_its_own():
    # a section that fits but for its last paragraph's bottom margin, then a forced break
    cuts = page_cuts([Unit(0, 95), Unit(100, 140)], [100.0], height=98, total=150)
    assert cuts == [0.0, 100.0, 150.0]
    assert page_cuts([Unit(0, 95)], [], height=98, total=99) == [0.0, 99.0]  # at the end
