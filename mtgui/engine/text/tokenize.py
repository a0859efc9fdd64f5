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

from mtgui.engine.text.extra_tokenizers import check_tokenizer_installed
from mtgui.engine.text.settings import Case
from mtgui.engine.text.spm import SPM_TOKENIZERS, spm_tokenizer

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
# For the fast path of rules 2-4 (see _apply_rules_fast).
# (Each pattern starts with its literal character, which the regex engine scans for quickly;
# the look-behind then checks the digit before it.)
_DECIMAL_STOPS = tuple(
    (stop, re.compile(rf"{re.escape(stop)}(?<=[0-9]{re.escape(stop)})(?=[0-9])")) for stop in ".,"
)
_DASH_AFTER_DIGIT = re.compile(r"-(?<=[0-9]-)")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))  # in this order
_ENTITY = re.compile("&(?:quot|amp|lt|gt);")  # any of them
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


_BLOCK = 2000  # segments per pass of the 13a rules in tokenize_flat
SEGMENT_BREAK = "\0"
"""Stands between the segments in :func:`tokenize_flat`; no text holds it (the decoder refuses
NUL bytes, and text that has one anyway takes the slow path)."""


def tokenize_flat(texts: Sequence[str], tokenizer: str, case: Case) -> list[str]:
    """All tokens of all segments in one list, :data:`SEGMENT_BREAK` between segments.

    The same tokens as :func:`tokenize`, without building a list per segment: for 13a the
    whole text is split once, which is much faster on large test sets.
    """
    if tokenizer == "13a" and not any(SEGMENT_BREAK in text for text in texts):
        # Block by block: a regular expression over a whole large test set holds the GIL for
        # a tenth of a second or more, and the window's thread would stall that long.
        flat: list[str] = []
        for start in range(0, len(texts), _BLOCK):
            if start:
                flat.append(SEGMENT_BREAK)
            block = _rules_applied_13a(texts[start : start + _BLOCK], case)
            flat += block.replace("\n", f" {SEGMENT_BREAK} ").split()
        return flat
    flat = []
    for number, tokens in enumerate(tokenize(texts, tokenizer, case)):
        if number:
            flat.append(SEGMENT_BREAK)
        flat += [t for t in tokens if t != SEGMENT_BREAK]
    return flat


def _tokenize_13a(texts: Sequence[str], case: Case) -> list[list[str]]:
    """13a over all segments at once (see the module docstring)."""
    return [line.split() for line in _rules_applied_13a(texts, case).split("\n")]


def _rules_applied_13a(texts: Sequence[str], case: Case) -> str:
    """The segments joined by newlines, with everything 13a does but the final split."""
    joined = _joined_padded(texts, case)
    if _ENTITY.search(joined):  # one scan; most texts hold none, and then four would be vain
        for entity, char in _ENTITIES:
            joined = joined.replace(entity, char)
    if case is Case.ASCII:
        joined = joined.translate(_ASCII_LOWER)
    tricky = _lines_with_adjacent_stops(joined)
    if not tricky:
        return _apply_rules_fast(joined)
    # The fast rules between those lines (no rule reaches across a padded line end), 13a's own
    # rules on them, all in one pass; the pieces are put back together in order.
    exact = _apply_rules_exactly("\n".join(joined[start:end] for start, end in tricky))
    pieces: list[str] = []
    done = 0
    for (start, end), line in zip(tricky, exact.split("\n"), strict=True):
        pieces += (_apply_rules_fast(joined[done:start]), line)
        done = end
    pieces.append(_apply_rules_fast(joined[done:]))
    return "".join(pieces)


