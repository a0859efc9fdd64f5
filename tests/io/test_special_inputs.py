"""Inputs that are not ordinary files, or that no reader should take long over (issue 13).

Every one must end in an :class:`InputError` naming the file and the problem in words (exit 2
on the command line): never a traceback, never a hang. Tests that could hang on a pipe run
the call on a thread and unblock the pipe themselves if it does not come back in time.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from mtgui.cli.main import main
from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io import inputs
from mtgui.io.decode import read_text
from mtgui.io.inputs import describe_os_error, read_input_bytes
from mtgui.io.loader import SNIFF_CHARS, detect_format, load_file
from mtgui.io.streams import PLAIN_TEXT, SGML, WMT_XML

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


@pytest.fixture
def ref(write) -> Path:
    return write("ref.txt", "a b\nc d\n")


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def returns_in_time(call: Callable[[], object], pipe: Path, seconds: float = 10.0) -> object:
    """``call()``'s result (or exception), failing the test if it blocks on ``pipe``."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test below
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        # Open the pipe for writing and close it, so that the blocked reader sees its end.
        descriptor = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
        os.close(descriptor)
        thread.join(seconds)
        pytest.fail(f"reading {pipe.name} blocked (waited {seconds} s for a writer)")
    return outcome[0]


# -- item 9: pipes, devices, sockets ------------------------------------------------------


@needs_fifo
@pytest.mark.parametrize("option", ["--hyp", "--ref"])
def test_a_named_pipe_on_the_command_line_is_refused_at_once(ref, fifo, capsys, option):
    args = ["eval", "--ref", str(ref), "--hyp", str(fifo), "-b", "0"]
    if option == "--ref":
        args = ["eval", "--ref", str(fifo), "--hyp", str(ref), "-b", "0"]
    assert returns_in_time(lambda: main(args), fifo) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"mtgui: {fifo}: this is a named pipe (FIFO), not a regular file")
    assert "Traceback" not in error


@needs_fifo
def test_the_desktop_reader_refuses_a_named_pipe_too(fifo):
    caught = returns_in_time(lambda: read_text(fifo), fifo)
    assert isinstance(caught, InputError)
    assert caught.path == fifo
    assert "named pipe (FIFO), not a regular file" in caught.problem


@needs_fifo
def test_a_pipe_put_in_place_of_a_checked_file_is_refused_on_the_open_file(
    fifo, write, monkeypatch
):
    # The path was a regular file when it was examined and is a pipe when it is opened: the
    # non-blocking open returns at once, and fstat on the open file sees the pipe.
    regular = write("regular.txt", "x\n")
    monkeypatch.setattr(inputs, "check_regular", lambda path, limit=None: os.stat(regular))
    caught = returns_in_time(lambda: read_input_bytes(fifo), fifo)
    assert isinstance(caught, InputError)
    assert "named pipe" in caught.problem


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_a_character_device_is_refused(ref, capsys):
    assert main(["eval", "--ref", str(ref), "--hyp", "/dev/null", "-b", "0"]) == 2
    assert "/dev/null: this is a character device" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_dev_zero_is_refused_before_it_is_read():
    # Item 17: reading it ran out of memory after 2.6 GB.
    with pytest.raises(InputError, match="character device"):
        load_file("/dev/zero", {Role.SYSTEM})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_socket_is_refused(tmp_path):
    import socket

    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(InputError, match="this is a socket, not a regular file"):
            read_text(path)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(write, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 100)
    small = write("small.txt", "x" * 100)
    assert read_text(small).text == "x" * 100
    big = write("big.txt", "x" * 101)
    with pytest.raises(InputError) as caught:
        read_text(big)
    assert caught.value.path == big
    assert "too large to read (101 bytes); mtgui reads files of at most 100 bytes" in str(
        caught.value
    )


def test_a_file_that_grows_while_read_is_read_no_further_than_the_limit(write):
    path = write("growing.txt", "x" * 1000)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        # It was 10 bytes when examined: the reader asks for more and gets it, up to the limit.
        with pytest.raises(InputError, match="more than 50 bytes"):
            inputs._read_bounded(descriptor, 10, 50, path)
    finally:
        os.close(descriptor)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        assert inputs._read_bounded(descriptor, 10, 5000, path) == b"x" * 1000
    finally:
        os.close(descriptor)


