"""The command line does the window's work: ``mtgui eval`` runs the analysis pipeline
(``iter_analysis``), ``mtgui study`` the one study dispatcher, so both give the same numbers."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from study_runs import run

from mtgui.cli.main import main
from mtgui.engine import analysis
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.corpus import SegmentScores
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.statistics.system_helper import SystemHelper, can_fork
from mtgui.engine.studies.dispatch import (
    STUDY_NAMES,
    iter_study,
    iter_study_for,
    named_settings,
)
from mtgui.engine.studies.human.study import HumanStudy
from mtgui.engine.studies.refs.study import REFS_RESAMPLES, RefsSettings, RefsStudy
from mtgui.engine.studies.resamples.study import ResamplesSettings, ResamplesStudy
from mtgui.engine.studies.size.study import SIZE_RESAMPLES, SizeSettings, SizeStudy
from mtgui.io.demo import load_demo
from mtgui.io.writers import json_text
from mtgui.report.evaluation import evaluation_report
from mtgui.report.study_tables import study_data

METRICS = ("bleu", "nist", "ter")


def test_eval_reports_exactly_what_the_windows_analysis_computes(capsys):
    args = ["eval", "--demo", "-b", "200", "--metrics", ",".join(METRICS), "--json", "-"]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    corpus = load_demo()
    settings = BootstrapSettings(resamples=200)
    done = run_to_end(iter_analysis(corpus, METRICS, MetricSettings(), settings))
    expected = evaluation_report(corpus, done.statistics, done.bootstrap)
    assert printed == json.loads(json_text(expected))


@pytest.mark.parametrize("bootstrap", ["200", "0"])
def test_eval_lets_a_forked_helper_extract_and_reports_the_same(capsys, monkeypatch, bootstrap):
    """The command line (never the window) may fork a helper for the last systems
    (mtgui.engine.statistics.system_helper); its report is the window's analysis all the same."""
    if not can_fork():
        pytest.skip("the helper is forked only on Linux")
    started = []
    start = SystemHelper.start.__func__

    def spy(cls, *args):
        started.append(start(cls, *args))
        return started[-1]

    monkeypatch.setattr("mtgui.engine.statistics.rows._HELPER_FROM", 0)  # the demo is small
    monkeypatch.setattr(SystemHelper, "start", classmethod(spy))
    args = ["eval", "--demo", "-b", bootstrap, "--metrics", ",".join(METRICS), "--json", "-"]
    assert main(args) == 0
    assert len(started) == 1 and started[0] is not None
    printed = json.loads(capsys.readouterr().out)
    monkeypatch.undo()
    assert main(args) == 0
    assert printed == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("bootstrap", "calls"), [("200", 1), ("0", 0)])
def test_eval_bootstraps_through_the_analysis_pipeline(capsys, monkeypatch, bootstrap, calls):
    started = []

    def spy(*args, **kwargs):
        started.append(args)
        return iter_analysis(*args, **kwargs)

    monkeypatch.setattr("mtgui.cli.eval.iter_analysis", spy)
    assert main(["eval", "--demo", "-b", bootstrap]) == 0
    assert len(started) == calls
    assert "Scores (" in capsys.readouterr().out


def test_eval_without_the_bootstrap_starts_no_draws(capsys, monkeypatch):
    monkeypatch.setattr(analysis, "start_draws", lambda *a: pytest.fail("draws started"))
    assert main(["eval", "--demo", "-b", "0"]) == 0


def test_a_study_on_the_command_line_equals_the_windows(capsys):
    """The window's size study (its own B, K from the window) and the command line's with the
    same settings: one dispatcher, one result."""
    assert main(["study", "size", "--demo", "--repeats", "2", "--json", "-"]) == 0
    printed = json.loads(capsys.readouterr().out)["result"]
    corpus = load_demo()
    statistics = compute_statistics(corpus, ("bleu", "nist", "mbleu"))
    study = iter_study("size", corpus, statistics, MetricSettings(), BootstrapSettings(), 2)
    _, result = run(study)
    assert isinstance(result, SizeStudy)
    assert printed == json.loads(json_text(study_data(result)))


