"""The options of ``mtgui eval`` (the settings they make: :mod:`mtgui.cli.settings`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mtgui.cli.breakdown_options import add_breakdown_arguments
from mtgui.cli.settings import DEFAULTS as DEFAULTS
from mtgui.cli.settings import bootstrap_settings as bootstrap_settings
from mtgui.cli.settings import metric_settings as metric_settings
from mtgui.cli.test_set_options import add_test_set_arguments
from mtgui.engine.inference import Correction, DecidingTest, Family, IntervalMethod
from mtgui.engine.metrics import (
    EMPTY_REFS,
    MAX_BLEU_ORDER,
    METRIC_NAMES,
    MIN_BLEU_ORDER,
    SMOOTH_METHODS,
    chrf_options,
    labels_reading,
)
from mtgui.engine.resampling import (
    AR_TRIALS,
    FEW_DOCUMENTS,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_DOCUMENTS,
    MIN_LEVEL,
    MIN_RESAMPLES,
    Unit,
)
from mtgui.engine.scale import SCALES
from mtgui.engine.text import TOKENIZERS
from mtgui.io.decode import ENCODINGS

EVAL_EPILOG = """\
formats (told from the content, not the file name):
  NIST mteval SGML   <srcset>/<refset>/<tstset>; a refset may hold several references and a
                     tstset several systems (one sysid each)
  WMT XML            <dataset> with <src>, <ref translator=..>, <hyp system=..>; with --ref it
                     gives its references and source, with --hyp its systems
  plain text         one segment per line, matched to the segments by position
  scores (--scores)  CSV or TSV (columns system, score, and docid+segid or line), one
                     number per line (FILE=SYSTEM:NAME), comet-score's output or --to_json,
                     WMT's DA ad-seg-scores-*.csv (SID needs documents: SGML, XML or
                     --docids; z by default, FILE:raw for raw), MetricX's JSONL,
                     mt-metrics-eval's *.seg.score
  MQM (--mqm)        WMT's MQM annotation TSV (system doc doc_id seg_id rater ... severity)
encodings: UTF-8 with or without BOM, UTF-16 with BOM; --encoding latin-1 for Latin-1 files.

