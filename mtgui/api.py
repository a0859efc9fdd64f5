"""The Python API: :func:`evaluate` and :func:`read`, for notebooks and scripts.

A thin face over the engine that ``mtgui eval`` and the window drive: the same readers
(:mod:`mtgui.io`), the same analysis (:func:`~mtgui.engine.analysis.iter_analysis`) and the same
report (:func:`~mtgui.report.evaluation.evaluation_report`), so that
``mtgui.evaluate(...).to_json()`` is what ``mtgui eval --json`` writes for the same inputs and
settings. One argument order throughout: systems first, then the metric
(``score(system, metric)``, ``interval(system, metric)``, ``compare(x, y, metric)``).

Everything here is re-exported by :mod:`mtgui`; import it from there::

    import mtgui
    result = mtgui.evaluate(["ref.de.txt"], {"A": "a.de.txt", "B": "b.de.txt"})
    result.compare("A", "B", "bleu").verdict
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import get_close_matches
from enum import StrEnum
from functools import cached_property
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core import Corpus, InputError, Origin, Role
from mtgui.engine.inference import (
    TIE,
    Correction,
    PairComparison,
    Ranking,
    ScoreInterval,
    rank,
)
from mtgui.engine.metrics import DEFAULT_METRICS, METRIC_NAMES, MetricSettings
from mtgui.engine.resampling import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    BootstrapResult,
    BootstrapSettings,
    Unit,
)
from mtgui.engine.scale import SCALES, on_scale, scaled_statistics
from mtgui.engine.statistics import Statistics, iter_statistics
from mtgui.engine.text import DEFAULT_TOKENIZER, Case
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.plaintext import line_numbers
from mtgui.io.streams import LoadedFile, TextStream
from mtgui.io.writers import json_text
from mtgui.report.evaluation import evaluation_report

__all__ = ["Comparison", "Evaluation", "Progress", "evaluate", "read"]

Texts = str | PathLike[str] | Sequence[str]
"""A file (its path) or the segments themselves, one string per segment."""

Progress = Callable[[str, int, int], None]
"""Called as work goes on with the phase ("scoring", then "bootstrap"), the steps done and the
steps in all."""

SCORING_OPTIONS: dict[str, str] = {
    "smooth_method": "bleu_smooth_method",
    "smooth_value": "bleu_smooth_value",
    "bleu_max_order": "bleu_max_order",
    "bleu_effective_order": "bleu_effective_order",
    "chrf_char_order": "chrf_char_order",
    "chrf_word_order": "chrf_word_order",
    "chrf_beta": "chrf_beta",
    "chrf_whitespace": "chrf_whitespace",
    "chrf_eps_smoothing": "chrf_eps_smoothing",
    "ter_normalized": "ter_normalized",
    "ter_no_punct": "ter_no_punct",
    "ter_asian_support": "ter_asian_support",
    "ter_case_sensitive": "ter_case_sensitive",
    "empty_refs": "empty_refs",
}
"""The scoring options :func:`evaluate` takes beyond its named parameters, by the command
line's names (``--smooth-method`` is ``smooth_method``), and the
:class:`~mtgui.engine.metrics.MetricSettings` field each sets."""

Choice = TypeVar("Choice", bound=StrEnum)
Done = TypeVar("Done")

IN_MEMORY = "list"
"""The format named for segments given as a list of strings rather than read from a file."""


@dataclass(frozen=True)
class Comparison:
    """How system ``x`` compares with system ``y`` under one metric.

    ``delta`` is x's score minus y's on the whole test set; ``interval`` the bootstrap interval
    of that difference at the run's level; ``p_value`` the two-sided paired bootstrap p-value
    (the corrected one when a correction was asked for); ``verdict`` is ``">"`` (x is
    significantly better), ``"<"`` (significantly worse) or ``"~"`` (not shown to differ, which
    is not the same as equal). ``details`` is the engine's full record of the pair.
    """

    x: str
    y: str
    metric: str
    delta: float
    interval: tuple[float, float]
    p_value: float
    verdict: str
    win_fraction: float
    details: PairComparison


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`: scores, intervals, comparisons and rankings.

    ``corpus``, ``statistics`` and ``bootstrap`` are the engine's own objects, for anything
    the methods below do not cover. An evaluation with ``resamples=0`` has no bootstrap
    (``bootstrap`` is None): its scores, report and rankings by score are there, and what
    needs the bootstrap (intervals, comparisons, the grid) raises :class:`InputError` saying so.
    """

    corpus: Corpus
    statistics: Statistics
    bootstrap: BootstrapResult | None

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems' names, in the order they were given."""
        return self.statistics.system_names

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics scored, in the order asked for."""
        return tuple(metric.name for metric in self.statistics.metrics)

    def score(self, system: str, metric: str) -> float:
        """``system``'s score under ``metric`` on the whole test set."""
        self._check(metric, system)
        return self.statistics.score(system, metric)

    def interval(self, system: str, metric: str) -> tuple[float, float]:
        """The bootstrap confidence interval of ``system``'s score, (low, high)."""
        found = self.summary(system, metric)
        return (found.ci_low, found.ci_high)

    def summary(self, system: str, metric: str) -> ScoreInterval:
        """Everything the bootstrap says of one score: median, mean, std, RSD and intervals."""
        self._check(metric, system)
        return self._bootstrapped("intervals").interval(system, metric)

    def compare(self, x: str, y: str, metric: str) -> Comparison:
        """How ``x`` compares with ``y`` under ``metric`` (see :class:`Comparison`)."""
        self._check(metric, x, y)
        if x == y:
            raise InputError(f"'{x}' compared with itself: name two different systems.")
        bootstrap = self._bootstrapped("comparisons")
        pair = bootstrap.pair(metric, x, y)
        return Comparison(
            x=x,
            y=y,
            metric=metric,
            delta=pair.delta,
            interval=(pair.ci_low, pair.ci_high),
            p_value=_deciding_p_value(pair, bootstrap.settings.correction),
            verdict=pair.verdict,
            win_fraction=pair.win_fraction,
            details=pair,
        )

    def grid(self, metric: str) -> dict[str, dict[str, str]]:
        """The verdicts of every pair: ``grid(metric)[x][y]`` is x's verdict against y, the
        systems best first, ``""`` on the diagonal."""
        self._check(metric)
        order, rows = self._bootstrapped("verdicts").grid(metric)
        return {x: dict(zip(order, row, strict=True)) for x, row in zip(order, rows, strict=True)}

    def ranking(self, metric: str) -> Ranking:
        """The systems best first, each with its rank range and cluster. Without the bootstrap
        (``resamples=0``) no difference is tested: the systems are in the order of their
        scores, each with the rank range 1 to n, all in one cluster."""
        self._check(metric)
        if self.bootstrap is not None:
            return self.bootstrap.ranking(metric)
        scores = {system: self.statistics.score(system, metric) for system in self.systems}
        higher = self.statistics.metric(metric).higher_is_better
        return rank(metric, scores, higher, lambda x, y: TIE)  # none tested

    @cached_property
    def report(self) -> dict[str, Any]:
        """The JSON report as Python data (what :meth:`to_json` writes)."""
        return evaluation_report(self.corpus, self.statistics, self.bootstrap)

    def to_json(self) -> str:
        """The report as ``mtgui eval --json`` writes it for the same inputs and settings."""
        return json_text(self.report)

    def _bootstrapped(self, what: str) -> BootstrapResult:
        """The bootstrap, or an :class:`InputError` saying that ``what`` needs one."""
        if self.bootstrap is None:
            raise InputError(
                f"this evaluation has no bootstrap (resamples=0), so it has no {what}: only "
                "scores and rankings by score.",
                hint=f"Evaluate with resamples={DEFAULT_RESAMPLES} (or from {MIN_RESAMPLES} to "
                f"{MAX_RESAMPLES:,}) for intervals, comparisons and verdicts.",
            )
        return self.bootstrap

    def _check(self, metric: str, *systems: str) -> None:
        """Refuse in words a metric or system this evaluation does not have."""
        if metric not in self.metrics:
            raise InputError(
                f"'{metric}' is not among the metrics of this evaluation "
                f"({', '.join(self.metrics)})."
            )
        for system in systems:
            if system not in self.systems:
                raise InputError(
                    f"'{system}' is not among the systems of this evaluation "
                    f"({', '.join(self.systems)})."
                )


