"""Messages in the window's words: a reader's message without command-line options. No Qt.

The readers and checks are shared with the command line, whose hints may name its options
("Add at least one file of reference translations (--ref)."): words that mean nothing to a
window user. The desktop application shows every reader's message through
:func:`window_message`.
"""

from __future__ import annotations

import re

from mtgui.engine.core import InputError

_OPTION = re.compile(r"--[a-z][a-z0-9-]*")
_OPTIONS_IN_PARENTHESES = re.compile(r"\s*\(([^()]*--[a-z][^()]*)\)")
_ALTERNATIVE = re.compile(r"\bor (?!--)(.+)$")  # "--name on the command line, or rename it ..."
_FILE_OPTIONS = frozenset({"--ref", "--hyp", "--src", "--scores"})
_DROP_IT = " (drop the file on the window, or use File > Open)"


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
