"""Document ids for plain text (``--docids``): reading, refusing, and what they change.

The simulation at the end is the reason for the feature: on documents whose sentences are
alike, plain text resampled by segment calls a true null significant far more often than 5%,
and the same test sets given their document ids (so that ``--unit auto`` resamples documents)
stay near 5%.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from mtgui.cli.main import main
from mtgui.engine.calibration.documents import (
    DocumentEffects,
    Share,
    correlated_pool,
    standard_error,
)
from mtgui.engine.core.corpus import Corpus, Origin, Role, TestSet, TextColumn
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import TIE
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import Statistics, SystemStatistics
from mtgui.io.assemble import assemble
from mtgui.io.docids import DocIds, looks_like_docids, read_docids, with_document_ids
from mtgui.io.entries import guess_role
from mtgui.io.loader import load_file
from mtgui.io.plaintext import line_numbers
from mtgui.io.session import Session, read_session, write_session
from mtgui.io.session_files import SessionFile


def plain_corpus(size: int) -> Corpus:
    """A plain-text test set of ``size`` segments (no documents)."""
    numbers = line_numbers(size)[1]
    origin = Origin("ref.txt", "plain", "utf-8")
    reference = TextColumn("ref", tuple(f"s{i}" for i in range(size)), origin)
    return Corpus(TestSet(("",) * size, numbers, (reference,), has_documents=False))


def test_a_docids_file_gives_plain_text_its_documents(write):
    path = write("newstest.en-de.docids", "a\na\nb\n c \nb\n")
    docids = read_docids(path)
    assert docids.ids == ("a", "a", "b", "c", "b") and docids.documents == 3
    corpus = with_document_ids(plain_corpus(5), docids)
    assert corpus.test_set.has_documents
    assert corpus.test_set.documents == ("a", "b", "c")
    assert corpus.test_set.document_index().tolist() == [0, 0, 1, 2, 1]
    assert corpus.notes == ("Documents from newstest.en-de.docids: 3 documents of 5 segments.",)


def test_a_docids_file_with_the_wrong_line_count_is_refused_with_both_counts(write):
    path = write("test.docids", "a\na\nb\n")
    with pytest.raises(InputError) as caught:
        with_document_ids(plain_corpus(4), read_docids(path))
    assert caught.value.path == path
    assert "has 3 lines, but the test set has 4 segments" in caught.value.message


@pytest.mark.parametrize(
    ("text", "words", "line"),
    [("", "is empty", None), ("a\n\nb\n", "has no document id", 2), ("a\n  \n", "no doc", 2)],
)
def test_a_bad_docids_file_is_refused_by_line(write, text, words, line):
    path = write("bad.docids", text)
    with pytest.raises(InputError, match=words) as caught:
        read_docids(path)
    assert caught.value.path == path and caught.value.line == line


def test_documents_from_sgml_are_not_overruled(write):
    corpus = plain_corpus(2)
    documented = Corpus(
        TestSet(("d", "d"), ("1", "2"), corpus.test_set.references, has_documents=True)
    )
    with pytest.raises(InputError, match="has documents already"):
        with_document_ids(documented, read_docids(write("x.docids", "a\nb\n")))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("newstest2021.en-de.docids", True),
        ("wmt.DOCIDS", True),
        ("docids.txt", True),
        ("newstest2021.en-de.ref", False),
        ("documents.tsv", False),
    ],
)
def test_a_docids_file_is_known_by_its_name(name, expected):
    assert looks_like_docids(name) is expected


def plain_files(write, documents: int = 12, per_document: int = 3):
    """A reference, two systems and their docids as plain text."""
    ref = "".join(f"word{d} and text {s}\n" for d in range(documents) for s in range(per_document))
    a = "".join(
        f"word{d} and text {s}\n" if (d + s) % 3 else f"word{d} or {s}\n"
        for d in range(documents)
        for s in range(per_document)
    )
    b = "".join(
        f"word{d} and text {s}\n" if (d + s) % 4 else f"word{d} or {s}\n"
        for d in range(documents)
        for s in range(per_document)
    )
    docids = "".join(f"doc{d}\n" for d in range(documents) for _ in range(per_document))
    return (
        write("ref.txt", ref),
        write("a.txt", a),
        write("b.txt", b),
        write("test.docids", docids),
    )


def test_the_command_line_resamples_documents_of_plain_text_with_docids(write, capsys):
    ref, a, b, docids = plain_files(write)
    args = ["eval", "--ref", str(ref), "--hyp", str(a), str(b), "--json", "-", "-b", "200"]
    assert main([*args, "--docids", str(docids)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bootstrap"]["unit"] == "document"
    assert report["test_set"]["documents"] == 12
    assert not any("false positives" in note for note in report["notes"])
    assert main(args) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["bootstrap"]["unit"] == "segment"
    (note,) = report["bootstrap"]["notes"]
    assert "32-59% at 5%" in note and "--docids FILE" in note
    assert "false positives can be far above the level" in captured.err


def test_the_command_line_refuses_a_docids_file_of_another_length(write, capsys):
    ref, a, _, _ = plain_files(write)
    short = write("short.docids", "doc0\ndoc1\n")
    assert main(["eval", "--ref", str(ref), "--hyp", str(a), "--docids", str(short)]) == 2
    err = capsys.readouterr().err
    assert "short.docids" in err and "has 2 lines, but the test set has 36 segments" in err
    assert "Traceback" not in err


def test_forcing_segments_on_known_documents_says_what_it_costs(write, capsys):
    ref, a, b, docids = plain_files(write)
    args = ["eval", "--ref", str(ref), "--hyp", str(a), str(b), "--docids", str(docids)]
    assert main([*args, "--unit", "segment", "--json", "-", "-b", "200"]) == 0
    (note,) = json.loads(capsys.readouterr().out)["bootstrap"]["notes"]
    assert note.startswith("Single segments were resampled as asked, though the test set has 12")
    assert "false positives can be far above the level" in note


# -- document nulls on plain text, with and without document ids -------------------------------

TEST_SETS = 200
DOCUMENTS, DOCUMENT_SIZE = 30, 10
ALPHA = 0.05
SIGMAS = 4
# Documents as alike as the test of calibration's strong effects: segment resampling fails by
# a margin no test-set noise can hide.
STRONG = DocumentEffects(difficulty=0.5, segment=0.45, quality=0.1)


def document_null(pool_rows: tuple[np.ndarray, np.ndarray], rng: np.random.Generator):
    """Two outputs of one test set of whole documents, their rows swapped by one fair coin
    per document: neither is better, and the differences run by document."""
    rows_a, rows_b = pool_rows
    pool_documents = len(rows_a) // DOCUMENT_SIZE
    chosen = rng.choice(pool_documents, size=DOCUMENTS, replace=False)
    segments = (chosen[:, None] * DOCUMENT_SIZE + np.arange(DOCUMENT_SIZE)[None, :]).ravel()
    flip = np.repeat(rng.random(DOCUMENTS) < 0.5, DOCUMENT_SIZE)[:, None]
    x = np.where(flip, rows_b[segments], rows_a[segments])
    y = np.where(flip, rows_a[segments], rows_b[segments])
    systems = (
        SystemStatistics(name, MappingProxyType({"bleu": rows}))
        for name, rows in (("X", x), ("Y", y))
    )
    return Statistics(MetricSettings(), (Bleu(),), tuple(systems))


def false_positives(with_docids: bool) -> Share:
    """How often ``--unit auto`` on plain text calls the document null significant, with the
    documents given by a docids file's lines or not given at all."""
    pool = correlated_pool(600, better_by=0.03, seed=33, effects=STRONG)
    size = DOCUMENTS * DOCUMENT_SIZE
    corpus = plain_corpus(size)
    if with_docids:
        ids = tuple(f"doc{d}" for d in range(DOCUMENTS) for _ in range(DOCUMENT_SIZE))
        corpus = with_document_ids(corpus, DocIds(Path("test.docids"), ids))
    index = corpus.test_set.document_index_if_any()
    rng = np.random.default_rng(2033)
    hits = 0
    for _ in range(TEST_SETS):
        statistics = document_null((pool.rows_a, pool.rows_b), rng)
        settings = BootstrapSettings(999, seed=int(rng.integers(2**31)), unit=Unit.AUTO)
        result = run_to_end(iter_bootstrap(statistics, settings, index))
        assert result.settings.unit is (Unit.DOCUMENT if with_docids else Unit.SEGMENT)
        hits += result.pair("bleu", "X", "Y").verdict != TIE
    return Share(hits, TEST_SETS)


