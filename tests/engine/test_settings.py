"""The one settings object: its defaults, every limit refused in words, one rule with the
engine and the command line, and the plain values sessions and preferences store."""

from __future__ import annotations

import argparse
import math
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from mtgui.cli.eval_options import (
    DEFAULTS,
    add_eval_arguments,
    add_resampling_arguments,
    bootstrap_settings,
    metric_settings,
)
from mtgui.engine.analysis_settings import SACREBLEU_SETTINGS, AnalysisSettings, describe_value
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.significance import Correction
from mtgui.engine.metrics import DEFAULT_METRICS, METRIC_NAMES
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import (
    AR_TRIALS,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_LEVEL,
    MIN_RESAMPLES,
    BootstrapSettings,
    Unit,
    check_level,
    check_resamples,
    check_seed,
)
from mtgui.engine.text.settings import DEFAULT_TOKENIZER, Case

CHANGED = AnalysisSettings(
    metrics=("chrf", "bleu"),
    resamples=500,
    level=0.9,
    seed=MAX_SEED,
    unit=Unit.DOCUMENT,
    randomization=True,
    correction=Correction.FDR,
    tokenizer="intl",
    case=Case.ASCII,
)


def test_the_defaults_are_the_engine_s():
    settings = AnalysisSettings()
    assert settings.metrics == DEFAULT_METRICS
    assert (settings.resamples, settings.level, settings.seed) == (
        DEFAULT_RESAMPLES,
        DEFAULT_LEVEL,
        DEFAULT_SEED,
    )
    assert (settings.unit, settings.randomization, settings.correction) == (
        Unit.AUTO,
        False,
        Correction.NONE,
    )
    assert (settings.tokenizer, settings.case) == (DEFAULT_TOKENIZER, Case.SENSITIVE)
    assert settings.bootstrap_settings() == BootstrapSettings()
    assert settings.metric_settings() == MetricSettings()


def test_plain_values_in_the_order_sessions_store_them():
    assert AnalysisSettings().to_dict() == {
        "metrics": ["bleu", "nist", "mbleu"],
        "resamples": 2000,
        "level": 0.95,
        "seed": 12345,
        "unit": "auto",
        "randomization": False,
        "correction": "none",
        "family": "metric",
        "equivalence": "",
        "test": "bootstrap",
        "interval": "auto",
        "tokenizer": "13a",
        "case": "sensitive",
        "chrf_char_order": 6,
        "chrf_word_order": 0,
        "chrf_beta": 2,
    }
    written = [f.name for f in fields(AnalysisSettings) if f.name not in SACREBLEU_SETTINGS]
    assert list(AnalysisSettings().to_dict()) == written
    plain = CHANGED.to_dict()
    assert all(type(value) in (list, int, float, bool, str) for value in plain.values())
    assert AnalysisSettings().to_dict() is not AnalysisSettings().to_dict()


