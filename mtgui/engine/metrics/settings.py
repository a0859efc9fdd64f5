"""The choices that change a score: tokenizer, case, mteval's NIST quirk,
chrF's and sacreBLEU's options (:class:`MetricSettings`).

They are one frozen object so that a result can say exactly how it was computed (its
signature) and so that cached reference statistics are reused only for equal settings.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics import sacrebleu_options
from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.missing_refs import MISSING, check_empty_refs
from mtgui.engine.text.extra_tokenizers import check_tokenizer_installed
from mtgui.engine.text.settings import DEFAULT_TOKENIZER, TOKENIZERS, Case


@dataclass(frozen=True)
class MetricSettings:
    """Settings shared by every metric of one evaluation.

    ``nist_zero_quirk`` reproduces mteval-v13a's information weights, where a bigram whose first
    token is ``0`` is weighted as a unigram (Perl reads the string ``"0"`` as false); turning it
    off gives the weights of the NIST formula as written. ``chrf_*`` are sacreBLEU's chrF options
    (see :mod:`~mtgui.engine.metrics.chrf.options`); chrF++ takes the character order and beta, its
    word order is always 2. ``bleu_*``, ``chrf_whitespace``, ``chrf_eps_smoothing`` and
    ``ter_*`` are sacreBLEU's other options (see :mod:`~mtgui.engine.metrics.sacrebleu_options`);
    their defaults are mtgui's scores as before (BLEU's smoothing ``mteval``) and sacreBLEU's. A
    tokenizer that needs a missing extra is refused here, before any work starts.
    ``empty_refs`` says what an empty reference line is: a missing reference (``missing``,
    sacreBLEU's ``None``) or an empty one (``empty``); see
    :mod:`~mtgui.engine.metrics.missing_refs`.
    """

    tokenize: str = DEFAULT_TOKENIZER
    case: Case = Case.SENSITIVE
    nist_zero_quirk: bool = True
    chrf_char_order: int = chrf_options.CHAR_ORDER
    chrf_word_order: int = chrf_options.WORD_ORDER
    chrf_beta: int = chrf_options.BETA
    bleu_smooth_method: str = sacrebleu_options.MTEVAL
    bleu_smooth_value: float | None = None
    bleu_max_order: int = sacrebleu_options.BLEU_ORDER
    bleu_effective_order: bool = False
    chrf_whitespace: bool = False
    chrf_eps_smoothing: bool = False
    ter_normalized: bool = False
    ter_no_punct: bool = False
    ter_asian_support: bool = False
    ter_case_sensitive: bool = False
    empty_refs: str = MISSING

    def __post_init__(self) -> None:
        if self.tokenize not in TOKENIZERS:
            raise InputError(
                f"'{self.tokenize}' is not a tokenizer mtgui knows.",
                hint="Choose one of: " + ", ".join(TOKENIZERS) + ".",
            )
        check_tokenizer_installed(self.tokenize)
        object.__setattr__(self, "case", Case(self.case))
        for option in chrf_options.LIMITS:
            value = chrf_options.check_chrf_option(option, getattr(self, f"chrf_{option}"))
            object.__setattr__(self, f"chrf_{option}", value)
        check = sacrebleu_options
        object.__setattr__(
            self, "bleu_smooth_method", check.check_smooth_method(self.bleu_smooth_method)
        )
        object.__setattr__(
            self, "bleu_smooth_value", check.check_smooth_value(self.bleu_smooth_value)
        )
        object.__setattr__(self, "bleu_max_order", check.check_bleu_order(self.bleu_max_order))
        for name in FLAGS:
            object.__setattr__(self, name, check.check_flag(name, getattr(self, name)))
        check_empty_refs(self.empty_refs)

    @property
    def signature(self) -> str:
        """A short string that pins the settings down, in the spirit of sacreBLEU's."""
        case = {Case.SENSITIVE: "mixed", Case.FULL: "lc", Case.ASCII: "lc-ascii"}[self.case]
        quirk = "mteval" if self.nist_zero_quirk else "formula"
        refs = "" if self.empty_refs == MISSING else f"|empty-refs:{self.empty_refs}"
        return f"tok:{self.tokenize}|case:{case}|nist-info:{quirk}{refs}"


FLAGS = (
    "bleu_effective_order",
    "chrf_whitespace",
    "chrf_eps_smoothing",
    "ter_normalized",
    "ter_no_punct",
    "ter_asian_support",
    "ter_case_sensitive",
)


"""The on/off options of :class:`MetricSettings` (sacreBLEU's, all off by default)."""
