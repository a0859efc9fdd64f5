"""The engine's stages and their public faces (issue 34): every listed name is there."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "mtgui" / "engine"
STAGES = sorted(p.parent.name for p in ENGINE.glob("*/__init__.py"))


@pytest.mark.parametrize("stage", STAGES)
def test_every_name_a_face_lists_is_there(stage):
    face = importlib.import_module(f"mtgui.engine.{stage}")
    assert face.__all__, f"mtgui.engine.{stage} lists no public name"
    for name in face.__all__:
        assert getattr(face, name) is not None, name
    with pytest.raises(AttributeError, match="has no attribute"):
        face.no_such_name  # noqa: B018


def test_a_face_imports_a_module_only_when_one_of_its_names_is_asked_for():
    code = (
        "import sys\n"
        "import mtgui.engine.statistics as face\n"
        "before = 'mtgui.engine.statistics.documents' in sys.modules\n"
        "face.document_scores\n"
        "print(before, 'mtgui.engine.statistics.documents' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
