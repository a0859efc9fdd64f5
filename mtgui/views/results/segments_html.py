"""The selected segment of the Segments tab as HTML: both outputs and the references, each
token shaded by the longest matched n-gram covering it (see ``engine.segment_matches``).

Plain functions of the engine's results, so that the view only asks for a page and shows it.
All text is escaped: outputs and references may hold ``<``, ``>`` and ``&``.

The page is drawn for the palette it is shown in (:class:`PageColors`): every shaded span sets
its text colour with its background, with a contrast of at least 4.5 (WCAG 2) in light and dark
palettes, and text with a colour of its own is greyed towards the palette's page, not to a
fixed grey that a dark page would swallow.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtGui import QColor, QPalette

from mtgui.engine.core import TestSet
from mtgui.engine.metrics import MAX_ORDER, Bleu, SegmentMatches, TokenMatches, sentence_bleu
from mtgui.views.common.palette import blend, flatten, is_dark
from mtgui.views.results.pair_rows_model import A_TINT, B_TINT, score_text

Shades = dict[int, tuple[str, str]]  # n-gram order: (background, text colour)
# ColorBrewer "Greens": light to dark for 1- to 4-grams (dark ones with white text). Green,
# so as not to be taken for the blue and orange that stand for systems A and B. The 3-gram
# green is a little darker than ColorBrewer's #238b45, on which white text has 4.3 only.
SHADES: Shades = {1: ("#c7e9c0", "#000000"), 2: ("#74c476", "#000000")}
SHADES |= {3: ("#1e7b3c", "#ffffff"), 4: ("#00441b", "#ffffff")}
# On a dark page the scale runs the other way, so that a longer match still stands out more
# from the page: dim green for 1-grams, bright green for 4-grams.
DARK_SHADES: Shades = {1: ("#1f5c32", "#ffffff"), 2: ("#2e7d45", "#ffffff")}
DARK_SHADES |= {3: ("#5bb56b", "#000000"), 4: ("#a6dba0", "#000000")}


@dataclass(frozen=True)
class PageColors:
    """The colours of the palette a page is shown in."""

    page: QColor = field(default_factory=lambda: QColor("#ffffff"))  # the palette's Base
    text: QColor = field(default_factory=lambda: QColor("#000000"))
    dark: bool = False

    @property
    def shades(self) -> Shades:
        """The n-gram shades that suit this page."""
        return DARK_SHADES if self.dark else SHADES

    def muted(self, amount: float) -> str:
        """The text colour greyed ``amount`` (0..1) of the way to the page, as #rrggbb."""
        return blend(self.text, self.page, amount).name()


def page_colors(palette: QPalette) -> PageColors:
    """The colours of a text browser's palette: its page (Base) and its text."""
    return PageColors(
        QColor(palette.color(QPalette.ColorRole.Base)),
        QColor(palette.color(QPalette.ColorRole.Text)),
        is_dark(palette),
    )


@dataclass(frozen=True)
class Side:
    """One system's part of the page: its name, its matches and its sentence score."""

    name: str
    found: SegmentMatches
    metric_label: str  # the table's metric; sentence BLEU is shown too when it is another
    score: float  # the system's score of the segment under that metric (NaN: none)
    # the segment's sentence BLEU as the results score it (their smoothing and order); None
    # where the results have no BLEU: sacreBLEU's sentence_bleu of the matches shown
    bleu: float | None = None
    # what loaded judgments marked in this segment (MQM's errors, spans between <v> and </v>)
    annotations: tuple[str, ...] = ()


