"""The application controller without a window: load, run, stale results, sessions, export,
cancel and quit, driven through its methods and signals as the main window drives it."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest

from mtgui.app.controller import AppController
from mtgui.app.estimate import TimeLeft
from mtgui.app.threads import threads_left_running
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.corpus import Role
from mtgui.engine.resampling.draws import BootstrapProgress
from mtgui.io.demo import demo_inputs
from mtgui.io.score_choices import ScoresQuestion
from mtgui.io.score_sources import ScoreSource

DEMO_SYSTEMS = {"Lumen", "Quill", "Tessera", "Ostrich"}


class Settings:
    """The settings panel's stand-in: the settings are set in code."""

    def __init__(self, **values) -> None:
        self.value = AnalysisSettings(**{"resamples": 300, **values})

    def settings(self) -> AnalysisSettings:
        return self.value


class Answers:
    """The window's dialogs' stand-in: answers set in code, questions recorded."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, object]] = []
        self.role: Role | None = None  # None: the guess from the file's name
        self.column: str | None = None  # None: the score column offered first
        self.scores: list[ScoreSource] | None = None  # what to load (None: the defaults)
        self.leave_out = False  # Cancel the scores question
        self.read_as: Role | None = None  # "Not scores: read as" this role
        self.questions: list[ScoresQuestion] = []
        self.folder: Path | None = None
        self.overwrite = False
        self.session_file: Path | None = None

    def choose_roles(self, files: list[tuple[Path, Role]]) -> dict[Path, Role] | None:
        self.asked += [("role", path.name) for path, _ in files]
        return {path: self.role or guess for path, guess in files}

    def choose_scores(self, question: ScoresQuestion) -> list[ScoreSource] | Role | None:
        self.asked.append(("column", question.path.name))
        self.questions.append(question)
        if self.leave_out:
            return None
        if self.read_as is not None:
            return self.read_as
        if self.scores is not None:
            return self.scores
        if self.column is not None:
            return [ScoreSource(question.path, self.column)]
        return question.defaults()

    def choose_folder(self) -> Path | None:
        return self.folder

    def confirm_overwrite(self, existing: list[Path]) -> bool:
        self.asked.append(("overwrite", len(existing)))
        return self.overwrite

    def choose_session_file(self) -> Path | None:
        return self.session_file

    def confirm_discard(self) -> bool:
        self.asked.append(("discard", None))
        return True


class Heard:
    """The last thing each of the controller's view signals said."""

    def __init__(self, controller: AppController) -> None:
        self.status: list[str] = []
        self.stale = ""
        self.title = ""
        self.results: list[object] = []
        controller.status_changed.connect(self.status.append)
        controller.title_changed.connect(self._on_title)
        controller.analysis.stale_changed.connect(self._on_stale)
        controller.analysis.result_changed.connect(self.results.append)

    def _on_title(self, title: str) -> None:
        self.title = title

    def _on_stale(self, text: str) -> None:
        self.stale = text


@pytest.fixture
def make(qtbot):
    """``make(**settings)``: a controller, its settings, answers and what it said."""
    made = []

    def _make(synchronous: bool = False, **values):
        settings, answers = Settings(**values), Answers()
        controller = AppController(settings, answers, synchronous=synchronous)
        made.append(controller)
        return controller, settings, answers, Heard(controller)

    yield _make
    for controller in made:
        assert controller.shutdown()
        controller.deleteLater()


def load_demo(controller: AppController) -> None:
    inputs = demo_inputs()
    controller.add_files([path for path, _ in inputs], dict(inputs))


def wait_for_result(qtbot, controller: AppController) -> None:
    qtbot.waitUntil(
        lambda: controller.result is not None and not controller.analysing, timeout=30_000
    )


def test_the_demo_loads_and_runs_to_a_result_with_its_four_systems(qtbot, make):
    controller, _, _, heard = make()
    load_demo(controller)
    assert controller.loading or controller.workspace.entries  # listed at once
    wait_for_result(qtbot, controller)
    assert set(controller.result.bootstrap.systems) == DEMO_SYSTEMS
    assert controller.result.bootstrap.settings.resamples == 300
    assert heard.results == [controller.result]
    assert heard.status[-1].startswith("Done in")
    assert heard.title == "4 systems, 2 references, 95 segments — mtgui"
    assert heard.stale == ""


def test_a_settings_change_marks_the_result_stale_until_a_new_run_replaces_it(qtbot, make):
    controller, settings, _, heard = make()
    load_demo(controller)
    wait_for_result(qtbot, controller)
    shown = controller.result
    settings.value = replace(settings.value, seed=7)
    controller.analysis.rerun_soon()  # what the settings panel's settings_changed does
    assert heard.stale.startswith(
        "These results are from the previous settings (seed 12345, now 7). "
        "A new run starts in a moment."
    )
    assert controller.analysis.stale_text == heard.stale
    qtbot.waitUntil(lambda: controller.result is not shown and not controller.analysing)
    assert controller.result.bootstrap.settings.seed == 7
    assert heard.stale == ""