def test_plain_text_without_docids_calls_document_nulls_significant_far_too_often():
    share = false_positives(with_docids=False)
    # far above 5%: more than SIGMAS standard errors of a calibrated run above it
    assert share.value > ALPHA + SIGMAS * standard_error(ALPHA, TEST_SETS), share


def test_plain_text_with_docids_stays_near_the_level_on_document_nulls():
    share = false_positives(with_docids=True)
    assert abs(share.value - ALPHA) <= SIGMAS * standard_error(ALPHA, TEST_SETS), share


def test_a_file_named_docids_is_guessed_as_document_ids():
    assert guess_role(Path("newstest2021.en-de.docids")) is Role.DOCUMENT_IDS
    assert guess_role(Path("newstest2021.en-de.ref.de")) is Role.REFERENCE
    assert Role.DOCUMENT_IDS.label == "document ids"


def test_a_loaded_docids_file_gives_the_assembled_corpus_its_documents(write):
    ref, a, _, docids = plain_files(write)
    files = [load_file(ref, {Role.REFERENCE}), load_file(a, {Role.SYSTEM})]
    corpus = assemble([*files, load_file(docids, {Role.DOCUMENT_IDS})])
    assert len(corpus.test_set.documents) == 12 and corpus.test_set.has_documents
    short = write("short.docids", "doc0\ndoc1\n")
    with pytest.raises(InputError, match="has 2 lines, but the test set has 36 segments"):
        assemble([*files, load_file(short, {Role.DOCUMENT_IDS})])
    with pytest.raises(InputError, match="two document-ids files"):
        twice = load_file(docids, {Role.DOCUMENT_IDS})
        assemble([*files, twice, twice])


