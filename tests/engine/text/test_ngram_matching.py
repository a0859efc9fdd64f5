"""Clipped n-gram matches (ngrams.match) against a count with Counters, segment by segment."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgui.engine.text.ngrams import (
    OrderMatches,
    ReferenceNgrams,
    TokenIds,
    match,
    number_references,
)
from mtgui.engine.text.tokenize import SEGMENT_BREAK

ORDER = 5
Segments = list[list[str]]


def flat(segments: Segments) -> list[str]:
    """Segments as tokenize_flat gives them."""
    tokens: list[str] = []
    for number, segment in enumerate(segments):
        tokens += ([SEGMENT_BREAK] if number else []) + segment
    return tokens


def grams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def expected_clips(
    references: list[Segments], hypothesis: Segments, n: int
) -> list[dict[tuple[str, ...], int]]:
    """Per segment, every matched n-gram and its count clipped by its largest count in a single
    reference (Papineni et al. 2002, 2.1)."""
    result = []
    for s, tokens in enumerate(hypothesis):
        caps: Counter[tuple[str, ...]] = Counter()
        for reference in references:
            caps |= grams(reference[s], n)  # | keeps the larger count
        clipped = {g: min(c, caps[g]) for g, c in grams(tokens, n).items()}
        result.append({g: c for g, c in clipped.items() if c > 0})
    return result


def decoded(ngrams: ReferenceNgrams, vocabulary: dict[str, int], n: int, gram: int) -> tuple:
    """The tokens of the order-n gram with id ``gram`` (ids are ranks of prefix-and-last pairs)."""
    words = list(vocabulary)
    if n == 1:
        return (words[gram],)
    pair = int(ngrams.orders[n - 1].pairs[gram])
    prefix, last = divmod(pair, ngrams.vocabulary_size)
    return (*decoded(ngrams, vocabulary, n - 1, prefix), words[last])


def check(references: list[Segments], hypothesis: Segments) -> list[OrderMatches]:
    vocabulary, ids = number_references([flat(r) for r in references])
    ngrams = ReferenceNgrams(ids, len(vocabulary), ORDER)
    found = match(ngrams, TokenIds.encode(flat(hypothesis), vocabulary))
    for n, order in enumerate(found, start=1):
        expected = expected_clips(references, hypothesis, n)
        assert order.total.tolist() == [max(len(t) - n + 1, 0) for t in hypothesis]
        assert order.matched.tolist() == [sum(e.values()) for e in expected]
        got: list[dict[tuple, int]] = [{} for _ in hypothesis]
        for s, gram, clip in zip(
            order.matched_segments, order.matched_ids, order.clipped_counts, strict=True
        ):
            got[int(s)][decoded(ngrams, vocabulary, n, int(gram))] = int(clip)
        assert got == expected
        keys = order.matched_segments * max(len(ngrams.orders[n - 1].pooled_counts), 1)
        keys = keys + order.matched_ids
        assert np.all(np.diff(keys) > 0)  # by segment, then n-gram id (NIST sums in this order)
        for array in (order.total, order.matched, order.clipped_counts, order.matched_ids):
            assert array.dtype == np.int64
    return found


WORD = st.sampled_from("abcd")
SEGMENT = st.lists(WORD, max_size=9)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_matches_are_the_clipped_counts_of_every_order(data):
    """References and hypotheses of a few words, so that long n-grams repeat and match; a
    hypothesis word the references lack ('z') matches nothing and breaks the n-grams over it."""
    size = data.draw(st.integers(1, 5))
    count = data.draw(st.integers(1, 3))
    references = [data.draw(st.lists(SEGMENT, min_size=size, max_size=size)) for _ in range(count)]
    hypothesis = data.draw(
        st.lists(st.lists(st.sampled_from("abcdz"), max_size=9), min_size=size, max_size=size)
    )
    check(references, hypothesis)


def test_a_hypothesis_equal_to_a_reference_matches_every_ngram():
    reference = [["a", "b", "a", "b", "a", "b"], ["c", "d"], []]
    found = check([reference], reference)
    assert [int(order.matched.sum()) for order in found] == [8, 6, 4, 3, 2]


def test_ngrams_of_another_segment_do_not_match():
    """'a b c' is in the references of the first segment only: in the second, its words match
    one by one, and nothing longer does."""
    found = check([[["a", "b", "c"], ["c", "b", "a"]]], [["x"], ["a", "b", "c"]])
    assert [order.matched.tolist() for order in found] == [[0, 3], [0, 0], [0, 0], [0, 0], [0, 0]]


def test_whether_an_ngram_fits_is_the_same_asked_at_some_positions():
    tokens = TokenIds.from_ids(np.arange(9), np.array([4, 0, 2, 3]))
    at = np.array([0, 3, 4, 5, 8])
    for n in range(1, 5):
        assert np.array_equal(tokens.fits(n, at), tokens.fits(n)[at])
    assert tokens.fits(2).tolist() == [True, True, True, False, True, False, True, True, False]
