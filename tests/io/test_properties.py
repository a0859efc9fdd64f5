"""Property tests: random and mutated files go to every reader, and only InputError comes out.

Every entry point that reads user files -- ``load_file`` under each role set, ``load_scores`` and
``assemble`` on whatever loaded -- is fed (a) arbitrary bytes, (b) arbitrary text, biased
towards the markup the readers look for, in each encoding a user may have (UTF-8, UTF-8 with a
byte-order mark, UTF-16 with one, Latin-1), and (c) small valid files of every format with
random damage done to them (ranges deleted, duplicated, swapped, tag fragments and stray bytes
inserted, the file truncated). Each call must return normally or raise :class:`InputError`
whose message is a non-empty sentence that names the file; anything else fails the test.

Session files get the same treatment at the end of this file: random JSON, session-shaped
objects with random values, and a valid session with random damage go to ``read_session``,
and the files a session names to the reader the desktop uses for them.

Bugs these tests found have a plain regression test at the end of this file.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.decode import read_text
from mtgui.io.loader import load_file, load_scores
from mtgui.io.scores import ScoreTable
from mtgui.io.session import is_session_file, read_session
from mtgui.io.streams import LoadedFile

T = TypeVar("T")

# Examples per test are multiplied by MTGUI_FUZZ_SCALE (say 20 for a long local fuzzing run).
_SCALE = float(os.environ.get("MTGUI_FUZZ_SCALE", "1"))


def _fuzz_settings(examples: int) -> settings:
    """Settings for one property test: ``examples`` examples, no deadline, no saved database."""
    return settings(
        max_examples=max(1, round(examples * _SCALE)),
        deadline=None,
        database=None,  # no example database to keep; a failure prints its input
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


ROLE_SETS: tuple[frozenset[Role] | None, ...] = (
    frozenset({Role.SOURCE}),
    frozenset({Role.REFERENCE}),
    frozenset({Role.SYSTEM}),
    None,
)

# ---------------------------------------------------------------------------------------------
# Valid seed files. They agree with each other (documents d1 with segments 1-3 and d2 with
# segments 1-2, five segments in all; systems Alpha and Beta), so that assembling a lightly
# damaged one with the good ones gets past loading into alignment and score matching.

SRC_SGM = """\
<srcset setid="toy" srclang="de">
<doc docid="d1" genre="news">
<seg id="1">Die Katze sa\u00df .</seg>
<seg id="2">Fisch & Pommes</seg>
<seg id="3">Ein Satz
  \u00fcber zwei Zeilen</seg>
</doc>
<doc docid="d2">
<seg id="1">Zweites Dokument .</seg>
<seg id="2">Sein Ende .</seg>
</doc>
</srcset>
"""

REF_SGM = """\
<refset setid="toy" srclang="de" trglang="en">
<doc sysid="ref" docid="d1" genre="news">
<p>
<seg id="1">The cat sat .</seg>
<seg id="2">Fish &amp; chips & peas</seg>
<seg id=3>A sentence
over two lines</seg>
</p>
</doc>
<doc sysid="ref" docid="d2">
<seg id="1">Second document .</seg>
<seg id="2">Its end .</seg>
</doc>
</refset>
"""

# Upper-case tags, documents in another order than the reference, CRLF line ends, raw '&'.
TST_SGM = (
    '<TSTSET setid="toy" srclang="de" trglang="en">\r\n'
    '<DOC sysid="Alpha" docid="d2">\r\n'
    '<SEG id="1">second document</SEG>\r\n'
    '<seg id="2">its end</seg>\r\n'
    "</DOC>\r\n"
    '<DOC sysid="Alpha" docid="d1">\r\n'
    '<SEG id="1">the cat sat</SEG>\r\n'
    '<SEG id="2">fish & chips</SEG>\r\n'
    '<SEG id="3">a sentence\r\n   on two lines</SEG>\r\n'
    "</DOC>\r\n"
    "</TSTSET>\r\n"
)

WMT_XML = """\
<?xml version="1.0" encoding="utf-8"?>
<dataset id="toy">
  <collection id="general">
    <doc id="d1" origlang="de">
      <src lang="de"><p><seg id="1">Die Katze .</seg><seg id="2">Fisch &amp; Pommes</seg>\
