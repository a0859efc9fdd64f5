"""Label files for breakdowns: ``line<TAB>label`` or ``docid<TAB>label``, one row a segment or
a document, under a header row that says which.

A label file is read in two steps, so that every mistake is found before any work starts and
named by file and line: :func:`read_label_file` checks the file itself (the header, the
columns, line numbers that are whole numbers, nothing listed twice) when the options are
read; :meth:`LabelFile.grouping` checks it against the test set once that is loaded (a line
beyond its last segment, a document it does not have). Segments the file gives no label form
the group ``(none)`` (:data:`mtgui.engine.statistics.grouping.NONE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mtgui.engine.core import InputError, TestSet, counted, printable
from mtgui.engine.statistics import Grouping, group_by_labels
from mtgui.io.decode import read_text
from mtgui.io.textutil import whole_number

LINE, DOCID = "line", "docid"
_HEADER_HINT = (
    "The first row must name the two tab-separated columns: 'line' (the segment's number, "
    "from 1) or 'docid' (a document id), then the label's name, e.g. 'docid<TAB>domain'."
)


@dataclass(frozen=True)
class LabelFile:
    """A label file as read: what its rows label (:data:`LINE` or :data:`DOCID`), the label's
    name from the header, and each row's key, label and line in the file."""

    path: Path
    keyed_by: str
    name: str
    rows: tuple[tuple[str, str, int], ...]  # key (a line number or a docid), label, file line

    @property
    def by(self) -> str:
        """How reports name the breakdown: the file's name without its extension."""
        return self.path.stem

    def grouping(self, test_set: TestSet) -> Grouping:
        """The groups the labels make on ``test_set``.

        Raises
        ------
        InputError
            For a line beyond the test set or a document it does not have (file and line).
        """
        labels: list[str | None] = [None] * test_set.size
        if self.keyed_by == LINE:
            for key, label, line in self.rows:
                number = int(key)
                if number > test_set.size:
                    raise self._error(
                        f"segment {number} is beyond the test set's "
                        f"{counted(test_set.size, 'segment')}.",
                        line,
                    )
                labels[number - 1] = label
        else:
            labels = self._by_document(test_set, labels)
        what = f"the {self.name} labels of {self.path.name}"
        return group_by_labels(self.by, what, labels)

    def _by_document(self, test_set: TestSet, labels: list[str | None]) -> list[str | None]:
        """Each segment labelled as its document."""
        if not test_set.has_documents:
            raise self._error(
                "the labels are by document (docid), but the test set has no documents (it is "
                "plain text).",
                1,
                hint="Label the segments by line instead: 'line<TAB>label'.",
            )
        documents = set(test_set.documents)
        by_doc = {}
        for key, label, line in self.rows:
            if key not in documents:
                raise self._error(f"document '{key}' is not in the test set.", line)
            by_doc[key] = label
        return [by_doc.get(doc) for doc in test_set.doc_ids]

    def _error(self, problem: str, line: int, hint: str | None = None) -> InputError:
        return InputError(problem, path=self.path, line=line, hint=hint)


def read_label_file(path: Path, encoding: str = "auto") -> LabelFile:
    """Read and check a label file (see the module docstring).

    Raises
    ------
    InputError
        For a file that cannot be read, a bad header, a row without exactly two columns, an
        empty label, a line number that is not a whole number from 1, or a key listed twice;
        each with the file and the line.
    """
    text = read_text(path, encoding).text
    lines = text.split("\n")
    header = lines[0].lstrip("\ufeff").split("\t") if lines else [""]
    keyed_by = header[0].strip().lower()
    if len(header) != 2 or keyed_by not in (LINE, DOCID) or not header[1].strip():
        found = lines[0][:80] if lines and lines[0].strip() else "an empty line"
        raise InputError(
            f"this label file's header is {found!r}, not 'line' or 'docid' and a label name.",
            path=path,
            line=1,
            hint=_HEADER_HINT,
        )
    rows: list[tuple[str, str, int]] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(lines[1:], start=2):
        if not row.strip():
            continue  # blank lines (a last newline) say nothing
        key, label = _columns(row, path, number)
        if keyed_by == LINE:
            key = _line_number(key, path, number)
        if key in seen:
            what = f"segment {key}" if keyed_by == LINE else f"document '{key}'"
            raise InputError(
                f"{what} is labelled twice (lines {seen[key]} and {number}).",
                path=path,
                line=number,
                hint="Give each one label.",
            )
        seen[key] = number
        rows.append((key, label, number))
    if not rows:
        raise InputError("this label file has a header but no labels.", path=path, line=1)
    return LabelFile(Path(path), keyed_by, header[1].strip(), tuple(rows))


def _columns(row: str, path: Path, number: int) -> tuple[str, str]:
    """The key and the label of one row: exactly two tab-separated columns, neither empty."""
    cells = row.split("\t")
    if len(cells) != 2:
        raise InputError(
            f"this row has {len(cells)} tab-separated columns, not 2.",
            path=path,
            line=number,
            hint="Each row is a line number or a docid, a tab, and the label.",
        )
    key, label = cells[0].strip(), cells[1].strip()
    if not key or not label:
        raise InputError(
            f"this row has an empty {'key' if not key else 'label'}.", path=path, line=number
        )
    return key, label


def _line_number(key: str, path: Path, number: int) -> str:
    """``key`` as a segment number from 1 (in canonical form: '07' is segment 7)."""
    value = whole_number(key, "segment number", path, number)
    if value is None or value < 1 or key.startswith("+"):
        raise InputError(
            f"'{printable(key)}' is not a segment number (a whole number from 1).",
            path=path,
            line=number,
        )
    return str(value)