def test_a_session_keeps_the_role_of_a_docids_file(write, tmp_path):
    ref, a, _, docids = plain_files(write)
    files = (
        SessionFile(ref, Role.REFERENCE),
        SessionFile(a, Role.SYSTEM),
        SessionFile(docids, Role.DOCUMENT_IDS),
    )
    path = tmp_path / "saved.mtgui.json"
    write_session(path, Session(files))
    assert read_session(path).roles[docids] is Role.DOCUMENT_IDS


def test_plain_text_with_wmt_docids_is_resampled_as_its_sgml(shared_data, tmp_path, capsys):
    """WMT21 is-en as plain text with its document ids (from segments.tsv) is resampled by the
    same 47 documents as its SGML form: delta intervals as wide as the SGML's (the texts differ
    in a few entities, so the numbers are not identical), and wider than plain text's without
    document ids, which resamples segments and says what that costs."""
    folder = shared_data / "wmt21-newstest2021-is-en"
    rows = (folder / "segments.tsv").read_text(encoding="utf-8").splitlines()[1:]
    docids = tmp_path / "newstest2021.is-en.docids"
    docids.write_text("".join(row.split("\t")[1] + "\n" for row in rows), encoding="utf-8")
    systems = ("Allegro.eu", "Facebook-AI", "HuaweiTSC", "Mideind")
    plain = ["--ref", str(folder / "txt" / "newstest2021.is-en.ref.A.en"), "--hyp"]
    plain += [str(folder / "txt" / "systems" / f"newstest2021.is-en.{s}.en") for s in systems]
    sgml = ["--ref", str(folder / "sgm" / "newstest2021.is-en.ref.A.en.sgm"), "--hyp"]
    sgml += [str(folder / "sgm" / "systems" / f"newstest2021.is-en.{s}.en.sgm") for s in systems]
    common = ["--json", "-", "-b", "1000", "--metrics", "bleu"]
    reports = {}
    for name, args in (
        ("docids", [*plain, "--docids", str(docids)]),
        ("sgml", sgml),
        ("segments", plain),
    ):
        assert main(["eval", *args, *common]) == 0
        reports[name] = json.loads(capsys.readouterr().out)
    assert reports["docids"]["bootstrap"]["unit"] == reports["sgml"]["bootstrap"]["unit"]
    assert reports["docids"]["test_set"]["documents"] == 47
    assert reports["segments"]["bootstrap"]["unit"] == "segment"
    assert any("32-59% at 5%" in note for note in reports["segments"]["notes"])

    def width(name: str) -> float:
        return float(np.mean([p["ci_high"] - p["ci_low"] for p in reports[name]["pairs"]]))

    assert width("docids") == pytest.approx(width("sgml"), rel=0.1)
    assert width("docids") > 1.1 * width("segments")
