"""The plain HTML table of the reports' sections (the runs, the campaign): a header, then rows
of cells already written as text (:mod:`mtgui.report.cells`).

A row reads names first (systems, test sets: put in ``<bdi>`` so that a right-to-left name
never moves the numbers after it), then numbers (``class="num"``: right-aligned in tabular
figures, never wrapped, by the reports' style sheet), then, optionally, words such as a
verdict (escaped, aligned as text).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from mtgui.report.bidi import html_isolated


def html_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    names: int,
    words: int = 0,
    named_columns: bool = False,
) -> str:
    """An HTML table whose rows hold ``names`` name cells, then numbers, then ``words`` cells
    of text at the end; with ``named_columns`` the header's cells after the first are names
    too (test sets as columns), isolated as the rows' names are."""
    head = "".join(
        f"<th>{html_isolated(h) if named_columns and i else escape(h)}</th>"
        for i, h in enumerate(header)
    )
    body = "".join(f"<tr>{''.join(_cells(row, names, words))}</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cells(row: Sequence[str], names: int, words: int) -> list[str]:
    """One row's cells, each marked up for what it holds."""
    numbers_end = len(row) - words
    return [
        f"<td>{html_isolated(cell)}</td>"
        if i < names
        else f'<td class="num">{escape(cell)}</td>'
        if i < numbers_end
        else f"<td>{escape(cell)}</td>"
        for i, cell in enumerate(row)
    ]
