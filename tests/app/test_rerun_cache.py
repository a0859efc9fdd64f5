"""The window re-uses what it can: after a run, a new seed only resamples, and one more metric
extracts only that metric; the results are those of a fresh window with the same settings."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_controller import load_demo, make  # noqa: F401 (fixture)

from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.metrics.chrf.chrf import Chrf


@pytest.fixture
def extracted(monkeypatch) -> list[tuple[str, str]]:
    """Every BLEU, NIST and chrF extraction: (metric, system)."""
    calls: list[tuple[str, str]] = []
    for cls in (Bleu, Nist, Chrf):
        original = cls.extract if cls is not Chrf else cls.iter_extract

        if cls is Chrf:

            def counted_chrf(self, context, system, original=original):
                calls.append((self.name, system.name))
                return (yield from original(self, context, system))

            monkeypatch.setattr(cls, "iter_extract", counted_chrf)
        else:

            def counted(self, context, system, original=original):
                calls.append((self.name, system.name))
                return original(self, context, system)

            monkeypatch.setattr(cls, "extract", counted)
    return calls


def same_result(a, b) -> None:
    """Bit for bit: every resample's score, every pair, the signature."""
    assert a.bootstrap.signature == b.bootstrap.signature
    assert a.statistics.signature() == b.statistics.signature()
    for x, y in zip(a.bootstrap.intervals, b.bootstrap.intervals, strict=True):
        np.testing.assert_array_equal(x.samples, y.samples)
        assert (x.system, x.metric, x.score, x.ci_low, x.ci_high) == (
            y.system,
            y.metric,
            y.score,
            y.ci_low,
            y.ci_high,
        )
    assert a.bootstrap.pairs == b.bootstrap.pairs


def test_a_seed_change_extracts_nothing_and_matches_a_fresh_window(make, extracted):  # noqa: F811
    controller, settings, _, _ = make(synchronous=True)
    load_demo(controller)
    first = controller.result
    assert first is not None and len(extracted) == 2 * len(first.corpus.systems)
    extracted.clear()
    settings.value = replace(settings.value, seed=7)
    controller.analysis.run()
    assert extracted == []
    assert controller.result is not first and controller.result.bootstrap.settings.seed == 7

    fresh, _, _, _ = make(synchronous=True, seed=7)
    load_demo(fresh)
    same_result(controller.result, fresh.result)


def test_ticking_one_more_metric_extracts_only_it(make, extracted):  # noqa: F811
    controller, settings, _, _ = make(synchronous=True)
    load_demo(controller)
    extracted.clear()
    settings.value = replace(settings.value, metrics=(*settings.value.metrics, "chrf"))
    controller.analysis.run()
    systems = controller.result.corpus.system_names
    assert sorted(extracted) == sorted(("chrf", name) for name in systems)
    assert "chrf" in controller.result.bootstrap.metrics


def test_a_renamed_or_hidden_and_shown_system_keeps_its_statistics(make, extracted):  # noqa: F811
    controller, _, _, _ = make(synchronous=True)
    load_demo(controller)
    extracted.clear()
    key = controller.workspace.system_keys()[0]
    controller.rename_system(key, "Renamed")
    controller.analysis.run()
    assert "Renamed" in controller.result.corpus.system_names
    controller.hide_system(key, True)
    controller.analysis.run()
    assert "Renamed" not in controller.result.corpus.system_names
    controller.hide_system(key, False)
    controller.analysis.run()
    assert "Renamed" in controller.result.corpus.system_names
    assert extracted == []


def test_a_new_project_lets_go_of_the_statistics(make):  # noqa: F811
    controller, _, _, _ = make(synchronous=True)
    load_demo(controller)
    assert len(controller.analysis.statistics_cache) > 0
    controller.new_project()
    assert len(controller.analysis.statistics_cache) == 0
