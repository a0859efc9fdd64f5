"""Turning a file's bytes into text, with the encoding detected and errors located.

Test sets come as UTF-8 (with or without a byte-order mark) or as UTF-16 with a byte-order mark.
Anything else is refused with the line and byte offset of the first byte that does not decode,
so the user can find it; Latin-1 is used only when the user asks for it, because guessing it
would silently turn broken UTF-8 into wrong characters.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from mtgui.engine.core import InputError
from mtgui.io.inputs import read_input_bytes

AUTO = "auto"
"""Detect the encoding from the byte-order mark, else require UTF-8."""

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # UTF-32 first: its little-endian mark begins with UTF-16's.
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 with BOM"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"),
)

BOM_LABELS = frozenset(label for _, _, label in _BOMS)
"""The encodings (as :class:`DecodedText` names them) of files read past a byte-order mark."""

_NAMED: dict[str, tuple[str, str]] = {
    "utf-8": ("utf-8", "UTF-8"),
    "utf8": ("utf-8", "UTF-8"),
    "latin-1": ("latin-1", "Latin-1"),
    "latin1": ("latin-1", "Latin-1"),
    "iso-8859-1": ("latin-1", "Latin-1"),
}

ENCODINGS = (AUTO, "utf-8", "latin-1")
"""The encodings a user can choose."""
LATIN_1 = "latin-1"
_DECODE_BLOCK = 1 << 20  # bytes decoded per hold of the interpreter lock (see _decoded)


class UndecodedError(InputError):
    """A file whose bytes do not decode in the encoding it was read with.

    ``choices`` are the encodings (of :data:`ENCODINGS`) the user could choose to read it as it
    is: Latin-1 for a file read as UTF-8 without a byte-order mark, none past a mark (the mark
    decides the encoding whatever is chosen). The window offers them; the command line names
    its option in the hint.
    """

    def __init__(
        self,
        problem: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        hint: str | None = None,
        choices: tuple[str, ...] = (),
    ) -> None:
        super().__init__(problem, path=path, line=line, hint=hint)
        self.choices = choices


@dataclass(frozen=True)
class DecodedText:
    """A file's text with CRLF turned into LF, and the encoding it was read with."""

    text: str
    encoding: str


def read_text(path: str | Path, encoding: str = AUTO) -> DecodedText:
    """Read ``path`` as text; CRLF line ends become LF.

    Only regular files of at most :data:`~mtgui.io.inputs.MAX_INPUT_BYTES` are read (see
    :mod:`mtgui.io.inputs`): a pipe or a device is refused, never waited on.

    Raises
    ------
    InputError
        If the file cannot be read (the reason in words) or does not decode.
    """
    path = Path(path)
    return decode_bytes(read_input_bytes(path), path, encoding)


def decode_bytes(data: bytes, path: str | Path, encoding: str = AUTO) -> DecodedText:
    """Decode ``data`` (the contents of ``path``) following the rules of the module docstring."""
    codec, label, body = _choose_codec(data, path, encoding)
    try:
        text = _decoded(body, codec)
    except UnicodeDecodeError as error:
        # The bytes before the error decode, and counting "\n" in their text (not 0x0A bytes,
        # which UTF-16 has inside characters such as U+040A) gives the line.
        line = body[: error.start].decode(codec).count("\n") + 1
        offset = len(data) - len(body) + error.start
        raise _decode_error(
            data[offset : offset + 4], offset, line, label, path, encoding
        ) from None
    return DecodedText(_normalize_newlines(text), label)


def _decoded(body: bytes, codec: str) -> str:
    """``body.decode(codec)``, a block of :data:`_DECODE_BLOCK` bytes at a time.

    Why: files are read on a thread beside the window's, and one ``decode`` of a large file
    holds the interpreter lock throughout (about 8 ms for 13 MB of UTF-8 on a quiet machine,
    several times that on a busy one), while the window cannot draw. An incremental decoder
    gives the same text whatever the blocks (a character cut in two is completed by the next
    one). Bytes that do not decode are decoded again as a whole, so that the error says where
    they are in the file.
    """
    if len(body) <= _DECODE_BLOCK:
        return body.decode(codec)
    decoder = codecs.getincrementaldecoder(codec)()
    view = memoryview(body)
    try:
        parts = [
            decoder.decode(view[start : start + _DECODE_BLOCK])
            for start in range(0, len(body), _DECODE_BLOCK)
        ]
        parts.append(decoder.decode(b"", final=True))
    except UnicodeDecodeError:
        return body.decode(codec)  # raises again, positioned in the whole of ``body``
    return "".join(parts)


def _choose_codec(data: bytes, path: str | Path, encoding: str) -> tuple[str, str, bytes]:
    """Return (codec, human label, bytes to decode) for ``data``."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            return codec, label, data[len(bom) :]
    key = encoding.lower()
    if b"\0" in data:
        raise _nul_error(data, path)
    if key == AUTO:
        return "utf-8", "UTF-8", data
    if key not in _NAMED:
        raise InputError(
            f"'{encoding}' is not an encoding mtgui reads.",
            path=path,
            hint="Choose one of: " + ", ".join(ENCODINGS) + ".",
        )
    codec, label = _NAMED[key]
    return codec, label, data


def _nul_error(data: bytes, path: str | Path) -> InputError:
    """Text files hold no NUL bytes: say whether this looks like UTF-16 or like a binary file."""
    if _looks_like_utf16(data):
        return InputError(
            "the file looks like UTF-16 text without a byte-order mark, which cannot be read "
            "reliably.",
            path=path,
            hint="Save it as UTF-8 (or as UTF-16 with a byte-order mark) and load it again.",
        )
    offset = data.index(b"\0")
    return InputError(
        f"this is not a text file: it holds a NUL byte at byte offset {offset}.",
        path=path,
        line=data.count(b"\n", 0, offset) + 1,
        hint="mtgui reads text files (SGML, XML, plain text, CSV/TSV).",
    )


def _looks_like_utf16(data: bytes) -> bool:
    """True when NULs fill one byte position of each pair and not the other, as in UTF-16."""
    sample = data[:4096]
    half = len(sample) // 2
    if half < 2:
        return False
    nuls = sorted((sample[0::2].count(0), sample[1::2].count(0)))
    return nuls[1] > 0.4 * half and nuls[0] < 0.05 * half


def _decode_error(
    bad_bytes: bytes, offset: int, line: int, label: str, path: str | Path, encoding: str
) -> UndecodedError:
    """An error naming the line and byte offset of the first undecodable byte."""
    bad = bad_bytes.hex(" ")
    hint = "Save the file as UTF-8 and load it again."
    if encoding.lower() == AUTO and label.startswith("UTF-8"):
        hint += (
            " If it is Latin-1 (ISO-8859-1) text, the command line reads it as it is with "
            "--encoding latin-1."
        )
    return UndecodedError(
        f"this is not valid {label} text: the bytes at byte offset {offset} ({bad}) do not decode.",
        path=path,
        line=line,
        hint=hint,
        choices=(LATIN_1,) if label == "UTF-8" else (),
    )


def _normalize_newlines(text: str) -> str:
    """CRLF becomes LF, so that every reader sees one kind of line end.

    A CR on its own stays: sacreBLEU reads files with ``newline="\\n"``, so a stray CR inside a
    line is part of that line's text there too.
    """
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n")
