"""Our batch 13a equals sacreBLEU's tokenizer token for token; case folding as specified."""

from __future__ import annotations

import re
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

from mtgui.engine.text.ngrams import (
    _ENCODE_BLOCK,
    TokenIds,
    _counted,
    _max_per_key,
    _max_per_key_stable,
    number_references,
)
from mtgui.engine.text.settings import Case
from mtgui.engine.text.tokenize import (
    _BLOCK,
    SEGMENT_BREAK,
    _lines_with_adjacent_stops,
    fold_case,
    tokenize,
    tokenize_flat,
)

SACRE_13A = Tokenizer13a()
CHARACTERS = " .,-0123456789aZéÜ&;<>\"'{}[]()~`^_\\|/?!@#$%*+=:\n\t\r"
PIECES = ("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "\u00a0", "\u2028", "\x1c", "\x85", "ß")
ALPHABET = st.sampled_from([*CHARACTERS, *PIECES])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(ALPHABET, max_size=20).map("".join), min_size=1, max_size=8))
def test_13a_equals_sacrebleu_on_random_text(lines):
    assert tokenize(lines, "13a", Case.SENSITIVE) == [SACRE_13A(x.rstrip()).split() for x in lines]
    assert tokenize(lines, "13a", Case.FULL) == [
        SACRE_13A(x.lower().rstrip()).split() for x in lines
    ]


def test_skipped_goes_before_the_line_breaks_are_joined():
    """The case hypothesis found in CI: sacreBLEU drops <skipped> first, so "-\n" is joined."""
    for line in ("-<skipped>\n.", "a-<skipped>\nb", "<skip<skipped>ped>"):
        expected = SACRE_13A(line.rstrip()).split()
        assert tokenize([line], "13a", Case.SENSITIVE) == [expected]
        assert tokenize_flat([line, "x"], "13a", Case.SENSITIVE) == [*expected, SEGMENT_BREAK, "x"]
    assert tokenize(["-<skipped>\n."], "13a", Case.SENSITIVE) == [["."]]


def test_entities_are_decoded_in_13a_order_and_only_where_one_is():
    """13a decodes &quot; &amp; &lt; &gt; one after the other, so "&amp;lt;" becomes "<" and
    "&amp;quot;" stays "&quot;"; a text with '&' but no entity is searched once, not changed."""
    lines = ["&amp;lt; &amp;quot; &amp;amp;", "AT&T & co;", "&lt&gt;&quot", "&AMP; &amp"]
    assert tokenize(lines, "13a", Case.SENSITIVE) == [SACRE_13A(x).split() for x in lines]
    assert tokenize(lines[:1], "13a", Case.SENSITIVE) == [["<", "&", "quot", ";", "&", "amp", ";"]]
    assert tokenize(lines[1:2], "13a", Case.SENSITIVE) == [["AT", "&", "T", "&", "co", ";"]]


def test_lines_with_touching_stops_keep_their_place_among_the_others():
    """13a's own rules on the lines where '.' or ',' touch, the fast ones between them: at the
    start, the end, side by side and alone, every line as sacreBLEU tokenizes it."""
    lines = ["a..b", "1.5, x", "c,.d", "e...", "-3.", "f", "1,2 ..", "g, h.", ",,"]
    for chosen in (lines, lines[1:], lines[1:-1], lines[5:6], lines[:1]):
        expected = [SACRE_13A(x).split() for x in chosen]
        assert tokenize(chosen, "13a", Case.SENSITIVE) == expected
        flat = tokenize_flat(chosen, "13a", Case.SENSITIVE)
        broken = [[SEGMENT_BREAK][:i] + tokens for i, tokens in enumerate(expected)]
        assert flat == [token for tokens in broken for token in tokens]


def test_13a_examples():
    assert tokenize(
        ["Hello, world. 3.5 million-ish 1-2 &quot;x&quot; A&amp;B"], "13a", Case.SENSITIVE
    ) == [
        [
            "Hello",
            ",",
            "world",
            ".",
            "3.5",
            "million-ish",
            "1",
            "-",
            "2",
            '"',
            "x",
            '"',
            "A",
            "&",
            "B",
        ]
    ]


def test_ascii_lowercasing_keeps_umlauts_as_mteval_does():
    assert fold_case("ÜBER Äpfel ABC", Case.ASCII) == "Über Äpfel abc"
    assert fold_case("ÜBER Äpfel ABC", Case.FULL) == "über äpfel abc"
    assert tokenize(["ÜBER Äpfel"], "13a", Case.ASCII) == [["Über", "Äpfel"]]
    # mteval decodes entities before lowercasing, so an upper-case entity is not decoded
    assert tokenize(["&AMP;"], "13a", Case.ASCII) == [["&", "amp", ";"]]
    assert tokenize(["&AMP;"], "13a", Case.FULL) == [["&"]]


