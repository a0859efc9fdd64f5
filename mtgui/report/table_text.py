"""A table as text: aligned columns for the terminal, and the text other programs take (TSV
for the clipboard, CSV, LaTeX booktabs).

A table here is what a person sees: a header and rows of cell strings, already rounded and
formatted (by :mod:`mtgui.report.cells` or the view). The terminal gets columns padded to their
widest cell; TSV is what spreadsheets (LibreOffice, Excel) paste as cells; CSV is the same CSV
as the report files (``mtgui.io.writers.csv_text``); LaTeX is a ``booktabs`` tabular ready to
paste into a paper, numbers right-aligned, every special character escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mtgui.engine.core import printable
from mtgui.io.writers import csv_text, inert_cell

Rows = Sequence[Sequence[str]]

MINUS = "\N{MINUS SIGN}"
_SIGN = r"[+\-\N{MINUS SIGN}\N{PLUS-MINUS SIGN}]?"
_MANTISSA = r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)"
_NUMBER = rf"{_SIGN}{_MANTISSA}(?:[eE][+\-]?\d+)?%?"
_NUMERIC = re.compile(rf"\s*{_NUMBER}(?:\s*\u00b1\s*{_NUMBER})?\s*")  # "0.25 ± 0.01" too
_PLACEHOLDERS = {"", "-", "\N{EN DASH}", "\N{EM DASH}", "nan", "NaN"}
# Replaced in one pass, so the backslashes of the replacements are never escaped again.
_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # In the default OT1 font encoding these three print as other glyphs (¡ ¿ —).
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    MINUS: "$-$",
    "\N{PLUS-MINUS SIGN}": r"$\pm$",
    "\N{MIDDLE DOT}": r"$\cdot$",
    # Symbols a header may use that pdflatex's default encodings do not have in text.
    "\N{GREEK CAPITAL LETTER DELTA}": r"$\Delta$",
    "\N{GREEK SMALL LETTER SIGMA}": r"$\sigma$",
    "\N{GREEK SMALL LETTER MU}": r"$\mu$",
    "\N{MULTIPLICATION SIGN}": r"$\times$",
    "\N{LESS-THAN OR EQUAL TO}": r"$\leq$",
    "\N{GREATER-THAN OR EQUAL TO}": r"$\geq$",
    "\N{ALMOST EQUAL TO}": r"$\approx$",
}
_LATEX_SPECIALS = re.compile("|".join(re.escape(c) for c in _LATEX))


def align_table(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; text left, numbers right. For the terminal: the
    cells (system names among them) are made printable first."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def is_numeric(cell: str) -> bool:
    """Whether a cell reads as a number: ``12``, ``-0.5``, ``−0.5``, ``+1.2%``, ``1,234``..."""
    return bool(_NUMERIC.fullmatch(cell))


def tsv_text(header: Sequence[str], rows: Rows) -> str:
    """Tab-separated lines, as spreadsheets paste them: tabs and line breaks in cells become
    spaces, a number written with a typographic minus gets the ASCII one that spreadsheets
    read as a number, and a name that a spreadsheet would run as a formula is made inert as
    in the CSV files (:func:`~mtgui.io.writers.inert_cell`)."""
    lines = ["\t".join(_tsv_cell(cell) for cell in row) for row in [header, *rows]]
    return "\n".join(lines) + "\n"


def _tsv_cell(cell: str) -> str:
    cell = " ".join(cell.replace("\t", " ").splitlines())
    return str(inert_cell(_ascii_minus(cell)))  # pasted, a formula would run as one


def _ascii_minus(cell: str) -> str:
    return cell.replace(MINUS, "-") if is_numeric(cell) else cell


def csv_table_text(header: Sequence[str], rows: Rows, preamble: Sequence[str] = ()) -> str:
    """CSV (RFC 4180 quoting, ``\\n`` line ends) exactly as the report files write it, after
    the ``preamble`` lines as ``# `` comments (what the table was made from: pandas reads past
    them with ``comment="#"``, a spreadsheet shows them above the table)."""
    comments = comment_lines(preamble)
    return comments + csv_text(list(header), [[_ascii_minus(cell) for cell in row] for row in rows])


def comment_lines(preamble: Sequence[str]) -> str:
    """Each line as a ``# `` comment line of a CSV file (its own line breaks made spaces)."""
    return "".join(f"# {' '.join(line.split())}\n" for line in preamble)


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (pdflatex, default encodings)."""
    return _LATEX_SPECIALS.sub(lambda match: _LATEX[match.group()], text)


def column_alignments(header: Sequence[str], rows: Rows) -> list[str]:
    """``r`` for columns of numbers (missing values allowed), ``c`` for columns of single
    symbols (a significance grid's ``> < ~``), ``l`` for everything else."""
    alignments = []
    for column in range(len(header)):
        cells = [row[column].strip() for row in rows if column < len(row)]
        present = [cell for cell in cells if cell not in _PLACEHOLDERS]
        if present and all(is_numeric(cell) for cell in present):
            alignments.append("r")
        elif present and all(len(cell) == 1 for cell in present):
            alignments.append("c")
        else:
            alignments.append("l")
    return alignments


def latex_text(
    header: Sequence[str], rows: Rows, caption: str | None = None, preamble: Sequence[str] = ()
) -> str:
    """A ``booktabs`` tabular (``\\usepackage{booktabs}``), with ``caption`` and the
    ``preamble`` lines (what the table was made from) as comments."""
    notes = [*(caption or "").splitlines(), *(" ".join(line.split()) for line in preamble)]
    lines = [f"% {line}" for line in notes if line.strip()]
    lines.append("% mtgui table; needs \\usepackage{booktabs} in the preamble")
    lines.append(f"\\begin{{tabular}}{{{' '.join(column_alignments(header, rows))}}}")
    lines.append("\\toprule")
    lines.append(_latex_row(header, numeric=False))
    lines.append("\\midrule")
    lines += [_latex_row(row, numeric=True) for row in rows]
    lines.append("\\bottomrule")
    lines.append("\\end{tabular}")
    return "\n".join(lines) + "\n"


def _latex_row(cells: Sequence[str], numeric: bool) -> str:
    return " & ".join(_latex_cell(cell, numeric) for cell in cells) + r" \\"


def _latex_cell(cell: str, numeric: bool) -> str:
    """One cell escaped; a number's minus sign set as a minus, not a hyphen."""
    cell = " ".join(cell.split())  # a blank line in a cell would be an error in a tabular
    if cell == "~":
        return r"$\sim$"  # the grid's "not distinguishable": a relation, not a raised tilde
    if numeric and is_numeric(cell):
        cell = re.sub(r"(?<![\deE])-", MINUS, cell)
    text = latex_escape(cell)
    # Right after "\\" (or "\midrule") a cell starting with "[" would be read as an optional
    # argument, and one starting with "*" as the star of "\\*": braces keep them plain text.
    return "{" + text[0] + "}" + text[1:] if text[:1] in ("[", "*") else text
