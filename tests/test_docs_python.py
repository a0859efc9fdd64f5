"""The Python page's examples (docs/python.md) run as written: a notebook a user can follow."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "python.md"


def code_blocks() -> list[str]:
    """The page's ```python blocks, in order."""
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_every_example_of_the_python_page_runs_in_order_as_a_notebook_would():
    blocks = code_blocks()
    assert len(blocks) >= 5
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for block in blocks:
            exec(compile(block, str(PAGE), "exec"), namespace)
    out = printed.getvalue().splitlines()
    assert out[0] == "('Lumen', 'Ostrich', 'Quill', 'Tessera')"  # as the page's comment says
    assert out[3] == ">"  # Lumen against Tessera, as the page says
    assert (
        out[6] == "{'new': {'new': '', 'baseline': '>'}, 'baseline': {'new': '<', 'baseline': ''}}"
    )
    assert out[7] == "('Lumen', 'Ostrich', 'Quill', 'Tessera') 95 2"  # mtgui.read, as shown
    assert out[-1] == "['bootstrap', 'scoring']"
    notes = namespace["report"]["notes"]  # type: ignore[index]
    assert any(n.startswith("'first' and 'second' have the same references") for n in notes)