# -- item 14: every OSError in words --------------------------------------------------------


def test_a_file_name_over_the_system_limit(ref, tmp_path, capsys):
    long_name = str(tmp_path / ("x" * 300))
    for args in (["--ref", str(ref), "--hyp", long_name], ["--ref", long_name, "--hyp", str(ref)]):
        assert main(["eval", *args, "-b", "0"]) == 2
        error = capsys.readouterr().err
        assert error == f"mtgui: {long_name}: the file name is too long for this system.\n"


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (errno.EACCES, "mtgui is not allowed to read it (permission denied)."),
        (errno.ENAMETOOLONG, "the file name is too long for this system."),
        (errno.ENOTDIR, "a part of its path is a file, not a folder."),
        (errno.ELOOP, "its path goes round a loop of symbolic links."),
        (errno.EIO, "the file cannot be read (input/output error"),
        (errno.EXDEV, f"the file cannot be read ({os.strerror(errno.EXDEV)})."),
    ],
)
def test_operating_system_errors_in_words(number, words):
    assert describe_os_error(OSError(number, os.strerror(number))).startswith(words)


def test_a_file_that_cannot_be_opened_names_the_file_and_the_reason(write, monkeypatch):
    path = write("locked.txt", "x\n")

    def refuse(name: object, flags: int, *args: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", str(name))

    monkeypatch.setattr(inputs.os, "open", refuse)
    with pytest.raises(InputError) as caught:
        load_file(path, {Role.SYSTEM})
    assert str(caught.value) == f"{path}: mtgui is not allowed to read it (permission denied)."


def test_a_file_in_a_folder_that_cannot_be_searched(write, monkeypatch, ref, capsys):
    # Root may search any folder, so the operating system's answer is simulated.
    path = write("closed/sys.txt", "x\n")
    real_stat = os.stat

    def stat(name: object, *args: object, **kwargs: object) -> os.stat_result:
        if Path(str(name)) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(name))
        return real_stat(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    assert main(["eval", "--ref", str(ref), "--hyp", str(path), "-b", "0"]) == 2
    expected = f"mtgui: {path}: mtgui is not allowed to read it (permission denied).\n"
    assert capsys.readouterr().err == expected


# -- item 10: format detection is linear ---------------------------------------------------


def test_detection_looks_only_at_the_start_of_a_file():
    filler = "a plain line\n" * (SNIFF_CHARS // 13 + 1)
    assert detect_format("<refset>\n" + filler) == SGML
    assert detect_format(filler + "<refset>\n<doc docid='a'><seg id='1'>") == PLAIN_TEXT
    assert detect_format(filler + '<doc docid="a"><seg id="1">') == PLAIN_TEXT


_LINEAR_CHECK = """
import sys, time
from pathlib import Path
from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.loader import load_file
started = time.perf_counter()
for name in sys.argv[1:]:
    try:
        load_file(Path(name), {Role.SYSTEM} if name.endswith(".txt") else None)
    except InputError as error:
        print(error.problem)
print(f"{time.perf_counter() - started:.1f} s")
"""


def test_files_full_of_unfinished_tags_are_read_or_refused_in_linear_time(write):
    # 2 MB each. Detection and the SGML reader scanned to the end of the file from every
    # "<doc" or "<seg" without a ">" after it: about 20 s for 90 KB, hours for 2 MB. Linear,
    # all of them take well under a second; the minute's timeout only catches quadratic time.
    size = 2 << 20
    files = [
        write("docs.txt", "a <doc b\n" * (size // 9)),
        write("tags.txt", "<seg <doc docid <seg id\n" * (size // 24)),
        write(
            "segs.sgm", '<refset>\n<doc docid="d">\n' + "<seg x\n" * (size // 7) + "</doc></refset>"
        ),
        write("attrs.sgm", "<tstset>\n<doc " + 'docid="x ' * (size // 10) + ">\n</doc></tstset>"),
        write(
            "inner.sgm",
            '<tstset>\n<doc docid="a">\n<seg id="1">x</seg>'
            + "<doc docid " * (size // 11)
            + "</doc></tstset>",
        ),
    ]
    try:
        result = subprocess.run(
            [sys.executable, "-c", _LINEAR_CHECK, *map(str, files)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading four 2 MB files took over a minute: quadratic")
    problems = result.stdout.splitlines()
    assert problems[:-1] == [
        "this SGML file has no <srcset>, <refset> or <tstset> with its closing tag.",
        "the segment <seg> that starts here has no '>' to end its tag.",
        "document 'x docid=' has no <seg> segments.",
    ]
    assert len(problems) == 4  # inner.sgm reads: its "<doc" are not whole tags


# -- item 23: messages that name the real problem -----------------------------------------


def test_a_doctype_with_an_internal_subset_is_named(write):
    path = write(
        "subset.xml",
        '<?xml version="1.0"?>\n<!DOCTYPE dataset [\n<!ENTITY lol "lol">\n]>\n'
        '<dataset><doc id="d"><src lang="en"><p><seg id="1">&lol;</seg></p></src></doc>'
        "</dataset>\n",
    )
    assert detect_format(path.read_text(encoding="utf-8")) == WMT_XML
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.problem == (
        "this XML file declares a DOCTYPE with an internal subset (entities), which mtgui does "
        "not read."
    )
    assert caught.value.line == 2


def test_an_xml_file_that_is_not_wmt_xml_is_not_called_plain_text(write):
    path = write("other.xml", '<?xml version="1.0"?>\n<html><body>x</body></html>\n')
    with pytest.raises(InputError, match="a WMT XML file starts with <dataset>, not <html>"):
        load_file(path, {Role.SYSTEM})


def test_a_segment_that_mentions_a_doc_tag_is_not_a_missing_closing_tag(write):
    text = '<tstset>\n<doc docid="d1">\n<seg id="1">the <doc> tag</seg>\n</doc>\n</tstset>\n'
    (stream,) = load_file(write("mention.sgm", text)).streams
    assert stream.texts == ("the <doc> tag",)


def test_one_plain_text_file_as_reference_and_system_output(ref, capsys):
    assert main(["eval", "--ref", str(ref), "--hyp", str(ref), "-b", "0"]) == 2
    assert capsys.readouterr().err == (
        f"mtgui: {ref}: this plain-text file is given as reference (--ref) and as system output "
        "(--hyp), but a plain-text file holds only one of them. Give the reference and each "
        "system output as separate files.\n"
    )


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        (
            '<refset>\n<doc docid="d1">\n<seg id="1">a</seg>\n<doc docid="d2">\n'
            '<seg id="1">b</seg>\n</doc>\n</refset>\n',
            4,
            "document 'd1' (line 2) is not closed before document 'd2' starts (line 4): its "
            "</doc> is missing.",
        ),
        (
            '<refset sysid="A">\n<doc docid="d1">\n<seg id="1">a</seg>\n</doc>\n'
            '<refset sysid="B">\n<doc docid="d1">\n<seg id="1">a</seg>\n</doc>\n</refset>\n',
            5,
            "the <refset> (line 1) is not closed before a <refset> starts (line 5): its "
            "</refset> is missing.",
        ),
    ],
)
def test_a_missing_closing_tag_in_sgml_is_named(write, text, line, problem):
    with pytest.raises(InputError) as caught:
        load_file(write("open.sgm", text))
    assert (caught.value.line, caught.value.problem) == (line, problem)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        (
            '<dataset>\n<doc id="d1"><src lang="de"><p><seg id="1">a</seg></p></src>\n'
            '<doc id="d2"><src lang="de"><p><seg id="1">b</seg></p></src></doc>\n</dataset>\n',
            3,
            "document 'd1' (line 2) is not closed before document 'd2' starts (line 3): its "
            "</doc> is missing.",
        ),
        (
            '<dataset>\n<doc id="d1"><src lang="de"><p><seg id="1">a</seg></p>\n'
            '<ref translator="A"><p><seg id="1">b</seg></p></ref></doc>\n</dataset>\n',
            3,
            "the <src> of document 'd1' (line 2) is not closed before <ref> starts (line 3): "
            "its </src> is missing.",
        ),
    ],
)
def test_a_missing_closing_tag_in_wmt_xml_is_named(write, text, line, problem):
    with pytest.raises(InputError) as caught:
        load_file(write("open.xml", text))
    assert (caught.value.line, caught.value.problem) == (line, problem)
