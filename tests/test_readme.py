"""The README's first commands are the ones CI runs and a new user types."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The indented command lines among the README's first fifteen lines."""
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:15]
    return [line.strip() for line in head if line.startswith("    ")]


def test_readme_starts_with_the_build_the_demo_and_the_test_command():
    build, demo, tests = readme_commands()
    assert build == "bash packaging/build.sh"
    assert (ROOT / "packaging" / "build.sh").is_file()
    assert demo.endswith("pip install . && mtgui --demo")
    assert tests.endswith("pip install -e '.[test]' && pytest")


def test_ci_runs_the_readme_test_command_verbatim():
    *_, tests = readme_commands()
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
