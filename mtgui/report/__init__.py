"""Results turned into text and files for people and programs: terminal tables, CSV, JSON,
LaTeX. Qt-free: the command line and the window render through the same functions.

How one value is written (a CSV cell, a JSON value, four decimals or '-') is decided once, in
:mod:`mtgui.report.cells`; how a table becomes text (aligned for the terminal, TSV, CSV, LaTeX)
in :mod:`mtgui.report.table_text`."""
