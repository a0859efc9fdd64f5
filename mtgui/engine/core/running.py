"""Running the engine's long generators to their end, for code that does not need progress."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

T = TypeVar("T")


def run_to_end(generator: Generator[Any, None, T]) -> T:
    """Exhaust ``generator`` and return what it returns."""
    while True:
        try:
            next(generator)
        except StopIteration as finished:
            result: T = finished.value
            return result
