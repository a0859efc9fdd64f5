"""How long a resampling phase has left, from its pace so far, for the status line.

The pace is measured from the first progress report of a phase, not from the start of the
run: scoring the systems and a phase's start-up (drawing the first indices, warming caches)
would otherwise make the first estimates far too long. A phase that starts over (the
randomization after the bootstrap) counts from its own first report.
"""

from __future__ import annotations

import time

from mtgui.engine.resampling import BootstrapProgress


class TimeLeft:
    """The seconds left in the current resampling phase of one run."""

    def __init__(self) -> None:
        self._phase_started: float | None = None  # when the current phase's first report came
        self._phase_done = 0  # what that report said was done

    def reset(self) -> None:
        """A new run: the next report starts a phase."""
        self._phase_started = None
        self._phase_done = 0

    def seconds(self, done: int, total: int) -> float:
        """About how long the rest of the phase takes, at the pace since its first report."""
        if self._phase_started is None or done < self._phase_done:
            self._phase_started, self._phase_done = time.monotonic(), done
        elapsed = time.monotonic() - self._phase_started
        remaining = total - done
        return elapsed * remaining / max(done - self._phase_done, 1)

    def message(self, snapshot: BootstrapProgress) -> str:
        """The status line's words for ``snapshot``, with the time left."""
        left = self.seconds(snapshot.done, snapshot.total)
        return (
            f"Resampling ({snapshot.phase}): {snapshot.done:,} of {snapshot.total:,}, "
            f"about {left:.0f} s left"
        )
