"""What each column of the studies' tables is called on screen, and what it means in one
sentence (their header tooltips).

The tables are the CSV files of ``mtgui study``, so the column names are the files' own
(``rel_ci_low``, ``metric`` holding ``bleu``, ``higher_is_better`` holding ``True``): good for
a script, raw for a reader. :func:`display_table` gives the table the Studies tab shows: the
same rows with readable headers, metric names as people write them (BLEU, M-BLEU) and words for
yes and no; the tooltips say what each holds and which part of which paper it comes from. A
column not named here is a system's column of the human grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mtgui.engine.metrics import LABELS
from mtgui.engine.studies import ALL

_ZV = "Zhang & Vogel 2004"
COLUMN_TIPS = {
    "setting": "What the study was made with: a setting, its signature, or a note.",
    "value": "The setting's value.",
    "system": "The system the row is about.",
    "metric": "The metric the row is about.",
    "x": "The first system of the pair.",
    "y": "The second system of the pair.",
    "fraction": f"The share of the test set used: half, a quarter, ... ({_ZV}, 4.1).",
    "pieces": "Into how many equal parts the test set was cut for this size.",
    "segments": "How many segments each subset of this size has.",
    "repeats": "How many random subsets of this size were drawn.",
    "subsets": "How many subsets of the references (or of the test set) were scored.",
    "references": f"How many references each subset holds ({_ZV}, 4.2).",
    "resamples": f"B: how many bootstrap resamples were drawn ({_ZV}, 4.3).",
    "runs": "How many runs with different seeds were made at this B.",
    "score": "The score on the whole test set (for subsets: their mean).",
    "score_std": "The standard deviation of the score over the subsets.",
    "score_min": "The lowest score of the subsets.",
    "score_max": "The highest score of the subsets.",
    "median": "The median of the bootstrap scores.",
    "mean": "The mean of the bootstrap scores.",
    "std": "The standard deviation of the bootstrap scores.",
    "rsd": "Relative standard deviation: 100 x std / mean, in percent "
    "(Zhang, Vogel & Waibel 2004).",
    "ci_low": "The lower bound of the bootstrap confidence interval ({method}).",
    "ci_high": "The upper bound of the bootstrap confidence interval ({method}).",
    "rel_ci_low": f"How far below the median the interval reaches, in percent ({_ZV}, Table 1).",
    "rel_ci_high": f"How far above the median the interval reaches, in percent ({_ZV}, Table 1).",
    "median_std": "How much the median moves between runs with different seeds.",
    "ci_low_std": "How much the interval's lower bound moves between runs.",
    "ci_high_std": "How much the interval's upper bound moves between runs.",
    "rel_ci_low_std": "How much the relative lower bound moves between runs, in points.",
    "rel_ci_high_std": "How much the relative upper bound moves between runs, in points.",
    "best_rank": "The best rank the system can claim: systems it is not distinguishable from "
    "may be ahead of it.",
    "worst_rank": "The worst rank the system can fall to, for the same reason.",
    "cluster": "The system's cluster, 1 the best: a cluster ends only where every system above "
    "is significantly better than every system below.",
    "x_better": "The share of subsets of this size in which x is significantly better than y.",
    "y_better": "The share of subsets of this size in which y is significantly better than x.",
    "smallest_fraction": "The smallest share of the test set from which on every larger share "
    "tells the pair apart in 95% of its subsets, one way (never: no share does).",
    "verdict": "> x is significantly better than y, < significantly worse, ~ not distinguishable, "
    "= equivalent within the margin.",
    "exponent": "How the interval's width shrinks with the test set's size: width ~ size to "
    "this power (-0.5 is the textbook rate).",
    "narrowing_percent": "By how much the interval narrows when the test set doubles, in percent "
    "(about 30% in Zhang & Vogel 2004).",
    "points": "How many test-set sizes the fit used.",
    "delta": "The difference x - y on the whole test set, in the metric's units.",
    "win_fraction": "The share of resamples in which x is better than y (Koehn 2004, 6).",
    "p_value": "The two-sided paired bootstrap p-value: below 1 - confidence exactly when the "
    "verdict is > or < (without a correction for many comparisons).",
    "p_value_ar": "The approximate-randomization p-value (Riezler & Maxwell 2005).",
    "p_holm": "The p-value after Holm's correction for making many comparisons.",
    "p_holm_ar": "The randomization p-value after Holm's correction.",
    "p_fdr": "The p-value after Benjamini-Hochberg's correction for making many comparisons.",
    "p_fdr_ar": "The randomization p-value after Benjamini-Hochberg's correction.",
    "p_maxt": "The p-value after the max-T correction (Westfall-Young, step-down) for making "
    "many comparisons.",
    "ci_low_uncorrected": "Under a correction: the lower bound of the pair's own interval at the "
    "chosen confidence (CI low is then the corrected one, which agrees with the verdict).",
    "ci_high_uncorrected": "Under a correction: the upper bound of the pair's own interval at the "
    "chosen confidence (CI high is then the corrected one, which agrees with the verdict).",
    "pair_alpha": "Under a correction: the alpha at which this pair was decided.",
    "mdd": "Minimum detectable difference: a real difference this large would be found 80% of "
    "the time, in the metric's units.",
    "units_needed": "About how many segments (or documents, when documents are resampled) would "
    "find a difference of this size 80% of the time (an estimate).",
    "margin": "The equivalence margin asked for the metric, in its units.",
    "p_tost": "The equivalence test's p-value (two one-sided tests, Schuirmann 1987): the pair "
    "is = when it is below 1 - confidence.",
    "p_value_sacrebleu": "sacreBLEU's paired bootstrap p-value, for reproducing sacreBLEU (in "
    "effect one-sided: about half the two-sided p-value).",
    "higher_is_better": "Whether a higher score means a better translation under this metric.",
    "systems": "How many systems have both the metric's score and human scores.",
    "pearson": "Pearson's correlation of the metric's scores with the human scores.",
    "pearson_low": "The lower bound of Pearson's interval over systems and segments: every "
    "resample draws the systems again too (the interval to quote).",
    "pearson_high": "The upper bound of Pearson's interval over systems and segments: every "
    "resample draws the systems again too (the interval to quote).",
    "pearson_fisher_low": "The lower bound of Pearson's interval by Fisher's z: "
    "tanh(atanh r - z / sqrt(n - 3)), n systems.",
    "pearson_fisher_high": "The upper bound of Pearson's interval by Fisher's z: "
    "tanh(atanh r + z / sqrt(n - 3)), n systems.",
    "pearson_segments_low": "The lower bound of Pearson's interval over segments only, these "
    "systems fixed: far narrower, it says nothing about other systems.",
    "pearson_segments_high": "The upper bound of Pearson's interval over segments only, these "
    "systems fixed: far narrower, it says nothing about other systems.",
    "spearman": "Spearman's rank correlation of the metric's scores with the human scores.",
    "spearman_low": "The lower bound of Spearman's interval over systems and segments: every "
    "resample draws the systems again too (the interval to quote).",
    "spearman_high": "The upper bound of Spearman's interval over systems and segments: every "
    "resample draws the systems again too (the interval to quote).",
    "spearman_fisher_low": "The lower bound of Spearman's interval by Fisher's z with "
    "sqrt(1.06 / (n - 3)) (Fieller, Hartley & Pearson 1957).",
    "spearman_fisher_high": "The upper bound of Spearman's interval by Fisher's z with "
    "sqrt(1.06 / (n - 3)) (Fieller, Hartley & Pearson 1957).",
    "spearman_segments_low": "The lower bound of Spearman's interval over segments only, these "
    "systems fixed: far narrower, it says nothing about other systems.",
    "spearman_segments_high": "The upper bound of Spearman's interval over segments only, these "
    "systems fixed: far narrower, it says nothing about other systems.",
    "undefined_resamples": "Resamples left out of the intervals over systems: the systems drawn "
    "scored alike, so there was no correlation.",
    "metric_x": "The metric that agrees better with the humans on the whole test set.",
    "metric_y": "The metric it is compared with.",
    "agreement_x": "Pearson's r of metric x with the human scores, its sign flipped where lower "
    "is better (larger: closer agreement).",
    "agreement_y": "Pearson's r of metric y with the human scores, its sign flipped where lower "
    "is better (larger: closer agreement).",
    "pearson_xy": "Pearson's r between the two metrics' system scores, signs flipped as for the "
    "agreements (Williams' r23).",
    "difference": "agreement_x - agreement_y on the whole test set.",
    "difference_low": "The lower bound of the paired bootstrap interval of the difference, over "
    "systems and segments.",
    "difference_high": "The upper bound of the paired bootstrap interval of the difference, over "
    "systems and segments.",
    "bootstrap_p_value": "The paired bootstrap p-value of the difference (two-sided, over "
    "systems and segments).",
    "bootstrap_verdict": "> x agrees significantly better by the paired bootstrap, < worse, ~ no "
    "significant difference.",
    "williams_t": "Williams' t for the difference of two correlations sharing the human scores "
    "(Williams 1959; Graham & Baldwin 2014), with n - 3 degrees of freedom.",
    "williams_p_value": "Williams' test p-value, two-sided (WMT reports the one-sided one, half "
    "of it).",
    "williams_verdict": "> x agrees significantly better by Williams' test, < worse, ~ no "
    "significant difference.",
    "pairs": "How many pairs of systems were compared.",
    "agree": "Pairs where the metric and the humans give the same verdict.",
    "opposite": "Pairs where each says a different system is significantly better.",
    "metric_only": "Pairs the metric calls clearly different and the humans do not.",
    "human_only": "Pairs the humans call clearly different and the metric does not.",
    "kind": "How the two disagree: in opposite directions, or only one of them sees a difference.",
    "metric_verdict": "The metric's verdict on x against y.",
    "human_verdict": "The humans' verdict on x against y.",
    "metric_delta": "x - y under the metric, on the whole test set.",
    "human_delta": "x - y in the human scores, on the whole test set.",
    "metric_p_value": "The metric's paired bootstrap p-value for the pair.",
    "human_p_value": "The human scores' paired bootstrap p-value for the pair.",
    "permutation_p_value": "The paired permutation test of the difference (two-sided; each "
    "system's two z-scored metric scores swapped at random, as mt-metrics-eval): its size is the "
    "level. The verdict to quote.",
    "permutation_verdict": "> x agrees significantly better by the permutation test, ~ no "
    "significant difference.",
    "pairwise_accuracy": "The share of pairs of systems whose metric delta has the humans' sign "
    "(Kocmi et al. 2021; WMT23/24's system-level statistic).",
    "soft_pairwise_accuracy": "1 - the mean over pairs of |p_humans - p_metric|, p the "
    "permutation p-value that one system is better (Thompson et al. 2024): it rewards a metric "
    "that is as sure as the humans, not only right in sign.",
    "tie_calibrated_accuracy": "Pairwise accuracy when metric deltas up to epsilon count as "
    "ties (and agree with tied humans), at the best epsilon (Deutsch et al. 2023).",
    "tie_epsilon": "That epsilon, in the metric's units.",
    "segment_kendall_b": "Kendall's tau-b per segment over the systems, averaged over the "
    "segments (item-grouped, as mt-metrics-eval).",
    "segment_kendall_c": "Kendall's tau-c per segment over the systems, averaged over the "
    "segments.",
    "segment_tau_eq": "Deutsch et al.'s tau_eq per segment (ties are predictions), averaged over "
    "the segments.",
    "segment_acc_eq": "Deutsch et al.'s acc_eq per segment (epsilon 0), averaged over the "
    "segments.",
    "segment_tie_calibrated_accuracy": "acc_eq per segment at the one epsilon that maximises its "
    "average over the segments (WMT23's segment-level statistic).",
    "segment_tie_epsilon": "That epsilon, in the metric's segment units.",
    "metric_cluster": "The metric's cluster by pairwise accuracy, 1 the best: a cluster starts "
    "at the first metric significantly worse than one of the cluster (permutation tests, as "
    "WMT).",
    "accuracy_x": "Pairwise accuracy of metric x (the higher).",
    "accuracy_y": "Pairwise accuracy of metric y.",
    "accuracy_difference": "accuracy_x - accuracy_y.",
    "accuracy_p_value": "The paired permutation test's one-sided p-value that x ranks the pairs "
    "of systems better than y (mt-metrics-eval's; the clusters are made from it).",
    "accuracy_verdict": "> x ranks the pairs significantly better than y (p <= 1 - confidence, "
    "as WMT), ~ no significant difference.",
    "": "The row's system.",
}
_GRID_TIP = "How the row's system compares with this system in the human scores: > < or ~."


def column_tips(header: Sequence[str]) -> dict[str, str]:
    """A tooltip for every column of ``header`` (a system's grid column gets the grid's)."""
    words = METHOD_WORDS["percentile"]
    return {name: COLUMN_TIPS.get(name, _GRID_TIP).replace("{method}", words) for name in header}


COLUMN_NAMES = {
    "system": "System",
    "metric": "Metric",
    "x": "System x",
    "y": "System y",
    "fraction": "Share of test set",
    "pieces": "Parts",
    "segments": "Segments",
    "repeats": "Subsets drawn",
    "subsets": "Subsets",
    "references": "References",
    "resamples": "Resamples (B)",
    "runs": "Runs",
    "score": "Score",
    "score_std": "Score std",
    "score_min": "Lowest score",
    "score_max": "Highest score",
    "median": "Median",
    "mean": "Mean",
    "std": "Std",
    "rsd": "RSD (%)",
    "ci_low": "CI low",
    "ci_high": "CI high",
    "rel_ci_low": "Rel. CI low (%)",
    "rel_ci_high": "Rel. CI high (%)",
    "median_std": "Median std",
    "ci_low_std": "CI low std",
    "ci_high_std": "CI high std",
    "rel_ci_low_std": "Rel. CI low std",
    "rel_ci_high_std": "Rel. CI high std",
    "best_rank": "Best rank",
    "worst_rank": "Worst rank",
    "cluster": "Cluster",
    "x_better": "x better",
    "y_better": "y better",
    "smallest_fraction": "Smallest share",
    "verdict": "Verdict",
    "exponent": "Exponent",
    "narrowing_percent": "Narrowing (%)",
    "points": "Sizes",
    "delta": "x - y",
    "win_fraction": "x wins",
    "p_value": "p",
    "p_value_ar": "p (AR)",
    "p_holm": "p (Holm)",
    "p_holm_ar": "p (Holm, AR)",
    "p_fdr": "p (BH)",
    "p_fdr_ar": "p (BH, AR)",
    "p_maxt": "p (max-T)",
    "ci_low_uncorrected": "Own CI low",
    "ci_high_uncorrected": "Own CI high",
    "pair_alpha": "Alpha decided at",
    "mdd": "MDD",
    "units_needed": "Units needed",
    "margin": "Margin",
    "p_tost": "p (TOST)",
    "p_value_sacrebleu": "p (sacreBLEU)",
    "higher_is_better": "Better when",
    "systems": "Systems",
    "pearson": "Pearson",
    "pearson_low": "Pearson low",
    "pearson_high": "Pearson high",
    "pearson_fisher_low": "Pearson low (Fisher)",
    "pearson_fisher_high": "Pearson high (Fisher)",
    "pearson_segments_low": "Pearson low (segments)",
    "pearson_segments_high": "Pearson high (segments)",
    "spearman": "Spearman",
    "spearman_low": "Spearman low",
    "spearman_high": "Spearman high",
    "spearman_fisher_low": "Spearman low (Fisher)",
    "spearman_fisher_high": "Spearman high (Fisher)",
    "spearman_segments_low": "Spearman low (segments)",
    "spearman_segments_high": "Spearman high (segments)",
    "undefined_resamples": "Undefined resamples",
    "metric_x": "Metric x",
    "metric_y": "Metric y",
    "agreement_x": "Agreement x",
    "agreement_y": "Agreement y",
    "pearson_xy": "r(x, y)",
    "difference": "Difference",
    "difference_low": "Difference low",
    "difference_high": "Difference high",
    "bootstrap_p_value": "p (bootstrap)",
    "bootstrap_verdict": "Verdict (bootstrap)",
    "williams_t": "Williams' t",
    "williams_p_value": "p (Williams)",
    "williams_verdict": "Verdict (Williams)",
    "pairs": "Pairs",
    "agree": "Agree",
    "opposite": "Opposite",
    "metric_only": "Metric only",
    "human_only": "Humans only",
    "kind": "Disagreement",
    "metric_verdict": "Metric's verdict",
    "human_verdict": "Humans' verdict",
    "metric_delta": "x - y (metric)",
    "human_delta": "x - y (humans)",
    "metric_p_value": "p (metric)",
    "human_p_value": "p (humans)",
    "permutation_p_value": "p (permutation)",
    "permutation_verdict": "Verdict (permutation)",
    "pairwise_accuracy": "Pairwise accuracy",
    "soft_pairwise_accuracy": "Soft pairwise accuracy",
    "tie_calibrated_accuracy": "Tie-calibrated accuracy",
    "tie_epsilon": "Tie epsilon",
    "segment_kendall_b": "Segment tau-b",
    "segment_kendall_c": "Segment tau-c",
    "segment_tau_eq": "Segment tau-eq",
    "segment_acc_eq": "Segment acc-eq",
    "segment_tie_calibrated_accuracy": "Segment acc-eq (calibrated)",
    "segment_tie_epsilon": "Segment epsilon",
    "metric_cluster": "Cluster",
    "accuracy_x": "Accuracy x",
    "accuracy_y": "Accuracy y",
    "accuracy_difference": "Difference",
    "accuracy_p_value": "p (permutation)",
    "accuracy_verdict": "Verdict",
    "": "System",
    "setting": "Setting",
    "value": "Value",
}
"""The header the Studies tab shows for each CSV column (a grid's system column: its name)."""
TABLE_NAMES = {
    "size.csv": "Scores by test-set size",
    "size-pairs.csv": "Pairs told apart, by size",
    "size-separation.csv": "Smallest share that tells pairs apart",
    "size-fit.csv": "How the interval narrows",
    "refs.csv": "Scores by number of references",
    "refs-size.csv": "By references and test-set size",
    "resamples.csv": "Intervals by B (Table 5)",
    "resamples-stability.csv": "Stability between runs (Table 6)",
    "correlations.csv": "Correlations with humans",
    "correlation-tests.csv": "Which metric agrees better",
    "disagreements.csv": "Disagreements",
    "scores.csv": "Scores and intervals",
    "pairs.csv": "Pairs of systems",
    "grid-human.csv": "Human significance grid",
    "accuracy.csv": "Pairwise accuracy and clusters",
    "accuracy-tests.csv": "Which metric ranks pairs better",
    **{f"{study}-settings.csv": "Settings" for study in ("size", "refs", "resamples", "human")},
}
"""What the table chooser calls each of the study's CSV files."""
_METRIC_COLUMNS = {"metric", "metric_x", "metric_y"}
_SYSTEM_COLUMNS = {"system", "x", "y"}
_COUNT_COLUMNS = {"segments", "pieces", "repeats", "points", "references", "resamples"}
"""Columns of counts: shown as whole numbers ("Segments 100", not "100.0000"; an average
count of segments per subset is rounded to a whole segment, the CSV keeps it exact)."""
_WORDS: dict[str, dict[Any, str]] = {
    "higher_is_better": {True: "higher", False: "lower"},
    "kind": {"opposite": "opposite", "metric_only": "metric only", "human_only": "humans only"},
    "smallest_fraction": {"": "never"},
}
_SETTING_WORDS: dict[str, dict[Any, str]] = {  # a settings table's values, by setting
    "bootstrap.family": {"metric": "each metric", "all": "all metrics together"},
}


def column_name(column: str) -> str:
    """The header shown for a CSV column."""
    return COLUMN_NAMES.get(column, column)


def table_name(file_name: str) -> str:
    """What the table chooser calls a study's CSV file."""
    return TABLE_NAMES.get(file_name, file_name.removesuffix(".csv"))


def cell_value(column: str, value: Any) -> Any:
    """A CSV cell as the table shows it: metric names as people write them, words for yes
    and no, NaN for an empty number (which the table shows as '-' and sorts last)."""
    words = _WORDS.get(column, {})
    if isinstance(value, bool | str) and value in words:
        return words[value]
    if column in _METRIC_COLUMNS and isinstance(value, str):
        return "all metrics" if value == ALL else LABELS.get(value, value)
    if column in _SYSTEM_COLUMNS and value == ALL:
        return "all systems"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return math.nan
    if column in _COUNT_COLUMNS and isinstance(value, float) and math.isfinite(value):
        return round(value)
    return value


METHOD_WORDS = {
    "percentile": "a percentile interval: the resampled scores' percentiles",
    "BCa": "a BCa interval: the resampled scores' percentiles moved for their bias and skew",
    "studentized": "a studentized (bootstrap-t) interval",
}


def display_table(
    header: Sequence[str], rows: Sequence[Sequence[Any]], method: str = "percentile"
) -> tuple[list[str], list[list[Any]], dict[str, str]]:
    """The table the Studies tab shows for a CSV table: its header, its rows and a tooltip per
    shown column; ``method`` is how the study's intervals were made (the label of its
    :class:`~mtgui.engine.inference.choices.IntervalMethod`), which the bounds' tooltips say."""
    grid = bool(header) and header[0] == ""  # a significance grid: the columns are systems
    names = ["System", *header[1:]] if grid else [column_name(c) for c in header]
    shown = [[cell_value(c, v) for c, v in zip(header, row, strict=True)] for row in rows]
    if tuple(header) == ("setting", "value"):  # a value is read by its setting (family: metric)
        shown = [[key, _SETTING_WORDS.get(key, {}).get(value, value)] for key, value in shown]
    words = METHOD_WORDS.get(method, method)
    tips = {
        name: COLUMN_TIPS.get(c, _GRID_TIP).replace("{method}", words)
        for name, c in zip(names, header, strict=True)
    }
    return names, shown, tips
