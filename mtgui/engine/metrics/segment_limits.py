"""The longest segment chrF, chrF++, TER and WER score: refused in words before the work, not
by a MemoryError (or a day's work) after it.

Their kernels need memory that grows with one segment: chrF's counting sorts every character
n-gram of a segment's hypothesis and references at once, and TER keeps the whole beam edit
distance matrix of a hypothesis and a reference (an int64 cost and an int8 operation per cell,
to trace the alignment back). Each may use at most :data:`SEGMENT_MEMORY` (1 GiB) for one
segment, which with the measured cost per unit gives the limits:

- chrF and chrF++: :data:`CHRF_BYTES_PER_CHARACTER` (64) bytes per character of the hypothesis
  and the segment's references together (measured with tracemalloc: 57-60 bytes per hypothesis
  character beside a reference as long, about 30 per character of both; doubled for text that
  is not ASCII and for the sort's worst case), so at most :data:`MAX_CHRF_CHARACTERS`
  (16,777,216) characters;
- TER: :data:`TER_BYTES_PER_CELL` (10) bytes per cell of hypothesis words by reference words
  (9 for the two matrices; measured 9.7 with the rest), so at most :data:`MAX_TER_CELLS`
  (107,374,182) cells: two segments of 10,000 words each fit.

WER's kernel keeps only two rows of the reference's length, so its memory grows with the words,
as BLEU's tokens do; but its time grows with the cells (0.5-0.8 billion a second here), and a
segment's distance cannot be cancelled halfway, so a segment of more than
:data:`MAX_WER_CELLS` (10^10, about 15 seconds) is refused too: a 50 MB line against another
would take a day. :func:`check_segment_sizes` refuses, before anything is extracted, what
surely does not fit (TER and WER counted in whitespace-separated words, which their tokenizers
only add to); :func:`check_ter_cells` checks TER's exact word counts again before each chunk's
matrices are made.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.core.corpus import Corpus, SystemOutput, TestSet
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.escapes import printable

SEGMENT_MEMORY = 1 << 30
"""The memory one segment's chrF or TER may take (1 GiB)."""
CHRF_BYTES_PER_CHARACTER = 64
TER_BYTES_PER_CELL = 10
MAX_CHRF_CHARACTERS = SEGMENT_MEMORY // CHRF_BYTES_PER_CHARACTER
"""The most characters of a segment's hypothesis and references together that chrF scores."""
MAX_TER_CELLS = SEGMENT_MEMORY // TER_BYTES_PER_CELL
"""The most hypothesis words times reference words of a segment that TER scores."""

MAX_WER_CELLS = 10**10
"""The most hypothesis words times reference words of a segment that WER scores (a bound of
time, not memory: about 15 seconds of its kernel)."""

CHRF_METRICS = ("chrf", "chrf++")
_CELL_LIMITS = {"ter": MAX_TER_CELLS, "wer": MAX_WER_CELLS}
_CELL_WHY = {
    "ter": f"{TER_BYTES_PER_CELL} bytes of memory each, at most {SEGMENT_MEMORY >> 30} GiB a "
    "segment",
    "wer": "its memory stays small, but a longer one would take hours, and a segment cannot be "
    "cancelled halfway",
}
_LABELS = {"chrf": "chrF", "chrf++": "chrF++", "ter": "TER", "wer": "WER"}


def check_segment_sizes(corpus: Corpus, metric_names: Sequence[str]) -> None:
    """Refuse a segment too long for chrF, chrF++ or TER among ``metric_names``.

    Raises
    ------
    InputError
        Naming the file, the segment, the metric, the size and the limit.
    """
    chrf = next((name for name in metric_names if name in CHRF_METRICS), None)
    cells = [name for name in metric_names if name in _CELL_LIMITS]
    if chrf is None and not cells:
        return
    test_set = corpus.test_set
    references = [_lengths(ref.texts) for ref in test_set.references]
    for system in corpus.systems:
        hypotheses = _lengths(system.hypotheses)
        if chrf is not None:
            _check_chrf(chrf, test_set, system, hypotheses, references)
        for metric in cells:
            _check_cells(metric, test_set, system, hypotheses, references)


