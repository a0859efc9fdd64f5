"""Reader for NIST mteval SGML (``<srcset>``, ``<refset>``, ``<tstset>``).

Real WMT SGML is not XML (raw ``&``, upper-case tags, wrappers, segments over several lines), so
like mteval-v13a.pl we find sets, documents and segments with forgiving, case-insensitive
patterns instead of an XML parser, and a segment's text is what mteval sees: whitespace runs
collapsed to one space (Perl's ``\\s``), trimmed, entities left for the tokenizer. Where mteval
would silently misread a file (a duplicated segment id, a ``<seg>`` never closed) we refuse it
with a message instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from mtgui.engine.core import InputError, Origin, Role
from mtgui.io.streams import TextStream
from mtgui.io.textutil import LineIndex, collapse_space

_SET_ROLES = {"srcset": Role.SOURCE, "refset": Role.REFERENCE, "tstset": Role.SYSTEM}
_END = r"(?![\w.:-])"  # the tag name ends here: <doc> and <doc id=..>, not <docset>
# Only the tag's name is matched; its attributes run to the next ">", found with str.find. A
# pattern "<doc[^>]*>" would scan to the end of the file from every "<doc" without a ">" after
# it, which makes a file full of them quadratic.
_SET_OPEN = re.compile(rf"<(?P<name>srcset|refset|tstset){_END}", re.IGNORECASE)
_DOC_OPEN = re.compile(rf"<(?P<name>doc){_END}", re.IGNORECASE)
_SEG_OPEN = re.compile(rf"<(?P<name>seg){_END}", re.IGNORECASE)
# A set or document tag inside another one's body, which means a closing tag is missing. Only
# whole tags count ("[^<>]*>": no "<" inside, so each scan stops at the next "<" and the search
# stays linear), and a document only with its docid, so that text such as "the <doc> tag"
# inside a segment is not taken for one.
_INNER_SET = re.compile(rf"<(?P<name>srcset|refset|tstset){_END}(?P<attrs>[^<>]*)>", re.I)
_INNER_DOC = re.compile(rf"<(?P<name>doc){_END}(?P<attrs>[^<>]*)>", re.I)
_CLOSE = {
    name: re.compile(rf"</{name}\s*>", re.IGNORECASE)
    for name in ("srcset", "refset", "tstset", "doc", "seg")
}
_ATTRIBUTE = r"""(?<![\w.:-]){name}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""


@dataclass(frozen=True)
class _Element:
    """A tag with its attributes and the text up to its closing tag."""

    attributes: str
    body: str
    start: int  # offset of the opening tag in the whole file
    body_start: int


def read_sgml(text: str, origin: Origin) -> tuple[TextStream, ...]:
    """Read every source, reference or system stream in an SGML file.

    A refset (or tstset) may hold several references (systems): their documents are told apart
    by the ``sysid`` of each ``<doc>``, which wins over the set's own ``sysid``.

    Raises
    ------
    InputError
        For a file without a set, a set of mixed kinds, a document without id or segments, a
        segment without id or without ``</seg>``, or an id used twice.
    """
    reader = _SgmlReader(text, origin)
    return reader.read()


