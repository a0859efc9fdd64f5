"""Reader for the WMT XML format (WMT 2021 onwards).

One file holds a whole test set: ``<dataset>`` (optionally with ``<collection>``) of ``<doc>``
elements, each with its ``<src>``, one ``<ref translator=..>`` per reference and one
``<hyp system=..>`` per system, each of them ``<p>`` paragraphs of ``<seg id=..>`` segments.
This format is real XML, so a real parser (expat) reads it; its text is what the parser returns,
entities decoded once, exactly as WMT's own plain-text exports. We use expat directly rather
than ElementTree because it tells us the line of every element, for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from mtgui.engine.core import InputError, Origin, Role, counted
from mtgui.io.streams import TextStream

_PARTS = {"src": Role.SOURCE, "ref": Role.REFERENCE, "hyp": Role.SYSTEM}


@dataclass
class _Part:
    """The segments of one stream collected so far."""

    role: Role
    name: str | None
    docs: dict[str, int] = field(default_factory=dict)  # doc id -> line of its first segment
    rows: list[tuple[str, str, str, int]] = field(default_factory=list)  # doc, seg, text, line


def read_wmt_xml(text: str, origin: Origin) -> tuple[TextStream, ...]:
    """Read the source, references and systems of a WMT XML file, in that order.

    Raises
    ------
    InputError
        If the XML is not well-formed, lacks a required attribute, or repeats an id.
    """
    reader = _WmtXmlReader(origin)
    reader.parse(text)
    return reader.streams()


class _WmtXmlReader:
    """Collects segments from expat's callbacks."""

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.parser = expat.ParserCreate(encoding="UTF-8")
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._characters
        self.parser.StartDoctypeDeclHandler = self._doctype
        self.parser.EntityDeclHandler = self._entity
        self.parts: dict[tuple[Role, str | None], _Part] = {}
        self.metadata: dict[str, str] = {}
        self.doc_attributes: dict[str, dict[str, str]] = {}  # per document, all but its id
        self.doc: str | None = None
        self.part: _Part | None = None
        self.seg: tuple[str, int] | None = None  # id and line of the open <seg>
        self.nested = 0  # depth of elements opened inside the open <seg>
        self.seg_ids: set[str] = set()
        self.chunks: list[str] = []
        self.seen_root = False
        self.doc_line = self.part_line = 0  # where the open <doc> and part started
        self.part_tag = ""

    def error(self, problem: str, hint: str | None = None) -> InputError:
        """An :class:`InputError` at the parser's current line."""
        return InputError(
            problem, path=self.origin.path, line=self.parser.CurrentLineNumber, hint=hint
        )

    def parse(self, text: str) -> None:
        """Feed the whole text to expat, turning its errors into :class:`InputError`."""
        try:
            self.parser.Parse(text.encode("utf-8"), True)
        except expat.ExpatError as error:
            raise InputError(
                f"this XML is not well-formed: {expat.errors.messages[error.code]} "
                f"(column {error.offset + 1}).",
                path=self.origin.path,
                line=error.lineno,
                hint="WMT XML must be valid XML; NIST SGML files start with <srcset>, "
                "<refset> or <tstset> instead.",
            ) from None
        if not self.parts:
            raise InputError(
                "this WMT XML file holds no <doc> with <src>, <ref> or <hyp> segments.",
                path=self.origin.path,
            )

    def _start(self, tag: str, attributes: dict[str, str]) -> None:
        """Open an element: track the document, the part and the segment we are in."""
        if self.seg is not None:  # markup inside a segment: only its text counts
            self.nested += 1
        elif not self.seen_root:
            self.seen_root = True
            if tag != "dataset":
                raise self.error(f"a WMT XML file starts with <dataset>, not <{tag}>.")
            if attributes.get("id"):
                self.metadata["setid"] = attributes["id"]
        elif tag == "doc":
            docid = self._required(attributes, "id", "<doc>")
            if self.doc is not None:
                raise self.error(
                    f"document '{self.doc}' (line {self.doc_line}) is not closed before "
                    f"document '{docid}' starts (line {self.parser.CurrentLineNumber}): its "
                    "</doc> is missing."
                )
            self.doc, self.doc_line = docid, self.parser.CurrentLineNumber
            self.doc_attributes.setdefault(docid, _document_attributes(attributes))
        elif tag in _PARTS:
            self._open_part(tag, attributes)
        elif tag == "seg" and self.part is not None:
            self._open_seg(attributes)

    def _open_part(self, tag: str, attributes: dict[str, str]) -> None:
        """Start collecting a <src>, <ref> or <hyp> of the current document."""
        if self.doc is None:
            raise self.error(f"<{tag}> outside a <doc>.")
        if self.part is not None:
            raise self.error(
                f"the <{self.part_tag}> of document '{self.doc}' (line {self.part_line}) is not "
                f"closed before <{tag}> starts (line {self.parser.CurrentLineNumber}): its "
                f"</{self.part_tag}> is missing."
            )
        self.part_tag, self.part_line = tag, self.parser.CurrentLineNumber
        role = _PARTS[tag]
        name = None
        if role is Role.REFERENCE:
            name = attributes.get("translator", "").strip() or "ref"
        elif role is Role.SYSTEM:
            name = self._required(attributes, "system", "<hyp>")
        language = attributes.get("lang", "").strip()
        if language:
            self.metadata.setdefault("srclang" if role is Role.SOURCE else "trglang", language)
        self.part = self.parts.setdefault((role, name), _Part(role, name))
        if self.doc in self.part.docs:
            who = f" by '{name}'" if name else ""
            raise self.error(
                f"document '{self.doc}' has its <{tag}>{who} twice.",
                hint="Each reference needs its own translator attribute, each system its own "
                "system attribute.",
            )
        self.part.docs[self.doc] = self.parser.CurrentLineNumber
        self.seg_ids = set()

    def _open_seg(self, attributes: dict[str, str]) -> None:
        """Start collecting a segment's text."""
        segid = self._required(attributes, "id", "<seg>")
        if segid in self.seg_ids:
            raise self.error(f"document '{self.doc}' has two segments with id '{segid}' here.")
        self.seg_ids.add(segid)
        self.seg = (segid, self.parser.CurrentLineNumber)
        self.chunks = []

    def _end(self, tag: str) -> None:
        """Close an element, storing a finished segment."""
        if self.seg is not None and self.nested:
            self.nested -= 1
        elif self.seg is not None and self.part is not None and self.doc is not None:
            segid, line = self.seg
            self.part.rows.append((self.doc, segid, "".join(self.chunks), line))
            self.seg = None
        elif tag in _PARTS:
            self.part = None
        elif tag == "doc":
            self.doc = None

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, has_subset: bool
    ) -> None:
        """Refuse a DOCTYPE with an internal subset: its entities would be expanded.

        WMT XML has no DOCTYPE at all; an internal subset can define entities that expand to
        gigabytes (the "billion laughs"), so it is refused before any is read.
        """
        if has_subset:
            raise self.error(
                "this XML file declares a DOCTYPE with an internal subset (entities), which "
                "mtgui does not read.",
                hint="WMT XML needs no DOCTYPE: remove it, and write the text of any entity "
                "it defines in its place.",
            )

    def _entity(self, name: str, *_: object) -> None:
        """Refuse an entity declaration (see :meth:`_doctype`)."""
        raise self.error(
            f"this XML file declares the entity '{name}', which mtgui does not read.",
            hint="WMT XML defines no entities of its own: write their text in their place.",
        )

    def _characters(self, data: str) -> None:
        """Collect text inside a segment (and inside anything nested in it)."""
        if self.seg is not None:
            self.chunks.append(data)

    def _required(self, attributes: dict[str, str], name: str, tag: str) -> str:
        """An attribute that must be there and not be empty."""
        value = attributes.get(name, "").strip()
        if not value:
            raise self.error(f"this {tag} has no {name} attribute.")
        return value

    def streams(self) -> tuple[TextStream, ...]:
        """The collected parts as streams: source first, then references, then systems.

        Real WMT files are not always complete, and what a user expects is kept: documents with
        no reference at all (WMT's test suites) are not part of the test set, and a reference
        that covers only some documents is left out when another covers them all. Notes say so.
        """
        order = {Role.SOURCE: 0, Role.REFERENCE: 1, Role.SYSTEM: 2}
        parts = sorted(self.parts.values(), key=lambda part: order[part.role])
        notes = self._trim_to_references(parts)
        if notes:
            self.metadata["note"] = " ".join(notes)
            parts = [p for p in parts if p.rows]
        return tuple(self._stream(part) for part in parts)

    def _trim_to_references(self, parts: list[_Part]) -> list[str]:
        """Drop unreferenced documents and partial references (see :meth:`streams`)."""
        references = [p for p in parts if p.role is Role.REFERENCE]
        if not references:
            return []
        notes = []
        every_doc = {doc for part in parts for doc in part.docs}
        referenced = set().union(*(p.docs for p in references))
        complete = [p for p in references if set(p.docs) >= referenced]
        if complete:
            for partial in (p for p in references if p not in complete):
                partial.rows = []
                notes.append(
                    f"reference '{partial.name}' covers only {len(partial.docs)} of the "
                    f"{counted(len(referenced), 'document')} and was left out."
                )
        else:
            referenced = set.intersection(*(set(p.docs) for p in references))
            if not referenced:
                covers = "; ".join(
                    f"'{p.name}' covers {len(set(p.docs))} of {len(every_doc)}" for p in references
                )
                raise InputError(
                    f"no reference covers every document, and no document has every reference "
                    f"({covers}).",
                    path=self.origin.path,
                    hint="Give every document the same references (the same translator names).",
                )
        if every_doc - referenced:
            for part in parts:
                part.rows = [row for row in part.rows if row[0] in referenced]
            left = len(every_doc - referenced)
            were = "has no reference and was" if left == 1 else "have no reference and were"
            notes.append(
                f"{left} of {counted(len(every_doc), 'document')} {were} left out of the test set."
            )
        return [f"{self.origin.path}: {note}" for note in notes]

    def _stream(self, part: _Part) -> TextStream:
        """One part as a stream."""
        if not part.rows:
            raise InputError(
                f"the {part.role.value} '{part.name or 'source'}' has no <seg> segments.",
                path=self.origin.path,
                line=next(iter(part.docs.values())),
            )
        doc_ids, seg_ids, texts, lines = zip(*part.rows, strict=True)
        return TextStream(
            role=part.role,
            name=part.name,
            doc_ids=doc_ids,
            seg_ids=seg_ids,
            texts=texts,
            lines=lines,
            origin=self.origin,
            metadata=dict(self.metadata),
            doc_attributes=self.doc_attributes,
        )


def _document_attributes(attributes: dict[str, str]) -> dict[str, str]:
    """A ``<doc>``'s attributes but its id (``origlang``, ``domain``, ...), for breakdowns;
    values stripped, empty ones left out."""
    kept = {name.lower(): value.strip() for name, value in attributes.items() if name != "id"}
    return {name: value for name, value in kept.items() if value}
