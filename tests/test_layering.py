"""The engine and the readers never import Qt; neither does the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


@pytest.mark.parametrize(
    "imports",
    [
        "import mtgui.engine.corpus, mtgui.engine.errors, mtgui.engine.summary",
        "import mtgui.io.loader, mtgui.io.assemble, mtgui.io.scores, mtgui.io.naming",
        "import mtgui.cli, mtgui.demo, mtgui.eval_options, mtgui.eval_outputs",
        "import mtgui.engine.running, mtgui.engine.analysis, mtgui.engine.calibration",
        "import mtgui.engine.studies, mtgui.study_cli, mtgui.study_options",
    ],
)
def test_engine_io_and_cli_do_not_import_qt(imports):
    assert modules_importing_qt(imports) == ""


def test_eval_command_runs_without_importing_qt():
    imports = (
        "import contextlib, io\nfrom mtgui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['eval', '--demo']) == 0"
    )
    assert modules_importing_qt(imports) == ""