SACREBLEU_CHANGED = {
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


def test_sacrebleu_options_are_written_only_when_not_their_default():
    """A session or the preferences without them stay as mtgui wrote them before."""
    assert set(SACREBLEU_CHANGED) == set(SACREBLEU_SETTINGS)
    changed = AnalysisSettings(**SACREBLEU_CHANGED)
    plain = changed.to_dict()
    assert {key: plain[key] for key in SACREBLEU_SETTINGS} == SACREBLEU_CHANGED  # type: ignore[literal-required]
    assert AnalysisSettings.from_mapping(plain) == changed
    assert changed.metric_settings() == MetricSettings(**SACREBLEU_CHANGED)
    one = AnalysisSettings(bleu_smooth_method="exp").to_dict()
    assert [key for key in one if key in SACREBLEU_SETTINGS] == ["bleu_smooth_method"]


def test_the_engine_settings_it_makes():
    assert CHANGED.bootstrap_settings() == BootstrapSettings(
        resamples=500,
        level=0.9,
        seed=MAX_SEED,
        unit=Unit.DOCUMENT,
        ar_trials=AR_TRIALS,
        correction=Correction.FDR,
    )
    assert CHANGED.metric_settings() == MetricSettings("intl", Case.ASCII)


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("resamples", MIN_RESAMPLES - 1, "a whole number from 100 to 100,000, not the number 99."),
        ("resamples", MAX_RESAMPLES + 1, "a whole number from 100 to 100,000, not the number"),
        ("resamples", 2000.0, "a whole number from 100 to 100,000, not the number 2000.0."),
        ("resamples", True, "a whole number from 100 to 100,000, not true/false."),
        ("level", 0.4999, "a number from 0.5 to 0.999 (0.95 means 95% intervals), not the number"),
        ("level", 0.9991, "a number from 0.5 to 0.999"),
        ("level", math.nan, "a number from 0.5 to 0.999"),
        ("level", math.inf, "a number from 0.5 to 0.999"),
        ("level", "0.95", "a number from 0.5 to 0.999 (0.95 means 95% intervals), not the text"),
        ("seed", -1, "a whole number from 0 to 4,294,967,295, not the number -1."),
        ("seed", MAX_SEED + 1, "a whole number from 0 to 4,294,967,295, not the number 4294967296"),
        ("seed", 1.5, "a whole number from 0 to 4,294,967,295, not the number 1.5."),
        ("seed", None, "a whole number from 0 to 4,294,967,295, not null."),
        ("unit", "word", 'one of "auto", "segment", "document", not the text "word".'),
        ("randomization", 1, "true or false, not the number 1."),
        (
            "correction",
            "bonferroni",
            'one of "none", "holm", "fdr", "maxt", not the text "bonferroni".',
        ),
        ("tokenizer", "moses", 'one of "13a", "intl", "zh", "char", "none", "ja-mecab", "ko-'),
        ("case", "upper", 'one of "sensitive", "full", "ascii", not the text "upper".'),
        ("bleu_smooth_method", "add-one", 'one of "mteval", "exp", "floor", "add-k", "none", not'),
        ("bleu_smooth_value", -0.1, "a number from 0 to 1000, or null (the method's default), not"),
        ("bleu_smooth_value", "0.1", "a number from 0 to 1000, or null"),
        ("bleu_max_order", 0, "a whole number from 1 to 10, not the number 0."),
        ("bleu_max_order", 11, "a whole number from 1 to 10, not the number 11."),
        ("chrf_whitespace", 1, "true or false, not the number 1."),
        ("ter_case_sensitive", "yes", 'true or false, not the text "yes".'),
        ("metrics", ["bleu", "no metric"], "a list of metric names from bleu, nist, mbleu, chrf"),
        (
            "metrics",
            "bleu",
            "a list of metric names from bleu, nist, mbleu, chrf, chrf++, ter, wer, human,",
        ),
    ],
)
def test_every_limit_is_refused_in_words(key, value, expected):
    with pytest.raises(InputError) as made:
        AnalysisSettings(**{key: value})
    assert f'the setting "{key}" should be {expected}' in made.value.message
    with pytest.raises(InputError) as read:
        AnalysisSettings.from_mapping({key: value}, path=Path("s.mtgui.json"))
    assert read.value.message == f"s.mtgui.json: {made.value.message}"
    assert AnalysisSettings.from_mapping({key: value}, strict=False) == AnalysisSettings()


@pytest.mark.parametrize(
    "changes",
    [
        {"resamples": MIN_RESAMPLES},
        {"resamples": MAX_RESAMPLES},
        {"level": MIN_LEVEL},
        {"level": MAX_LEVEL},
        {"seed": 0},
        {"seed": MAX_SEED},
        {"metrics": []},
        {"metrics": list(METRIC_NAMES)},
    ],
)
def test_the_limits_themselves_are_taken(changes):
    settings = AnalysisSettings.from_mapping(changes)
    for key, value in changes.items():
        assert getattr(settings, key) == (tuple(value) if key == "metrics" else value)


@pytest.mark.parametrize(
    ("rule", "key", "values"),
    [
        (check_resamples, "resamples", [-1, 99, 100, 2000, 100_000, 100_001, 2000.0, True, "9"]),
        (check_level, "level", [0.4999, 0.5, 0.9, 0.999, 0.9991, 1, math.nan, True, "0.9"]),
        (check_seed, "seed", [-1, 0, 7, 2**31 - 1, 2**31, MAX_SEED, MAX_SEED + 1, 1.0, True]),
    ],
)
def test_one_rule_for_the_settings_object_and_the_engine(rule, key, values):
    for value in values:
        try:
            rule(value)
            engine_takes = True
        except InputError:
            engine_takes = False
        try:
            AnalysisSettings.from_mapping({key: value})
            settings_take = True
        except InputError:
            settings_take = False
        assert settings_take is engine_takes, (key, value)