def test_a_study_is_refused_while_the_analysis_is_stale(qtbot, make):
    controller, settings, _, _ = make()
    refused = []
    controller.studies.refused.connect(refused.append)
    load_demo(controller)
    wait_for_result(qtbot, controller)
    settings.value = replace(settings.value, seed=7)
    controller.analysis.rerun_soon()
    controller.studies.start("resamples", 2)
    assert refused and "press Run (Ctrl+R) first" in refused[0]
    assert not controller.studying


def test_a_saved_session_opens_again_with_its_files_names_and_settings(qtbot, make, tmp_path):
    controller, _, answers, _ = make(seed=7)
    load_demo(controller)
    wait_for_result(qtbot, controller)
    controller.workspace = controller.workspace.renamed("Quill", "Quill v2")
    controller.refresh()
    wait_for_result(qtbot, controller)
    answers.session_file = tmp_path / "demo.mtgui.json"
    assert controller.save_session("nist")
    assert controller.session_path == answers.session_file

    other, settings, _, heard = make()
    opened = []

    def take_settings(session) -> None:  # as the settings panel does: then a new run
        opened.append(session)
        settings.value = AnalysisSettings.from_mapping(session.settings)
        other.analysis.rerun_soon()

    other.session_opened.connect(take_settings)
    other.add_files([answers.session_file])
    wait_for_result(qtbot, other)
    assert opened[0].metric == "nist"
    assert other.result.bootstrap.settings.seed == 7
    assert set(other.result.bootstrap.systems) == DEMO_SYSTEMS - {"Quill"} | {"Quill v2"}
    assert other.session_path == answers.session_file
    assert heard.title.startswith("demo.mtgui.json: 4 systems")


def test_a_broken_session_says_why_and_changes_nothing(qtbot, make, tmp_path):
    controller, _, _, heard = make()
    problems = []
    controller.problem_changed.connect(problems.append)
    broken = tmp_path / "broken.mtgui.json"
    broken.write_text('{"mtgui_session": 1, "files": [', encoding="utf-8")
    controller.add_files([broken])
    qtbot.waitUntil(lambda: bool(problems))
    assert "broken.mtgui.json" in problems[-1]
    assert heard.status[-1] == "The session could not be opened: see the message above."
    assert controller.workspace.entries == ()


def test_export_writes_the_csv_reports_and_asks_before_replacing(qtbot, make, tmp_path):
    controller, _, answers, heard = make()
    load_demo(controller)
    wait_for_result(qtbot, controller)
    answers.folder = tmp_path
    controller.export()
    scores = tmp_path / "scores.csv"
    qtbot.waitUntil(lambda: heard.status[-1].startswith("Wrote"))
    assert heard.status[-1] == f"Wrote {len(list(tmp_path.glob('*.csv')))} CSV files to {tmp_path}."
    with scores.open(encoding="utf-8-sig", newline="") as handle:
        lines = handle.readlines()
    comments = [line for line in lines if line.startswith("#")]
    assert lines[: len(comments)] == comments  # what made the file, above its table
    assert comments[0].startswith("# mtgui ") and "300 resamples" in comments[1]
    assert comments[2].startswith(f"# Signature: {controller.result.bootstrap.signature}")
    rows = csv.DictReader(lines[len(comments) :])
    assert {row["system"] for row in rows} == DEMO_SYSTEMS
    for path in tmp_path.glob("*.csv"):  # every file says so, not settings.csv only
        assert path.read_text(encoding="utf-8-sig").startswith("# mtgui "), path.name
    assert (tmp_path / "samples.csv").exists()
    before = scores.stat().st_mtime_ns
    controller.export()  # the files exist now: asked, refused, nothing replaced
    qtbot.waitUntil(lambda: bool(answers.asked))
    assert answers.asked == [("overwrite", len(list(tmp_path.glob("*.csv"))))]
    assert scores.stat().st_mtime_ns == before


def test_cancel_stops_the_run_and_says_so(qtbot, make):
    controller, _, _, heard = make(resamples=100_000)
    load_demo(controller)
    qtbot.waitUntil(lambda: controller.analysing, timeout=10_000)
    controller.analysis.cancel()
    assert not controller.analysing
    assert heard.status[-1] == "Cancelled."
    assert all(thread.wait(5000) for thread in controller.analysis.runs.threads())
    assert controller.result is None


def test_quitting_mid_run_leaves_no_thread_running(qtbot, make):
    controller, _, _, _ = make(resamples=100_000)
    load_demo(controller)
    qtbot.waitUntil(lambda: controller.analysing, timeout=10_000)
    threads = controller.analysis.runs.threads()
    assert controller.shutdown()
    assert threads and all(thread.isFinished() for thread in threads)
    # The keeper lets a finished thread go at a later turn of the event loop (once QThread.wait
    # says its last steps are done): on a busy machine that turn may come a while later.
    qtbot.waitUntil(lambda: not threads_left_running(), timeout=30_000)
    assert controller.shutdown()  # once is enough: again, nothing to do