<seg id="3">Ein Satz</seg></p></src>
      <ref lang="en" translator="A"><p><seg id="1">The cat .</seg><seg id="2">Fish &amp; chips\
</seg><seg id="3">A sentence</seg></p></ref>
      <hyp system="Alpha" lang="en"><p><seg id="1">the cat</seg><seg id="2">fish &lt;&amp;&gt; \
chips</seg><seg id="3">a sentence</seg></p></hyp>
    </doc>
    <doc id="d2" origlang="de">
      <src lang="de"><p><seg id="1">Zweites .</seg><seg id="2">Ende .</seg></p></src>
      <ref lang="en" translator="A"><p><seg id="1">Second .</seg><seg id="2">End .</seg></p></ref>
      <hyp system="Alpha" lang="en"><p><seg id="1">second</seg><seg id="2">end</seg></p></hyp>
    </doc>
  </collection>
</dataset>
"""

PLAIN_TXT = "the cat sat\nfish & chips\n\na sentence <b>with</b> tags\nthe end .\n"

SCORES_TSV = """\
system\tdocid\tsegid\tscore
Alpha\td1\t1\t0.5
Alpha\td1\t2\t-1.25
Alpha\td2\t1\tNA
Beta\td2\t2\t3e-1
Beta\td1\t3\t0
"""

SCORES_CSV = """\
System,Line,Z
Alpha,1,0.25
"Beta",2,-0.5
Alpha,5,
Beta,3,1e2
"""

SEEDS: dict[str, str] = {
    "srcset": SRC_SGM,
    "refset": REF_SGM,
    "tstset": TST_SGM,
    "wmt-xml": WMT_XML,
    "plain": PLAIN_TXT,
    "scores-tsv": SCORES_TSV,
    "scores-csv": SCORES_CSV,
}

# The good files the damaged ones are assembled with; the good system is Beta.
GOOD_SYS_SGM = REF_SGM.replace("refset", "tstset").replace('sysid="ref"', 'sysid="Beta"')

# Pieces of markup and awkward bytes that mutations insert.
FRAGMENTS: tuple[bytes, ...] = (
    b"<seg",
    b'<seg id="1">',
    b"<seg id=9>",
    b"</seg>",
    b"<seg/>",
    b"<doc",
    b'<doc docid="d1">',
    b'<doc id="d1">',
    b'<doc id="x"/>',
    b"</doc>",
    b"<DOC>",
    b"<refset>",
    b"</refset>",
    b"<srcset>",
    b"<tstset>",
    b"</tstset>",
    b"<dataset>",
    b"</dataset>",
    b'<src lang="x">',
    b'<ref translator="B">',
    b'<hyp system="Alpha">',
    b"</hyp>",
    b"<p>",
    b"<?xml version='1.0'?>",
    b"<!DOCTYPE x>",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"<",
    b">",
    b"/>",
    b"&",
    b"&amp;",
    b"&#0;",
    b"&#x110000;",
    b"&bogus;",
    b'"',
    b"'",
    b"=",
    b"\x00",
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\r",
    b"\n",
    b"\r\n",
    b"\t",
    b",",
    b"system\tdocid\tsegid\tscore\n",
    b"system,line,score\n",
    b"NaN",
    b"inf",
    b"-0",
    b"1e999",
    b"0x1",
)

TEXT_FRAGMENTS: tuple[str, ...] = (
    *(fragment.decode("latin-1") for fragment in FRAGMENTS),
    "\u2028",
    "\x85",
    "\ufeff",
    "\U0001f600",
    " ",
    "  ",
)


def _encode(text: str, encoding: str) -> bytes:
    """``text`` as a user's editor may have saved it."""
    if encoding == "utf-16-le-bom":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if encoding == "utf-16-be-bom":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    if encoding == "latin-1":
        return text.encode("latin-1", errors="replace")
    if encoding == "utf-8-crlf":
        return text.replace("\n", "\r\n").encode("utf-8")
    return text.encode(encoding)


