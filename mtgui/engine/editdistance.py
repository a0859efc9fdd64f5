"""Word-level Levenshtein distances for many sentence pairs at once (for WER).

The classic dynamic programme, one hypothesis position at a time but vectorised over all pairs
and all reference positions: a row's insertion chain is a running minimum,
``row[j] = j + min_{k<=j}(tmp[k] - k)``, so no Python loop runs over reference positions. Pairs
are processed in batches of similar hypothesis length to limit padding.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
_BATCH = 4096


def edit_distances(hypotheses: Sequence[IntArray], references: Sequence[IntArray]) -> IntArray:
    """The edit distance (insertions, deletions, substitutions) of each pair of id sequences."""
    result = np.zeros(len(hypotheses), dtype=np.int64)
    order = np.argsort([len(h) for h in hypotheses], kind="stable")
    for start in range(0, len(order), _BATCH):
        batch = order[start : start + _BATCH]
        result[batch] = _batch_distances(
            [hypotheses[i] for i in batch], [references[i] for i in batch]
        )
    return result


def _batch_distances(hypotheses: list[IntArray], references: list[IntArray]) -> IntArray:
    """Distances for one batch, padded to its longest sequences."""
    hyp_len = np.array([len(h) for h in hypotheses], dtype=np.int64)
    ref_len = np.array([len(r) for r in references], dtype=np.int64)
    width = int(ref_len.max(initial=0))
    refs = _pad(references, width, -2)  # the paddings -2 and -3 never equal each other or an id
    hyps = _pad(hypotheses, int(hyp_len.max(initial=0)), -3)
    columns = np.arange(width + 1, dtype=np.int64)
    row = np.broadcast_to(columns, (len(references), width + 1)).copy()
    result = np.where(hyp_len == 0, ref_len, 0)
    rows_index = np.arange(len(references))
    for i in range(1, int(hyp_len.max(initial=0)) + 1):
        cost = (refs != hyps[:, i - 1 : i]).astype(np.int64)
        tmp = np.empty_like(row)
        tmp[:, 0] = i
        tmp[:, 1:] = np.minimum(row[:, 1:] + 1, row[:, :-1] + cost)
        row = columns + np.minimum.accumulate(tmp - columns, axis=1)
        done = hyp_len == i
        result[done] = row[rows_index[done], ref_len[done]]
    return result


def _pad(sequences: list[IntArray], width: int, fill: int) -> IntArray:
    """The sequences as rows of one array, padded with ``fill``."""
    padded = np.full((len(sequences), width), fill, dtype=np.int64)
    for i, sequence in enumerate(sequences):
        padded[i, : len(sequence)] = sequence
    return padded
