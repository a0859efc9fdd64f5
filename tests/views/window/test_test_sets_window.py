"""Several test sets in the main window: a tab of inputs each, the settings shared, their
campaign in the results (the numbers of ``mtgui campaign``), saved and restored by sessions and
project files, closed only when the user agrees."""

from __future__ import annotations

import json
import zipfile

import pytest
from gui_helpers import shoot, wait_for_result
from synthetic_sets import write_set

from mtgui.app import campaign as app_campaign
from mtgui.app.campaign import provide_campaign_reader, provide_campaign_steps
from mtgui.app.threads import threads_left_running
from mtgui.cli.campaign import run_campaign_sets
from mtgui.cli.campaign_file import read_campaign
from mtgui.cli.campaign_project import campaign_project
from mtgui.cli.campaign_steps import campaign_steps
from mtgui.cli.main import load_inputs, main
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core import Role
from mtgui.io.session import read_session
from mtgui.io.writers import json_text
from mtgui.report.campaign import aggregate_report
from mtgui.views.results.campaign_view import CampaignWindow
from mtgui.views.window.main_window import MainWindow

SYSTEMS = ({"A": 0.1, "B": 0.3, "C": 0.6}, {"A": 0.15, "B": 0.3})


@pytest.fixture
def sets(tmp_path):
    """Two small test sets (the second without C): their folders."""
    return [
        write_set(tmp_path / f"s{k}", rates, count=20, seed=k) for k, rates in enumerate(SYSTEMS)
    ]


def _roles(folder, systems):
    roles = {folder / "ref.txt": Role.REFERENCE}
    roles.update({folder / f"{name}.txt": Role.SYSTEM for name in systems})
    return roles


def _window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_model.set_settings(
        AnalysisSettings(metrics=("bleu", "chrf"), resamples=100, seed=5)
    )
    window.show()
    qtbot.waitExposed(window)
    return window


def _load_two_sets(qtbot, window, sets):
    for index, (folder, systems) in enumerate(zip(sets, SYSTEMS, strict=True)):
        if index:
            window.add_set_action.trigger()  # File > Add test set
        roles = _roles(folder, systems)
        window.add_files(list(roles), roles)
        if index:  # the campaign waits for the files being read, in words
            window.campaign_tab.run()
            assert window.campaign.status.text().startswith("Waiting for the files of")
            window.show_test_set(0)  # not while they are read: they would land in the other
            assert window.controller.test_sets.current == 1
            assert window.test_set_tabs.bar.currentIndex() == 1
            assert window.statusBar().currentMessage().startswith("Files are being read")
        wait_for_result(qtbot, window)
        window.controller.rename_test_set(index, f"s{index}")


def _campaign_shown(qtbot, window):
    tabs = window.results.tabs
    assert tabs.isTabVisible(tabs.indexOf(window.campaign_page))
    tabs.setCurrentWidget(window.campaign_page)
    qtbot.waitUntil(
        lambda: window.campaign.outcome is not None and not window.campaign.runs.running,
        timeout=30_000,
    )
    return window.campaign.outcome