ENCODINGS = ("utf-8", "utf-8-sig", "utf-16-le-bom", "utf-16-be-bom", "latin-1")
SEED_ENCODINGS = (*ENCODINGS, "utf-8-crlf")

# ---------------------------------------------------------------------------------------------
# Strategies.

FILE_NAMES = st.sampled_from(
    ["input.sgm", "input.xml", "newstest.de-en.Alpha.txt", "scores.tsv", "sc\u00f6res x.csv"]
)

markup_text = st.lists(
    st.one_of(st.sampled_from(TEXT_FRAGMENTS), st.text(max_size=12)), max_size=40
).map("".join)


@st.composite
def mutated(draw: st.DrawFn, seeds: tuple[str, ...] = tuple(SEEDS)) -> bytes:
    """A valid seed file, encoded one way or another, with one to five random mutations."""
    text = SEEDS[draw(st.sampled_from(seeds))]
    data = bytearray(_encode(text, draw(st.sampled_from(SEED_ENCODINGS))))
    for _ in range(draw(st.integers(1, 5))):
        operation = draw(
            st.sampled_from(["delete", "duplicate", "insert", "swap", "truncate", "replace"])
        )
        size = len(data)
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, min(size, start + 80)))
        if operation == "delete":
            del data[start:end]
        elif operation == "duplicate":
            at = draw(st.integers(0, size))
            data[at:at] = data[start:end]
        elif operation == "insert":
            piece = draw(st.one_of(st.sampled_from(FRAGMENTS), st.binary(min_size=1, max_size=6)))
            data[start:start] = piece
        elif operation == "swap":
            other = draw(st.integers(end, size))
            other_end = draw(st.integers(other, min(size, other + 80)))
            first, second = bytes(data[start:end]), bytes(data[other:other_end])
            data[other:other_end] = first
            data[start:end] = second
        elif operation == "truncate":
            del data[start:]
        else:
            if size:
                data[min(start, size - 1)] = draw(st.integers(0, 255))
    return bytes(data)


# ---------------------------------------------------------------------------------------------
# Calling the readers and checking what comes out.


def _check_error(error: InputError, path: Path | None, data: bytes | None) -> None:
    """An InputError must carry a message a person can act on, naming the file it is about."""
    assert isinstance(error.problem, str)
    assert error.problem.strip(), "the problem of an InputError is empty"
    message = str(error)
    assert isinstance(message, str)
    assert message.strip(), "the message of an InputError is empty"
    assert message == error.message
    if error.path is not None:
        assert error.path.name in message, f"{message!r} does not name {error.path.name}"
    if path is not None:
        assert error.path == path, f"a reader's error names {error.path}, not the file {path}"
    if error.line is not None:
        assert isinstance(error.line, int)
        assert error.line >= 1
        if data is not None:
            # A line number past the end of the file would send the user nowhere.
            assert error.line <= data.count(b"\n") + data.count(b"\r") + 1
    if error.hint is not None:
        assert error.hint.strip()


def _attempt(
    call: Callable[[], T], path: Path | None = None, data: bytes | None = None
) -> T | None:
    """``call()``'s result, or None if it raised InputError (checked).

    Any other exception propagates and fails the test.
    """
    try:
        return call()
    except InputError as error:
        _check_error(error, path, data)
    return None