def test_other_tokenizers_are_sacrebleus():
    line = "Die Katze (3,5 kg) saß — auf «der» Matte!"
    assert tokenize([line], "intl", Case.SENSITIVE) == [TokenizerV14International()(line).split()]
    assert tokenize([line], "none", Case.SENSITIVE) == [line.split()]
    assert tokenize(["abc d"], "char", Case.SENSITIVE) == [["a", "b", "c", "d"]]
    assert tokenize(["我爱你 ok"], "zh", Case.SENSITIVE) == [["我", "爱", "你", "ok"]]


def test_flat_tokens_are_the_same_across_the_blocks_of_a_large_set():
    # tokenize_flat works in blocks of segments (so the window's thread gets the GIL between
    # them); the blocks' seams must not show: empty segments, "1.5" and ".." at the edges.
    pieces = ["a, b.", "", "3.5 x-1", "..", "&quot;q&quot;", "Ünï ß", "end."]
    lines = [pieces[i % len(pieces)] + f" {i}" * (i % 3) for i in range(4 * _BLOCK + 3)]
    flat = tokenize_flat(lines, "13a", Case.FULL)
    expected = []
    for number, tokens in enumerate(tokenize(lines, "13a", Case.FULL)):
        expected += ([SEGMENT_BREAK] if number else []) + tokens
    assert flat == expected
    assert flat.count(SEGMENT_BREAK) == len(lines) - 1


def test_token_ids_of_more_tokens_than_one_encoding_block():
    tokens = [f"w{i % 1000}" for i in range(2 * _ENCODE_BLOCK + 7)]
    flat = [*tokens[:5], SEGMENT_BREAK, *tokens[5:]]
    vocabulary, _ = number_references([flat])
    assert len(vocabulary) == 1000 and vocabulary["w0"] == 0 and vocabulary["w999"] == 999
    ids = TokenIds.encode([*flat, "unknown"], vocabulary)
    assert ids.lengths.tolist() == [5, len(tokens) - 5 + 1]
    assert ids.ids[:3].tolist() == [0, 1, 2] and ids.ids[-2:].tolist() == [
        (len(tokens) - 1) % 1000,
        -1,
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=6), max_size=5),
        min_size=1,
        max_size=4,
    )
)
def test_references_numbered_in_one_pass_as_vocabulary_then_encoding(references):
    """number_references numbers the tokens in order of first appearance, reference after
    reference, and gives the ids TokenIds.encode gives with that vocabulary, empty segments and
    references included."""
    flats = []
    for segments in references:
        flat: list[str] = []
        for number, tokens in enumerate(segments):
            flat += ([SEGMENT_BREAK] if number else []) + tokens
        flats.append(flat)
    vocabulary, encoded = number_references(flats)
    met = [token for flat in flats for token in flat if token != SEGMENT_BREAK]
    expected = {token: number for number, token in enumerate(dict.fromkeys(met))}
    assert list(vocabulary.items()) == list(expected.items())
    for flat, ids in zip(flats, encoded, strict=True):
        alone = TokenIds.encode(flat, expected)
        assert ids.ids.tolist() == alone.ids.tolist()
        assert ids.lengths.tolist() == alone.lengths.tolist()
        assert ids.segment.tolist() == alone.segment.tolist()


def test_references_numbered_across_encoding_blocks():
    tokens = [f"w{i % 1000}" for i in range(2 * _ENCODE_BLOCK + 7)]
    vocabulary, (first, second) = number_references(
        [[*tokens[:5], SEGMENT_BREAK, *tokens[5:]], ["new", "w3"]]
    )
    assert len(vocabulary) == 1001 and vocabulary["w999"] == 999 and vocabulary["new"] == 1000
    assert first.lengths.tolist() == [5, len(tokens) - 5]
    assert first.ids[-1] == (len(tokens) - 1) % 1000
    assert second.ids.tolist() == [1000, 3] and SEGMENT_BREAK not in vocabulary


def test_each_reference_s_tokens_go_before_the_next_are_made():
    """Given one at a time, a reference's token list is freed once numbered, before the next
    is asked for (the next then reuses its memory), and the ids are those of a list of lists."""

    class Tokens(list):  # a list that can be watched going
        pass

    made: list[weakref.ref[Tokens]] = []
    texts = [["a", "b", SEGMENT_BREAK, "c"], ["b", "d"], ["e", SEGMENT_BREAK, "a"]]

    def one_at_a_time():
        for tokens in texts:
            assert all(ref() is None for ref in made), "an earlier reference's tokens are alive"
            current = Tokens(tokens)
            made.append(weakref.ref(current))
            yield current
            del current  # the generator's own reference

    vocabulary, encoded = number_references(one_at_a_time())
    expected_vocabulary, expected = number_references(texts)
    assert vocabulary == expected_vocabulary == {"a": 0, "b": 1, "c": 2, "d": 3, "e": 4}
    assert [e.ids.tolist() for e in encoded] == [e.ids.tolist() for e in expected]
    assert len(made) == 3


