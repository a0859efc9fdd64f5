"""Issue 32: the window survives a seeded random walk of clicks, drops and setting changes.

The real MainWindow is driven through a few thousand random actions: tabs, metrics ticked and
unticked, settings, run and cancel, the metric and the systems chosen in every chooser, files
dropped (bad ones too) and removed, systems renamed and hidden, undo and redo, New. The app's
unexpected-error handler is installed as ``sys.excepthook`` for the walk and must never be
called (an exception raised inside a Qt virtual or a slot goes there), and no dialog may open
(each question the window asks is answered by the walk). ``MTGUI_RANDOM_WALK_STEPS`` sets the
number of actions (default 1,500), ``MTGUI_RANDOM_WALK_SEED`` the seed.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog, QMessageBox

from mtgui.engine.core.corpus import Role
from mtgui.io.demo import demo_inputs
from mtgui.views.window.main_window import MainWindow
from mtgui.views.window.unexpected import UnexpectedErrors

STEPS = int(os.environ.get("MTGUI_RANDOM_WALK_STEPS", "1500"))
SEED = int(os.environ.get("MTGUI_RANDOM_WALK_SEED", "32"))


def write_inputs(folder: Path) -> dict[str, list[Path]]:
    """The demo's files, a scores file for its systems, and bad files of several kinds."""
    good = []
    for source, _ in demo_inputs():
        copy = folder / source.name
        copy.write_bytes(source.read_bytes())
        good.append(copy)
    systems = [path.stem for path in good[1:]]
    rows = ["system\tline\tCOMET"]
    rows += [
        f"{s}\t{line}\t{(line * 7 + n) % 10 / 10}"
        for n, s in enumerate(systems)
        for line in range(1, 96)
    ]
    scores = folder / "comet.tsv"
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    short = folder / "short-scores.tsv"
    short.write_text("system\tline\tCOMET\nLumen\t1\t0.5\n", encoding="utf-8")
    bad = []
    for name, content in (
        ("binary.txt", bytes(range(256)) * 4),
        ("empty.txt", b""),
        ("one-line.txt", b"a lone line\n"),
        ("broken.mtgui.json", b'{"mtgui_session": 1, "files": ['),
        ("newer.mtgui.json", b'{"mtgui_session": 2}'),
        ("nested.json", b"[" * 50_000),
    ):
        path = folder / name
        path.write_bytes(content)
        bad.append(path)
    looping = folder / "self.mtgui.json"
    listed = json.dumps({"mtgui_session": 1, "files": [{"path": str(looping)}]})
    looping.write_text(listed, encoding="utf-8")
    bad += [looping, short, folder / "missing.sgm"]
    return {"good": good, "scores": [scores], "bad": bad}


