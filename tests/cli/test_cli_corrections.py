"""``mtgui eval`` with --correction, --family, --no-raise-resamples and --equivalence: every
output says what the correction did, and the interval beside a verdict agrees with it."""

from __future__ import annotations

import csv
import json

import pytest

from mtgui.cli.main import main


def systems(write, count: int) -> list[str]:
    """``count`` systems, each a little worse than the one before, and a reference."""
    ref = write("ref.txt", "".join(f"w{i} a b c d e f\n" for i in range(60)))
    paths = []
    for k in range(count):
        lines = "".join(
            f"w{i} a b c d e f\n" if (i + k) % (k + 2) else f"w{i} x\n" for i in range(60)
        )
        paths.append(str(write(f"sys.S{k}.txt", lines)))
    return ["--ref", str(ref), "--hyp", *paths]


def run_json(capsys, *args: str) -> dict:
    assert main(["eval", *args, "--json", "-"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("correction", ["none", "holm", "fdr", "maxt"])
def test_every_correction_shows_an_interval_that_agrees_with_its_verdict(write, capsys, correction):
    report = run_json(capsys, *systems(write, 5), "-m", "bleu,chrf", "--correction", correction)
    assert report["bootstrap"]["correction"] == correction
    for pair in report["pairs"]:
        assert (pair["verdict"] == "~") == (pair["ci_low"] <= 0 <= pair["ci_high"]), pair
        assert pair["mdd"] > 0 and "units_needed" in pair
        assert ("ci_low_uncorrected" in pair) == (correction != "none")
        assert ("p_maxt" in pair) == (correction == "maxt")


def test_holm_and_fdr_stay_short_forms(write, capsys):
    args = systems(write, 3)
    assert run_json(capsys, *args, "--holm")["bootstrap"]["correction"] == "holm"
    assert run_json(capsys, *args, "--fdr")["bootstrap"]["correction"] == "fdr"
    with pytest.raises(SystemExit):
        main(["eval", *args, "--holm", "--correction", "maxt"])


def test_b_is_raised_with_a_note_everywhere_or_refused_in_words(write, capsys, tmp_path):
    args = [*systems(write, 10), "-m", "bleu", "--holm", "--bootstrap", "1000"]
    html = tmp_path / "report.html"
    report = run_json(capsys, *args, "--html", str(html), "--csv", str(tmp_path / "csv"))
    assert report["bootstrap"]["resamples"] == 2000
    assert report["bootstrap"]["resamples_requested"] == 1000
    note = report["bootstrap"]["notes"][0]
    assert note.startswith("The bootstrap drew 2,000 resamples instead of the 1,000 asked for")
    assert "45 comparisons (the pairs of each metric)" in note and note in report["notes"]
    assert "2,000 resamples instead of the 1,000" in html.read_text(encoding="utf-8")
    with (tmp_path / "csv" / "settings.csv").open(encoding="utf-8-sig") as rows:
        assert any("2,000 resamples instead" in row[1] for row in csv.reader(rows))
    assert main(["eval", *args]) == 0
    assert "Note: The bootstrap drew 2,000 resamples" in capsys.readouterr().out
    assert main(["eval", *args, "--no-raise-resamples"]) == 2
    error = capsys.readouterr().err
    assert "with 1,000 resamples Holm's correction over 45 comparisons" in error
    assert "can find no difference" in error and "Traceback" not in error


def test_family_all_is_one_family_said_in_words(write, capsys):
    args = [*systems(write, 4), "-m", "bleu,chrf", "--holm", "--family", "all"]
    report = run_json(capsys, *args)
    assert report["bootstrap"]["family"] == "all"
    basis = report["bootstrap"]["verdict_basis"]
    assert set(basis) == {"bleu", "chrf"}
    assert all(
        "for the 12 pairs of every metric together (one family)" in b for b in basis.values()
    )
    assert "|family:all" in report["signature"]
    assert main(["eval", *args]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "for the 12 pairs of every metric together (one family)" in out


def test_each_metric_says_what_differences_can_go_unseen(write, capsys):
    assert main(["eval", *systems(write, 3), "-m", "bleu"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "On this test set, differences smaller than about" in out
    assert "BLEU can go unseen" in out


def test_equivalence_gives_its_own_verdict_only_with_a_margin(write, capsys, tmp_path):
    ref = write("ref.txt", "".join(f"w{i} a b c d e f\n" for i in range(80)))
    same = [str(write("sys.Copy.txt", "".join(f"w{i} a b c d e f\n" for i in range(80))))]
    same.append(str(write("sys.Twin.txt", "".join(f"w{i} a b c d e f\n" for i in range(80)))))
    args = ["--ref", str(ref), "--hyp", *same, "-m", "bleu"]
    plain = run_json(capsys, *args)
    assert {p["verdict"] for p in plain["pairs"]} == {"~"} and "p_tost" not in plain["pairs"][0]
    report = run_json(capsys, *args, "--equivalence", "bleu=0.01", "--csv", str(tmp_path / "c"))
    assert {p["verdict"] for p in report["pairs"]} == {"="}
    assert report["pairs"][0]["margin"] == 0.01 and report["bootstrap"]["equivalence"]
    with (tmp_path / "c" / "pairs.csv").open(encoding="utf-8-sig") as rows:
        table = list(csv.DictReader(rows))
    assert {row["verdict"] for row in table} == {"="} and "p_tost" in table[0]
    page = tmp_path / "report.html"
    run_json(capsys, *args, "--equivalence", "bleu=0.01", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert '<td class="equal">=</td>' in text and "equivalent within 0.01 BLEU" in text
    scaled = run_json(capsys, *args, "--equivalence", "bleu=1", "--bleu-scale", "100")
    assert scaled["pairs"][0]["margin"] == pytest.approx(1.0)  # shown on the scale it was given


@pytest.mark.parametrize(
    ("spec", "words"),
    [("bleu", "write METRIC=MARGIN"), ("bleu=-1", "positive margin"), ("ter=1", "not among")],
)
def test_a_bad_equivalence_margin_is_refused_in_words(write, capsys, spec, words):
    assert main(["eval", *systems(write, 2), "-m", "bleu", "--equivalence", spec]) == 2
    error = capsys.readouterr().err
    assert words in error and "Traceback" not in error
