"""The command line reads its options into one AnalysisSettings (mtgui.cli.settings), and the
engine's settings made from it are those the options always made."""

from __future__ import annotations

import pytest

from mtgui.cli.main import build_parser
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import bootstrap_settings, command_settings, metric_settings
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core import InputError

OPTIONS = [
    [],
    ["--bootstrap", "0"],
    ["-m", "bleu,chrf,ter", "-b", "300", "--seed", "5", "--ci", "0.9512", "--unit", "segment"],
    ["-tok", "intl", "-lc", "ascii", "--chrf-char-order", "4", "--chrf-beta", "3"],
    ["--smooth-method", "floor", "-sv", "0.2", "--ter-no-punct", "--nist-formula"],
    ["--paired-ar", "--holm", "--family", "all", "--interval", "bca", "--test", "t"],
    ["--paired-ar", "500", "--no-raise-resamples", "--correction", "maxt"],
    ["-m", "bleu,chrf", "--equivalence", "bleu=1", "--equivalence", "chrf=0.5", "--bleu-scale",
     "100", "--equivalence", "bleu=2"],
]  # fmt: skip


def parsed(options: list[str]):
    return build_parser("eval").parse_args(["eval", "--demo", *options])


@pytest.mark.parametrize("options", OPTIONS)
def test_the_engine_settings_made_from_the_one_object_are_those_the_options_make(options):
    args = parsed(options)
    metrics = metric_names(args)
    settings = command_settings(args, metrics)
    assert settings.analysis.metrics == metrics
    assert settings.metric_settings() == metric_settings(args)
    assert settings.bootstrap_settings() == bootstrap_settings(args, metrics)


def test_the_options_fill_the_one_settings_object():
    args = parsed(OPTIONS[2] + ["--paired-ar", "--correction", "fdr", "-tok", "intl"])
    settings = command_settings(args, metric_names(args))
    assert settings.analysis == AnalysisSettings(
        metrics=("bleu", "chrf", "ter"),
        resamples=300,
        seed=5,
        level=0.951,  # the object keeps three decimals ...
        unit="segment",
        randomization=True,
        correction="fdr",
        tokenizer="intl",
    )
    assert settings.level == 0.9512  # ... the bootstrap gets the level asked for
    bootstrap = settings.bootstrap_settings()
    assert bootstrap is not None and bootstrap.level == 0.9512


def test_equivalence_margins_are_kept_on_the_engines_scale():
    args = parsed(OPTIONS[-1])
    settings = command_settings(args, metric_names(args))
    assert settings.analysis.equivalence == "bleu=0.02, chrf=0.5"
    assert settings.bleu_scale == 100
    bootstrap = settings.bootstrap_settings()
    assert bootstrap is not None and bootstrap.equivalence == (("bleu", 0.02), ("chrf", 0.5))


def test_without_the_bootstrap_there_is_no_resampling_but_the_seed_is_still_checked():
    args = parsed(["--bootstrap", "0"])
    assert command_settings(args, metric_names(args)).bootstrap_settings() is None
    args = parsed(["--bootstrap", "0", "--seed", "-1"])
    with pytest.raises(InputError, match="seed"):
        command_settings(args, metric_names(args))
