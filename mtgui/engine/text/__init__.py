"""Text into tokens and n-gram ids: the tokenizers (mteval-v13a's 13a and sacreBLEU's), the
case choices, the pool of tokenizing workers and the reference n-gram index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

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


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
