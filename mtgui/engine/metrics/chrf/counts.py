"""Clipped n-gram matches of a hypothesis against each of its references, for many segments
at once, by sorting packed integer keys.

chrF's match count of one order is, per segment and reference, the sum over n-grams of
``min(count in hypothesis, count in reference)`` (sacreBLEU's ``_get_match_statistics``). Here
every position of the hypothesis and of every reference gets one integer key packing its
segment, the symbols of its longest n-gram and its source (hypothesis or which reference).
Sorted, the keys put equal n-grams of one segment next to each other for *every* order at once
(an n-gram is a prefix of the longest one), so one ``np.sort`` serves all orders and each order
is then a linear pass: where the first n symbols change a group starts; the group's count per
source comes from ``np.bincount``. A position past its text's end has the symbol 0 there, so
it never joins a longer n-gram.

When the keys do not fit in 63 bits (many distinct symbols: Chinese characters, words), the
orders are taken in blocks: a block's sort also returns where each key came from (its index
packed in the lowest bits), the groups of its last order are renumbered densely, and only the
groups found in both the hypothesis and a reference go on to the next block, with their dense
number as the new prefix. Numbers are exact throughout; nothing is hashed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.metrics.chrf.symbols import Symbols
from mtgui.engine.runtime.gil_free import running_count

_KEY_BITS = 63


def clipped_matches(sources: Sequence[Symbols], max_order: int, alphabet: int) -> IntArray:
    """Matches of ``sources[0]`` (the hypothesis) against each of ``sources[1:]`` (references),
    whose symbols are below ``alphabet``.

    Returns shape (R, N, ``max_order``): for reference r, segment i and order n + 1, the clipped
    n-gram matches. All sources hold the same N segments.
    """
    references, segments = len(sources) - 1, sources[0].size
    result = np.zeros((references, segments, max_order), dtype=np.int64)
    values = np.concatenate([s.values for s in sources])
    if len(values) == 0 or references == 0:
        return result
    lengths = np.concatenate([s.lengths for s in sources])  # runs: (source, segment)
    run = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    # the symbols of this chunk numbered 1..V (fewer bits per symbol); 0: past a text's end
    present = np.zeros(alphabet, dtype=np.int64)
    present[values] = 1
    dense = np.cumsum(present)
    remaining = np.cumsum(lengths)[run] - np.arange(len(values))  # symbols from here to the end
    table = _Table(dense[values], remaining, int(dense[-1]).bit_length())
    block = _Block(
        positions=None,
        prefix=run % segments,  # before any symbol, a position's group is its segment
        group_segment=np.arange(segments, dtype=np.int64),
    )
    source = run // segments
    done = 0
    while done < max_order and block.size:
        block, done = _count_block(table, block, source, done, max_order, result)
    return result


class _Table:
    """Each position's symbol and how many symbols its text has from there on."""

    def __init__(self, symbols: IntArray, remaining: IntArray, bits: int) -> None:
        self.symbols = symbols
        self.remaining = remaining
        self.bits = bits

    def ahead(self, positions: IntArray | None, offset: int) -> IntArray:
        """The symbol ``offset`` places after each position (all: None), 0 past the end of
        its text."""
        if positions is None:  # every position: slices, no gathers
            shifted = np.zeros(len(self.symbols), dtype=np.int64)
            shifted[: max(len(self.symbols) - offset, 0)] = self.symbols[offset:]
            shifted *= self.remaining > offset
            return shifted
        inside = self.remaining[positions] > offset
        at = np.minimum(positions + offset, len(self.symbols) - 1)
        return np.where(inside, self.symbols[at], 0)


class _Block:
    """The positions still able to match (None: all), each with its group so far."""

    def __init__(
        self, positions: IntArray | None, prefix: IntArray, group_segment: IntArray
    ) -> None:
        self.positions = positions
        self.prefix = prefix  # per position: the number of its group (segment and symbols)
        self.group_segment = group_segment  # per group number: its segment (ascending)

    @property
    def size(self) -> int:
        """The number of positions."""
        return len(self.prefix)

    def take(self, values: IntArray) -> IntArray:
        """``values`` at the block's positions."""
        return values if self.positions is None else values[self.positions]


