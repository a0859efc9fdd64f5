"""Benchmark: ``mtgui eval`` on 100,000 segments x 10 systems x 2 references, time and memory.

The set of ``bench_statistics.write_large_set`` (the benchmark set's lines repeated and shifted
so that every system differs), with its second system output taken as a second reference.
``mtgui eval`` scores BLEU + NIST + M-BLEU and bootstraps them (B = 1,000, every pair) from the
files to the JSON report; next to it, in the same run, sacreBLEU scores BLEU alone, without a
bootstrap, on the same files (``--no-sacrebleu`` leaves it out: it takes minutes). Each runs as
a fresh process; reported: wall time, CPU time and the peak resident memory of the process
(``wait4``'s ``ru_maxrss``, as ``/usr/bin/time -v`` reports it; tokenizing worker processes, if
any start, are not counted in it). Issue 17's goals: under 15 s and 1.5 GB. Machines are noisy:
read the ratio and the memory, not the seconds.

    python bench/bench_cli_large.py [--segments 100000] [--systems 10] [--runs 1] [--no-sacrebleu]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench_statistics import SHARED, compile_bytecode, write_large_set
from record import record

B = 1000


@dataclass(frozen=True)
class Run:
    """One process's wall time, CPU time (user + system) and peak resident memory."""

    wall: float
    cpu: float
    peak_mb: float

    def __str__(self) -> str:
        return f"{self.wall:6.1f} s wall, {self.cpu:6.1f} s CPU, peak {self.peak_mb:,.0f} MB"


def measured(command: list[str]) -> Run:
    """Run ``command`` in a fresh process (output discarded) and measure it."""
    start = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        error = process.stderr.read() if process.stderr else b""
    if process.returncode:
        raise SystemExit(f"{command[2:4]} failed:\n{error.decode(errors='replace')}")
    wall = time.perf_counter() - start
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def write_files(folder: Path, segments: int, systems: int) -> tuple[list[Path], list[Path]]:
    """The references and system outputs: the large set's reference, its first output as the
    second reference, and the next ``systems`` outputs."""
    reference, outputs = write_large_set(folder, segments, systems + 1)
    second = outputs[0].rename(folder / "ref1.txt")
    return [reference, second], outputs[1:]


def main() -> None:
    """Write the set, run mtgui (and sacreBLEU), print what each took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-sacrebleu", action="store_true")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        refs, systems = write_files(folder, args.segments, args.systems)
        compile_bytecode()
        files = [*("--ref", *map(str, refs)), *("--hyp", *map(str, systems))]
        ours = [
            sys.executable,
            *("-m", "mtgui", "eval", *files, "--metrics", "bleu,nist,mbleu"),
            *("--bootstrap", str(B), "--json", str(folder / "report.json"), "--overwrite"),
        ]
        theirs = [sys.executable, "-m", "sacrebleu", *map(str, refs), "-i", *map(str, systems)]
        print(f"set: {args.segments:,} segments x {args.systems} systems x 2 references")
        for _ in range(args.runs):
            mine = measured(ours)
            print(f"mtgui eval, BLEU + NIST + M-BLEU, B = {B:,}, every pair: {mine}")
            if not args.no_sacrebleu:
                sacre = measured([*theirs, "-m", "bleu"])
                print(f"sacreBLEU, BLEU alone, no bootstrap:                {sacre}")
                print(f"ratio: {sacre.wall / mine.wall:.1f}x (wall)")
        record(
            "cli_large",
            segments=args.segments,
            systems=args.systems,
            mtgui_s=mine.wall,
            mtgui_peak_mb=mine.peak_mb,
        )


if __name__ == "__main__":
    main()
