"""What ``mtgui eval`` says about significance: the unit used, corrections, the grid's words."""

from __future__ import annotations

import csv
import json

import pytest

from mtgui.cli.main import main
from mtgui.engine.resampling.settings import FEW_DOCUMENTS, MIN_DOCUMENTS


def refset(documents: int, per_document: int = 2) -> str:
    """An SGML reference of ``documents`` documents."""
    docs = "".join(
        f'<doc docid="d{d}" sysid="ref">'
        + "".join(f'<seg id="{s + 1}">word{d} and text {s}</seg>' for s in range(per_document))
        + "</doc>"
        for d in range(documents)
    )
    return f'<refset setid="t" srclang="en" trglang="de">{docs}</refset>\n'


def system_lines(documents: int, per_document: int = 2, wrong_every: int = 3) -> str:
    lines = []
    for d in range(documents):
        for s in range(per_document):
            lines.append(f"word{d} and text {s}" if (d + s) % wrong_every else f"word{d} or {s}")
    return "\n".join(lines) + "\n"


def run_json(capsys, *args: str) -> dict:
    assert main(["eval", *args, "--json", "-", "--bootstrap", "200"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("documents", [FEW_DOCUMENTS, MIN_DOCUMENTS])
def test_documents_are_resampled_by_default_when_there_are_enough(write, capsys, documents):
    ref = write("ref.sgm", refset(documents))
    a = write("sys.A.txt", system_lines(documents))
    b = write("sys.B.txt", system_lines(documents, wrong_every=5))
    report = run_json(capsys, "--ref", str(ref), "--hyp", str(a), str(b))
    assert report["bootstrap"]["unit"] == "document"
    assert report["bootstrap"]["unit_requested"] == "auto"
    assert "|unit:document|" in report["signature"]
    notes = report["bootstrap"]["notes"]
    if documents < FEW_DOCUMENTS:
        assert notes == [
            f"Whole documents were resampled; with only {documents} of them percentile "
            "intervals run a little narrow (95% ones cover about 88-92% below "
            f"{FEW_DOCUMENTS} documents), so the intervals and verdicts are studentized "
            "(bootstrap-t), which cover close to the level there."
        ]
        assert report["bootstrap"]["interval"] == "studentized"
        assert "|ci:studentized" in report["signature"]
    else:
        assert notes == []
        assert report["bootstrap"]["interval"] == "percentile"


def test_too_few_documents_resample_segments_with_a_note(write, capsys):
    few = MIN_DOCUMENTS - 1
    ref = write("ref.sgm", refset(few))
    a, b = write("sys.A.txt", system_lines(few)), write("sys.B.txt", system_lines(few, 2, 5))
    report = run_json(capsys, "--ref", str(ref), "--hyp", str(a), str(b))
    assert report["bootstrap"]["unit"] == "segment"
    (note,) = report["bootstrap"]["notes"]
    assert note.startswith(f"Single segments were resampled: {few} documents are too few")
    forced = run_json(capsys, "--ref", str(ref), "--hyp", str(a), str(b), "--unit", "document")
    assert forced["bootstrap"]["unit"] == "document"
    assert "too few for that to be reliable" in forced["bootstrap"]["notes"][0]


def test_plain_text_records_segments_even_when_documents_were_asked_for(write, capsys):
    ref, a = write("ref.txt", "a b c\nd e f\n"), write("sys.A.txt", "a b c\nd e\n")
    b = write("sys.B.txt", "a b\nd e f\n")
    report = run_json(capsys, "--ref", str(ref), "--hyp", str(a), str(b), "--unit", "document")
    assert report["bootstrap"]["unit"] == "segment"
    assert report["bootstrap"]["unit_requested"] == "document"
    assert "|unit:segment|" in report["signature"]
    (note,) = report["bootstrap"]["notes"]
    assert note.startswith("The test set has no documents, so single segments were resampled.")
    assert "false positives can be far above the level" in note and "--docids FILE" in note


@pytest.fixture
def three_systems(write):
    ref = write("ref.txt", "".join(f"w{i} a b c d e f\n" for i in range(40)))
    good = write("sys.Good.txt", "".join(f"w{i} a b c d e f\n" for i in range(40)))
    fair = write(
        "sys.Fair.txt", "".join(f"w{i} a b c d e f\n" if i % 4 else f"w{i} x\n" for i in range(40))
    )
    poor = write(
        "sys.Poor.txt", "".join(f"w{i} a b c d e f\n" if i % 2 else f"w{i} x\n" for i in range(40))
    )
    return ["--ref", str(ref), "--hyp", str(good), str(fair), str(poor)]


def test_the_grid_says_how_to_read_it_and_what_a_cluster_is(three_systems, capsys):
    assert main(["eval", *three_systems, "--metrics", "bleu", "--bootstrap", "500"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the sentences are wrapped
    assert (
        "Row against column: > the row system is significantly better than the column system, "
        "< significantly worse, ~ not distinguishable (not shown to differ, which does not mean "
        "they are the same); at 95% confidence, each pair tested on its own (no correction)."
    ) in out
    assert "Clusters, best first: {Good} > {Fair} > {Poor}. A cluster ends only where" in out
    assert main(["eval", *three_systems, "-m", "bleu", "-b", "500", "--fdr"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "at 95% confidence after Benjamini-Hochberg's correction for the 3 pairs" in out


def test_corrections_are_exclusive_and_recorded(three_systems, capsys, tmp_path):
    with pytest.raises(SystemExit) as error:
        main(["eval", *three_systems, "--holm", "--fdr"])
    assert error.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    report = run_json(capsys, *three_systems, "--fdr")
    assert report["bootstrap"]["correction"] == "fdr" and report["bootstrap"]["holm"] is False
    assert "|fdr" in report["signature"]
    for pair in report["pairs"]:
        assert (pair["verdict"] == "~") == (pair["p_fdr"] >= 0.05)
        assert pair["p_fdr"] >= pair["p_value"] and "p_holm" not in pair
    assert main(["eval", *three_systems, "-b", "200", "--holm", "--csv", str(tmp_path / "c")]) == 0
    with open(tmp_path / "c" / "pairs.csv", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert {"p_value", "p_value_sacrebleu", "p_holm", "verdict"} <= set(rows[0])
    assert all((row["verdict"] == "~") == (float(row["p_holm"]) >= 0.05) for row in rows)


def test_human_scores_have_no_relative_interval(write, capsys):
    ref = write("ref.txt", "a b c\nd e f\ng h i\n")
    a, b = write("sys.A.txt", "a b c\nd e\ng h i\n"), write("sys.B.txt", "a b\nd e f\ng h\n")
    scores = write(
        "z.tsv", "system\tline\tscore\nA\t1\t-0.2\nA\t2\t0.1\nA\t3\t0.05\nB\t1\t0.3\nB\t2\t-0.4\n"
    )
    args = ["--ref", str(ref), "--hyp", str(a), str(b), "--scores", str(scores)]
    report = run_json(capsys, *args, "--metrics", "bleu,human")
    for system in report["systems"]:
        human, bleu = system["scores"]["human"], system["scores"]["bleu"]
        assert human["rel_ci_low"] is None and human["rel_ci_high"] is None
        assert human["rsd"] is None and human["ci_low"] is not None
        assert bleu["rel_ci_low"] is not None and bleu["rsd"] is not None


@pytest.mark.shared
def test_wmt_xml_with_documents_resamples_documents_and_plain_text_segments(shared_data, capsys):
    folder = shared_data / "wmt21-newstest2021-is-en"
    xml = str(folder / "xml" / "newstest2021.is-en.all.xml")
    report = run_json(capsys, "--ref", xml, "--hyp", xml, "--metrics", "bleu")
    assert report["test_set"]["documents"] == 47
    assert report["bootstrap"]["unit"] == "document" and report["bootstrap"]["notes"] == []
    assert "|unit:document|" in report["signature"]
    systems = sorted((folder / "txt" / "systems").glob("*.en"))[:3]
    ref = str(folder / "txt" / "newstest2021.is-en.ref.A.en")
    plain = run_json(capsys, "--ref", ref, "--hyp", *map(str, systems), "--metrics", "bleu")
    assert plain["bootstrap"]["unit"] == "segment" and "|unit:segment|" in plain["signature"]
