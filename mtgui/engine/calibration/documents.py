"""Does the bootstrap mean what it says? Coverage and false positives on known truths.

Koehn (2004, section 7) validated the bootstrap by drawing many small test sets from a large
pool whose true score is known: a calibrated 95% interval holds the truth in 95% of them. This
module does that for mtgui's intervals and p-values, on synthetic BLEU statistics built
directly (no text), so that thousands of test sets take minutes:

- pools: :func:`independent_pool` (segments independent of each other; its documents are mere
  runs of segments) and :func:`correlated_pool`, whose documents share a difficulty, a typical
  sentence length and a quality difference of the two systems, so that sentences of one
  document are alike (Koehn's warning). Its default effects make document intervals about 1.5
  times as wide as segment ones for a score and 1.2 times for a difference, as on the shared
  WMT data (WMT14 en-de 1.47 and 1.07, WMT21 is-en 1.62 and 1.28);
- test sets: ``documents`` whole documents drawn without replacement from the pool;
- truths: system A's BLEU on the whole pool, and B's advantage over it;
- the exchangeable null: the same two outputs with their rows swapped by a fair coin, once per
  segment or once per document, so that neither system is better and any significant
  difference is a false positive.

Each test set is bootstrapped by :func:`~mtgui.engine.resampling.bootstrap.iter_bootstrap`, as a
user's would be, once per resampling unit, and :class:`Calibration` records per test set what the
run said. Used by ``tests/engine/calibration/test_calibration.py`` (small) and
``bench/bench_calibration.py`` (large).
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np

from mtgui.engine.core.arrays import BoolArray, FloatArray, IntArray
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import TIE, is_significant
from mtgui.engine.metrics.bleu.bleu import ORDER, Bleu
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import BootstrapResult, iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import Statistics, SystemStatistics

DOCUMENT_SIZE = 10  # segments per synthetic document
SWAPS = (Unit.SEGMENT, Unit.DOCUMENT)  # what one coin flip of the null swaps; columns below
NULL_PAIRS = (("B|segment", "A|segment"), ("B|document", "A|document"))
_SYSTEMS = ("A", "B", *(name for pair in NULL_PAIRS for name in reversed(pair)))


@dataclass(frozen=True)
class DocumentEffects:
    """How alike the segments of one document are (standard deviations).

    ``difficulty`` and ``segment`` split a segment's difficulty, on the logit scale, into the
    document's share and its own; ``length`` is the spread of the documents' mean reference
    lengths, in words; ``quality`` the spread of system B's advantage from document to document.
    """

    difficulty: float = 0.3
    segment: float = 0.6
    length: float = 6.0
    quality: float = 0.06


@dataclass(frozen=True)
class Pool:
    """BLEU statistics rows of systems A and B on a pool of equal-sized documents, in order."""

    rows_a: FloatArray
    rows_b: FloatArray
    document_size: int

    @property
    def documents(self) -> int:
        """How many documents the pool holds."""
        return len(self.rows_a) // self.document_size

    def true_scores(self) -> tuple[float, float]:
        """A's and B's BLEU on the whole pool: the truths the intervals should hold."""
        bleu = Bleu()
        return bleu.score_one(self.rows_a.sum(axis=0)), bleu.score_one(self.rows_b.sum(axis=0))


def synthetic_pool(size: int, better_by: float, seed: int) -> tuple[FloatArray, FloatArray]:
    """BLEU statistics rows of two systems on ``size`` independent segments; B's precisions
    are higher.

    Segments differ in length and difficulty (shared by both systems, as real test sets do);
    each n-gram order matches with a probability that falls with n.
    """
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(4, 4, size)
    ref_len = rng.integers(8, 40, size)
    boost = np.full(size, better_by)
    return _system(rng, difficulty, ref_len, 0 * boost), _system(rng, difficulty, ref_len, boost)


def independent_pool(
    documents: int, better_by: float, seed: int, document_size: int = DOCUMENT_SIZE
) -> Pool:
    """:func:`synthetic_pool` cut into documents that are mere runs of independent segments."""
    rows_a, rows_b = synthetic_pool(documents * document_size, better_by, seed)
    return Pool(rows_a, rows_b, document_size)


def correlated_pool(
    documents: int,
    better_by: float,
    seed: int,
    effects: DocumentEffects | None = None,
    document_size: int = DOCUMENT_SIZE,
) -> Pool:
    """Two systems on documents whose segments share a difficulty, a typical length and B's
    advantage (see :class:`DocumentEffects`)."""
    effects = effects or DocumentEffects()
    rng = np.random.default_rng(seed)
    size = documents * document_size
    of = np.repeat(np.arange(documents), document_size)  # each segment's document
    logit = rng.normal(0, effects.difficulty, documents)[of] + rng.normal(0, effects.segment, size)
    difficulty = 1 / (1 + np.exp(-logit))
    mean_length = rng.normal(24, effects.length, documents)[of]
    ref_len = np.clip(np.round(mean_length + rng.normal(0, 6, size)), 4, 60).astype(np.int64)
    advantage = better_by + rng.normal(0, effects.quality, documents)[of]
    rows_a = _system(rng, difficulty, ref_len, np.zeros(size))
    return Pool(rows_a, _system(rng, difficulty, ref_len, advantage), document_size)


def _system(
    rng: np.random.Generator, difficulty: FloatArray, ref_len: IntArray, boost: FloatArray
) -> FloatArray:
    """One system's rows: lengths near the reference's, matches falling with the order."""
    hyp_len = np.maximum(1, ref_len + rng.integers(-3, 4, len(ref_len)))
    totals = np.maximum(hyp_len[:, None] - np.arange(ORDER)[None, :], 0)
    powers = difficulty[:, None] ** (1 + np.arange(ORDER))
    matches = rng.binomial(totals, np.clip((0.75 + boost[:, None]) * powers, 0, 1))
    return np.column_stack([hyp_len, ref_len, matches, totals]).astype(np.float64)


@dataclass(frozen=True)
class Share:
    """A Monte Carlo estimate of a probability: ``hits`` out of ``trials``."""

    hits: int
    trials: int

    @property
    def value(self) -> float:
        """The estimate."""
        return self.hits / self.trials

    @property
    def standard_error(self) -> float:
        """Its binomial standard error, at the estimate."""
        return standard_error(self.value, self.trials)

    def deviation(self, nominal: float) -> float:
        """How far the estimate is from ``nominal``, in standard errors of a run whose true
        probability is ``nominal``."""
        return (self.value - nominal) / standard_error(nominal, self.trials)


def standard_error(probability: float, trials: int) -> float:
    """The binomial standard error of a share of ``trials`` with this probability."""
    return math.sqrt(probability * (1 - probability) / trials)


@dataclass(frozen=True)
class Calibration:
    """What the bootstrap said on each of many test sets, with one resampling unit.

    Arrays have one row per test set; ``p_value``, ``p_value_sacrebleu`` and ``significant``
    (the verdict is not ``~``) have one column per null in :data:`SWAPS` (coins flipped per
    segment, per document). ``consistent`` is whether, for every pair of systems in the run,
    the verdict was ``~`` exactly when the p-value was not significant and the interval held 0.
    """

    unit: Unit
    documents: int
    document_size: int
    level: float
    true_score: float
    true_delta: float
    score_covered: BoolArray
    delta_covered: BoolArray
    score_width: FloatArray
    delta_width: FloatArray
    p_value: FloatArray
    p_value_sacrebleu: FloatArray
    significant: BoolArray
    consistent: BoolArray

    @property
    def test_sets(self) -> int:
        """How many test sets were bootstrapped."""
        return len(self.score_covered)

    def score_coverage(self) -> Share:
        """How often the interval of A's BLEU held its pool value."""
        return Share(int(self.score_covered.sum()), self.test_sets)

    def delta_coverage(self) -> Share:
        """How often the interval of B - A held the pool's difference."""
        return Share(int(self.delta_covered.sum()), self.test_sets)

    def false_positives(self, swap: Unit = Unit.SEGMENT, of: str = "p_value") -> Share:
        """How often the null pair was called different: ``of`` is ``"p_value"`` or
        ``"p_value_sacrebleu"`` (below alpha = 1 - level) or ``"verdict"`` (not ``~``)."""
        column = SWAPS.index(swap)
        if of == "verdict":
            hits = self.significant[:, column]
        elif of in ("p_value", "p_value_sacrebleu"):
            values = getattr(self, of)[:, column]
            hits = np.array([is_significant(p, self.level) for p in values], dtype=bool)
        else:
            raise ValueError(f"no false positives of {of!r}")
        return Share(int(hits.sum()), self.test_sets)

    def mean_p_value(self, swap: Unit = Unit.SEGMENT) -> tuple[float, float]:
        """The mean p-value under a null (a uniform p-value has mean 1/2) and its standard
        error."""
        values = self.p_value[:, SWAPS.index(swap)]
        return float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values)))


