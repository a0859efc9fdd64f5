"""Metric-human agreement: system-level correlations and the pairs where they disagree."""

from __future__ import annotations

import json
from types import MappingProxyType

import numpy as np
import pytest

from mtgui.engine.bootstrap import BootstrapSettings
from mtgui.engine.corpus import Role
from mtgui.engine.errors import InputError
from mtgui.engine.metrics.human import Human
from mtgui.engine.metrics.mbleu import MBleu
from mtgui.engine.running import run_to_end
from mtgui.engine.settings import MetricSettings
from mtgui.engine.statistics import Statistics, SystemStatistics, compute_statistics
from mtgui.engine.studies import iter_human_study
from mtgui.engine.studies.correlation import average_ranks, spearman_rows
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file, load_scores

SEGMENTS = 40
# System -> (M-BLEU, human score), the same on every segment, so that every resample scores
# exactly these and a pair is significantly different exactly when its scores differ.
SYSTEMS = {"F": (0.6, 2.0), "G": (0.4, 5.0), "H": (0.5, 3.0), "I": (0.3, 3.0), "J": (0.4, 1.0)}


def constant_statistics(systems: dict[str, tuple[float, float]]) -> Statistics:
    def rows(mbleu: float, human: float) -> dict[str, np.ndarray]:
        # M-BLEU row: c = r = 10 (no brevity penalty), 10 * p matches of 10 n-grams per order.
        row = [10, 10, *([10 * mbleu] * 4), *([10] * 4)]
        judged = [human, 1.0] if human == human else [0.0, 0.0]  # NaN: not judged
        return {"mbleu": np.tile(row, (SEGMENTS, 1)), "human": np.tile(judged, (SEGMENTS, 1))}

    return Statistics(
        MetricSettings(),
        (MBleu(), Human()),
        tuple(SystemStatistics(s, MappingProxyType(rows(*v))) for s, v in systems.items()),
    )


@pytest.fixture(scope="module")
def study():
    statistics = constant_statistics({**SYSTEMS, "X": (0.9, float("nan"))})
    return run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=200)))


def test_correlations_are_pearson_and_spearman_of_the_system_scores(study):
    metric = np.array([v[0] for v in SYSTEMS.values()])
    human = np.array([v[1] for v in SYSTEMS.values()])
    correlation = study.correlation("mbleu")
    assert correlation.systems == 5
    assert correlation.pearson == pytest.approx(np.corrcoef(metric, human)[0, 1], abs=1e-12)
    # Ranks by hand, ties sharing their mean rank: M-BLEU 0.3 < 0.4 = 0.4 < 0.5 < 0.6,
    # human 1 < 2 < 3 = 3 < 5.
    metric_ranks, human_ranks = [5, 2.5, 4, 1, 2.5], [2, 5, 3.5, 3.5, 1]
    expected = np.corrcoef(metric_ranks, human_ranks)[0, 1]
    assert correlation.spearman == pytest.approx(expected, abs=1e-12)
    # Every resample gives the same scores, so the intervals shrink to the point.
    assert correlation.pearson_low == pytest.approx(correlation.pearson, abs=1e-12)
    assert correlation.spearman_high == pytest.approx(correlation.spearman, abs=1e-12)


def test_disagreements_come_in_three_kinds_named_from_the_better_system(study):
    found = {(d.kind, d.x, d.y): (d.metric_verdict, d.human_verdict) for d in study.disagreements}
    assert found == {
        # Zhang, Vogel & Waibel's F vs G: the metric says F, the humans G, both significantly.
        ("opposite", "F", "G"): (">", "<"),
        ("opposite", "F", "H"): (">", "<"),
        ("opposite", "F", "I"): (">", "<"),
        ("opposite", "H", "G"): (">", "<"),
        ("opposite", "J", "I"): (">", "<"),
        ("metric_only", "H", "I"): (">", "~"),  # the humans score H and I alike
        ("human_only", "G", "J"): ("~", ">"),  # the metric scores G and J alike
    }
    fg = study.of_kind("opposite")[0]
    assert fg.metric_delta == pytest.approx(0.2) and fg.human_delta == pytest.approx(-3.0)
    counts = study.correlation("mbleu")
    assert (counts.pairs, counts.agree, counts.opposite) == (10, 3, 5)
    assert (counts.metric_only, counts.human_only) == (1, 1)


def test_systems_without_human_scores_are_left_out(study):
    assert study.systems == tuple(SYSTEMS) and study.left_out == ("X",)
    assert "left out: X" in " ".join(study.notes)
    assert study.bootstrap is not None and study.bootstrap.systems == tuple(SYSTEMS)
    assert study.bootstrap.interval("G", "human").score == 5.0


def test_average_ranks_share_ties_and_spearman_is_undefined_with_undefined_scores():
    values = np.array([[3.0, 1.0], [1.0, 1.0], [3.0, 2.0], [2.0, 1.0]])
    assert average_ranks(values).tolist() == [[3.5, 2.0], [1.0, 2.0], [3.5, 4.0], [2.0, 2.0]]
    first = np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 3.0]])
    second = np.array([[1.0, 3.0], [2.0, 2.0], [3.0, 1.0]])
    rho = spearman_rows(first, second)
    assert rho[0] == pytest.approx(1.0) and np.isnan(rho[1])


def test_the_study_needs_human_scores_and_an_automatic_metric():
    statistics = constant_statistics(SYSTEMS)
    only_human = Statistics(
        statistics.settings,
        (Human(),),
        tuple(
            SystemStatistics(s.system, MappingProxyType({"human": s.rows["human"]}))
            for s in statistics.systems
        ),
    )
    with pytest.raises(InputError, match="needs an automatic metric"):
        next(iter_human_study(only_human))
    no_scores = constant_statistics({"F": (0.6, float("nan")), "G": (0.4, 1.0)})
    with pytest.raises(InputError, match="two or more systems with human scores"):
        next(iter_human_study(no_scores))


@pytest.mark.shared
def test_is_en_correlations_are_the_golden_ones(shared_data):
    """WMT21 is-en, 8 systems, DA z-scores: Pearson of sacreBLEU's BLEU and chrF2 with DA, as
    recorded in golden.json (computed there independently of mtgui)."""
    folder = shared_data / "wmt21-newstest2021-is-en"
    golden = json.loads((folder / "golden.json").read_text(encoding="utf-8"))
    files = [load_file(folder / "txt/newstest2021.is-en.ref.A.en", {Role.REFERENCE})]
    files += [load_file(folder / s["txt"], {Role.SYSTEM}) for s in golden["systems"]]
    corpus = assemble(files, [load_scores(folder / "human/seg-scores-mapped.tsv", "z")])
    statistics = compute_statistics(corpus, ("bleu", "chrf", "human"))
    study = run_to_end(iter_human_study(statistics, BootstrapSettings(resamples=200)))
    expected = golden["human_da"]["system_level_pearson_vs_DA_z_over_the_8_systems"]
    assert len(study.systems) == 8 and not study.left_out
    assert study.correlation("bleu").pearson == pytest.approx(expected["sacreBLEU_BLEU"], abs=1e-9)
    assert study.correlation("chrf").pearson == pytest.approx(expected["chrF2"], abs=1e-9)
    assert 0.7 < study.correlation("bleu").spearman <= 1.0
    # No metric contradicts the humans on this set, but both see differences they do not.
    assert not study.of_kind("opposite") and study.of_kind("metric_only")
