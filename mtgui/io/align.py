"""Checking that every loaded file covers the same segments, and putting them in one order.

The test set's order is that of its first file with documents (the source, else the first
reference, else the first system); without documents it is line order. A file with documents is
matched segment by segment on (document id, segment id), so its documents may come in another
order (mteval sorts them too); a plain-text file is matched by position. Any difference is an
error that says where: never a silent truncation or padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mtgui.engine.core import InputError, counted
from mtgui.io.streams import TextStream

_SHOW = 5  # how many missing or extra document ids a message lists


@dataclass(frozen=True)
class Skeleton:
    """The segment order every stream is aligned to, and the stream it was taken from."""

    doc_ids: tuple[str, ...]
    seg_ids: tuple[str, ...]
    has_documents: bool
    source: TextStream

    @property
    def size(self) -> int:
        """The number of segments."""
        return len(self.seg_ids)

    @classmethod
    def from_streams(cls, streams: Sequence[TextStream]) -> Skeleton:
        """The order of the first stream with documents, else of the first stream."""
        first = next((s for s in streams if s.has_documents), streams[0])
        doc_ids = first.doc_ids if first.doc_ids is not None else ("",) * first.size
        return cls(doc_ids, first.seg_ids, first.has_documents, first)

    def documents(self) -> dict[str, list[str]]:
        """Segment ids by document, both in order."""
        documents: dict[str, list[str]] = {}
        for doc, seg in zip(self.doc_ids, self.seg_ids, strict=True):
            documents.setdefault(doc, []).append(seg)
        return documents


def align_stream(stream: TextStream, skeleton: Skeleton) -> tuple[str, ...]:
    """The texts of ``stream`` in the skeleton's order.

    Raises
    ------
    InputError
        If the stream does not cover exactly the skeleton's documents and segments.
    """
    if stream is skeleton.source:
        return stream.texts
    if not (stream.has_documents and skeleton.has_documents):
        _check_count(stream, skeleton)
        return stream.texts
    _check_documents(stream, skeleton)
    position = {
        key: i for i, key in enumerate(zip(stream.doc_ids or (), stream.seg_ids, strict=True))
    }
    keys = zip(skeleton.doc_ids, skeleton.seg_ids, strict=True)
    return tuple(stream.texts[position[key]] for key in keys)


def _check_count(stream: TextStream, skeleton: Skeleton) -> None:
    """Streams matched by position must have the same number of segments."""
    if stream.size == skeleton.size:
        return
    unit = "segment" if stream.has_documents else "line"
    raise InputError(
        f"the {stream.role.label} file has {counted(stream.size, unit)}, but the test set has "
        f"{counted(skeleton.size, 'segment')} (as in {skeleton.source.origin.path}).",
        path=stream.origin.path,
        hint="Plain-text lines are matched to segments by position, so every file needs "
        "exactly one line per segment.",
    )


def _check_documents(stream: TextStream, skeleton: Skeleton) -> None:
    """Same documents, and in each the same segment ids, or an error saying the first difference."""
    expected = skeleton.documents()
    found: dict[str, list[tuple[str, int]]] = {}
    for doc, seg, line in zip(stream.doc_ids or (), stream.seg_ids, stream.lines, strict=True):
        found.setdefault(doc, []).append((seg, line))
    missing = [doc for doc in expected if doc not in found]
    extra = [doc for doc in found if doc not in expected]
    if missing or extra:
        raise _document_error(stream, skeleton, missing, extra, len(expected))
    for doc, expected_segs in expected.items():
        found_segs = found[doc]
        if sorted(expected_segs) != sorted(seg for seg, _ in found_segs):
            raise _segment_error(stream, skeleton, doc, expected_segs, found_segs)


def _document_error(
    stream: TextStream, skeleton: Skeleton, missing: list[str], extra: list[str], total: int
) -> InputError:
    """The message for documents that are missing from, or extra in, a stream."""
    if len(missing) == total:
        return InputError(
            f"none of the {counted(len(extra), 'document')} of the {stream.label} is in the "
            "test set "
            f"(which is taken from {skeleton.source.origin.path}; its documents are "
            f"{_listing(list(skeleton.documents()))}, this file has {_listing(extra)}).",
            path=stream.origin.path,
            hint="Is this file from another test set?",
        )
    parts = []
    if missing:
        parts.append(
            f"lacks {len(missing)} of the test set's {counted(total, 'document')} "
            f"({_listing(missing)})"
        )
    if extra:
        parts.append(
            f"has {counted(len(extra), 'document')} the test set does not have ({_listing(extra)})"
        )
    return InputError(
        f"the {stream.label} " + " and ".join(parts) + f"; the test set is taken from "
        f"{skeleton.source.origin.path}.",
        path=stream.origin.path,
        hint="All files must hold the same documents.",
    )


def _segment_error(
    stream: TextStream,
    skeleton: Skeleton,
    doc: str,
    expected: list[str],
    found: list[tuple[str, int]],
) -> InputError:
    """The message for a document whose segment ids differ from the test set's."""
    first = next(
        (i for i, (want, (got, _)) in enumerate(zip(expected, found, strict=False)) if want != got),
        min(len(expected), len(found)),
    )
    want = f"'{expected[first]}'" if first < len(expected) else "no more segments"
    got = f"'{found[first][0]}'" if first < len(found) else "no more segments"
    line = found[first][1] if first < len(found) else found[-1][1]
    return InputError(
        f"document '{doc}' of the {stream.label} has {counted(len(found), 'segment')}, the "
        "test set "
        f"({skeleton.source.origin.path}) has {len(expected)}; the first difference is "
        f"segment {first + 1}: expected id {want}, found {got}.",
        path=stream.origin.path,
        line=line,
    )


def _listing(ids: list[str]) -> str:
    """A few ids, quoted, with '...' when there are more."""
    shown = ", ".join(f"'{i}'" for i in ids[:_SHOW])
    return shown + (", ..." if len(ids) > _SHOW else "")
