"""Statistics kept between runs: what is reused, what is extracted again, and that the results
are exactly those of a run from scratch."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from mtgui.engine.analysis import AnalysisResult, iter_analysis
from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import METRIC_NAMES, REGISTRY
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.cache import (
    _ALL_SETTINGS,
    SETTINGS_READ,
    RowsKey,
    StatisticsCache,
    TextsKey,
)
from mtgui.engine.statistics.rows import compute_statistics, iter_statistics
from mtgui.engine.text.settings import Case
from mtgui.io.demo import load_demo

BOOTSTRAP = BootstrapSettings(resamples=200)
AUTOMATIC = tuple(name for name in METRIC_NAMES if name != "human")
OTHER_VALUE = {  # a value other than the default for every MetricSettings field
    "tokenize": "intl",
    "case": Case.FULL,
    "nist_zero_quirk": False,
    "chrf_char_order": 4,
    "chrf_word_order": 1,
    "chrf_beta": 1,
    "bleu_smooth_method": "floor",
    "bleu_smooth_value": 0.5,
    "bleu_max_order": 6,
    "bleu_effective_order": True,
    "chrf_whitespace": True,
    "chrf_eps_smoothing": True,
    "ter_normalized": True,
    "ter_no_punct": True,
    "ter_asian_support": True,
    "ter_case_sensitive": True,
    "empty_refs": "empty",
}


@pytest.fixture(scope="module")
def demo() -> Corpus:
    return load_demo()


@pytest.fixture
def extracted(monkeypatch) -> list[tuple[str, str]]:
    """Every (metric, system) extraction, counted at each metric class's ``iter_extract``."""
    calls: list[tuple[str, str]] = []
    for name in AUTOMATIC:
        cls = type(REGISTRY[name].factory(load_demo().test_set, None))
        original = cls.iter_extract

        def counted(self, context, system, original=original, cls=cls):
            if type(self) is cls:
                calls.append((self.name, system.name))
            return (yield from original(self, context, system))

        monkeypatch.setattr(cls, "iter_extract", counted)
    return calls


def analyse(
    corpus: Corpus,
    metrics=("bleu", "nist", "mbleu"),
    settings: MetricSettings | None = None,
    bootstrap: BootstrapSettings = BOOTSTRAP,
    cache: StatisticsCache | None = None,
) -> AnalysisResult:
    return run_to_end(
        iter_analysis(corpus, metrics, settings or MetricSettings(), bootstrap, cache=cache)
    )


def assert_same(a: AnalysisResult, b: AnalysisResult) -> None:
    """Bit for bit: rows, intervals (with every resample's score), pairs, rankings, signature."""
    assert a.statistics.signature() == b.statistics.signature()
    assert a.bootstrap.signature == b.bootstrap.signature
    for x, y in zip(a.statistics.systems, b.statistics.systems, strict=True):
        assert x.system == y.system and list(x.rows) == list(y.rows)
        for metric in x.rows:
            np.testing.assert_array_equal(x.rows[metric], y.rows[metric])
    for x, y in zip(a.bootstrap.intervals, b.bootstrap.intervals, strict=True):
        np.testing.assert_array_equal(x.samples, y.samples)
        assert replace(x, samples=None) == replace(y, samples=None)
    assert a.bootstrap.pairs == b.bootstrap.pairs
    assert a.bootstrap.rankings == b.bootstrap.rankings


def test_a_seed_change_extracts_nothing_and_gives_the_fresh_result(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, cache=cache)
    first = len(extracted)
    assert first == 3 * len(demo.systems)
    assert (cache.hits, cache.misses) == (0, 3 * len(demo.systems))
    for bootstrap in (
        replace(BOOTSTRAP, seed=7),
        replace(BOOTSTRAP, resamples=300),
        replace(BOOTSTRAP, level=0.9, correction="holm"),
        replace(BOOTSTRAP, unit="segment"),
    ):
        again = analyse(demo, bootstrap=bootstrap, cache=cache)
        assert len(extracted) == first
        assert_same(again, analyse(demo, bootstrap=bootstrap))
        del extracted[first:]  # the fresh run's
    assert cache.hits == 4 * 3 * len(demo.systems)


