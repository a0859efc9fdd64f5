"""The system-against-system grid of one metric as a Qt model (Zhang & Vogel 3.2).

Rows and columns are the systems ordered by score, best first; a cell says how the row system
compares with the column system: ``>`` significantly better, ``<`` significantly worse, ``~`` not
distinguishable. The colours are the Okabe-Ito blue and orange, which stay apart for
colour-blind readers, and the symbol is always shown too. The tooltip gives the delta (with how
often humans would agree with it, where the metric has a fit: Kocmi et al. 2024), its
interval, the win fraction and the p-values.

Every cell sets its text colour with its background, so that the symbols read in any palette;
in a dark palette the grey of ``~`` turns dark (a light grey grid would glare), with white
symbols. The blue and orange stay: black on them has a contrast of 9 either way.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication

from mtgui.engine.inference import (
    BETTER,
    EQUIVALENT,
    TIE,
    WORSE,
    Correction,
    HumanAgreement,
    PairComparison,
    SegmentComparison,
    describe_segments,
)
from mtgui.engine.resampling import DEFAULT_LEVEL, BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.report.agreement import agreement_sentence, metric_agreement
from mtgui.report.significance import (
    grid_reading,
    interval_name,
    p_value_lines,
    power_lines,
    verdict_basis,
)
from mtgui.views.common.palette import is_dark

_Index = QModelIndex | QPersistentModelIndex
COLORS = {
    BETTER: QColor("#56B4E9"),  # Okabe-Ito sky blue
    WORSE: QColor("#E69F00"),  # Okabe-Ito orange
    TIE: QColor("#E8E8E8"),
    EQUIVALENT: QColor("#6FCFAE"),  # a light Okabe-Ito bluish green: black on it, contrast 12
}
_INK = QColor("#000000")
DARK_TIE = (QColor("#505050"), QColor("#ffffff"))  # "~" in a dark palette: contrast 8.1
MEANING = {
    BETTER: "significantly better than",
    WORSE: "significantly worse than",
    TIE: "not distinguishable from",
    EQUIVALENT: "equivalent, within the margin, to",
}


class SignificanceGridModel(QAbstractTableModel):
    """Verdicts of every ordered pair of systems under one metric."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._order: list[str] = []
        self._pairs: dict[tuple[str, str], PairComparison] = {}
        self._segments: dict[tuple[str, str], SegmentComparison] = {}
        self._level = DEFAULT_LEVEL
        self._correction = Correction.NONE
        self._unit = "segment"
        self._basis = ""  # what the verdicts rest on: the level, the correction and its family
        self._agreement: HumanAgreement | None = None  # how often humans agree with a delta
        self.reading = ""  # how to read the grid, in one sentence (empty without a result)

    def set_result(
        self, result: BootstrapResult | None, metric: str, statistics: Statistics | None = None
    ) -> None:
        """Show ``metric`` of ``result`` (or nothing); ``statistics``, where given, say whether
        the metric has a human-agreement fit (Kocmi et al. 2024) for the tooltips."""
        self.beginResetModel()
        self._agreement = None
        if result is None or metric not in result.metrics:
            self._order, self._pairs, self.reading = [], {}, ""
            self._segments = {}
        else:
            if statistics is not None:
                self._agreement = metric_agreement(statistics, metric)
            self._order = [entry.system for entry in result.ranking(metric).systems]
            self._pairs = {(p.x, p.y): p for p in result.pairs if p.metric == metric}
            found = result.segment_comparisons
            self._segments = {(c.x, c.y): c for c in found if c.metric == metric}
            self._level = result.settings.level
            self._correction = result.settings.correction
            self._unit = result.settings.unit.value
            self._basis = verdict_basis(result, metric)
            self.reading = grid_reading(result, metric, colours=True)
        self.endResetModel()

    @property
    def systems(self) -> list[str]:
        """The systems in grid order (best first)."""
        return list(self._order)

    def pair(self, row: int, column: int) -> PairComparison | None:
        """The comparison in a cell; None on the diagonal."""
        return self._pairs.get((self._order[row], self._order[column]))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._order)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        pair = self.pair(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if pair is None:
            return "·" if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            return pair.verdict
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(verdict_colors(pair.verdict, _dark())[0])
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(verdict_colors(pair.verdict, _dark())[1])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(pair)
        return None

    def _tooltip(self, pair: PairComparison) -> str:
        """Everything behind a verdict, in words."""
        lines = [
            f"{pair.x} is {MEANING[pair.verdict]} {pair.y}.",
            f"Decided {self._basis}.",
            f"Difference {pair.x} - {pair.y}: {pair.delta:+.4f}",
            *filter(None, [agreement_sentence(self._agreement, pair.delta)]),
            f"{interval_name(pair, self._level)} of the difference: "
            f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]",
            f"{pair.x} wins in {pair.win_fraction:.1%} of the resamples (Koehn 2004).",
            *p_value_lines(pair, self._correction),
            *power_lines(pair, self._level, self._unit),
        ]
        segments = self._segments.get((pair.x, pair.y))
        lines += describe_segments(segments) if segments is not None else []
        return "\n".join(lines)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and section < len(self._order):
            return self._order[section]
        if role == Qt.ItemDataRole.ToolTipRole and section < len(self._order):
            return header_tooltip(self._order[section], orientation)
        return None


def verdict_colors(verdict: str, dark: bool) -> tuple[QColor, QColor]:
    """The background and the text colour of a verdict's cell, in a dark or a light palette."""
    if dark and verdict == TIE:
        return DARK_TIE
    return COLORS[verdict], _INK


def _dark() -> bool:
    """Whether the application's palette is dark (asked at each paint, so that a change of
    the desktop's theme shows at the next repaint, which Qt makes on a palette change).

    The answer is kept per palette (its cache key changes with any of its colours): sizing a
    20 x 20 grid asks 760 times, and working it out each time cost ~10 ms."""
    palette = QGuiApplication.palette()
    key = palette.cacheKey()
    if key not in _DARK_BY_PALETTE:
        _DARK_BY_PALETTE.clear()  # one palette at a time is enough
        _DARK_BY_PALETTE[key] = is_dark(palette)
    return _DARK_BY_PALETTE[key]


_DARK_BY_PALETTE: dict[int, bool] = {}


def header_tooltip(system: str, orientation: Qt.Orientation) -> str:
    """What a row or a column of the grid stands for, in one sentence."""
    if orientation == Qt.Orientation.Vertical:
        return (
            f"Row {system}: each cell of this row says whether {system} is significantly better "
            "(>), significantly worse (<) or not distinguishable (~) from the column's system, by "
            "the paired bootstrap (Zhang & Vogel 2004, section 3.2; Koehn 2004)."
        )
    return (
        f"Column {system}: the system each row's system is compared with; point at a cell for "
        "the difference, its interval, the win fraction (Koehn 2004) and the p-values."
    )
