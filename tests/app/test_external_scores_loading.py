"""Scores files of any metric in the window, without a window: the one question per file, the
metrics they make, sessions that reopen them without asking, removal and the human study.

Two systems of three segments (tests/io/data/external_scores: ref.txt, sysA.txt, sysB.txt),
scored so that every resample agrees: comet A = B + 0.1 (higher is better), metricx A = B - 2
(lower is better), so that A is first and significantly better under both.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_controller import make, wait_for_result  # noqa: F401 (fixture)

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.score_choices import LINE_SCORES, ScoresQuestion
from mtgui.io.score_sources import ScoreSource

DATA = Path(__file__).resolve().parents[1] / "io" / "data" / "external_scores"
COMET_A = (0.8, 0.7, 0.9)
METRICX_A = (1.0, 2.0, 3.0)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The reference and the two systems' outputs, and a COMET-like table of two metrics."""
    for name in ("ref.txt", "sysA.txt", "sysB.txt", "metricx-sysB.txt", "comet-score.txt"):
        shutil.copy(DATA / name, tmp_path / name)
    rows = ["system\tline\tCOMET\tMetricX"]
    for system, shift in (("sysA", 0.0), ("sysB", 1.0)):
        rows += [
            f"{system}\t{line}\t{comet - 0.1 * shift:.2f}\t{metricx + 2 * shift}"
            for line, (comet, metricx) in enumerate(zip(COMET_A, METRICX_A, strict=True), 1)
        ]
    (tmp_path / "metrics.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return tmp_path


def load(qtbot, controller, folder: Path, *names: str) -> None:
    """Load the reference, the systems and the scores files ``names``; wait for the result."""
    files = [folder / n for n in ("ref.txt", "sysA.txt", "sysB.txt", *names)]
    controller.add_files(files)
    qtbot.waitUntil(lambda: not controller.loading, timeout=20_000)
    wait_for_result(qtbot, controller)


def test_a_table_of_two_metrics_loads_as_two_metrics_one_lower_better(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make(metrics=("bleu", "comet", "metricx"))
    load(qtbot, controller, folder, "metrics.tsv")
    (question,) = answers.questions
    offered = [(c.column, c.metric, c.higher_is_better, c.chosen) for c in question.offer.choices]
    assert offered == [("COMET", "comet", True, True), ("MetricX", "metricx", False, True)]
    assert controller.result.corpus.external_metrics() == {"comet": True, "metricx": False}
    bootstrap = controller.result.bootstrap
    assert bootstrap.metrics == ("bleu", "comet", "metricx")
    for metric in ("comet", "metricx"):
        ranking = bootstrap.ranking(metric)
        assert [(r.system, r.best_rank) for r in ranking.systems] == [("sysA", 1), ("sysB", 2)]
        assert bootstrap.grid(metric) == (["sysA", "sysB"], [["", ">"], ["<", ""]])
    assert bootstrap.interval("sysB", "metricx").score == pytest.approx(4.0)
    entry = next(e for e in controller.workspace.entries if e.path.name == "metrics.tsv")
    assert [t.metric for t in entry.score_tables] == ["comet", "metricx"]


def test_one_number_per_line_scores_the_system_chosen(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make(metrics=("bleu", "metricx"))
    load(qtbot, controller, folder, "metricx-sysB.txt")
    (question,) = answers.questions
    assert question.offer.format == LINE_SCORES and question.offer.needs_system
    assert question.system == "sysB"  # the system named in the file's name
    assert [s.name for s in question.systems] == ["sysA", "sysB"]
    assert controller.result.corpus.external_metrics() == {"metricx": False}
    assert controller.result.corpus.scores_of("sysB", "metricx").means.tolist() == [
        3.25,
        -0.5,
        12.0,
    ]
    assert controller.result.corpus.scores_of("sysA", "metricx") is None

    other, _, other_answers, _ = make(metrics=("bleu", "metricx"))
    other_answers.scores = [ScoreSource(folder / "metricx-sysB.txt", None, "mx", "sysA", False)]
    other.add_files([folder / n for n in ("ref.txt", "sysA.txt", "sysB.txt")])
    qtbot.waitUntil(lambda: not other.loading, timeout=20_000)
    other.add_files([folder / "metricx-sysB.txt"])
    qtbot.waitUntil(lambda: not other.loading, timeout=20_000)
    qtbot.waitUntil(
        lambda: other.result is not None and "mx" in other.result.corpus.external_metrics()
    )
    assert other.result.corpus.scores_of("sysA", "mx").means.tolist() == [3.25, -0.5, 12.0]


def test_comet_score_output_is_matched_to_its_systems(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make(metrics=("bleu", "comet"))
    load(qtbot, controller, folder, "comet-score.txt")
    (question,) = answers.questions
    assert question.offer.format == "COMET output" and not question.offer.needs_system
    assert controller.result.bootstrap.interval("sysA", "comet").score == pytest.approx(
        0.7708, abs=1e-4
    )
    assert controller.result.bootstrap.interval("sysB", "comet").score == pytest.approx(
        0.5833, abs=1e-4
    )


def test_cancelling_the_question_leaves_the_file_out(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make()
    answers.leave_out = True
    load(qtbot, controller, folder, "metrics.tsv")
    assert [e.path.name for e in controller.workspace.entries] == [
        "ref.txt",
        "sysA.txt",
        "sysB.txt",
    ]


def test_a_session_reopens_every_metric_without_a_question(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make(metrics=("bleu", "comet-22", "metricx"))
    answers.scores = [
        ScoreSource(folder / "metrics.tsv", "COMET", "comet-22", None, True),
        ScoreSource(folder / "metrics.tsv", "MetricX", "metricx", None, False),
    ]
    load(qtbot, controller, folder, "metrics.tsv")
    answers.scores = None
    controller.add_files([folder / "metricx-sysB.txt"])
    qtbot.waitUntil(lambda: not controller.loading, timeout=20_000)
    answers.session_file = folder / "scores.mtgui.json"
    assert controller.save_session("comet-22")

    again, _, other_answers, _ = make()
    other_answers.leave_out = True  # would leave every scores file out, if asked
    again.open_session(answers.session_file)
    qtbot.waitUntil(
        lambda: not again.loading and not any(e.reading for e in again.workspace.entries),
        timeout=20_000,
    )
    assert not any(kind == "column" for kind, _ in other_answers.asked)
    entries = {e.path.name: e for e in again.workspace.entries}
    table = entries["metrics.tsv"].sources
    assert [(s.column, s.metric, s.higher_is_better) for s in table] == [
        ("COMET", "comet-22", True),
        ("MetricX", "metricx", False),
    ]
    (line,) = entries["metricx-sysB.txt"].sources
    assert (line.system, line.metric, line.higher_is_better) == ("sysB", "metricx", False)
    # Both files give sysB metricx scores: refused, never averaged (issue 32).
    with pytest.raises(InputError, match=r"metrics\.tsv and .*metricx-sysB\.txt give .*'sysB'"):
        again.workspace.corpus()


def test_a_session_whose_scores_file_is_missing_says_so(qtbot, make, folder):  # noqa: F811
    controller, _, answers, _ = make(metrics=("bleu", "comet"))
    load(qtbot, controller, folder, "metrics.tsv")
    answers.session_file = folder / "scores.mtgui.json"
    assert controller.save_session("comet")
    (folder / "metrics.tsv").unlink()

    again, _, _, _ = make(metrics=("bleu", "comet"))
    notes: list[str] = []
    again.analysis.notes_changed.connect(notes.append)
    again.open_session(answers.session_file)
    qtbot.waitUntil(lambda: not again.loading, timeout=20_000)
    wait_for_result(qtbot, again)
    entry = next(e for e in again.workspace.entries if e.path.name == "metrics.tsv")
    assert entry.problem and [s.metric for s in entry.sources] == ["comet", "metricx"]
    assert again.result.bootstrap.metrics == ("bleu",)
    assert "comet is ticked, but no scores of that name are loaded" in notes[-1]


def test_removing_the_file_removes_its_metrics(qtbot, make, folder):  # noqa: F811
    controller, _, _, _ = make(metrics=("bleu", "comet"))
    load(qtbot, controller, folder, "metrics.tsv")
    assert "comet" in controller.result.bootstrap.metrics
    controller.remove_file(folder / "metrics.tsv")
    qtbot.waitUntil(lambda: controller.result.bootstrap.metrics == ("bleu",), timeout=30_000)
    assert controller.result.corpus.external_metrics() == {}


def test_the_human_study_compares_with_the_metric_chosen(qtbot, make, folder):  # noqa: F811
    controller, _, _, _ = make(metrics=("bleu", "comet", "metricx"))
    load(qtbot, controller, folder, "metrics.tsv")
    with qtbot.waitSignal(controller.studies.finished, timeout=60_000) as finished:
        controller.studies.start("human", 1, human="metricx")
    study = finished.args[0]
    assert study.human == "metricx"
    assert [c.metric for c in study.correlations] == ["bleu", "comet"]
    with qtbot.waitSignal(controller.studies.finished, timeout=60_000) as finished:
        controller.studies.start("human", 1)  # the default: human if loaded, else the first
    assert finished.args[0].human == "comet"


def test_the_question_refuses_names_that_cannot_be_taken(folder):
    from mtgui.io.entries import read_entry
    from mtgui.io.score_choices import ScoredSystem, scores_question

    offer = read_entry(folder / "metrics.tsv", None).offer
    question: ScoresQuestion = scores_question(offer, [], {"comet": False})
    assert question.defaults()[0].higher_is_better is False  # as the comet loaded already
    path = question.path
    assert "computes itself" in question.problem([ScoreSource(path, "COMET", "bleu")])
    assert "cannot name a metric" in question.problem([ScoreSource(path, "COMET", "Has Space")])
    twice = [ScoreSource(path, "COMET", "x"), ScoreSource(path, "MetricX", "x")]
    assert "Two columns are called 'x'" in question.problem(twice)
    assert "loaded already" in question.problem([ScoreSource(path, "COMET", "comet")])
    assert "Tick the scores" in question.problem([])
    line = read_entry(folder / "metricx-sysB.txt", None).offer
    systems = [ScoredSystem("A", "sysA", folder / "sysA.txt"), ScoredSystem("B", "sysB", Path("b"))]
    assert scores_question(line, systems, {}).system == "sysB"
    assert "Choose the system" in scores_question(line, [], {}).problem(
        [ScoreSource(path, None, "metricx", None, False)]
    )


def test_numbers_alone_can_be_read_as_a_translation_instead(qtbot, make, folder):  # noqa: F811
    """A system output (or reference) of numbers alone looks like scores; the user says it is
    a translation, and it is read as one, with no second question."""
    (folder / "sysC.txt").write_text("3.25\n-0.5\n12.0\n", encoding="utf-8")
    controller, _, answers, _ = make()
    answers.read_as = Role.SYSTEM
    load(qtbot, controller, folder, "sysC.txt")
    (question,) = answers.questions
    assert question.offer.format == LINE_SCORES
    assert [kind for kind, name in answers.asked if name == "sysC.txt"] == ["column"]
    corpus = controller.result.corpus
    assert [s.name for s in corpus.systems] == ["sysA", "sysB", "sysC"]
    assert corpus.system("sysC").hypotheses == ("3.25", "-0.5", "12.0")
    assert corpus.external_metrics() == {}
    assert controller.result.bootstrap.interval("sysC", "nist").score == 0.0  # no word shared


def test_a_scores_file_read_as_latin1_asks_once_and_keeps_its_encoding(qtbot, make, folder):  # noqa: F811
    """Not UTF-8: refused, then read as Latin-1 (the question asked of it as of any scores
    file), and its encoding is kept with what the user said of it."""
    controller, _, answers, _ = make(metrics=("bleu", "comet", "metricx"))
    table = folder / "metrics.tsv"
    rows = table.read_text(encoding="utf-8").splitlines()
    notes = ["note"] + ["café"] * (len(rows) - 1)
    latin = "\n".join(f"{row}\t{note}" for row, note in zip(rows, notes, strict=True)) + "\n"
    table.write_bytes(latin.encode("latin-1"))
    load(qtbot, controller, folder, "metrics.tsv")
    entry = next(e for e in controller.workspace.entries if e.path == table)
    assert not entry.ok and entry.encodings == ("latin-1",) and answers.questions == []
    controller.set_encoding(table, "latin-1")
    qtbot.waitUntil(lambda: not controller.loading, timeout=20_000)
    wait_for_result(qtbot, controller)
    (question,) = answers.questions
    assert [c.column for c in question.offer.choices] == ["COMET", "MetricX"]
    entry = next(e for e in controller.workspace.entries if e.path == table)
    assert entry.encoding == "latin-1" and [t.metric for t in entry.score_tables] == [
        "comet",
        "metricx",
    ]
    assert entry.scores is not None and entry.scores.origin.encoding == "Latin-1"
    (kept,) = [f for f in controller.session("bleu").files if f.path == table]
    assert kept.encoding == "latin-1" and [s.metric for s in kept.scores] == ["comet", "metricx"]
