"""Robustness of the engine (issue 13): options checked before any thread starts, a failing
helper thread ends the run instead of hanging it, extreme scores never break the exact grid,
one rule for the confidence level, and empty texts noted."""

from __future__ import annotations

import argparse
import math
import threading
from dataclasses import replace

import numpy as np
import pytest

from mtgui.cli.eval_options import add_resampling_arguments, bootstrap_settings
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.corpus import Corpus, Origin, SegmentScores
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling import draws as bootstrap_module
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.draws import ResampleDraws, on_exact_grid
from mtgui.engine.resampling.settings import MAX_LEVEL, MAX_SEED, MIN_LEVEL, BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.io.session import check_settings
from mtgui.report.summary import summarize

SECOND = 1.0


@pytest.fixture(scope="module")
def demo() -> Corpus:
    return load_demo()


def _draw_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "mtgui-draw" and t.is_alive())


def _outcome_within(call, seconds: float = SECOND) -> BaseException | None:
    """Run ``call`` on a thread of its own; what it raised (None if it returned), or a test
    failure if it is still running after ``seconds`` (it would have hung)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)  # a hung one must not keep pytest alive
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still waiting after {seconds} s: it would hang")
    return outcome[0]


# -- item 8: seeds, and failing helper threads ----------------------------------------------


@pytest.mark.parametrize("seed", [-3, -1, MAX_SEED + 1, 2**64, 1.5, True, "7"])
def test_a_seed_numpy_cannot_take_is_refused_before_any_thread_starts(seed):
    before = _draw_threads()
    with pytest.raises(InputError, match=f"the seed must be a whole number from 0 to {MAX_SEED:,}"):
        BootstrapSettings(seed=seed)
    with pytest.raises(InputError, match="the seed must be a whole number"):
        ResampleDraws(seed, 100, 10)
    assert _draw_threads() == before


@pytest.mark.parametrize("seed", [0, 12345, MAX_SEED, np.uint32(MAX_SEED)])
def test_every_seed_of_the_documented_range_is_taken(seed):
    assert BootstrapSettings(seed=seed).seed == seed
    draws = ResampleDraws(seed, 100, 10)
    assert draws.take(100).shape == (100, 10)
    draws.close()


def test_a_generator_that_cannot_be_made_fails_at_once_with_no_thread_left(monkeypatch):
    # Once a hang: default_rng failed outside the helper's try, the thread died with a
    # traceback, and the consumer waited for counts forever. The generator is now made on the
    # caller's thread, before the helper starts: the error is raised there, at once.
    def refuse(seed: object) -> None:
        raise ValueError("expected non-negative integer")

    monkeypatch.setattr(bootstrap_module.np.random, "default_rng", refuse)
    before = _draw_threads()
    error = _outcome_within(lambda: ResampleDraws(3, 200, 10))
    assert isinstance(error, ValueError)
    assert _draw_threads() == before


def test_a_helper_that_fails_mid_way_ends_the_run_after_what_it_drew(monkeypatch):
    real = bootstrap_module.draw_compact_counts
    calls = []

    def fail_second(rng, resamples, units):
        calls.append(resamples)
        if len(calls) == 2:
            raise MemoryError("no room for the counts")
        return real(rng, resamples, units)

    monkeypatch.setattr(bootstrap_module, "draw_compact_counts", fail_second)
    draws = ResampleDraws(3, 5000, 10_000)  # 400 resamples a chunk
    first = draws.take(400)
    error = _outcome_within(lambda: draws.take(400))
    draws.close()
    assert first.shape == (400, 10_000)
    assert isinstance(error, MemoryError)


def test_a_helper_that_ends_without_a_word_ends_the_run(monkeypatch):
    monkeypatch.setattr(ResampleDraws, "_draw_all", lambda self: None)
    draws = ResampleDraws(3, 200, 10)
    error = _outcome_within(lambda: draws.take(100))
    draws.close()
    assert isinstance(error, RuntimeError)
    assert "ended without drawing them all" in str(error)


def test_taking_more_than_was_drawn_is_an_error_not_a_wait():
    draws = ResampleDraws(3, 150, 10)
    draws.take(150)
    error = _outcome_within(lambda: draws.take(1))
    draws.close()
    assert isinstance(error, RuntimeError)


def test_the_whole_analysis_fails_rather_than_hangs_when_drawing_fails(demo, monkeypatch):
    def refuse(seed: object) -> None:
        raise ValueError("no generator")

    monkeypatch.setattr(bootstrap_module.np.random, "default_rng", refuse)
    analysis = iter_analysis(demo, ("bleu",), MetricSettings(), BootstrapSettings(resamples=100))
    error = _outcome_within(lambda: run_to_end(analysis), seconds=10 * SECOND)
    assert isinstance(error, ValueError)
    assert _draw_threads() == 0


# -- item 16: extreme values on the exact grid ----------------------------------------------


@pytest.mark.parametrize(
    "column",
    [
        [1e308, 0.5, -1e308],  # n * max|x| overflows
        [5e-324, 0.0, 1.5e-323],  # subnormal: k > 1023, 2.0**k overflows
        [2.5e-310, 1e-300, 3.0],
        [np.nan, 0.5, 1.25],
        [np.inf, 0.5, 2.0],
        [np.nan, np.nan, np.nan],
    ],
)
def test_the_exact_grid_never_raises_and_keeps_extreme_values(column):
    values = np.array(column, dtype=np.float64)
    gridded = on_exact_grid(values.reshape(-1, 1).copy())[:, 0]
    finite, nan = np.isfinite(values), np.isnan(values)
    assert np.array_equal(np.isnan(gridded), nan)
    assert np.array_equal(gridded[~finite & ~nan], values[~finite & ~nan])
    largest = np.abs(values[finite]).max(initial=0.0)
    # Each value moves by at most half a step of the grid: 2^-k, n * max|x| * 2^k < 2^52.
    with np.errstate(over="ignore"):
        step = len(values) * largest * 2.0**-51
    assert np.all(np.abs(gridded[finite] - values[finite]) <= step)


def test_subnormal_values_stay_exactly_what_they_are():
    rows = np.array([[5e-324], [0.0], [1.5e-323], [1e-320]])
    assert np.array_equal(on_exact_grid(rows.copy()), rows)


def test_the_grid_is_what_it_was_for_ordinary_values():
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(500, 3)) * [1.0, 1e-3, 1e6]
    expected = rows.copy()
    for column in range(3):
        values = expected[:, column]
        k = 52 - int(np.ceil(np.log2(len(values) * np.abs(values).max()))) - 1
        expected[:, column] = np.round(values * 2.0**k) / 2.0**k
    assert np.array_equal(on_exact_grid(rows), expected)


def _with_human_scores(corpus: Corpus, value: float) -> Corpus:
    size = corpus.test_set.size
    origin = Origin("human.tsv", "scores", "utf-8")
    scores = tuple(
        SegmentScores(s.name, np.full(size, value * (k + 1)), np.ones(size, np.int64), origin)
        for k, s in enumerate(corpus.systems)
    )
    return replace(corpus, scores=scores)


@pytest.mark.parametrize("value", [5e-324, 1e-310, 1e12])
def test_human_scores_of_extreme_size_are_bootstrapped(demo, value):
    statistics = compute_statistics(_with_human_scores(demo, value), ("human",))
    settings = BootstrapSettings(resamples=100)
    result = run_to_end(iter_bootstrap(statistics, settings))
    for interval in result.intervals:
        assert math.isfinite(interval.score) and interval.score > 0
        assert math.isfinite(interval.ci_low) and math.isfinite(interval.ci_high)


# -- item 24 (a): one rule for the confidence level -----------------------------------------

LEVELS = [0.4999, MIN_LEVEL, 0.9, 0.95, 0.99, MAX_LEVEL, 0.9991, 0.99999, 1.0, 7.0, -0.95]


def _cli_takes(option: str, value: object) -> bool:
    """Whether the command line takes the option: checked even with --bootstrap 0 (before,
    any --ci and --seed went through unseen then)."""
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_resampling_arguments(parser)
    try:
        bootstrap_settings(parser.parse_args(["--bootstrap", "0", option, str(value)]))
    except (argparse.ArgumentError, InputError):
        return False
    return True


def _engine_takes(**settings: object) -> bool:
    try:
        BootstrapSettings(resamples=100_000, **settings)  # type: ignore[arg-type]
    except InputError:
        return False
    return True


def _session_takes(level: float) -> bool:
    try:
        check_settings({"level": level})
    except InputError:
        return False
    return True


@pytest.mark.parametrize("level", [*LEVELS, math.nan, math.inf])
def test_the_engine_the_command_line_and_sessions_take_the_same_levels(level):
    expected = MIN_LEVEL <= level <= MAX_LEVEL
    assert _engine_takes(level=level) is expected
    assert _cli_takes("--ci", level) is expected
    assert _session_takes(level) is expected


@pytest.mark.parametrize("seed", [-3, -1, 0, 12345, MAX_SEED, MAX_SEED + 1])
def test_the_engine_and_the_command_line_take_the_same_seeds(seed):
    expected = 0 <= seed <= MAX_SEED
    assert _engine_takes(seed=seed) is expected
    assert _cli_takes("--seed", seed) is expected


# -- item 21: texts that hold nothing -------------------------------------------------------


def _emptied(corpus: Corpus, references: bool = True, system: str | None = None) -> Corpus:
    test_set = corpus.test_set
    blank = ("",) * test_set.size
    if references:
        first = replace(test_set.references[0], texts=(" ",) * test_set.size)
        test_set = replace(test_set, references=(first, *test_set.references[1:]))
    systems = tuple(replace(s, hypotheses=blank) if s.name == system else s for s in corpus.systems)
    return replace(corpus, test_set=test_set, systems=systems)


def test_an_empty_reference_is_noted_by_name(demo):
    corpus = _emptied(demo)
    reference = corpus.test_set.references[0]
    text = summarize(corpus)
    note = next(line for line in text.splitlines() if "is empty" in line)
    assert f"The reference '{reference.name}' ({reference.origin.file_name}) is empty" in note
    assert "Every reference" not in text


def test_every_reference_empty_says_the_scores_mean_nothing(demo):
    one = replace(demo.test_set, references=demo.test_set.references[:1])
    corpus = _emptied(replace(demo, test_set=one))
    text = summarize(corpus)
    assert "Every reference is empty" in text
    assert "scores mean nothing" in text


def test_an_empty_system_output_is_noted_by_name(demo):
    name = demo.systems[1].name
    text = summarize(_emptied(demo, references=False, system=name))
    assert f"The system output '{name}'" in text
    assert "is empty" in text


def test_ordinary_texts_give_no_note(demo):
    assert "is empty" not in summarize(demo)
