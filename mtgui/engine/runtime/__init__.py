"""How the engine runs fast: compiled kernels, numpy steps that let go of the interpreter lock,
the heap's freed pages, and chunks timed to a budget.

Nothing here knows a metric; the stages above use these tools.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgui.engine.runtime.heap import TRIM_FROM, keep_freed_memory

_MODULE_OF = {
    "TRIM_FROM": "heap",
    "keep_freed_memory": "heap",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "TRIM_FROM",
    "keep_freed_memory",
]


def __getattr__(name: str) -> Any:
    """A public name, from the module that defines it, imported when first asked for:
    a program loads only the modules it uses."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value  # found directly next time
    return value
