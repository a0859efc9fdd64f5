"""Edit > Undo and Redo without a window: the history itself (no Qt), then the controller's
remove, rename, hide and role changes undone and redone, the history cleared by File > New and
a session, and changes made while files are still being read."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import mtgui.io.entries as entries_module
from mtgui.app.controller import AppController
from mtgui.app.loading import with_read
from mtgui.app.undo import ChangeNote, UndoHistory
from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.corpus import Role
from mtgui.io.demo import demo_inputs
from mtgui.io.entries import Entry, LoadRequest, placeholder, read_entry
from mtgui.io.score_choices import ScoresQuestion
from mtgui.io.score_sources import ScoreSource
from mtgui.io.workspace import Workspace


class Settings:
    def __init__(self) -> None:
        self.value = AnalysisSettings(resamples=200, metrics=("bleu",))

    def settings(self) -> AnalysisSettings:
        return self.value


class Answers:
    """The dialogs' stand-in: roles as the names suggest, nothing else asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def choose_roles(self, files: list[tuple[Path, Role]]) -> dict[Path, Role] | None:
        self.asked += [path.name for path, _ in files]
        return dict(files)

    def choose_scores(self, question: ScoresQuestion) -> list[ScoreSource] | None:
        return question.defaults()

    def choose_folder(self) -> Path | None:
        return None

    def confirm_overwrite(self, existing: list[Path]) -> bool:
        return False

    def choose_session_file(self) -> Path | None:
        return None

    def confirm_discard(self) -> bool:
        return True


@pytest.fixture
def make(qtbot):
    """``make(synchronous)``: a controller, and the Edit menu texts it announced."""
    made = []

    def _make(synchronous: bool = True) -> tuple[AppController, list[tuple[str, str]]]:
        controller = AppController(Settings(), Answers(), synchronous=synchronous)
        made.append(controller)
        heard: list[tuple[str, str]] = []
        controller.undo_changed.connect(lambda undo, redo: heard.append((undo, redo)))
        return controller, heard

    yield _make
    for controller in made:
        assert controller.shutdown()
        controller.deleteLater()


def demo(controller: AppController) -> dict[str, Path]:
    """Load the demo files; their paths by file name."""
    inputs = demo_inputs()
    controller.add_files([path for path, _ in inputs], dict(inputs))
    return {path.name: path for path, _ in inputs}


def table(result: AnalysisResult | None) -> list[tuple[str, str, float, float, float]]:
    """The Scores table's numbers: system, metric, score and interval."""
    assert result is not None
    return [(i.system, i.metric, i.score, i.ci_low, i.ci_high) for i in result.bootstrap.intervals]


def key_of(controller: AppController, name: str) -> tuple[Path, int]:
    return next(k for k, n in controller.workspace.system_names().items() if n == name)


# -- the history, without Qt ---------------------------------------------------------------------


def test_the_history_undoes_and_redoes_in_order_and_a_new_change_forgets_the_redo():
    calls = []
    history = UndoHistory(on_change=lambda: calls.append((history.undo_text, history.redo_text)))
    a, b, c = Workspace(), Workspace(), Workspace()
    history.record("Remove x", a, b)
    history.record("Rename X to Y", b, c)
    assert (history.undo_text, history.can_redo) == ("Rename X to Y", False)
    change = history.undo(c)
    assert change is not None and change.before is b
    assert (history.undo_text, history.redo_text) == ("Remove x", "Rename X to Y")
    assert history.redo(b).after is c  # type: ignore[union-attr]
    history.undo(c)
    history.record("Hide Z", b, Workspace())
    assert (history.undo_text, history.redo_text, history.can_redo) == ("Hide Z", "", False)
    assert calls[-1] == ("Hide Z", "")


def test_the_history_keeps_its_limit_and_ignores_no_change():
    history = UndoHistory(limit=2)
    spaces = [Workspace() for _ in range(4)]
    history.record("nothing", spaces[0], spaces[0])
    assert not history.can_undo
    for number in range(3):
        history.record(f"change {number}", spaces[number], spaces[number + 1])
    assert history.undo(spaces[3]).text == "change 2"  # type: ignore[union-attr]
    assert history.undo(spaces[2]).text == "change 1"  # type: ignore[union-attr]
    assert history.undo(spaces[1]) is None and not history.can_undo


