"""Every metric on every system of every shared dataset, against mteval-v13a and sacreBLEU.

The golden numbers in ../shared/data/*/golden.json were printed by NIST's mteval-v13a.pl and by
sacreBLEU 2.6.0 (the commands are in each dataset's README). mteval read the SGML form (or, for
the two-reference set, an SGML conversion of the plain text), sacreBLEU the plain text; we score
each form as that tool read it. Skipped where ../shared is absent.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest
from shared_corpora import (
    CASES,
    DATASETS,
    MISSING,
    SHARED_DATA,
    golden,
    reference_sets,
    statistics,
)

from mtgui.engine.text.settings import Case

pytestmark = pytest.mark.shared


def mteval_cases() -> list:
    cases = [
        pytest.param(dataset, refs, case, id=f"{dataset}-{refs}-{case}")
        for dataset in DATASETS
        for refs in reference_sets(dataset)
        for case in CASES
    ]
    return cases or [pytest.param("", "", "", marks=MISSING)]


@pytest.mark.parametrize(("dataset", "refset", "case"), mteval_cases())
def test_bleu_and_nist_equal_mteval(dataset, refset, case):
    refs = tuple(reference_sets(dataset)[refset])
    stats = statistics(dataset, "sgm", refs, CASES[case], ("bleu", "nist"))
    expected = golden(dataset)["mteval_v13a"]["scores"][refset][case]
    assert set(expected) == set(stats.system_names)
    for name, gold in expected.items():
        bleu, nist = stats.score(name, "bleu"), stats.score(name, "nist")
        assert f"{bleu:.4f}" == gold["BLEU_printed"], name
        assert f"{nist:.4f}" == gold["NIST_printed"], name
        assert bleu == pytest.approx(gold["BLEU"], abs=1e-12)
        assert nist == pytest.approx(gold["NIST"], abs=1e-11)


@pytest.mark.parametrize(("dataset", "refset", "case"), mteval_cases())
def test_ngram_counts_and_tables_equal_mteval(dataset, refset, case):
    refs = tuple(reference_sets(dataset)[refset])
    stats = statistics(dataset, "sgm", refs, CASES[case], ("bleu", "nist"))
    bleu, nist = stats.metric("bleu"), stats.metric("nist")
    for name, gold in golden(dataset)["mteval_v13a"]["scores"][refset][case].items():
        counts = gold["ngram_counts"]
        bleu_totals, nist_totals = stats.totals(name, "bleu"), stats.totals(name, "nist")
        assert bleu_totals[2:6].tolist() == counts["match"][:4]
        assert bleu_totals[6:10].tolist() == counts["hyp"][:4]
        assert nist_totals[5:10].tolist() == counts["match"][:5]
        assert nist_totals[10:15].tolist() == counts["hyp"][:5]
        assert nist_totals[15] == counts["ref_all_refs"][0]
        assert bleu_totals[0] == gold["hyp_len"] and bleu_totals[1] == gold["ref_len_closest"]
        for row, printed in zip(bleu.details(bleu_totals), gold["bleu_individual"], strict=False):
            assert f"{row['precision']:.4f}" == f"{printed:.4f}"
        penalty = nist.summary(nist_totals)["length_penalty"]
        cumulative = np.cumsum([row["precision_score"] for row in nist.details(nist_totals)])
        for n in range(5):
            assert f"{cumulative[n] * penalty:.4f}" == f"{gold['nist_cumulative'][n]:.4f}"


@pytest.mark.parametrize(("dataset", "refset", "case"), mteval_cases())
def test_segment_bleu_and_nist_equal_mteval(dataset, refset, case):
    refs = tuple(reference_sets(dataset)[refset])
    stats = statistics(dataset, "sgm", refs, CASES[case], ("bleu", "nist"))
    suffix = ("" if refset == "single" else f"_{refset}") + ("_cs" if case[5] == "s" else "_ci")
    path = SHARED_DATA / dataset / "golden" / "mteval-v13a-seg-scores.tsv"
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    for name in stats.system_names:
        mine = [r for r in rows if r["sysid"] == name]
        mine.sort(key=lambda r: int(r["line"]))
        bleu_rows, nist_rows = stats.rows(name, "bleu"), stats.rows(name, "nist")
        # mteval's segment scores: its corpus formulas applied to one segment's statistics.
        bleu = stats.metric("bleu").score(bleu_rows)
        nist = stats.metric("nist").score(nist_rows)
        np.testing.assert_allclose(bleu, [float(r[f"BLEU{suffix}"]) for r in mine], atol=1e-12)
        np.testing.assert_allclose(nist, [float(r[f"NIST{suffix}"]) for r in mine], atol=1e-10)


def test_nist_without_the_zero_quirk_equals_golden_formula_values():
    checked = 0
    for dataset in DATASETS:
        quirk = golden(dataset)["mteval_v13a"].get("nist_perl_zero_token_quirk")
        if not quirk:
            continue
        refs = tuple(reference_sets(dataset)[quirk["reference_set"]])
        for case, values in quirk["values"].items():
            stats = statistics(dataset, "sgm", refs, CASES[case], ("nist",), quirk=False)
            for name, value in values.items():
                nist = stats.score(name, "nist")
                assert nist == pytest.approx(value["NIST_without_the_zero_token_quirk"], abs=1e-11)
                assert f"{nist:.4f}" == value["printed_would_be"]
                checked += 1
    if not DATASETS:
        pytest.skip(f"the shared WMT data is absent ({SHARED_DATA})")
    assert checked > 0


def sacrebleu_cases() -> list:
    cases = []
    for dataset in DATASETS:
        sets = golden(dataset)["sacrebleu"]["scores"]
        names = list(sets) if "AB" in sets else ["single"]
        cases += [pytest.param(dataset, name, id=f"{dataset}-{name}") for name in names]
    return cases or [pytest.param("", "", marks=MISSING)]


@pytest.mark.parametrize(("dataset", "refset"), sacrebleu_cases())
def test_bleu_chrf_ter_equal_sacrebleu(dataset, refset):
    info = golden(dataset)
    scores = info["sacrebleu"]["scores"]
    expected = scores["single"] if refset == "single" else scores[refset]
    refs = tuple(r["id"] for r in info["references"] if refset == "single" or r["id"] in refset)
    metrics = ("bleu", "chrf", "ter")
    stats = statistics(dataset, "txt", refs, Case.SENSITIVE, metrics)
    lowercased = statistics(dataset, "txt", refs, Case.FULL, ("bleu",))
    for name, gold in expected.items():
        assert stats.score(name, "bleu") * 100 == pytest.approx(gold["BLEU"]["score"], abs=1e-6)
        assert stats.score(name, "chrf") == pytest.approx(gold["chrF2"]["score"], abs=1e-6)
        assert stats.score(name, "ter") == pytest.approx(gold["TER"]["score"], abs=1e-6)
        lc = lowercased.score(name, "bleu") * 100
        assert lc == pytest.approx(gold["BLEU_lc"]["score"], abs=1e-6)
        assert stats.totals(name, "bleu")[2:6].tolist() == gold["BLEU"]["counts"]
        assert stats.totals(name, "ter")[0] == gold["TER"]["num_edits"]
