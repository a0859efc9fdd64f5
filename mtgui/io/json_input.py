"""Reading JSON that a user gives (sessions, comet-score's ``--to_json`` file) within bounds.

Python's ``json`` parses nested arrays and objects by recursion, so a file of 100,000 ``[``
ends in a ``RecursionError`` (or, on a thread with a small stack, worse); and it turns a
number without a decimal point into an ``int``, which refuses more than 4,300 digits with a
``ValueError``. Neither is a message for a user. :func:`load_json` therefore looks at the text
first, without recursion: the nesting depth (at most :data:`MAX_DEPTH`) and the length of
every number (at most :data:`MAX_NUMBER_CHARS` characters), each refused with the line where
the limit is passed. What the JSON files mtgui reads need is far below both (a session nests
4 levels, comet-score's file 3; a double needs 17 significant digits, and a number written
without an exponent down to 1e-308 about 330 characters).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mtgui.engine.core import InputError

MAX_DEPTH = 100
"""The deepest nesting of arrays and objects read."""
MAX_NUMBER_CHARS = 400
"""The longest number read, in characters."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_LONG_NUMBER = re.compile(rf"-?[0-9][0-9.eE+-]{{{MAX_NUMBER_CHARS},}}")
_OPENERS = "[{"
_BRACKETS = re.compile(r"[\[\]{}]")


def load_json(text: str, path: str | Path, prefix: str = "") -> object:
    """The JSON value of ``text`` (the contents of ``path``), or an :class:`InputError` that
    names the file (and the line where known) and says, after ``prefix``, what is wrong.

    Raises
    ------
    InputError
        If the text is not valid JSON, nests deeper than :data:`MAX_DEPTH` or holds a number
        longer than :data:`MAX_NUMBER_CHARS` characters.
    """
    check_json_bounds(text, path, prefix)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{prefix}it is not valid JSON ({error.msg}, column {error.colno}).",
            path=path,
            line=error.lineno,
        ) from None
    except RecursionError:  # not reached after the check; kept so that no traceback can be
        raise InputError(f"{prefix}its JSON is nested far too deeply.", path=path) from None
    except ValueError as error:
        raise InputError(
            f"{prefix}it holds a value mtgui cannot read ({error}).", path=path
        ) from None


def check_json_bounds(text: str, path: str | Path, prefix: str = "") -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` or with a number longer than
    :data:`MAX_NUMBER_CHARS` characters, naming the line; in time proportional to the text,
    no recursion.

    Strings are blanked first (their brackets and digits are text), keeping the line breaks
    (a JSON string holds none).
    """
    bare = _without_strings(text)  # strings are the bulk of comet-score's JSON: far shorter
    number = _LONG_NUMBER.search(bare)
    if number is not None:
        raise InputError(
            f"{prefix}it holds a number of {len(number.group()):,} characters; mtgui reads "
            f"numbers of at most {MAX_NUMBER_CHARS} characters.",
            path=path,
            line=bare.count("\n", 0, number.start()) + 1,
        )
    few = sum(bare.count(c) for c in _OPENERS) <= MAX_DEPTH  # then it cannot nest too deep
    deepest = None if few else _first_too_deep(bare)
    if deepest is not None:
        raise InputError(
            f"{prefix}its JSON is nested more than {MAX_DEPTH} levels deep; mtgui reads at "
            f"most {MAX_DEPTH}.",
            path=path,
            line=bare.count("\n", 0, deepest) + 1,
        )


def _without_strings(text: str) -> str:
    """``text`` with every JSON string emptied (``""``), line breaks kept (a string holds none).

    Without a backslash before a quote no quote is escaped, so the quotes simply alternate
    between opening and closing a string: splitting at them is a third faster than the
    pattern, which is needed only where escapes may hide a quote.
    """
    if '\\"' in text:
        return _STRING.sub('""', text)
    return '""'.join(text.split('"')[0::2])


def _first_too_deep(bare: str) -> int | None:
    """Where the nesting of ``bare`` (JSON without strings) first passes :data:`MAX_DEPTH`."""
    depth = 0
    for bracket in _BRACKETS.finditer(bare):
        if bracket.group() in _OPENERS:
            depth += 1
            if depth > MAX_DEPTH:
                return bracket.start()
        else:
            depth -= 1
    return None
