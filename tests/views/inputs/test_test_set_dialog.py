"""The window's parts of issue 36: File > Open test set... (point 3), a set of sacreBLEU's
catalogue and a language pair whose references, source and document ids are added to what is
loaded (on a cache laid out as sacreBLEU lays it out), and spBLEU's tokenizers in the tokenizer
chooser (point 2). The network is off."""

from __future__ import annotations

import pytest
from gui_helpers import drop, wait_for_result
from sacrebleu_cache import WMT19_SYSTEM, make_wmt19, sacrebleu_home
from spm_models import go_offline
from spm_models import sacrebleu_home as spm_home

from mtgui.engine.core import Role
from mtgui.io.demo import demo_inputs
from mtgui.io.test_sets import catalogue, language_pairs
from mtgui.views.inputs import test_set_dialog
from mtgui.views.inputs.test_set_dialog import TestSetDialog


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = sacrebleu_home(monkeypatch, tmp_path / "sacrebleu")
    go_offline(monkeypatch)
    make_wmt19(folder)
    return folder


def test_the_dialog_offers_the_catalogue_and_each_sets_pairs(qtbot, home):
    dialog = TestSetDialog()
    qtbot.addWidget(dialog)
    names = [dialog.test_set.itemText(i) for i in range(dialog.test_set.count())]
    assert names == catalogue()
    dialog.test_set.setCurrentText("wmt19")
    pairs = [dialog.pair.itemText(i) for i in range(dialog.pair.count())]
    assert pairs == language_pairs("wmt19")
    assert "wmt19 is in sacreBLEU's cache" in dialog.where.text()
    dialog.test_set.setCurrentText("wmt23")
    assert "en-de" in [dialog.pair.itemText(i) for i in range(dialog.pair.count())]
    assert "will be downloaded" in dialog.where.text()
    dialog.test_set.setEditText("wmt1")  # typing
    assert dialog.pair.count() == 0
    assert "sacreBLEU knows no test set called 'wmt1'" in dialog.where.text()
    assert not dialog.ok.isEnabled()
    dialog.test_set.setEditText("wmt23")
    assert dialog.ok.isEnabled()
    dialog.pair.setCurrentText("en-de")
    dialog.ok.click()  # offline: the dialog says why and stays open
    qtbot.waitUntil(lambda: not dialog.problem.isHidden())
    assert dialog.result() != dialog.DialogCode.Accepted
    assert dialog.pair.currentText() == "en-de"  # the choice is kept, to try again
    assert dialog.ok.isEnabled()
    assert dialog.named is None
    assert "the test set wmt23 (en-de) is not in sacreBLEU's cache" in dialog.problem.text()
    assert not dialog.problem.isHidden()


def test_a_set_chosen_is_loaded_into_the_project(qtbot, window, home, tmp_path, monkeypatch):
    def choose(parent):
        dialog = TestSetDialog(parent)
        dialog.test_set.setCurrentText("wmt19")
        dialog.pair.setCurrentText("de-en")
        dialog.accept()  # the files are found on a worker thread
        qtbot.waitUntil(lambda: dialog.named is not None)
        return dialog.named

    monkeypatch.setattr(test_set_dialog, "ask_test_set", choose)
    action = next(
        a for a in window.menuBar().actions()[0].menu().actions() if a.text() == "Open &test set..."
    )
    action.trigger()
    system = tmp_path / "system.txt"
    system.write_text("\n".join(WMT19_SYSTEM) + "\n", encoding="utf-8")
    window.add_files([system], {system: Role.SYSTEM})
    wait_for_result(qtbot, window)
    roles = {entry.path.name: entry.role for entry in window.workspace.entries}
    assert roles == {
        "wmt19.de-en.src": Role.SOURCE,
        "wmt19.de-en.ref": Role.REFERENCE,
        "wmt19.de-en.docid": Role.DOCUMENT_IDS,
        "system.txt": Role.SYSTEM,
    }
    test_set = window.workspace.corpus().test_set
    assert test_set.size == 4
    assert len(test_set.documents) == 3


def test_spbleu_without_its_model_offline_says_what_to_download_above_the_views(
    qtbot, window, tmp_path, monkeypatch
):
    """The tokenizer chooser offers spBLEU's tokenizers; a model that cannot be had is said
    above the views, with where to download it and where to put it."""
    pytest.importorskip("sentencepiece")
    spm_home(monkeypatch, tmp_path / "empty")
    go_offline(monkeypatch)
    drop(window, [path for path, _ in demo_inputs()])
    wait_for_result(qtbot, window)
    chooser = window.settings_panel.tokenizer
    assert {"flores101", "flores200", "spm"} <= {
        chooser.itemText(i) for i in range(chooser.count())
    }
    chooser.setCurrentText("flores200")
    window.run()
    problem = window.results.problem
    qtbot.waitUntil(lambda: "Download" in problem.text(), timeout=30_000)
    assert "the flores200 tokenizer needs sacreBLEU's SentencePiece model" in problem.text()
    assert str(tmp_path / "empty" / "models" / "flores200sacrebleuspm") in problem.text()