def _orders_that_fit(prefix_bits: int, symbol_bits: int, fixed_bits: int, left: int) -> int:
    """How many further symbols fit in one key beside the prefix and ``fixed_bits`` (at least
    one: a prefix and one symbol always fit, their numbers are below 2**28 by construction)."""
    room = _KEY_BITS - prefix_bits - fixed_bits
    return max(1, min(left, room // max(symbol_bits, 1)))


def _count_block(
    table: _Table, block: _Block, source: IntArray, done: int, max_order: int, result: IntArray
) -> tuple[_Block, int]:
    """Count the orders of one block into ``result``; return what goes on to the next block."""
    source_bits = int(result.shape[0]).bit_length()
    prefix_bits = int(block.group_segment.size - 1).bit_length()
    index_bits = int(block.size - 1).bit_length()
    take = _orders_that_fit(prefix_bits, table.bits, source_bits, max_order - done)
    last = done + take == max_order
    if not last:  # the next block needs each key's position: pack it too if it fits
        take = _orders_that_fit(prefix_bits, table.bits, source_bits + index_bits, take)
    key = block.prefix.copy()
    for offset in range(done, done + take):
        key <<= table.bits
        key |= table.ahead(block.positions, offset)
    key <<= source_bits
    key |= block.take(source)
    where_from, low_bits = None, 0
    if last:
        key.sort()
    elif prefix_bits + take * table.bits + source_bits + index_bits <= _KEY_BITS:
        key <<= index_bits
        key |= np.arange(block.size, dtype=np.int64)
        key.sort()
        where_from, low_bits = key & ((1 << index_bits) - 1), index_bits
    else:  # a huge single segment: sort indirectly
        where_from = np.argsort(key)
        key = key[where_from]
    running = _running_counts((key >> low_bits) & ((1 << source_bits) - 1), result.shape[0])
    for order in range(done + 1, done + take + 1):
        shift = low_bits + source_bits + (done + take - order) * table.bits
        groups = _Groups(key >> shift, running, table.bits, order - done)
        segment = block.group_segment[groups.prefix]
        _add_matches(result[:, :, order - 1], groups, segment)
    if last:
        return block, max_order
    assert where_from is not None
    return _next_block(block, where_from, groups, segment), done + take


def _running_counts(sources_of: IntArray, references: int) -> list[npt.NDArray[np.int32]]:
    """For each source, how many of the sorted keys before each one (and in all) are of it:
    a group's count is the difference at its two ends."""
    running = []
    for r in range(references + 1):
        counts = np.zeros(len(sources_of) + 1, dtype=np.int32)
        counts[1:] = running_count(sources_of == r)
        running.append(counts)
    return running


class _Groups:
    """The groups of equal sorted prefixes (segment and n symbols) found in the hypothesis
    and in at least one reference: the only ones that match."""

    def __init__(
        self,
        prefixes: IntArray,
        running: list[npt.NDArray[np.int32]],
        symbol_bits: int,
        symbols: int,
    ) -> None:
        edges = np.ones(len(prefixes) + 1, dtype=bool)
        np.not_equal(prefixes[1:], prefixes[:-1], out=edges[1:-1])
        bounds = np.flatnonzero(edges)  # group g is bounds[g]:bounds[g + 1]
        first = prefixes[bounds[:-1]]
        hypothesis = np.diff(running[0][bounds])
        # the n-th symbol exists (else it is 0) and the hypothesis has the n-gram
        chosen = np.flatnonzero((first & ((1 << symbol_bits) - 1) != 0) & (hypothesis > 0))
        starts, ends = bounds[chosen], bounds[chosen + 1]
        references = np.stack([counts[ends] - counts[starts] for counts in running[1:]])
        found = np.flatnonzero(references.max(axis=0) > 0)
        self.starts, self.ends = starts[found], ends[found]
        self.hypothesis = hypothesis[chosen[found]]  # shape (G,)
        self.references = references[:, found]  # shape (R, G)
        self.prefix = first[chosen[found]] >> (symbols * symbol_bits)  # the block's number


def _add_matches(target: IntArray, groups: _Groups, segment: IntArray) -> None:
    """Add each group's clipped matches (min of hypothesis and reference count) to its
    segment's, per reference; ``target`` has shape (R, N). Groups come sorted by segment."""
    clipped = np.minimum(groups.references, groups.hypothesis)
    running = np.zeros((len(clipped), clipped.shape[1] + 1), dtype=np.int64)
    np.cumsum(clipped, axis=1, out=running[:, 1:])
    bounds = np.searchsorted(segment, np.arange(target.shape[1] + 1))
    target += running[:, bounds[1:]] - running[:, bounds[:-1]]


def _next_block(block: _Block, where_from: IntArray, groups: _Groups, segment: IntArray) -> _Block:
    """The positions of the last order's matching groups, numbered densely by group: only
    they can be part of a longer match."""
    sizes = groups.ends - groups.starts
    before = np.cumsum(sizes) - sizes  # elements of the kept groups before each
    inside = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(before, sizes)
    kept = np.repeat(groups.starts, sizes) + inside  # indices into the sorted keys
    number = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    positions = where_from[kept] if block.positions is None else block.positions[where_from[kept]]
    return _Block(positions=positions, prefix=number, group_segment=segment)