def _check_loaded(loaded: LoadedFile, roles: frozenset[Role] | None, path: Path) -> None:
    """A loaded file is consistent: streams of the roles asked for, parallel tuples."""
    assert isinstance(loaded, LoadedFile)
    assert loaded.streams
    allowed = set(roles or Role)
    if Role.REFERENCE in allowed:
        allowed.add(Role.SOURCE)  # WMT XML brings the source along with the references
    for stream in loaded.streams:
        assert stream.role in allowed
        assert stream.size >= 1
        assert len(stream.seg_ids) == len(stream.lines) == stream.size
        assert stream.doc_ids is None or len(stream.doc_ids) == stream.size
        assert all(isinstance(text, str) for text in stream.texts)
        assert all(line >= 1 for line in stream.lines)
        assert stream.origin.path == str(path)


def _check_table(table: ScoreTable) -> None:
    """A score table has usable rows only."""
    assert table.records
    for record in table.records:
        assert record.system
        assert math.isfinite(record.value)
        assert record.index is None or record.index >= 1


@contextmanager
def _written(files: dict[str, bytes]) -> Iterator[dict[str, Path]]:
    """The files written to a fresh folder (one per example), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="mtgui-fuzz-") as folder:
        paths = {}
        for name, data in files.items():
            path = Path(folder) / name
            path.write_bytes(data)
            paths[name] = path
        yield paths


class Good:
    """The valid files, loaded: source, reference, system Beta, scores of Alpha and Beta."""

    def __init__(self, folder: Path) -> None:
        texts = {
            "source.sgm": SRC_SGM,
            "reference.sgm": REF_SGM,
            "beta.sgm": GOOD_SYS_SGM,
            "scores.tsv": SCORES_TSV,
        }
        for name, text in texts.items():
            (folder / name).write_text(text, encoding="utf-8")
        self.source = load_file(folder / "source.sgm", {Role.SOURCE})
        self.reference = load_file(folder / "reference.sgm", {Role.REFERENCE})
        self.system = load_file(folder / "beta.sgm", {Role.SYSTEM})
        self.scores = load_scores(folder / "scores.tsv")

    def __repr__(self) -> str:  # hypothesis prints the test's arguments when one fails
        return "<the good files>"


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Good:
    """The valid files, loaded once per module."""
    files = Good(tmp_path_factory.mktemp("good"))
    # They really are good together.
    corpus = assemble([files.source, files.reference, files.system], [files.scores])
    assert corpus.test_set.size == 5
    assert corpus.system_names == ("Beta",)
    assert corpus.scores[0].num_scored == 2
    return files


def _exercise(data: bytes, name: str, good: Good) -> None:
    """Feed ``data`` (saved as ``name``) to every reader, and assemble whatever loaded."""
    with _written({name: data}) as paths:
        path = paths[name]
        loaded: list[LoadedFile] = []
        for roles in ROLE_SETS:
            result = _attempt(lambda roles=roles: load_file(path, roles), path, data)
            if result is not None:
                _check_loaded(result, roles, path)
                loaded.append(result)
        for roles in (None, frozenset({Role.SYSTEM})):
            # Latin-1 decodes any bytes without NUL, so the parsers see every character.
            result = _attempt(lambda roles=roles: load_file(path, roles, "latin-1"), path, data)
            if result is not None:
                _check_loaded(result, roles, path)
        table = _attempt(lambda: load_scores(path), path, data)
        if table is not None:
            _check_table(table)
        _attempt(lambda: load_scores(path, encoding="latin-1"), path, data)
        tables = [table] if table is not None else []
        reference, source, system = good.reference, good.source, good.system
        for file in loaded:
            _attempt(lambda file=file: assemble([file], tables))
            _attempt(lambda file=file: assemble([reference, file], tables))
            _attempt(lambda file=file: assemble([source, file, reference, system], tables))
            _attempt(lambda file=file: assemble([file, system]))
        if loaded:
            _attempt(lambda: assemble(loaded, tables))
        if table is not None:
            _attempt(lambda: assemble([source, reference, system], tables))
            _attempt(lambda: assemble([reference], tables))


# ---------------------------------------------------------------------------------------------
# The property tests.


@_fuzz_settings(500)
@given(data=st.binary(max_size=600), name=FILE_NAMES)
def test_arbitrary_bytes(good, data, name):
    _exercise(data, name, good)


@_fuzz_settings(200)
@given(data=st.binary(max_size=40).map(lambda b: codecs.BOM_UTF16_LE + b))
def test_arbitrary_bytes_after_a_byte_order_mark(good, data):
    # A byte-order mark skips the NUL check, so the decoded text may hold anything.
    _exercise(data, "bom.txt", good)


@_fuzz_settings(800)
@given(
    text=st.one_of(markup_text, st.text(max_size=200)),
    encoding=st.sampled_from(ENCODINGS),
    name=FILE_NAMES,
)
def test_arbitrary_text_in_each_encoding(good, text, encoding, name):
    _exercise(_encode(text, encoding), name, good)


@pytest.mark.parametrize("seed", sorted(SEEDS))
@_fuzz_settings(400)
@given(data=st.data(), name=FILE_NAMES)
def test_mutated_valid_files(good, seed, data, name):
    _exercise(data.draw(mutated((seed,)), label="file"), name, good)


@_fuzz_settings(500)
@given(
    systems=st.lists(mutated(("tstset", "plain", "refset")), min_size=1, max_size=2),
    use_scores=st.booleans(),
)
def test_assemble_good_reference_with_mutated_systems(good, systems, use_scores):
    files = {f"system{i}.sgm": data for i, data in enumerate(systems)}
    with _written(files) as paths:
        loaded = []
        for path in paths.values():
            result = _attempt(
                lambda path=path: load_file(path, {Role.SYSTEM}), path, files[path.name]
            )
            if result is not None:
                _check_loaded(result, frozenset({Role.SYSTEM}), path)
                loaded.append(result)
        tables = [good.scores] if use_scores else []
        _attempt(lambda: assemble([good.reference, *loaded], tables))
        _attempt(lambda: assemble([good.source, good.reference, *loaded], tables))
        _attempt(lambda: assemble([good.reference, good.system, *loaded], tables))


def test_seeds_are_valid(good, tmp_path):
    """The unmutated seeds load (so mutations start from files the readers accept)."""
    expected = {
        "srcset": (frozenset({Role.SOURCE}), 5),
        "refset": (frozenset({Role.REFERENCE}), 5),
        "tstset": (frozenset({Role.SYSTEM}), 5),
        "wmt-xml": (None, 5),
        "plain": (frozenset({Role.SYSTEM}), 5),
    }
    for seed, (roles, size) in expected.items():
        for encoding in SEED_ENCODINGS:
            path = tmp_path / f"{seed}-{encoding}"
            path.write_bytes(_encode(SEEDS[seed], encoding))
            loaded = load_file(path, roles, "latin-1" if encoding == "latin-1" else "auto")
            assert all(stream.size == size for stream in loaded.streams), (seed, encoding)
    for seed, rows in (("scores-tsv", 4), ("scores-csv", 3)):
        path = tmp_path / seed
        path.write_text(SEEDS[seed], encoding="utf-8")
        assert len(load_scores(path).records) == rows
    wmt = load_file(tmp_path / "wmt-xml-utf-8", None)
    corpus = assemble([wmt, good.system], [good.scores])
    assert corpus.system_names == ("Alpha", "Beta")
    assert corpus.test_set.references[0].texts[1] == "Fish & chips"


# ---------------------------------------------------------------------------------------------
# Regression tests for bugs the property tests found (each raised something other than
# InputError before its fix).


def test_regression_cr_only_plain_text_with_comma(write):
    # An old-Mac (CR-only) plain-text file whose text has a comma. detect_format calls
    # looks_like_scores on the text up to the first LF, i.e. the whole file, and
    # _split_header hands it to csv.reader, which refuses a CR inside an unquoted field.
    path = write("hyp.txt", b"Hello, world\rSecond line\r")
    loaded = load_file(path, {Role.SYSTEM})
    assert loaded.streams[0].texts == ("Hello, world", "Second line")


def test_regression_cr_only_csv_scores(write):
    # read_scores splits CR-only files at the CRs (split_lines), but load_scores first calls
    # detect_format -> looks_like_scores, which splits at LF only.
    path = write("scores.csv", b"system,segid,score\rA,1,0.5\rA,2,0.25\r")
    table = load_scores(path)
    assert [(r.system, r.index, r.value) for r in table.records] == [("A", 1, 0.5), ("A", 2, 0.25)]


def test_regression_stray_cr_inside_csv_row(write):
    # A CR that is not followed by LF stays in the line (decode keeps it); _split_row gives the
    # line to csv.reader, which raises csv.Error for it.
    path = write("scores.csv", b"system,segid,score\nA,1\r,0.5\n")
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert caught.value.path == path


def test_regression_csv_field_over_field_size_limit(write):
    # csv's field_size_limit (131072 characters) raises csv.Error.
    path = write("scores.csv", b"system,segid,score\nA,1," + b"9" * 200_000 + b"\n")
    try:
        table = load_scores(path)
    except InputError as error:
        assert error.path == path
    else:
        assert table.records


def test_regression_long_first_line_with_comma(write):
    # The same limit hit through format detection: a plain-text file whose first line is
    # longer than 131072 characters between two commas.
    path = write("hyp.txt", b"a," + b"x" * 200_000 + b"\nsecond\n")
    loaded = load_file(path, {Role.SYSTEM})
    assert loaded.streams[0].size == 2


def test_wmt_xml_doc_inside_seg(write):
    # Found while writing these tests: a <doc> inside a <seg> used to trip an assert in
    # _WmtXmlReader._end (AssertionError). Markup inside a segment now only adds its text.
    path = write(
        "test.xml",
        '<dataset><doc id="a"><src lang="en"><seg id="1">x<doc id="b"/>y</seg></src></doc>'
        "</dataset>",
    )
    (source,) = load_file(path).streams
    assert (source.role, source.doc_ids, source.seg_ids, source.texts) == (
        Role.SOURCE,
        ("a",),
        ("1",),
        ("xy",),
    )


def test_path_with_nul_character(tmp_path):
    # Found while writing these tests: Path.read_bytes raised ValueError ("embedded null
    # byte") for a file name with a NUL character.
    path = f"{tmp_path}/a\0b.txt"
    with pytest.raises(InputError) as caught:
        load_file(path, {Role.SYSTEM})
    assert caught.value.path == Path(path)
    assert str(caught.value).startswith(f"{path}: ")


# ---------------------------------------------------------------------------------------------
# Sessions: only InputError may escape read_session, whatever the file holds, and a session's
# files, however odd their paths, are refused by the reader with an InputError too.

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)

ODD_PATHS = ("", ".", "..", "/", "a\x00b", "\ud800", "x" * 300, "/dev/null", "s.mtgui.json")
session_paths = st.one_of(st.sampled_from(ODD_PATHS), st.text(max_size=30), json_values)

SETTING_NAMES = (
    "metrics",
    "resamples",
    "level",
    "seed",
    "unit",
    "randomization",
    "correction",
    "holm",
    "tokenizer",
    "case",
)


@st.composite
def session_like(draw: st.DrawFn) -> dict[str, object]:
    """An object shaped like a session, each field left out, wrong or plausible at random.

    Mostly a readable version and a list of files, so that the files' odd paths are reached.
    """
    odd_path = st.one_of(st.sampled_from(ODD_PATHS), session_paths)
    file_entry = st.fixed_dictionaries(
        {"path": odd_path},
        optional={
            "relative": odd_path,
            "role": st.one_of(st.sampled_from([r.value for r in Role]), json_values),
        },
    )
    fields = {
        "files": st.one_of(
            st.lists(file_entry, min_size=1, max_size=4),
            st.lists(st.one_of(file_entry, json_values), max_size=4),
            json_values,
        ),
        "renames": st.one_of(st.lists(st.lists(st.text(max_size=5), max_size=3)), json_values),
        "hidden": st.one_of(st.lists(st.one_of(st.text(max_size=5), json_values)), json_values),
        "settings": st.one_of(
            st.dictionaries(st.sampled_from(SETTING_NAMES), json_values), json_values
        ),
        "metric": st.one_of(st.sampled_from(["bleu", "ter", "nope"]), json_values),
    }
    version = 1 if draw(st.integers(0, 4)) else draw(json_values)
    value = {"mtgui_session": version}
    for key, strategy in fields.items():
        if key == "files" or draw(st.booleans()):
            value[key] = draw(strategy)
    return value


SESSION_SEED = json.dumps(
    {
        "mtgui_session": 1,
        "mtgui_version": "0.1.0",
        "files": [
            {"path": "/abs/ref.sgm", "relative": "ref.sgm", "role": None},
            {"path": "/abs/sys.A.txt", "relative": "sys.A.txt", "role": "system"},
        ],
        "renames": [["A", "Alpha"]],
        "hidden": ["B"],
        "settings": {"metrics": ["bleu", "ter"], "resamples": 500, "level": 0.9, "seed": 7},
        "metric": "bleu",
    },
    indent=1,
)

JSON_FRAGMENTS = (
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    ",",
    "null",
    "true",
    "NaN",
    "-Infinity",
    "1e999",
    "-1",
    '"\\ud800"',
    '"\\u0000"',
    "9" * 5000,
    "[" * 3000,
    '"mtgui_session"',
    '"files"',
    '"path"',
    '"relative"',
    '"role"',
    '"settings"',
    "\ufeff",
    "\x00",
)


@st.composite
def mutated_session(draw: st.DrawFn) -> bytes:
    """The valid session, with one to five ranges deleted, duplicated or replaced by a
    fragment of JSON."""
    text = SESSION_SEED
    for _ in range(draw(st.integers(1, 5))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 40)))
        operation = draw(st.sampled_from(["delete", "duplicate", "insert"]))
        if operation == "delete":
            text = text[:start] + text[end:]
        elif operation == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        else:
            text = text[:start] + draw(st.sampled_from(JSON_FRAGMENTS)) + text[end:]
    return text.encode("utf-8", errors="surrogatepass")


def _exercise_session(data: bytes) -> None:
    """Read ``data`` as a session (with and without missing files allowed), then each file it
    names as the desktop would."""
    with _written({"work.mtgui.json": data}) as paths:
        path = paths["work.mtgui.json"]
        _attempt(lambda: read_session(path), path, data)
        session = _attempt(lambda: read_session(path, missing_ok=True), path, data)
        if session is None:
            return
        assert len(session.roles) <= len(session.files)
        for file in session.files:
            _attempt(lambda file=file: read_text(file.path))
            assert isinstance(is_session_file(file.path), bool)


@_fuzz_settings(200)
@given(value=json_values)
def test_sessions_of_random_json(value):
    _exercise_session(json.dumps(value).encode("utf-8"))


@_fuzz_settings(300)
@given(value=session_like())
def test_session_shaped_objects_with_random_values(value):
    _exercise_session(json.dumps(value).encode("utf-8"))


@_fuzz_settings(300)
@given(data=mutated_session())
def test_mutated_sessions(data):
    _exercise_session(data)


@_fuzz_settings(150)
@given(data=st.binary(max_size=200))
def test_sessions_of_random_bytes(data):
    _exercise_session(data)
