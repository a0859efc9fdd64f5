"""What the Studies tab says in words: what a study does and needs before it runs, how far a
run is, and what a finished run made.

Plain functions of the study and its snapshots, so that the sentences are tested without a
window; the view puts them in its placeholder, its progress bar and its status line.
"""

from __future__ import annotations

from mtgui.engine.studies import HumanStudy, RefsStudy, ResamplesStudy, SizeStudy, StudyProgress
from mtgui.views.studies.study_plots import Study

RUN = "Press Run study to start."
EXPLANATIONS = {
    "size": (
        "<b>Test-set size</b> (Zhang &amp; Vogel 2004, 4.1): draws random subsets of the test "
        "set, from a tenth of it to all of it, bootstraps each, and plots how every system's "
        "score and its confidence interval change with the amount of test data, and how much "
        "test data tells each pair of systems apart.<br>Needs a reference and a system. "
        "Repetitions: how many subsets are drawn at each size (more: smoother, slower)."
    ),
    "refs": (
        "<b>Number of references</b> (Zhang &amp; Vogel 2004, 4.2): scores every system "
        "against 1, 2, ... of the references and plots how the scores and their confidence "
        "intervals change with more references.<br>Needs at least two references of the same "
        "test set. Repetitions: how many subsets of the test set are drawn at each size for "
        "Table 4."
    ),
    "resamples": (
        "<b>Number of resamples</b> (Zhang &amp; Vogel 2004, 4.3): bootstraps again with "
        "B = 1,000 to 100,000 resamples, and runs B = 100 to 10,000 twenty times with other "
        "seeds, to show whether B resamples are enough: the interval's width by B, and how "
        "much its bounds move between runs.<br>Needs a reference and a system."
    ),
    "human": (
        "<b>Agreement with humans</b>: correlates each metric's system scores with human "
        "scores (Pearson and Spearman, with intervals), tests which metric agrees better, "
        "and lists the pairs of systems on which a metric and the humans disagree.<br>Needs "
        "per-segment human scores: drop a scores table (system, line, score) on the window "
        "and tick Human among the metrics; at least three systems with human scores."
    ),
}
STUDY_NAMES = {
    "size": "test-set size study",
    "refs": "references study",
    "resamples": "resamples study",
    "human": "agreement study",
}


def explanation(kind: str, running: bool = False) -> str:
    """What study ``kind`` does and needs, and what to do now (rich text)."""
    then = "Running: the plots appear as the first results arrive." if running else RUN
    return f"{EXPLANATIONS[kind]}<br><br>{then}"


def kind_of(study: Study) -> str:
    """The study's name, as on the command line."""
    if isinstance(study, SizeStudy):
        return "size"
    if isinstance(study, RefsStudy):
        return "refs"
    if isinstance(study, ResamplesStudy):
        return "resamples"
    return "human"


def phases(study: Study) -> tuple[str, ...]:
    """The phases of a study's run in order, where a phase counts its steps from 0 again: the
    agreement study bootstraps (and randomizes), correlates, then judges the metrics; the others
    count on."""
    if isinstance(study, HumanStudy):
        randomization = ("randomization",) if study.settings.ar_trials else ()
        return ("bootstrap", *randomization, "correlating", "judging")
    return ()


def progress_fraction(snapshot: StudyProgress[Study]) -> float:
    """How much of the whole run is done, 0 to 1, going up across the phases of a run."""
    part = snapshot.done / snapshot.total if snapshot.total > 0 else 0.0
    order = phases(snapshot.partial)
    if snapshot.phase in order:
        return (order.index(snapshot.phase) + part) / len(order)
    return min(max(part, 0.0), 1.0)


PHASE_WORDS = {
    "size": "bootstrapping subsets of the test set",
    "references": "scoring against subsets of the references",
    "resamples": "bootstrapping with more and more resamples",
    "stability": "repeating runs with other seeds",
    "bootstrap": "bootstrapping the systems",
    "randomization": "approximate randomization",
    "correlating": "correlating with the human scores",
    "judging": "judging the metrics as WMT does (permutation tests)",
}


def progress_text(snapshot: StudyProgress[Study]) -> str:
    """'Running the test-set size study: bootstrapping subsets of the test set (34%)'."""
    name = STUDY_NAMES[kind_of(snapshot.partial)]
    doing = PHASE_WORDS.get(snapshot.phase, snapshot.phase)
    fraction = progress_fraction(snapshot)
    return f"Running the {name}: {doing} ({fraction:.1%} done)."


def finished_text(study: Study, seconds: float) -> str:
    """'Finished in 3.2 s: the test-set size study of 4 systems and 3 metrics, ...'."""
    systems = len(study.systems)
    if isinstance(study, HumanStudy):
        what = f"{len(study.correlations)} metrics against the human scores of {systems} systems"
    else:
        what = f"{systems} systems and {len(study.metrics)} metrics"
    extra = ""
    if isinstance(study, SizeStudy):
        extra = f", {study.repeats_done} subsets at each of {len(study.fractions)} sizes"
    elif isinstance(study, RefsStudy):
        extra = f", {len(study.subsets)} subsets of the {len(study.references)} references"
    return f"Finished in {seconds:.1f} s: the {STUDY_NAMES[kind_of(study)]} of {what}{extra}."
