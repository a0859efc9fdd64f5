"""What a command shows while it works: the progress of an engine generator, at a terminal."""

from __future__ import annotations

import sys
from collections.abc import Generator
from contextlib import closing
from typing import Protocol, TypeVar

T = TypeVar("T")


class _Progress(Protocol):
    """What every engine progress snapshot has."""

    @property
    def done(self) -> int: ...

    @property
    def total(self) -> int: ...


def drain(generator: Generator[_Progress, None, T], label: str) -> T:
    """Run an engine generator to its end, showing its progress at a terminal (its snapshot's
    ``phase``, or ``label`` for snapshots without one).

    Whatever ends the run (Ctrl+C, SIGTERM, an error), the generator is closed here, so that
    its own clean-up (the threads drawing resamples ahead) is done before the command exits.
    """
    show = sys.stderr.isatty()
    with closing(generator):
        while True:
            try:
                progress = next(generator)
            except StopIteration as finished:
                if show:
                    print("\r\033[K", end="", file=sys.stderr, flush=True)
                result: T = finished.value
                return result
            if show:
                phase = getattr(progress, "phase", label)
                print(
                    f"\r{phase}: {progress.done}/{progress.total}\033[K",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
