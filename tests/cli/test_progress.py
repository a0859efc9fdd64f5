"""The progress of a command at a terminal, and the clean-up of work that is interrupted."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass

import pytest

from mtgui.cli.progress import drain
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.demo import load_demo


@dataclass(frozen=True)
class Step:
    done: int
    total: int


@dataclass(frozen=True)
class Phased:
    done: int
    total: int
    phase: str


def three_steps(closed: list[bool], kind=Step, **phase):
    try:
        for done in (1, 2, 3):
            yield kind(done, 3, **phase)
        return "result"
    finally:
        closed.append(True)


def test_off_a_terminal_nothing_is_shown(capsys):
    closed = []
    assert drain(three_steps(closed), "scoring") == "result"
    assert capsys.readouterr().err == ""
    assert closed == [True]


def test_at_a_terminal_each_step_overwrites_the_last_and_the_line_is_cleared(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert drain(three_steps([]), "scoring") == "result"
    steps = "".join(f"\rscoring: {n}/3\033[K" for n in (1, 2, 3))
    assert capsys.readouterr().err == steps + "\r\033[K"
    drain(three_steps([], Phased, phase="bootstrap"), "scoring")
    assert "\rbootstrap: 2/3\033[K" in capsys.readouterr().err  # a snapshot's phase comes first


def test_an_interrupt_between_steps_closes_the_generator(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("mtgui.cli.progress.print", interrupt, raising=False)
    closed = []
    steps = three_steps(closed)
    with pytest.raises(KeyboardInterrupt):
        drain(steps, "scoring")
    assert closed == [True]  # at once, not when the generator is collected


def test_an_interrupted_analysis_stops_drawing_resamples(monkeypatch):
    """Ctrl+C during ``mtgui eval`` while the statistics are extracted: the thread that draws
    the resamples ahead is stopped and joined before the command goes on to exit."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("mtgui.cli.progress.print", interrupt, raising=False)
    settings = BootstrapSettings(resamples=100_000)  # more than the draws may hold in memory
    analysis = iter_analysis(load_demo(), ("bleu",), MetricSettings(), settings)
    with pytest.raises(KeyboardInterrupt):
        drain(analysis, "scoring")
    assert analysis.gi_frame is None  # closed, its draws with it
    assert not [t for t in threading.enumerate() if t.name == "mtgui-draw"]
