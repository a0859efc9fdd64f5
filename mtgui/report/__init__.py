"""Results turned into text and files for people and programs: terminal tables, CSV, JSON,
LaTeX. Qt-free: the command line and the window render through the same functions."""
