"""``mtgui study``: the four studies end to end on the demo data, their files and their errors."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from mtgui import __version__
from mtgui.cli.main import main
from mtgui.io.demo import demo_folder, load_demo
from mtgui.report.study_tables import CSV_FILES

SMALL = {
    "size": ["--bootstrap", "100", "--repeats", "2", "--fractions", "50%,100%"],
    "refs": ["--bootstrap", "100", "--repeats", "2", "--fractions", "0.5,1"],
    "resamples": ["--sizes", "100,300", "--stability-sizes", "100,200", "--runs", "2"],
    "human": ["--bootstrap", "200"],
}


@pytest.fixture(scope="module")
def human_scores(tmp_path_factory):
    """Per-segment scores of the demo systems (by document and segment id), a little noisy."""
    test_set = load_demo().test_set
    rng = np.random.default_rng(5)
    path = tmp_path_factory.mktemp("scores") / "human.tsv"
    lines = ["system\tdocid\tsegid\tscore"]
    for system, level in {"Lumen": 80, "Quill": 78, "Tessera": 60, "Ostrich": 40}.items():
        for doc, seg in zip(test_set.doc_ids, test_set.seg_ids, strict=True):
            lines.append(f"{system}\t{doc}\t{seg}\t{level + rng.normal(0, 5):.2f}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def study_args(study: str, human_scores, *more: str) -> list[str]:
    """The demo data (for the human study, its files, to load scores with them)."""
    inputs = ["--demo"]
    if study == "human":
        folder = demo_folder()
        inputs = ["--ref", str(folder / "reference.sgm"), "--hyp", str(folder / "systems")]
        inputs += ["--scores", str(human_scores)]
    return ["study", study, *inputs, *SMALL[study], *more]


def read_csv(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\ufeff")  # a byte-order mark, for Excel
    return list(csv.reader(text[1:].splitlines()))


@pytest.mark.parametrize("study", list(SMALL))
def test_each_study_prints_its_tables_and_writes_json_and_csv(
    study, human_scores, tmp_path, capsys
):
    report, folder = tmp_path / "study.json", tmp_path / "tables"
    code = main(study_args(study, human_scores, "--json", str(report), "--csv", str(folder)))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Test set: 95 segments in 6 documents" in captured.out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["study"] == study and data["signature"].startswith("mtgui:")
    assert data["test_set"]["references"] == ["A", "B"]
    assert f"Signature: {data['signature']}" in captured.out
    written = sorted(p.name for p in folder.iterdir())
    assert written == sorted(CSV_FILES[study])
    settings = dict(read_csv(folder / f"{study}-settings.csv")[1:])
    assert settings["study"] == study and settings["signature"] == data["signature"]
    assert settings["mtgui"] == __version__
    assert any(key.endswith("seed") for key in settings)  # the bootstrap's, nested or not
    check = {"size": check_size, "refs": check_refs, "resamples": check_resamples}
    check.get(study, check_human)(data["result"], folder, captured.out)


def check_size(result, folder, out):
    assert len(result["rows"]) == 4 * 3 * 2  # systems x metrics x fractions
    rows = read_csv(folder / "size.csv")
    assert rows[0][:4] == ["system", "metric", "fraction", "pieces"]
    assert len(rows) == 1 + 24
    assert {r[2] for r in rows[1:]} == {"0.5", "1.0"}
    assert len(read_csv(folder / "size-pairs.csv")) == 1 + 3 * 6 * 2  # metrics x pairs x sizes
    assert len(read_csv(folder / "size-separation.csv")) == 1 + 3 * 6
    assert "Rule of thumb on this data: doubling the test set narrows the CI by" in out


def check_refs(result, folder, out):
    assert [len(s) for s in result["subsets"]] == [1, 1, 2]
    assert len(read_csv(folder / "refs.csv")) == 1 + 2 * 4 * 3  # references x systems x metrics
    assert len(read_csv(folder / "refs-size.csv")) == 1 + 2 * 4 * 3 * 2
    assert "BLEU: median and relative CI" in out and "2 refs" in out


def check_resamples(result, folder, out):
    rows = read_csv(folder / "resamples.csv")
    assert rows[0][:3] == ["resamples", "system", "metric"]
    assert [r[0] for r in rows[1:]] == ["100"] * 12 + ["300"] * 12
    assert len(read_csv(folder / "resamples-stability.csv")) == 1 + 2 * 12
    assert result["seeds"] and "B = 300" in out


def check_human(result, folder, out):
    correlations = read_csv(folder / "correlations.csv")
    assert [r[0] for r in correlations[1:]] == ["bleu", "nist", "mbleu"]
    pearson = {r["metric"]: r["pearson"] for r in result["correlations"]}
    assert all(0.9 < value <= 1 for value in pearson.values())  # the demo's systems are ordered
    assert read_csv(folder / "disagreements.csv")[0][:4] == ["kind", "metric", "x", "y"]
    assert {i["metric"] for i in result["intervals"]} == {"bleu", "nist", "mbleu", "human"}
    assert "System-level correlation with the human scores" in out
    for row in result["correlations"]:  # 4 systems: Fisher's z is defined, and wider
        assert row["pearson_fisher_low"] < row["pearson_segments_low"] <= row["pearson"]
    tests = read_csv(folder / "correlation-tests.csv")
    assert tests[0][:2] == ["metric_x", "metric_y"] and len(tests) == 1 + 3  # pairs of metrics
    assert len(result["correlation_tests"]) == 3
    assert {"williams_t", "williams_p_value", "bootstrap_p_value"} <= set(tests[0])
    assert "Does one metric agree with the humans better than another?" in out


def test_json_to_standard_output_is_the_only_output(capsys):
    assert main(["study", "resamples", "--demo", *SMALL["resamples"], "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["study"] == "resamples" and len(data["result"]["rows"]) == 24


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["study", "human", "--demo"], "the human study needs per-segment human scores"),
        (
            ["study", "size", "--demo", "--fractions", "0.5,1.5"],
            "the fractions of the test set must be above 0 and at most 1",
        ),
        (["study", "size", "--demo", "--bootstrap", "0"], "a study needs the bootstrap"),
        (["study", "resamples", "--demo", "--runs", "1"], "number of repeated runs"),
        (["study", "refs", "--ref", "nowhere.sgm", "--hyp", "x.txt"], "nowhere.sgm"),
    ],
)
def test_bad_input_is_a_message_and_exit_code_2(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("mtgui: ") and message in err
    assert "Traceback" not in err


def test_existing_files_are_kept_unless_overwrite(tmp_path, capsys):
    report = tmp_path / "study.json"
    report.write_text("keep", encoding="utf-8")
    args = ["study", "resamples", "--demo", *SMALL["resamples"], "--json", str(report)]
    assert main(args) == 2
    assert "the file already exists" in capsys.readouterr().err
    assert report.read_text(encoding="utf-8") == "keep"
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "resamples.csv").write_text("keep", encoding="utf-8")
    assert main(["study", "resamples", "--demo", *SMALL["resamples"], "--csv", str(folder)]) == 2
    assert (folder / "resamples.csv").read_text(encoding="utf-8") == "keep"
    assert main([*args, "--csv", str(folder), "--overwrite"]) == 0
    assert json.loads(report.read_text(encoding="utf-8"))["study"] == "resamples"
    assert read_csv(folder / "resamples.csv")[0][0] == "resamples"


def test_the_study_options_are_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["study", "size", "--help"])
    out = capsys.readouterr().out
    assert "--repeats" in out and "--agreement" in out and "(default: 500)" in out
    assert "--paired-ar" not in out and "--segments" not in out
