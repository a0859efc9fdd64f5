"""The selected segment of the Segments tab as HTML: both outputs and the references, each
token shaded by the longest matched n-gram covering it (see ``engine.segment_matches``).

Plain functions of the engine's results, so that the view only asks for a page and shows it.
All text is escaped: outputs and references may hold ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QColor

from mtgui.engine.corpus import TestSet
from mtgui.engine.metrics.bleu import Bleu, sentence_bleu
from mtgui.engine.segment_matches import MAX_ORDER, SegmentMatches, TokenMatches
from mtgui.views.segments_model import A_TINT, B_TINT, score_text

# ColorBrewer "Greens": light to dark for 1- to 4-grams (dark ones with white text). Green,
# so as not to be taken for the blue and orange that stand for systems A and B.
SHADES = {1: ("#c7e9c0", "#000000"), 2: ("#74c476", "#000000"), 3: ("#238b45", "#ffffff")}
SHADES[4] = ("#00441b", "#ffffff")


@dataclass(frozen=True)
class Side:
    """One system's part of the page: its name, its matches and its sentence score."""

    name: str
    found: SegmentMatches
    metric_label: str  # the table's metric; sentence BLEU is shown too when it is another
    score: float  # the system's score of the segment under that metric (NaN: none)


def segment_html(test_set: TestSet, segment: int, a: Side, b: Side) -> str:
    """Where the segment is, a legend, the source, then A and B side by side: their outputs,
    their scores and matches, and every reference as each of them matched it."""
    where = html.escape(test_set.describe_segment(segment))
    parts = [f"<p><b>Segment {segment + 1}</b>: {where}<br>{legend_html()}</p>"]
    if test_set.source is not None:
        parts.append(f"<p><b>Source:</b> {html.escape(test_set.source.texts[segment])}</p>")
    rows = [
        _row(f"A: {a.name}", f"B: {b.name}", header=True),
        _row(tokens_html(a.found.hypothesis), tokens_html(b.found.hypothesis)),
        _row(counts_html(a), counts_html(b)),
    ]
    for number, ref in enumerate(test_set.references):
        label = f"Reference {ref.name}: the words {{}} found"
        rows.append(_row(label.format("A"), label.format("B"), header=True))
        left, right = a.found.references[number], b.found.references[number]
        rows.append(_row(tokens_html(left), tokens_html(right)))
    table = "".join(rows)
    parts.append(f'<table width="100%" cellspacing="0" cellpadding="4">{table}</table>')
    return "".join(parts)


def counts_html(side: Side) -> str:
    """Sentence scores and matches per order: 'BLEU 0.4083 · 1-grams 19/22 · ...'."""
    found = side.found
    words = [f"{html.escape(side.metric_label)} {score_text(side.score)}"]
    if side.metric_label != Bleu.label:
        bleu = float(sentence_bleu(np.asarray(found.bleu_row, dtype=np.float64)))
        words.append(f"BLEU {bleu:.4f}")
    words += [
        f"{n}-grams {found.matches[n - 1]}/{found.totals[n - 1]}" for n in range(1, MAX_ORDER + 1)
    ]
    words.append(f"length {found.hyp_len} (reference {found.ref_len})")
    return '<span style="color:#555555">' + " · ".join(words) + "</span>"


def tokens_html(tokens: TokenMatches) -> str:
    """Tokens separated by spaces, each shaded by its matched order; a space inside a matched
    n-gram is shaded too, so that an n-gram reads as one block."""
    if not tokens.shown:
        return '<span style="color:#888888">(empty)</span>'
    parts = [_shaded(html.escape(tokens.shown[0]), tokens.orders[0])]
    for token, order, link in zip(tokens.shown[1:], tokens.orders[1:], tokens.links, strict=True):
        parts.append(_shaded(" ", link))
        parts.append(_shaded(html.escape(token), order))
    return "".join(parts)


def legend_html() -> str:
    """What the shades mean."""
    samples = " ".join(_shaded(f"&nbsp;{n}-gram&nbsp;", n) for n in range(1, MAX_ORDER + 1))
    return f"Matched: {samples} (the longest matched n-gram covering each word; plain: no match)"


def _shaded(text: str, order: int) -> str:
    if not order:
        return text
    background, color = SHADES[order]
    return f'<span style="background-color:{background}; color:{color}">{text}</span>'


def _row(left: str, right: str, header: bool = False) -> str:
    """One row of the side-by-side table; header rows tinted as the table tints A and B."""
    if not header:
        return f'<tr><td width="50%" valign="top">{left}</td><td valign="top">{right}</td></tr>'
    cells = "".join(
        f'<td style="background-color:{_on_white(tint)}"><b>{html.escape(text)}</b></td>'
        for text, tint in ((left, A_TINT), (right, B_TINT))
    )
    return f"<tr>{cells}</tr>"


def _on_white(color: QColor) -> str:
    """A translucent colour as it looks on white, opaque (rich text ignores alpha)."""
    alpha = color.alphaF()
    mixed = (round(255 - alpha * (255 - c)) for c in (color.red(), color.green(), color.blue()))
    return "#" + "".join(f"{c:02x}" for c in mixed)
