"""RunInputs: one list of a run's inputs, by the file each is (issue 32)."""

from __future__ import annotations

import os

import pytest

from mtgui.engine.core.errors import InputError
from mtgui.io.outputs import OutputPlan
from mtgui.io.run_inputs import RunInputs


def identity(path) -> tuple[int, int]:
    info = os.stat(path)
    return (info.st_dev, info.st_ino)


def test_every_spelling_of_an_input_is_the_input(tmp_path):
    labels = tmp_path / "labels.tsv"
    labels.write_text("line\tx\n", encoding="utf-8")
    (tmp_path / "soft").symlink_to(labels)
    os.link(labels, tmp_path / "hard")
    inputs = RunInputs([("--by", tmp_path / "soft")])
    for path in (labels, tmp_path / "hard", tmp_path / "sub" / ".." / "labels.tsv"):
        if "sub" in str(path):
            (tmp_path / "sub").mkdir()
        assert identity(path) in inputs
        assert inputs.file_at(identity(path)).describe() == f"--by {tmp_path / 'soft'}"


def test_a_folder_is_read_as_a_whole_and_its_files_are_inputs(tmp_path):
    folder = tmp_path / "systems"
    (folder / "deeper").mkdir(parents=True)
    (folder / "a.txt").write_text("a", encoding="utf-8")
    (folder / "deeper" / "b.txt").write_text("b", encoding="utf-8")
    inputs = RunInputs([("--hyp", folder)])
    assert identity(folder / "a.txt") in inputs and identity(folder / "deeper" / "b.txt") in inputs
    assert inputs.folder_of(tmp_path / "systems" / ".") is not None
    assert inputs.folder_of(folder / "deeper") is None  # not read: outputs may go there
    assert inputs.folder_of(tmp_path) is None


def test_what_does_not_exist_is_left_to_the_reader(tmp_path):
    inputs = RunInputs([("--ref", tmp_path / "missing.txt")])
    assert len(inputs) == 0


def test_an_output_plan_refuses_with_the_inputs_option(tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text("x", encoding="utf-8")
    plan = OutputPlan(True, RunInputs([("--by", scores)]))
    with pytest.raises(InputError, match=r"\(--by .*scores\.csv\), and --csv \(scores\.csv\)"):
        plan.add_folder("--csv", tmp_path, ["scores.csv", "pairs.csv"])
    assert scores.read_text(encoding="utf-8") == "x"
