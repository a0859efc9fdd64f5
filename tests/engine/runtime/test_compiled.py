"""mtgui.engine.runtime.compiled in the built app: the kernels' file names made absolute inside the
bundle, so that numba keeps one cache per installed app, not one per working folder (the
bundle itself is checked by tests/packaging)."""

from __future__ import annotations

import os
import sys
from typing import Any

from mtgui.engine.runtime import compiled

RELATIVE = os.path.join("mtgui", "engine", "kernels.py")  # as PyInstaller stores file names


def _function_from(filename: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile("def f(x):\n    return x + 1\n", filename, "exec"), namespace)
    return namespace["f"]


def test_in_the_built_app_a_kernel_file_name_points_into_the_bundle(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    function = _function_from(RELATIVE)
    compiled._placed_in_bundle(function)
    assert function.__code__.co_filename == os.path.join(str(tmp_path), RELATIVE)
    assert function(1) == 2


def test_outside_a_built_app_file_names_are_left_alone(monkeypatch):
    monkeypatch.delattr(sys, "frozen", raising=False)
    function = _function_from(RELATIVE)
    compiled._placed_in_bundle(function)
    assert function.__code__.co_filename == RELATIVE
