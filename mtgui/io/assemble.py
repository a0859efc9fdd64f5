"""Putting loaded files together into one :class:`~mtgui.engine.core.corpus.Corpus`.

This is where the files meet: the segments are aligned across all of them, the systems and
references get their names, and per-segment scores are matched to systems and segments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from mtgui.engine.core import (
    Corpus,
    InputError,
    Role,
    SystemOutput,
    TestSet,
    TextColumn,
    empty_text_notes,
)
from mtgui.io.align import Skeleton, align_stream
from mtgui.io.assemble_scores import segment_scores
from mtgui.io.decode import BOM_LABELS
from mtgui.io.docids import DocIds, docids_from_lines, with_document_ids
from mtgui.io.naming import apply_renames, names_from_files
from mtgui.io.scores import ScoreTable
from mtgui.io.streams import LoadedFile, TextStream


def assemble(
    files: Sequence[LoadedFile],
    scores: Sequence[ScoreTable] = (),
    renames: Sequence[str] = (),
    docids: DocIds | None = None,
) -> Corpus:
    """Align everything loaded and build the corpus.

    Parameters
    ----------
    files
        The loaded source, reference and system files, in the order the user gave them.
    scores
        Per-segment score tables.
    renames
        System names given by the user: ``NEW`` names the systems in load order, ``OLD=NEW``
        renames one system.
    docids
        The documents of a plain-text test set (``--docids``), known before the scores are
        placed (WMT's DA scores need them).

    Raises
    ------
    InputError
        If there is no reference, two different sources, a file that does not cover the same
        segments as the others, two systems with one name, or scores for unknown segments.
    """
    streams = [stream for file in files for stream in file.streams]
    by_role = {role: [s for s in streams if s.role is role] for role in Role}
    if not by_role[Role.REFERENCE]:
        raise InputError(
            "no reference translation is loaded.",
            hint="Add at least one file of reference translations (--ref).",
        )
    sources = _distinct_sources(by_role[Role.SOURCE])
    skeleton = Skeleton.from_streams([*sources, *by_role[Role.REFERENCE], *by_role[Role.SYSTEM]])
    test_set = _test_set(skeleton, sources, by_role[Role.REFERENCE])
    ordered = [*sources, *by_role[Role.REFERENCE], *by_role[Role.SYSTEM]]
    test_set = replace(test_set, doc_attributes=_doc_attributes(ordered))
    systems = _systems(skeleton, by_role[Role.SYSTEM], renames)
    # Documents first: WMT's DA scores are placed by the documents' order.
    documented = _with_docids(Corpus(test_set, tuple(systems)), by_role[Role.DOCUMENT_IDS])
    if docids is not None:
        documented = with_document_ids(documented, docids)
    scored, notes = segment_scores(scores, documented.test_set, systems)
    reader_notes = dict.fromkeys(s.metadata["note"] for s in streams if "note" in s.metadata)
    notes = [*bom_notes(streams), *reader_notes, *notes, *empty_text_notes(test_set, systems)]
    return replace(documented, scores=tuple(scored), notes=(*notes, *documented.notes))


def _with_docids(corpus: Corpus, streams: list[TextStream]) -> Corpus:
    """The corpus with the documents a document-ids file gives (the window's role "document
    ids"; the command line's --docids reads its file itself)."""
    if not streams:
        return corpus
    if len(streams) > 1:
        raise InputError(
            "two document-ids files are loaded; the test set takes one.",
            path=streams[1].origin.path,
            hint="Remove one of them.",
        )
    path = Path(streams[0].origin.path)
    return with_document_ids(corpus, docids_from_lines(path, streams[0].texts))


def bom_notes(streams: Sequence[TextStream]) -> list[str]:
    """A note naming every file whose byte-order mark was dropped (once per file).

    Why: sacreBLEU reads a UTF-8 file's mark as text, part of the first segment's first word,
    so its scores of such a file differ slightly from mtgui's (BLEU by up to 1.6e-4 on
    sacreBLEU's own WMT17 data); the note lets a user comparing the two see why.
    """
    paths = dict.fromkeys(s.origin.path for s in streams if s.origin.encoding in BOM_LABELS)
    return [
        f"{path}: the byte-order mark at its start was dropped (sacreBLEU keeps a UTF-8 one as "
        "text, part of the first segment, so its scores of this file can differ slightly)."
        for path in paths
    ]


def _doc_attributes(streams: Sequence[TextStream]) -> dict[str, dict[str, str]]:
    """Every document's attributes from every file (the source's first, then the references',
    then the systems': the first value given for a name is kept)."""
    merged: dict[str, dict[str, str]] = {}
    for stream in streams:
        for doc, attributes in stream.doc_attributes.items():
            merged[doc] = {**attributes, **merged.get(doc, {})}
    return merged


def _distinct_sources(sources: list[TextStream]) -> list[TextStream]:
    """At most one source; the same source loaded twice (say, from XML and SGML) is fine."""
    if len(sources) > 1 and any(s.texts != sources[0].texts for s in sources[1:]):
        other = next(s for s in sources[1:] if s.texts != sources[0].texts)
        raise InputError(
            f"two different source texts are loaded ({sources[0].origin.path} and "
            f"{other.origin.path}).",
            path=other.origin.path,
            hint="Load only one source.",
        )
    return sources[:1]


def _test_set(
    skeleton: Skeleton, sources: list[TextStream], references: list[TextStream]
) -> TestSet:
    """The test set: segment ids, references and source, all in the skeleton's order."""
    names = _unique(names_from_files(references))
    columns = tuple(
        TextColumn(name, align_stream(stream, skeleton), stream.origin)
        for name, stream in zip(names, references, strict=True)
    )
    source = None
    if sources:
        stream = sources[0]
        source = TextColumn("source", align_stream(stream, skeleton), stream.origin)
    metadata: dict[str, str] = {}
    for stream in [*sources, *references]:
        metadata = {**stream.metadata, **metadata}
    return TestSet(
        doc_ids=skeleton.doc_ids,
        seg_ids=skeleton.seg_ids,
        references=columns,
        source=source,
        has_documents=skeleton.has_documents,
        metadata=metadata,
    )


def _systems(
    skeleton: Skeleton, streams: list[TextStream], renames: Sequence[str]
) -> list[SystemOutput]:
    """The system outputs, aligned and named."""
    names = apply_renames(names_from_files(streams), renames)
    return [
        SystemOutput(name, align_stream(stream, skeleton), stream.origin)
        for name, stream in zip(names, streams, strict=True)
    ]


def _unique(names: list[str]) -> list[str]:
    """Reference names made unique by numbering repeats (two refsets both saying 'ref')."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return unique
