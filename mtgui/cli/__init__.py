"""The command line: ``mtgui eval`` and ``mtgui study``, their options and outputs. Qt-free;
the window is opened through a function handed to :func:`mtgui.cli.main.main`.

``main`` is the ``mtgui`` command (its parser, the inputs its options name, its exit codes);
``eval`` and ``study`` run the commands through the window's own pipeline and study dispatcher
(:mod:`mtgui.engine.analysis`, :mod:`mtgui.engine.studies.dispatch`); ``eval_options``,
``study_options`` and ``eval_outputs`` hold their options and outputs; ``progress`` and
``signals`` what every command shares while it runs."""
