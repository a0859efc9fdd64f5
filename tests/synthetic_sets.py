"""Small synthetic test sets written as plain text: a reference and system outputs made from it
by replacing words at a given rate (a lower rate scores higher). For the runs' and the
campaigns' tests; the benchmark makes its own, larger ones."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

VOCABULARY = [f"w{i}" for i in range(300)]


def sentences(rng: np.random.Generator, count: int) -> list[list[str]]:
    """``count`` reference sentences of 6 to 14 words."""
    return [
        [VOCABULARY[j] for j in rng.integers(0, len(VOCABULARY), rng.integers(6, 15))]
        for _ in range(count)
    ]


def noisy(rng: np.random.Generator, reference: list[list[str]], rate: float) -> list[str]:
    """The reference with each word replaced at ``rate``."""
    lines = []
    for words in reference:
        swapped = rng.random(len(words)) < rate
        picks = rng.integers(0, len(VOCABULARY), len(words))
        chosen = zip(words, swapped, picks, strict=True)
        lines.append(" ".join(VOCABULARY[p] if s else w for w, s, p in chosen))
    return lines


def write_set(folder: Path, rates: Mapping[str, float], count: int = 40, seed: int = 1) -> Path:
    """A reference ``ref.txt`` and one ``NAME.txt`` per system in ``folder``; returns it."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    reference = sentences(rng, count)
    (folder / "ref.txt").write_text("\n".join(" ".join(w) for w in reference) + "\n")
    for name, rate in rates.items():
        (folder / f"{name}.txt").write_text("\n".join(noisy(rng, reference, rate)) + "\n")
    return folder
