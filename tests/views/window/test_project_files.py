"""File > Save project as... writes one .mtgui file; opening it elsewhere restores the window."""

from __future__ import annotations

import shutil
import zipfile

from gui_helpers import shoot, wait_for_result

from mtgui.io.demo import demo_inputs
from mtgui.io.project import REPORT_NAME, RESULTS_NAME
from mtgui.views.window.main_window import MainWindow


def test_a_project_saved_here_opens_as_it_was_in_another_window(qtbot, tmp_path):
    first_machine = tmp_path / "first"
    first_machine.mkdir()
    for path, _ in demo_inputs():
        shutil.copy(path, first_machine / path.name)
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(200)
    window.settings_panel.seed.setValue(7)
    roles = {first_machine / p.name: role for p, role in demo_inputs()}
    window.add_files(list(roles), roles)
    wait_for_result(qtbot, window)
    window.controller.workspace = window.controller.workspace.renamed("Quill", "Quill v2")
    window.controller.refresh()
    wait_for_result(qtbot, window)
    target = tmp_path / "handed-on.mtgui"
    window.choose_project_file = lambda: target
    assert window.save_project_as()
    assert window.statusBar().currentMessage() == (
        f"Saved the project as {target} ({len(roles)} files)."
    )
    with zipfile.ZipFile(target) as archive:
        assert {REPORT_NAME, RESULTS_NAME} <= set(archive.namelist())
        assert str(first_machine) not in archive.read("session.mtgui.json").decode()
    window.close()
    shutil.rmtree(first_machine)  # the colleague's machine has none of the files

    other = MainWindow()
    qtbot.addWidget(other)
    other.controller.projects_folder = tmp_path / "data" / "projects"
    other.add_files([target])  # as `mtgui handed-on.mtgui`, a drop, or File > Open
    qtbot.waitUntil(
        lambda: other.result is not None and not other.controller.analysing, timeout=30_000
    )
    result = other.result.bootstrap
    assert set(result.systems) == {"Lumen", "Quill v2", "Tessera", "Ostrich"}
    assert result.settings.seed == 7 and result.settings.resamples == 200
    assert all(e.ok for e in other.controller.workspace.entries)
    assert other.windowTitle().startswith("handed-on.mtgui: 4 systems")  # named as handed on
    shoot(other, "project-opened")
    other.close()


def test_a_hostile_project_is_refused_in_words(qtbot, window, tmp_path):
    bad = tmp_path / "bad.mtgui"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("../../evil", "x")
    window.controller.projects_folder = tmp_path / "projects"
    problems = []
    window.controller.problem_changed.connect(problems.append)
    window.add_files([bad])
    assert problems and "outside its folder" in problems[-1]
    assert not (tmp_path / "projects").exists()
