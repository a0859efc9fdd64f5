"""Which tokens of one segment BLEU counts as matched: for showing why one system wins.

BLEU's statistics (:mod:`mtgui.engine.text.ngrams`) count clipped n-gram matches for all segments
at once but do not say *which* tokens matched. This module answers that for a single segment,
in plain Python (a segment has tens of tokens), with the same tokens, case folding and clipping
as the metrics, so its counts equal the segment's BLEU statistics row.

Clipping (Papineni et al. 2002, section 2.1): a hypothesis n-gram counts at most as often as it
occurs in any single reference. Which of its occurrences count is not defined by BLEU; here the
first ``clip`` occurrences, left to right, are the matched ones, so the highlighting is
deterministic. A reference occurrence of an n-gram is marked as matched for as many occurrences
as the hypothesis matched, again left to right, in every reference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.settings import Case
from mtgui.engine.text.tokenize import fold_case, tokenize

MAX_ORDER = 4  # BLEU's n-gram orders
Gram = tuple[str, ...]


@dataclass(frozen=True)
class TokenMatches:
    """The tokens of one text and how far each is covered by matched n-grams.

    ``orders[i]`` is the highest order n of a matched n-gram covering token ``i`` (0: none);
    ``links[i]`` is the highest order of a matched n-gram covering both token ``i`` and token
    ``i + 1`` (0: none), so that a view can draw a matched n-gram as one block. ``tokens`` are
    compared; ``shown`` are the same tokens in their original case where the case folding
    did not change where tokens start and end (otherwise the compared tokens).
    """

    tokens: tuple[str, ...]
    shown: tuple[str, ...]
    orders: tuple[int, ...]
    links: tuple[int, ...]

    def pairs(self) -> list[tuple[str, int]]:
        """(shown token, highest matched order) for every token."""
        return list(zip(self.shown, self.orders, strict=True))


@dataclass(frozen=True)
class SegmentMatches:
    """One hypothesis against its references: matched tokens and BLEU's counts per order."""

    hypothesis: TokenMatches
    references: tuple[TokenMatches, ...]
    matches: tuple[int, ...]  # clipped matches of orders 1..4
    totals: tuple[int, ...]  # hypothesis n-grams of orders 1..4

    @property
    def hyp_len(self) -> int:
        """The number of hypothesis tokens (BLEU's c)."""
        return len(self.hypothesis.tokens)

    @property
    def ref_len(self) -> int:
        """The reference length closest to the hypothesis length, ties to the shorter (BLEU's r)."""
        lengths = [len(ref.tokens) for ref in self.references]
        return min(lengths, key=lambda length: (abs(length - self.hyp_len), length))

    @property
    def bleu_row(self) -> tuple[int, ...]:
        """The segment's BLEU statistics: c, r, m_1..m_4, t_1..t_4 (see ``metrics.bleu``)."""
        return (self.hyp_len, self.ref_len, *self.matches, *self.totals)


def match_segment(
    hypothesis: str, references: Sequence[str], settings: MetricSettings
) -> SegmentMatches:
    """Tokenize one segment as the metrics do and find its clipped n-gram matches.

    Parameters
    ----------
    hypothesis
        A system's output for the segment.
    references
        Every reference translation of the segment (at least one).
    settings
        The tokenizer and case folding of the metrics.
    """
    if not references:
        raise ValueError("a segment needs at least one reference")
    texts = [hypothesis, *references]
    compared = tokenize(texts, settings.tokenize, settings.case)
    shown = _shown_tokens(texts, compared, settings)
    hyp, refs = compared[0], compared[1:]
    hyp_marks, ref_marks = _Marks(len(hyp)), [_Marks(len(ref)) for ref in refs]
    matches, totals = [], []
    for n in range(1, MAX_ORDER + 1):
        used = _mark_hypothesis(hyp, refs, n, hyp_marks)
        for ref, marks in zip(refs, ref_marks, strict=True):
            _mark_reference(ref, used, n, marks)
        matches.append(sum(used.values()))
        totals.append(max(len(hyp) - n + 1, 0))
    return SegmentMatches(
        hyp_marks.result(hyp, shown[0]),
        tuple(m.result(r, s) for m, r, s in zip(ref_marks, refs, shown[1:], strict=True)),
        tuple(matches),
        tuple(totals),
    )


class _Marks:
    """Highest matched order per token and per gap between tokens, filled order by order."""

    def __init__(self, length: int) -> None:
        self.orders = [0] * length
        self.links = [0] * max(length - 1, 0)

    def cover(self, start: int, n: int) -> None:
        """Mark the n-gram at ``start`` as matched (orders only grow: n rises by order)."""
        for i in range(start, start + n):
            self.orders[i] = n
        for i in range(start, start + n - 1):
            self.links[i] = n

    def result(self, tokens: list[str], shown: list[str]) -> TokenMatches:
        return TokenMatches(tuple(tokens), tuple(shown), tuple(self.orders), tuple(self.links))


def _grams(tokens: list[str], n: int) -> list[Gram]:
    """The n-grams of ``tokens``, by start position."""
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _mark_hypothesis(hyp: list[str], refs: list[list[str]], n: int, marks: _Marks) -> Counter[Gram]:
    """Mark the first ``clip`` occurrences of each n-gram; return how many matched, per n-gram.

    ``clip`` is the n-gram's largest count in any single reference (Papineni et al. 2002).
    """
    caps: Counter[Gram] = Counter()
    for ref in refs:
        caps |= Counter(_grams(ref, n))  # | keeps the larger count of each n-gram
    used: Counter[Gram] = Counter()
    for start, gram in enumerate(_grams(hyp, n)):
        if used[gram] < caps[gram]:
            used[gram] += 1
            marks.cover(start, n)
    return used


def _mark_reference(ref: list[str], used: Counter[Gram], n: int, marks: _Marks) -> None:
    """Mark the first ``used[gram]`` occurrences of each matched n-gram in a reference."""
    seen: Counter[Gram] = Counter()
    for start, gram in enumerate(_grams(ref, n)):
        if seen[gram] < used[gram]:
            seen[gram] += 1
            marks.cover(start, n)


def _shown_tokens(
    texts: list[str], compared: list[list[str]], settings: MetricSettings
) -> list[list[str]]:
    """The tokens in their original case, where folding kept the same token boundaries.

    ASCII folding happens after tokenizing and never moves a boundary; full Unicode lowercasing
    happens before and can (rarely: 'İ' becomes two characters), so each text is checked.
    """
    if settings.case is Case.SENSITIVE:
        return compared
    original = tokenize(texts, settings.tokenize, Case.SENSITIVE)
    return [
        cased if [fold_case(t, settings.case) for t in cased] == tokens else tokens
        for cased, tokens in zip(original, compared, strict=True)
    ]
