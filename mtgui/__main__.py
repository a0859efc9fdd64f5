"""``python -m mtgui`` does exactly what the ``mtgui`` command does."""

from mtgui.entry import run

run()
