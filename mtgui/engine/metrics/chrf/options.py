"""chrF's options, as sacreBLEU names them: character order, word order and beta.

sacreBLEU's ``--chrf-char-order`` (default 6), ``--chrf-word-order`` (0; 2 makes chrF++) and
``--chrf-beta`` (2: recall counts twice as much as precision) change the score, so they are
metric settings, recorded in the signature. They are checked here, one rule for the engine, the
command line, sessions and the settings panel. sacreBLEU takes any integer; mtgui refuses what
cannot be meant (a character order of 0, a negative beta) and sizes whose statistics would be
absurd (each order adds three columns per segment and system).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from mtgui.engine.core.errors import InputError

CHAR_ORDER: Final = 6
"""sacreBLEU's character n-gram order."""
WORD_ORDER: Final = 0
"""sacreBLEU's word n-gram order for chrF (chrF++ is chrF with word order 2)."""
PLUS_PLUS_WORD_ORDER: Final = 2
"""The word order that makes chrF chrF++ (Popović 2017; sacreBLEU ``--chrf-word-order 2``)."""
BETA: Final = 2
"""sacreBLEU's beta: chrF2."""

LIMITS: Final = {
    # option: (what it is called in messages, lowest, highest)
    "char_order": ("the chrF character order", 1, 20),
    "word_order": ("the chrF word order", 0, 10),
    "beta": ("the chrF beta", 0, 10),
}
"""Each option's range: sacreBLEU's defaults and everything used in practice (chrF1 to chrF3,
character orders up to 10, word orders up to 4), with room to spare."""


def check_chrf_option(option: str, value: object) -> int:
    """``value`` if it is a value mtgui takes for the chrF ``option`` (a key of
    :data:`LIMITS`), else an :class:`InputError` that says the range."""
    what, low, high = LIMITS[option]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise InputError(f"{what} must be a whole number from {low} to {high}, not {value!r}.")
    return int(value)
