"""mtgui's own chrF statistics (issue 17) against sacreBLEU's, row by row, to the bit.

The rows are sacreBLEU's ``CHRF._extract_corpus_statistics``, computed in the test by its
Python API: hand cases (empty, identical, one character, Unicode, whitespace, punctuation,
ties between references), random texts for any orders and for every path of the counting
(keys packed in one sort, in blocks, sorted indirectly), sacreBLEU's options mtgui does not
expose (whitespace, eps smoothing) and cancelling. The extraction counts with the compiled
kernels here, whatever the size (numpy's counting, which a small test set gets, is pinned to
Counters below and the kernels to it in test_chrf_kernel).
"""

from __future__ import annotations

import threading
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metric_corpora import make_corpus
from sacrebleu.metrics.chrf import CHRF

from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.chrf import counts as chrf_counts
from mtgui.engine.metrics.chrf import extract as chrf_extract
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.chrf.chrfpp import ChrfPlusPlus
from mtgui.engine.metrics.chrf.counts import clipped_matches
from mtgui.engine.metrics.chrf.extract import iter_references, iter_rows
from mtgui.engine.metrics.chrf.symbols import Symbols, characters
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.settings import Case


@pytest.fixture(autouse=True)
def _compiled_counting(monkeypatch):
    monkeypatch.setattr(chrf_extract, "KERNEL_SYMBOLS", 0)


