"""Every metric on every system of every shared dataset, against mteval-v13a and sacreBLEU.

The golden numbers in ../shared/data/*/golden.json were printed by NIST's mteval-v13a.pl and by
sacreBLEU 2.6.0 (the commands are in each dataset's README). mteval read the SGML form (or, for
the two-reference set, an SGML conversion of the plain text), sacreBLEU the plain text; we score
each form as that tool read it. Skipped where ../shared is absent.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from mtgui.engine.corpus import Corpus, Role
from mtgui.engine.settings import Case, MetricSettings
from mtgui.engine.statistics import Statistics, compute_statistics
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

pytestmark = pytest.mark.shared

SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
DATASETS = sorted(p.parent.name for p in SHARED_DATA.glob("*/golden.json"))
CASES = {"case_sensitive": Case.SENSITIVE, "case_insensitive": Case.ASCII}
MISSING = pytest.mark.skip(reason=f"the shared WMT data is absent ({SHARED_DATA})")


def golden(dataset: str) -> dict:
    return json.loads((SHARED_DATA / dataset / "golden.json").read_text(encoding="utf-8"))


def reference_sets(dataset: str) -> dict[str, list[str]]:
    """mteval's reference sets: name -> reference ids of the dataset ('single' = all)."""
    info = golden(dataset)
    sets = info["mteval_v13a"]["reference_sets"]
    ids = [r["id"] for r in info["references"]]
    return {name: ids if name == "single" else list(name) for name in sets}


def mteval_cases() -> list:
    cases = [
        pytest.param(dataset, refs, case, id=f"{dataset}-{refs}-{case}")
        for dataset in DATASETS
        for refs in reference_sets(dataset)
        for case in CASES
    ]
    return cases or [pytest.param("", "", "", marks=MISSING)]


@cache
def corpus(dataset: str, form: str, refs: tuple[str, ...]) -> Corpus:
    """The dataset as mteval ('sgm') or sacreBLEU ('txt') read it.

    Where the dataset ships no SGML, mteval read an SGML conversion of the plain text with
    ``& < >`` escaped (its README says so); escaping the text the same way gives what mteval saw.
    """
    folder, info = SHARED_DATA / dataset, golden(dataset)
    has_sgml = "sgm" in info["systems"][0]
    chosen = [r for r in info["references"] if r["id"] in refs]
    paths = [r["sgm" if has_sgml else "txt"] for r in chosen]
    paths += [s["sgm" if has_sgml else "txt"] for s in info["systems"]]
    if form == "txt":
        paths = [r["txt"] for r in chosen] + [s["txt"] for s in info["systems"]]
    roles = [Role.REFERENCE] * len(chosen) + [Role.SYSTEM] * len(info["systems"])
    loaded = assemble([load_file(folder / p, {r}) for p, r in zip(paths, roles, strict=True)])
    if form == "sgm" and not has_sgml:
        return escaped_as_sgml(loaded)
    return loaded


def escaped_as_sgml(corpus: Corpus) -> Corpus:
    """The corpus with ``& < >`` escaped in every text, as in an SGML conversion."""

    def escape(texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(
            t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for t in texts
        )

    test_set = replace(
        corpus.test_set,
        references=tuple(replace(r, texts=escape(r.texts)) for r in corpus.test_set.references),
    )
    systems = tuple(replace(s, hypotheses=escape(s.hypotheses)) for s in corpus.systems)
    return replace(corpus, test_set=test_set, systems=systems)


@cache
def statistics(
    dataset: str,
    form: str,
    refs: tuple[str, ...],
    case: Case,
    metrics: tuple[str, ...],
    quirk: bool = True,
) -> Statistics:
    settings = MetricSettings(case=case, nist_zero_quirk=quirk)
    return compute_statistics(corpus(dataset, form, refs), metrics, settings)


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
