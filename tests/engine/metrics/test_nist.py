"""NIST: information weights by hand, mteval's '0' quirk, and the paper's Table 1 arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from metric_corpora import make_corpus

from mtgui.engine.metrics.bleu.nist import BETA, Nist
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import compute_statistics


def nist_totals(references, hypothesis, quirk=True):
    corpus = make_corpus([[r] for r in references], system=[hypothesis])
    settings = MetricSettings(tokenize="none", nist_zero_quirk=quirk)
    return compute_statistics(corpus, ["nist"], settings).totals("system", "nist")


def test_information_weights_by_hand():
    # Reference words: a b a c (4). info(a) = log2(4/2) = 1, info(b) = info(c) = log2(4/1) = 2,
    # info(a b) = log2(count(a)/count(a b)) = log2(2/1) = 1.
    totals = nist_totals(["a b a c"], "a b")
    assert totals[0] == pytest.approx(1 + 2)  # I_1: a and b matched
    assert totals[1] == pytest.approx(1)  # I_2: "a b"
    assert totals[5:7].tolist() == [2, 1]  # clipped matches
    assert totals[10:12].tolist() == [2, 1]  # hypothesis n-grams
    assert totals[15] == 4  # reference words
    precision = 3 / 2 + 1 / 1
    ratio = 2 / 4
    assert Nist(1).score_one(totals) == pytest.approx(
        precision * math.exp(BETA * math.log(ratio) ** 2)
    )


def test_length_penalty_is_half_at_two_thirds_of_the_reference_length():
    row = np.zeros(16)
    row[0], row[10], row[15] = 3.0, 2.0, 3.0  # I_1 = 3 over 2 words; 3 reference words
    assert Nist(1).score_one(row) == pytest.approx(3 / 2 * 0.5)


def test_mteval_zero_quirk_weights_a_bigram_after_0_as_a_unigram():
    # Reference words: 0 x 0 y (4). With the quirk "0 x" gets log2(4 / count("0 x")) = 2;
    # by the formula it gets log2(count("0") / count("0 x")) = log2(2/1) = 1.
    with_quirk = nist_totals(["0 x 0 y"], "0 x", quirk=True)
    without = nist_totals(["0 x 0 y"], "0 x", quirk=False)
    assert with_quirk[1] == pytest.approx(2.0)
    assert without[1] == pytest.approx(1.0)
    assert with_quirk[0] == without[0]  # unigrams are not affected


def test_zhang_vogel_waibel_table_1_arithmetic():
    """The n-gram contribution table of Zhang, Vogel & Waibel (2004), Table 1."""
    hyp = [28113, 27235, 26357, 25479, 24601]
    matches = [18243, 7690, 3145, 1336, 544]
    info = [160365.1, 33280.3, 5661.7, 950.3, 228.4]
    row = np.array([*info, *matches, *hyp, 28113.0])  # no length penalty, as in the paper
    details = Nist(1).details(row)
    # The paper prints 0.53 for n = 5, but its own Info Gain / # of Match is 228.4 / 544 = 0.42.
    assert [round(d["avg_info_gain"], 2) for d in details] == [8.79, 4.33, 1.80, 0.71, 0.42]
    assert [round(d["precision_score"], 3) for d in details] == [5.704, 1.222, 0.215, 0.037, 0.009]
    assert [round(d["contribution_percent"], 1) for d in details] == [79.4, 17.0, 3.0, 0.5, 0.1]
    assert round(Nist(1).score_one(row), 3) == 7.188