def check_ter_cells(
    test_set: TestSet, system: SystemOutput, first: int, hyp_words: IntArray, ref_words: IntArray
) -> None:
    """Refuse, before TER's matrices are made, a segment of the chunk starting at ``first``
    whose hypothesis words (``hyp_words``, per segment) times a reference's words
    (``ref_words``, references by segments) exceed :data:`MAX_TER_CELLS`."""
    cells = ref_words * hyp_words[np.newaxis, :]
    if cells.size and int(cells.max()) > MAX_TER_CELLS:
        r, s = (int(i) for i in np.unravel_index(int(cells.argmax()), cells.shape))
        hyp, ref = int(hyp_words[s]), int(ref_words[r, s])
        _refuse_cells("ter", test_set, system, first + s, r, hyp, ref)


def _check_chrf(
    metric: str,
    test_set: TestSet,
    system: SystemOutput,
    hypotheses: IntArray,
    references: list[IntArray],
) -> None:
    """Refuse a segment whose hypothesis and references hold too many characters for chrF."""
    reference_sum = np.sum(references, axis=0) if references else np.zeros_like(hypotheses)
    total = hypotheses + reference_sum
    if not total.size or int(total.max()) <= MAX_CHRF_CHARACTERS:
        return
    segment = int(total.argmax())
    alone = int(reference_sum[segment]) > MAX_CHRF_CHARACTERS
    path = test_set.references[0].origin.path if alone else system.origin.path
    size = int(reference_sum[segment] if alone else total[segment])
    whose = "its references" if alone else f"{printable(system.name)}'s hypothesis and references"
    raise InputError(
        f"{_segment(test_set, segment)} is too long for {_LABELS[metric]}: {whose} hold "
        f"{size:,} characters, and {_LABELS[metric]} scores segments of at most "
        f"{MAX_CHRF_CHARACTERS:,} characters ({CHRF_BYTES_PER_CHARACTER} bytes of memory each, "
        f"at most {SEGMENT_MEMORY >> 30} GiB a segment).",
        path=path,
        hint=f"Leave {_LABELS[metric]} out of the metrics, or split the segment.",
    )


def _check_cells(
    metric: str,
    test_set: TestSet,
    system: SystemOutput,
    hypotheses: IntArray,
    references: list[IntArray],
) -> None:
    """Refuse a segment surely too long for TER or WER: characters first (cheap; never fewer
    than words), then the words of the segments whose characters do not settle it."""
    limit = _CELL_LIMITS[metric]
    for r, reference in enumerate(references):
        suspects = np.flatnonzero(hypotheses * reference > limit)
        for s in suspects:
            hyp = len(system.hypotheses[s].split())
            ref = len(test_set.references[r].texts[s].split())
            if hyp * ref > limit:
                _refuse_cells(metric, test_set, system, int(s), r, hyp, ref)


def _refuse_cells(
    metric: str,
    test_set: TestSet,
    system: SystemOutput,
    segment: int,
    reference: int,
    hyp: int,
    ref: int,
) -> None:
    """The error for a segment too long for TER or WER."""
    name, label = printable(system.name), _LABELS[metric]
    raise InputError(
        f"{_segment(test_set, segment)} is too long for {label}: {name}'s hypothesis has "
        f"{hyp:,} words and the reference in {test_set.references[reference].origin.path} "
        f"{ref:,}, which makes {hyp * ref:,} cells of {label}'s edit-distance table; {label} "
        f"scores segments of at most {_CELL_LIMITS[metric]:,} cells ({_CELL_WHY[metric]}).",
        path=system.origin.path,
        hint=f"Leave {label} out of the metrics, or split the segment.",
    )


def _segment(test_set: TestSet, index: int) -> str:
    """How a message names segment ``index``: its number, and its document's ids if any."""
    if test_set.has_documents:
        doc, seg = test_set.doc_ids[index], test_set.seg_ids[index]
        return f"segment {index + 1} (document '{printable(doc)}', segment '{printable(seg)}')"
    return f"segment {index + 1}"


def _lengths(texts: Sequence[str]) -> IntArray:
    """Each text's length in characters."""
    return np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