def test_the_windows_campaign_has_the_numbers_of_mtgui_campaign(qtbot, sets, tmp_path):
    window = _window(qtbot)
    tabs = window.results.tabs
    _load_two_sets(qtbot, window, sets)
    assert window.test_set_tabs.bar.count() == 2
    assert [window.test_set_tabs.bar.tabText(k) for k in range(2)] == ["s0", "s1"]
    assert window.workspace.entries[0].path == sets[1] / "ref.txt"  # the second set shown
    outcome = _campaign_shown(qtbot, window)
    shoot(window, "test-sets-campaign")

    toml = tmp_path / "same.toml"
    correction = window.settings_model.settings().correction.value  # maxT for 3 systems
    text = '[settings]\nmetrics = ["bleu", "chrf"]\nbootstrap = 100\nseed = 5\n'
    text += f'correction = "{correction}"\n'
    for k, systems in enumerate(SYSTEMS):
        hyps = ", ".join(f'"s{k}/{name}.txt"' for name in systems)
        text += f'\n[[test_sets]]\nname = "s{k}"\nrefs = "s{k}/ref.txt"\nhyps = [{hyps}]\n'
    toml.write_text(text)
    written = tmp_path / "same.json"
    assert main(["campaign", str(toml), "--json", str(written)]) == 0  # as on the command line
    cli = json.loads(written.read_text())
    assert json.loads(json_text(aggregate_report(outcome.aggregate))) == cli["aggregate"]
    for (name, report), (cli_set) in zip(outcome.sets, cli["test_sets"], strict=True):
        assert name == cli_set["name"]
        for part in ("systems", "rankings", "pairs"):
            assert json.loads(json_text(report[part])) == cli_set["report"][part]
    grid = window.campaign.grid
    assert (grid.rowCount(), grid.columnCount()) == (3, 2)
    assert grid.item(2, 1).text() == ""  # C is not in s1
    choice = window.results.metric_choice  # one metric chooser: the window's
    assert not window.campaign.metric_row.isVisibleTo(window)
    choice.setCurrentIndex(choice.findData("chrf"))
    assert window.campaign.metric_box.currentText() == "chrf"

    window.show_test_set(0)  # the first set again: its files, its analysis
    assert [e.path.parent for e in window.workspace.entries] == [sets[0]] * 4
    wait_for_result(qtbot, window)
    assert set(window.result.bootstrap.systems) == {"A", "B", "C"}
    window.settings_panel.seed.setValue(6)  # a shared setting: the campaign runs again
    assert window.campaign_tab.behind
    tabs.setCurrentWidget(window.campaign_page)
    qtbot.waitUntil(lambda: not window.campaign_tab.behind and not window.campaign.runs.running)
    assert window.campaign.outcome is not outcome

    report = tmp_path / "campaign.html"
    window.campaign.choose_report_file = lambda title: report
    window.export_html()  # with several sets, the report is the campaign's
    page = report.read_text()
    assert "s0" in page and "s1" in page and "Across the test sets" in page
    window.close()


def test_sessions_and_projects_keep_every_test_set(qtbot, sets, tmp_path):
    window = _window(qtbot)
    roles = _roles(sets[0], SYSTEMS[0])
    window.add_files(list(roles), roles)
    wait_for_result(qtbot, window)
    single = tmp_path / "one.mtgui.json"
    window.choose_session_file = lambda: single
    assert window.save_session_as()
    saved = json.loads(single.read_text())
    assert "test_sets" not in saved and "test_set" not in saved  # as a session of one set was

    _load_more = _roles(sets[1], SYSTEMS[1])
    window.add_test_set()
    window.add_files(list(_load_more), _load_more)
    wait_for_result(qtbot, window)
    window.controller.rename_test_set(1, "wiki")
    both = tmp_path / "both.mtgui.json"
    window.choose_session_file = lambda: both
    assert window.save_session_as()
    session = read_session(both)
    assert session.name == "ref" and [s.name for s in session.test_sets] == ["wiki"]
    assert len(session.all_paths) == 7
    project = tmp_path / "both.mtgui"
    window.choose_project_file = lambda: project
    assert window.save_project_as()
    with zipfile.ZipFile(project) as archive:
        inside = json.loads(archive.read("session.mtgui.json"))
        assert [s["name"] for s in inside["test_sets"]] == ["wiki"]
        assert len(inside["test_sets"][0]["files"]) == 3
    window.close()

    for path, tabs in ((single, ["ref"]), (both, ["ref", "wiki"])):
        other = _window(qtbot)
        other.add_files([path])
        wait_for_result(qtbot, other)
        bar = other.test_set_tabs.bar
        assert [bar.tabText(k) for k in range(bar.count())] == tabs
        assert {e.path.parent for e in other.workspace.entries} == {sets[0]}
        if len(tabs) == 2:  # the campaign reads the second set's files itself
            outcome = _campaign_shown(qtbot, other)
            assert [name for name, _ in outcome.sets] == tabs
            assert other.controller.test_sets.sets[1].pending  # the tab reads them when shown
            bar.setCurrentIndex(1)
            wait_for_result(qtbot, other)
            assert {e.path.parent for e in other.workspace.entries} == {sets[1]}
            assert set(other.result.bootstrap.systems) == {"A", "B"}
        other.close()


