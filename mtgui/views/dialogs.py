"""Questions every view asks the same way."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget


def ask_to_replace(parent: QWidget, existing: list[Path]) -> bool:
    """Ask whether files that exist already may be replaced; True only on Yes."""
    names = "\n".join(p.name for p in existing)
    answer = QMessageBox.question(
        parent, "Replace files?", f"These files exist already:\n{names}\nReplace them?"
    )
    return answer == QMessageBox.StandardButton.Yes