def test_the_window_names_a_study_and_gets_its_settings():
    bootstrap = BootstrapSettings(resamples=300, seed=7)
    size = named_settings("size", bootstrap, 5)
    assert size == SizeSettings(replace(bootstrap, resamples=SIZE_RESAMPLES), repeats=5)
    refs = named_settings("refs", bootstrap, 3)
    assert refs == RefsSettings(replace(bootstrap, resamples=REFS_RESAMPLES), repeats=3)
    assert named_settings("resamples", bootstrap, 5) == ResamplesSettings(bootstrap)
    assert named_settings("human", bootstrap, 5) is bootstrap
    assert STUDY_NAMES == ("size", "refs", "resamples", "human")
    with pytest.raises(ValueError, match="no study named 'sizes'"):
        named_settings("sizes", bootstrap, 5)


def test_the_dispatcher_starts_the_study_its_settings_are_for():
    corpus = load_demo()
    statistics = compute_statistics(corpus, ("bleu",))
    small = BootstrapSettings(resamples=100)
    cases = [
        (SizeSettings(small, fractions=(0.5, 1.0), repeats=2), SizeStudy),
        (ResamplesSettings(small, sizes=(100,), stability_sizes=(100,), runs=2), ResamplesStudy),
    ]
    for settings, kind in cases:
        snapshots, result = run(iter_study_for(settings, corpus, (), MetricSettings(), statistics))
        assert isinstance(result, kind)
        assert snapshots and all(isinstance(s.partial, kind) for s in snapshots)
        assert type(result.settings) is type(settings)


def test_the_references_study_extracts_its_own_statistics():
    corpus = load_demo()
    settings = RefsSettings(BootstrapSettings(resamples=100), fractions=(1.0,), repeats=1)
    _, result = run(iter_study_for(settings, corpus, ("bleu",), MetricSettings(), None))
    assert isinstance(result, RefsStudy)
    assert result.metrics == ("bleu",)


def test_the_other_studies_need_the_statistics():
    with pytest.raises(ValueError, match="ResamplesSettings starts from the statistics"):
        iter_study_for(ResamplesSettings(), load_demo(), ("bleu",), MetricSettings(), None)


def test_the_window_is_told_what_a_study_needs():
    corpus = load_demo()
    references = corpus.test_set.references
    corpus = replace(corpus, test_set=replace(corpus.test_set, references=references[:1]))
    statistics = compute_statistics(corpus, ("bleu",))
    window = (corpus, statistics, MetricSettings(), BootstrapSettings(), 2)
    with pytest.raises(InputError, match="at least two references"):
        iter_study("refs", *window)
    with pytest.raises(InputError, match="per-segment human scores and the Human metric"):
        iter_study("human", *window)


def test_the_human_study_is_dispatched_on_the_bootstrap_settings():
    corpus = load_demo()
    rng = np.random.default_rng(5)
    size = corpus.test_set.size
    origin = corpus.systems[0].origin
    scores = tuple(
        SegmentScores(s.name, rng.normal(level, 5, size), np.ones(size, np.int64), origin)
        for s, level in zip(corpus.systems, (80, 78, 60, 40), strict=True)
    )
    corpus = replace(corpus, scores=scores)
    statistics = compute_statistics(corpus, ("bleu", "human"))
    settings = BootstrapSettings(resamples=100)
    snapshots, result = run(iter_study_for(settings, corpus, (), MetricSettings(), statistics))
    assert isinstance(result, HumanStudy)
    assert all(isinstance(s.partial, HumanStudy) for s in snapshots)
    window = iter_study("human", corpus, statistics, MetricSettings(), settings, 2)
    assert study_data(run(window)[1]) == study_data(result)


@pytest.mark.parametrize(("keep_below", "kept"), [(96, True), (95, False)])
def test_eval_keeps_freed_memory_only_below_the_size_it_trims_from(
    monkeypatch, capsys, keep_below, kept
) -> None:
    """A run on a small test set keeps freed memory for reuse (no page faulted in twice); from
    the size where systems are trimmed after each other, it leaves the allocator alone."""
    import mtgui.cli.eval as eval_module

    calls: list[bool] = []
    monkeypatch.setattr(eval_module, "TRIM_FROM", keep_below)
    monkeypatch.setattr(eval_module, "keep_freed_memory", lambda: calls.append(True))
    assert main(["eval", "--demo", "--metrics", "bleu", "--bootstrap", "0"]) == 0  # 95 segments
    assert calls == ([True] if kept else [])