metrics (scales as mteval and sacreBLEU print them):
  bleu   BLEU, 0-1, as mteval-v13a (= sacreBLEU's BLEU / 100)
  nist   NIST, as mteval-v13a (up to 5-grams)
  mbleu  M-BLEU of Zhang & Vogel (2004), 0-1
  chrf   chrF2, 0-100, as sacreBLEU (--chrf-char-order, --chrf-word-order, --chrf-beta)
  chrf++ chrF++, 0-100, as sacreBLEU -m chrf --chrf-word-order 2 (word order always 2)
  ter    TER, 0-100, as sacreBLEU (tercom tokenization, case-insensitive; lower is better)
  wer    word error rate against the closest reference, 0-1 (lower is better)
  human  the mean of the per-segment scores given with --scores FILE
  NAME   the mean of the scores given with --scores FILE:COLUMN=NAME (and the other named
         forms); added to the metrics by itself; --lower-better NAME for MetricX and the like
  mqm    the MQM error penalty of --mqm FILE per segment (Major 5, Minor 1, Minor
         Fluency/Punctuation 0.1, Non-translation 25), averaged over raters; lower is better

examples:
  mtgui eval --ref ref.sgm --hyp systems/*.sgm
  mtgui eval --src src.txt --ref ref.A.txt --ref ref.B.txt --hyp sysA.txt --hyp sysB.txt \\
             --name A --name B
  mtgui eval --ref newstest2021.is-en.all.xml --hyp newstest2021.is-en.all.xml \\
             --scores human.tsv --score-column z --metrics bleu,chrf,human
  mtgui eval --ref ref.sgm --hyp sys.sgm --lowercase ascii --json report.json
"""


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of ``mtgui eval``."""
    add_input_arguments(parser)
    add_scoring_arguments(parser)
    add_resampling_arguments(parser)
    add_breakdown_arguments(parser)
    add_output_arguments(parser)


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say what to load (shared by every command that evaluates)."""
    group = parser.add_argument_group("inputs")
    files: dict[str, Any] = {
        "metavar": "FILE",
        "action": "extend",
        "nargs": "+",
        "default": [],
        "type": Path,
    }
    group.add_argument(
        "--ref", "-r", **files, help="reference translations (repeat for several references)"
    )
    group.add_argument(
        "--hyp",
        "-t",
        **files,
        help="system outputs (repeat, list several, or give a folder of them)",
    )
    group.add_argument("--src", "-s", metavar="FILE", type=Path, help="the source text (optional)")
    group.add_argument(
        "--scores",
        **{**files, "type": str, "metavar": "SPEC"},
        help="per-segment scores, each a metric: FILE (a table, as 'human'), FILE:COLUMN, "
        "FILE:COLUMN=NAME, FILE=NAME, or FILE=SYSTEM:NAME for one number per line of SYSTEM's "
        "output; tables, comet-score's output and its --to_json file, WMT's DA files "
        "(ad-seg-scores-*.csv), MetricX's JSONL and mt-metrics-eval's *.seg.score are read",
    )
    group.add_argument(
        "--mqm",
        metavar="FILE",
        type=Path,
        action="append",
        default=[],
        help="WMT's MQM annotations (TSV), scored as the metric mqm: each segment's error "
        "penalty, averaged over its raters (lower is better)",
    )
    group.add_argument(
        "--mqm-categories",
        action="store_true",
        help="with --mqm, also one metric per error category (mqm-accuracy, mqm-fluency...)",
    )
    group.add_argument(
        "--docids",
        metavar="FILE",
        type=Path,
        help="document ids for plain text: one id per line, as many lines as the test set (as "
        "WMT's *.docids); lines with the same id form one document, which --unit auto then "
        "resamples whole",
    )
    add_test_set_arguments(group)
    group.add_argument(
        "--lower-better",
        metavar="NAME",
        action="append",
        default=[],
        help="the --scores named NAME are better when lower (MetricX); repeat for several",
    )
    group.add_argument(
        "--score-column",
        metavar="COLUMN",
        help="which column of --scores holds the score (default: the first of score, z, raw)",
    )
    group.add_argument(
        "--name",
        "-n",
        metavar="NAME",
        action="append",
        default=[],
        help="name the systems: once per system in load order, or OLD=NEW",
    )
    group.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default="auto",
        help="encoding of files without a byte-order mark (default: UTF-8)",
    )
    group.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS,
        help="evaluate the bundled demo data instead of files",
    )


def add_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say how to score."""
    group = parser.add_argument_group("scoring")
    group.add_argument(
        "--metrics",
        "-m",
        default=",".join(DEFAULTS.metrics),
        metavar="LIST",
        help=f"comma-separated metrics from {','.join(METRIC_NAMES)} "
        f"(default: {','.join(DEFAULTS.metrics)})",
    )
    group.add_argument(
        "--tokenize",
        "-tok",
        choices=TOKENIZERS,
        default=DEFAULTS.tokenizer,
        help=f"tokenizer for {_listed(labels_reading('tokenize'))} (default: "
        f"{DEFAULTS.tokenizer}, as mteval-v13a and sacreBLEU); ja-mecab and ko-mecab need pip "
        "install 'mtgui[ja]' or 'mtgui[ko]'; flores101, flores200 and spm (spBLEU, as "
        "sacreBLEU) need pip install 'mtgui[spm]' and sacreBLEU's model file, which is looked "
        "for in $SACREBLEU/models (default ~/.sacrebleu/models) and downloaded when missing",
    )
    group.add_argument(
        "--lowercase",
        "-lc",
        nargs="?",
        const="full",
        choices=("full", "ascii"),
        default=None,
        help="compare case-insensitively: full (all letters, as sacreBLEU -lc; the default "
        "when no value is given) or ascii (A-Z only, as mteval-v13a without -c). Without this "
        "option letters are compared case-sensitively",
    )
    group.add_argument(
        "--bleu-scale",
        type=int,
        choices=SCALES,
        default=1,
        help="write BLEU and M-BLEU on mteval's 0-1 scale (1, the default) or sacreBLEU's "
        "0-100 (100), in every table and file",
    )
    group.add_argument(
        "--nist-formula",
        action="store_true",
        help="NIST information weights as the formula says, without mteval-v13a's quirk for "
        "bigrams after the token '0' (the default reproduces mteval exactly)",
    )
    add_chrf_arguments(group)
    add_sacrebleu_arguments(group)


def add_chrf_arguments(group: argparse._ArgumentGroup) -> None:
    """sacreBLEU's chrF options, with its names and defaults (recorded in the signature)."""
    helps = {
        "char_order": "character n-gram order of chrf and chrf++",
        "word_order": "word n-gram order of chrf (2 makes it chrF++; chrf++ always uses 2)",
        "beta": "weight of recall against precision in chrf and chrf++",
    }
    for option, (_, low, high) in chrf_options.LIMITS.items():
        default = getattr(DEFAULTS, f"chrf_{option}")
        group.add_argument(
            f"--chrf-{option.replace('_', '-')}",
            type=int,
            default=default,
            metavar="N",
            help=f"{helps[option]}, {low} to {high} (default: {default}, as sacreBLEU)",
        )


def add_sacrebleu_arguments(group: argparse._ArgumentGroup) -> None:
    """sacreBLEU's other options of BLEU, chrF and TER, with its names (see
    :mod:`~mtgui.engine.metrics.sacrebleu_options`); recorded in the signature."""
    methods = SMOOTH_METHODS
    group.add_argument(
        "--smooth-method",
        dest="bleu_smooth_method",
        choices=methods,
        default=DEFAULTS.bleu_smooth_method,
        help="BLEU's smoothing (corpus and sentence level): mteval (the default: mteval-v13a's "
        "BLEU, which equals sacreBLEU's exp except when an n-gram order has no match; its "
        "sentence BLEU is exp's), or sacreBLEU's exp, floor, add-k or none",
    )
    group.add_argument(
        "--smooth-value",
        "-sv",
        dest="bleu_smooth_value",
        type=float,
        default=None,
        metavar="X",
        help="the value of floor (default 0.1) and add-k (default 1), as sacreBLEU",
    )
    group.add_argument(
        "--bleu-max-order",
        dest="bleu_max_order",
        type=int,
        default=DEFAULTS.bleu_max_order,
        metavar="N",
        help=f"BLEU's (and M-BLEU's) maximum n-gram order, {MIN_BLEU_ORDER} "
        f"to {MAX_BLEU_ORDER} (default: {DEFAULTS.bleu_max_order})",
    )
    flags = {
        "--bleu-effective-order": "corpus BLEU over the orders up to the last one with "
        "hypothesis n-grams, as sacreBLEU's (sentence BLEU always uses it)",
        "--chrf-whitespace": "keep whitespace in chrF's character n-grams",
        "--chrf-eps-smoothing": "chrF as chrF++.py, Moses and NLTK: the mean of each order's "
        "F-score, an order without n-grams counting 1e-16",
        "--ter-normalized": "TER: normalize punctuation and tokenize numbers as tercom -N",
        "--ter-no-punct": "TER: remove punctuation",
        "--ter-asian-support": "TER: split Asian characters (with --ter-normalized)",
        "--ter-case-sensitive": "TER: compare case-sensitively",
    }
    for option, words in flags.items():
        name = option[2:].replace("-", "_")
        group.add_argument(option, action="store_true", default=getattr(DEFAULTS, name), help=words)
    group.add_argument(
        "--empty-refs",
        choices=EMPTY_REFS,
        default=DEFAULTS.empty_refs,
        help="an empty reference line is a missing reference, scored with the segment's other "
        "references as sacreBLEU's None (missing, the default), or a reference of no words",
    )


def add_resampling_arguments(
    parser: argparse.ArgumentParser,
    resamples: int | None = DEFAULTS.resamples,
    paired_tests: bool = True,
) -> None:
    """The options of the bootstrap and the significance tests.

    ``resamples`` is the default B (None: no --bootstrap option); without ``paired_tests``
    there is no --paired-ar, --holm or --fdr (the studies have no use for them).
    """
    resampling = parser.add_argument_group("confidence and significance")
    if resamples is not None:
        off = "; 0 turns the bootstrap off" if paired_tests else ""
        resampling.add_argument(
            "--bootstrap",
            "-b",
            type=int,
            default=resamples,
            metavar="B",
            help=f"bootstrap resamples, {MIN_RESAMPLES:,} to {MAX_RESAMPLES:,} "
            f"(default: {resamples}{off})",
        )
    resampling.add_argument(
        "--seed",
        type=int,
        default=DEFAULTS.seed,
        help=f"random seed from 0 to {MAX_SEED:,}, recorded in the report (default: "
        f"{DEFAULTS.seed}, as sacreBLEU)",
    )
    resampling.add_argument(
        "--ci",
        type=float,
        default=DEFAULTS.level,
        metavar="LEVEL",
        help=f"confidence level of the intervals and verdicts, from {MIN_LEVEL} to {MAX_LEVEL} "
        f"(default: {DEFAULTS.level})",
    )
    resampling.add_argument(
        "--unit",
        choices=[u.value for u in Unit],
        default=DEFAULTS.unit.value,
        help="resample whole documents, whose sentences are correlated, or single segments; "
        f"auto (the default): documents when the test set has {MIN_DOCUMENTS} or more (SGML or "
        "XML input), else segments. The report says which was used",
    )
    resampling.add_argument(
        "--interval",
        choices=[m.value for m in IntervalMethod],
        default=DEFAULTS.interval.value,
        help="how intervals (and the verdicts that agree with them) are read from the "
        "resamples: percentile (Koehn 2004), bca (bias-corrected and accelerated, Efron "
        "1987) or studentized (bootstrap-t); auto (the default): studentized where whole "
        f"documents are resampled and there are {MIN_DOCUMENTS} to {FEW_DOCUMENTS - 1}, where "
        "percentile intervals run narrow, else percentile",
    )
    if not paired_tests:
        return
    resampling.add_argument(
        "--test",
        choices=[t.value for t in DecidingTest],
        default=DEFAULTS.test.value,
        help="the test that decides the grid of metrics that are means of segment scores "
        "(--scores): the paired bootstrap (the default), the paired t-test (t) or the Wilcoxon "
        "signed-rank test (wilcoxon); the other metrics keep the bootstrap. The reports give "
        "all three p-values either way",
    )
    resampling.add_argument(
        "--paired-ar",
        type=int,
        nargs="?",
        const=AR_TRIALS,
        default=0,
        metavar="R",
        help=f"also run approximate randomization with R trials (default R: {AR_TRIALS:,})",
    )
    add_correction_arguments(resampling)


def add_correction_arguments(resampling: argparse._ArgumentGroup) -> None:
    """The correction for many comparisons, its family, and the equivalence margins."""
    correction = resampling.add_mutually_exclusive_group()
    correction.add_argument(
        "--correction",
        choices=[c.value for c in Correction],
        default=DEFAULTS.correction.value,
        help="correct the verdicts for making many comparisons (the grid, clusters, ranks and "
        "intervals then follow it): holm (Holm-Bonferroni) and maxt (Westfall-Young max-T, "
        "which uses how the comparisons hang together and keeps more power with several "
        "systems) keep the chance of any false '>' or '<' below 1 - LEVEL; fdr "
        "(Benjamini-Hochberg) the expected share of false ones among those found. Where B "
        "is too small for the correction to find anything, it is raised (see "
        "--no-raise-resamples). Default: none",
    )
    correction.add_argument(
        "--holm",
        dest="correction",
        action="store_const",
        const=Correction.HOLM.value,
        help="short for --correction holm",
    )
    correction.add_argument(
        "--fdr",
        dest="correction",
        action="store_const",
        const=Correction.FDR.value,
        help="short for --correction fdr",
    )
    resampling.add_argument(
        "--family",
        choices=[f.value for f in Family],
        default=Family.METRIC.value,
        help="which comparisons are corrected together: metric (the default: each metric's "
        "pairs) or all (every metric's pairs as one family)",
    )
    resampling.add_argument(
        "--no-raise-resamples",
        dest="raise_resamples",
        action="store_false",
        help="refuse, instead of raising B, when the resamples asked for are too few for the "
        "correction to find any difference",
    )
    resampling.add_argument(
        "--equivalence",
        metavar="METRIC=MARGIN",
        action="append",
        default=[],
        help="test whether pairs are equivalent within +-MARGIN in METRIC's units (two "
        "one-sided tests); such pairs get the verdict '=' instead of '~' (repeat for several "
        "metrics)",
    )


def add_output_arguments(
    parser: argparse.ArgumentParser,
    csv_help: str = "write CSV reports into DIR: scores with CIs, pairs, one grid per metric",
    segments: bool = True,
) -> None:
    """The options that say where results go (without ``segments``: no --segments, no
    --samples)."""
    output = parser.add_argument_group("output")
    output.add_argument(
        "--json",
        metavar="FILE",
        help="write the report as JSON to FILE ('-' for standard output)",
    )
    if segments:
        output.add_argument(
            "--segments",
            metavar="FILE",
            help="write segment-level scores as CSV to FILE ('-' for standard output)",
        )
        output.add_argument(
            "--documents",
            metavar="FILE",
            help="write per-document scores as CSV to FILE ('-' for standard output): each "
            "document scored as a test set of its own, as mteval-v13a -d (needs documents: "
            "SGML or XML input)",
        )
    output.add_argument("--csv", metavar="DIR", help=csv_help)
    if segments:
        output.add_argument(
            "--latex",
            metavar="FILE",
            help="write LaTeX booktabs tables to FILE ('-' for standard output): per metric "
            "the scores with intervals and ranks, and the significance grid",
        )
        output.add_argument(
            "--html",
            metavar="FILE",
            help="write a report to send as one self-contained HTML file: what was compared, "
            "the scores with intervals, every grid, the distributions and the notes",
        )
        output.add_argument(
            "--pdf",
            metavar="FILE",
            help="write the same report as PDF (made by Qt, which must be installed)",
        )
        output.add_argument(
            "--report-paths",
            action="store_true",
            help="name the input files in the --html and --pdf report by their full paths "
            "(default: by their names only, as a report to send should)",
        )
    if segments:
        output.add_argument(
            "--summary",
            action="store_true",
            help="also print the result in words, a few sentences per metric (with --json: a "
            "'summary' field)",
        )
        output.add_argument(
            "--samples",
            action="store_true",
            help="with --csv, also write every bootstrap score (samples.csv)",
        )
    output.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )


def _listed(labels: list[str]) -> str:
    """``A, B and C``."""
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else "".join(labels)
