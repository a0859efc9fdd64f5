"""Missing references (issue 36, point 4): an empty reference line is sacreBLEU's ``None``, a
reference that does not exist; ``--empty-refs empty`` keeps it a reference of no words ("")."""

from __future__ import annotations

import numpy as np
import pytest
from metric_corpora import make_corpus
from sacrebleu.metrics import BLEU, CHRF, TER

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.missing_refs import blank_references, signature_nrefs
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.window_words import window_message

EXP = MetricSettings(bleu_smooth_method="exp")  # sacreBLEU's BLEU
# Each metric's choice between the references differs when the empty line counts: the closest
# length (BLEU), the best F-score (chrF: the empty first reference wins a tie at 0), the fewest
# edits and the mean length (TER).
HYPS = ["a b", "x y", "the cat sat on the mat", "p q r", "one two three four"]
REF_A = ["a b c d e f", "", "the cat is on the mat", "p q r s", "one two"]
REF_B = ["", "u v", "", "p", "one two three four five six"]
SACRE = {"bleu": BLEU(), "chrf": CHRF(), "chrf++": CHRF(word_order=2), "ter": TER()}


def _scores(settings: MetricSettings, refs=(REF_A, REF_B), hyps=HYPS) -> dict[str, float]:
    statistics = compute_statistics(make_corpus(list(refs), system=hyps), list(SACRE), settings)
    scale = {"bleu": 100.0}
    return {name: scale.get(name, 1.0) * statistics.score("system", name) for name in SACRE}


@pytest.mark.parametrize(("mode", "blank"), [("missing", None), ("empty", "")])
def test_scores_equal_sacrebleus_with_none_or_an_empty_string(mode, blank):
    ours = _scores(MetricSettings(bleu_smooth_method="exp", empty_refs=mode))
    refs = [[text or blank for text in ref] for ref in (REF_A, REF_B)]
    for name, metric in SACRE.items():
        assert ours[name] == pytest.approx(metric.corpus_score(HYPS, refs).score, abs=1e-9), name


def test_the_two_readings_differ_on_these_segments():
    missing, empty = (
        _scores(EXP),
        _scores(MetricSettings(bleu_smooth_method="exp", empty_refs="empty")),
    )
    assert all(missing[name] != empty[name] for name in ("bleu", "chrf", "ter"))


def test_the_issues_case():
    """'a b' against 'a b c d e f' and a missing reference: the brevity penalty compares with
    6 words, not with the empty line's 0 (which gave BLEU 1.0)."""
    refs = (["a b c d e f"], [""])
    effective = MetricSettings(bleu_smooth_method="exp", bleu_effective_order=True)
    ours = compute_statistics(make_corpus(list(refs), system=["a b"]), ["bleu"], effective)
    sacre = BLEU(effective_order=True).corpus_score(["a b"], [["a b c d e f"], [None]]).score
    assert 100 * ours.score("system", "bleu") == pytest.approx(sacre, abs=1e-9)  # 13.53
    mteval = compute_statistics(make_corpus(list(refs), system=["a b"]), ["bleu"])
    assert mteval.score("system", "bleu") == pytest.approx(sacre / 100, abs=1e-9)
    longer = compute_statistics(make_corpus(list(refs), system=["a b c d"]), ["bleu"], EXP)
    assert 100 * longer.score("system", "bleu") == pytest.approx(60.653065971263366, abs=1e-9)


def test_a_reference_missing_everywhere_changes_no_metric():
    """Every metric, NIST and WER too: a second reference whose lines are all empty is no
    reference at all."""
    names = ["bleu", "nist", "mbleu", "chrf", "chrf++", "ter", "wer"]
    one = compute_statistics(make_corpus([REF_A[2:]], system=HYPS[2:]), names)
    two = compute_statistics(make_corpus([REF_A[2:], [""] * 3], system=HYPS[2:]), names)
    for name in names:
        assert two.score("system", name) == pytest.approx(one.score("system", name), abs=1e-12)


def test_nist_compares_with_the_mean_length_of_the_existing_references():
    """A segment with one of two references counts its words twice in the length penalty's
    'reference words / R'."""
    refs = [["a b c d e f g h", "p q"], ["a b c d", ""]]
    statistics = compute_statistics(make_corpus(refs, system=["a b c", "p q"]), ["nist"])
    words = statistics.rows("system", "nist")[:, -1]
    assert words.tolist() == [12.0, 4.0]  # (8 + 4), then 2 * 2 for the missing one


