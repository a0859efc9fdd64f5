"""Corrections that keep their power (max-T), intervals that agree with the corrected verdict,
B raised where a correction could reject nothing, the MDD and the equivalence test."""

from __future__ import annotations

import math
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import pytest
from scipy import stats

from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.corrections import (
    Family,
    FamilyInput,
    decide_family,
    family_size,
    few_units_note,
    normal_equivalent,
    resamples_needed,
    rounded_up,
    student_quantile,
)
from mtgui.engine.inference.power import equivalence, normal_quantile
from mtgui.engine.inference.significance import (
    EQUIVALENT,
    TIE,
    Correction,
    PairComparison,
    compare_all_defined,
    delta_bounds,
)
from mtgui.engine.metrics.external import external_metric
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics


def family_of(deltas: np.ndarray, observed: np.ndarray, margin: float | None = None) -> FamilyInput:
    """Pairs compared as the bootstrap compares them, from resampled deltas."""
    names = [(f"x{k}", f"y{k}") for k in range(len(deltas))]
    full = [(float(d), 0.0) for d in observed]
    pairs = compare_all_defined("m", names, full, deltas, 0.95, True)
    return FamilyInput(pairs, deltas, [True] * len(pairs), [margin] * len(pairs))


def random_family(seed: int, pairs: int = 12, resamples: int = 999) -> FamilyInput:
    rng = np.random.default_rng(seed)
    observed = rng.normal(0, 2.5, pairs) * rng.uniform(0.2, 1.5, pairs)
    se = rng.uniform(0.5, 1.5, pairs)
    deltas = observed[:, None] + se[:, None] * rng.standard_normal((pairs, resamples))
    return family_of(deltas, observed)


def holds_zero(pair: PairComparison) -> bool:
    return pair.ci_low <= 0 <= pair.ci_high


@pytest.mark.parametrize("correction", list(Correction))
@pytest.mark.parametrize("seed", range(12))
def test_the_interval_holds_zero_exactly_when_the_corrected_verdict_is_tie(correction, seed):
    family = random_family(seed)
    decided = decide_family(family, correction, 0.95, units=500)
    verdicts = {p.verdict for p in decided}
    for pair in decided:
        assert (pair.verdict == TIE) == holds_zero(pair), pair
        if correction is not Correction.NONE:
            assert pair.ci_low_uncorrected is not None
    assert verdicts  # the families mix found and not found pairs over the seeds


def test_holm_intervals_are_those_of_the_deciding_step():
    family = random_family(3)
    decided = decide_family(family, Correction.HOLM, 0.95, units=500)
    m = len(decided)
    order = sorted(range(m), key=lambda k: decided[k].p_value)
    for step, k in enumerate(order):
        pair = decided[k]
        if pair.verdict != TIE:
            assert pair.pair_alpha == pytest.approx(0.05 / (m - step))
            low, high = delta_bounds(family.deltas[k], 1 - 0.05 / (m - step))
            assert (pair.ci_low, pair.ci_high) == (low[0], high[0])


def westfall_young(deltas: np.ndarray, observed: np.ndarray, units: int) -> np.ndarray:
    """Alg. 4.1 of Westfall & Young (1993) written out step by step, as a reference; each
    observed |T| put on the normal scale by scipy's exact Student t with units - 1 degrees of
    freedom (the bootstrap's plug-in standard error is sqrt((n - 1) / n) of Student's)."""
    se = deltas.std(axis=1, ddof=1)
    t = np.abs(observed / se) * math.sqrt((units - 1) / units)
    t = stats.norm.isf(stats.t.sf(t, units - 1))
    null = np.abs((deltas - observed[:, None]) / se[:, None])
    order = np.argsort(-t)
    adjusted, running = np.empty(len(t)), 0.0
    for step, j in enumerate(order):
        rest = order[step:]
        q = null[rest].max(axis=0)
        p = (np.sum(q >= t[j]) + 1) / (deltas.shape[1] + 1)
        running = max(running, p)
        adjusted[j] = running
    return adjusted


