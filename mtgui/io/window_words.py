"""Messages in the window's words: a reader's message without command-line options. No Qt.

The readers and checks are shared with the command line, whose hints may name its options
("Add at least one file of reference translations (--ref)."): words that mean nothing to a
window user. The desktop application shows every reader's message through
:func:`window_message`.
"""

from __future__ import annotations

import re

from mtgui.engine.core import InputError
from mtgui.io.decode import AUTO, LATIN_1, UndecodedError

_OPTION = re.compile(r"--[a-z][a-z0-9-]*")
_OPTIONS_IN_PARENTHESES = re.compile(r"\s*\(([^()]*--[a-z][^()]*)\)")
_ALTERNATIVE = re.compile(r"\bor (?!--)(.+)$")  # "--name on the command line, or rename it ..."
_FILE_OPTIONS = frozenset({"--ref", "--hyp", "--src", "--scores"})
_DROP_IT = " (drop the file on the window, or use File > Open)"

ENCODING_NAMES = {AUTO: "UTF-8", LATIN_1: "Latin-1 (ISO-8859-1)"}
"""The encodings the window offers (those the command line's ``--encoding`` reads; its
``utf-8`` reads as ``auto`` does), in words. ``auto`` reads a file past its byte-order mark in
the mark's encoding (UTF-8, UTF-16 or UTF-32), and as UTF-8 without one."""


def read_as(encoding: str) -> str:
    """The words of the button (and menu entry) that reads a file in ``encoding``."""
    return f"Read as {ENCODING_NAMES.get(encoding, encoding)}"


def undecoded_message(error: UndecodedError) -> str:
    """The message of a file that does not decode, saying what to do in the window.

    The command line's hint names its option ``--encoding``; the window offers the encodings
    that may read the file (``error.choices``) under the file's refusal, and says so.
    """
    hint = "Save the file as UTF-8 and load it again."
    if error.choices:
        offers = " or ".join(f'"{read_as(choice)}"' for choice in error.choices)
        names = " or ".join(ENCODING_NAMES[choice].split(" (")[0] for choice in error.choices)
        hint = (
            f"If it is {names} text, click {offers} below (or right-click the file) to read "
            "it as it is; or save it as UTF-8 and load it again."
        )
    return InputError(error.problem, path=error.path, line=error.line, hint=hint).message


def window_message(error: InputError) -> str:
    """``error``'s message as the window shows it: without command-line options.

    The readers and checks are shared with the command line, and some of their messages name
    its options ("Add at least one file of reference translations (--ref)."): words that mean
    nothing in the window. In a hint, a parenthesis naming one file option says how to add the
    file in the window instead; one that offers an alternative to the command line keeps the
    alternative; any other is left out, and a hint that still names an option is dropped.
    """
    problem = _window_words(error.problem, hint=False) or error.problem
    hint = _window_words(error.hint, hint=True)
    if hint is not None and _OPTION.search(hint):
        hint = None
    return InputError(problem, path=error.path, line=error.line, hint=hint).message


def _window_words(text: str | None, hint: bool) -> str | None:
    """``text`` with its parentheses about command-line options put in the window's words."""
    if text is None or not _OPTION.search(text):
        return text

    def reworded(match: re.Match[str]) -> str:
        inside = match.group(1).strip()
        alternative = _ALTERNATIVE.search(inside)
        if "command line" in inside and alternative is not None:
            return f" ({alternative.group(1)})"
        if hint and inside in _FILE_OPTIONS:
            return _DROP_IT
        return ""

    return _OPTIONS_IN_PARENTHESES.sub(reworded, text)
