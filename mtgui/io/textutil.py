"""Small text helpers the readers share: line numbers, whole numbers and mteval's idea of
whitespace."""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from mtgui.engine.core import InputError

# Perl's \s under Unicode rules (Perl >= 5.18), which is what mteval-v13a.pl collapses inside
# SGML documents. Python's \s differs: it also matches U+001C..U+001F. U+FEFF is in neither.
PERL_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACE_RUN = re.compile(f"[{PERL_SPACE}]+")
_EDGE_SPACE = re.compile(f"^[{PERL_SPACE}]+|[{PERL_SPACE}]+$")


def collapse_space(text: str) -> str:
    """Collapse whitespace runs to one space and trim, as mteval-v13a sees SGML segments."""
    return _EDGE_SPACE.sub("", _SPACE_RUN.sub(" ", text))


class LineIndex:
    """Maps character offsets in a text to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self._starts = [m.end() for m in re.finditer("\n", text)]

    def line_of(self, offset: int) -> int:
        """The 1-based line holding the character at ``offset``."""
        return bisect.bisect_right(self._starts, offset) + 1


MAX_WHOLE_DIGITS = 100
"""The most digits of a segment or line number read: far beyond any test set, and far below
Python's limit for turning text into an integer (4,300 digits, a ValueError beyond)."""
_WHOLE = re.compile(r"\+?[0-9]+")


def whole_number(text: str, what: str, path: str | Path | None, line: int | None) -> int | None:
    """``text`` as an integer when it is ASCII digits with an optional ``+`` (no float on the
    way, so 99999999999999999999999 stays itself); None when it is not written so.

    Raises
    ------
    InputError
        If it has more than :data:`MAX_WHOLE_DIGITS` digits (leading zeros aside), naming
        ``what`` it is, the file and the line.
    """
    number = text.strip()
    if not _WHOLE.fullmatch(number):
        return None
    digits = number.lstrip("+").lstrip("0")
    if len(digits) > MAX_WHOLE_DIGITS:
        raise InputError(
            f"the {what} has {len(digits):,} digits: no test set has that many segments (mtgui "
            f"reads numbers of at most {MAX_WHOLE_DIGITS} digits here).",
            path=path,
            line=line,
        )
    return int(digits or "0")
