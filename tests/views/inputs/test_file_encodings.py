"""A file that is not UTF-8, in the window: refused with a way out under its reason ("Read as
Latin-1"), read so with the command line's numbers, undone and redone, kept in sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gui_helpers import wait_for_result
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from mtgui.cli.main import main
from mtgui.engine.core.corpus import Role
from mtgui.io.entries import read_entry
from mtgui.io.workspace import Workspace
from mtgui.io.writers import json_text
from mtgui.report.evaluation import evaluation_report
from mtgui.views.inputs.files_panel import FilesPanel
from mtgui.views.window.main_window import MainWindow

REF = [
    "Le café est très chaud ce matin.",
    "Les élèves étudient à l'école.",
    "Où est la gare, s'il vous plaît ?",
    "Il a neigé toute la journée à Noël.",
    "La forêt était silencieuse et sombre.",
]
SYS_A = [
    "Le café est très chaud ce matin.",
    "Les élèves étudient à l'école.",
    "Où est la gare, s'il te plaît ?",
    "Il a neigé tout le jour à Noël.",
    "La forêt était calme et sombre.",
]
SYS_B = [  # plain ASCII: the same text in any encoding
    "Le cafe est chaud ce matin.",
    "Les eleves etudient a l'ecole.",
    "Ou est la gare ?",
    "Il neige toute la journee.",
    "La foret etait silencieuse.",
]
RESAMPLES = 200


@pytest.fixture
def files(tmp_path):
    """A reference and a system in Latin-1 (accented letters), and an ASCII system."""
    paths = {}
    for name, lines, role in (
        ("ref.fr", REF, Role.REFERENCE),
        ("sysA.fr", SYS_A, Role.SYSTEM),
        ("sysB.fr", SYS_B, Role.SYSTEM),
    ):
        path = tmp_path / name
        path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
        paths[path] = role
    return paths


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(RESAMPLES)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def rows(window):
    panel = window.files_panel
    return {panel.topLevelItem(i).text(0): panel.topLevelItem(i) for i in range(3)}


def wait_listed(qtbot, window):
    """Wait until the three files are listed, none of them being read."""
    qtbot.waitUntil(
        lambda: (
            window.files_panel.topLevelItemCount() == 3
            and not any(e.reading for e in window.controller.workspace.entries)
            and not window.controller.loading
        ),
        timeout=10_000,
    )


def buttons(window):
    return [
        b for b in window.files_panel.viewport().findChildren(QPushButton) if b.isVisibleTo(window)
    ]


def scores(report: dict) -> list:
    return json.loads(json_text(report["systems"]))


def test_a_latin1_file_is_refused_then_read_as_latin1_with_the_command_lines_numbers(
    qtbot, window, files, tmp_path
):
    window.add_files(list(files), files)
    wait_listed(qtbot, window)
    listed = rows(window)
    for name in ("ref.fr", "sysA.fr"):
        assert listed[name].text(1) == "could not be read"
        reason = " ".join(listed[name].child(0).text(0).split())
        assert "not valid UTF-8 text" in reason
        assert 'click "Read as Latin-1 (ISO-8859-1)" below' in reason
        assert "command line" not in reason and "--" not in reason
    assert listed["sysB.fr"].text(4) == "plain text, UTF-8"
    offered = buttons(window)
    assert [b.text() for b in offered] == ["Read as Latin-1 (ISO-8859-1)"] * 2

    for button in offered:  # each reads its own file again
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_for_result(qtbot, window)
    listed = rows(window)
    assert [listed[n].text(4) for n in ("ref.fr", "sysA.fr")] == ["plain text, Latin-1"] * 2
    assert buttons(window) == []
    corpus = window.result.corpus
    assert corpus.test_set.references[0].texts[:2] == tuple(REF[:2])  # é, è, à read as they are
    cli = tmp_path / "cli.json"
    names = [str(p) for p in files]
    argv = ["eval", "--ref", names[0], "--hyp", *names[1:], "--encoding", "latin-1"]
    assert main([*argv, "-b", str(RESAMPLES), "--json", str(cli)]) == 0
    result = window.result
    report = evaluation_report(result.corpus, result.statistics, result.bootstrap)
    assert scores(report) == scores(json.loads(cli.read_text()))

    # Edit > Undo reads it as before (refused), Redo as Latin-1 again, reading nothing.
    assert window.controller.undo_text.startswith("Read as Latin-1 (ISO-8859-1)")
    window.controller.undo()
    assert rows(window)["sysA.fr"].text(1) == "could not be read"
    assert rows(window)["ref.fr"].text(4) == "plain text, Latin-1"
    window.controller.redo()
    assert rows(window)["sysA.fr"].text(4) == "plain text, Latin-1"

    # A session keeps the encoding chosen, file by file, and reads it so again.
    session = tmp_path / "work.mtgui.json"
    window.choose_session_file = lambda: session
    assert window.save_session_as()
    listed = json.loads(session.read_text())["files"]
    saved = {Path(f["path"]).name: f.get("encoding") for f in listed}
    assert saved == {"ref.fr": "latin-1", "sysA.fr": "latin-1", "sysB.fr": None}
    window.confirm_new = lambda: True
    window.new_project()
    window.open_session(session)
    wait_for_result(qtbot, window)
    assert [rows(window)[n].text(4) for n in ("ref.fr", "sysA.fr")] == ["plain text, Latin-1"] * 2
    assert window.result.corpus.test_set.references[0].texts == tuple(REF)


def test_the_panel_offers_latin1_under_the_refusal_and_in_the_menu(qtbot, tmp_path):
    """A file that is not UTF-8 has the button and the menu; a file read as Latin-1 whose
    content is then refused says so in words, its Format "Latin-1", with the menu to go back."""
    latin = tmp_path / "sysA.fr"
    latin.write_bytes("Le café\n".encode("latin-1"))
    broken = tmp_path / "broken.sgm"  # Latin-1 that decodes, in SGML that does not parse
    broken.write_bytes("<tstset>\n<doc docid='a'>\n<seg id='1'>café\n".encode("latin-1"))
    bom = tmp_path / "bom.fr"  # past a byte-order mark, no encoding chosen would change it
    bom.write_bytes(b"\xef\xbb\xbfLe caf\xe9\n")
    entries = [
        read_entry(latin, Role.SYSTEM),
        read_entry(broken, None, encoding="latin-1"),
        read_entry(bom, Role.SYSTEM),
    ]
    panel = FilesPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 400)
    panel.show()
    panel.show_workspace(Workspace().with_entries(entries))
    first, second, third = map(panel.topLevelItem, range(3))
    assert [row.text(1) for row in (first, second, third)] == ["could not be read"] * 3
    assert "never closed" in second.child(0).text(0) and second.text(4) == "Latin-1"
    assert "Read as" not in " ".join(third.child(0).text(0).split())  # nothing to offer
    assert first.child(0).text(0).startswith("Line 1: this is not valid UTF-8 text")
    offered = [b for b in panel.viewport().findChildren(QPushButton) if b.isVisibleTo(panel)]
    assert [b.text() for b in offered] == ["Read as Latin-1 (ISO-8859-1)"]
    with qtbot.waitSignal(panel.encoding_requested) as asked:
        qtbot.mouseClick(offered[0], Qt.MouseButton.LeftButton)
    assert asked.args == [latin, "latin-1"]

    def encodings(row):
        menus = [a.menu() for a in panel.menu_for(row).actions() if a.text() == "Encoding"]
        return [(a.text(), a.isChecked()) for a in menus[0].actions()] if menus else None

    assert encodings(first) == [("UTF-8", True), ("Latin-1 (ISO-8859-1)", False)]
    assert encodings(second) == [("UTF-8", False), ("Latin-1 (ISO-8859-1)", True)]
    assert encodings(third) is None
