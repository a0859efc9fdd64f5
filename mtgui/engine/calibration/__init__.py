"""Simulations against known truths: document effects (coverage of intervals, size of tests)
and families of systems (family-wise error of the corrections). Used by the tests and by
``bench/``; nothing in a user's run calls them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.calibration.documents import (
        Calibration,
        DocumentEffects,
        Pool,
        Share,
        correlated_pool,
        independent_pool,
        iter_calibration,
        merge,
        standard_error,
        synthetic_pool,
    )
    from mtgui.engine.calibration.families import FamilyOutcome, simulate_family

_MODULE_OF = {
    **dict.fromkeys(
        (
            "Calibration",
            "DocumentEffects",
            "Pool",
            "Share",
            "correlated_pool",
            "independent_pool",
            "iter_calibration",
            "merge",
            "standard_error",
            "synthetic_pool",
        ),
        "documents",
    ),
    **dict.fromkeys(("FamilyOutcome", "simulate_family"), "families"),
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "Calibration",
    "DocumentEffects",
    "FamilyOutcome",
    "Pool",
    "Share",
    "correlated_pool",
    "independent_pool",
    "iter_calibration",
    "merge",
    "simulate_family",
    "standard_error",
    "synthetic_pool",
]

__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
