"""One sentence that says which settings produced a result, for under a view's tables.

A table read on its own (a screenshot, a copy into a spreadsheet) must say how its numbers were
made: the metrics, how words were compared, and the resampling. The signature says the same for
programs; this says it for people.
"""

from __future__ import annotations

from mtgui.engine.bootstrap import BootstrapResult
from mtgui.engine.settings import Case, Unit
from mtgui.engine.statistics import Statistics

CASE_WORDS = {
    Case.SENSITIVE: "case-sensitive",
    Case.FULL: "lowercased",
    Case.ASCII: "lowercased (A-Z only)",
}


def made_with(statistics: Statistics, bootstrap: BootstrapResult | None) -> str:
    """``Made with BLEU, NIST; tokenizer 13a, case-sensitive; 2,000 resamples of segments,
    seed 12345; 95% confidence, no correction.``"""
    metrics = ", ".join(metric.label for metric in statistics.metrics)
    settings = statistics.settings
    parts = [metrics, f"tokenizer {settings.tokenize}, {CASE_WORDS[settings.case]}"]
    if bootstrap is not None:
        resampling = bootstrap.settings
        unit = "documents" if resampling.unit is Unit.DOCUMENT else "segments"
        parts.append(f"{resampling.resamples:,} resamples of {unit}, seed {resampling.seed}")
        parts.append(f"{resampling.level * 100:g}% confidence, {resampling.correction.label}")
    return "Made with " + "; ".join(parts) + "."
