"""The stages' public faces load a name's module only when the name is first asked for.

A stage's ``__init__`` lists its public names (``__all__``) and the module of each; importing
the face imports none of them, so a program (``mtgui eval`` on plain text, say) loads only the
modules it uses (PEP 562). Type checkers read the names from the face's ``TYPE_CHECKING``
imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, module_of: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: name -> the attribute of the same name in
    ``package.<module_of[name]>``, imported now and kept in ``namespace`` (the face's
    ``globals()``), so that the next lookup finds it directly."""

    def __getattr__(name: str) -> Any:  # noqa: N807 (the module hook's own name)
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module_of[name]}"), name)
        namespace[name] = value
        return value

    return __getattr__
