"""Where a benchmark puts its figures for the harness (``bench/run.py``).

Each benchmark prints its figures for a person and hands the same figures to :func:`record`.
Run alone, that does nothing; run by ``bench/run.py``, which names a file in
``MTGUI_BENCH_RECORD``, the figures are added to that file as JSON lines (one per call), and the
harness gathers them into its results file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

RECORD_VARIABLE = "MTGUI_BENCH_RECORD"


def record(benchmark: str, **figures: float | int | str) -> None:
    """Add ``figures`` (seconds, ratios, megabytes, counts) of ``benchmark`` to the harness's
    record, if one is being kept."""
    target = os.environ.get(RECORD_VARIABLE)
    if not target:
        return
    line = json.dumps({"benchmark": benchmark, "figures": figures}, sort_keys=True)
    with Path(target).open("a", encoding="utf-8") as file:
        file.write(line + "\n")
