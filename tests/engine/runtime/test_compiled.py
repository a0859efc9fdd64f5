"""mtgui.engine.runtime.compiled in the built app: the kernels' file names made absolute inside the
bundle, so that numba keeps one cache per installed app, not one per working folder (the
bundle itself is checked by tests/packaging)."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

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


def test_a_wheels_kernels_go_where_numba_reads_them_when_it_cannot_write_beside_them(
    monkeypatch, tmp_path
):
    """An install owned by another user: numba keeps its cache in its user-wide folder, so the
    kernels shipped beside the module are copied there (numba's files only, once)."""
    pytest.importorskip("numba")
    package = tmp_path / "site" / "mtgui" / "engine"
    (package / "__pycache__").mkdir(parents=True)
    (package / "__pycache__" / "kernels.f-1.py311.nbi").write_bytes(b"index")
    (package / "__pycache__" / "kernels.cpython-311.pyc").write_bytes(b"bytecode")
    user_wide = tmp_path / "home" / "numba" / "engine_0123"
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(compiled, "_cache_folder", lambda function: str(user_wide))
    monkeypatch.setattr(compiled, "_SEEDED", set())
    function = _function_from(str(package / "kernels.py"))
    compiled._seed_shipped(function)
    assert sorted(path.name for path in user_wide.iterdir()) == ["kernels.f-1.py311.nbi"]


def test_kernels_numba_reads_where_they_were_shipped_are_not_copied(monkeypatch, tmp_path):
    pytest.importorskip("numba")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "kernels.f-1.py311.nbi").write_bytes(b"index")
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(compiled, "_SEEDED", set())
    copies: list[tuple[str, str]] = []
    monkeypatch.setattr(compiled, "copy_newer", lambda *folders: copies.append(folders))
    monkeypatch.setattr(compiled, "_cache_folder", lambda f: str(tmp_path / "__pycache__"))
    compiled._seed_shipped(_function_from(str(tmp_path / "kernels.py")))
    assert copies == []


def test_mtgui_compiles_for_the_generic_cpu_its_shipped_kernels_were_made_for():
    """Unless the user names a CPU: numba keys its cache by the CPU."""
    if compiled.COMPILED and "NUMBA_CPU_NAME" not in os.environ:
        pytest.fail("numba was imported without a CPU named")
    if compiled.COMPILED:
        import numba

        assert os.environ["NUMBA_CPU_NAME"] == numba.config.CPU_NAME
