"""Test settings shared by every test: Qt offscreen, pyqtgraph on PySide6, shared data paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Before anything imports Qt or pyqtgraph.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real WMT data in ../shared/data, or a skip saying why it is not there."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared WMT data is not available here ({SHARED_DATA} is absent)")
    return SHARED_DATA


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path: ``write(name, text_or_bytes, encoding='utf-8')``."""

    def _write(name: str, content: str | bytes, encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_bytes(content.encode(encoding))
        else:
            path.write_bytes(content)
        return path

    return _write
