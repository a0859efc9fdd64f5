"""The studies package gives every study's names, but loads a study's code only when used.

``mtgui eval`` (and the engine's breakdown, which needs one module of the package) should not
pay for importing every study: about 35 ms of each command's start."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mtgui.engine.studies as studies


def loaded_after(code: str) -> set[str]:
    """The study modules a fresh interpreter has loaded after running ``code``."""
    check = f"import sys\n{code}\nprint(' '.join(m for m in sys.modules if 'studies' in m))"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_the_command_line_starts_without_the_studies_running_code():
    # The command line imports the breakdowns only for --by, and with them the one module of
    # the package they need; the breakdowns, imported, load that module and no study's code.
    assert loaded_after("import mtgui.cli.main") == set()
    loaded = loaded_after("import mtgui.cli.main, mtgui.engine.breakdown")
    assert "mtgui.engine.studies.subset_nist" in loaded  # the breakdown's NIST
    for runner in ("dispatch", "refs.run", "refs.matches", "size.run"):
        assert f"mtgui.engine.studies.{runner}" not in loaded


def test_a_study_name_loads_its_module_when_first_used():
    loaded = loaded_after("from mtgui.engine.studies import iter_size_study")
    assert "mtgui.engine.studies.size.run" in loaded
    assert "mtgui.engine.studies.human.study" not in loaded


@pytest.mark.parametrize("name", studies.__all__)
def test_every_name_of_the_package_is_the_one_its_module_defines(name):
    value = getattr(studies, name)
    module = sys.modules[f"mtgui.engine.studies.{studies._MODULE_OF[name]}"]
    assert value is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'iter_nothing'"):
        _ = studies.iter_nothing
