"""The options as settings: the command line's Namespace read once, into the one settings object.

:func:`command_settings` checks the options that say how to score and resample, in the
engine's own words and in the order they always were (the engine's constructors check them),
and makes one :class:`~mtgui.engine.analysis_settings.AnalysisSettings` of them: the settings
object of the window's panel, of sessions and of the preferences. :class:`CommandSettings`
holds it with the little the command line offers beyond it (``--bootstrap 0``, ``--ci`` with
more than three decimals, ``--paired-ar R``, ``--no-raise-resamples``, ``--nist-formula``,
``--bleu-scale``), and makes the engine's :class:`MetricSettings` and
:class:`BootstrapSettings` from it. The commands pass it on instead of the Namespace.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from mtgui.engine.analysis_settings import (
    SACREBLEU_SETTINGS,
    AnalysisSettings,
    SettingsDict,
    parse_margins,
)
from mtgui.engine.core import InputError
from mtgui.engine.inference import Correction, DecidingTest, Family, IntervalMethod
from mtgui.engine.metrics import MetricSettings, chrf_options
from mtgui.engine.resampling import BootstrapSettings, Unit, check_level, check_seed
from mtgui.engine.text import SPM_TOKENIZERS, Case, ensure_spm_model

DEFAULTS = AnalysisSettings()
"""The options' defaults: those of the one settings object, as in a fresh window."""


@dataclass(frozen=True)
class CommandSettings:
    """The settings of one command: the one :class:`AnalysisSettings`, and what the command
    line offers beyond it."""

    analysis: AnalysisSettings
    bootstrap: bool = True  # False with --bootstrap 0: scores only
    level: float = DEFAULTS.level  # --ci as given (the settings object keeps three decimals)
    ar_trials: int = 0  # --paired-ar R (the settings object says only whether: R > 0)
    raise_resamples: bool = True  # False with --no-raise-resamples
    nist_formula: bool = False  # NIST without mteval-v13a's quirk (--nist-formula)
    bleu_scale: int = 1  # BLEU and M-BLEU on 0-1 (1) or 0-100 (100)

    def metric_settings(self) -> MetricSettings:
        """The scoring settings, as the metrics take them."""
        settings = self.analysis
        return MetricSettings(
            settings.tokenizer,
            settings.case,
            nist_zero_quirk=not self.nist_formula,
            chrf_char_order=settings.chrf_char_order,
            chrf_word_order=settings.chrf_word_order,
            chrf_beta=settings.chrf_beta,
            **settings.sacrebleu_options(),
        )

    def bootstrap_settings(self) -> BootstrapSettings | None:
        """The resampling, as the bootstrap takes it; None with ``--bootstrap 0``."""
        if not self.bootstrap:
            return None
        settings = self.analysis
        return BootstrapSettings(
            resamples=settings.resamples,
            level=self.level,
            seed=settings.seed,
            unit=settings.unit,
            ar_trials=self.ar_trials,
            correction=settings.correction,
            family=settings.family,
            raise_resamples=self.raise_resamples,
            equivalence=tuple(parse_margins(settings.equivalence)),
            test=settings.test,
            interval=settings.interval,
        )

    def state(self) -> SettingsDict:
        """The settings object as plain values (as a session stores it)."""
        return self.analysis.to_dict()


def command_settings(args: argparse.Namespace, metrics: tuple[str, ...]) -> CommandSettings:
    """The settings the options ask for, ``metrics`` evaluated (``--metrics`` and the named
    ``--scores``, as :func:`~mtgui.cli.score_specs.metric_names` reads them). Options a command
    does not have keep their defaults.

    Raises
    ------
    InputError
        If a scoring option, the seed, the level, the number of resamples or an equivalence
        margin is out of range, in the engine's words, before anything is read or any thread
        is started.
    """
    scoring = metric_settings(args)
    resampling = bootstrap_settings(args, metrics)
    margins = () if resampling is None else resampling.equivalence
    analysis = AnalysisSettings(
        metrics=metrics,
        resamples=DEFAULTS.resamples if resampling is None else resampling.resamples,
        level=args.ci,
        seed=args.seed,
        unit=Unit(args.unit),
        randomization=getattr(args, "paired_ar", 0) > 0,
        correction=Correction(getattr(args, "correction", DEFAULTS.correction)),
        family=Family(getattr(args, "family", Family.METRIC)),
        equivalence=", ".join(f"{metric}={margin!r}" for metric, margin in margins),
        test=DecidingTest(getattr(args, "test", DEFAULTS.test)),
        interval=IntervalMethod(getattr(args, "interval", DEFAULTS.interval)),
        tokenizer=scoring.tokenize,
        case=scoring.case,
        chrf_char_order=scoring.chrf_char_order,
        chrf_word_order=scoring.chrf_word_order,
        chrf_beta=scoring.chrf_beta,
        **{name: getattr(scoring, name) for name in SACREBLEU_SETTINGS},
    )
    return CommandSettings(
        analysis,
        bootstrap=resampling is not None,
        level=args.ci,
        ar_trials=getattr(args, "paired_ar", 0),
        raise_resamples=getattr(args, "raise_resamples", True),
        nist_formula=args.nist_formula,
        bleu_scale=getattr(args, "bleu_scale", 1),
    )


