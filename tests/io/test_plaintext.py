"""The plain-text reader: one segment per line, whatever the line ends."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.loader import load_file


@pytest.fixture(autouse=True, params=["whole", "in blocks of 1 character"])
def split_block(request, monkeypatch):
    """Every test twice: the text split at once, and about a character at a time (as large
    files are, so that the window can draw meanwhile); the lines must be the same."""
    if request.param != "whole":
        monkeypatch.setattr("mtgui.io.plaintext._SPLIT_BLOCK", 1)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"a b\nc\n", ("a b", "c")),
        (b"a b\nc", ("a b", "c")),  # no trailing newline
        (b"a b\r\nc\r\n", ("a b", "c")),  # CRLF
        (b"a b\r\nc", ("a b", "c")),
        (b"a\n\nc\n", ("a", "", "c")),  # an empty segment in the middle
        (b"a\n\n", ("a", "")),  # an empty last segment
        (b"\n", ("",)),
        (b"a b\rc\r", ("a b", "c")),  # old Mac: CR only
        (b"a\rb\nc\n", ("a\rb", "c")),  # a stray CR inside a line stays, as in sacreBLEU
        (b"  spaced  \n", ("  spaced  ",)),
    ],
)
def test_lines_are_segments(write, content, expected):
    (stream,) = load_file(write("sys.txt", content), {Role.SYSTEM}).streams
    assert stream.texts == expected
    assert stream.doc_ids is None
    assert stream.seg_ids == tuple(str(i) for i in range(1, len(expected) + 1))
    assert stream.origin.format == "plain text"


def test_empty_file_is_refused(write):
    with pytest.raises(InputError, match="the file is empty"):
        load_file(write("empty.txt", b""), {Role.REFERENCE})


def test_plain_text_needs_a_role_from_the_user(write):
    with pytest.raises(InputError, match="does not say whether it is the source, a reference"):
        load_file(write("x.txt", "hello\n"))


def test_content_decides_the_format_not_the_extension(write):
    sgml = '<refset><doc docid="a" sysid="r"><seg id="1">x</seg></doc></refset>\n'
    (stream,) = load_file(write("looks-plain.txt", sgml), {Role.REFERENCE}).streams
    assert stream.origin.format == "NIST SGML"
    assert stream.texts == ("x",)
