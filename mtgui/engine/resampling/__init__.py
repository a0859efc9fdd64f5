"""The bootstrap: its settings, the resample counts (drawn ahead on a thread or in a forked
child), the exact matrix product of counts and statistics, and :func:`iter_bootstrap`, which
turns them into every interval, comparison and ranking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.resampling.bootstrap import BootstrapResult
    from mtgui.engine.resampling.draws import BootstrapProgress
    from mtgui.engine.resampling.settings import (
        AR_TRIALS,
        DEFAULT_LEVEL,
        DEFAULT_RESAMPLES,
        DEFAULT_SEED,
        FEW_DOCUMENTS,
        MAX_LEVEL,
        MAX_RESAMPLES,
        MAX_SEED,
        MIN_DOCUMENTS,
        MIN_LEVEL,
        MIN_RESAMPLES,
        RAISED,
        BootstrapSettings,
        Unit,
        check_level,
        check_seed,
    )

_MODULE_OF = {
    "AR_TRIALS": "settings",
    "BootstrapProgress": "draws",
    "BootstrapResult": "bootstrap",
    "BootstrapSettings": "settings",
    "DEFAULT_LEVEL": "settings",
    "DEFAULT_RESAMPLES": "settings",
    "DEFAULT_SEED": "settings",
    "FEW_DOCUMENTS": "settings",
    "MAX_LEVEL": "settings",
    "MAX_RESAMPLES": "settings",
    "MAX_SEED": "settings",
    "MIN_DOCUMENTS": "settings",
    "MIN_LEVEL": "settings",
    "MIN_RESAMPLES": "settings",
    "RAISED": "settings",
    "Unit": "settings",
    "check_level": "settings",
    "check_seed": "settings",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "AR_TRIALS",
    "DEFAULT_LEVEL",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "FEW_DOCUMENTS",
    "MAX_LEVEL",
    "MAX_RESAMPLES",
    "MAX_SEED",
    "MIN_DOCUMENTS",
    "MIN_LEVEL",
    "MIN_RESAMPLES",
    "RAISED",
    "BootstrapProgress",
    "BootstrapResult",
    "BootstrapSettings",
    "Unit",
    "check_level",
    "check_seed",
]


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
