"""Reader for plain text: one segment per line.

Lines end in LF or CRLF (the decoder turns CRLF into LF); the last line may or may not end in
a newline; a file with only CR line ends (old Mac files) is split at the CRs. Empty lines are
empty segments. The text of a line is kept as it is: the tokenizers deal with whitespace.
"""

from __future__ import annotations

from functools import lru_cache

from mtgui.engine.core import InputError, Origin, Role
from mtgui.io.streams import TextStream

_SPLIT_BLOCK = 1 << 20  # characters split per hold of the interpreter lock


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends; no phantom last line after a final LF.

    Split a block of about :data:`_SPLIT_BLOCK` characters at a time (each block ends at a line
    end): files are read on a thread beside the window's, and one ``split`` of a 13 MB text
    into 100,000 lines holds the interpreter lock for 16-20 ms on a quiet machine, several
    times that on a busy one, while the window cannot draw.
    """
    separator = "\r" if "\n" not in text and "\r" in text else "\n"
    lines: list[str] = []
    start = 0
    while True:
        cut = text.find(separator, start + _SPLIT_BLOCK)
        if cut < 0:
            lines += text[start:].split(separator)
            break
        lines += text[start:cut].split(separator)
        start = cut + 1
    if lines[-1] == "":
        lines.pop()
    return lines


def read_plain_text(text: str, origin: Origin, role: Role) -> TextStream:
    """Read a plain-text file as one stream of the given role.

    Raises
    ------
    InputError
        If the file is empty.
    """
    if text == "":
        raise InputError("the file is empty.", path=origin.path)
    lines = split_lines(text)
    numbers, seg_ids = line_numbers(len(lines))
    return TextStream(
        role=role,
        name=None,
        doc_ids=None,
        seg_ids=seg_ids,
        texts=tuple(lines),
        lines=numbers,
        origin=origin,
    )


@lru_cache(maxsize=4)
def line_numbers(count: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The numbers 1 to ``count`` and their texts, shared by every file of ``count`` lines.

    Why shared: a reference and 20 systems of 100,000 lines each would otherwise hold 42 equal
    tuples of 100,000 objects (about 200 MB), and the window's garbage collector would visit
    every item of each once, on the GUI thread (:mod:`mtgui.app.garbage`).
    """
    numbers = tuple(range(1, count + 1))
    return numbers, tuple(map(str, numbers))