class _SgmlReader:
    """Holds the file text and its line index while one file is read."""

    def __init__(self, text: str, origin: Origin) -> None:
        self.text = text
        self.origin = origin
        self.lines = LineIndex(text)

    def error(self, problem: str, offset: int | None = None, hint: str | None = None) -> InputError:
        """An :class:`InputError` located at character ``offset``."""
        line = None if offset is None else self.lines.line_of(offset)
        return InputError(problem, path=self.origin.path, line=line, hint=hint)

    def read(self) -> tuple[TextStream, ...]:
        """Read all sets of the file, grouped into streams."""
        sets = list(self._elements(_SET_OPEN, self.text, 0, "the set"))
        if not sets:
            raise self.error(
                "this SGML file has no <srcset>, <refset> or <tstset> with its closing tag.",
                hint="NIST mteval SGML wraps its documents in one of these.",
            )
        kinds = {kind.lower() for kind, _ in sets}
        if len(kinds) > 1:
            raise self.error(
                "this SGML file mixes " + " and ".join(f"<{k}>" for k in sorted(kinds)) + ".",
                hint="Put the source, the references and the system outputs in separate files.",
            )
        role = _SET_ROLES[kinds.pop()]
        groups: dict[str | None, list[tuple[str, list[tuple[str, str, int]]]]] = {}
        metadata: dict[str, str] = {}
        attributes: dict[str, dict[str, str]] = {}  # per document, all but its ids
        for kind, element in sets:
            self._check_closed_before(element, kind, f"the <{kind}>", _INNER_SET)
            metadata = metadata or self._set_metadata(element.attributes)
            set_sysid = _attribute(element.attributes, "sysid")
            for doc in self._documents(element, role):
                doc_sysid = _attribute(doc.attributes, "sysid") or set_sysid
                name = None if role is Role.SOURCE else doc_sysid
                docid = self._docid(doc)
                self._check_closed_before(doc, "doc", f"document '{docid}'", _INNER_DOC)
                groups.setdefault(name, []).append((docid, self._segments(doc, docid)))
                attributes.setdefault(docid, document_attributes(doc.attributes))
        return tuple(
            replace(self._stream(role, name, docs, metadata), doc_attributes=attributes)
            for name, docs in groups.items()
        )

    def _elements(
        self, opener: re.Pattern[str], text: str, base: int, what: str
    ) -> Iterator[tuple[str, _Element]]:
        """Yield (tag name, element) for each ``opener`` match in ``text`` and its closing tag.

        ``base`` is the offset of ``text`` in the whole file, for line numbers. Like mteval, an
        element ends at the first closing tag of its name; ``<seg id="1"/>`` is an empty one.
        """
        position = 0
        while match := opener.search(text, position):
            name = match.group("name").lower()
            tag_end = text.find(">", match.end())
            if tag_end < 0:
                raise self.error(
                    f"{what} <{name}> that starts here has no '>' to end its tag.",
                    base + match.start(),
                )
            attributes, body_start = text[match.end() : tag_end], tag_end + 1
            if attributes.rstrip().endswith("/"):
                body, position = "", body_start
            else:
                end = _CLOSE[name].search(text, body_start)
                if end is None:
                    raise self.error(
                        f"{what} <{name}> that starts here is never closed (no </{name}>).",
                        base + match.start(),
                    )
                body, position = text[body_start : end.start()], end.end()
            yield name, _Element(attributes, body, base + match.start(), base + body_start)

    def _documents(self, element: _Element, role: Role) -> list[_Element]:
        """The ``<doc>`` elements of one set."""
        docs = [
            doc
            for _, doc in self._elements(
                _DOC_OPEN, element.body, element.body_start, "the document"
            )
        ]
        if not docs:
            raise self.error(f"the <{_set_name(role)}> holds no <doc> documents.", element.start)
        return docs

    def _docid(self, doc: _Element) -> str:
        """The ``docid`` of a document, which every document must have."""
        docid = _attribute(doc.attributes, "docid")
        if not docid:
            raise self.error("this <doc> has no docid attribute.", doc.start)
        return docid

    def _segments(self, doc: _Element, docid: str) -> list[tuple[str, str, int]]:
        """(segment id, text, line) for every ``<seg>`` of a document."""
        segments: list[tuple[str, str, int]] = []
        seen: dict[str, int] = {}
        for _, seg in self._elements(_SEG_OPEN, doc.body, doc.body_start, "the segment"):
            segid, line = self._segid(seg, docid), self.lines.line_of(seg.start)
            if segid in seen:
                raise self.error(
                    f"document '{docid}' has two segments with id '{segid}' (lines "
                    f"{seen[segid]} and {line}).",
                    seg.start,
                )
            seen[segid] = line
            if _first_tag(_SEG_OPEN, seg.body) is not None:
                raise self.error(
                    f"segment '{segid}' of document '{docid}' contains another <seg>: its "
                    "</seg> is probably missing.",
                    seg.start,
                )
            segments.append((segid, collapse_space(seg.body), line))
        if not segments:
            raise self.error(f"document '{docid}' has no <seg> segments.", doc.start)
        return segments

    def _check_closed_before(
        self, element: _Element, tag: str, what: str, inner: re.Pattern[str]
    ) -> None:
        """Refuse an element whose body holds the start of the next one of its kind.

        Its closing tag ``</tag>`` is missing: the element then runs to the next one's closing
        tag, and without this check the message would be about what it swallowed (two
        segments with one id, say) rather than about the missing tag.
        """
        found = next(
            (
                match
                for match in inner.finditer(element.body)
                if inner is _INNER_SET or _attribute(match.group("attrs"), "docid")
            ),
            None,
        )
        if found is None:
            return
        where = element.body_start + found.start()
        docid = _attribute(found.group("attrs"), "docid")
        following = f"document '{docid}'" if docid else f"a <{found.group('name').lower()}>"
        raise self.error(
            f"{what} (line {self.lines.line_of(element.start)}) is not closed before "
            f"{following} starts (line {self.lines.line_of(where)}): its </{tag}> is missing.",
            where,
        )

    def _segid(self, seg: _Element, docid: str) -> str:
        """The ``id`` of a segment, which every segment must have."""
        segid = _attribute(seg.attributes, "id")
        if not segid:
            raise self.error(f"a <seg> in document '{docid}' has no id attribute.", seg.start)
        return segid

    def _set_metadata(self, attributes: str) -> dict[str, str]:
        """The set's ``setid``, ``srclang`` and ``trglang``, where given."""
        found = {key: _attribute(attributes, key) for key in ("setid", "srclang", "trglang")}
        return {key: value for key, value in found.items() if value}

    def _stream(
        self,
        role: Role,
        name: str | None,
        docs: list[tuple[str, list[tuple[str, str, int]]]],
        metadata: dict[str, str],
    ) -> TextStream:
        """One stream from its documents, refusing a document that occurs twice."""
        first_line: dict[str, int] = {}
        doc_ids, seg_ids, texts, lines = [], [], [], []
        for docid, segments in docs:
            if docid in first_line:
                who = f" of '{name}'" if name else ""
                raise self.error(
                    f"document '{docid}'{who} occurs twice (from line {first_line[docid]} and "
                    f"from line {segments[0][2]}).",
                    hint="If the file holds several references or systems, give each <doc> the "
                    "sysid of the one it belongs to.",
                )
            first_line[docid] = segments[0][2]
            for segid, text, line in segments:
                doc_ids.append(docid)
                seg_ids.append(segid)
                texts.append(text)
                lines.append(line)
        return TextStream(
            role=role,
            name=name,
            doc_ids=tuple(doc_ids),
            seg_ids=tuple(seg_ids),
            texts=tuple(texts),
            lines=tuple(lines),
            origin=self.origin,
            metadata=metadata,
        )