def test_a_workspace_the_history_did_not_make_clears_it_rather_than_undo_across_it():
    history = UndoHistory()
    a, b = Workspace(), Workspace()
    history.record("Remove x", a, b)
    assert history.undo(Workspace()) is None  # something else changed the files
    assert not history.can_undo and not history.can_redo


def test_rebase_steps_every_workspace_kept_once_and_follows_the_new_one():
    history = UndoHistory()
    first = Workspace().with_entry(Entry(Path("a.txt"), Role.SYSTEM, reading=True))
    second = first.without(Path("a.txt"))
    history.record("Remove a.txt", first, second)
    read = Entry(Path("b.txt"), Role.SYSTEM, problem="not there")
    stepped: list[Workspace] = []

    def step(workspace: Workspace) -> Workspace:
        stepped.append(workspace)
        return workspace.with_entry(read)

    now = step(second)
    history.rebase(step, second, now)
    # ``second`` was stepped by loading itself, not again: only ``first`` is.
    assert [id(w) for w in stepped] == [id(second), id(first)]
    change = history.undo(now)
    assert change is not None
    assert [e.path.name for e in change.before.entries] == ["a.txt", "b.txt"]


def test_a_note_stays_in_front_of_a_run_s_messages_up_to_its_last():
    note = ChangeNote()
    note.start("Removed a.sgm.")
    assert note.said("Analysing...") == "Removed a.sgm. Analysing..."
    note.end_soon()
    assert note.said("Done in 1.0 s.") == "Removed a.sgm. Done in 1.0 s."
    assert note.said("Cancelled.") == "Cancelled."


# -- the controller ------------------------------------------------------------------------------


def test_remove_then_undo_gives_the_same_workspace_and_results_then_redo_removes_again(make):
    controller, heard = make()
    paths = demo(controller)
    loaded, results = controller.workspace, table(controller.result)
    statuses: list[str] = []
    controller.status_changed.connect(statuses.append)
    controller.remove_file(paths["Quill.sgm"])
    assert "Quill" not in controller.result.bootstrap.systems
    assert statuses[-1] == "Removed Quill.sgm. Edit > Undo (Ctrl+Z) brings it back."
    assert heard[-1] == ("Remove Quill.sgm", "") and controller.can_undo
    controller.undo()
    assert controller.workspace is loaded  # the very workspace: order, names, what was read
    assert table(controller.result) == results
    assert statuses[-1] == "Undone: Remove Quill.sgm."
    assert heard[-1] == ("", "Remove Quill.sgm")
    assert (controller.can_undo, controller.can_redo) == (False, True)
    controller.redo()
    assert [e.path.name for e in controller.workspace.entries] == [
        "reference.sgm",
        "Lumen.sgm",
        "Ostrich.sgm",
        "Tessera.sgm",
    ]
    assert heard[-1] == ("Remove Quill.sgm", "")


def test_removing_several_files_is_one_step(make):
    controller, _ = make()
    paths = demo(controller)
    loaded = controller.workspace
    controller.remove_files([paths["Quill.sgm"], paths["Lumen.sgm"]])
    assert set(controller.result.bootstrap.systems) == {"Ostrich", "Tessera"}
    assert controller.undo_text == "Remove 2 files"
    controller.undo()
    assert controller.workspace is loaded and not controller.can_undo


def test_rename_and_hide_are_undone_and_redone(make):
    controller, heard = make()
    demo(controller)
    loaded = controller.workspace
    controller.rename_system(key_of(controller, "Quill"), "Quill-2")
    controller.hide_system(key_of(controller, "Lumen"), True)
    renamed_hidden = controller.workspace
    assert set(controller.result.bootstrap.systems) == {"Quill-2", "Ostrich", "Tessera"}
    assert controller.undo_text == "Hide Lumen"
    controller.undo()
    assert set(controller.result.bootstrap.systems) == {"Quill-2", "Lumen", "Ostrich", "Tessera"}
    assert (controller.undo_text, controller.redo_text) == ("Rename Quill to Quill-2", "Hide Lumen")
    controller.undo()
    assert controller.workspace is loaded
    assert set(controller.result.bootstrap.systems) == {"Quill", "Lumen", "Ostrich", "Tessera"}
    controller.redo()
    controller.redo()
    assert controller.workspace is renamed_hidden
    assert controller.workspace.renamed_systems == {key_of(controller, "Quill-2"): "Quill-2"}
    controller.hide_system(key_of(controller, "Lumen"), False)
    assert heard[-1] == ("Show Lumen", "")