def _joined_padded(texts: Sequence[str], case: Case) -> str:
    """The segments with a space on each side, joined by newlines, after what 13a does to a
    segment before its rules: lowercasing (``Case.FULL``), dropping ``<skipped>``, joining
    the segment's own lines.

    Most texts need none of that: no full lowercasing, no ``<skipped>``, no line break in a
    segment. Those are joined in one call, without the trailing whitespace being stripped
    segment by segment (sacreBLEU strips it): a space and trailing whitespace split alike, and
    no rule matches whitespace or tells one kind from another (each asks only whether a
    neighbour is a digit).
    """
    if case is not Case.FULL:
        joined = " " + " \n ".join(texts) + " "
        if joined.count("\n") == len(texts) - 1 and "<skipped>" not in joined:
            return joined
    padded = []
    for text in texts:
        if case is Case.FULL:
            text = text.lower()
        text = text.rstrip()
        if "<skipped>" in text:  # before the line breaks, as sacreBLEU: "-<skipped>\n." is "."
            text = text.replace("<skipped>", "")
        if "\n" in text:
            text = text.replace("-\n", "").replace("\n", " ")
        padded.append(f" {text} ")
    return "\n".join(padded)


def _apply_rules_exactly(joined: str) -> str:
    """The 13a rules as mteval and sacreBLEU apply them."""
    for pattern, replacement in _13A_RULES:
        joined = pattern.sub(replacement, joined)
    return joined


def _apply_rules_fast(joined: str) -> str:
    """The same rules, for segments where no '.' or ',' touches another '.' or ','.

    Then rules 2 and 3 together do exactly this: a period or comma gets a space on each side
    unless a digit stands on both sides. Each of the two characters is done in turn: its
    digit-flanked occurrences are hidden behind a NUL (no segment holds one; the decoder
    refuses them), the rest are padded, the hidden ones come back. Rule 4 becomes a literal
    replacement after a look-behind. No template is expanded per match, which is what makes
    the regular-expression version slow.
    """
    joined = _13A_PUNCTUATION.sub(_padded, joined)
    for stop, between_digits in _DECIMAL_STOPS:
        joined = between_digits.sub("\0", joined)
        joined = joined.replace(stop, f" {stop} ").replace("\0", stop)
    return _DASH_AFTER_DIGIT.sub(" - ", joined)


def _padded(match: re.Match[str]) -> str:
    """The first rule's replacement, `` \\1 ``, as a function: Python 3.11 expands a template
    for every match, which takes longer than this call (3.8 against 2.9 ms a text of 3,000
    segments)."""
    return f" {match.group()} "


def _lines_with_adjacent_stops(joined: str) -> list[tuple[int, int]]:
    """Where the lines of ``joined`` (the segments) in which '.' or ',' touches '.' or ','
    start and end (before their newline), in order.

    Every ',' is made a '.' in a copy, so that the four pairs are all ".." there, and
    ``str.find`` looks for that one pair (a scan at memory speed, where a regular expression
    looking for ``[.,][.,]`` steps through the text a character at a time): 0.4 ms a text of
    3,000 segments, where a scan for each of the four pairs took 1.3. The search goes on after
    the end of each line found.
    """
    stops = joined.replace(",", ".")
    lines: list[tuple[int, int]] = []
    position = stops.find("..")
    while position != -1:
        end = joined.find("\n", position)
        end = len(joined) if end == -1 else end
        lines.append((joined.rfind("\n", 0, position) + 1, end))
        position = stops.find("..", end)
    return lines


def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's tokenizer of that name, or spBLEU's on sacreBLEU's model file (found or
    downloaded at each call: :func:`~mtgui.engine.text.spm.spm_tokenizer` keeps the model
    loaded)."""
    if name in SPM_TOKENIZERS:
        return spm_tokenizer(name)
    return _sacrebleu_class_tokenizer(name)


@cache
def _sacrebleu_class_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's tokenizer of that name (imported only when needed; ja-mecab and ko-mecab
    checked first, so that a missing extra is an :class:`InputError` in words, not
    sacreBLEU's RuntimeError)."""
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    check_tokenizer_installed(name)
    # sacreBLEU's MeCab tokenizers have no type hints: each is a factory of a str -> str
    classes: dict[str, Callable[[], Callable[[str], str]]] = {
        "intl": TokenizerV14International,
        "zh": TokenizerZh,
        "char": TokenizerChar,
        "none": NoneTokenizer,
        "ja-mecab": TokenizerJaMecab,
        "ko-mecab": TokenizerKoMecab,
    }
    tokenizer: Callable[[str], str] = classes[name]()
    return tokenizer
