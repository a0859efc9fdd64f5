"""``mtgui eval --documents FILE``: per-document scores as CSV, through the output machinery."""

from __future__ import annotations

import csv
import io

import pytest
from shared_corpora import MISSING, SHARED_DATA

from mtgui.cli.main import main
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.documents import DocumentGrouping, document_scores
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo

DEMO_DOCUMENTS = ("bakery", "bike-lanes", "robotics", "mountain-rescue", "library", "festival")
IS_EN = SHARED_DATA / "wmt21-newstest2021-is-en"


def read_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_file_has_a_row_per_system_and_document(tmp_path, capsys):
    path = tmp_path / "docs.csv"
    assert main(["eval", "--demo", "-b", "0", "-m", "bleu,nist", "--documents", str(path)]) == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfsystem,docid,segments,bleu,nist\n")  # BOM for Excel
    rows = read_rows(data.decode("utf-8-sig"))
    corpus = load_demo()
    stats = compute_statistics(corpus, ["bleu", "nist"], MetricSettings())
    grouping = DocumentGrouping.of(corpus.test_set)
    assert grouping.documents == DEMO_DOCUMENTS
    assert [(r["system"], r["docid"]) for r in rows] == [
        (s, d) for s in corpus.system_names for d in DEMO_DOCUMENTS
    ]
    assert [int(r["segments"]) for r in rows[:6]] == [16, 16, 15, 16, 15, 17]
    assert rows[0]["system"] == "Lumen" and float(rows[0]["bleu"]) == pytest.approx(0.83617763)
    for s, system in enumerate(corpus.system_names):
        mine = rows[6 * s : 6 * s + 6]
        for metric in ("bleu", "nist"):
            expected = document_scores(stats, grouping, system, metric)
            assert [float(r[metric]) for r in mine] == expected.tolist()  # full precision
    assert "Lumen" in capsys.readouterr().out  # the tables are printed as usual


def test_bleu_scale_100_says_so_in_the_column_names(capsys):
    assert main(["eval", "--demo", "-b", "0", "--documents", "-", "--bleu-scale", "100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("system,docid,segments,bleu_x100,nist,mbleu_x100\n")  # no BOM
    first = read_rows(out)[0]
    assert float(first["bleu_x100"]) == pytest.approx(83.617763, abs=1e-6)
    assert float(first["nist"]) == pytest.approx(10.658016, abs=1e-6)


def test_plain_text_is_refused_before_the_work(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("a b c\nd e x\n", encoding="utf-8")
    args = ["eval", "-r", "ref.txt", "-t", "sys.txt", "--documents", "docs.csv"]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert "per-document scores need documents, and this test set has none" in captured.err
    assert "Scores" not in captured.out  # refused before scoring: no table was printed
    assert not (tmp_path / "docs.csv").exists()


def test_an_existing_file_is_kept_without_overwrite(tmp_path, capsys):
    path = tmp_path / "docs.csv"
    path.write_text("keep", encoding="utf-8")
    assert main(["eval", "--demo", "-b", "0", "--documents", str(path)]) == 2
    assert "the file already exists" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "keep"
    assert main(["eval", "--demo", "-b", "0", "--documents", str(path), "--overwrite"]) == 0
    assert path.read_text(encoding="utf-8-sig").startswith("system,docid,segments,")


def test_only_one_output_on_standard_output(capsys):
    assert main(["eval", "--demo", "-b", "0", "--documents", "-", "--json", "-"]) == 2
    assert "both ask for standard output (-)" in capsys.readouterr().err


@pytest.mark.shared
@pytest.mark.skipif(not IS_EN.exists(), reason=MISSING.kwargs["reason"])
def test_the_file_equals_mteval_on_wmt21_is_en(tmp_path):
    path = tmp_path / "docs.csv"
    sgm = IS_EN / "sgm"
    args = ["eval", "-r", str(sgm / "newstest2021.is-en.ref.A.en.sgm"), "-t", str(sgm / "systems")]
    assert main([*args, "-b", "0", "-m", "bleu,nist", "--documents", str(path)]) == 0
    mine = {(r["system"], r["docid"]): r for r in read_rows(path.read_text(encoding="utf-8-sig"))}
    golden = IS_EN / "golden" / "mteval-v13a-doc-scores.tsv"
    with golden.open(encoding="utf-8") as handle:
        expected = list(csv.DictReader(handle, delimiter="\t"))
    assert len(mine) == len(expected) == 8 * 47
    for row in expected:  # the default is case-sensitive: mteval -c
        got = mine[(row["sysid"], row["docid"])]
        assert float(got["bleu"]) == pytest.approx(float(row["BLEU_cs"]), abs=1e-12)
        assert float(got["nist"]) == pytest.approx(float(row["NIST_cs"]), abs=1e-12)


def test_the_segment_table_names_bleu_as_the_document_table_does(capsys):
    args = ["eval", "--demo", "-m", "bleu,mbleu,chrf", "-b", "0", "--bleu-scale", "100"]
    assert main([*args, "--segments", "-"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "system,segment,doc_id,seg_id,bleu_x100,mbleu_x100,chrf"
    assert main(["eval", "--demo", "-m", "bleu", "-b", "0", "--segments", "-"]) == 0
    assert capsys.readouterr().out.startswith("system,segment,doc_id,seg_id,bleu\n")
