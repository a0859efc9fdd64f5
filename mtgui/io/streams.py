"""What the readers return: the segment streams found in one file, before alignment.

A file holds one or more streams: a plain-text file one, an SGML refset one per reference, a WMT
XML file its source, every reference and every system. Streams keep the ids and line numbers of
their segments so that alignment problems can be reported where they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtgui.engine.core import Origin, Role

SGML = "NIST SGML"
WMT_XML = "WMT XML"
PLAIN_TEXT = "plain text"
SCORES_TABLE = "scores table"


@dataclass(frozen=True)
class TextStream:
    """The segments of one source, reference or system output as found in a file.

    ``doc_ids`` is None for plain text, which has no documents; ``seg_ids`` are then the line
    numbers. ``lines[i]`` is the line of the file on which segment ``i`` starts. ``name`` is
    None where the file does not say it (plain text, SGML without ``sysid``): the file name is
    used then. ``doc_attributes`` holds, per document id, the other attributes of its
    ``<doc>`` tag (``origlang``, ``genre``, ...), kept for breakdowns by them.
    """

    role: Role
    name: str | None
    doc_ids: tuple[str, ...] | None
    seg_ids: tuple[str, ...]
    texts: tuple[str, ...]
    lines: tuple[int, ...]
    origin: Origin
    metadata: dict[str, str] = field(default_factory=dict, compare=False)
    doc_attributes: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)

    @property
    def size(self) -> int:
        """The number of segments."""
        return len(self.texts)

    @property
    def has_documents(self) -> bool:
        """Whether the segments carry document ids."""
        return self.doc_ids is not None

    @property
    def label(self) -> str:
        """How to name this stream in a message that already names its file."""
        if self.name:
            return f"{self.role.value} '{self.name}'"
        return f"{self.role.value} file"


@dataclass(frozen=True)
class LoadedFile:
    """One input file after reading: its format, encoding and the streams it holds."""

    origin: Origin
    streams: tuple[TextStream, ...]

    @property
    def roles(self) -> frozenset[Role]:
        """The roles of the streams in the file."""
        return frozenset(s.role for s in self.streams)