def test_a_note_counts_the_segments_with_fewer_references():
    corpus = make_corpus([REF_A, REF_B], system=HYPS)
    statistics = compute_statistics(corpus, ["bleu"])
    assert statistics.notes[0].startswith("3 segments have fewer than 2 references")
    bootstrap = BootstrapSettings(resamples=100, unit=Unit.SEGMENT)
    result = run_to_end(iter_analysis(corpus, ["bleu"], MetricSettings(), bootstrap))
    assert statistics.notes[0] in result.bootstrap.notes
    assert not compute_statistics(corpus, ["bleu"], MetricSettings(empty_refs="empty")).notes


def test_a_segment_without_any_reference_is_refused_naming_the_files_and_line():
    corpus = make_corpus([["a", "", "c", ""], ["a", "", "d", "e"]], system=["a", "b", "c", "d"])
    with pytest.raises(InputError) as refused:
        compute_statistics(corpus, ["chrf"])
    assert str(refused.value).startswith(
        "Line 2 has no reference: it is empty in memory, and an empty reference line is taken "
        "as a missing reference. Give every segment at least one reference, or score against "
        "empty references (--empty-refs empty on the command line"
    )
    window = window_message(refused.value)  # the window's words: its setting, no option
    assert window.endswith(
        "(choose empty for 'Empty reference lines' in the settings' Advanced part)."
    )
    scores = compute_statistics(corpus, ["chrf"], MetricSettings(empty_refs="empty"))
    assert scores.rows("system", "chrf")[1].sum() == 0  # "b" against empty references


def test_white_space_only_is_an_empty_line():
    a = _scores(EXP, refs=(["a b c", "x"], ["  ", "x y"]), hyps=["a b", "x y"])
    b = _scores(EXP, refs=(["a b c", "x"], ["", "x y"]), hyps=["a b", "x y"])
    assert a == b


def test_blank_references_marks_empty_and_white_space_only_lines_per_segment_and_reference():
    first = ["", " ", "a", "\t\u3000\n", " b "]
    second = ["x", "", "\u00a0", "y", ""]
    blank = blank_references(make_corpus([first, second]).test_set)
    expected = [[True, False], [True, True], [False, True], [True, False], [False, True]]
    assert blank.dtype == np.bool_ and blank.tolist() == expected


def test_nrefs_as_sacrebleus_signature_counts_them():
    assert signature_nrefs(make_corpus([REF_A, REF_B]).test_set, "missing") == "var"
    assert signature_nrefs(make_corpus([REF_A, REF_B]).test_set, "empty") == 2
    one = make_corpus([REF_A[2:], [""] * 3]).test_set  # the second is missing everywhere
    assert signature_nrefs(one, "missing") == 1


def test_the_references_study_checks_the_whole_set_and_lets_a_subset_leave_a_segment_none():
    """Each reference alone leaves some segments none: those are scored against the subset's
    empty lines (as --empty-refs empty would), and a note says so; with all references the
    score is the analysis's."""
    from study_runs import run

    from mtgui.engine.studies import RefsSettings, iter_refs_study

    corpus = make_corpus([REF_A, REF_B], system=HYPS)
    settings = RefsSettings(bootstrap=BootstrapSettings(resamples=100), repeats=0)
    _, study = run(iter_refs_study(corpus, ["bleu"], settings=settings))
    assert any(note.startswith("3 segments have fewer than 2") for note in study.notes)
    assert any("leaves a segment none" in note for note in study.notes)
    alone = next(r for r in study.rows if r.references == 1)
    empty = MetricSettings(empty_refs="empty")
    singles = [
        compute_statistics(make_corpus([ref], system=HYPS), ["bleu"], empty).score("system", "bleu")
        for ref in (REF_A, REF_B)
    ]
    assert (alone.score_min, alone.score_max) == pytest.approx(sorted(singles), abs=1e-12)
    both = next(r for r in study.rows if r.references == 2)
    full = compute_statistics(corpus, ["bleu"]).score("system", "bleu")
    assert both.score == pytest.approx(full, abs=1e-12)
    unreferenced = make_corpus([["a", ""], ["b", ""]], system=["a", "b"])
    with pytest.raises(InputError, match="Line 2 has no reference"):
        run(iter_refs_study(unreferenced, ["bleu"], settings=settings))
