"""The layers hold: imports flow one way, and Qt stays in the window's packages.

The rules themselves are import-linter contracts in ``pyproject.toml`` (run here and in CI);
these tests add what a static graph cannot see: the modules really imported at run time.
"""

from __future__ import annotations

import ast
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mtgui

PACKAGE = Path(mtgui.__file__).resolve().parent
QT_FREE = ("mtgui.engine", "mtgui.io", "mtgui.report", "mtgui.cli")

CHECK = """
import sys
{imports}
qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'))
print(','.join(qt))
"""


def modules_importing_qt(imports: str) -> str:
    """Import in a fresh interpreter and list the Qt modules that came along."""
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(imports=imports)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def modules_under(package: str) -> list[str]:
    """Every module of ``package`` and its subpackages, found on disk (no hand list to forget)."""
    root = PACKAGE.parent / package.replace(".", "/")
    found = [package]
    for module in pkgutil.walk_packages([str(root)], prefix=f"{package}."):
        found.append(module.name)
    return sorted(found)


def test_the_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    result = subprocess.run(
        [lint, "--no-cache"], capture_output=True, text=True, cwd=PACKAGE.parent
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("package", QT_FREE)
def test_no_module_of_the_qt_free_packages_imports_qt(package):
    modules = modules_under(package)
    assert len(modules) > 3
    assert modules_importing_qt("\n".join(f"import {m}" for m in modules)) == ""


def test_the_application_layer_imports_only_qtcore():
    """Widgets, painting and plots belong to mtgui.views; mtgui.app works without a screen."""
    offending = []
    for path in sorted((PACKAGE / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                qt = name.split(".")[0] in ("PySide6", "pyqtgraph", "shiboken6")
                if qt and name != "PySide6.QtCore":
                    offending.append(f"{path.name}: {name}")
    assert offending == []


def test_eval_command_runs_without_importing_qt():
    imports = (
        "import contextlib, io\nfrom mtgui.launch import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['eval', '--demo']) == 0"
    )
    assert modules_importing_qt(imports) == ""


def test_every_package_folder_is_installed():
    """pyproject.toml lists the packages setuptools installs: a sub-package missing from the
    list works from a checkout and is absent from a wheel (pip install ., the built app)."""
    import tomllib

    listed = set(
        tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        ".".join(path.parent.relative_to(PACKAGE.parent).parts)
        for path in PACKAGE.rglob("__init__.py")
    }
    assert found - listed == set()
