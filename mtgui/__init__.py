"""mtgui: tells whether one machine-translation system is really better than another.

The package is split so that everything that computes lives in :mod:`mtgui.engine` and
:mod:`mtgui.io` (pure Python and numpy, no Qt) and the desktop application in
:mod:`mtgui.views` and :mod:`mtgui.views.launch` only shows what the engine produced.
"""

__version__ = "0.1.0"
