"""Text into tokens and n-gram ids: the tokenizers (mteval-v13a's 13a and sacreBLEU's), the
case choices, the pool of tokenizing workers and the reference n-gram index.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgui.engine.text.settings import DEFAULT_TOKENIZER, TOKENIZERS, Case

_MODULE_OF = {
    "Case": "settings",
    "DEFAULT_TOKENIZER": "settings",
    "TOKENIZERS": "settings",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "DEFAULT_TOKENIZER",
    "TOKENIZERS",
    "Case",
]


def __getattr__(name: str) -> Any:
    """A public name, from the module that defines it, imported when first asked for:
    a program loads only the modules it uses."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value  # found directly next time
    return value
