"""``python -m mtgui`` does exactly what the ``mtgui`` command does."""

from mtgui.launch import run

run()
