"""How the engine runs fast: compiled kernels, numpy steps that let go of the interpreter lock,
the heap's freed pages, and chunks timed to a budget.

Nothing here knows a metric; the stages above use these tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

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


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
