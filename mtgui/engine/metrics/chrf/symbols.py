"""Texts as flat integer symbols for chrF: characters as code points, words as vocabulary ids.

chrF compares character n-grams and (chrF++) word n-grams exactly as strings. Turned into
integers, the n-grams of every segment can be counted at once with numpy
(:mod:`~mtgui.engine.metrics.chrf.counts`) instead of one Python ``Counter`` entry per n-gram, as
sacreBLEU does (that is what took seconds and gigabytes). The integers are exact, never hashes:
a character is its code point, a word its id in a vocabulary of the references' words.

What counts as a character and a word is sacreBLEU's (``sacrebleu/metrics/helpers.py`` and
``CHRF._remove_punctuation``): characters are code points with whitespace removed (``str.split``'s
whitespace) unless ``whitespace`` is asked for; words are ``str.split`` pieces with one ASCII
punctuation mark split off their end, or else off their start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, filterfalse, repeat
from operator import itemgetter

import numpy as np

from mtgui.engine.core.arrays import BoolArray, IntArray
from mtgui.engine.runtime.gil_free import running_count

PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
"""sacreBLEU's ``CHRF._PUNCTS`` (``string.punctuation``)."""
_NO_TOKEN = -2  # a word's second token, where it has only one
_LAST_SPACE = 0x3000  # no code point above this one is whitespace (tested)


@dataclass(frozen=True)
class Symbols:
    """The symbols of N segments, flat, segment after segment."""

    values: IntArray  # every symbol
    offsets: IntArray  # shape (N + 1,): segment i is values[offsets[i]:offsets[i + 1]]

    @classmethod
    def from_lengths(cls, values: IntArray, lengths: IntArray) -> Symbols:
        """Symbols cut into segments of ``lengths``."""
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(values, offsets)

    @property
    def size(self) -> int:
        """The number of segments."""
        return len(self.offsets) - 1

    @property
    def lengths(self) -> IntArray:
        """Symbols per segment."""
        return np.diff(self.offsets)

    def part(self, start: int, stop: int) -> Symbols:
        """Segments ``start:stop`` (a view of the values)."""
        values = self.values[self.offsets[start] : self.offsets[stop]]
        return Symbols(values, self.offsets[start : stop + 1] - self.offsets[start])


@cache
def _is_space_table() -> BoolArray:
    """Whether each code point up to :data:`_LAST_SPACE` is whitespace for ``str.split``."""
    return np.array([chr(c).isspace() for c in range(_LAST_SPACE + 1)], dtype=bool)


def characters(texts: Sequence[str], whitespace: bool = False) -> Symbols:
    """The code points of every text, whitespace removed unless ``whitespace`` (sacreBLEU's
    ``extract_all_char_ngrams``: ``''.join(line.split())``).

    All texts are joined and encoded once and whitespace is removed with a table, so that the
    Python work does not grow with the characters. Lone surrogates (possible in a decoded
    file) are kept as the code points Python's slicing sees.
    """
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    joined = "".join(texts).encode("utf-32-le", "surrogatepass")
    values = np.frombuffer(joined, dtype="<u4").astype(np.int64)
    if whitespace:
        return Symbols.from_lengths(values, lengths)
    table = _is_space_table()
    space = (values <= _LAST_SPACE) & table[np.minimum(values, _LAST_SPACE)]
    segment = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    kept = ~space
    return Symbols.from_lengths(
        values[kept], np.bincount(segment[kept], minlength=len(texts)).astype(np.int64)
    )


@dataclass(frozen=True)
class Alphabet:
    """Dense ids of the characters the references use; any other character gets the last id,
    ``size - 1``, which can match nothing. Small ids take few bits in a sort key."""

    table: IntArray  # code point -> id, up to the highest code point the references use
    size: int  # the number of ids, the unknown one included

    @classmethod
    def of(cls, references: Sequence[Symbols]) -> Alphabet:
        """The alphabet of references given as code points."""
        highest = max((int(r.values.max()) for r in references if len(r.values)), default=0)
        present = np.zeros(highest + 1, dtype=bool)
        for reference in references:
            present[reference.values] = True
        known = int(present.sum())
        table = np.where(present, running_count(present) - 1, known).astype(np.int64)
        return cls(table, known + 1)

    def ids(self, code_points: Symbols) -> Symbols:
        """The same texts as ids."""
        values = code_points.values
        inside = values < len(self.table)
        ids = np.where(inside, self.table[np.where(inside, values, 0)], self.size - 1)
        return Symbols(ids, code_points.offsets)


