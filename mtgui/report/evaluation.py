"""Results as data for people and programs: the score table, the JSON report, segment rows.

The JSON shape is stable (later versions add fields, never move them):
``{"mtgui_version", "settings", "test_set", "notes", "systems": [{"name", "scores": {metric:
{"score", ...}}, "details": {"bleu": [...], "nist": [...]}}]}``; ``notes`` holds everything the
user should know about the result (the corpus's notes, then the bootstrap's, which
``bootstrap.notes`` repeats); with the bootstrap, each score gains
``median, mean, std, rsd, ci_low, ci_high, rel_ci_low, rel_ci_high`` (relative values in
percent; null for scores off a ratio scale, such as human z-scores), and the report
``"pairs"`` (each with ``human_agreement``, how often humans would agree with its delta
(Kocmi et al. 2024), where the metric has a fit; the report then says ``human_agreement_source``
and, per such metric, ``human_agreement_fits``), ``"rankings"``, ``"bootstrap"`` (``unit`` is
the unit really resampled,
``unit_requested`` the one asked for) and ``"signature"``. ``settings.metric_options`` gives,
per metric, its number of references, its options and sacreBLEU's signature where mtgui's
number is sacreBLEU's (else null and ``sacrebleu_signature_reason``). NaN becomes null.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtgui._version import __version__
from mtgui.engine.core import Corpus, TestSet
from mtgui.engine.inference import (
    HUMAN_AGREEMENT_SOURCE,
    INTERVAL_FIELDS,
    OPTIONAL_PAIR_FIELDS,
    PAIR_FIELDS,
    SEGMENT_TEST_FIELDS,
    Correction,
    HumanAgreement,
    PairComparison,
)
from mtgui.engine.metrics import MetricSettings, metric_options, signature_nrefs
from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.report.agreement import metric_agreement
from mtgui.report.cells import csv_cell, four_decimals, json_ready, metric_column
from mtgui.report.significance import verdict_basis
from mtgui.report.table_text import align_table

_NIST_PARTS = ("info", "match", "hyp")


def evaluation_report(
    corpus: Corpus, statistics: Statistics, bootstrap: BootstrapResult | None = None
) -> dict[str, Any]:
    """The report of one evaluation as JSON-ready data (with the bootstrap's, if run)."""
    report = _basic_report(corpus, statistics)
    if bootstrap is None:
        return report
    for entry in report["systems"]:
        for metric, score in entry["scores"].items():
            interval = bootstrap.interval(entry["name"], metric)
            score.update(json_ready({key: getattr(interval, key) for key in INTERVAL_FIELDS}))
    agreements = _agreements(statistics, bootstrap.metrics)
    report["pairs"] = [
        {
            **_pair_entry(pair),
            **segment_fields(bootstrap, pair),
            **_agreement_field(agreements.get(pair.metric), pair.delta),
        }
        for pair in bootstrap.pairs
    ]
    if agreements:
        report["human_agreement_source"] = HUMAN_AGREEMENT_SOURCE
        report["human_agreement_fits"] = {
            metric: {
                "fit": agreement.fit.name,
                "a": agreement.fit.a,
                "b": agreement.fit.b,
                "points_per_unit": agreement.factor,
                "assumptions": list(agreement.assumptions),
            }
            for metric, agreement in agreements.items()
        }
    report["rankings"] = {
        r.metric: [
            {
                "system": e.system,
                "score": e.score,
                "ranks": [e.best_rank, e.worst_rank],
                "cluster": e.cluster,
            }
            for e in r.systems
        ]
        for r in bootstrap.rankings
    }
    settings = bootstrap.settings
    report["bootstrap"] = {
        "resamples": settings.resamples,
        "seed": settings.seed,
        "unit": settings.unit.value,
        "unit_requested": bootstrap.unit_requested.value,
        "level": settings.level,
        "ar_trials": settings.ar_trials,
        "holm": settings.correction is Correction.HOLM,
        "correction": settings.correction.value,
        "family": settings.family.value,
        "verdict_basis": {metric: verdict_basis(bootstrap, metric) for metric in bootstrap.metrics},
        "resamples_requested": settings.raised_from or settings.resamples,
        "equivalence": dict(settings.equivalence),
        "test": settings.test.value,
        "interval": settings.interval.value,
        "notes": list(bootstrap.notes),
    }
    report["notes"] = list(dict.fromkeys([*report["notes"], *bootstrap.notes]))
    report["signature"] = bootstrap.signature
    return json_ready(report)


def segment_fields(bootstrap: BootstrapResult, pair: PairComparison) -> dict[str, Any]:
    """The pair's segment-level fields
    (:data:`~mtgui.engine.inference.segment_tests.SEGMENT_TEST_FIELDS`): the win and loss rates, and
    the t-test's and Wilcoxon's p-values where the metric is a mean of segment scores."""
    found = bootstrap.segment_comparison(pair.metric, pair.x, pair.y)
    if found is None:
        return {}
    fields = {key: getattr(found, key) for key in SEGMENT_TEST_FIELDS}
    return {key: value for key, value in fields.items() if value is not None}


def _agreements(statistics: Statistics, metrics: Sequence[str]) -> dict[str, HumanAgreement]:
    """The human-agreement fit of every metric that has one."""
    found = {metric: metric_agreement(statistics, metric) for metric in metrics}
    return {metric: agreement for metric, agreement in found.items() if agreement is not None}


def _agreement_field(agreement: HumanAgreement | None, delta: float) -> dict[str, Any]:
    """``{"human_agreement": share}`` where the metric has a fit, else nothing."""
    share = None if agreement is None else agreement.of(delta)
    return {} if agreement is None else {"human_agreement": share}


def _pair_entry(pair: PairComparison) -> dict[str, Any]:
    """One comparison; the optional p-values only where they were computed."""
    entry = {key: getattr(pair, key) for key in PAIR_FIELDS}
    for key in OPTIONAL_PAIR_FIELDS:
        value = getattr(pair, key)
        if value is not None:
            entry[key] = value
    return entry


def _basic_report(corpus: Corpus, statistics: Statistics) -> dict[str, Any]:
    """Settings, test set and the full-set scores with their details."""
    settings = describe_settings(
        [m.name for m in statistics.metrics], statistics.settings, statistics.signature()
    )
    nrefs = signature_nrefs(corpus.test_set, statistics.settings.empty_refs)
    settings["metric_options"] = {
        m.name: metric_options(m, statistics.settings, nrefs) for m in statistics.metrics
    }
    return {
        "mtgui_version": __version__,
        "settings": settings,
        "test_set": describe_test_set(corpus.test_set),
        "notes": list(dict.fromkeys([*corpus.notes, *statistics.notes])),
        "systems": [_system_entry(statistics, name) for name in statistics.system_names],
    }


def describe_settings(
    metrics: Sequence[str], settings: MetricSettings, signature: str
) -> dict[str, Any]:
    """The metrics and the settings that scored them (a report's ``settings``)."""
    return {
        "metrics": list(metrics),
        "tokenize": settings.tokenize,
        "case": settings.case.value,
        "nist_zero_quirk": settings.nist_zero_quirk,
        "empty_refs": settings.empty_refs,
        "signature": signature,
    }


def describe_test_set(test_set: TestSet) -> dict[str, Any]:
    """Segments, documents and references (the report's ``test_set``)."""
    return {
        "segments": test_set.size,
        "documents": len(test_set.documents) if test_set.has_documents else None,
        "references": [ref.name for ref in test_set.references],
    }


def _system_entry(statistics: Statistics, name: str) -> dict[str, Any]:
    """One system's scores and detail tables."""
    scores, details = {}, {}
    for metric in statistics.metrics:
        totals = statistics.totals(name, metric.name)
        scores[metric.name] = {"score": metric.score_one(totals), **metric.summary(totals)}
        rows = metric.details(totals)
        if rows:
            details[metric.name] = rows
    return json_ready({"name": name, "scores": scores, "details": details})


def score_table(statistics: Statistics) -> str:
    """The system scores as an aligned text table, one row per system."""
    metrics = statistics.metrics
    header = ["System", *(m.label for m in metrics)]
    rows = [
        [name, *(four_decimals(statistics.score(name, m.name)) for m in metrics)]
        for name in statistics.system_names
    ]
    return align_table([header, *rows])  # names made printable there


def segment_table(corpus: Corpus, statistics: Statistics) -> tuple[list[str], list[list[Any]]]:
    """Segment-level scores, one row per system and segment (a long table for spreadsheets).

    BLEU is sacreBLEU's sentence BLEU; NIST is mteval's segment NIST, with its per-order
    components (information-weighted matches, clipped matches, hypothesis n-grams). The
    columns are named as the document table's (``bleu_x100`` on the 0-100 scale).
    """
    test_set = corpus.test_set
    header = ["system", "segment", "doc_id", "seg_id"]
    for metric in statistics.metrics:
        header.append(metric_column(metric))
        if metric.name == "nist":
            header += [f"nist_{part}_{n}" for part in _NIST_PARTS for n in range(1, 6)]
    rows: list[list[Any]] = []
    for name in statistics.system_names:
        columns = []
        for metric in statistics.metrics:
            columns.append(statistics.segment_scores(name, metric.name))
            if metric.name == "nist":
                columns += list(statistics.rows(name, "nist")[:, :15].T)
        for i in range(test_set.size):
            values = [csv_cell(column[i], whole_numbers=True) for column in columns]
            rows.append([name, i + 1, test_set.doc_ids[i], test_set.seg_ids[i], *values])
    return header, rows
