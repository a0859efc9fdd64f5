"""The tabs above the files panel: one per test set of the project, and "+" to add one.

Each tab is a test set (its own references, systems, sources, documents and scores, in the
files panel below while its tab is chosen); the settings are shared by all, and with two sets
or more the results gain a Campaign tab. A tab is renamed by double-clicking it, closed with
its cross (the window asks first when it holds files); a right click offers the same. The
widget only shows the sets and says what the user asks: the window's controller keeps them
(:mod:`mtgui.app.test_sets`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QMenu, QTabBar, QToolButton, QWidget

SCROLL_FROM = 3
"""More test sets than this: the tabs scroll (fewer fit beside the + at their shortest)."""


class TestSetTabs(QWidget):
    """The test sets as tabs; what the user asks of them as signals."""

    __test__ = False  # not a pytest test class, whatever its name

    add_requested = Signal()
    show_requested = Signal(int)
    close_requested = Signal(int)
    rename_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QTabBar()
        self.bar.setExpanding(False)
        self.bar.setDocumentMode(True)
        self.bar.setElideMode(self.bar.elideMode().ElideMiddle)
        self.bar.setToolTip(
            "Test sets: each tab holds the files of one test set; the settings are shared. "
            "Double-click a tab to rename it."
        )
        self.add_button = QToolButton()
        self.add_button.setText("+")
        self.add_button.setAutoRaise(True)
        self.add_button.setToolTip("Add a test set (File > Add test set, Ctrl+T)")
        self.add_button.setAccessibleName("Add a test set")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.bar)
        layout.addWidget(self.add_button)  # right after the last tab, as in browsers
        layout.addStretch(1)
        self._showing = False  # the tabs are being refilled: no request
        self.bar.currentChanged.connect(self._on_current_changed)
        self.bar.tabCloseRequested.connect(self.close_requested)
        self.bar.tabBarDoubleClicked.connect(self._on_double_clicked)
        self.add_button.clicked.connect(self.add_requested)
        self.bar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.bar.customContextMenuRequested.connect(self._show_menu)

    def show_sets(self, names: Sequence[str], current: int) -> None:
        """Show the sets ``names`` with the set ``current`` chosen (a set alone cannot be
        closed)."""
        self._showing = True
        try:
            while self.bar.count() > len(names):
                self.bar.removeTab(self.bar.count() - 1)
            for index, name in enumerate(names):
                if index < self.bar.count():
                    self.bar.setTabText(index, name)
                else:
                    self.bar.addTab(name)
                self.bar.setTabToolTip(index, f"Test set: {name} (double-click to rename)")
            self.bar.setTabsClosable(len(names) > 1)
            # Scroll buttons only for many sets: with a few they would leave a gap before +.
            self.bar.setUsesScrollButtons(len(names) > SCROLL_FROM)
            self.bar.setCurrentIndex(current)
        finally:
            self._showing = False

    def tab_menu(self, index: int) -> QMenu:
        """The menu of the tab ``index`` (-1: beside the tabs): rename or close it, or add a
        test set."""
        menu = QMenu(self)
        if index >= 0:
            name = self.bar.tabText(index)
            rename = menu.addAction(f"Rename {name}...")
            rename.triggered.connect(lambda: self.rename_requested.emit(index))
            close = menu.addAction(f"Close {name}")
            close.setEnabled(self.bar.count() > 1)
            close.triggered.connect(lambda: self.close_requested.emit(index))
            menu.addSeparator()
        menu.addAction("Add test set").triggered.connect(self.add_requested)
        return menu

    def _show_menu(self, position: QPoint) -> None:
        menu = self.tab_menu(self.bar.tabAt(position))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.bar.mapToGlobal(position))

    def _on_current_changed(self, index: int) -> None:
        if not self._showing and index >= 0:
            self.show_requested.emit(index)

    def _on_double_clicked(self, index: int) -> None:
        if index >= 0:
            self.rename_requested.emit(index)
