"""Benchmark: a setting change in the window re-uses the statistics of the run before.

Drives the window's ``AnalysisController`` in its synchronous mode (the run's work in this
thread, the same code as on the window's worker thread; the corpus assembled again from the
files read for every run, as the window does) on
- WMT21 is-en (the WMT XML: 1,000 segments, 10 systems), BLEU + NIST + M-BLEU, B = 2,000;
- with ``--large``, the 100,000 segments x 20 systems of ``bench_gui_large.py``, B = 1,000;
and times, once the files are read: a first run (statistics kept from none), a run after a
seed change or B halved, after ticking one more metric (WER, then chrF; WER only on the large
set), and the bootstrap alone from the statistics in memory, which is what a seed change
cannot avoid. Machines are noisy: read the ratios, not the seconds.

    QT_QPA_PLATFORM=offscreen python bench/bench_rerun.py [--large]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_statistics import SHARED, write_large_set
from PySide6.QtCore import QCoreApplication

from mtgui.app.analysis import AnalysisController
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.corpus import Corpus, Role
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.streams import LoadedFile

SEGMENTS, SYSTEMS = 100_000, 20
WMT21_XML = SHARED / "wmt21-newstest2021-is-en" / "xml" / "newstest2021.is-en.all.xml"


class Settings:
    """The settings panel's stand-in."""

    def __init__(self, value: AnalysisSettings) -> None:
        self.value = value

    def settings(self) -> AnalysisSettings:
        return self.value


@dataclass
class Files:
    """The window's loaded files' stand-in: files read once, a corpus assembled at each run."""

    workspace: FilesRead
    busy: bool = False


@dataclass
class FilesRead:
    """A workspace's stand-in: what the analysis controller reads of it."""

    files: list[LoadedFile]
    entries: tuple[()] = ()
    renamed_systems: dict[str, str] = field(default_factory=dict)
    hidden_systems: frozenset[str] = frozenset()

    def corpus(self) -> Corpus:
        return assemble(self.files)


class Times(dict[str, float]):
    """Seconds by what was timed, each printed as soon as it is known (a large set is slow)."""

    def __setitem__(self, what: str, seconds: float) -> None:
        super().__setitem__(what, seconds)
        print(f"  {what:<40} {seconds:7.2f} s", flush=True)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def bench(
    name: str, paths: dict[Path, Role | None], resamples: int, added: tuple[str, ...]
) -> None:
    """Read ``paths``, then time the runs a user's setting changes start; print the times."""
    start = time.perf_counter()
    files = Files(FilesRead([load_file(path, role and {role}) for path, role in paths.items()]))
    corpus = files.workspace.corpus()
    print(
        f"\n{name}: {corpus.test_set.size:,} segments, {len(corpus.systems)} systems, "
        f"B = {resamples:,}; read in {time.perf_counter() - start:.2f} s"
    )
    settings = Settings(AnalysisSettings(resamples=resamples))
    analysis = AnalysisController(files, settings, synchronous=True)  # type: ignore[arg-type]
    cache = analysis.statistics_cache
    times = Times()
    first, seed = _runs(analysis, settings, times, "3 metrics")
    for metric in added:
        settings.value = replace(settings.value, metrics=(*settings.value.metrics, metric))
        misses = cache.misses
        times[f"{metric} ticked"] = timed(analysis.run)
        assert cache.misses - misses == len(corpus.systems), "extracted more than the metric"
    every = f"{3 + len(added)} metrics"
    all_first, all_seed = _runs(analysis, settings, times, every)
    print(
        f"  a new seed: {first / seed:.1f}x faster than a full run with 3 metrics, "
        f"{all_first / all_seed:.1f}x with {every}"
    )
    print(f"  statistics kept: {len(cache)} rows arrays, {cache.nbytes / 2**20:.0f} MiB")
    assert analysis.runs.shutdown()


def _runs(
    analysis: AnalysisController, settings: Settings, times: Times, what: str
) -> tuple[float, float]:
    """Time a run from nothing kept, the bootstrap alone and a run after a seed change;
    return the times of the two runs."""
    analysis.statistics_cache.clear()
    first = times[f"first run, {what} (nothing kept)"] = timed(analysis.run)
    result = analysis.result
    assert result is not None, "the analysis did not run"
    documents = result.corpus.test_set.document_index_if_any()
    times[f"bootstrap alone, {what}"] = timed(
        lambda: run_to_end(iter_bootstrap(result.statistics, result.bootstrap.settings, documents))
    )
    settings.value = replace(settings.value, seed=settings.value.seed + 1)
    seed = times[f"seed changed, {what}"] = timed(analysis.run)
    settings.value = replace(settings.value, resamples=settings.value.resamples // 2)
    times[f"B halved, {what}"] = timed(analysis.run)
    settings.value = replace(settings.value, resamples=settings.value.resamples * 2)
    return first, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true", help="also 100,000 segments x 20")
    args = parser.parse_args()
    app = QCoreApplication.instance() or QCoreApplication([])
    if WMT21_XML.exists():
        bench("WMT21 is-en", {WMT21_XML: None}, 2000, ("wer", "chrf"))  # the XML: everything in it
    else:
        print(f"(WMT21 is-en skipped: {WMT21_XML} is absent)")
    if args.large:
        with tempfile.TemporaryDirectory() as folder:
            reference, systems = write_large_set(Path(folder), SEGMENTS, SYSTEMS)
            roles: dict[Path, Role | None] = {reference: Role.REFERENCE}
            roles.update(dict.fromkeys(systems, Role.SYSTEM))
            bench("100,000 segments x 20 systems", roles, 1000, ("wer",))  # chrF: half an hour
    del app


if __name__ == "__main__":
    main()
