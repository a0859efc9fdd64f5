"""The stale-result guard's facts and words: what results were made from, and how it differs.

Views always say what they were made from: :class:`RunInputs` is what one analysis (or study)
is made from, and :func:`describe_stale` says, when the files or settings have changed since,
what the results shown were made from and what happens next (:data:`NEXT_RUN`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mtgui.io.entries import Entry
from mtgui.io.workspace import Workspace


@dataclass(frozen=True)
class RunInputs:
    """What one analysis is made from: the files, the systems' names, and the settings."""

    workspace: Workspace
    settings: Mapping[str, Any]  # the settings panel's state

    def same_files(self, other: RunInputs) -> bool:
        """Whether ``other`` has the same files (the very same reads) and system names.

        A file that could not be read gives the analysis nothing: adding or removing one
        changes no result, so it is not counted (a study was marked out of date by one).
        """
        mine, theirs = self.workspace, other.workspace
        kept, others = _counted(mine), _counted(theirs)
        return (
            len(kept) == len(others)
            and all(a is b for a, b in zip(kept, others, strict=True))
            and mine.renamed_systems == theirs.renamed_systems
            and mine.hidden_systems == theirs.hidden_systems
        )


def _counted(workspace: Workspace) -> list[Entry]:
    """The entries that can change a result: all but those refused with nothing read."""
    return [e for e in workspace.entries if e.ok or e.loaded is not None or e.score_tables]


NEXT_RUN = {
    "pending": "A new run starts in a moment.",
    "loading": "A new run starts when the files are read.",
    "running": "A new run is under way: the distributions fill as it goes, the other views "
    "show these results until it ends.",
    "cancelled": "The new run was cancelled: press Run (Ctrl+R) to update them.",
    "failed": "The new run stopped (see the message above): press Run (Ctrl+R) to try again.",
    "blocked": "They cannot be updated until the problem above is solved.",
    "empty": "No file is loaded now: drop files on the window to analyse them.",
    "study": "Run it again to update it (after the analysis, if that is behind too).",
    "": "Press Run (Ctrl+R) to update them.",
}
"""What happens next, by the state of the analysis (the keys the window keeps)."""

_WORDS: dict[Any, str] = {
    "auto": "automatic",
    "document": "documents",
    "segment": "segments",
    "none": "none",
    "holm": "Holm",
    "fdr": "Benjamini-Hochberg",
    "maxt": "max-T",
    "metric": "each metric",
    "all": "all metrics together",
    "sensitive": "case-sensitive",
    "full": "lowercase all",
    "ascii": "lowercase A-Z",
}


def _on(value: object) -> str:
    """An on/off option as the sentence says it (missing: off, its default)."""
    return "on" if value else "off"


_SETTINGS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (  # key, label, its value
    ("seed", "seed ", str),
    ("resamples", "", lambda value: f"{value:,} resamples"),
    ("level", "confidence ", lambda value: f"{value * 100:g}%"),
    ("unit", "resampling ", lambda value: _WORDS.get(value, str(value))),
    ("correction", "correction ", lambda value: _WORDS.get(value, str(value))),
    ("family", "family ", lambda value: _WORDS.get(value, str(value))),
    ("equivalence", "equivalence margins ", lambda value: value or "none"),
    ("randomization", "approximate randomization ", lambda value: "on" if value else "off"),
    ("tokenizer", "tokenizer ", str),
    ("case", "", lambda value: _WORDS.get(value, str(value))),
    ("chrf_char_order", "chrF character order ", str),
    ("chrf_word_order", "chrF word order ", str),
    ("chrf_beta", "chrF beta ", str),
    ("bleu_scale", "BLEU on ", lambda value: f"0-{value or 1}"),
    # sacreBLEU's options: written only when not their default (None here means the default)
    ("bleu_smooth_method", "BLEU smoothing ", lambda value: value or "mteval"),
    ("bleu_smooth_value", "BLEU smoothing value ", lambda v: "default" if v is None else f"{v:g}"),
    ("bleu_max_order", "BLEU max order ", lambda value: str(value or 4)),
    ("bleu_effective_order", "BLEU effective order ", lambda value: _on(value)),
    ("chrf_whitespace", "chrF whitespace ", lambda value: _on(value)),
    ("chrf_eps_smoothing", "chrF eps smoothing ", lambda value: _on(value)),
    ("ter_normalized", "TER normalized ", lambda value: _on(value)),
    ("ter_no_punct", "TER without punctuation ", lambda value: _on(value)),
    ("ter_asian_support", "TER Asian support ", lambda value: _on(value)),
    ("ter_case_sensitive", "TER case-sensitive ", lambda value: _on(value)),
)


def describe_stale(
    shown: RunInputs,
    now: RunInputs,
    state: str,
    labels: Mapping[str, str],
    subject: str = "These results are",
) -> str:
    """Why the results shown (made from ``shown``) are not those of ``now``, or "".

    For example "These results are from the previous settings (seed 12345, now 7). The new
    run was cancelled: press Run (Ctrl+R) to update them." ``state`` is a key of
    :data:`NEXT_RUN`; ``labels`` name the metrics.
    """
    changes = setting_changes(shown.settings, now.settings, labels)
    parts = [f"the previous settings ({'; '.join(changes)})"] if changes else []
    if not shown.same_files(now):
        parts.append("the files and system names as they were before")
    if not parts:
        return ""
    return f"{subject} from {' and '.join(parts)}. {NEXT_RUN.get(state, NEXT_RUN[''])}"


def setting_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], labels: Mapping[str, str]
) -> list[str]:
    """Each setting that differs, as the results had it and as it is now ("seed 12345, now 7")."""
    changes = []
    added = [labels.get(m, m) for m in new["metrics"] if m not in old["metrics"]]
    dropped = [labels.get(m, m) for m in old["metrics"] if m not in new["metrics"]]
    if added:
        changes.append("without " + ", ".join(added))
    if dropped:
        changes.append("with " + ", ".join(dropped))
    for key, label, say in _SETTINGS:
        if old.get(key) != new.get(key):
            changes.append(f"{label}{say(old.get(key))}, now {say(new.get(key))}")
    return changes


def settings_kept(
    defaults: Mapping[str, Any], now: Mapping[str, Any], labels: Mapping[str, str]
) -> list[str]:
    """Each setting of ``now`` that is not its default, as it is now ("seed 7", "500
    resamples"): what a new project would inherit unseen from an earlier one."""
    kept = []
    if list(now.get("metrics", ())) != list(defaults.get("metrics", ())):
        kept.append("metrics " + ", ".join(labels.get(m, m) for m in now.get("metrics", ())))
    for key, label, say in _SETTINGS:
        if key in now and now.get(key) != defaults.get(key):
            kept.append(f"{label}{say(now.get(key))}")
    return kept
