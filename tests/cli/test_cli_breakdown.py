"""``mtgui eval --by``: the breakdowns in JSON, CSV and on the terminal, and bad options."""

from __future__ import annotations

import csv
import json

import pytest

from mtgui.cli.main import main
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.breakdown import group_corpus
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.grouping import group_by_attribute
from mtgui.io.demo import load_demo


def read_csv(path):
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_breakdowns_go_to_json_csv_and_the_terminal(tmp_path, write, capsys):
    labels = write("halves.tsv", "line\thalf\n" + "".join(f"{n}\tfirst\n" for n in range(1, 48)))
    report, folder = tmp_path / "report.json", tmp_path / "csv"
    arguments = ["eval", "--demo", "-m", "bleu,chrf", "-b", "200", "--seed", "3"]
    arguments += ["--by", "genre", "--by", "length", "--length-buckets", "15,20", "--by"]
    code = main([*arguments, str(labels), "--json", str(report), "--csv", str(folder)])
    assert code == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    by = {b["by"]: b for b in data["breakdowns"]}
    assert list(by) == ["genre", "length", "halves"]
    genre = by["genre"]
    assert [(g["label"], g["segments"], g["documents"]) for g in genre["groups"]] == [
        ("local", 48, 3),
        ("science", 15, 1),
        ("culture", 32, 2),
    ]
    assert [(g["label"], g["segments"]) for g in by["length"]["groups"]] == [
        ("<15", 2),
        ("[15,20)", 58),
        (">=20", 35),
    ]
    assert [(g["label"], g["segments"]) for g in by["halves"]["groups"]] == [
        ("first", 47),
        ("(none)", 48),
    ]
    # The numbers are those of a run on the group alone, with the same seed.
    corpus = load_demo()
    segments = group_by_attribute(corpus.test_set, "genre").members[2]
    settings = BootstrapSettings(resamples=200, seed=3)
    alone = run_to_end(
        iter_analysis(group_corpus(corpus, segments), ["bleu", "chrf"], MetricSettings(), settings)
    )
    culture = genre["groups"][2]
    assert culture["unit"] == "segment"
    lumen = next(s for s in culture["systems"] if s["name"] == "Lumen")
    interval = alone.bootstrap.interval("Lumen", "bleu")
    assert lumen["scores"]["bleu"]["score"] == interval.score
    assert [lumen["scores"]["bleu"][k] for k in ("ci_low", "ci_high")] == [
        interval.ci_low,
        interval.ci_high,
    ]
    assert len(culture["pairs"]) == 2 * 4 * 3  # metrics x ordered pairs of 4 systems
    pair = alone.bootstrap.pair("bleu", "Lumen", "Ostrich")
    entry = next(
        p for p in culture["pairs"] if (p["metric"], p["x"], p["y"]) == ("bleu", "Lumen", "Ostrich")
    )
    assert (entry["verdict"], entry["p_value"]) == (pair.verdict, pair.p_value)
    small = by["length"]["groups"][0]
    assert small["unit"] is None and small["pairs"] == [] and "too few" in small["notes"][0]
    assert set(small["systems"][0]["scores"]["bleu"]) == {"score"}
    # CSV: a row per group, system and metric; the pairs of the bootstrapped groups.
    rows = read_csv(folder / "breakdown-genre.csv")
    assert rows[0][:7] == ["group", "segments", "documents", "unit", "system", "metric", "score"]
    assert len(rows) == 1 + 3 * 4 * 2
    assert rows[1][:6] == ["local", "48", "3", "segment", "Lumen", "bleu"]
    pairs = read_csv(folder / "breakdown-length-pairs.csv")
    assert len(pairs) == 1 + 2 * 2 * 12  # two groups bootstrapped
    assert (folder / "breakdown-halves.csv").is_file()
    out = capsys.readouterr().out
    assert "Breakdown by genre (the documents' attribute genre): 3 groups" in out
    assert "Group science: 15 segments, 1 document, segments resampled." in out


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--by", "domain"], "no document of the test set has the attribute 'domain'"),
        (["--by", "domain"], "Its documents have: genre"),
        (["--by", "length", "--length-buckets", "20,10"], "must increase, but 10 follows 20"),
        (["--by", "length", "--length-buckets", "10,x"], "'x' is not one"),
        (["--length-buckets", "10,20"], "--by length, which is not asked for"),
        (["--by", "missing.tsv"], "missing.tsv"),
    ],
)
def test_bad_breakdown_options_exit_2_with_a_message(options, words, capsys):
    assert main(["eval", "--demo", "-b", "100", *options]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "Traceback" not in err


def test_a_bad_label_file_is_refused_before_any_work(write, capsys):
    labels = write("doms.tsv", "docid\tdomain\nbakery\tfood\nnowhere\tfood\n")
    assert main(["eval", "--demo", "-b", "100", "--by", str(labels)]) == 2
    err = capsys.readouterr().err
    assert f"{labels}, line 3: document 'nowhere' is not in the test set." in err
    header = write("head.tsv", "id\tdomain\nbakery\tfood\n")
    assert main(["eval", "--demo", "--by", str(header)]) == 2
    assert f"{header}, line 1: this label file's header" in capsys.readouterr().err


def test_family_all_makes_the_breakdowns_groups_one_family_with_the_whole_set(tmp_path):
    report = tmp_path / "report.json"
    arguments = ["eval", "--demo", "-m", "bleu", "-b", "200", "--seed", "3", "--by", "genre"]
    code = main([*arguments, "--correction", "holm", "--family", "all", "--json", str(report)])
    assert code == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    together = "the 24 pairs of every metric on the whole test set and in 3 groups"
    assert any(together in note for note in data["notes"])
    for group in data["breakdowns"][0]["groups"]:
        assert any(together in note for note in group["notes"])
        assert any("Holm's correction over 24 comparisons" in note for note in group["notes"])
    assert data["bootstrap"]["resamples"] == 1000  # 24 pairs need 960