@pytest.mark.parametrize("seed", [0, 2**31 - 1, 2**31, MAX_SEED, MAX_SEED + 1])
def test_the_command_line_takes_the_seeds_the_settings_take(seed):
    parser = argparse.ArgumentParser()
    add_resampling_arguments(parser)
    args = parser.parse_args(["--seed", str(seed)])
    try:
        bootstrap_settings(args)
        cli_takes = True
    except InputError:
        cli_takes = False
    assert cli_takes is (seed <= MAX_SEED)
    if cli_takes:
        assert AnalysisSettings(seed=seed).bootstrap_settings().seed == seed


def test_the_command_line_s_defaults_are_the_settings_object_s():
    parser = argparse.ArgumentParser()
    add_eval_arguments(parser)
    args = parser.parse_args([])
    assert AnalysisSettings() == DEFAULTS
    assert args.metrics == ",".join(DEFAULTS.metrics)
    assert bootstrap_settings(args) == DEFAULTS.bootstrap_settings()
    assert metric_settings(args) == DEFAULTS.metric_settings()
    randomized = bootstrap_settings(parser.parse_args(["--paired-ar"]))
    assert randomized == AnalysisSettings(randomization=True).bootstrap_settings()


def test_from_mapping_defaults_ignores_and_reads_mtgui_0_1():
    assert AnalysisSettings.from_mapping({}) == AnalysisSettings()
    assert AnalysisSettings.from_mapping({"colour": "blue"}) == AnalysisSettings()
    assert AnalysisSettings.from_mapping({"holm": True}).correction is Correction.HOLM
    assert AnalysisSettings.from_mapping({"holm": True, "correction": "fdr"}).correction == "fdr"
    assert AnalysisSettings.from_mapping({"level": 0.95123}).level == 0.951
    assert AnalysisSettings.from_mapping({"metrics": ["ter", "bleu", "ter"]}).metrics == (
        "ter",
        "bleu",
    )
    lenient = AnalysisSettings.from_mapping({"seed": 9, "resamples": "many"}, strict=False)
    assert lenient == AnalysisSettings(seed=9)
    with pytest.raises(InputError, match=r'"settings" should be an object, not a list\.'):
        AnalysisSettings.from_mapping([])
    assert AnalysisSettings.from_mapping("x", strict=False) == AnalysisSettings()


def test_round_trip_through_plain_values():
    for settings in (AnalysisSettings(), CHANGED):
        assert AnalysisSettings.from_mapping(settings.to_dict()) == settings
        assert AnalysisSettings(**settings.to_dict()) == settings  # type: ignore[arg-type]
    assert AnalysisSettings(seed=np.uint32(MAX_SEED)).seed == MAX_SEED


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (None, "null"),
        (False, "true/false"),
        (3, "the number 3"),
        (0.5, "the number 0.5"),
        ("x", 'the text "x"'),
        ([1], "a list"),
        ({"a": 1}, "an object"),
    ],
)
def test_values_are_described_in_words(value, words):
    assert describe_value(value) == words


def test_equivalence_margins_are_checked_and_kept_for_the_metrics_chosen():
    settings = AnalysisSettings(metrics=("bleu",), equivalence="bleu=0.01 chrf=0.5")
    assert settings.equivalence == "bleu=0.01, chrf=0.5"
    assert settings.bootstrap_settings().equivalence == (("bleu", 0.01),)
    for bad in ("bleu", "bleu=0", "bleu=-1", "BLEU!=1", 3):
        with pytest.raises(InputError, match=r'margins written as "bleu=0\.01, chrf=0\.5"'):
            AnalysisSettings(equivalence=bad)  # type: ignore[arg-type]


def test_the_interval_and_the_deciding_test_are_kept_and_checked():
    kept = AnalysisSettings.from_mapping({"interval": "bca", "test": "t"})
    assert (kept.interval, kept.test) == ("bca", "t")
    assert kept.bootstrap_settings().interval == "bca" and kept.bootstrap_settings().test == "t"
    with pytest.raises(InputError, match='the setting "interval" should be one of "auto"'):
        AnalysisSettings.from_mapping({"interval": "jackknife"})
    with pytest.raises(InputError, match='the setting "test" should be one of "bootstrap"'):
        AnalysisSettings.from_mapping({"test": "sign"})