def test_a_plain_text_file_read_as_another_role_is_undone_and_redone(make, write):
    lines = "the cat sat\non the mat\na dog ran\n"
    files = [write("ref.en", lines), write("alpha.en", lines), write("beta.en", "a cat sat\n" * 3)]
    controller, _ = make()
    controller.add_files(files)
    assert set(controller.result.bootstrap.systems) == {"alpha", "beta"}
    loaded = controller.workspace
    controller.set_role(files[2], Role.REFERENCE)
    assert controller.undo_text == "Read beta.en as reference"
    assert controller.result.bootstrap.systems == ("alpha",)
    controller.undo()
    assert controller.workspace is loaded
    assert set(controller.result.bootstrap.systems) == {"alpha", "beta"}
    controller.redo()
    assert controller.workspace.entries[2].plain_role is Role.REFERENCE


def test_file_new_and_a_session_clear_the_history(make, tmp_path):
    controller, heard = make()
    paths = demo(controller)
    controller.remove_file(paths["Quill.sgm"])
    controller.new_project()
    assert not controller.can_undo and heard[-1] == ("", "")
    controller.undo()
    assert controller.workspace.entries == ()
    paths = demo(controller)
    controller.remove_file(paths["Quill.sgm"])
    session = tmp_path / "a.mtgui.json"
    controller._questions.choose_session_file = lambda: session  # type: ignore[attr-defined]
    assert controller.save_session_as("bleu")
    controller.open_session(session)
    assert not controller.can_undo and not controller.can_redo


def test_files_loaded_after_a_change_stay_through_its_undo(make):
    controller, _ = make()
    inputs = demo_inputs()
    controller.add_files([path for path, _ in inputs[:3]], dict(inputs))
    controller.remove_file(inputs[1][0])
    controller.add_files([inputs[3][0]], dict(inputs))  # a later drop: not undone
    controller.undo()
    assert [e.path for e in controller.workspace.entries] == [p for p, _ in inputs[:4]]
    assert not any(e.reading for e in controller.workspace.entries)
    controller.redo()
    assert [e.path for e in controller.workspace.entries] == [
        inputs[0][0],
        *[p for p, _ in inputs[2:4]],
    ]


@pytest.fixture
def blocked(monkeypatch):
    """Reading ``Tessera.sgm`` waits for this event (set when the test ends)."""
    event = threading.Event()
    read_entry = entries_module.read_entry

    def slow_read(path, role, *more):
        if path.name == "Tessera.sgm":
            event.wait(60)
        return read_entry(path, role, *more)

    monkeypatch.setattr(entries_module, "read_entry", slow_read)
    yield event
    event.set()


def test_a_change_while_a_file_is_read_keeps_the_file_through_undo_and_redo(qtbot, make, blocked):
    controller, _ = make(synchronous=False)
    inputs = demo_inputs()
    paths = {path.name: path for path, _ in inputs}
    controller.add_files([path for path, _ in inputs], dict(inputs))
    qtbot.waitUntil(lambda: _read(controller, "Quill.sgm"), timeout=10_000)
    controller.remove_file(paths["Quill.sgm"])  # Tessera.sgm is still being read
    assert _reading(controller, "Tessera.sgm")
    blocked.set()
    qtbot.waitUntil(lambda: not controller.loading and _read(controller, "Tessera.sgm"))
    controller.undo()
    names = [e.path.name for e in controller.workspace.entries]
    assert names == ["reference.sgm", "Lumen.sgm", "Ostrich.sgm", "Quill.sgm", "Tessera.sgm"]
    assert _read(controller, "Tessera.sgm") and not controller.loading  # nothing read again
    controller.redo()
    assert [e.path.name for e in controller.workspace.entries] == [
        "reference.sgm",
        "Lumen.sgm",
        "Ostrich.sgm",
        "Tessera.sgm",
    ]
    assert _read(controller, "Tessera.sgm")
    qtbot.waitUntil(lambda: controller.result is not None and not controller.analysing)
    assert set(controller.result.bootstrap.systems) == {"Lumen", "Ostrich", "Tessera"}