@pytest.mark.parametrize(("seed", "units"), [(0, 500), (1, 500), (2, 40), (3, 20), (4, 12)])
def test_maxt_p_values_are_westfall_and_youngs_step_down(seed, units):
    family = random_family(seed)
    decided = decide_family(family, Correction.MAXT, 0.95, units=units)
    observed = np.array([p.delta for p in family.pairs])
    expected = westfall_young(family.deltas, observed, units)
    assert [p.p_maxt for p in decided] == pytest.approx(expected.tolist())
    for pair, p in zip(decided, expected, strict=True):
        assert (pair.verdict == TIE) == (p >= 0.05)


def test_maxt_intervals_are_never_wider_than_the_simultaneous_ones():
    family = random_family(7)
    decided = decide_family(family, Correction.MAXT, 0.95, units=500)
    se = family.deltas.std(axis=1, ddof=1)
    observed = np.array([p.delta for p in family.pairs])
    maximum = np.abs((family.deltas - observed[:, None]) / se[:, None]).max(axis=0)
    most = math.ceil(0.05 * (999 + 1)) - 2  # exceedances a rejection allows
    simultaneous = np.sort(maximum)[::-1][most]  # single-step max-T's critical value
    simultaneous = stats.t.isf(stats.norm.sf(simultaneous), 499) * math.sqrt(500 / 499)
    for pair, s in zip(decided, se, strict=True):
        assert pair.ci_high - pair.ci_low <= 2 * simultaneous * s * (1 + 1e-6) + 1e-12


def test_the_smallest_reachable_p_sets_the_resamples_a_correction_needs():
    assert resamples_needed(Correction.HOLM, 45, 0.95) == 1800  # 45 * 2 / 1801 < 0.05
    assert resamples_needed(Correction.FDR, 190, 0.95) == 7600
    assert resamples_needed(Correction.MAXT, 190, 0.95) == resamples_needed(
        Correction.NONE, 1, 0.95
    )
    assert 45 * Fraction(2, 1800 + 1) < Fraction(1, 20) <= 45 * Fraction(2, 1799 + 1)
    assert [rounded_up(b) for b in (120, 1000, 1800, 7600, 12001)] == [
        200,
        1000,
        2000,
        8000,
        13000,
    ]
    assert family_size(10, 3, Family.METRIC) == 45
    assert family_size(10, 3, Family.ALL) == 135


def test_b_is_raised_with_a_note_or_refused_in_words():
    asked = BootstrapSettings(resamples=1000, correction=Correction.HOLM)
    raised = asked.enough_for(systems=10, metrics=1)
    assert (raised.resamples, raised.raised_from) == (2000, 1000)
    (note,) = raised.raise_note(10, 1)
    assert "2,000 resamples instead of the 1,000" in note and "45 comparisons" in note
    assert BootstrapSettings(correction=Correction.MAXT).enough_for(20, 3).raised_from is None
    everything = BootstrapSettings(correction=Correction.HOLM, family=Family.ALL)
    assert everything.enough_for(10, 3).resamples == 6000  # 135 pairs: 5,400 needed
    with pytest.raises(InputError, match="can find no difference") as refused:
        BootstrapSettings(
            resamples=1000, correction=Correction.HOLM, raise_resamples=False
        ).enough_for(10, 1)
    assert "1,800" in refused.value.message
    with pytest.raises(InputError, match="can find no difference"):
        BootstrapSettings(correction=Correction.FDR).enough_for(200, 3)  # 19,900 pairs


def test_mdd_is_2_8_standard_errors_at_95_percent_and_units_needed_scale_as_one_over_root_n():
    family = random_family(1, pairs=3)
    decided = decide_family(family, Correction.NONE, 0.95, units=400)
    se = family.deltas.std(axis=1, ddof=1)
    factor = normal_quantile(0.975) + normal_quantile(0.8)
    assert factor == pytest.approx(2.8016, abs=1e-4)
    for pair, s in zip(decided, se, strict=True):
        assert pair.mdd == pytest.approx(factor * s)
        assert pair.units_needed == pytest.approx(400 * (factor * s / abs(pair.delta)) ** 2)