def _first_tag(opener: re.Pattern[str], text: str) -> tuple[int, str, str] | None:
    """(offset, lower-case name, attributes) of the first complete ``opener`` tag in ``text``.

    If the first tag name found has no ">" after it, no later one has: one search and one
    find, so this is linear.
    """
    match = opener.search(text)
    if match is None:
        return None
    end = text.find(">", match.end())
    if end < 0:
        return None
    return match.start(), match.group("name").lower(), text[match.end() : end]


def _attribute(attributes: str, name: str) -> str | None:
    """The value of attribute ``name`` (any case, quoted or not), stripped, or None."""
    match = re.search(_ATTRIBUTE.format(name=name), attributes, re.IGNORECASE)
    if match is None:
        return None
    value = next(group for group in match.groups() if group is not None)
    return value.strip()


_ANY_ATTRIBUTE = re.compile(r"""([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_IDS = frozenset({"docid", "sysid"})  # which document, and whose: not what kind of document


def document_attributes(attributes: str) -> dict[str, str]:
    """Every attribute of a ``<doc>`` tag but its ids (``origlang``, ``genre``, ...), names in
    lower case (SGML's are case-insensitive), values stripped, empty ones left out; the first
    of a repeated name."""
    found: dict[str, str] = {}
    for match in _ANY_ATTRIBUTE.finditer(attributes):
        name = match.group(1).lower()
        value = next(g for g in match.groups()[1:] if g is not None).strip()
        if name not in _IDS and name not in found and value:
            found[name] = value
    return found


def _set_name(role: Role) -> str:
    """The SGML set tag for a role."""
    return {value: key for key, value in _SET_ROLES.items()}[role]