class Walk:
    """Random actions on one window, each a method; the log says what was done, in order."""

    def __init__(self, window: MainWindow, qtbot, rng: random.Random, inputs) -> None:
        self.window, self.qtbot, self.rng, self.inputs = window, qtbot, rng, inputs
        self.log: list[str] = []
        self.actions: list[tuple[Callable[[], None], int]] = [
            (self.tab, 12),
            (self.metric_box, 8),
            (self.setting, 10),
            (self.run, 3),
            (self.cancel, 3),
            (self.metric_choice, 8),
            (self.system_choice, 10),
            (self.drop_good, 4),
            (self.drop_bad, 3),
            (self.drop_scores, 2),
            (self.remove, 3),
            (self.rename, 3),
            (self.hide, 3),
            (self.undo, 3),
            (self.redo, 2),
            (self.new, 1),
            (self.wait, 6),
            (self.settle, 1),
        ]

    def step(self) -> None:
        action = self.rng.choices(*zip(*self.actions, strict=True))[0]
        action()
        self.qtbot.wait(self.rng.choice((0, 0, 1, 5, 20)))

    def say(self, text: str) -> None:
        self.log.append(text)

    # -- the actions -----------------------------------------------------------------------

    def tab(self) -> None:
        tabs = self.window.results.tabs
        index = self.rng.randrange(tabs.count())
        self.say(f"tab {tabs.tabText(index)}")
        tabs.setCurrentIndex(index)

    def metric_box(self) -> None:
        boxes = self.window.settings_panel.metric_boxes
        name = self.rng.choice(sorted(boxes))
        box = boxes[name]
        self.say(f"{'untick' if box.isChecked() else 'tick'} {name}")
        box.setChecked(not box.isChecked())

    def setting(self) -> None:
        panel, rng = self.window.settings_panel, self.rng
        name = rng.choice(("resamples", "seed", "level", "unit", "correction", "case", "tokenizer"))
        control = getattr(panel, name)
        if isinstance(control, QComboBox):
            value: object = rng.randrange(control.count())
            control.setCurrentIndex(int(value))  # type: ignore[call-overload]
        elif name == "resamples":
            value = rng.choice((100, 200, 300))
            control.setValue(value)
        elif name == "seed":
            value = rng.randrange(1000)
            control.setValue(value)
        else:
            value = rng.choice((0.9, 0.95, 0.99))
            control.setValue(value)
        self.say(f"set {name} {value}")

    def run(self) -> None:
        self.say("run")
        self.window.run()

    def cancel(self) -> None:
        self.say("cancel")
        self.window.cancel()

    def _pick(self, box: QComboBox, what: str) -> None:
        if box.count():
            index = self.rng.randrange(box.count())
            self.say(f"choose {what} {box.itemText(index)}")
            box.setCurrentIndex(index)

    def metric_choice(self) -> None:
        results = self.window.results
        box = self.rng.choice(
            (
                results.metric_choice,
                results.metric_choice,
                results.segments.metric_choice,
                results.documents.metric_choice,
                results.details.metric_choice,
                results.breakdown.key,
                results.histograms.layout_choice,
            )
        )
        self._pick(box, "metric/key")

    def system_choice(self) -> None:
        results = self.window.results
        boxes = (
            results.paired.first,
            results.paired.second,
            results.segments.system_a,
            results.segments.system_b,
            results.documents.system_a,
            results.documents.system_b,
            results.details.system_choice,
        )
        self._pick(self.rng.choice(boxes), "system")
        if self.rng.random() < 0.2:
            names = [*self.window.workspace.system_names().values(), "Nobody"]
            first, second = self.rng.sample(names, 2) if len(names) > 1 else (names[0],) * 2
            self.say(f"show segments {first} {second}")
            self.window.show_segments(first, second)

    def drop_good(self) -> None:
        files = self.rng.sample(self.inputs["good"], self.rng.randint(1, 5))
        self.say(f"drop {[p.name for p in files]}")
        self.window.add_files(files)

    def drop_bad(self) -> None:
        path = self.rng.choice(self.inputs["bad"])
        self.say(f"drop bad {path.name}")
        self.window.add_files([path])

    def drop_scores(self) -> None:
        self.say("drop comet.tsv")
        self.window.add_files(self.inputs["scores"])

    def remove(self) -> None:
        entries = self.window.workspace.entries
        if entries:
            paths = [e.path for e in self.rng.sample(entries, self.rng.randint(1, len(entries)))]
            self.say(f"remove {[p.name for p in paths]}")
            self.window.controller.remove_files(paths)

    def _system(self) -> tuple[object, str] | None:
        names = self.window.workspace.system_names()
        if not names:
            return None
        key = self.rng.choice(sorted(names, key=str))
        return key, names[key]

    def rename(self) -> None:
        chosen = self._system()
        if chosen is not None:
            new = self.rng.choice(("A", "B", "Lumen", "Quill", "Neu", "x" * 40, "  spaced  "))
            self.say(f"rename {chosen[1]} {new}")
            self.window.controller.rename_system(chosen[0], new)  # type: ignore[arg-type]

    def hide(self) -> None:
        chosen = self._system()
        if chosen is not None:
            hidden = chosen[0] not in self.window.workspace.hidden_systems
            self.say(f"{'hide' if hidden else 'show'} {chosen[1]}")
            self.window.controller.hide_system(chosen[0], hidden)  # type: ignore[arg-type]

    def undo(self) -> None:
        self.say("undo")
        self.window.controller.undo()

    def redo(self) -> None:
        self.say("redo")
        self.window.controller.redo()

    def new(self) -> None:
        self.say("new")
        self.window.new_project()

    def wait(self) -> None:
        self.say("wait")
        self.qtbot.wait(self.rng.choice((50, 150, 400)))

    def settle(self) -> None:
        """Let everything under way end: the loads, the run, a breakdown."""
        self.say("settle")
        window = self.window
        self.qtbot.waitUntil(
            lambda: (
                not window.controller.loading
                and not window.controller.analysing
                and not window.controller.analysis._rerun.isActive()
                and not window.results.breakdown.controller.running
            ),
            timeout=60_000,
        )


@pytest.fixture
def walk_window(qtbot, monkeypatch):
    asked: list[str] = []  # dialogs that would have opened: none may
    for owner, name in ((QMessageBox, "exec"), (QDialog, "exec")):
        monkeypatch.setattr(owner, name, lambda self, n=name: asked.append(type(self).__name__))
    for name in ("getOpenFileName", "getOpenFileNames", "getSaveFileName", "getExistingDirectory"):
        monkeypatch.setattr(QFileDialog, name, lambda *a, n=name: asked.append(n) or ("", ""))
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)
    window.choose_roles = lambda files: {path: role or Role.SYSTEM for path, role in files}
    window.choose_scores = lambda question: question.defaults()
    window.confirm_discard = lambda: True
    window.confirm_new = lambda: True
    window.show()
    qtbot.waitExposed(window)
    yield window, asked
    window.close()


def test_a_random_walk_through_the_window_meets_no_unexpected_error(
    qtbot, tmp_path, walk_window, monkeypatch
):
    window, asked = walk_window
    handler = UnexpectedErrors()
    monkeypatch.setattr(sys, "excepthook", handler)  # as run_application installs it
    monkeypatch.setattr(handler, "_show", lambda: None)  # counted; no dialog in a test
    walk = Walk(window, qtbot, random.Random(SEED), write_inputs(tmp_path))
    window.add_files(walk.inputs["good"])
    for number in range(STEPS):
        walk.step()
        if handler.count:
            recent = "\n".join(walk.log[-15:])
            pytest.fail(
                f"an unexpected error at step {number} (seed {SEED}); last actions:\n{recent}"
            )
    walk.settle()
    assert handler.count == 0
    assert asked == []
    window.add_files(walk.inputs["good"])  # the window still works: a result of the demo
    walk.settle()
    if window.workspace.entries and window.result is not None:
        window.results.tabs.setCurrentIndex(0)
        window.grab()
