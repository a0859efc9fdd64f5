"""Tokenizers and case folding, exactly as mteval-v13a and sacreBLEU apply them.

``13a`` is implemented here for speed: the same four regular expressions as mteval-v13a and
sacreBLEU's ``Tokenizer13a``, run once over all segments joined by newlines instead of once per
segment. Every segment is padded with a space on both sides (as 13a does) before joining, so no
pattern can reach across a segment boundary, and the result equals sacreBLEU's token for token
(tested on all shared data and on random text). The other tokenizers are sacreBLEU's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from mtgui.engine.settings import Case

# mteval-v13a / sacreBLEU 13a, in their order. The first rule pads punctuation with spaces:
# r"([\{-\~\[-\` -\&\(-\+\:-\@\/])" -> r" \1 ". Its class includes the space itself, which
# it pads to three spaces: that changes no token and no later rule (they only ask whether a
# neighbour is a digit), so the space is left out here, which makes the rule 25x faster.
_13A_PUNCTUATION = re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")
_13A_RULES = (
    (_13A_PUNCTUATION, r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period and comma unless after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period and comma unless before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold_case(text: str, case: Case) -> str:
    """Lowercase ``text`` as the case setting says (or leave it)."""
    if case is Case.FULL:
        return text.lower()
    if case is Case.ASCII:
        return text.translate(_ASCII_LOWER)
    return text


def tokenize(texts: Sequence[str], tokenizer: str, case: Case) -> list[list[str]]:
    """The tokens of every segment.

    Case folding follows the implementation each setting imitates: full lowercasing before
    tokenizing (sacreBLEU ``-lc``), ASCII lowercasing after 13a has decoded entities
    (mteval-v13a). Trailing whitespace is stripped first, as sacreBLEU does.
    """
    if tokenizer == "13a":
        return _tokenize_13a(texts, case)
    split = _sacrebleu_tokenizer(tokenizer)
    if case is Case.FULL:
        return [split(text.lower().rstrip()).split() for text in texts]
    return [
        split(text.rstrip()).translate(_ASCII_LOWER).split()
        if case is Case.ASCII
        else split(text.rstrip()).split()
        for text in texts
    ]


def _tokenize_13a(texts: Sequence[str], case: Case) -> list[list[str]]:
    """13a over all segments at once (see the module docstring)."""
    padded = []
    for text in texts:
        if case is Case.FULL:
            text = text.lower()
        text = text.rstrip().replace("<skipped>", "")
        if "\n" in text:
            text = text.replace("-\n", "").replace("\n", " ")
        padded.append(f" {text} ")
    joined = "\n".join(padded)
    if "&" in joined:
        for entity, char in _ENTITIES:
            joined = joined.replace(entity, char)
    if case is Case.ASCII:
        joined = joined.translate(_ASCII_LOWER)
    for pattern, replacement in _13A_RULES:
        joined = pattern.sub(replacement, joined)
    return [line.split() for line in joined.split("\n")]


@cache
def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's tokenizer of that name (imported only when needed)."""
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    classes = {
        "intl": TokenizerV14International,
        "zh": TokenizerZh,
        "char": TokenizerChar,
        "none": NoneTokenizer,
    }
    tokenizer: Callable[[str], str] = classes[name]()
    return tokenizer