def test_a_metric_added_extracts_only_it(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, ("bleu", "nist"), cache=cache)
    extracted.clear()
    result = analyse(demo, ("bleu", "chrf", "nist", "mbleu"), cache=cache)
    added = {"chrf", "mbleu"}  # M-BLEU takes the BLEU rows kept: no BLEU extraction
    assert sorted(extracted) == sorted((m, s.name) for m in added for s in demo.systems)
    assert_same(result, analyse(demo, ("bleu", "chrf", "nist", "mbleu")))


def test_m_bleu_added_takes_the_bleu_rows_kept(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, ("bleu",), cache=cache)
    extracted.clear()
    analyse(demo, ("bleu", "mbleu"), cache=cache)
    assert {name for name, _ in extracted} == {"mbleu"}  # BLEU is not extracted again for it


def test_a_tokenizer_change_extracts_the_metrics_that_tokenize_again(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, ("bleu", "chrf"), cache=cache)
    extracted.clear()
    settings = MetricSettings(tokenize="intl")
    result = analyse(demo, ("bleu", "chrf"), settings, cache=cache)
    assert sorted(extracted) == sorted(("bleu", s.name) for s in demo.systems)
    assert_same(result, analyse(demo, ("bleu", "chrf"), settings))


@pytest.mark.parametrize(
    "option",
    [
        "case",
        "chrf_beta",
        "nist_zero_quirk",
        "bleu_max_order",
        "bleu_smooth_method",
        "chrf_whitespace",
        "ter_case_sensitive",
    ],
)
def test_a_metric_option_change_extracts_the_metrics_that_read_it(demo, extracted, option):
    cache = StatisticsCache()
    metrics = ("bleu", "nist", "chrf", "ter")
    analyse(demo, metrics, cache=cache)
    extracted.clear()
    settings = MetricSettings(**{option: OTHER_VALUE[option]})
    result = analyse(demo, metrics, settings, cache=cache)
    again = {name for name, _ in extracted}
    assert again == {m for m in metrics if option in SETTINGS_READ[m]}
    assert_same(result, analyse(demo, metrics, settings))


def test_a_renamed_system_reuses_its_rows(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, cache=cache)
    extracted.clear()
    old = demo.systems[0].name
    renamed = demo.with_system_renamed(old, "Renamed")
    result = analyse(renamed, cache=cache)
    assert extracted == []
    assert "Renamed" in result.statistics.system_names
    assert_same(result, analyse(renamed))


def test_equal_texts_in_new_tuples_are_found(demo, extracted):
    """The workspace aligns files by document into new tuples at every run: same texts, found."""
    cache = StatisticsCache()
    analyse(demo, cache=cache)
    extracted.clear()
    copied = replace(
        demo,
        systems=tuple(replace(s, hypotheses=tuple(list(s.hypotheses))) for s in demo.systems),
    )
    analyse(copied, cache=cache)
    assert extracted == []


def test_other_references_extract_everything_again(demo, extracted):
    cache = StatisticsCache()
    analyse(demo, cache=cache)
    extracted.clear()
    one_reference = replace(
        demo, test_set=replace(demo.test_set, references=demo.test_set.references[:1])
    )
    result = analyse(one_reference, cache=cache)
    assert len(extracted) == 3 * len(demo.systems)
    assert_same(result, analyse(one_reference))


def test_a_cancelled_run_keeps_the_systems_it_finished(demo, extracted):
    cache = StatisticsCache()
    run = iter_statistics(demo, ("bleu",), cache=cache)
    for progress in run:
        if progress.done == 2:
            break
    run.close()
    assert len(cache) == 2
    extracted.clear()
    compute = iter_statistics(demo, ("bleu",), cache=cache)
    run_to_end(compute)
    assert [system for _, system in extracted] == [s.name for s in demo.systems[2:]]


