"""``--scores`` in all its forms, ``--lower-better`` and ``study human --human`` end to end.

Four systems, two segments. The table gives every system one score on both segments, so the
resampled means never move and every pair differs: comet A 0.4 > B 0.3 > C 0.2 > D 0.1 (higher
is better), mqm A 1 < B 2 < C 3 < D 4 (lower is better), so both rank A, B, C, D; MetricX gives
B 3.0 and -1.0 from one number per line (mean 1.0).
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import pytest

from mtgui.cli.main import main
from mtgui.cli.score_specs import metric_names, parse_score_spec, score_specs
from mtgui.engine.core.errors import InputError

SYSTEMS = {"A": (0.4, 1), "B": (0.3, 2), "C": (0.2, 3), "D": (0.1, 4)}


@pytest.fixture
def inputs(write):
    rows = ["system\tline\tcomet\tmqm"]
    rows += [f"{s}\t{line}\t{c}\t{m}" for s, (c, m) in SYSTEMS.items() for line in (1, 2)]
    return {
        "ref": write("ref.txt", "a b c\nd e f\n"),
        "hyps": [write(f"{s}.txt", f"a b {s.lower()}\nd e {s.lower()}\n") for s in SYSTEMS],
        "table": write("scores.tsv", "\n".join(rows) + "\n"),
        "lines": write("metricx.txt", "3.0\n-1.0\n"),
    }


def _args(inputs, *more: str) -> list[str]:
    hyps = [str(h) for h in inputs["hyps"]]
    return ["--ref", str(inputs["ref"]), "--hyp", *hyps, *more]


def _namespace(scores, score_column=None, lower=(), metrics="bleu"):
    return argparse.Namespace(
        scores=[str(s) for s in scores],
        score_column=score_column,
        lower_better=list(lower),
        metrics=metrics,
    )


def test_every_form_of_scores(inputs):
    table, lines = str(inputs["table"]), str(inputs["lines"])
    plain = parse_score_spec(table, "z")
    assert (plain.source.column, plain.source.metric, plain.automatic) == ("z", "human", False)
    column = parse_score_spec(f"{table}:COMET").source
    assert (column.path, column.column, column.metric) == (inputs["table"], "COMET", "comet")
    named = parse_score_spec(f"{table}:mqm=MQM-22").source
    assert (named.column, named.metric, named.system) == ("mqm", "mqm-22", None)
    renamed = parse_score_spec(f"{table}=da", "z").source
    assert (renamed.column, renamed.metric) == ("z", "da")
    one = parse_score_spec(f"{lines}=B:metricx").source
    assert (one.path, one.system, one.metric, one.column) == (inputs["lines"], "B", "metricx", None)


def test_a_path_that_exists_as_given_wins(write):
    odd = write("C:\\data\\da=1.tsv", "system\tline\tscore\n")  # one file name on Linux
    assert parse_score_spec(str(odd)).source.path == odd
    spec = parse_score_spec(f"{odd}:score=da").source
    assert (spec.path, spec.column, spec.metric) == (odd, "score", "da")
    spec = parse_score_spec(f"{odd}=sys:1:mx").source  # the system is all before the last ':'
    assert (spec.path, spec.system, spec.metric) == (odd, "sys:1", "mx")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{table}:comet=bleu", "'bleu' is the name of a metric mtgui computes itself"),
        ("{table}:comet=has space", "cannot name a metric"),
        ("{table}:the score", "cannot name a metric"),
        ("{table}:=x", "names an empty column"),
        ("{lines}=:mx", "names an empty system"),
        ("{missing}:z=x", "names no file"),
    ],
)
def test_scores_errors(inputs, tmp_path, value, message):
    text = value.format(**inputs, missing=tmp_path / "no.tsv")
    with pytest.raises(InputError, match=message):
        parse_score_spec(text)


def test_names_directions_and_metrics(inputs):
    table = inputs["table"]
    args = _namespace([f"{table}:comet", f"{table}:mqm"], lower=["MQM"], metrics="bleu,human")
    specs = score_specs(args)
    assert [(s.source.metric, s.source.higher_is_better) for s in specs] == [
        ("comet", True),
        ("mqm", False),
    ]
    assert metric_names(args) == ("bleu", "human", "comet", "mqm")  # named ones join
    assert metric_names(_namespace([table], metrics="bleu")) == ("bleu",)  # as before
    assert metric_names(_namespace([f"{table}:comet"], metrics="comet,nist")) == ("comet", "nist")
    with pytest.raises(InputError, match="--lower-better names 'mx', but no --scores is named"):
        score_specs(_namespace([f"{table}:comet"], lower=["mx"]))
    with pytest.raises(InputError, match="gives the file twice as 'comet'"):
        score_specs(_namespace([f"{table}:comet", f"{table}:mqm=comet"]))
    with pytest.raises(InputError, match="unknown metric 'mqm'"):
        metric_names(_namespace([f"{table}:comet"], metrics="mqm"))


def test_eval_scores_named_metrics_with_their_directions(inputs, tmp_path, capsys):
    report = tmp_path / "report.json"
    table, lines = inputs["table"], inputs["lines"]
    more = ["--scores", f"{table}:comet", f"{table}:mqm", "--scores", f"{lines}=B:metricx"]
    more += ["--lower-better", "mqm", "--lower-better", "metricx", "--metrics", "bleu"]
    assert main(["eval", *_args(inputs, *more), "-b", "1000", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "Per-segment scores 'mqm' (4 systems, lower is better):" in out
    assert "mqm (lower is better)" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["settings"]["metrics"] == ["bleu", "comet", "mqm", "metricx"]
    assert "comet[ext,higher],mqm[ext,lower],metricx[ext,lower]" in data["signature"]
    scores = {s["name"]: s["scores"] for s in data["systems"]}
    assert scores["A"]["comet"]["score"] == pytest.approx(0.4)
    assert scores["A"]["comet"]["ci_low"] == scores["A"]["comet"]["ci_high"] == pytest.approx(0.4)
    assert scores["A"]["comet"]["rel_ci_low"] is None  # no ratio scale
    assert scores["D"]["mqm"]["score"] == 4.0
    assert scores["B"]["metricx"]["score"] == 1.0
    assert scores["A"]["metricx"]["score"] is None  # A has no MetricX scores
    ranks = {metric: [e["system"] for e in rows] for metric, rows in data["rankings"].items()}
    assert ranks["comet"] == ranks["mqm"] == ["A", "B", "C", "D"]
    pairs = {(p["metric"], p["x"], p["y"]): p["verdict"] for p in data["pairs"]}
    assert pairs["comet", "A", "D"] == ">" and pairs["mqm", "A", "D"] == ">"
    assert pairs["mqm", "D", "A"] == "<"


def test_plain_scores_with_a_column_behave_as_before(inputs, tmp_path, capsys):
    report = tmp_path / "r.json"
    more = ["--scores", str(inputs["table"]), "--score-column", "mqm", "-b", "0"]
    assert main(["eval", *_args(inputs, *more), "--json", str(report)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["settings"]["metrics"] == ["bleu", "nist", "mbleu"]  # human only when asked
    more += ["--metrics", "bleu,human", "--json", str(report), "--overwrite"]
    assert main(["eval", *_args(inputs, *more)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["settings"]["signature"].endswith("metrics:bleu[smooth=mteval],human")
    assert [s["scores"]["human"]["score"] for s in data["systems"]] == [1, 2, 3, 4]
    assert "Per-segment scores (4 systems):" in capsys.readouterr().out


def test_a_count_mismatch_stops_eval_with_both_counts(inputs, write, capsys):
    short = write("short.txt", "0.5\n0.25\n0.1\n")
    assert main(["eval", *_args(inputs, "--scores", f"{short}=B:mx")]) == 2
    assert "has 3 lines, but the test set has 2 segments" in capsys.readouterr().err


def test_human_study_with_lower_is_better_scores_as_the_humans(inputs, tmp_path, capsys):
    report = tmp_path / "study.json"
    table = inputs["table"]
    more = ["--scores", f"{table}:comet", f"{table}:mqm", "--lower-better", "mqm"]
    more += ["--human", "mqm", "--metrics", "bleu", "-b", "200", "--json", str(report)]
    assert main(["study", "human", *_args(inputs, *more)]) == 0
    result = json.loads(report.read_text(encoding="utf-8"))["result"]
    assert result["human"] == "mqm"
    comet = next(c for c in result["correlations"] if c["metric"] == "comet")
    assert comet["pearson"] == pytest.approx(-1.0) and comet["spearman"] == pytest.approx(-1.0)
    assert (comet["pairs"], comet["agree"], comet["opposite"]) == (6, 6, 0)
    assert {c["metric"] for c in result["correlations"]} == {"bleu", "comet"}
    test = next(t for t in result["correlation_tests"] if "comet" in (t["metric_x"], t["metric_y"]))
    agreement = test["agreement_x"] if test["metric_x"] == "comet" else test["agreement_y"]
    assert agreement == pytest.approx(1.0)  # oriented: comet agrees perfectly with mqm
    assert "Metrics against mqm scores" in capsys.readouterr().out


def test_human_study_needs_the_named_scores(inputs, capsys):
    more = ["--scores", f"{inputs['table']}:comet", "--human", "mqm", "-b", "200"]
    assert main(["study", "human", *_args(inputs, *more)]) == 2
    assert "no scores named 'mqm' are loaded" in capsys.readouterr().err


def test_input_paths_are_the_files_of_the_specs(inputs, tmp_path, capsys):
    target = inputs["table"]
    more = ["--scores", f"{target}:comet", "--json", str(target), "--overwrite"]
    assert main(["eval", *_args(inputs, *more)]) == 2
    assert Path(target).read_text(encoding="utf-8").startswith("system")  # never written over


def test_mqm_annotations_give_a_lower_is_better_metric_and_its_categories(inputs, write, capsys):
    """``--mqm``: A has one Minor error per segment, D a Major one; with two raters on B's
    first segment (Major and nothing) its penalty there is their mean, 2.5."""
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    rows = [header]
    for system, (category, severity) in {
        "A.1": ("Fluency/Grammar", "Minor"),
        "B.2": ("No-error", "No-error"),
        "C.3": ("Style/Awkward", "Neutral"),
        "D.4": ("Accuracy/Mistranslation", "Major"),
    }.items():
        rows += [f"{system}\td\t{i}\t{i}\tr1\ts\t<v>t</v>\t{category}\t{severity}" for i in (1, 2)]
    rows.append("B.2\td\t1\t1\tr2\ts\t<v>t</v>\tAccuracy/Omission\tMajor")
    mqm = write("mqm.tsv", "\n".join(rows) + "\n")
    report = Path(str(mqm) + ".json")
    more = ["--mqm", str(mqm), "--mqm-categories", "-m", "bleu", "-b", "200", "--json"]
    assert main(["eval", *_args(inputs, *more, str(report))]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["settings"]["metrics"][1:] == ["mqm", "mqm-fluency", "mqm-style", "mqm-accuracy"]
    assert "mqm[ext,lower]" in data["signature"]
    scores = {s["name"]: s["scores"] for s in data["systems"]}
    assert {n: scores[n]["mqm"]["score"] for n in "ABCD"} == pytest.approx(
        {"A": 1.0, "B": 1.25, "C": 0.0, "D": 5.0}
    )
    assert scores["B"]["mqm-accuracy"]["score"] == pytest.approx(1.25)
    assert scores["A"]["mqm-accuracy"]["score"] == 0.0
    assert main(["eval", *_args(inputs, "--mqm", str(inputs["table"]))]) == 2
    assert "--mqm takes WMT's MQM annotations" in capsys.readouterr().err


def test_wmt_da_scores_on_plain_text_need_docids(inputs, write, tmp_path, capsys):
    """SID 1 is the first segment of the documents sorted by id: with documents d2 (line 1)
    and d10 (line 2), line 2."""
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{s}.{i} 1 50 {i} 1" for i, s in enumerate("ABCD")]
    da = write("ad-seg-scores-is-en.csv", "".join(f"{row} \n" for row in rows))
    more = ["--scores", str(da), "-m", "bleu,human", "-b", "200"]
    assert main(["eval", *_args(inputs, *more)]) == 2
    assert "has no documents" in capsys.readouterr().err
    docids = write("test.docids", "d2\nd10\n")
    report = tmp_path / "segments.csv"
    more += ["--docids", str(docids), "--segments", str(report)]
    assert main(["eval", *_args(inputs, *more)]) == 0
    rows = list(csv.DictReader(report.read_text(encoding="utf-8-sig").splitlines()))
    human = {(r["system"], r["doc_id"]): r["human"] for r in rows}
    assert human["B", "d10"] == "1" and human["B", "d2"] == ""