def metric_settings(args: argparse.Namespace) -> MetricSettings:
    """The scoring settings the options ask for, checked by the engine's own rules (what
    :func:`command_settings` checks first)."""
    case = DEFAULTS.case if args.lowercase is None else Case(args.lowercase)
    chrf = {
        f"chrf_{o}": getattr(args, f"chrf_{o}", getattr(DEFAULTS, f"chrf_{o}"))
        for o in chrf_options.LIMITS
    }
    sacrebleu = {name: getattr(args, name, getattr(DEFAULTS, name)) for name in SACREBLEU_SETTINGS}
    settings = MetricSettings(
        args.tokenize, case, nist_zero_quirk=not args.nist_formula, **chrf, **sacrebleu
    )
    if settings.tokenize in SPM_TOKENIZERS:
        ensure_spm_model(settings.tokenize)  # found or downloaded before anything is read
    return settings


def bootstrap_settings(
    args: argparse.Namespace, metrics: tuple[str, ...] | None = None
) -> BootstrapSettings | None:
    """The resampling the options ask for, checked by the engine's own rules (one rule for
    the engine, the command line and sessions; what :func:`command_settings` checks first);
    None with --bootstrap 0. The seed and the level are checked even then. ``metrics`` are
    those evaluated, for ``--equivalence`` (by default those the options name)."""
    check_seed(args.seed)
    check_level(args.ci)
    resamples = getattr(args, "bootstrap", DEFAULTS.resamples)
    if resamples == 0:
        return None
    return BootstrapSettings(
        resamples=resamples,
        level=args.ci,
        seed=args.seed,
        unit=Unit(args.unit),
        ar_trials=getattr(args, "paired_ar", 0),
        correction=Correction(getattr(args, "correction", DEFAULTS.correction)),
        family=Family(getattr(args, "family", Family.METRIC)),
        raise_resamples=getattr(args, "raise_resamples", True),
        equivalence=_equivalence_margins(args, metrics),
        test=DecidingTest(getattr(args, "test", DEFAULTS.test)),
        interval=IntervalMethod(getattr(args, "interval", DEFAULTS.interval)),
    )


def _equivalence_margins(
    args: argparse.Namespace, metrics: tuple[str, ...] | None
) -> tuple[tuple[str, float], ...]:
    """The ``--equivalence METRIC=MARGIN`` options as (metric, margin) on the engine's scale
    (a BLEU or M-BLEU margin given on the 0-100 scale of ``--bleu-scale 100`` is divided by
    100); a clear error for a malformed one or a metric not among ``metrics``."""
    specs = getattr(args, "equivalence", [])
    if not specs:
        return ()
    from mtgui.cli.score_specs import metric_names
    from mtgui.engine.scale import SCALED_METRICS

    if metrics is None:
        metrics = metric_names(args)
    margins = []
    for spec in specs:
        metric, _, text = spec.partition("=")
        try:
            margin = float(text)
        except ValueError:
            margin = float("nan")
        if not metric or not 0 < margin < float("inf"):
            raise InputError(
                f"--equivalence {spec}: write METRIC=MARGIN with a positive margin.",
                hint="For example --equivalence bleu=0.01 (one BLEU point on the 0-1 scale).",
            )
        if metric not in metrics:
            raise InputError(f"--equivalence {spec}: {metric} is not among the metrics evaluated.")
        if metric in SCALED_METRICS and getattr(args, "bleu_scale", 1) == 100:
            margin /= 100
        margins.append((metric, margin))
    return tuple(dict(margins).items())
