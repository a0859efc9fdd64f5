"""sacreBLEU's options for BLEU, chrF and TER, under sacreBLEU's names, and their rules.

BLEU: ``--smooth-method`` (``exp``, ``floor``, ``add-k``, ``none``, and mtgui's own ``mteval``,
the default), ``--smooth-value`` (floor's and add-k's value; none: sacreBLEU's default for the
method, 0.1 and 1), ``--bleu-max-order`` (4) and ``--bleu-effective-order``. chrF:
``--chrf-whitespace`` and ``--chrf-eps-smoothing``. TER: ``--ter-normalized``,
``--ter-no-punct``, ``--ter-asian-support`` and ``--ter-case-sensitive``. Each is a field of
:class:`~mtgui.engine.metrics.settings.MetricSettings`; they are checked here, one rule for the
engine, the command line, sessions and the settings panel.

``mteval`` is mtgui's BLEU as mteval-v13a computes it: an order without a match gets
``1 / (2^k t_n)`` like sacreBLEU's ``exp``, but a system with no match at all still scores above
0 and an order without hypothesis n-grams counts as precision 1, where sacreBLEU's ``exp``
gives 0. On real test sets (every order matched) the two are equal.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

from mtgui.engine.core.errors import InputError

MTEVAL: Final = "mteval"
SMOOTH_METHODS: Final = (MTEVAL, "exp", "floor", "add-k", "none")
"""mtgui's default (mteval-v13a's smoothing) and sacreBLEU's four methods."""
SMOOTH_DEFAULTS: Final[dict[str, float | None]] = {
    MTEVAL: None,
    "exp": None,
    "floor": 0.1,
    "add-k": 1.0,
    "none": None,
}
"""sacreBLEU's value of each method when ``--smooth-value`` is not given (None: it takes none)."""
MAX_SMOOTH_VALUE: Final = 1000.0
BLEU_ORDER: Final = 4
"""sacreBLEU's and mteval's maximum n-gram order."""
MIN_BLEU_ORDER, MAX_BLEU_ORDER = 1, 10


def check_smooth_method(method: object) -> str:
    """``method`` if it is one of :data:`SMOOTH_METHODS`, else an :class:`InputError`."""
    if not isinstance(method, str) or method not in SMOOTH_METHODS:
        raise InputError(
            f"the BLEU smoothing must be one of {', '.join(SMOOTH_METHODS)}, not {method!r}."
        )
    return method


def check_smooth_value(value: object) -> float | None:
    """``value`` (a number from 0 to :data:`MAX_SMOOTH_VALUE`, or None for the method's
    default) as a float, else an :class:`InputError`."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not math.isfinite(value)
        or not 0 <= value <= MAX_SMOOTH_VALUE
    ):
        raise InputError(
            f"the BLEU smoothing value must be a number from 0 to {MAX_SMOOTH_VALUE:g}, "
            f"not {value!r}."
        )
    return float(value)


def check_bleu_order(order: object) -> int:
    """``order`` if it is a maximum n-gram order mtgui takes, else an :class:`InputError`."""
    if (
        isinstance(order, bool)
        or not isinstance(order, int | np.integer)
        or not MIN_BLEU_ORDER <= order <= MAX_BLEU_ORDER
    ):
        raise InputError(
            f"the BLEU maximum n-gram order must be a whole number from {MIN_BLEU_ORDER} to "
            f"{MAX_BLEU_ORDER}, not {order!r}."
        )
    return int(order)


def check_flag(name: str, value: object) -> bool:
    """``value`` if it is true or false, else an :class:`InputError` naming the option."""
    if not isinstance(value, bool | np.bool_):
        raise InputError(f"{name} must be true or false, not {value!r}.")
    return bool(value)


def smooth_value_of(method: str, value: float | None) -> float:
    """The value ``method`` uses: ``value``, or sacreBLEU's default for it (0 where the method
    takes none)."""
    default = SMOOTH_DEFAULTS[method]
    return value if value is not None else (default or 0.0)


def smoothing_label(method: str, value: float | None) -> str:
    """The smoothing as sacreBLEU's signature writes it: ``exp``, ``floor[0.10]``."""
    if SMOOTH_DEFAULTS[method] is None:
        return method
    return f"{method}[{smooth_value_of(method, value):.2f}]"
