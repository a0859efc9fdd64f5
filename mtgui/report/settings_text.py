"""One sentence that says which settings produced a result, for under a view's tables.

A table read on its own (a screenshot, a copy into a spreadsheet) must say how its numbers were
made: the metrics, how words were compared, and the resampling. The signature says the same for
programs; this says it for people.
"""

from __future__ import annotations

from mtgui._version import __version__
from mtgui.engine.metrics import Metric
from mtgui.engine.resampling import BootstrapResult, Unit
from mtgui.engine.scale import SCALED_METRICS
from mtgui.engine.statistics import Statistics
from mtgui.engine.text import Case

CASE_WORDS = {
    Case.SENSITIVE: "case-sensitive",
    Case.FULL: "lowercased",
    Case.ASCII: "lowercased (A-Z only)",
}


def metric_labels(statistics: Statistics) -> str:
    """``BLEU (0-100), NIST``: the metrics, with the scale where BLEU and M-BLEU are read on
    sacreBLEU's (a table of 0-100 numbers must not pass for one of mteval's 0-1)."""
    return ", ".join(metric.label + scale_note(metric) for metric in statistics.metrics)


def scale_note(metric: Metric) -> str:
    """`` (0-100)`` after a metric read on sacreBLEU's scale, else nothing."""
    return " (0-100)" if metric.name in SCALED_METRICS and metric.scale == "0-100" else ""


def made_with(statistics: Statistics, bootstrap: BootstrapResult | None) -> str:
    """``Made with BLEU, NIST; tokenizer 13a, case-sensitive; 2,000 resamples of segments,
    seed 12345; 95% confidence, no correction.``"""
    metrics = metric_labels(statistics)
    settings = statistics.settings
    parts = [metrics, f"tokenizer {settings.tokenize}, {CASE_WORDS[settings.case]}"]
    if bootstrap is not None:
        resampling = bootstrap.settings
        unit = "documents" if resampling.unit is Unit.DOCUMENT else "segments"
        parts.append(f"{resampling.resamples:,} resamples of {unit}, seed {resampling.seed}")
        parts.append(f"{resampling.level * 100:g}% confidence, {resampling.correction.label}")
    return "Made with " + "; ".join(parts) + "."


def provenance(statistics: Statistics, bootstrap: BootstrapResult | None) -> list[str]:
    """The lines that head an exported table: mtgui's version, the settings in words
    (:func:`made_with`) and the signature that reproduces the numbers."""
    signature = (
        bootstrap.signature
        if bootstrap is not None
        else f"mtgui:{__version__}|{statistics.signature()}"
    )
    return [
        f"mtgui {__version__}",
        made_with(statistics, bootstrap),
        f"Signature: {signature}",
    ]
