"""Text from the user's files made safe to print on a terminal.

A system name, a file name or a note can hold anything a file held: an escape sequence that
recolours or clears the terminal, retitles its window or moves the cursor, a carriage return
that overwrites the line, or a bidirectional override that shows the text in another order
than it is stored (Boucher & Anderson's "Trojan Source", 2021). Everything mtgui prints to a
terminal goes through :func:`printable`, which writes such characters as visible escapes
(``\\x1b``, ``\\u202e``) instead. Only the printing does this: JSON and CSV files keep the real
names (JSON escapes control characters itself).
"""

from __future__ import annotations

import re

# Bidirectional formatting characters: marks, embeddings, overrides and isolates.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# C0 controls, DEL, C1 controls, the line and paragraph separators, and the bidi characters.
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character, line or paragraph separator and bidirectional
    formatting character written as a visible escape; those in ``keep`` (``"\\n"`` for text
    of several lines) stay as they are.

    Letters of every script, combining marks and joiners (U+200C, U+200D, which Persian and
    emoji need) are left alone.
    """
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda found: _escape(found.group(), keep), text)


def _escape(character: str, keep: str) -> str:
    """``\\x1b`` for a character below U+0100, else ``\\u202e``."""
    if character in keep:
        return character
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