def _deciding_p_value(pair: PairComparison, correction: Correction) -> float:
    """The p-value the verdict follows: the corrected one (Holm's, FDR's or max-T's) under a
    correction."""
    corrected = pair.p_corrected if correction is not Correction.NONE else None
    return pair.p_value if corrected is None else corrected


def read(
    references: Sequence[Texts],
    systems: Mapping[str, Texts] | Sequence[str | PathLike[str]],
    *,
    source: Texts | None = None,
    encoding: str = "auto",
) -> Corpus:
    """Read and align the inputs of an evaluation, as ``mtgui eval`` does.

    Parameters
    ----------
    references
        One entry per reference: a file (plain text, NIST/WMT SGML or WMT XML) or the
        segments as a list of strings.
    systems
        A mapping of system names to a file or a list of segments; or a list of files, named
        as ``mtgui eval --hyp`` names them (from the file's ``sysid`` or its name).
    source
        The source text (optional), a file or a list of segments.
    encoding
        The encoding of files without a byte-order mark (``"auto"``: UTF-8).

    Raises
    ------
    InputError
        A file that cannot be read or does not fit the others, in the words the command line
        uses (its ``str()`` names the file, the line and what is wrong).
    """
    if isinstance(references, str | PathLike):
        references = [references]  # one reference file given bare
    files = []
    if source is not None:
        files.append(_loaded(source, Role.SOURCE, "source", encoding))
    files += [
        _loaded(ref, Role.REFERENCE, f"ref{i + 1}", encoding) for i, ref in enumerate(references)
    ]
    if isinstance(systems, Mapping):
        named = [
            (name, _loaded(texts, Role.SYSTEM, name, encoding)) for name, texts in systems.items()
        ]
        files += [_named(file, name) for name, file in named]
    else:
        for path in systems:
            _refuse_segments_as_files(path, "systems", '{"A": ["segment 1", "segment 2"]}')
        files += [load_file(Path(path), {Role.SYSTEM}, encoding) for path in systems]
    corpus = assemble(files)
    if not corpus.systems:
        raise InputError("the systems given hold no system output.")
    return corpus


