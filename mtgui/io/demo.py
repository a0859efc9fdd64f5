"""The bundled demo test set: data we wrote ourselves, shipped in ``mtgui.resources``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from mtgui.engine.core import Corpus, Role
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file


def demo_folder() -> Path:
    """The folder of the installed demo files."""
    return Path(str(resources.files("mtgui.resources").joinpath("demo")))


def demo_inputs() -> list[tuple[Path, Role]]:
    """The demo files with their roles: the reference file first, then the systems."""
    folder = demo_folder()
    systems = sorted((folder / "systems").glob("*.sgm"))
    return [(folder / "reference.sgm", Role.REFERENCE)] + [(p, Role.SYSTEM) for p in systems]


def load_demo() -> Corpus:
    """The demo corpus, loaded exactly as user files are."""
    return assemble([load_file(path, {role}) for path, role in demo_inputs()])