def test_plain_text_asks_its_role_through_the_questions(qtbot, make, tmp_path):
    controller, _, answers, _ = make()
    reference = tmp_path / "news.ref.en"
    reference.write_text("a b c\nd e f\n", encoding="utf-8")
    system = tmp_path / "sysA.en"
    system.write_text("a b c\nd e x\n", encoding="utf-8")
    controller.add_files([reference, system])
    wait_for_result(qtbot, controller)
    assert answers.asked == [("role", "news.ref.en"), ("role", "sysA.en")]
    assert [e.plain_role for e in controller.workspace.entries] == [Role.REFERENCE, Role.SYSTEM]


def test_in_synchronous_mode_a_drop_is_read_and_analysed_before_the_call_returns(make):
    controller, _, _, heard = make(synchronous=True)
    load_demo(controller)
    assert set(controller.result.bootstrap.systems) == DEMO_SYSTEMS
    assert any(message.startswith("Done in") for message in heard.status)
    assert not controller.analysing and not controller.loading


def test_the_time_left_counts_from_the_first_report_of_each_phase(monkeypatch):
    clock = iter([100.0, 100.0, 102.0, 200.0, 200.0, 201.0])  # two readings a call
    monkeypatch.setattr("mtgui.app.estimate.time.monotonic", lambda: next(clock))
    estimate = TimeLeft()
    assert estimate.seconds(100, 1000) == 0.0  # the first report: no pace yet
    assert estimate.seconds(200, 1000) == pytest.approx(2.0 * 800 / 100)
    report = BootstrapProgress(done=10, total=50, phase="randomization", scores={})
    assert estimate.message(report) == "Resampling (randomization): 10 of 50, about 0 s left"
    assert estimate.seconds(20, 50) == pytest.approx(1.0 * 30 / 10)


def write_two_column_scores(folder: Path) -> Path:
    """Human scores of the demo's systems with a z and a raw column that rank them apart."""
    rows = ["system\tline\traw\tz"]
    for number, system in enumerate(sorted(DEMO_SYSTEMS)):
        rows += [f"{system}\t{line}\t{50 + number}\t{-number}" for line in range(1, 96)]
    table = folder / "human.tsv"
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return table


@pytest.mark.parametrize(("answer", "column"), [(None, "z"), ("raw", "raw"), ("z", "z")])
def test_a_table_with_several_score_columns_asks_which(qtbot, make, tmp_path, answer, column):
    controller, _, answers, _ = make()
    answers.column = answer
    load_demo(controller)
    controller.add_files([write_two_column_scores(tmp_path)])
    qtbot.waitUntil(
        lambda: (
            any(
                e.scores is not None and e.scores.score_column == column
                for e in controller.workspace.entries
            )
            and not controller.loading
        ),
        timeout=20_000,
    )
    assert answers.asked.count(("column", "human.tsv")) == 1  # asked once, not again
    table = next(e.scores for e in controller.workspace.entries if e.scores is not None)
    first = next(r for r in table.records if r.system == sorted(DEMO_SYSTEMS)[1])
    assert first.value == (51.0 if column == "raw" else -1.0)
    assert [e.path.name for e in controller.workspace.entries][-1] == "human.tsv"  # in place


def test_a_session_remembers_the_score_column_chosen(qtbot, make, tmp_path):
    controller, _, answers, _ = make()
    answers.column = "raw"
    load_demo(controller)
    controller.add_files([write_two_column_scores(tmp_path)])
    qtbot.waitUntil(
        lambda: (
            not controller.loading
            and any(e.scores is not None for e in controller.workspace.entries)
        ),
        timeout=20_000,
    )
    wait_for_result(qtbot, controller)
    answers.session_file = tmp_path / "scores.mtgui.json"
    assert controller.save_session("bleu")

    again, _, other_answers, _ = make()
    other_answers.column = "z"  # would be the answer, if it were asked
    again.open_session(answers.session_file)
    qtbot.waitUntil(
        lambda: not again.loading and any(e.scores is not None for e in again.workspace.entries),
        timeout=20_000,
    )
    table = next(e.scores for e in again.workspace.entries if e.scores is not None)
    assert table.score_column == "raw"
    assert ("column", "human.tsv") not in other_answers.asked


def test_a_file_that_cannot_be_read_marks_nothing_out_of_date(qtbot, make, tmp_path):
    controller, _, _, heard = make()
    study_notes: list[str] = []
    controller.studies.stale_changed.connect(study_notes.append)
    load_demo(controller)
    wait_for_result(qtbot, controller)
    with qtbot.waitSignal(controller.studies.finished, timeout=30_000):
        controller.studies.start("resamples", 2)
    broken = tmp_path / "broken.xml"
    broken.write_text("<dataset><doc", encoding="utf-8")
    controller.add_files([broken])
    qtbot.waitUntil(lambda: not controller.loading)
    assert any(not e.ok for e in controller.workspace.entries)  # listed with its problem
    assert heard.stale == ""
    assert study_notes[-1:] in ([], [""])
    qtbot.waitUntil(lambda: not controller.analysing, timeout=30_000)  # if a run went on
    assert heard.stale == ""
    assert study_notes[-1:] in ([], [""])
