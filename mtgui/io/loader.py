"""Loading one file: decode it, tell its format from its content, read it, check its role.

The format comes from the content, never from the file name alone: a set tag makes NIST SGML, a
``<dataset>`` root WMT XML, a header naming system/segment/score columns a scores table, and
anything else is plain text. SGML and XML say what they hold (``refset``, ``tstset``, ...);
plain text does not, so its role comes from the user.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from mtgui.engine.core import InputError, Origin, Role, printable
from mtgui.io.decode import AUTO, DecodedText, read_text
from mtgui.io.plaintext import read_plain_text
from mtgui.io.scores import ScoreTable, looks_like_scores, read_scores
from mtgui.io.streams import PLAIN_TEXT, SCORES_TABLE, SGML, WMT_XML, LoadedFile

# The SGML and XML readers (3 ms to import with expat) are imported when a file needs them:
# a run on plain text does not load them.

SNIFF_CHARS = 1 << 16
"""How much of a file's text the format is told from: every format shows itself at the start,
and looking no further keeps detection linear, whatever the rest of the file holds."""

# Patterns below never scan past a "<" or ">" from where they start, so each character is
# looked at a bounded number of times: a file full of "<doc" without ">" costs no more than
# any other (with "[^>]*" every "<doc" scanned to the end of the file: quadratic).
_PROLOG = re.compile(r"\A\s*(?:<\?xml[^<>]*\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^<>\[]*>\s*)*", re.DOTALL)
_DATASET = re.compile(r"<dataset(?![\w.:-])|<!DOCTYPE\s+dataset(?![\w.:-])")
_XML_START = re.compile(r"<\?xml(?![\w.:-])|<!DOCTYPE(?![\w.:-])")
_SET_TAG = re.compile(r"<(?:srcset|refset|tstset)(?![\w.:-])", re.IGNORECASE)  # NIST SGML
# Documents and segments without a set are broken SGML: read_sgml says what is missing.
_DOC = re.compile(r"<doc(?![\w.:-])[^<>]*?\bdocid\b", re.IGNORECASE)
_SEG = re.compile(r"<seg(?![\w.:-])[^<>]*?\bid\b", re.IGNORECASE)

ROLE_FLAGS = {Role.SOURCE: "--src", Role.REFERENCE: "--ref", Role.SYSTEM: "--hyp"}


def detect_format(text: str) -> str:
    """The format of a file's text: SGML, WMT XML, scores table or plain text.

    Only the first :data:`SNIFF_CHARS` characters are looked at. A file that starts as XML
    (an XML declaration or a DOCTYPE) but is not NIST SGML is taken for WMT XML, so that its
    reader says what is wrong with it instead of calling it plain text.
    """
    head = text[:SNIFF_CHARS]
    prolog = _PROLOG.match(head)
    start = head[prolog.end() if prolog else 0 :]
    if _DATASET.match(start):
        return WMT_XML
    if _SET_TAG.search(head) or (_DOC.search(head) and _SEG.search(head)):
        return SGML
    if _XML_START.match(head.lstrip()):
        return WMT_XML
    if looks_like_scores(text):  # it looks at a bounded start of the text itself
        return SCORES_TABLE
    return PLAIN_TEXT


def load_file(
    path: str | Path, roles: Collection[Role] | None = None, encoding: str = AUTO
) -> LoadedFile:
    """Read a source, reference or system-output file.

    Parameters
    ----------
    roles
        What the user says the file is. SGML must agree; from WMT XML only these parts are
        taken (a reference request brings the source along); plain text gets the single role
        given. None accepts whatever an SGML or XML file holds.

    Raises
    ------
    InputError
        If the file cannot be read, is malformed, or is not what the user said it is.
    """
    return load_decoded(read_text(path, encoding), path, roles)


def load_decoded(
    decoded: DecodedText, path: str | Path, roles: Collection[Role] | None = None
) -> LoadedFile:
    """:func:`load_file` on a text already decoded (the desktop reads each file once)."""
    text, kind = decoded.text, detect_format(decoded.text)
    origin = Origin(str(path), kind, decoded.encoding)
    wanted = set(roles) if roles else None
    if kind == SGML:
        from mtgui.io.sgml import read_sgml

        streams = read_sgml(text, origin)
        _check_role(streams[0].role, wanted, origin)
    elif kind == WMT_XML:
        from mtgui.io.wmtxml import read_wmt_xml

        streams = read_wmt_xml(text, origin)
        if wanted is not None:
            if Role.REFERENCE in wanted:
                wanted.add(Role.SOURCE)
            streams = tuple(s for s in streams if s.role in wanted)
            if not streams:
                raise _role_error("holds no " + _names(wanted), origin, wanted)
    else:
        _refuse_unread_table(text, path)
        role = _plain_role(wanted, origin)
        streams = (read_plain_text(text, Origin(str(path), PLAIN_TEXT, decoded.encoding), role),)
    return LoadedFile(streams[0].origin, streams)


TABLE_SUFFIXES = (".csv", ".tsv")
"""Files named as tables are never taken for plain text (for a system's output, say)."""


def _refuse_unread_table(text: str, path: str | Path) -> None:
    """A file named as a table whose header mtgui cannot read is refused in words (WMT's
    space-separated ``ad-seg-scores-*.csv`` was read as a system output before)."""
    if Path(path).suffix.lower() not in TABLE_SUFFIXES:
        return
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    shown = printable(first[:120]) + ("..." if len(first) > 120 else "")
    raise InputError(
        "this file is named as a table, but mtgui cannot read it as a scores table: its first "
        "line should be a header, with commas or tabs between the columns, naming a system "
        "column (system, sysid, sys), a segment column (segid, seg) or line numbers (line), "
        f"and a score column (score, z, raw, human, da); its first line is '{shown}'.",
        path=path,
        hint="Save it with such a header, as CSV or tab-separated.",
    )


def load_scores(
    path: str | Path, score_column: str | None = None, encoding: str = AUTO
) -> ScoreTable:
    """Read a per-segment scores file (CSV or TSV, see :mod:`mtgui.io.scores`)."""
    return scores_from_decoded(read_text(path, encoding), path, score_column)


def scores_from_decoded(
    decoded: DecodedText, path: str | Path, score_column: str | None = None
) -> ScoreTable:
    """:func:`load_scores` on a text already decoded."""
    kind = detect_format(decoded.text)
    origin = Origin(str(path), SCORES_TABLE, decoded.encoding)
    if kind in (SGML, WMT_XML):
        raise InputError(
            f"this is a {kind} file of translations, not a table of scores.", path=path
        )
    return read_scores(decoded.text, origin, score_column)


def _check_role(role: Role, wanted: set[Role] | None, origin: Origin) -> None:
    """An SGML file's set must be what the user asked for."""
    if wanted is not None and role not in wanted:
        raise _role_error(f"holds a {role.label} ({_set_tag(role)})", origin, wanted)


def _plain_role(wanted: set[Role] | None, origin: Origin) -> Role:
    """Plain text has exactly the one role the user gives it."""
    if wanted and len(wanted) > 1:
        given = " and as ".join(_with_flag(r) for r in sorted(wanted))
        raise InputError(
            f"this plain-text file is given as {given}, but a plain-text file holds only one "
            "of them.",
            path=origin.path,
            hint="Give the reference and each system output as separate files.",
        )
    if not wanted:
        raise InputError(
            "this plain-text file does not say whether it is the source, a reference or a "
            "system output.",
            path=origin.path,
            hint="Load it as one of these (--src, --ref or --hyp on the command line).",
        )
    return next(iter(wanted))


def _role_error(what: str, origin: Origin, wanted: set[Role]) -> InputError:
    """The file is not what the user said it is."""
    flags = " or ".join(_with_flag(r) for r in sorted(wanted) if r in ROLE_FLAGS)
    return InputError(
        f"this {origin.format} file {what}, but it was given as {flags}.",
        path=origin.path,
        hint="Check that the right file went to the right option.",
    )


def _with_flag(role: Role) -> str:
    """'system output (--hyp)' and the like."""
    flag = ROLE_FLAGS.get(role)
    return f"{role.label} ({flag})" if flag else role.label


def _names(roles: Collection[Role]) -> str:
    """'source or reference' and the like."""
    return " or ".join(sorted(r.value for r in roles))


def _set_tag(role: Role) -> str:
    """The SGML set tag of a role, as a user sees it in the file."""
    return {Role.SOURCE: "<srcset>", Role.REFERENCE: "<refset>", Role.SYSTEM: "<tstset>"}[role]
