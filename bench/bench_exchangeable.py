"""Exchangeable systems through the command line: how often does mtgui call them different?

Two real WMT21 is-en outputs, A and B, are mixed into pairs (X_k, Y_k): on every segment a fair
coin says whether X_k takes A's sentence and Y_k B's, or the other way round. X_k and Y_k are
then exchangeable: any difference between them is chance, and a calibrated 5% test calls
about 5% of the pairs significant. Each run of ``mtgui eval --metrics bleu --json -`` gets
``--pairs-per-run`` pairs as plain text (so segments are resampled); only the X_k-Y_k pairs of
its grid are counted. Prints the share of pairs significant by ``p_value``, by the verdict and
by sacreBLEU's p-value, with binomial standard errors.

    python bench/bench_exchangeable.py [--pairs 300] [--pairs-per-run 20] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt21-newstest2021-is-en" / "txt"
SYSTEMS = ("Online-A", "Mideind")  # BLEU 33.57 and 33.52: close, but not identical outputs


def read(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


def one_run(folder: Path, pairs: int, first: int, resamples: int, rng: np.random.Generator) -> list:
    """Write ``pairs`` exchangeable pairs, evaluate them, return their comparisons."""
    a, b = (read(f"systems/newstest2021.is-en.{s}.en") for s in SYSTEMS)
    paths = []
    for k in range(first, first + pairs):
        swap = rng.random(len(a)) < 0.5
        x = [bb if s else aa for aa, bb, s in zip(a, b, swap, strict=True)]
        y = [aa if s else bb for aa, bb, s in zip(a, b, swap, strict=True)]
        for name, lines in ((f"X{k}", x), (f"Y{k}", y)):
            path = folder / f"{name}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths.append(str(path))
    command = [
        sys.executable,
        "-m",
        "mtgui",
        "eval",
        "--ref",
        str(DATA / "newstest2021.is-en.ref.A.en"),
    ]
    command += ["--hyp", *paths, "--metrics", "bleu", "--bootstrap", str(resamples), "--json", "-"]
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    wanted = {(f"X{k}", f"Y{k}") for k in range(first, first + pairs)}
    return [p for p in report["pairs"] if (p["x"], p["y"]) in wanted]


def share(hits: int, total: int) -> str:
    value = hits / total
    return f"{100 * value:.1f}% +- {100 * math.sqrt(value * (1 - value) / total):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--pairs-per-run", type=int, default=20)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found: list = []
    with tempfile.TemporaryDirectory() as folder:
        for first in range(0, args.pairs, args.pairs_per_run):
            size = min(args.pairs_per_run, args.pairs - first)
            found += one_run(Path(folder), size, first, args.resamples, rng)
    total = len(found)
    print(
        f"{total} exchangeable pairs of {' and '.join(SYSTEMS)} (WMT21 is-en), B = {args.resamples}"
    )
    for label, hits in (
        ("p_value < 0.05:          ", sum(p["p_value"] < 0.05 for p in found)),
        ("verdict not ~:           ", sum(p["verdict"] != "~" for p in found)),
        ("p_value_sacrebleu < 0.05:", sum(p["p_value_sacrebleu"] < 0.05 for p in found)),
    ):
        print(f"{label} {share(hits, total)}")
    print(f"mean p_value:             {np.mean([p['p_value'] for p in found]):.3f}")
    agree = all((p["verdict"] == "~") == (p["p_value"] >= 0.05) for p in found)
    print(f"verdict ~ exactly when p_value >= 0.05: {agree}")


if __name__ == "__main__":
    main()