@pytest.mark.parametrize("metric", sorted(SETTINGS_READ))
def test_the_settings_a_metric_does_not_read_leave_its_rows_as_they_are(demo, metric):
    """What makes :data:`SETTINGS_READ` safe: a metric reading a setting not listed fails here."""
    assert set(OTHER_VALUE) == set(_ALL_SETTINGS), "give every setting another value above"
    base = compute_statistics(demo, (metric,))
    for option in set(_ALL_SETTINGS) - set(SETTINGS_READ[metric]):
        other = compute_statistics(demo, (metric,), MetricSettings(**{option: OTHER_VALUE[option]}))
        for name in demo.system_names:
            np.testing.assert_array_equal(base.rows(name, metric), other.rows(name, metric))


def test_every_metric_of_the_registry_says_what_it_reads():
    assert set(SETTINGS_READ) == set(AUTOMATIC)


def test_the_rows_of_earlier_runs_stay_within_the_budget(demo):
    cache = StatisticsCache(budget=0)
    analyse(demo, ("bleu",), cache=cache)
    assert len(cache) == len(demo.systems)  # the latest run's rows are kept whatever the budget
    analyse(demo, ("bleu",), MetricSettings(tokenize="intl"), cache=cache)
    assert len(cache) == len(demo.systems)  # the earlier settings' rows went
    size = cache.nbytes
    roomy = StatisticsCache(budget=size)
    analyse(demo, ("bleu",), cache=roomy)
    analyse(demo, ("bleu",), MetricSettings(tokenize="intl"), cache=roomy)
    assert len(roomy) == 2 * len(demo.systems)  # both fit
    roomy.clear()
    assert len(roomy) == 0 and roomy.nbytes == 0


def test_loaded_scores_are_not_kept(demo):
    from mtgui.engine.metrics.external import external_metric
    from mtgui.engine.statistics.cache import rows_key

    key = rows_key((), TextsKey(("a",)), external_metric("comet")(), MetricSettings())
    assert key is None


def test_texts_keys_compare_by_content():
    a, b = TextsKey(("x", "y")), TextsKey(tuple(["x", "y"]))
    assert a == b and hash(a) == hash(b) and a != TextsKey(("x", "z"))
    assert RowsKey((a,), b, "bleu", ()) == RowsKey((b,), a, "bleu", ())


def test_threads_sharing_the_cache_get_the_same_rows(demo):
    """Two runs at once (a cancelled one finishing its step while the next starts)."""
    cache = StatisticsCache()
    results: list[object] = []

    def work() -> None:
        results.append(run_to_end(iter_statistics(demo, ("bleu", "nist"), cache=cache)))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    fresh = compute_statistics(demo, ("bleu", "nist"))
    for statistics in results:
        for name in demo.system_names:
            for metric in ("bleu", "nist"):
                np.testing.assert_array_equal(
                    statistics.rows(name, metric), fresh.rows(name, metric)
                )


def test_only_systems_with_rows_to_extract_are_tokenized_ahead(demo, monkeypatch):
    from mtgui.engine.metrics.extraction import ExtractionContext

    asked: list[list[str]] = []
    original = ExtractionContext.prefetch

    def recorded(self, systems):
        asked.append([system.name for system in systems])
        return original(self, systems)

    monkeypatch.setattr(ExtractionContext, "prefetch", recorded)
    cache = StatisticsCache()
    analyse(demo, cache=cache)
    assert asked[-1] == list(demo.system_names)  # nothing kept yet: every system
    analyse(demo, cache=cache, bootstrap=replace(BOOTSTRAP, seed=BOOTSTRAP.seed + 1))
    assert asked[-1] == []  # a new seed: every row is kept, nothing to tokenize
    analyse(demo, metrics=("bleu", "nist", "mbleu", "wer"), cache=cache)
    assert asked[-1] == list(demo.system_names)  # WER is still to extract for every system
