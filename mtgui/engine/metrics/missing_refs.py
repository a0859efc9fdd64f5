"""Missing references: an empty reference line is a reference that does not exist.

Test sets with a varying number of references per segment mark the missing ones by an empty
line, and sacreBLEU takes ``None`` for such a reference: it scores the segment with the
references that exist (``Metric._cache_references`` drops them), so BLEU's closest reference
length and clipped counts, chrF's best reference and TER's fewest edits and average reference
length are over the existing references only. mtgui does the same by default
(``--empty-refs missing``); ``--empty-refs empty`` takes an empty line as a reference of no
words, as sacreBLEU takes ``""``. NIST (which sacreBLEU lacks) compares with the mean length of
a segment's existing references; WER with its closest existing one.

A segment whose references are all missing cannot be scored: it is refused, naming the files
and the line, before any work starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.corpus import TestSet
from mtgui.engine.core.errors import InputError

MISSING: Final = "missing"
EMPTY: Final = "empty"
EMPTY_REFS: Final = (MISSING, EMPTY)
"""What an empty reference line is: a missing reference (the default), or an empty one."""

BoolArray = npt.NDArray[np.bool_]


def check_empty_refs(value: object) -> str:
    """``value`` if it is one of :data:`EMPTY_REFS`, else an :class:`InputError`."""
    if not isinstance(value, str) or value not in EMPTY_REFS:
        raise InputError(f"empty_refs must be one of {', '.join(EMPTY_REFS)}, not {value!r}.")
    return value


def blank_references(test_set: TestSet) -> BoolArray:
    """Shape (N, R): where reference r of segment i is empty or only white space. Every run
    asks this several times (the input checks, the signature, the notes), so it runs in C:
    ``str.isspace`` and ``len`` mapped over each column, not a Python loop per line."""
    blank = np.zeros((test_set.size, test_set.num_references), dtype=bool)
    for r, ref in enumerate(test_set.references):
        count = len(ref.texts)
        lengths = np.fromiter(map(len, ref.texts), dtype=np.int64, count=count)
        spaces = np.fromiter(map(str.isspace, ref.texts), dtype=bool, count=count)
        blank[:, r] = (lengths == 0) | spaces
    return blank


def present_references(test_set: TestSet, mode: str) -> BoolArray:
    """Shape (N, R): the references the metrics use. With ``missing``, the non-empty ones;
    a segment without any (only in a subset of the references, the references study: the full
    set refuses it, :func:`check_every_segment_has_a_reference`) keeps all its references, as
    empty ones."""
    if mode == EMPTY:
        return np.ones((test_set.size, test_set.num_references), dtype=bool)
    present = ~blank_references(test_set)
    present[~present.any(axis=1)] = True
    return present


def references_per_segment(test_set: TestSet, mode: str) -> npt.NDArray[np.int64]:
    """How many references each segment is scored with."""
    if mode == EMPTY:
        return np.full(test_set.size, test_set.num_references, dtype=np.int64)
    return np.asarray((~blank_references(test_set)).sum(axis=1), dtype=np.int64)


def signature_nrefs(test_set: TestSet, mode: str) -> int | str:
    """The references as sacreBLEU's signature counts them: the number every segment has
    (existing ones), or ``var`` where segments have different numbers of them."""
    counts = set(references_per_segment(test_set, mode).tolist())
    if len(counts) > 1:
        return "var"
    return int(counts.pop()) if counts else test_set.num_references


def check_every_segment_has_a_reference(test_set: TestSet, mode: str) -> None:
    """Refuse a test set with a segment whose references are all empty lines (under
    ``missing``), naming the files and the first such segment.

    Raises
    ------
    InputError
        If such a segment exists.
    """
    if mode == EMPTY or test_set.size == 0:
        return
    counts = references_per_segment(test_set, mode)
    none = np.flatnonzero(counts == 0)
    if not len(none):
        return
    first = int(none[0])
    files = _listed([ref.origin.path for ref in test_set.references])
    where = test_set.describe_segment(first)
    where = where[0].upper() + where[1:]
    more = {1: ""}.get(len(none), f" (nor do {len(none) - 1:,} more segments)")
    more = " (nor does 1 more segment)" if len(none) == 2 else more
    raise InputError(
        f"{where} has no reference{more}: it is empty in {files}, and an empty reference "
        "line is taken as a missing reference.",
        hint="Give every segment at least one reference, or score against empty references "
        "(--empty-refs empty on the command line, or choose empty for 'Empty reference lines' "
        "in the settings' Advanced part).",
    )


def fewer_references_note(test_set: TestSet, mode: str) -> list[str]:
    """A note saying how many segments have fewer references than the test set (none if every
    segment has them all, or under ``empty``)."""
    if mode == EMPTY:
        return []
    counts = references_per_segment(test_set, mode)
    fewer = int(np.count_nonzero(counts < test_set.num_references))
    if not fewer:
        return []
    segments = "1 segment has" if fewer == 1 else f"{fewer:,} segments have"
    return [
        f"{segments} fewer than {test_set.num_references} references: an empty reference "
        "line is taken as a missing reference (sacreBLEU's None), and those segments are "
        "scored with the references they have. To take it as a reference of no words, "
        "choose --empty-refs empty (in the window: empty for 'Empty reference lines' in the "
        "settings' Advanced part)."
    ]


def _listed(paths: Sequence[str]) -> str:
    names = list(dict.fromkeys(paths))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