@pytest.mark.parametrize("block", [1, 3, 10_000])
def test_token_index_is_built_the_same_in_blocks(monkeypatch: pytest.MonkeyPatch, block: int):
    """TokenIds.from_ids indexes a block of segments at a time (for the GIL): every token's
    segment and position inside it, whatever the blocks, empty segments included."""
    monkeypatch.setattr("mtgui.engine.text.ngrams._INDEX_BLOCK", block)
    lengths = np.array([0, 2, 0, 0, 3, 1, 0, 4, 0])
    built = TokenIds.from_ids(np.arange(10), lengths)
    assert built.segment.tolist() == [1, 1, 4, 4, 4, 5, 7, 7, 7, 7]
    assert built.position.tolist() == [0, 1, 0, 1, 2, 0, 0, 1, 2, 3]
    assert built.lengths.tolist() == lengths.tolist() and built.size == 9
    assert TokenIds.from_ids(np.zeros(0, np.int64), np.zeros(0, np.int64)).segment.size == 0


def test_lines_where_stops_touch_are_found_on_every_line():
    joined = "a..b\nc. d\n,,\n\nx.,y ,.z\n1.5\n..."
    spans = _lines_with_adjacent_stops(joined)
    assert [joined[start:end] for start, end in spans] == ["a..b", ",,", "x.,y ,.z", "..."]
    assert spans[0] == (0, 4) and spans[-1] == (len(joined) - 3, len(joined))
    assert _lines_with_adjacent_stops("no stops. at all, here") == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=".,a1 \n\u20ac", max_size=60))
def test_lines_where_stops_touch_are_the_lines_holding_such_a_pair(joined):
    lines = joined.split("\n")
    starts = np.cumsum([0] + [len(line) + 1 for line in lines[:-1]])
    touching = [
        (int(start), int(start) + len(line))
        for start, line in zip(starts, lines, strict=True)
        if re.search("[.,][.,]", line)
    ]
    assert _lines_with_adjacent_stops(joined) == touching


@pytest.mark.parametrize(
    ("seed", "key_limit", "count_limit"),
    [*((seed, 50, 6) for seed in range(5)), (5, 2**55, 300), (6, 2**62, 3), (7, 40, 2**40)],
)
def test_the_largest_count_per_key_over_the_references(seed, key_limit, count_limit):
    """Packed keys and counts where they fit in an int64 (the first five), the stable sort
    where they do not (the last two); the sixth packs a count over 255 beside a large key."""
    rng = np.random.default_rng(seed)
    runs = [np.unique(rng.integers(0, key_limit, rng.integers(0, 30))) for _ in range(4)]
    runs[1] = np.unique(np.concatenate([runs[1], runs[0][:5]]))  # keys in several references
    counts = [rng.integers(1, count_limit, len(run)) for run in runs]  # each one's keys: sorted
    largest: dict[int, int] = {}
    for run, count in zip(runs, counts, strict=True):
        for key, n in zip(run.tolist(), count.tolist(), strict=True):
            largest[key] = max(largest.get(key, 0), n)
    keys, caps = _max_per_key(np.concatenate(runs), np.concatenate(counts))
    assert keys.tolist() == sorted(largest)
    assert caps.tolist() == [largest[k] for k in sorted(largest)]
    stable_keys, stable_caps = _max_per_key_stable(np.concatenate(runs), np.concatenate(counts))
    assert keys.tolist() == stable_keys.tolist() and caps.tolist() == stable_caps.tolist()


@pytest.mark.parametrize("segments", [0, 1, 40])
def test_counted_is_numpys_unique_with_counts_on_keys_in_runs_of_a_segment(segments):
    rng = np.random.default_rng(segments)
    lengths = rng.integers(0, 30, segments)
    keys = np.repeat(np.arange(segments), lengths) * 50 + rng.integers(0, 50, lengths.sum())
    unique, counts = _counted(keys.astype(np.int64))
    expected_unique, expected_counts = np.unique(keys, return_counts=True)
    assert unique.tolist() == expected_unique.tolist()
    assert counts.tolist() == expected_counts.tolist() and counts.dtype == expected_counts.dtype


def test_trailing_whitespace_of_any_kind_tokenizes_as_sacrebleu_strips_it():
    """Texts without <skipped> or a line break are joined without stripping each (the fast
    path of _joined_padded): trailing whitespace must not change a token."""
    lines = ["a.\x1c", "b,\u2028 ", "1.\t", "x -\x85", "3,\u00a0", "&amp;\x0b", ""]
    assert tokenize(lines, "13a", Case.SENSITIVE) == [SACRE_13A(x.rstrip()).split() for x in lines]
    assert tokenize_flat(lines, "13a", Case.ASCII) == [
        token
        for number, x in enumerate(lines)
        for token in ([SEGMENT_BREAK] if number else []) + SACRE_13A(x.rstrip()).lower().split()
    ]
