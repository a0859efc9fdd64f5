"""What each column of the studies' tables means, in one sentence (their header tooltips).

The tables are the CSV files of ``mtgui study``, so the column names are the files' own; this
says what each holds and which part of which paper it comes from. A column not named here is a
system's column of the human grid.
"""

from __future__ import annotations

from collections.abc import Sequence

_ZV = "Zhang & Vogel 2004"
COLUMN_TIPS = {
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
    "ci_low": "The lower bound of the bootstrap confidence interval (a percentile).",
    "ci_high": "The upper bound of the bootstrap confidence interval (a percentile).",
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
    "tells the pair apart in 95% of its subsets, one way (empty: never).",
    "verdict": "> x is significantly better than y, < significantly worse, ~ not distinguishable.",
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
    "": "The row's system.",
}
_GRID_TIP = "How the row's system compares with this system in the human scores: > < or ~."


def column_tips(header: Sequence[str]) -> dict[str, str]:
    """A tooltip for every column of ``header`` (a system's grid column gets the grid's)."""
    return {name: COLUMN_TIPS.get(name, _GRID_TIP) for name in header}
