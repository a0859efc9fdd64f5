"""Sessions store the one settings object as plain values, and find their files again:
the two parts of the session that live in modules of their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.significance import Correction
from mtgui.engine.resampling.settings import MAX_SEED, Unit
from mtgui.engine.text.settings import Case
from mtgui.io.session import (
    Session,
    check_settings,
    default_settings,
    read_session,
    session_from_dict,
    session_to_dict,
    write_session,
)
from mtgui.io.session_paths import NEAR, locate, relative_path, why_missing

CHANGED = AnalysisSettings(
    metrics=("ter", "bleu"),
    resamples=700,
    level=0.99,
    seed=MAX_SEED,  # above a 32-bit signed number: sessions take every seed the engine takes
    unit=Unit.SEGMENT,
    randomization=True,
    correction=Correction.HOLM,
    tokenizer="char",
    case=Case.FULL,
)


def test_session_settings_are_the_settings_object_s_plain_values():
    assert default_settings() == AnalysisSettings().to_dict()
    assert check_settings(CHANGED.to_dict()) == CHANGED.to_dict()
    assert check_settings({"seed": 5}, strict=False) == AnalysisSettings(seed=5).to_dict()


@pytest.mark.parametrize("settings", [AnalysisSettings(), CHANGED], ids=["defaults", "changed"])
def test_settings_round_trip_through_a_session_dict(settings, tmp_path):
    data = session_to_dict(Session(settings=settings.to_dict(), metric="ter"), tmp_path)
    assert data["settings"] == settings.to_dict()
    again = session_from_dict(json.loads(json.dumps(data)), tmp_path / "s.mtgui.json")
    assert AnalysisSettings.from_mapping(again.settings) == settings
    assert again.metric == "ter"


def test_settings_round_trip_through_a_session_file(tmp_path):
    path = tmp_path / "s.mtgui.json"
    write_session(path, Session(settings=CHANGED.to_dict()))
    assert json.loads(path.read_text("utf-8"))["settings"] == CHANGED.to_dict()
    assert AnalysisSettings.from_mapping(read_session(path).settings) == CHANGED


def test_a_bad_setting_names_the_session_file(tmp_path):
    path = tmp_path / "s.mtgui.json"
    path.write_text(json.dumps({"mtgui_session": 1, "settings": {"seed": MAX_SEED + 1}}))
    with pytest.raises(InputError) as caught:
        read_session(path)
    assert caught.value.path == path
    assert caught.value.problem == (
        'the setting "seed" should be a whole number from 0 to 4,294,967,295, '
        "not the number 4294967296."
    )


def test_files_near_the_session_are_stored_relative_too(tmp_path):
    folder = tmp_path / "a" / "b" / "c"
    assert relative_path(folder / "x.txt", folder) == "x.txt"
    assert relative_path(folder / "d" / "x.txt", folder) == "d/x.txt"
    near = folder.parents[NEAR - 1] / "x.txt"
    assert relative_path(near, folder) == "/".join([".."] * NEAR + ["x.txt"])
    assert relative_path(folder.parents[NEAR] / "x.txt", folder) is None


def test_a_file_is_found_relative_first_then_where_it_was(tmp_path):
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "x.txt").write_text("a\n")
    (tmp_path / "old.txt").write_text("a\n")
    folder = tmp_path / "moved"
    assert locate("/nowhere/x.txt", "x.txt", folder) == folder / "x.txt"
    assert locate(str(tmp_path / "old.txt"), "gone.txt", folder) == tmp_path / "old.txt"
    assert locate("old.txt", None, tmp_path) == tmp_path / "old.txt"  # stored relative


def test_why_a_file_is_missing_in_a_few_words(tmp_path):
    (tmp_path / "here.txt").write_text("a\n")
    assert why_missing(tmp_path / "here.txt") is None
    assert why_missing(tmp_path / "gone.txt") == "no such file"
    assert why_missing(Path("bad\0name")) == "not a valid file name"
    assert why_missing(tmp_path / "gone" / "x.txt") == "no such file"