def merge(parts: Sequence[Calibration]) -> Calibration:
    """Parts measured on consecutive ranges of test sets, as one (in the order given)."""
    first = parts[0]
    arrays = {
        name: np.concatenate([getattr(part, name) for part in parts])
        for name in (
            "score_covered",
            "delta_covered",
            "score_width",
            "delta_width",
            "p_value",
            "p_value_sacrebleu",
            "significant",
            "consistent",
        )
    }
    return replace(first, **arrays)  # type: ignore[arg-type]


def iter_calibration(
    pool: Pool,
    documents: int,
    test_sets: range,
    settings: BootstrapSettings,
    seed: int,
    units: Sequence[Unit] = (Unit.SEGMENT, Unit.DOCUMENT),
) -> Generator[int, None, dict[Unit, Calibration]]:
    """Bootstrap the test sets numbered ``test_sets`` (of ``documents`` documents each) once per
    unit, yielding how many are done, and return what each unit's runs said.

    Test set i depends only on ``seed`` and i, so ranges measured apart (in other processes)
    and merged in order give the same result as one run. ``settings.unit`` and
    ``settings.seed`` are replaced: by each unit, and by a seed drawn for the test set.
    """
    truths = pool.true_scores()
    truth = (truths[0], truths[1] - truths[0])
    local_documents = np.repeat(np.arange(documents), pool.document_size)
    outcomes: dict[Unit, list[tuple[float, ...]]] = {unit: [] for unit in units}
    for done, index in enumerate(test_sets, start=1):
        rng = np.random.default_rng([seed, index])
        statistics = _test_set(pool, documents, rng)
        bootstrap_seed = int(rng.integers(2**31))
        for unit in units:
            unit_settings = replace(settings, unit=unit, seed=bootstrap_seed)
            result = run_to_end(iter_bootstrap(statistics, unit_settings, local_documents))
            outcomes[unit].append(_outcome(result, truth, settings.level))
        yield done
    return {
        unit: _calibration(unit, documents, pool.document_size, settings.level, truth, rows)
        for unit, rows in outcomes.items()
    }