def segment_html(
    test_set: TestSet, segment: int, a: Side, b: Side, colors: PageColors | None = None
) -> str:
    """Where the segment is, a legend, the source, then A and B side by side: their outputs,
    their scores and matches, and every reference as each of them matched it; drawn for a
    light page unless ``colors`` says otherwise."""
    colors = colors or PageColors()
    shades = colors.shades
    where = html.escape(test_set.describe_segment(segment))
    parts = [f"<p><b>Segment {segment + 1}</b>: {where}<br>{legend_html(shades)}</p>"]
    if test_set.source is not None:
        parts.append(f"<p><b>Source:</b> {html.escape(test_set.source.texts[segment])}</p>")
    rows = [
        _row(f"A: {a.name}", f"B: {b.name}", colors),
        _row(tokens_html(a.found.hypothesis, shades), tokens_html(b.found.hypothesis, shades)),
        _row(counts_html(a, colors), counts_html(b, colors)),
    ]
    if a.annotations or b.annotations:
        rows.append(_row(annotations_html(a), annotations_html(b)))
    for number, ref in enumerate(test_set.references):
        label = f"Reference {ref.name}: the words {{}} found"
        rows.append(_row(label.format("A"), label.format("B"), colors))
        left, right = a.found.references[number], b.found.references[number]
        rows.append(_row(tokens_html(left, shades), tokens_html(right, shades)))
    table = "".join(rows)
    parts.append(f'<table width="100%" cellspacing="0" cellpadding="4">{table}</table>')
    return "".join(parts)


def counts_html(side: Side, colors: PageColors | None = None) -> str:
    """Sentence scores and matches per order: 'BLEU 0.4083 · 1-grams 19/22 · ...'."""
    found = side.found
    words = [f"{html.escape(side.metric_label)} {score_text(side.score)}"]
    if side.metric_label != Bleu.label:
        bleu = side.bleu
        if bleu is None:
            bleu = float(sentence_bleu(np.asarray(found.bleu_row, dtype=np.float64)))
        words.append(f"BLEU {bleu:.4f}")
    words += [
        f"{n}-grams {found.matches[n - 1]}/{found.totals[n - 1]}" for n in range(1, MAX_ORDER + 1)
    ]
    words.append(f"length {found.hyp_len} (reference {found.ref_len})")
    grey = (colors or PageColors()).muted(1 / 3)  # #555555 on white
    return f'<span style="color:{grey}">' + " · ".join(words) + "</span>"


def annotations_html(side: Side) -> str:
    """The errors the judgments marked, one a line, each span underlined in bold."""
    lines = [
        html.escape(text).replace("&lt;v&gt;", "<b><u>").replace("&lt;/v&gt;", "</u></b>")
        for text in side.annotations
    ]
    return "<br>".join(lines) if lines else "no error marked"


def tokens_html(tokens: TokenMatches, shades: Shades = SHADES) -> str:
    """Tokens separated by spaces, each shaded by its matched order; a space inside a matched
    n-gram is shaded too, so that an n-gram reads as one block. "(empty)" is set in italics
    in the page's own text colour, which reads on any page (a fixed grey would not)."""
    if not tokens.shown:
        return "<i>(empty)</i>"
    parts = [_shaded(html.escape(tokens.shown[0]), tokens.orders[0], shades)]
    for token, order, link in zip(tokens.shown[1:], tokens.orders[1:], tokens.links, strict=True):
        parts.append(_shaded(" ", link, shades))
        parts.append(_shaded(html.escape(token), order, shades))
    return "".join(parts)


def legend_html(shades: Shades = SHADES) -> str:
    """What the shades mean."""
    samples = " ".join(_shaded(f"&nbsp;{n}-gram&nbsp;", n, shades) for n in range(1, MAX_ORDER + 1))
    return f"Matched: {samples} (the longest matched n-gram covering each word; plain: no match)"


def _shaded(text: str, order: int, shades: Shades) -> str:
    if not order:
        return text
    background, color = shades[order]
    return f'<span style="background-color:{background}; color:{color}">{text}</span>'


def _row(left: str, right: str, header: PageColors | None = None) -> str:
    """One row of the side-by-side table; header rows (given the page's colours) tinted as the
    table tints A and B, as the tint looks on that page, with the page's text colour."""
    if header is None:
        return f'<tr><td width="50%" valign="top">{left}</td><td valign="top">{right}</td></tr>'
    ink = header.text.name()
    cells = "".join(
        f'<td style="background-color:{flatten(tint, header.page).name()}; color:{ink}">'
        f"<b>{html.escape(text)}</b></td>"
        for text, tint in ((left, A_TINT), (right, B_TINT))
    )
    return f"<tr>{cells}</tr>"
