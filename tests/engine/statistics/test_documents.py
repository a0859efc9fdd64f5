"""Per-document scores: by hand, and against every value ``mteval-v13a.pl -d`` printed.

The goldens are ../shared/data/*/golden/mteval-v13a-doc-scores.tsv (BLEU and NIST of every
system and document, ASCII-lowercased ``_ci`` and case-sensitive ``_cs``, with each dataset's
one reference set; the de-en two-reference set gives no document scores: its documents are
invented). Skipped where ../shared is absent.
"""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from metric_corpora import ORIGIN, make_corpus
from shared_corpora import CASES, DATASETS, MISSING, SHARED_DATA, corpus, reference_sets, statistics

from mtgui.engine.core.corpus import Corpus, SystemOutput, TestSet, TextColumn
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.scale import scaled_statistics
from mtgui.engine.statistics.documents import DocumentGrouping, document_scores, score_documents
from mtgui.engine.statistics.rows import compute_statistics

GOLDEN = "mteval-v13a-doc-scores.tsv"
SUFFIX = {"case_insensitive": "_ci", "case_sensitive": "_cs"}


SEGMENTS = (("a b c d e", "a b c d f"), ("g h", "g h"), ("a b c", "a b"))  # (ref, hyp)


def small_corpus(doc_ids=("d1", "d1", "d2"), order=(0, 1, 2)) -> Corpus:
    """The three ``SEGMENTS`` in ``order``, in documents ``doc_ids``; one reference, one
    system."""
    test_set = TestSet(
        doc_ids=tuple(doc_ids),
        seg_ids=tuple(str(i + 1) for i in range(len(order))),
        references=(TextColumn("ref", tuple(SEGMENTS[i][0] for i in order), ORIGIN),),
    )
    system = SystemOutput("sys", tuple(SEGMENTS[i][1] for i in order), ORIGIN)
    return Corpus(test_set, (system,))


def small_scores(corpus_: Corpus) -> dict[str, np.ndarray]:
    settings = MetricSettings(tokenize="none")
    stats = compute_statistics(corpus_, ["bleu", "nist"], settings)
    table = score_documents(stats, corpus_.test_set)
    assert table.documents == tuple(dict.fromkeys(corpus_.test_set.doc_ids))
    return {m: table.scores[m][0] for m in table.metrics}


def test_documents_by_hand():
    scores = small_scores(small_corpus())
    # d1: c = r = 7; matches 6, 4, 2, 1 of 7, 5, 3, 2 n-grams; no brevity penalty.
    assert scores["bleu"][0] == pytest.approx((6 / 7 * 4 / 5 * 2 / 3 * 1 / 2) ** 0.25)
    # d2: "a b" against "a b c": all matched, no 3- or 4-grams (they count as precision 1,
    # as in mteval), brevity penalty exp(1 - 3/2).
    assert scores["bleu"][1] == pytest.approx(math.exp(-0.5))
    # NIST weights from ALL 10 reference words (a, b, c twice; d, e, g, h once), not the
    # document's: info(a) = log2(10/2), info(d) = info(g) = log2(10), info(c d) = log2(2/1),
    # info(b c d) = log2(2/1), info(a b c d) = log2(2/1), info(a b) = info(g h) = 0.
    d1 = (3 * math.log2(5) + 3 * math.log2(10)) / 7 + 1 / 5 + 1 / 3 + 1 / 2
    assert scores["nist"][0] == pytest.approx(d1)
    # d2: I_1 = 2 log2 5 over 2 words, I_2 = 0; 2 words against 3: the penalty is exactly 1/2.
    assert scores["nist"][1] == pytest.approx(math.log2(5) * 0.5)
    # Weights of the document's own references would give log2(3) * 0.5 instead.
    assert scores["nist"][1] != pytest.approx(math.log2(3) * 0.5)


def test_segments_of_a_document_need_not_be_contiguous():
    together = small_scores(small_corpus(("d1", "d1", "d2")))
    apart = small_scores(small_corpus(("d1", "d2", "d1"), order=(0, 2, 1)))
    for metric in ("bleu", "nist"):
        np.testing.assert_allclose(apart[metric], together[metric], rtol=1e-15)
    grouping = DocumentGrouping.of(small_corpus(("d1", "d2", "d1"), (0, 2, 1)).test_set)
    assert grouping.documents == ("d1", "d2") and grouping.segments.tolist() == [2, 1]


def test_one_document_is_the_system_score():
    corpus_ = small_corpus(("d1", "d1", "d1"))
    stats = compute_statistics(corpus_, ["bleu", "nist"], MetricSettings(tokenize="none"))
    table = score_documents(stats, corpus_.test_set)
    assert table.segments.tolist() == [3]
    for metric in ("bleu", "nist"):
        assert table.scores[metric][0, 0] == stats.score("sys", metric)


def test_bleu_follows_the_scale_of_the_statistics():
    corpus_ = small_corpus()
    stats = compute_statistics(corpus_, ["bleu", "nist"], MetricSettings(tokenize="none"))
    grouping = DocumentGrouping.of(corpus_.test_set)
    percent = scaled_statistics(stats)
    assert document_scores(percent, grouping, "sys", "bleu") == pytest.approx(
        100 * document_scores(stats, grouping, "sys", "bleu")
    )
    assert document_scores(percent, grouping, "sys", "nist") == pytest.approx(
        document_scores(stats, grouping, "sys", "nist")
    )


def test_plain_text_has_no_documents():
    corpus_ = make_corpus([["a b"]], system=["a b"])
    stats = compute_statistics(corpus_, ["bleu"], MetricSettings())
    with pytest.raises(InputError, match="per-document scores need documents"):
        score_documents(stats, corpus_.test_set)


def golden_cases() -> list:
    cases = [
        pytest.param(dataset, refset, case, id=f"{dataset}-{refset}-{case}")
        for dataset in DATASETS
        if (SHARED_DATA / dataset / "golden" / GOLDEN).exists()
        for refset in reference_sets(dataset)
        for case in CASES
    ]
    return cases or [pytest.param("", "", "", marks=MISSING)]


@pytest.mark.shared
@pytest.mark.parametrize(("dataset", "refset", "case"), golden_cases())
def test_document_bleu_and_nist_equal_mteval(dataset, refset, case):
    refs = tuple(reference_sets(dataset)[refset])
    stats = statistics(dataset, "sgm", refs, CASES[case], ("bleu", "nist"))
    table = score_documents(stats, corpus(dataset, "sgm", refs).test_set)
    with (SHARED_DATA / dataset / "golden" / GOLDEN).open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    # Every system and document mteval scored, and no other.
    assert {(r["sysid"], r["docid"]) for r in rows} == {
        (s, d) for s in table.systems for d in table.documents
    }
    assert len(rows) == len(table.systems) * len(table.documents)
    systems = {name: i for i, name in enumerate(table.systems)}
    documents = {doc: i for i, doc in enumerate(table.documents)}
    where = ([systems[r["sysid"]] for r in rows], [documents[r["docid"]] for r in rows])
    for metric, column in (("bleu", "BLEU"), ("nist", "NIST")):
        expected = np.array([float(r[column + SUFFIX[case]]) for r in rows])
        np.testing.assert_allclose(table.scores[metric][where], expected, rtol=0, atol=1e-12)