def _test_set(pool: Pool, documents: int, rng: np.random.Generator) -> Statistics:
    """``documents`` whole documents of the pool, as A and B and as the two null pairs."""
    size = pool.document_size
    chosen = rng.choice(pool.documents, size=documents, replace=False)
    segments = (chosen[:, None] * size + np.arange(size)[None, :]).ravel()
    rows_a, rows_b = pool.rows_a[segments], pool.rows_b[segments]
    by_segment = rng.random(len(segments)) < 0.5
    by_document = np.repeat(rng.random(documents) < 0.5, size)
    rows = [rows_a, rows_b]
    for flip in (by_segment, by_document):
        rows += [np.where(flip[:, None], rows_b, rows_a), np.where(flip[:, None], rows_a, rows_b)]
    systems = (
        SystemStatistics(name, MappingProxyType({"bleu": r}))
        for name, r in zip(_SYSTEMS, rows, strict=True)
    )
    return Statistics(MetricSettings(), (Bleu(),), tuple(systems))


def _outcome(
    result: BootstrapResult, truth: tuple[float, float], level: float
) -> tuple[float, ...]:
    """One test set's row: coverage, widths, the nulls' p-values and verdicts, consistency."""
    interval = result.interval("A", "bleu")
    pair = result.pair("bleu", "B", "A")
    nulls = [result.pair("bleu", x, y) for x, y in NULL_PAIRS]
    return (
        interval.ci_low <= truth[0] <= interval.ci_high,
        pair.ci_low <= truth[1] <= pair.ci_high,
        interval.ci_high - interval.ci_low,
        pair.ci_high - pair.ci_low,
        *(null.p_value for null in nulls),
        *(null.p_value_sacrebleu for null in nulls),
        *(null.verdict != TIE for null in nulls),
        all(_consistent(p.verdict, p.p_value, p.ci_low, p.ci_high, level) for p in result.pairs),
    )


def _consistent(verdict: str, p_value: float, low: float, high: float, level: float) -> bool:
    """The verdict is ``~`` exactly when the p-value is not below alpha and the interval
    holds 0 (significance.py's rule)."""
    tie = verdict == TIE
    return tie == (not is_significant(p_value, level)) == (low <= 0 <= high)


def _calibration(
    unit: Unit,
    documents: int,
    document_size: int,
    level: float,
    truth: tuple[float, float],
    rows: list[tuple[float, ...]],
) -> Calibration:
    """The outcomes of one unit's runs, as arrays."""
    table = np.array(rows, dtype=np.float64).reshape(len(rows), 11)
    return Calibration(
        unit,
        documents,
        document_size,
        level,
        truth[0],
        truth[1],
        score_covered=table[:, 0] == 1,
        delta_covered=table[:, 1] == 1,
        score_width=table[:, 2],
        delta_width=table[:, 3],
        p_value=table[:, 4:6],
        p_value_sacrebleu=table[:, 6:8],
        significant=table[:, 8:10] == 1,
        consistent=table[:, 10] == 1,
    )
