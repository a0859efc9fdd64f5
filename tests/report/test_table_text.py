"""Tables as TSV (the clipboard), CSV and LaTeX booktabs text: exact strings."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

import pytest

from mtgui.io.writers import csv_text
from mtgui.report.table_text import (
    align_table,
    column_alignments,
    csv_table_text,
    is_numeric,
    latex_escape,
    latex_text,
    tsv_text,
)

HEADER = ["System", "Score", "Rel. low"]
ROWS = [["Lumen", "0.2841", "\N{MINUS SIGN}3.25%"], ["Quill", "0.2702", "-"]]


def test_a_terminal_table_pads_text_left_the_rest_right_and_makes_cells_printable():
    rows = [["System", "BLEU", "Note"], ["Lumen", "0.2841", ""], ["A\tlong name", "-", "x"]]
    assert align_table(rows) == (
        "System            BLEU  Note\nLumen           0.2841\nA\\x09long name       -     x"
    )


@pytest.mark.parametrize(
    "cell",
    [
        "12",
        "0.2841",
        "-0.5",
        "\N{MINUS SIGN}0.5",
        "+1.20%",
        "1,234",
        "1e-5",
        "0.25 ± 0.01",
        "±1.2%",
    ],
)
def test_numbers_in_every_form_the_views_print_them(cell):
    assert is_numeric(cell)


@pytest.mark.parametrize("cell", ["", "-", "Lumen", "e5", "[0.1, 0.2]", "1,23", "~", "n-gram"])
def test_text_and_placeholders_are_not_numbers(cell):
    assert not is_numeric(cell)


def test_tsv_and_csv_make_a_formula_in_a_name_inert_but_keep_numbers():
    rows = [['=HYPERLINK("http://x")', "\N{MINUS SIGN}0.5", "+1.2%", "@x"]]
    assert tsv_text(["system", "delta", "rel", "n"], rows).splitlines()[1].split("\t") == [
        '\'=HYPERLINK("http://x")',
        "-0.5",
        "+1.2%",
        "'@x",
    ]
    assert "'=HYPERLINK" in csv_table_text(["system"], [rows[0][:1]])


def test_tsv_is_tabs_and_newlines_with_cells_flattened_and_numbers_readable():
    rows = [["a\tb", "line 1\nline 2"], ["\N{MINUS SIGN}0.5", "\N{MINUS SIGN}x"]]
    assert tsv_text(["x", "y"], rows) == "x\ty\na b\tline 1 line 2\n-0.5\t\N{MINUS SIGN}x\n"
    assert tsv_text(HEADER, ROWS) == (
        "System\tScore\tRel. low\nLumen\t0.2841\t-3.25%\nQuill\t0.2702\t-\n"
    )


def test_csv_quotes_commas_quotes_and_line_breaks_as_the_reports_do():
    rows = [["A, B", 'say "hi"', "two\nlines"], ["plain", "\N{MINUS SIGN}1.5", "1.0"]]
    text = csv_table_text(["name", "quote", "note"], rows)
    assert text == ('name,quote,note\n"A, B","say ""hi""","two\nlines"\nplain,-1.5,1.0\n')
    assert text == csv_text(["name", "quote", "note"], [rows[0], ["plain", "-1.5", "1.0"]])
    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "quote", "note"],
        ["A, B", 'say "hi"', "two\nlines"],
        ["plain", "-1.5", "1.0"],
    ]


def test_every_latex_special_is_escaped():
    assert latex_escape(r"& % $ # _ { } ~ ^ \ ") == (
        r"\& \% \$ \# \_ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{} "
    )
    assert latex_escape("a<b>c|d") == r"a\textless{}b\textgreater{}c\textbar{}d"
    assert latex_escape("\N{MINUS SIGN}1 ± 2 · Δ") == r"$-$1 $\pm$ 2 $\cdot$ $\Delta$"
    assert latex_escape("naïve Þór") == "naïve Þór"  # letters are left to inputenc


def test_columns_of_numbers_go_right_single_symbols_centre_text_left():
    header = ["", "n", "Score", "A", "Note"]
    rows = [["Lumen", "1", "0.5", ">", "ok"], ["Quill", "2", "-", "~", "-"]]
    assert column_alignments(header, rows) == ["l", "r", "r", "c", "l"]
    assert column_alignments(["x"], [["-"], [""]]) == ["l"]  # nothing but gaps: text


def test_latex_is_a_booktabs_tabular_with_escaped_cells_and_math_minus():
    rows = [
        ["sys_A & co", "\N{MINUS SIGN}0.5", "+1.2%"],
        ["[base] #2", "-1.25", "-"],
        ["50% \\ more", "0.25 ± 0.01", "1e-5"],
        ["*new*", "1", "2"],
    ]
    assert latex_text(["System", "Δ score", "Rel. %"], rows, caption="Scores\nby system") == (
        "% Scores\n"
        "% by system\n"
        "% mtgui table; needs \\usepackage{booktabs} in the preamble\n"
        "\\begin{tabular}{l r r}\n"
        "\\toprule\n"
        "System & $\\Delta$ score & Rel. \\% \\\\\n"
        "\\midrule\n"
        "sys\\_A \\& co & $-$0.5 & +1.2\\% \\\\\n"
        "{[}base] \\#2 & $-$1.25 & - \\\\\n"
        "50\\% \\textbackslash{} more & 0.25 $\\pm$ 0.01 & 1e-5 \\\\\n"
        "{*}new* & 1 & 2 \\\\\n"
        "\\bottomrule\n"
        "\\end{tabular}\n"
    )


def test_a_significance_grid_reads_as_relations():
    rows = [["Lumen", "·", "~", ">"], ["Quill", "~", "·", "<"]]
    assert latex_text(["", "Lumen", "Quill", "Tessera"], rows).splitlines()[1:] == [
        "\\begin{tabular}{l c c c}",
        "\\toprule",
        " & Lumen & Quill & Tessera \\\\",
        "\\midrule",
        "Lumen & $\\cdot$ & $\\sim$ & \\textgreater{} \\\\",
        "Quill & $\\sim$ & $\\cdot$ & \\textless{} \\\\",
        "\\bottomrule",
        "\\end{tabular}",
    ]


def test_a_line_break_in_a_latex_cell_becomes_a_space():
    text = latex_text(["a"], [["one\n\ntwo"]])
    assert "one two \\\\\n" in text


def test_the_table_text_module_does_not_import_qt():
    check = "import sys, mtgui.report.table_text; print(any('PySide6' in m for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.stdout.strip() == "False"
