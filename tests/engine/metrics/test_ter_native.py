"""TER counted natively (issue 17): sacreBLEU's edits and reference lengths exactly.

mtgui's compiled port of sacreBLEU's ``lib_ter`` against sacreBLEU itself, computed here: hand
cases, random word sequences (many hitting the 1,000-candidate limit or the widened beam),
sentences with several references, and the shared WMT data segment by segment (a sample of
every dataset, all segments of one). WER's distances come from the same kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metric_corpora import make_corpus
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.metrics.ter import TER
from shared_corpora import DATASETS, MISSING, SHARED_DATA, corpus, golden

from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.editdistance import edit_distances
from mtgui.engine.metrics.ter.search import ter_edits
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.statistics.rows import compute_statistics

WORDS = st.lists(st.integers(0, 6), max_size=25)


def native(hyp: list[str], ref: list[str]) -> int:
    """Our edits for word lists (ids as TER would give them)."""
    ids = {word: k for k, word in enumerate(dict.fromkeys(ref))}
    return ter_edits(
        np.array([ids.get(w, -1) for w in hyp], dtype=np.int64),
        np.array([ids[w] for w in ref], dtype=np.int64),
    )


@pytest.mark.parametrize(
    ("hyp", "ref", "edits"),
    [
        ("", "", 0),
        ("", "a b c", 3),  # all inserted
        ("a b c", "", 3),  # an empty reference: every hypothesis word, reference length 0
        ("a b c d", "a b c d", 0),
        ("c d a b", "a b c d", 1),  # one shift of "c d"
        ("a b x d", "a b c d", 1),
        ("b c d a e", "a b c d e", 1),
        ("d e a b c", "a b c d e", 1),
    ],
)
def test_hand_cases(hyp, ref, edits):
    assert native(hyp.split(), ref.split()) == edits
    assert translation_edit_rate(hyp.split(), ref.split())[0] == edits


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_random_word_sequences_equal_sacrebleu(hyp, ref):
    hyp_words, ref_words = [f"w{k}" for k in hyp], [f"w{k}" for k in ref]
    assert native(hyp_words, ref_words) == translation_edit_rate(hyp_words, ref_words)[0]


def _long_cases() -> list[tuple[list[str], list[str]]]:
    """Long sequences over few words (sacreBLEU's 1,000-candidate limit stops them), permuted
    references (many shifts), and very unequal lengths (the beam widens)."""
    rng = np.random.default_rng(17)
    cases = []
    for k in range(12):
        vocabulary = 3 + k % 5
        ref = rng.integers(0, vocabulary, 30 + 2 * k)
        if k % 3 == 0:
            hyp = rng.integers(0, vocabulary, 25 + 2 * k)
        elif k % 3 == 1:
            cut = sorted(rng.integers(0, len(ref), 2))
            hyp = np.concatenate([ref[cut[1] :], ref[cut[0] : cut[1]], ref[: cut[0]]])
        else:  # more than 50 reference words a hypothesis word: a wider beam
            hyp = rng.integers(0, vocabulary, 1 + k % 2)
            ref = rng.integers(0, vocabulary, 110 + k)
        cases.append(([f"w{x}" for x in hyp], [f"w{x}" for x in ref]))
        cases.append(([f"w{x}" for x in ref], [f"w{x}" for x in hyp]))
    return cases


def test_candidate_limit_shifts_and_unequal_lengths_equal_sacrebleu():
    for hyp, ref in _long_cases():
        assert native(hyp, ref) == translation_edit_rate(hyp, ref)[0], (hyp, ref)


def test_case_is_ignored_and_several_references_give_the_fewest_edits():
    refs_a = ["The cat sat on the mat.", "It rained ALL day.", "", "a b"]
    refs_b = ["A cat was sitting on the mat.", "Rain fell the whole day.", "Nothing.", ""]
    hyps = ["the CAT sits on the mat", "it rained all day.", "Nothing at all.", "x y z"]
    empty = MetricSettings(empty_refs="empty")  # "" is sacreBLEU's reference of no words
    stats = compute_statistics(make_corpus([refs_a, refs_b], system=hyps), ["ter"], empty)
    rows = stats.rows("system", "ter")
    for i, hyp in enumerate(hyps):
        expected = TER().sentence_score(hyp, [refs_a[i], refs_b[i]])
        assert rows[i].tolist() == [expected.num_edits, expected.ref_length]
    assert rows[1, 0] == 0  # case-insensitive, as sacreBLEU's TER by default


def test_without_numba_the_same_code_gives_the_same_edits():
    """The fallback where numba is missing: the kernels run as plain Python."""
    script = (
        "import numpy as np\n"
        "from mtgui.engine.runtime import compiled\n"
        "from mtgui.engine.metrics.ter.search import ter_edits\n"
        "from mtgui.engine.metrics.ter.editdistance import edit_distances\n"
        "assert not compiled.COMPILED\n"
        "a = lambda *w: np.array(w, dtype=np.int64)\n"
        "print(ter_edits(a(2, 3, 0, 1, 5), a(0, 1, 2, 3)), ter_edits(a(), a(1)), "
        "edit_distances(a(1, 2, 3, 4), a(3, 1), a(1, 3, 4), a(3, 0))[0])\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["2", "1", "2"]
    assert translation_edit_rate(list("cdabe"), list("abcd"))[0] == 2  # as sacreBLEU counts


def _levenshtein(a: list[int], b: list[int]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row = row, [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x != y))
    return row[-1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=5))
def test_wer_distances_are_levenshteins(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]

    def flat(seqs):
        ids = np.array([x for s in seqs for x in s], dtype=np.int64)
        return ids, np.array([len(s) for s in seqs], dtype=np.int64)

    distances = edit_distances(*flat(hyps), *flat(refs))
    assert distances.tolist() == [_levenshtein(h, r) for h, r in pairs]


def _sacrebleu_rows(dataset: str, segments: np.ndarray | None) -> None:
    """Every system's TER rows against sacreBLEU's own statistics (all segments) or sentence
    scores (``segments``), with all the dataset's references."""
    info = golden(dataset)
    data = corpus(dataset, "txt", tuple(r["id"] for r in info["references"]))
    references = [ref.texts for ref in data.test_set.references]
    stats = compute_statistics(data, ["ter"])
    whole = TER(references=[list(r) for r in references]) if segments is None else None
    for system in data.systems:
        rows = stats.rows(system.name, "ter")
        if whole is not None:
            expected = whole._extract_corpus_statistics(list(system.hypotheses), None)
            assert np.array_equal(rows, np.asarray(expected, dtype=np.float64)), system.name
            continue
        for s in segments:
            score = TER().sentence_score(system.hypotheses[s], [r[s] for r in references])
            assert rows[s].tolist() == [score.num_edits, score.ref_length], (system.name, s)


@pytest.mark.shared
@pytest.mark.parametrize("dataset", DATASETS or [pytest.param("", marks=MISSING)])
def test_shared_data_segment_by_segment_equals_sacrebleu(dataset):
    size = len(corpus(dataset, "txt", (golden(dataset)["references"][0]["id"],)).test_set.seg_ids)
    sample = np.random.default_rng(21).choice(size, 40, replace=False)
    _sacrebleu_rows(dataset, np.sort(sample))


@pytest.mark.shared
def test_all_segments_of_wmt21_is_en_equal_sacrebleu():
    dataset = "wmt21-newstest2021-is-en"
    if not (SHARED_DATA / dataset / "golden.json").exists():
        pytest.skip(f"the shared WMT data is absent ({SHARED_DATA})")
    _sacrebleu_rows(dataset, None)


def test_the_metric_names_its_settings():
    assert Ter().signature() == "ter[tok=tercom,case=lc,norm=no,punct=yes,asian=no]"
