"""What the views read of a result is made on the run's worker thread, never the GUI's.

On 100,000 segments, scoring two systems' segments for the Segments view takes 40 ms and the
totals of 20 systems as much: the run computes them all before it hands the result over, and
the views only read what the statistics keep. Checked by the thread that computes, not by time.
"""

from __future__ import annotations

import threading

import pytest
from test_controller import load_demo, make, wait_for_result  # noqa: F401 (fixture)

from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.statistics.rows import Statistics


@pytest.fixture
def computing_threads(monkeypatch) -> list[str]:
    """The threads where segment scores are computed or rows read to compute something."""
    threads: list[str] = []
    for cls in (Metric, Bleu):  # Bleu scores its segments its own way

        def segment_scores(self, rows, original=cls.segment_scores):
            threads.append(threading.current_thread().name)
            return original(self, rows)

        monkeypatch.setattr(cls, "segment_scores", segment_scores)
    rows = Statistics.rows

    def read_rows(self, system, metric):
        threads.append(threading.current_thread().name)
        return rows(self, system, metric)

    monkeypatch.setattr(Statistics, "rows", read_rows)
    return threads


@pytest.mark.parametrize("scale", [1, 100])
def test_segment_scores_and_totals_are_made_on_the_worker_and_only_read_after(
    qtbot,
    make,  # noqa: F811
    computing_threads,
    scale,
):
    controller, _, _, _ = make()  # a worker thread per run
    controller.analysis.set_bleu_scale(scale)
    load_demo(controller)
    wait_for_result(qtbot, controller)
    assert computing_threads and "MainThread" not in computing_threads
    computing_threads.clear()

    statistics = controller.result.statistics  # as the views read it, on the scale shown
    for metric in statistics.metrics:
        statistics.ranked_systems(metric.name)  # the Segments and Documents views
        for name in statistics.system_names:
            statistics.segment_scores(name, metric.name)  # the Segments view's columns
            statistics.totals(name, metric.name)  # the Details view
    assert computing_threads == []  # all kept: nothing computed on the GUI thread