def evaluate(
    references: Sequence[Texts] | Corpus,
    systems: Mapping[str, Texts] | Sequence[str | PathLike[str]] = (),
    *,
    source: Texts | None = None,
    metrics: Sequence[str] = DEFAULT_METRICS,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    level: float = DEFAULT_LEVEL,
    unit: str = Unit.AUTO.value,
    correction: str = Correction.NONE.value,
    paired_ar: int = 0,
    tokenize: str = DEFAULT_TOKENIZER,
    lowercase: str | None = None,
    nist_formula: bool = False,
    bleu_scale: int = 1,
    encoding: str = "auto",
    progress: Progress | None = None,
    **options: Any,
) -> Evaluation:
    """Score every system, bootstrap the test set and compare every pair, as ``mtgui eval``.

    Parameters
    ----------
    references, systems, source, encoding
        What to read (see :func:`read`); or a :class:`~mtgui.engine.core.corpus.Corpus` that
        :func:`read` made, in place of ``references`` (``systems`` and ``source`` then unused).
    metrics
        The metrics' names (``mtgui eval --metrics``), a list or one comma-separated string
        (``"bleu,chrf"``); by default BLEU, NIST and M-BLEU.
    resamples, seed, level, unit, correction, paired_ar
        The bootstrap's settings, with the command line's names and defaults (``--bootstrap``,
        ``--seed``, ``--ci``, ``--unit``, ``--holm``/``--fdr``, ``--paired-ar``);
        ``resamples=0`` scores without the bootstrap, as ``--bootstrap 0`` (see
        :class:`Evaluation`).
    tokenize, lowercase, nist_formula, bleu_scale
        The scoring settings (``--tokenize``, ``--lowercase full|ascii``, ``--nist-formula``,
        ``--bleu-scale 1|100``).
    options
        sacreBLEU's other options and ``empty_refs``, by the command line's names
        (:data:`SCORING_OPTIONS`: ``smooth_method="exp"`` is ``--smooth-method exp``,
        ``ter_normalized=True`` is ``--ter-normalized``), with its defaults.
    progress
        Called with the phase, the steps done and the steps in all as the work goes on.

    Raises
    ------
    InputError
        A bad input or setting, in the words the command line uses.
    """
    corpus = (
        references
        if isinstance(references, Corpus)
        else read(references, systems, source=source, encoding=encoding)
    )
    if isinstance(metrics, str):
        metrics = [name.strip() for name in metrics.split(",")]  # as --metrics bleu,chrf
    unknown = [
        name
        for name in metrics
        if name not in METRIC_NAMES and name not in corpus.external_metrics()
    ]
    if unknown:
        raise InputError(
            f"'{unknown[0]}' is not a metric mtgui knows.",
            hint="Choose from: " + ", ".join(METRIC_NAMES) + ".",
        )
    case = Case.SENSITIVE if lowercase is None else _chosen(Case, lowercase, "lowercase")
    if bleu_scale not in SCALES:
        raise InputError(f"bleu_scale must be 1 or 100, not {bleu_scale!r}.")
    scoring = MetricSettings(tokenize, case, not nist_formula, **_scoring_fields(options))
    if isinstance(resamples, int) and not isinstance(resamples, bool) and resamples == 0:
        _chosen(Unit, unit, "unit")  # refused in words even where unused, as always
        _chosen(Correction, correction, "correction")
        statistics = _drained(iter_statistics(corpus, tuple(metrics), scoring), progress)
        statistics = scaled_statistics(statistics) if bleu_scale == 100 else statistics
        return Evaluation(corpus, statistics, None)  # scores only, as mtgui eval --bootstrap 0
    resampling = BootstrapSettings(
        resamples=resamples,
        level=level,
        seed=seed,
        unit=_chosen(Unit, unit, "unit"),
        ar_trials=paired_ar,
        correction=_chosen(Correction, correction, "correction"),
    )
    run = iter_analysis(corpus, tuple(metrics), scoring, resampling)
    result = on_scale(_drained(run, progress), bleu_scale)
    return Evaluation(corpus, result.statistics, result.bootstrap)