def test_a_file_removed_while_it_was_read_is_read_again_when_the_removal_is_undone(
    qtbot, make, blocked
):
    controller, _ = make(synchronous=False)
    inputs = demo_inputs()
    controller.add_files([path for path, _ in inputs], dict(inputs))
    tessera = next(path for path, _ in inputs if path.name == "Tessera.sgm")
    qtbot.waitUntil(lambda: _read(controller, "Quill.sgm"), timeout=10_000)
    controller.remove_file(tessera)
    assert controller.undo_text == "Remove Tessera.sgm"
    controller.undo()
    assert _reading(controller, "Tessera.sgm")
    blocked.set()
    qtbot.waitUntil(
        lambda: _read(controller, "Tessera.sgm") and not controller.loading, timeout=10_000
    )
    qtbot.waitUntil(lambda: controller.result is not None and not controller.analysing)
    assert set(controller.result.bootstrap.systems) == {"Lumen", "Ostrich", "Quill", "Tessera"}
    assert controller.redo_text == "Remove Tessera.sgm"


def _entry(controller: AppController, name: str) -> Entry | None:
    return next((e for e in controller.workspace.entries if e.path.name == name), None)


def _read(controller: AppController, name: str) -> bool:
    entry = _entry(controller, name)
    return entry is not None and entry.loaded is not None


def _reading(controller: AppController, name: str) -> bool:
    entry = _entry(controller, name)
    return entry is not None and entry.reading


def test_a_file_read_in_another_encoding_fills_only_the_places_that_wait_for_it(tmp_path):
    """What keeps undo right: the file read as Latin-1 arrives in the workspaces that list it
    being read so, and leaves alone those that list it read as UTF-8 (before the change)."""
    latin = tmp_path / "sysA.fr"
    latin.write_bytes("Le café\n".encode("latin-1"))
    refused = Workspace().with_entries([read_entry(latin, Role.SYSTEM)])
    waiting = Workspace().with_entries([placeholder(latin, Role.SYSTEM, "latin-1")])
    request = LoadRequest(latin, Role.SYSTEM, encoding="latin-1")
    read = read_entry(latin, Role.SYSTEM, encoding="latin-1")
    assert with_read([(request, read)], refused).entries == refused.entries
    assert with_read([(request, read)], waiting).entries == (read,)


def test_reading_as_latin1_undone_before_the_file_arrives_keeps_it_refused_and_redo_read(
    qtbot, make, monkeypatch, tmp_path
):
    controller, _ = make(synchronous=False)
    ref, latin = tmp_path / "ref.fr", tmp_path / "sysA.fr"
    ref.write_text("Le cafe\nLa foret\n", encoding="utf-8")
    latin.write_bytes("Le café\nLa forêt\n".encode("latin-1"))
    controller.add_files([ref, latin], {ref: Role.REFERENCE, latin: Role.SYSTEM})
    qtbot.waitUntil(lambda: not controller.loading and not _reading(controller, "sysA.fr"))
    assert _entry(controller, "sysA.fr").encodings == ("latin-1",)
    event, read_entry = threading.Event(), entries_module.read_entry

    def slow_read(path, role, *more):
        if "latin-1" in more:
            event.wait(60)
        return read_entry(path, role, *more)

    monkeypatch.setattr(entries_module, "read_entry", slow_read)
    controller.set_encoding(latin, "latin-1")
    assert _reading(controller, "sysA.fr")
    assert controller.undo_text == "Read as Latin-1 (ISO-8859-1): sysA.fr"
    controller.undo()
    event.set()
    qtbot.waitUntil(lambda: not controller.loading, timeout=10_000)
    refused = _entry(controller, "sysA.fr")
    assert not refused.ok and refused.encoding == "auto"  # the Latin-1 read went to redo's
    controller.redo()
    assert _read(controller, "sysA.fr") and not controller.loading  # nothing read again
    assert _entry(controller, "sysA.fr").loaded.streams[0].texts == ("Le café", "La forêt")
