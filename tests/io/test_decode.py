"""Decoding files: byte-order marks, line ends, and errors that say where the bad bytes are."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.decode import AUTO, ENCODINGS, DecodedText, decode_bytes, read_text
from mtgui.io.loader import load_file, load_scores

TEXT = "Grüße aus Köln\nnaïve café — 😀\n"

# Line 3 holds a Latin-1 'é' (0xE9) after "ab": byte offset 9 + 9 + 2 = 20.
BAD_UTF8 = b"line one\nline two\nab\xe9cd\nline four\n"
BAD_OFFSET = 20

LATIN1_HINT = (
    "If it is Latin-1 (ISO-8859-1) text, the command line reads it as it is with "
    "--encoding latin-1."
)


@pytest.fixture(autouse=True, params=["whole", "in blocks of 3 bytes"])
def decode_block(request, monkeypatch):
    """Every test twice: files decoded at once, and a block of 3 bytes at a time (as large
    files are, so that the window can draw meanwhile), which cuts characters, byte-order
    marks and CRLFs in two; the text and the errors must be the same."""
    if request.param != "whole":
        monkeypatch.setattr("mtgui.io.decode._DECODE_BLOCK", 3)


# --- Decoding what is valid -----------------------------------------------------------------


def test_utf8_without_bom(write):
    path = write("plain.txt", TEXT.encode("utf-8"))
    assert read_text(path) == DecodedText(TEXT, "UTF-8")


def test_utf8_with_bom_drops_the_bom(write):
    path = write("bom.txt", codecs.BOM_UTF8 + TEXT.encode("utf-8"))
    decoded = read_text(path)
    assert decoded == DecodedText(TEXT, "UTF-8 with BOM")
    assert not decoded.text.startswith("\ufeff")


def test_a_bom_inside_the_text_stays():
    # Only a leading byte-order mark is one; U+FEFF elsewhere is a character of the text.
    data = codecs.BOM_UTF8 + "a\ufeffb\n".encode()
    assert decode_bytes(data, "x.txt") == DecodedText("a\ufeffb\n", "UTF-8 with BOM")


@pytest.mark.parametrize(
    ("bom", "codec", "label"),
    [
        (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE"),
        (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 BE"),
    ],
    ids=["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"],
)
def test_utf16_and_utf32_with_bom(write, bom, codec, label):
    # The emoji is a surrogate pair in UTF-16; the result has no BOM and LF line ends.
    path = write("wide.txt", bom + TEXT.replace("\n", "\r\n").encode(codec))
    assert read_text(path) == DecodedText(TEXT, label)


def test_python_utf16_codec_output_is_read(write):
    # Python's "utf-16" codec (and Windows Notepad's "Unicode") write a little-endian BOM.
    path = write("notepad.txt", TEXT.encode("utf-16"))
    assert read_text(path) == DecodedText(TEXT, "UTF-16 LE")


def test_crlf_becomes_lf_and_a_lone_cr_stays(write):
    path = write("crlf.txt", b"one\r\ntwo\rstill two\r\nthree\r\n\r\n")
    assert read_text(path).text == "one\ntwo\rstill two\nthree\n\n"


def test_cr_cr_lf_keeps_one_cr():
    assert decode_bytes(b"a\r\r\nb", "x.txt").text == "a\r\nb"


def test_empty_file(write):
    assert read_text(write("empty.txt", b"")) == DecodedText("", "UTF-8")


def test_default_encoding_is_auto_and_choosable_encodings():
    assert AUTO == "auto"
    assert ENCODINGS == ("auto", "utf-8", "latin-1")


@pytest.mark.parametrize("name", ["utf-8", "UTF-8", "utf8"])
def test_utf8_asked_for_by_name(name):
    assert decode_bytes("é\r\n".encode(), "x.txt", name) == DecodedText("é\n", "UTF-8")


@pytest.mark.parametrize("name", ["latin-1", "Latin-1", "latin1", "ISO-8859-1", "iso-8859-1"])
def test_latin1_asked_for_by_name(name):
    assert decode_bytes(b"caf\xe9\r\n\xff", "x.txt", name) == DecodedText("café\nÿ", "Latin-1")


def test_a_bom_wins_over_the_encoding_asked_for():
    # A UTF-8 BOM read "as Latin-1" would give "ï»¿" and broken accents; the BOM decides.
    data = codecs.BOM_UTF8 + "é".encode()
    assert decode_bytes(data, "x.txt", "latin-1") == DecodedText("é", "UTF-8 with BOM")


# --- Bytes that do not decode ---------------------------------------------------------------


def test_invalid_utf8_names_line_offset_and_bytes(write):
    path = write("bad.txt", BAD_UTF8)
    with pytest.raises(InputError) as caught:
        read_text(path)
    error = caught.value
    assert error.path == path
    assert error.line == 3
    assert error.problem == (
        f"this is not valid UTF-8 text: the bytes at byte offset {BAD_OFFSET} (e9 63 64 0a) do "
        "not decode."
    )
    assert error.hint == f"Save the file as UTF-8 and load it again. {LATIN1_HINT}"
    assert str(error) == f"{path}, line 3: {error.problem} {error.hint}"


def test_invalid_utf8_read_as_latin1(write):
    path = write("bad.txt", BAD_UTF8)
    assert read_text(path, "latin-1") == DecodedText(
        "line one\nline two\nabécd\nline four\n", "Latin-1"
    )


def test_invalid_utf8_in_the_first_byte():
    with pytest.raises(InputError) as caught:
        decode_bytes(b"\xffabc", "x.txt")
    assert caught.value.line == 1
    assert "at byte offset 0 (ff 61 62 63)" in caught.value.problem


def test_invalid_utf8_at_the_very_end():
    # A multi-byte sequence cut off at the end of the file: fewer than four bytes to show.
    data = b"ok\n\xc3"
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "x.txt")
    assert caught.value.line == 2
    assert "at byte offset 3 (c3) do not decode" in caught.value.problem


def test_invalid_utf8_with_crlf_line_ends():
    # Lines are counted in the file as it is, before CRLF becomes LF; offsets count the CRs.
    data = b"one\r\ntwo\r\n\x80"
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "x.txt")
    assert caught.value.line == 3
    assert "at byte offset 10 (80)" in caught.value.problem


def test_invalid_utf8_after_a_bom_counts_the_bom_in_the_offset():
    data = codecs.BOM_UTF8 + b"ab\n\xff\n"
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "x.txt")
    error = caught.value
    assert error.line == 2
    assert error.problem == (
        "this is not valid UTF-8 with BOM text: the bytes at byte offset 6 (ff 0a) do not decode."
    )
    assert LATIN1_HINT in error.hint


def test_invalid_utf8_asked_for_explicitly_is_located_too():
    with pytest.raises(InputError) as caught:
        decode_bytes(BAD_UTF8, "bad.txt", "utf-8")
    assert caught.value.line == 3
    assert f"byte offset {BAD_OFFSET} (e9 63 64 0a)" in caught.value.problem
    assert caught.value.hint.startswith("Save the file as UTF-8 and load it again.")


def test_invalid_utf16_lone_surrogate():
    # BOM (2 bytes) + "a\nb" (6 bytes): the unpaired high surrogate D800 is at byte offset 8.
    data = codecs.BOM_UTF16_LE + "a\nb".encode("utf-16-le") + b"\x00\xd8" + "c".encode("utf-16-le")
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "wide.txt")
    error = caught.value
    assert error.line == 2
    assert error.problem == (
        "this is not valid UTF-16 LE text: the bytes at byte offset 8 (00 d8 63 00) do not decode."
    )
    # Latin-1 would not help with a UTF-16 file.
    assert error.hint == "Save the file as UTF-8 and load it again."


def test_invalid_utf16_odd_number_of_bytes():
    data = codecs.BOM_UTF16_BE + "ab".encode("utf-16-be") + b"\x00"
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "wide.txt")
    assert caught.value.line == 1
    assert "not valid UTF-16 BE text: the bytes at byte offset 6 (00) do not decode" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("bom", "codec", "surrogate"),
    [
        (codecs.BOM_UTF16_LE, "utf-16-le", b"\x00\xd8"),
        (codecs.BOM_UTF16_BE, "utf-16-be", b"\xd8\x00"),
    ],
    ids=["LE", "BE"],
)
def test_invalid_utf16_line_number_with_0a_bytes_in_characters(bom, codec, surrogate):
    data = bom + "Њ\u0a05\n".encode(codec) + surrogate
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "wide.txt")
    assert "byte offset 8" in caught.value.problem
    assert caught.value.line == 2


# --- Files that are not text, or not there --------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom(write, codec):
    path = write("nobom.txt", "Hello world\nsecond line\n".encode(codec))
    with pytest.raises(InputError) as caught:
        read_text(path)
    error = caught.value
    assert error.path == path
    assert error.line is None
    assert error.problem == (
        "the file looks like UTF-16 text without a byte-order mark, which cannot be read reliably."
    )
    assert error.hint == (
        "Save it as UTF-8 (or as UTF-16 with a byte-order mark) and load it again."
    )


def test_binary_file_with_nul_bytes(write):
    path = write("picture.png", b"\x89PNG\r\n\x1a\nabc\x00\x01\x02\x03")
    with pytest.raises(InputError) as caught:
        read_text(path)
    error = caught.value
    assert error.path == path
    assert error.line == 3  # the PNG signature holds "\r\n" and "\n"
    assert error.problem == "this is not a text file: it holds a NUL byte at byte offset 11."
    assert error.hint == "mtgui reads text files (SGML, XML, plain text, CSV/TSV)."
    assert str(error).startswith(f"{path}, line 3: this is not a text file")


def test_nul_bytes_are_refused_whatever_the_encoding_asked_for():
    with pytest.raises(InputError, match="not a text file: it holds a NUL byte at byte offset 3"):
        decode_bytes(b"abc\x00def", "x.bin", "latin-1")


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.txt"
    with pytest.raises(InputError) as caught:
        read_text(path)
    error = caught.value
    assert (error.path, error.line, error.problem) == (path, None, "there is no such file.")
    assert str(error) == f"{path}: there is no such file."


def test_a_missing_file_names_a_file_of_a_close_name_or_the_folder_a_relative_path_is_read_in(
    tmp_path, monkeypatch
):
    (tmp_path / "newstest2014.ref.de").write_text("a\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as typo:
        read_text(tmp_path / "newstest2014.ref.de.txt")
    assert typo.value.hint == f"Did you mean {tmp_path / 'newstest2014.ref.de'}?"
    with pytest.raises(InputError) as relative:
        read_text("systems.txt")
    assert str(relative.value) == (
        f"systems.txt: there is no such file. A relative path is read from the current folder, "
        f"{tmp_path.resolve()}."
    )


def test_directory(tmp_path):
    with pytest.raises(InputError) as caught:
        read_text(tmp_path)
    assert (caught.value.path, caught.value.problem) == (tmp_path, "this is a folder, not a file.")


def test_path_given_as_string(tmp_path):
    path = str(tmp_path / "missing.sgm")
    with pytest.raises(InputError) as caught:
        read_text(path)
    assert caught.value.path == Path(path)


def test_unknown_encoding_name(write):
    path = write("fine.txt", b"fine\n")
    with pytest.raises(InputError) as caught:
        read_text(path, "klingon")
    error = caught.value
    assert error.path == path
    assert error.problem == "'klingon' is not an encoding mtgui reads."
    assert error.hint == "Choose one of: auto, utf-8, latin-1."


@pytest.mark.parametrize("name", ["cp1252", "utf-16", "ascii", ""])
def test_encodings_python_knows_but_mtgui_does_not_offer(name):
    with pytest.raises(InputError, match="is not an encoding mtgui reads"):
        decode_bytes(b"text\n", "x.txt", name)


# --- The same through load_file and load_scores ---------------------------------------------


def test_load_file_reports_the_decoding_error(write):
    path = write("hyp.txt", BAD_UTF8)
    with pytest.raises(InputError) as caught:
        load_file(path, {Role.SYSTEM})
    error = caught.value
    assert (error.path, error.line) == (path, 3)
    assert f"byte offset {BAD_OFFSET}" in str(error)
    assert LATIN1_HINT in str(error)


def test_load_file_as_latin1(write):
    path = write("hyp.txt", BAD_UTF8)
    loaded = load_file(path, {Role.SYSTEM}, "latin-1")
    (stream,) = loaded.streams
    assert loaded.origin.encoding == "Latin-1"
    assert stream.texts == ("line one", "line two", "abécd", "line four")


def test_load_file_utf8_bom_plain_text(write):
    path = write("hyp.txt", codecs.BOM_UTF8 + b"first\r\nsecond\r\n")
    loaded = load_file(path, {Role.REFERENCE})
    assert loaded.origin.encoding == "UTF-8 with BOM"
    assert loaded.streams[0].texts == ("first", "second")


@pytest.mark.parametrize(
    ("bom", "codec", "label"),
    [
        (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 LE"),
    ],
    ids=["utf-16-le", "utf-16-be", "utf-32-le"],
)
def test_load_file_wide_sgml_with_crlf(write, bom, codec, label):
    sgml = (
        '<refset setid="t" srclang="de" trglang="en">\r\n'
        '<doc docid="d" sysid="ref">\r\n'
        '<seg id="1">Grüße</seg>\r\n'
        '<seg id="2">über\r\nzwei Zeilen</seg>\r\n'
        "</doc>\r\n</refset>\r\n"
    )
    path = write("ref.sgm", bom + sgml.encode(codec))
    loaded = load_file(path, {Role.REFERENCE})
    (stream,) = loaded.streams
    assert (loaded.origin.encoding, loaded.origin.format) == (label, "NIST SGML")
    assert stream.texts == ("Grüße", "über zwei Zeilen")
    assert stream.lines == (3, 4)


def test_load_file_utf16_without_bom(write):
    path = write("hyp.txt", "one\ntwo\n".encode("utf-16-le"))
    with pytest.raises(InputError, match="UTF-16 text without a byte-order mark"):
        load_file(path, {Role.SYSTEM})


def test_load_scores_utf16_with_bom(write):
    path = write("scores.tsv", "system\tline\tscore\r\nA\t1\t0.5\r\n".encode("utf-16"))
    table = load_scores(path)
    assert table.origin.encoding == "UTF-16 LE"
    assert [(r.system, r.index, r.value) for r in table.records] == [("A", 1, 0.5)]


def test_load_scores_reports_the_decoding_error(write):
    path = write("scores.csv", b"system,line,score\nA,1,0.5\nB\xe4,1,0.5\n")
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert caught.value.line == 3
    assert "byte offset 27 (e4 2c 31 2c)" in caught.value.problem


def test_load_file_missing_and_directory(tmp_path):
    with pytest.raises(InputError, match="there is no such file"):
        load_file(tmp_path / "missing.sgm", {Role.REFERENCE})
    with pytest.raises(InputError, match="this is a folder, not a file"):
        load_file(tmp_path, {Role.REFERENCE})
    with pytest.raises(InputError, match="there is no such file"):
        load_scores(tmp_path / "missing.tsv")
