"""Small text helpers the readers share: line numbers and mteval's idea of whitespace."""

from __future__ import annotations

import bisect
import re

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
