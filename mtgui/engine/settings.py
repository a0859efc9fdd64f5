"""The choices that change a score: tokenizer, case, and mteval's NIST quirk.

They are one frozen object so that a result can say exactly how it was computed (its
signature) and so that cached reference statistics are reused only for equal settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mtgui.engine.errors import InputError

TOKENIZERS = ("13a", "intl", "zh", "char", "none")
"""13a (mteval-v13a = sacreBLEU 13a, the default), and sacreBLEU's intl, zh, char and none."""


class Case(StrEnum):
    """How letters are compared.

    ``SENSITIVE`` is sacreBLEU's default and mteval's ``-c``; ``FULL`` lowercases all of Unicode
    (sacreBLEU ``-lc``); ``ASCII`` lowercases only A-Z, as mteval-v13a does without ``-c``.
    """

    SENSITIVE = "sensitive"
    FULL = "full"
    ASCII = "ascii"


@dataclass(frozen=True)
class MetricSettings:
    """Settings shared by every metric of one evaluation.

    ``nist_zero_quirk`` reproduces mteval-v13a's information weights, where a bigram whose first
    token is ``0`` is weighted as a unigram (Perl reads the string ``"0"`` as false); turning it
    off gives the weights of the NIST formula as written.
    """

    tokenize: str = "13a"
    case: Case = Case.SENSITIVE
    nist_zero_quirk: bool = True

    def __post_init__(self) -> None:
        if self.tokenize not in TOKENIZERS:
            raise InputError(
                f"'{self.tokenize}' is not a tokenizer mtgui knows.",
                hint="Choose one of: " + ", ".join(TOKENIZERS) + ".",
            )
        object.__setattr__(self, "case", Case(self.case))

    @property
    def signature(self) -> str:
        """A short string that pins the settings down, in the spirit of sacreBLEU's."""
        case = {Case.SENSITIVE: "mixed", Case.FULL: "lc", Case.ASCII: "lc-ascii"}[self.case]
        quirk = "mteval" if self.nist_zero_quirk else "formula"
        return f"tok:{self.tokenize}|case:{case}|nist-info:{quirk}"