def split_punctuation(word: str) -> tuple[str, ...]:
    """sacreBLEU's ``_remove_punctuation`` for one word: a word of two or more characters loses
    a punctuation mark at its end, or else one at its start ('(hi)' gives '(hi' and ')')."""
    if len(word) > 1:
        if word[-1] in PUNCTUATION:
            return word[:-1], word[-1]
        if word[0] in PUNCTUATION:
            return word[0], word[1:]
    return (word,)


class WordIds:
    """Word tokens as ids of a vocabulary, the punctuation rule applied once per distinct word.

    With ``grow`` (references) a new token is added to ``vocabulary``; without (hypotheses) it
    gets the id ``len(vocabulary)``, which no reference token has. The token ids of every word
    seen are remembered, so that a word met again (most are: the words of a text repeat a lot)
    costs one dictionary look-up.
    """

    def __init__(self, vocabulary: dict[str, int], grow: bool) -> None:
        self.vocabulary = vocabulary
        self.grow = grow
        self._rows: dict[str, int] = {}  # word -> its row of _tokens
        self._tokens = np.full((1024, 2), _NO_TOKEN, dtype=np.int64)  # up to two tokens a word

    def for_hypotheses(self) -> WordIds:
        """A copy that adds nothing to the vocabulary but knows every word met so far: made
        from the references' encoder, it spares each system re-learning the words it shares
        with the references (most of its words), and leaves the references' encoder as it is
        for the next system."""
        copy = WordIds(self.vocabulary, grow=False)
        copy._rows = dict(self._rows)
        copy._tokens = self._tokens.copy()
        return copy

    def encode(self, texts: Sequence[str]) -> Symbols:
        """The word tokens of every text as ids."""
        split = [text.split() for text in texts]
        counts = np.fromiter(map(len, split), np.int64, len(split))
        flat = list(chain.from_iterable(split))
        rows = np.fromiter(map(self._rows.get, flat, repeat(-1)), np.int64, len(flat))
        unseen = np.flatnonzero(rows < 0).tolist()  # one look-up a word, a second for new ones
        if unseen:
            new = [flat[i] for i in unseen]
            self._learn(list(dict.fromkeys(new)))
            rows[unseen] = np.fromiter(map(self._rows.__getitem__, new), np.int64, len(new))
        slots = self._tokens[rows].ravel()  # two slots per word, in order
        kept = slots != _NO_TOKEN
        segment = np.repeat(np.arange(len(texts), dtype=np.int64), 2 * counts)
        lengths = np.bincount(segment[kept], minlength=len(texts)).astype(np.int64)
        return Symbols.from_lengths(slots[kept], lengths)

    def _learn(self, new: list[str]) -> None:
        """Remember the token ids of words not seen before.

        :func:`split_punctuation` for many words at once: the words to split are found with
        C-level maps, and only they are cut in Python."""
        first, count = len(self._rows), len(new)
        if first + count > len(self._tokens):
            grown = np.full((2 * (first + count), 2), _NO_TOKEN, dtype=np.int64)
            grown[:first] = self._tokens[:first]
            self._tokens = grown
        self._rows.update(zip(new, range(first, first + count), strict=True))
        long = np.fromiter(map(len, new), np.int64, count) > 1
        ends = np.fromiter(map(PUNCTUATION.__contains__, map(itemgetter(-1), new)), bool, count)
        starts = np.fromiter(map(PUNCTUATION.__contains__, map(itemgetter(0), new)), bool, count)
        split = np.flatnonzero(long & (ends | starts))
        heads, tails = list(new), []
        for i in split.tolist():
            heads[i], tail = split_punctuation(new[i])
            tails.append(tail)
        self._tokens[first : first + count, 0] = self._ids(heads)
        self._tokens[first + split, 1] = self._ids(tails)

    def _ids(self, tokens: list[str]) -> IntArray:
        """The ids of ``tokens``, new ones added to the vocabulary if it grows."""
        vocabulary = self.vocabulary
        if not self.grow:
            unknown = repeat(len(vocabulary))
            return np.fromiter(map(vocabulary.get, tokens, unknown), np.int64, len(tokens))
        fresh = dict.fromkeys(filterfalse(vocabulary.__contains__, tokens))
        start = len(vocabulary)
        vocabulary.update(zip(fresh, range(start, start + len(fresh)), strict=True))
        return np.fromiter(map(vocabulary.__getitem__, tokens), np.int64, len(tokens))
