"""The test files' layout: pytest imports each test file by its name alone (the folders have
no ``__init__.py``), so two files of one name in two folders make the second fail to collect,
on whichever worker meets it second."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_file_has_a_name_of_its_own():
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
