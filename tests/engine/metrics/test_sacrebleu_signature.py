"""sacreBLEU's signature in the JSON report (issue 36, point 8): equal to the one sacreBLEU itself
prints for the same options, wherever mtgui's number is sacreBLEU's, and null with a reason
elsewhere."""

from __future__ import annotations

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtgui.api import read
from mtgui.engine.metrics.registry import REGISTRY
from mtgui.engine.metrics.sacrebleu_signature import metric_options
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.scale import scaled_statistics
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.settings import Case
from mtgui.report.evaluation import evaluation_report

HYPS = ["The dog bit the man.", "It wasn't surprising."]
REFS = [["The dog bit the man.", "It was not unexpected."], ["The dog had bit the man.", "No."]]


def sacrebleu_signature(metric) -> str:
    metric.corpus_score(HYPS, REFS)
    return metric.get_signature().format()


def ours(name: str, **options) -> dict:
    settings = MetricSettings(**options)
    metric = REGISTRY[name].factory(read(REFS, {"a": HYPS}).test_set, settings)
    return metric_options(metric, settings, len(REFS))


@pytest.mark.parametrize(
    ("options", "theirs"),
    [
        ({"bleu_smooth_method": "exp"}, {}),
        ({"bleu_smooth_method": "floor"}, {"smooth_method": "floor"}),
        (
            {"bleu_smooth_method": "add-k", "bleu_smooth_value": 2.0},
            {"smooth_method": "add-k", "smooth_value": 2.0},
        ),
        (
            {"bleu_smooth_method": "none", "bleu_effective_order": True, "tokenize": "intl"},
            {"smooth_method": "none", "effective_order": True, "tokenize": "intl"},
        ),
        ({"bleu_smooth_method": "exp", "case": Case.FULL}, {"lowercase": True}),
        ({"bleu_smooth_method": "exp", "tokenize": "char"}, {"tokenize": "char"}),
    ],
    ids=str,
)
def test_bleu_signature_is_sacrebleus(options, theirs):
    entry = ours("bleu", **options)
    assert entry["sacrebleu_signature"] == sacrebleu_signature(BLEU(**theirs))
    assert entry["nrefs"] == 2


@pytest.mark.parametrize(
    ("options", "reason"),
    [({}, "mteval-v13a's"), ({"bleu_smooth_method": "exp", "case": Case.ASCII}, "A-Z only")],
)
def test_bleu_without_sacrebleus_number_has_no_signature(options, reason):
    entry = ours("bleu", **options)
    assert entry["sacrebleu_signature"] is None
    assert reason in entry["sacrebleu_signature_reason"]
    assert entry["smooth_method"] == options.get("bleu_smooth_method", "mteval")


@pytest.mark.parametrize(
    ("name", "options", "theirs"),
    [
        ("chrf", {}, {}),
        ("chrf++", {}, {"word_order": 2}),
        (
            "chrf",
            {"chrf_whitespace": True, "chrf_eps_smoothing": True, "chrf_char_order": 4},
            {"whitespace": True, "eps_smoothing": True, "char_order": 4},
        ),
        ("chrf", {"case": Case.FULL}, {"lowercase": True}),
    ],
    ids=str,
)
def test_chrf_signature_is_sacrebleus(name, options, theirs):
    assert ours(name, **options)["sacrebleu_signature"] == sacrebleu_signature(CHRF(**theirs))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"ter_normalized": True, "ter_asian_support": True},
        {"ter_no_punct": True},
        {"ter_case_sensitive": True},
    ],
    ids=str,
)
def test_ter_signature_is_sacrebleus(options):
    theirs = TER(**{name[4:]: value for name, value in options.items()})
    assert ours("ter", **options)["sacrebleu_signature"] == sacrebleu_signature(theirs)


@pytest.mark.parametrize("name", ["nist", "mbleu", "wer"])
def test_metrics_sacrebleu_does_not_have(name):
    entry = ours(name)
    assert entry["sacrebleu_signature"] is None
    assert entry["sacrebleu_signature_reason"].startswith("sacreBLEU has no ")


def test_the_report_gives_every_metric_its_options_and_the_scale_changes_nothing():
    corpus = read(REFS, {"a": HYPS})
    stats = compute_statistics(
        corpus, ("bleu", "chrf", "nist"), MetricSettings(bleu_smooth_method="exp")
    )
    report = evaluation_report(corpus, stats)
    options = report["settings"]["metric_options"]
    assert list(options) == ["bleu", "chrf", "nist"]
    assert options["bleu"]["sacrebleu_signature"] == sacrebleu_signature(BLEU())
    percent = evaluation_report(corpus, scaled_statistics(stats))["settings"]["metric_options"]
    assert percent == options
