"""Plots in the desktop's colours: a dark palette gets dark plots with light axes and text.

pyqtgraph draws on white or black by its own global setting, with grey axes, whatever the
desktop's palette says; mtgui's plots used to be white, a glaring rectangle in a dark theme.
:func:`theme_of` reads the colours a widget's palette gives (Base behind the plots, as behind
tables; Text for what is written), :func:`apply_plot_theme` puts them on a pyqtgraph widget
(background, axes, titles, axis labels, legends and text items of every plot in it), and
:func:`follow_palette` does that again whenever the palette changes, so that switching the
desktop's theme while mtgui runs turns its plots too. What a view draws itself (curves, marks)
takes its colours from the :class:`PlotTheme` and is redrawn by the callback given to
:func:`follow_palette`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

from mtgui.views.common.palette import RGB, blend, is_dark, series_color

_THEME_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
_LIGHT_INK = QColor(40, 40, 40)  # the marks' near-black on light plots, as before themes


@dataclass(frozen=True)
class PlotTheme:
    """The colours of the plots of one palette."""

    dark: bool
    background: QColor  # behind the plots
    text: QColor  # tick labels, titles, axis labels, legends, text items
    axis: QColor  # axis lines, ticks and grid lines
    ink: QColor  # marks drawn in "black" on light plots (score and median lines)

    def series(self, number: int) -> RGB:
        """The colour of the ``number``-th system on this background."""
        return series_color(number, self.dark)

    def ink_rgb(self) -> RGB:
        """:attr:`ink` as a tuple, as ``pg.mkPen`` takes it."""
        return (self.ink.red(), self.ink.green(), self.ink.blue())


def theme_of(source: QWidget | QPalette) -> PlotTheme:
    """The plot colours of a widget's palette (or of a palette)."""
    palette = source.palette() if isinstance(source, QWidget) else source
    background = QColor(palette.color(QPalette.ColorRole.Base))
    text = QColor(palette.color(QPalette.ColorRole.Text))
    dark = is_dark(palette)
    return PlotTheme(
        dark=dark,
        background=background,
        text=blend(text, background, 0.1),
        axis=blend(text, background, 0.4),
        ink=blend(text, background, 0.12) if dark else _LIGHT_INK,
    )


def apply_plot_theme(
    widget: pg.GraphicsView | pg.PlotItem, theme: PlotTheme | None = None
) -> PlotTheme:
    """Colour ``widget`` (a PlotWidget, a GraphicsLayoutWidget or one PlotItem) by ``theme``,
    by default its palette's; returns the theme used.

    Every plot in the widget gets the theme's axes, title, axis labels, legend text and text
    items; curves and lines keep the colours their view drew them in."""
    if isinstance(widget, pg.PlotItem):
        view = widget.getViewWidget()
        theme = theme or theme_of(view if isinstance(view, QWidget) else QPalette())
        _theme_plot(widget, theme)
        return theme
    theme = theme or theme_of(widget)
    widget.setBackground(theme.background)
    for item in widget.scene().items():
        if isinstance(item, pg.PlotItem):
            _theme_plot(item, theme)
    return theme


def _theme_plot(plot: pg.PlotItem, theme: PlotTheme) -> None:
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(theme.axis)
        axis.setTextPen(theme.text)  # after setPen, which sets the label's colour too
    title = plot.titleLabel
    title.setAttr("color", theme.text)
    title.setText(title.text)
    legend = plot.legend
    if legend is not None:
        legend.setLabelTextColor(theme.text)
        for _sample, label in legend.items:
            label.setText(label.text)
    for item in plot.items:
        if isinstance(item, pg.TextItem):
            item.setColor(theme.text)


class _PaletteFollower(QObject):
    """Re-themes a plot widget when its palette (or the application's) changes."""

    def __init__(self, widget: pg.GraphicsView, redraw: Callable[[PlotTheme], None] | None) -> None:
        super().__init__(widget)
        self._widget, self._redraw = widget, redraw
        self._last: tuple[bool, int, int] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        # While Qt destroys the widget, its children (this filter) still see its events after
        # PySide has cleared their Python attributes: then there is nothing left to theme.
        widget = getattr(self, "_widget", None)
        if widget is not None and watched is widget and event.type() in _THEME_EVENTS:
            self.retheme()
        return False

    def retheme(self, redraw: bool = True) -> PlotTheme:
        """Apply the widget's palette, and redraw when its colours are other than last time
        (Qt reports one change several times: to the application, then to each widget)."""
        theme = theme_of(self._widget)
        key = (theme.dark, theme.background.rgb(), theme.text.rgb())
        if key == self._last:
            return theme
        self._last = key
        apply_plot_theme(self._widget, theme)
        if redraw and self._redraw is not None:
            self._redraw(theme)
        return theme


def follow_palette(
    widget: pg.GraphicsView, redraw: Callable[[PlotTheme], None] | None = None
) -> PlotTheme:
    """Theme ``widget`` now and whenever the palette changes; ``redraw(theme)`` is then called
    too, for the view to recolour what it drew itself. Returns the theme applied now."""
    follower = _PaletteFollower(widget, redraw)
    # Held by the widget too: a Qt parent alone does not keep PySide's Python half alive, and
    # without it the filter would run with its attributes gone.
    widget.palette_follower = follower
    widget.installEventFilter(follower)
    return follower.retheme(redraw=False)  # the view draws in the theme it starts with
