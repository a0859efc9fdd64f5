"""Benchmark: a WMT-sized campaign, ``mtgui campaign`` against a sacreBLEU loop over its sets.

The bench makes its own data: 15 test sets x 12 systems x 2,000 segments of plain text
(sentences of 8 to 40 words drawn from a Zipf-like vocabulary of 20,000 words; each system
replaces, drops and reorders words at its own rates, which differ a little from set to set), and
a campaign file with BLEU + chrF + TER and B = 1,000. ``mtgui campaign`` runs from the files to
the JSON and HTML reports (every set analysed as ``mtgui eval`` would, every pair of every set,
then the aggregate). Beside it, in the same run, sacreBLEU runs once per set on the same files
with the same metrics and its paired bootstrap (``--paired-bs``, B = 1,000: each system against
the first, the only comparison it offers). Each runs as a fresh process; reported: wall time,
CPU time and peak resident memory. Machines are noisy: read the ratio.

    python bench/bench_campaign.py [--sets 15] [--systems 12] [--segments 2000]
                                   [--sacrebleu-sets N] [--no-sacrebleu]

``--sacrebleu-sets N`` runs sacreBLEU on the first N sets only and scales its time to all
sets (it takes minutes per set); the output says when it did.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_cli_large import Run, measured
from record import record

B = 1000
METRICS = ("bleu", "chrf", "ter")


def _vocabulary(size: int) -> list[str]:
    """Made-up words of 2 to 9 letters."""
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return ["".join(rng.choice(letters, rng.integers(2, 10))) for _ in range(size)]


def write_campaign(folder: Path, sets: int, systems: int, segments: int) -> Path:
    """The test sets' files and the campaign file; returns the campaign file."""
    words = np.array(_vocabulary(20_000))
    cumulative = np.cumsum(1 / np.arange(1, len(words) + 1))
    cumulative /= cumulative[-1]

    def draw(rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` words, Zipf-like."""
        return words[np.minimum(np.searchsorted(cumulative, rng.random(count)), len(words) - 1)]

    entries = []
    for s in range(sets):
        rng = np.random.default_rng(100 + s)
        lengths = rng.integers(8, 41, segments)
        reference = [draw(rng, n) for n in lengths]
        directory = folder / f"set{s:02d}"
        directory.mkdir(parents=True)
        (directory / "ref.txt").write_text("\n".join(" ".join(r) for r in reference) + "\n")
        names = []
        for k in range(systems):
            rate = 0.15 + 0.015 * k + rng.normal(0, 0.01)
            lines = []
            for sentence in reference:
                keep = rng.random(len(sentence)) > rate / 3
                out = np.where(
                    rng.random(len(sentence)) < rate,
                    draw(rng, len(sentence)),
                    sentence,
                )[keep]
                if len(out) > 3 and rng.random() < rate:
                    i = rng.integers(0, len(out) - 1)
                    out[[i, i + 1]] = out[[i + 1, i]]
                lines.append(" ".join(out))
            name = f"sys{k:02d}"
            (directory / f"{name}.txt").write_text("\n".join(lines) + "\n")
            names.append(f'"set{s:02d}/{name}.txt"')
        entries.append(
            f'[[test_sets]]\nname = "set{s:02d}"\nrefs = "set{s:02d}/ref.txt"\n'
            f"hyps = [{', '.join(names)}]\n"
        )
    metrics = ", ".join(f'"{m}"' for m in METRICS)
    text = f"[settings]\nmetrics = [{metrics}]\nbootstrap = {B}\n\n" + "\n".join(entries)
    path = folder / "campaign.toml"
    path.write_text(text)
    return path


def sacrebleu_loop(folder: Path, sets: int, systems: int) -> Run:
    """sacreBLEU once per set: BLEU, chrF and TER with its paired bootstrap (B = 1,000)."""
    wall = cpu = peak = 0.0
    for s in range(sets):
        directory = folder / f"set{s:02d}"
        hyps = [str(directory / f"sys{k:02d}.txt") for k in range(systems)]
        command = [
            *(sys.executable, "-m", "sacrebleu", str(directory / "ref.txt"), "-i", *hyps),
            *("-m", *METRICS, "--paired-bs", "--paired-bs-n", str(B), "-f", "text"),
        ]
        run = measured(command)
        wall, cpu, peak = wall + run.wall, cpu + run.cpu, max(peak, run.peak_mb)
    return Run(wall, cpu, peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", type=int, default=15)
    parser.add_argument("--systems", type=int, default=12)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--sacrebleu-sets", type=int, default=None)
    parser.add_argument("--no-sacrebleu", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mtgui-campaign-"))
    try:
        start = time.perf_counter()
        campaign = write_campaign(folder, args.sets, args.systems, args.segments)
        print(
            f"data: {args.sets} sets x {args.systems} systems x {args.segments} segments, "
            f"written in {time.perf_counter() - start:.1f} s"
        )
        command = [
            *(sys.executable, "-m", "mtgui", "campaign", str(campaign)),
            *("--json", str(folder / "c.json"), "--html", str(folder / "c.html")),
        ]
        mtgui = measured(command)
        print(f"mtgui campaign (every pair of every set, aggregate, JSON + HTML): {mtgui}")
        figures: dict[str, float | int | str] = {
            "sets": args.sets,
            "systems": args.systems,
            "segments": args.segments,
            "mtgui_wall": round(mtgui.wall, 2),
            "mtgui_cpu": round(mtgui.cpu, 2),
            "mtgui_peak_mb": round(mtgui.peak_mb),
        }
        if not args.no_sacrebleu:
            measured_sets = min(args.sacrebleu_sets or args.sets, args.sets)
            loop = sacrebleu_loop(folder, measured_sets, args.systems)
            scale = args.sets / measured_sets
            wall = loop.wall * scale
            extrapolated = f" (measured on {measured_sets} sets, scaled)" if scale != 1 else ""
            print(
                f"sacreBLEU loop (each system against the first, per set): {wall:6.1f} s wall"
                f"{extrapolated}, {loop.cpu * scale:6.1f} s CPU, peak {loop.peak_mb:,.0f} MB"
            )
            print(f"ratio: sacreBLEU / mtgui = {wall / mtgui.wall:.1f}x")
            figures.update(
                sacrebleu_wall=round(wall, 2),
                sacrebleu_sets_measured=measured_sets,
                ratio=round(wall / mtgui.wall, 2),
            )
        record("campaign", **figures)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
