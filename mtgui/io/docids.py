"""Document ids for plain text: one id per line of the test set, as WMT ships ``*.docids``.

Plain text says nothing of documents, so its segments are resampled one by one, and when the
sentences of a document are alike (news: one topic, one author, one style) the intervals come
out too narrow. A docids file gives plain text its documents back: line ``i`` names the
document of segment ``i``, and lines with the same id form one document (WMT's are
contiguous; sacreBLEU reads the same files). The file is read in two steps, so that a mistake
in the file itself is named by file and line when the options are read
(:func:`read_docids`), and a file that does not fit the test set is named with both counts
once that is loaded (:func:`with_document_ids`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.core import Corpus, InputError, counted
from mtgui.io.decode import AUTO, read_text
from mtgui.io.plaintext import split_lines

DOCIDS_SUFFIXES = (".docids", ".docid", ".doc-ids", ".docs")
"""File name endings that say "document ids" (WMT: ``newstest2021.en-de.docids``)."""


@dataclass(frozen=True)
class DocIds:
    """A docids file as read: its path and one document id per line."""

    path: Path
    ids: tuple[str, ...]

    @property
    def documents(self) -> int:
        """How many distinct documents the file names."""
        return len(set(self.ids))


def looks_like_docids(path: str | Path) -> bool:
    """Whether the file's name says it holds document ids (``*.docids`` and the like)."""
    name = Path(path).name.lower()
    return name.endswith(DOCIDS_SUFFIXES) or name.startswith("docids")


def read_docids(path: str | Path, encoding: str = AUTO) -> DocIds:
    """Read a docids file: one document id per line (surrounding spaces dropped).

    Raises
    ------
    InputError
        If the file cannot be read, is empty, or has a line without an id (file and line).
    """
    path = Path(path)
    text = read_text(path, encoding).text
    return docids_from_lines(path, split_lines(text) if text else [])


def docids_from_lines(path: Path, lines: Sequence[str]) -> DocIds:
    """The document ids of a file's lines (the window reads the file as plain text first).

    Raises
    ------
    InputError
        If there is no line, or a line without an id (file and line).
    """
    if not lines:
        raise InputError(
            "the document-ids file is empty.",
            path=path,
            hint="It needs one document id per line, as many lines as the test set.",
        )
    ids = tuple(line.strip() for line in lines)
    for number, doc_id in enumerate(ids, start=1):
        if not doc_id:
            raise InputError(
                "this line of the document-ids file has no document id.",
                path=path,
                line=number,
                hint="Every line names the document of the segment on the same line.",
            )
    return DocIds(path, ids)


def with_document_ids(corpus: Corpus, docids: DocIds) -> Corpus:
    """``corpus`` with the documents ``docids`` give its (plain-text) segments.

    Raises
    ------
    InputError
        If the file does not have one line per segment (naming the file and both counts), or
        if the test set has documents already (SGML or XML), which the file must not overrule.
    """
    test_set = corpus.test_set
    if test_set.has_documents:
        raise InputError(
            "the test set has documents already (from its SGML or XML files), so a "
            "document-ids file is not used.",
            path=docids.path,
            hint="Give --docids only with plain-text files.",
        )
    if len(docids.ids) != test_set.size:
        raise InputError(
            f"the document-ids file has {counted(len(docids.ids), 'line')}, but the test set "
            f"has {counted(test_set.size, 'segment')}: it needs one document id per segment.",
            path=docids.path,
            hint="Use the docids file that belongs to this test set (e.g. WMT's *.docids).",
        )
    documented = replace(test_set, doc_ids=docids.ids, has_documents=True)
    note = (
        f"Documents from {docids.path.name}: {counted(docids.documents, 'document')} of "
        f"{counted(test_set.size, 'segment')}."
    )
    return replace(corpus, test_set=documented, notes=(*corpus.notes, note))