def native_rows(
    hypotheses: list[str],
    references: list[list[str]],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    prepared = run_to_end(iter_references(references, word_order > 0, whitespace))
    rows = iter_rows(prepared, hypotheses, char_order, word_order, beta, eps_smoothing)
    return run_to_end(rows)


def sacrebleu_rows(hypotheses: list[str], references: list[list[str]], **options) -> np.ndarray:
    scorer = CHRF(**options, references=references)
    stats = scorer._extract_corpus_statistics(hypotheses, None)
    return np.asarray(stats, dtype=np.float64).reshape(len(hypotheses), -1)


def assert_same_rows(hypotheses, references, **options):
    expected = sacrebleu_rows(hypotheses, references, **options)
    assert np.array_equal(native_rows(hypotheses, references, **options), expected)


HAND_HYPOTHESES = [
    "",  # empty hypothesis
    "The cat sat on the mat.",  # identical to the first reference
    "a",  # one character
    "x",  # one character, not in the reference
    "  ",  # only whitespace
    "Ünïcödé: e\u0301 vs é, ﬁ ligature",  # combining marks stay their own code points
    "我们今天去北京。",  # CJK
    "emoji 👍🏽 and 🇩🇪 flags 👨‍👩‍👧",  # astral code points, ZWJ sequences
    "tabs\tand\u00a0nbsp\u2003em\u3000ideographic\x1cfile-sep",  # str.split whitespace
    "(hi) 'quoted' end. ,start !! a.b.c ... -",  # sacreBLEU's punctuation splitting
    "the the the the the",  # clipping
    "Short",
    "lone \ud800 surrogate",
]
HAND_REFERENCES = [
    ["The cat sat on the mat.", "", "", "a", "b", "y"],
    ["The cat sat on the mat.", "The cat sat on the mat.", "The mat.", "a", "a", "the cat"],
]


def _references(count: int) -> list[list[str]]:
    """``count`` references per hand hypothesis: mostly different, some empty or identical."""
    pool = [
        "",
        "a",
        "The cat sat on the mat.",
        "Unicode: e\u0301 vs é, ﬁ",
        "我们明天去北京。",
        "emoji 👍 and 🇩🇪 flag 👨‍👩‍👧",
        "tabs and nbsp em ideographic file-sep",
        "(hi) 'quoted' end . , start !!",
        "the the",
        "Short",
        "lone \ud800 surrogate",
    ]
    return [
        [pool[(i * (r + 1) + r) % len(pool)] for i in range(len(HAND_HYPOTHESES))]
        for r in range(count)
    ]


@pytest.mark.parametrize("refs", [1, 2, 3])
@pytest.mark.parametrize(("char_order", "word_order"), [(6, 0), (6, 2), (1, 0), (3, 4)])
def test_hand_cases_equal_sacrebleu(refs, char_order, word_order):
    for beta in (0, 1, 2, 3):
        options = {"char_order": char_order, "word_order": word_order, "beta": beta}
        assert_same_rows(HAND_HYPOTHESES, _references(refs), **options)


@pytest.mark.parametrize(
    ("hypotheses", "references"),
    [
        (["a"], [["b"]]),  # fewer symbols in the whole set than the orders
        ([""], [[""]]),
        (["ab"], [["a"], [""]]),
        (["", ""], [["a b", ""], ["", "a"]]),
        (["a a a a a a a"], [["a a a a a a a a"]]),
    ],
)
@pytest.mark.parametrize("word_order", [0, 2])
def test_tiny_test_sets_equal_sacrebleu(hypotheses, references, word_order):
    assert_same_rows(hypotheses, references, word_order=word_order)


@pytest.mark.parametrize("whitespace", [False, True])
@pytest.mark.parametrize("eps_smoothing", [False, True])
@pytest.mark.parametrize("word_order", [0, 2])
def test_sacrebleu_options_mtgui_does_not_expose(whitespace, eps_smoothing, word_order):
    options = {"word_order": word_order, "whitespace": whitespace, "eps_smoothing": eps_smoothing}
    assert_same_rows(HAND_HYPOTHESES, _references(3), **options)


def test_a_tie_between_references_takes_the_first():
    hypotheses = ["ab", "abc abd"]
    references = [["ab x", "abc"], ["x ab", "abd"]]  # equal F-scores, different statistics
    expected = sacrebleu_rows(hypotheses, references)
    assert np.array_equal(native_rows(hypotheses, references), expected)
    assert np.array_equal(native_rows(hypotheses, references[:1]), expected)


TEXT = st.text(alphabet=st.sampled_from(list("aab bc.,(!) \t\u00a0é\u0301我🙂")), max_size=25)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(1, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(st.tuples(TEXT, TEXT, TEXT, TEXT), min_size=1, max_size=12),
)
def test_random_texts_equal_sacrebleu(char_order, refs, word_order, beta, segments):
    hypotheses = [s[0] for s in segments]
    references = [[s[r + 1] for s in segments] for r in range(refs)]
    assert_same_rows(
        hypotheses, references, char_order=char_order, word_order=word_order, beta=beta
    )


def brute_force_matches(sources: list[Symbols], max_order: int) -> np.ndarray:
    """Clipped matches with Counters, as sacreBLEU counts them."""
    hyp, refs = sources[0], sources[1:]
    result = np.zeros((len(refs), hyp.size, max_order), dtype=np.int64)
    for i in range(hyp.size):
        h = hyp.values[hyp.offsets[i] : hyp.offsets[i + 1]].tolist()
        for r, ref in enumerate(refs):
            t = ref.values[ref.offsets[i] : ref.offsets[i + 1]].tolist()
            for n in range(1, max_order + 1):
                hc = Counter(tuple(h[k : k + n]) for k in range(len(h) - n + 1))
                rc = Counter(tuple(t[k : k + n]) for k in range(len(t) - n + 1))
                result[r, i, n - 1] = sum((hc & rc).values())
    return result


@pytest.mark.parametrize("key_bits", [63, 40, 20])  # one sort; blocks; indirect sorts too
@pytest.mark.parametrize("alphabet", [3, 300, 100_000])  # from 2 to 11 bits a symbol
def test_every_counting_path_equals_counters(monkeypatch, key_bits, alphabet):
    monkeypatch.setattr(chrf_counts, "_KEY_BITS", key_bits)
    rng = np.random.default_rng(alphabet + key_bits)
    segments = 300
    # a few symbols per segment, so that long n-grams repeat and match, many in all
    palettes = rng.integers(0, alphabet, (segments, 3))

    def source() -> Symbols:
        lengths = rng.integers(0, 12, segments)
        segment = np.repeat(np.arange(segments), lengths)
        return Symbols.from_lengths(palettes[segment, rng.integers(0, 3, len(segment))], lengths)

    sources = [source() for _ in range(4)]
    for max_order in (1, 4, 9):
        expected = brute_force_matches(sources, max_order)
        assert np.array_equal(clipped_matches(sources, max_order, alphabet), expected)


def test_characters_drop_what_str_split_drops():
    texts = ["a b\tc\u00a0d\u3000e\x1cf\u200bg", "", "  "]
    symbols = characters(texts)
    assert symbols.lengths.tolist() == [len("".join(t.split())) for t in texts]
    assert "".join(map(chr, symbols.values)) == "".join("".join(t.split()) for t in texts)
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    assert max(spaces) == 0x3000  # chrf_symbols' table stops there


def test_hypotheses_do_not_change_the_references_words():
    """Each system's words are encoded by a copy of the references' encoder."""
    references = [["the cat sat .", "a dog"], ["one cat", "dogs (barked)"]]
    prepared = run_to_end(iter_references(references, with_words=True))
    assert prepared.words is not None
    encoder = prepared.words.encoder
    vocabulary, known = dict(encoder.vocabulary), dict(encoder._rows)
    expected = sacrebleu_rows(["new words here", "dog (barked)"], references, word_order=2)
    for hypotheses in (["new words here", "dog (barked)"], ["here (new)", "words"]):
        run_to_end(iter_rows(prepared, hypotheses, 6, 2, 2))
        assert encoder.vocabulary == vocabulary and encoder._rows == known
    rows = run_to_end(iter_rows(prepared, ["new words here", "dog (barked)"], 6, 2, 2))
    assert np.array_equal(rows, expected)


def test_case_folding_is_sacrebleus_lowercase():
    corpus = make_corpus([["The CAT sat.", "ÄÖÜ ẞ İ"]], sys=["the cat SAT.", "äöü ß i̇"])
    context = ExtractionContext(corpus.test_set, MetricSettings(case=Case.FULL))
    for metric, word_order in ((Chrf(), 0), (ChrfPlusPlus(), 2)):
        rows = context.rows(metric, corpus.systems[0])
        expected = sacrebleu_rows(
            list(corpus.systems[0].hypotheses),
            [list(corpus.test_set.references[0].texts)],
            word_order=word_order,
            lowercase=True,
        )
        assert np.array_equal(rows, expected)


def _big_corpus(segments: int = 3000):
    rng = np.random.default_rng(3)
    words = np.array([f"w{i}" for i in range(200)])

    def text() -> str:
        return " ".join(rng.choice(words, size=int(rng.integers(5, 30))))

    return make_corpus([[text() for _ in range(segments)]], sys=[text() for _ in range(segments)])


def test_closing_the_extraction_stops_its_threads_and_next_time_is_whole():
    corpus = _big_corpus()
    context = ExtractionContext(corpus.test_set, MetricSettings())
    before = threading.active_count()
    extraction = context.iter_rows(ChrfPlusPlus(), corpus.systems[0])
    steps = [next(extraction) for _ in range(3)]
    assert all(0 <= s < corpus.test_set.size for s in steps)
    extraction.close()
    assert threading.active_count() == before  # the pool is shut down, not left running
    rows = context.rows(ChrfPlusPlus(), corpus.systems[0])
    expected = sacrebleu_rows(
        list(corpus.systems[0].hypotheses),
        [list(corpus.test_set.references[0].texts)],
        word_order=2,
    )
    assert np.array_equal(rows, expected)


def test_a_system_is_done_in_many_small_steps():
    corpus = _big_corpus()
    context = ExtractionContext(corpus.test_set, MetricSettings())
    done = [d for d in context.iter_rows(Chrf(), corpus.systems[0]) if d]
    assert len(done) > 5 and done == sorted(done) and done[-1] == corpus.test_set.size


def _shared_cases() -> list:
    from shared_corpora import DATASETS, MISSING, golden

    if not DATASETS:
        return [pytest.param("", (), marks=MISSING)]
    cases = []
    for dataset in DATASETS:
        refs = tuple(r["id"] for r in golden(dataset)["references"])
        cases.append(pytest.param(dataset, refs, marks=pytest.mark.shared))
        if len(refs) > 1:  # and each reference alone
            cases += [pytest.param(dataset, (r,), marks=pytest.mark.shared) for r in refs]
    return cases


@pytest.mark.parametrize(("dataset", "refs"), _shared_cases())
def test_shared_data_rows_equal_sacrebleu(dataset, refs):
    """Every segment of three systems of each dataset, chrF and chrF++ (the corpus scores of
    every system are in test_metrics_golden and test_chrfpp_golden)."""
    from shared_corpora import corpus

    texts = corpus(dataset, "txt", refs)
    references = [list(ref.texts) for ref in texts.test_set.references]
    context = ExtractionContext(texts.test_set, MetricSettings())
    for metric, word_order in ((Chrf(), 0), (ChrfPlusPlus(), 2)):
        scorer = CHRF(word_order=word_order, references=references)
        for system in texts.systems[:3]:
            expected = scorer._extract_corpus_statistics(list(system.hypotheses), None)
            rows = context.rows(metric, system)
            assert np.array_equal(rows, np.asarray(expected, dtype=np.float64))
            sentence = scorer.sentence_score(system.hypotheses[7], [r[7] for r in references])
            assert metric.segment_scores(rows)[7] == pytest.approx(sentence.score, abs=1e-9)