@pytest.mark.parametrize("margin", [0.5, 1.0, 2.0, 3.0])
def test_tost_is_the_1_minus_2_alpha_interval_inside_the_margin(margin):
    rng = np.random.default_rng(4)
    observed = rng.normal(0, 1, 20)
    deltas = observed[:, None] + 0.6 * rng.standard_normal((20, 999))
    decided = decide_family(family_of(deltas, observed, margin), Correction.NONE, 0.95, 999)
    low, high = delta_bounds(deltas, 0.9)
    for k, pair in enumerate(decided):
        inside = -margin < low[k] and high[k] < margin
        assert (pair.p_tost < 0.05) == inside
        assert (pair.verdict == EQUIVALENT) == (inside and pair.p_value >= 0.05)
        assert pair.p_tost == float(equivalence(deltas[k], margin))


def test_without_a_margin_no_pair_is_equivalent():
    decided = decide_family(random_family(2), Correction.NONE, 0.95, units=10)
    assert all(p.verdict != EQUIVALENT and p.p_tost is None for p in decided)


def test_a_mirrored_pair_keeps_its_uncorrected_interval_and_equivalence():
    (pair,) = decide_family(random_family(5, pairs=1), Correction.HOLM, 0.95, units=10)
    mirror = pair.mirrored()
    assert mirror.ci_low_uncorrected == -pair.ci_high_uncorrected
    back = mirror.mirrored()
    assert (back.ci_low_uncorrected, back.ci_high_uncorrected) == (
        pair.ci_low_uncorrected,
        pair.ci_high_uncorrected,
    )
    same = PairComparison("m", "a", "b", 0.0, -1, 1, 0.5, 0.0, 1.0, EQUIVALENT)
    assert same.mirrored().verdict == EQUIVALENT
    assert not math.isnan(pair.mdd or math.nan)


@pytest.mark.parametrize("units", [10, 20, 100, 1000])
def test_students_quantile_and_its_inverse_match_scipy(units):
    z = np.array([0.0, 1.0, 1.96, 3.0, 4.0])
    exact = stats.t.isf(stats.norm.sf(z), units - 1)
    assert student_quantile(z, units) == pytest.approx(exact, rel=2e-3)
    assert normal_equivalent(student_quantile(z, units), units) == pytest.approx(z, abs=1e-9)


def test_holm_and_bh_say_when_few_units_make_their_bar_lenient():
    note = few_units_note(Correction.HOLM, 190, 100, 0.95, "segment")
    assert len(note) == 1 and "190 comparisons and only 100 segments" in note[0]
    assert "up to about 9%" in note[0] and "--correction maxt" in note[0]
    assert few_units_note(Correction.FDR, 45, 20, 0.95, "document")
    assert not few_units_note(Correction.HOLM, 190, 400, 0.95, "segment")  # 1.15x: no note
    assert not few_units_note(Correction.MAXT, 190, 100, 0.95, "segment")  # it allows for it
    assert not few_units_note(Correction.NONE, 190, 100, 0.95, "segment")


def test_a_run_of_holm_on_few_segments_carries_the_note():
    rng = np.random.default_rng(3)
    rows = {f"S{k}": np.column_stack([rng.normal(0.5, 0.1, 30), np.ones(30)]) for k in range(10)}
    systems = tuple(SystemStatistics(n, MappingProxyType({"comet": r})) for n, r in rows.items())
    statistics = Statistics(MetricSettings(), (external_metric("comet")(),), systems)
    settings = BootstrapSettings(resamples=200, seed=1, correction=Correction.HOLM)
    result = run_to_end(iter_bootstrap(statistics, settings))
    assert any("45 comparisons and only 30 segments" in note for note in result.notes)
