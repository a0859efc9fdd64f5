"""Names from the user's files, isolated for a report that is read by someone else.

A system or file name may hold a bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE, an
embedding, an isolate) that is never closed. Put into a report as it is, such a name reorders
the text after it on the same line: the next system's score, a cell of the table, the rest of a
sentence (Boucher & Anderson's "Trojan Source", 2021). A name in Arabic or Hebrew needs no
control at all to move a neighbouring number to its other side. Both are closed the way the
Unicode Bidirectional Algorithm (UAX #9) provides: the name's own controls are balanced (a
closing control without its opening one is dropped, an opening one without its closing one is
closed at the name's end) and the name is put in an isolate (FSI ... PDI in plain text, ``<bdi>``
in HTML), which takes its direction from its own first strong letter and leaves the text around
it as it was. The name itself stays readable; only the unmatched controls change.

The terminal gets another treatment: :func:`mtgui.engine.core.escapes.printable` shows every
control as a visible escape. CSV and JSON files keep the exact names (they are data for
programs: a name must compare equal to the one in the user's files).
"""

from __future__ import annotations

from html import escape

FSI = "\u2068"  # FIRST STRONG ISOLATE
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE
PDF = "\u202c"  # POP DIRECTIONAL FORMATTING
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE, RLE, LRO, RLO: closed by PDF
_ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI: closed by PDI


def balanced(text: str) -> str:
    """``text`` with its bidirectional controls balanced: a PDF or PDI that closes nothing is
    dropped, and whatever is still open at the end is closed there (in UAX #9's nesting: a PDI
    also closes the embeddings opened inside its isolate)."""
    if not any(c in _EMBEDDINGS or c in _ISOLATES or c in (PDF, PDI) for c in text):
        return text
    out: list[str] = []
    open_: list[str] = []  # the closing character each opened control waits for
    for character in text:
        if character in _EMBEDDINGS or character in _ISOLATES:
            open_.append(PDF if character in _EMBEDDINGS else PDI)
        elif character == PDF:
            if not open_ or open_[-1] != PDF:
                continue  # closes nothing (or would cross an isolate): dropped
            open_.pop()
        elif character == PDI:
            if PDI not in open_:
                continue  # closes nothing: dropped
            while open_[-1] != PDI:
                out.append(open_.pop())  # the embeddings inside the isolate, closed first
            open_.pop()
        out.append(character)
    out.extend(reversed(open_))
    return "".join(out)


def isolated(text: str) -> str:
    """``text`` balanced and inside FSI ... PDI: for plain text (the PDF, SVG, a title)."""
    return f"{FSI}{balanced(text)}{PDI}"


def html_isolated(text: str) -> str:
    """``text`` balanced, escaped and inside ``<bdi>``: for the body of an HTML report."""
    return f"<bdi>{escape(balanced(text))}</bdi>"