def test_closing_a_test_set_with_files_asks_first(qtbot, sets):
    window = _window(qtbot)
    assert window.test_set_tabs.bar.tabText(0) == "Test set 1"  # a tab from the start
    assert not window.test_set_tabs.bar.usesScrollButtons()  # no gap before + for a few
    roles = _roles(sets[0], SYSTEMS[0])
    window.add_files(list(roles), roles)
    wait_for_result(qtbot, window)
    window.add_test_set()
    menu = window.test_set_tabs.tab_menu(1)  # a right click on a tab
    assert [a.text() for a in menu.actions() if a.text()] == [
        "Rename Test set 2...",
        "Close Test set 2",
        "Add test set",
    ]
    window.choose_set_name = lambda name: "wiki"
    menu.actions()[0].trigger()
    assert window.test_set_tabs.bar.tabText(1) == "wiki"
    asked = []
    window.confirm_close_set = lambda name, files: asked.append((name, files)) or False
    window.close_test_set(1)  # empty: closed without a question
    assert asked == [] and window.test_set_tabs.bar.count() == 1
    assert not window.test_set_tabs.bar.tabsClosable()  # the last one stays
    window.add_test_set()
    window.close_test_set(0)  # the set holding files: asked, and kept on No
    assert asked == [("ref", 4)] and window.test_set_tabs.bar.count() == 2
    window.confirm_close_set = lambda name, files: True
    window.close_test_set(0)
    assert window.test_set_tabs.bar.count() == 1 and not window.workspace.entries
    assert not window.test_set_tabs.tab_menu(0).actions()[1].isEnabled()  # Close the last
    assert window.undo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Close the test set ref"
    window.undo_action.trigger()  # Edit > Undo: the set back in its place, with its files
    bar = window.test_set_tabs.bar
    assert [bar.tabText(k) for k in range(bar.count())] == ["ref", "Test set 2"]
    assert bar.currentIndex() == 0 and len(window.workspace.entries) == 4
    wait_for_result(qtbot, window)
    window.show_test_set(1)  # an empty set shown, the other holding files: a session asks
    assert window.statusBar().currentMessage().startswith("Test set 2: drop its reference")
    discard = []
    window.confirm_discard = lambda: discard.append(True) and False
    window.open_session(sets[0] / "any.mtgui.json")
    assert discard == [True] and bar.count() == 2
    window.close()


@pytest.fixture
def readers():
    """The launcher's hand-over of the campaign-file code, undone after the test."""
    before = list(app_campaign._readers), list(app_campaign._provided)
    provide_campaign_reader(campaign_project)
    provide_campaign_steps(campaign_steps)
    yield
    app_campaign._readers[:], app_campaign._provided[:] = before


def test_a_campaign_file_opens_as_tabs_with_its_settings_and_numbers(qtbot, sets, readers):
    toml = sets[0].parent / "two.toml"
    text = '[settings]\nmetrics = ["bleu", "chrf"]\nbootstrap = 100\nseed = 3\n'
    for k, systems in enumerate(SYSTEMS):
        hyps = ", ".join(f'"s{k}/{name}.txt"' for name in systems)
        text += f'\n[[test_sets]]\nname = "s{k}"\nrefs = "s{k}/ref.txt"\nhyps = [{hyps}]\n'
    toml.write_text(text)
    window = _window(qtbot)
    window.open_campaign(toml)  # as File > Open campaign..., a drop, or `mtgui two.toml`
    bar = window.test_set_tabs.bar
    assert [bar.tabText(k) for k in range(bar.count())] == ["s0", "s1"]
    chosen = window.settings_model.settings()
    assert (chosen.resamples, chosen.seed, chosen.metrics) == (100, 3, ("bleu", "chrf"))
    assert window.results.tabs.currentWidget() is window.campaign_page
    qtbot.waitUntil(
        lambda: window.campaign.outcome is not None and not window.campaign.runs.running,
        timeout=30_000,
    )
    assert window.settings_model.settings().correction.value == "none"  # the file's, kept
    _, found = run_campaign_sets(read_campaign(toml), load_inputs)
    assert aggregate_report(window.campaign.outcome.aggregate) == aggregate_report(found)
    assert window.campaign.outcome.title == "two"
    assert window.windowTitle().startswith("two.toml: ")
    window.close()

    toml.write_text(text + 'names = ["X", "Y"]\n')  # renamed systems: a campaign window
    other = _window(qtbot)
    other.open_campaign(toml)
    opened = other.findChildren(CampaignWindow)
    assert len(opened) == 1 and other.test_set_tabs.bar.count() == 1
    assert "campaign window of its own" in other.statusBar().currentMessage()
    opened[0].close()
    toml.write_text("[settings\n")
    other.open_campaign(toml)
    assert "two.toml" in other.welcome.problem.text()
    qtbot.waitUntil(lambda: not threads_left_running())
    other.close()
