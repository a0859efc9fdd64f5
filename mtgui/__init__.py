"""mtgui: tells whether one machine-translation system is really better than another.

The Python API is :func:`evaluate` (score, bootstrap and compare, as ``mtgui eval`` does) and
:func:`read` (the inputs as one aligned corpus); see :mod:`mtgui.api`. They are loaded on first
use, so that ``import mtgui`` stays light for the command line and the window.

The package is split so that everything that computes lives in :mod:`mtgui.engine` and
:mod:`mtgui.io` (pure Python and numpy, no Qt) and the desktop application in
:mod:`mtgui.views` and :mod:`mtgui.views.window.launch` only shows what the engine produced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgui._version import __version__

if TYPE_CHECKING:
    from mtgui.api import Comparison, Evaluation, Progress, evaluate, read

__all__ = ["Comparison", "Evaluation", "Progress", "__version__", "evaluate", "read"]


def __getattr__(name: str) -> Any:
    """The API's names, imported from :mod:`mtgui.api` when first asked for."""
    if name in __all__:
        from mtgui import api

        return getattr(api, name)
    raise AttributeError(f"module 'mtgui' has no attribute '{name}'")