def _chosen(kind: type[Choice], value: str, setting: str) -> Choice:
    """``value`` as one of ``kind``'s values, or an :class:`InputError` naming the setting and
    the values it takes (an enum's own ValueError would reach the user as a traceback)."""
    try:
        return kind(value)
    except ValueError:
        allowed = [
            str(choice) for choice in kind if not (kind is Case and choice is Case.SENSITIVE)
        ]
        raise InputError(f"{setting} must be one of {', '.join(allowed)}, not {value!r}.") from None


def _scoring_fields(options: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`MetricSettings` fields of ``evaluate``'s other options, or an
    :class:`InputError` naming one it does not know (and the name it may have meant)."""
    for name in options:
        if name not in SCORING_OPTIONS:
            near = get_close_matches(name, [*SCORING_OPTIONS, *_NAMED], n=1)
            raise InputError(
                f"'{name}' is not an option of evaluate()"
                + (f"; did you mean '{near[0]}'?" if near else "."),
                hint="Its scoring options: " + ", ".join(SCORING_OPTIONS) + ".",
            )
    return {SCORING_OPTIONS[name]: value for name, value in options.items()}


_NAMED = ("tokenize", "lowercase", "nist_formula", "bleu_scale", "metrics", "resamples", "seed")


def _drained(run: Generator[Any, None, Done], progress: Progress | None) -> Done:
    """Run the analysis (or the scoring alone) to its end, telling ``progress`` of every
    step."""
    while True:
        try:
            step = next(run)
        except StopIteration as finished:
            result: Done = finished.value
            return result
        if progress is not None:
            progress(getattr(step, "phase", "scoring"), step.done, step.total)


def _loaded(texts: Texts, role: Role, name: str, encoding: str) -> LoadedFile:
    """A file read in ``role``, or segments given as strings made into one."""
    if isinstance(texts, str | PathLike):
        if role is Role.REFERENCE:
            _refuse_segments_as_files(texts, "references", '[["segment 1", "segment 2"]]')
        return load_file(Path(texts), {role}, encoding)
    segments = tuple(texts)
    if not all(isinstance(segment, str) for segment in segments):
        raise InputError(f"the segments of {name} must be strings, one per segment.")
    if not segments:
        raise InputError(f"{name} has no segments.")
    origin = Origin(f"<{name}>", IN_MEMORY, "utf-8")
    numbers, seg_ids = line_numbers(len(segments))
    stream = TextStream(role, None, None, seg_ids, segments, numbers, origin)
    return LoadedFile(origin, (stream,))


def _refuse_segments_as_files(texts: str | PathLike[str], what: str, example: str) -> None:
    """Refuse a string that names no file in words that show the likeliest mistake: segments
    given where a list of files (or of segment lists) was expected, ``["seg 1", "seg 2"]`` for
    ``[["seg 1", "seg 2"]]``, which would otherwise read as file names."""
    if isinstance(texts, str) and not os.path.exists(texts):  # False for a NUL, too
        raise InputError(
            "there is no such file.",
            path=texts,
            hint=f"The {what} are files, or lists of segments given as {example}.",
        )


def _named(file: LoadedFile, name: str) -> LoadedFile:
    """A system's file with its one output called ``name``."""
    if len(file.streams) != 1:
        raise InputError(
            f"this file holds {len(file.streams)} system outputs; name one file per system.",
            path=file.origin.path,
        )
    return replace(file, streams=(replace(file.streams[0], name=name),))
