"""The one exception type that bad input raises, with a message meant for people.

Every reader and every check in mtgui raises :class:`InputError` for input it cannot use, so
callers (the command line, the desktop application) need to catch exactly one type and can show
its message as it is: it names the file, the line or segment where it can, says what is wrong
in plain words and, where there is one, what to do about it.
"""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Input that mtgui cannot use.

    Parameters
    ----------
    problem
        What is wrong, as a sentence a non-programmer understands.
    path
        The file concerned, if there is one.
    line
        The 1-based line number in that file, if known.
    hint
        What the user can do about it.
    """

    def __init__(
        self,
        problem: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.problem = problem
        self.path = None if path is None else Path(path)
        self.line = line
        self.hint = hint
        super().__init__(self.message)

    @property
    def where(self) -> str:
        """``file, line n`` (as much of it as is known), or an empty string."""
        parts = []
        if self.path is not None:
            parts.append(str(self.path))
        if self.line is not None:
            parts.append(f"line {self.line}")
        return ", ".join(parts)

    @property
    def message(self) -> str:
        """The whole message: where, what, and what to do."""
        text = f"{self.where}: {self.problem}" if self.where else self.problem
        if self.hint:
            text = f"{text} {self.hint}"
        return text

    def __str__(self) -> str:
        return self.message
