"""Plain text dropped in numbers: one question for all the files, not one per file."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import drop, shoot, wait_for_result

from mtgui.engine.core.corpus import Role
from mtgui.views.inputs import roles_dialog
from mtgui.views.inputs.roles_dialog import RolesDialog, ask_roles

FILES = [
    (Path("/data/newstest.ref.en"), Role.REFERENCE),
    (Path("/data/sysA.en"), Role.SYSTEM),
    (Path("/data/newstest.src.de"), Role.SOURCE),
]


def test_each_file_starts_at_its_guess_and_can_be_changed_or_left_out(qtbot):
    dialog = RolesDialog(FILES)
    qtbot.addWidget(dialog)
    assert dialog.roles() == dict(FILES)
    dialog.choosers[1].setCurrentIndex(dialog.choosers[1].findData(Role.REFERENCE.value))
    dialog.choosers[2].setCurrentIndex(dialog.choosers[2].count() - 1)  # "Leave out"
    assert dialog.roles() == {FILES[0][0]: Role.REFERENCE, FILES[1][0]: Role.REFERENCE}
    dialog.show()
    shoot(dialog, "roles-dialog")


def test_set_all_sets_every_file(qtbot):
    dialog = RolesDialog(FILES)
    qtbot.addWidget(dialog)
    dialog.set_all(Role.SYSTEM)
    assert set(dialog.roles().values()) == {Role.SYSTEM}
    assert len(dialog.roles()) == 3


def test_one_file_is_asked_with_a_short_question(qtbot, monkeypatch):
    monkeypatch.setattr(roles_dialog, "ask_role", lambda parent, path, guess: Role.SOURCE)
    assert ask_roles(None, FILES[:1]) == {FILES[0][0]: Role.SOURCE}
    monkeypatch.setattr(roles_dialog, "ask_role", lambda parent, path, guess: None)
    assert ask_roles(None, FILES[:1]) is None


def test_a_drop_of_a_reference_and_ten_systems_asks_once(qtbot, window, tmp_path):
    lines = [f"the cat sat on mat number {k}" for k in range(20)]
    reference = tmp_path / "newstest.ref.en"
    reference.write_text("\n".join(lines) + "\n", encoding="utf-8")
    systems = []
    for k in range(10):
        system = tmp_path / f"system{k}.en"
        system.write_text("\n".join(line.replace("cat", f"cat{k % 3}") for line in lines) + "\n")
        systems.append(system)
    asked = []
    window.choose_roles = lambda files: asked.append(files) or dict(files)
    drop(window, [reference, *systems])
    wait_for_result(qtbot, window)
    assert len(asked) == 1
    assert [path.name for path, _ in asked[0]] == [reference.name] + [s.name for s in systems]
    assert asked[0][0][1] is Role.REFERENCE
    assert {role for _, role in asked[0][1:]} == {Role.SYSTEM}
    assert window.results.score_model.rowCount() == 10


def test_cancelling_the_question_loads_none_of_the_plain_text(qtbot, window, tmp_path):
    files = []
    for name in ("a.ref.en", "b.en"):
        files.append(tmp_path / name)
        files[-1].write_text("x y z\n", encoding="utf-8")
    window.choose_roles = lambda files: None
    drop(window, files)
    qtbot.waitUntil(lambda: not window.controller.loading, timeout=10_000)
    qtbot.wait(300)
    assert window.workspace.entries == ()


def test_a_docids_file_is_guessed_and_gives_plain_text_its_documents(qtbot, window, tmp_path):
    """A drop of plain text with WMT's *.docids: documents are resampled, the window says so,
    and nothing warns of resampling segments."""
    documents, per_document = 12, 3
    lines = [f"the cat sat on mat {d} number {s}" for d in range(documents) for s in range(4)]
    lines = lines[: documents * per_document]
    reference = tmp_path / "newstest.ref.en"
    reference.write_text("\n".join(lines) + "\n", encoding="utf-8")
    systems = []
    for k in range(2):
        system = tmp_path / f"system{k}.en"
        system.write_text("\n".join(line.replace("cat", f"cat{k}") for line in lines) + "\n")
        systems.append(system)
    docids = tmp_path / "newstest.en-de.docids"
    docids.write_text("".join(f"doc{n // per_document}\n" for n in range(len(lines))))
    asked = []
    window.choose_roles = lambda files: asked.append(files) or dict(files)
    drop(window, [reference, *systems, docids])
    wait_for_result(qtbot, window)
    guesses = dict(asked[0])
    assert guesses[docids] is Role.DOCUMENT_IDS
    result = window.result
    assert result.corpus.test_set.documents == tuple(f"doc{d}" for d in range(documents))
    assert result.bootstrap.settings.unit.value == "document"
    assert not any("false positives" in note for note in result.bootstrap.notes)


def test_the_roles_dialog_offers_document_ids(qtbot):
    files = [*FILES, (Path("/data/newstest.docids"), Role.DOCUMENT_IDS)]
    dialog = RolesDialog(files)
    qtbot.addWidget(dialog)
    assert dialog.roles()[Path("/data/newstest.docids")] is Role.DOCUMENT_IDS
    assert dialog.choosers[0].findData(Role.DOCUMENT_IDS.value) >= 0
