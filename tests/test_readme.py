"""The README's first commands are the ones CI runs and a new user types."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The indented command lines among the README's first ten lines."""
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:10]
    return [line.strip() for line in head if line.startswith("    ")]


def test_readme_starts_with_the_demo_and_the_test_command():
    demo, tests = readme_commands()
    assert demo.endswith("pip install . && mtgui --demo")
    assert tests.endswith("pip install -e '.[test]' && pytest")


def test_ci_runs_the_readme_test_command_verbatim():
    _, tests = readme_commands()
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
