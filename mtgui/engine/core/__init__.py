"""The corpus model every stage works on, the errors it raises in words, and the array types.

Nothing here computes a score: it is what the readers (:mod:`mtgui.io`) build and what every
stage above takes. The public names are below; the modules are private to the engine.
"""

from __future__ import annotations

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.corpus import (
    Corpus,
    Origin,
    Role,
    SegmentScores,
    SystemOutput,
    TestSet,
    TextColumn,
)
from mtgui.engine.core.empty_texts import corpus_notes, empty_text_notes
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.escapes import printable
from mtgui.engine.core.words import counted

__all__ = [
    "Corpus",
    "FloatArray",
    "InputError",
    "IntArray",
    "Origin",
    "Role",
    "SegmentScores",
    "SystemOutput",
    "TestSet",
    "TextColumn",
    "corpus_notes",
    "counted",
    "empty_text_notes",
    "printable",
]
