"""The command line: ``mtgui eval`` and ``mtgui study``, their options and outputs. Qt-free;
the window is opened through a function handed to :func:`mtgui.cli.main.main`."""
