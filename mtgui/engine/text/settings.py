"""The tokenizers mtgui offers and how letters are compared: the choices of
the text stage, which every metric's settings take.
"""

from __future__ import annotations

from enum import StrEnum

TOKENIZERS = (
    "13a",
    "intl",
    "zh",
    "char",
    "none",
    "ja-mecab",
    "ko-mecab",
    "flores101",
    "flores200",
    "spm",
)
"""13a (mteval-v13a = sacreBLEU 13a, the default), and sacreBLEU's intl, zh, char, none,
ja-mecab and ko-mecab (which need an extra: see :mod:`~mtgui.engine.text.extra_tokenizers`),
and spBLEU's SentencePiece tokenizers flores101, flores200 and spm (an older name of
flores101), which need the ``spm`` extra and sacreBLEU's model files (see
:mod:`~mtgui.engine.text.spm`)."""


DEFAULT_TOKENIZER = "13a"


class Case(StrEnum):
    """How letters are compared.

    ``SENSITIVE`` is sacreBLEU's default and mteval's ``-c``; ``FULL`` lowercases all of Unicode
    (sacreBLEU ``-lc``); ``ASCII`` lowercases only A-Z, as mteval-v13a does without ``-c``.
    """

    SENSITIVE = "sensitive"
    FULL = "full"
    ASCII = "ascii"
