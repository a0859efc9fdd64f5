"""The shared WMT datasets as corpora and statistics, cached for the whole test session."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from mtgui.engine.core.corpus import Corpus, Role
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.engine.text.settings import Case
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
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
