"""chrF++ (Popović 2017): chrF with word unigrams and bigrams, as sacreBLEU computes it.

sacreBLEU has no metric of this name: chrF++ is its ``-m chrf --chrf-word-order 2``. mtgui
offers it as a metric of its own so that chrF and chrF++ can be shown side by side. Its word
order is always 2 (that is what the name means); the character order and beta are chrF's
settings (``--chrf-char-order``, ``--chrf-beta``), while ``--chrf-word-order`` changes chrF
only. Everything else is :class:`~mtgui.engine.metrics.chrf.chrf.Chrf`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Self

from mtgui.engine.metrics.chrf import options as chrf_options
from mtgui.engine.metrics.chrf.chrf import Chrf

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import TestSet
    from mtgui.engine.metrics.settings import MetricSettings


class ChrfPlusPlus(Chrf):
    """sacreBLEU's chrF with word order 2."""

    name: ClassVar[str] = "chrf++"
    # its word order is always 2
    reads: ClassVar[tuple[str, ...] | None] = tuple(
        name for name in Chrf.reads or () if name != "chrf_word_order"
    )
    label: ClassVar[str] = "chrF++"
    description: ClassVar[str] = (
        "chrF++: chrF with word unigrams and bigrams (word order 2), as sacreBLEU computes it."
    )

    def __init__(
        self,
        char_order: int = chrf_options.CHAR_ORDER,
        beta: int = chrf_options.BETA,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        super().__init__(
            char_order, chrf_options.PLUS_PLUS_WORD_ORDER, beta, whitespace, eps_smoothing
        )

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """chrF++ with the settings' character order, beta, whitespace and smoothing."""
        if settings is None:
            return cls()
        return cls(
            settings.chrf_char_order,
            settings.chrf_beta,
            settings.chrf_whitespace,
            settings.chrf_eps_smoothing,
        )
