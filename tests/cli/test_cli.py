"""The command line: what it prints, its exit codes, its messages."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtgui import __version__
from mtgui.cli.main import main

REF = (
    '<refset setid="t" srclang="en" trglang="de"><doc docid="d1" sysid="ref">'
    '<seg id="1">Hallo Welt</seg><seg id="2">Tschüss</seg></doc></refset>\n'
)


@pytest.fixture
def inputs(write):
    return {
        "ref": write("ref.sgm", REF),
        "a": write("run.alpha.de", "Hallo Welt\nTschüss\n"),
        "b": write("run.beta.de", "Hallo\nTschau\n"),
        "short": write("run.short.de", "Hallo\n"),
        "scores": write(
            "human.tsv", "system\tline\tscore\nalpha\t1\t80\nalpha\t1\t60\nbeta\t2\t10\n"
        ),
    }


def test_eval_prints_what_was_loaded(inputs, capsys):
    code = main(
        [
            "eval",
            "--ref",
            str(inputs["ref"]),
            "--hyp",
            str(inputs["a"]),
            str(inputs["b"]),
            "--scores",
            str(inputs["scores"]),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Test set: 2 segments in 1 document (t, en-de)" in out
    assert "References (1):\n  ref  ref.sgm" in out
    assert "Systems (2):\n  alpha  run.alpha.de\n  beta   run.beta.de" in out
    assert "alpha  1 of 2 segments scored, 2 judgments (human.tsv)" in out


def test_names_override_file_names(inputs, capsys):
    args = ["eval", "-r", str(inputs["ref"]), "-t", str(inputs["a"]), "-t", str(inputs["b"])]
    assert main([*args, "--name", "A", "--name", "B"]) == 0
    assert "  A  run.alpha.de\n  B  run.beta.de" in capsys.readouterr().out
    assert main([*args, "--name", "beta=Gamma"]) == 0
    assert "  alpha  run.alpha.de\n  Gamma  run.beta.de" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--hyp", "{a}"],
            "mtgui: no reference given. Name the reference file(s) with --ref, or a test set of "
            "sacreBLEU's with --test-set NAME -l PAIR.\n",
        ),
        (["--ref", "{ref}"], "mtgui: no system output given."),
        (
            ["--ref", "{ref}", "--hyp", "{short}"],
            "run.short.de: the system output file has 1 line, but the test set has 2 segments",
        ),
        (
            ["--ref", "{ref}", "--hyp", "{a}", "{a}"],
            "run.alpha.de: this file is given twice as system output (--hyp).",
        ),
        (
            ["--ref", "{ref}", "--hyp", "{a}", "{b}", "--name", "x", "--name", "x"],
            "two systems are both named 'x' (from run.alpha.de and from run.beta.de)",
        ),
        (
            ["--ref", "{ref}", "--hyp", "{a}", "--name", "x", "--name", "y"],
            "2 names were given with --name, but 1 system is loaded (run.alpha)",
        ),
        (
            ["--ref", "{a}", "--hyp", "{ref}"],
            "ref.sgm: this NIST SGML file holds a reference (<refset>), but it was given as "
            "system output (--hyp).",
        ),
        (["--ref", "{ref}", "--hyp", "{a}", "--scores", "{ref}"], "not a table of scores"),
        (["--ref", "{ref}", "--hyp", "missing.txt"], "missing.txt: there is no such file."),
        (
            ["--demo", "--ref", "{ref}", "--hyp", "{a}"],
            "--demo evaluates the bundled demo data; --ref, --hyp cannot be given with it. "
            "Leave out --demo",
        ),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(inputs, capsys, args, message):
    code = main(["eval", *(a.format(**{k: str(v) for k, v in inputs.items()}) for a in args)])
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert captured.err.startswith("mtgui: ")
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_internal_error_exits_1_with_a_short_message(inputs, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("mtgui.cli.main.assemble", broken)
    code = main(["eval", "--ref", str(inputs["ref"]), "--hyp", str(inputs["a"])])
    err = capsys.readouterr().err
    assert code == 1
    assert "internal error (ZeroDivisionError: boom). This is a bug in mtgui" in err
    assert "Traceback" not in err
    assert main(["--debug", "eval", "--ref", str(inputs["ref"]), "--hyp", str(inputs["a"])]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_demo_data_evaluates(capsys):
    assert main(["eval", "--demo"]) == 0
    out = capsys.readouterr().out
    assert "Test set: 95 segments in 6 documents (mtgui-demo, xx-en)" in out
    assert "References (2):" in out
    assert "Systems (4):\n  Lumen " in out


def test_argument_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["eval", "--bogus"])
    assert caught.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mtgui", *args], capture_output=True, text=True, cwd=cwd
    )


def test_module_entry_point_help_and_version(tmp_path):
    help_text = run("eval", "--help", cwd=tmp_path)
    assert help_text.returncode == 0
    for option in (
        "--ref",
        "--hyp",
        "--src",
        "--scores",
        "--score-column",
        "--name",
        "--encoding",
        "--demo",
        "NIST mteval SGML",
        "WMT XML",
        "plain text",
    ):
        assert option in help_text.stdout
    version = run("--version", cwd=tmp_path)
    assert version.stdout.strip() == f"mtgui {__version__}"


def test_module_entry_point_exit_code_on_bad_input(tmp_path):
    result = run("eval", "--ref", "nope.sgm", "--hyp", "nope.txt", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "mtgui: nope.sgm: there is no such file. A relative path is read from the current "
        f"folder, {tmp_path.resolve()}.\n"
    )


def eval_args(inputs, *extra):
    return [
        "eval",
        "--ref",
        str(inputs["ref"]),
        "--hyp",
        str(inputs["a"]),
        str(inputs["b"]),
        *extra,
    ]


def test_score_table_is_printed(inputs, capsys):
    assert main(eval_args(inputs, "--metrics", "bleu,chrf,ter,wer")) == 0
    out = capsys.readouterr().out
    assert "Scores (tok:13a|case:mixed|nist-info:mteval|metrics:bleu[smooth=mteval],chrf[" in out
    lines = out.splitlines()
    header = lines.index("System    BLEU      chrF      TER     WER")
    assert lines[header + 1] == "alpha   1.0000  100.0000   0.0000  0.0000"
    assert lines[header + 2].startswith("beta    0.")


def test_json_report_to_stdout_has_the_stable_shape(inputs, capsys):
    assert main(eval_args(inputs, "--json", "-", "--metrics", "bleu,nist,mbleu")) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {
        "mtgui_version",
        "settings",
        "test_set",
        "notes",
        "systems",
        "pairs",
        "rankings",
        "bootstrap",
        "signature",
        "human_agreement_source",  # BLEU has a fit (Kocmi et al. 2024)
        "human_agreement_fits",
    }
    assert report["bootstrap"]["resamples"] == 2000 and report["bootstrap"]["seed"] == 12345
    assert report["settings"]["metrics"] == ["bleu", "nist", "mbleu"]
    assert report["test_set"] == {"segments": 2, "documents": 1, "references": ["ref"]}
    alpha = report["systems"][0]
    assert alpha["name"] == "alpha"
    assert alpha["scores"]["bleu"]["score"] == 1.0
    assert set(alpha["scores"]["nist"]) >= {"score", "length_penalty", "precision_score"}
    assert [row["n"] for row in alpha["details"]["bleu"]] == [1, 2, 3, 4]
    assert [row["n"] for row in alpha["details"]["nist"]] == [1, 2, 3, 4, 5]
    bleu = alpha["scores"]["bleu"]
    assert set(bleu) >= {
        "median",
        "mean",
        "std",
        "rsd",
        "ci_low",
        "ci_high",
        "rel_ci_low",
        "rel_ci_high",
    }
    assert bleu["ci_low"] <= bleu["median"] <= bleu["ci_high"]
    pair = next(
        p for p in report["pairs"] if (p["metric"], p["x"], p["y"]) == ("bleu", "alpha", "beta")
    )
    assert set(pair) == {
        "metric",
        "x",
        "y",
        "delta",
        "ci_low",
        "ci_high",
        "win_fraction",
        "p_value",
        "p_value_sacrebleu",
        "verdict",
        "pair_alpha",  # the alpha the pair was decided at, and what it could not see
        "mdd",
        "units_needed",
        "win_rate",
        "loss_rate",
        "human_agreement",  # how often humans would agree with the delta (Kocmi et al. 2024)
    }
    assert len(report["pairs"]) == 3 * 2  # ordered pairs x metrics
    assert report["signature"].startswith("mtgui:")


def test_without_bootstrap_the_report_has_scores_only(inputs, capsys):
    assert main(eval_args(inputs, "--json", "-", "--bootstrap", "0")) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"mtgui_version", "settings", "test_set", "notes", "systems"}
    assert set(report["systems"][0]["scores"]["bleu"]) == {
        "score",
        "bp",
        "ratio",
        "hyp_length",
        "ref_length",
    }


def test_json_and_segments_files_are_written_and_never_silently_replaced(inputs, capsys, tmp_path):
    report, segments = tmp_path / "report.json", tmp_path / "segments.csv"
    args = eval_args(inputs, "--json", str(report), "--segments", str(segments))
    assert main(args) == 0
    assert json.loads(report.read_text())["systems"][1]["name"] == "beta"
    rows = segments.read_text(encoding="utf-8-sig").splitlines()
    assert rows[0].startswith("system,segment,doc_id,seg_id,bleu,nist,nist_info_1,")
    assert rows[1].startswith("alpha,1,d1,1,1,")
    assert len(rows) == 1 + 2 * 2
    capsys.readouterr()
    assert main(args) == 2
    assert "report.json: the file already exists." in capsys.readouterr().err
    assert main([*args, "--overwrite"]) == 0
    assert main(eval_args(inputs, "--json", str(inputs["ref"]), "--overwrite")) == 2
    assert "this is one of the input files" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize(
    ("option", "case", "tokenize"),
    [
        (["--lowercase"], "full", "13a"),
        (["-lc", "ascii"], "ascii", "13a"),
        (["--tokenize", "char"], "sensitive", "char"),
    ],
)
def test_case_and_tokenizer_options(inputs, capsys, option, case, tokenize):
    assert main(eval_args(inputs, *option, "--json", "-")) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert (settings["case"], settings["tokenize"]) == (case, tokenize)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--metrics", "bleu,meteor"], "unknown metric 'meteor'"),
        (["--metrics", "human"], "the human metric needs per-segment scores"),
    ],
)
def test_bad_metric_choices_exit_2(inputs, capsys, option, message):
    assert main(eval_args(inputs, *option)) == 2
    assert message in capsys.readouterr().err


def test_progress_is_shown_only_at_a_terminal(inputs, capsys, monkeypatch):
    assert main(eval_args(inputs)) == 0
    assert "scoring:" not in capsys.readouterr().err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(eval_args(inputs)) == 0
    err = capsys.readouterr().err
    assert "scoring: 2/2" in err
    assert "bootstrap: 2000/2000" in err


def test_csv_reports_open_as_spreadsheets(inputs, capsys, tmp_path):
    folder = tmp_path / "reports"
    args = eval_args(
        inputs,
        "--csv",
        str(folder),
        "--samples",
        "--bootstrap",
        "200",
        "--paired-ar",
        "200",
        "--holm",
    )
    assert main(args) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "grid-bleu.csv",
        "grid-mbleu.csv",
        "grid-nist.csv",
        "pairs.csv",
        "samples.csv",
        "scores.csv",
        "settings.csv",
    ]
    raw = (folder / "scores.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs for UTF-8
    with (folder / "scores.csv").open(encoding="utf-8-sig", newline="") as handle:
        scores = list(csv.DictReader(handle))
    assert [row["system"] for row in scores[:2]] == ["alpha", "beta"]
    assert float(scores[0]["score"]) == 1.0 and scores[0]["best_rank"] == "1"
    with (folder / "pairs.csv").open(encoding="utf-8-sig", newline="") as handle:
        pairs = list(csv.DictReader(handle))
    assert len(pairs) == 6 and all(row["p_value_ar"] and row["p_holm"] for row in pairs)
    grid = (folder / "grid-bleu.csv").read_text(encoding="utf-8-sig").splitlines()
    assert grid[0] == ",alpha,beta"
    assert grid[1].startswith("alpha,,")
    samples = (folder / "samples.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(samples) == 1 + 200
    with (folder / "settings.csv").open(encoding="utf-8-sig", newline="") as handle:
        settings = {row["setting"]: row["value"] for row in csv.DictReader(handle)}
    assert settings["unit"] == "segment" and settings["unit_requested"] == "auto"
    assert settings["correction"] == "holm" and settings["resamples"] == "200"
    assert settings["signature"].startswith("mtgui:") and "|unit:segment|" in settings["signature"]
    capsys.readouterr()
    assert main(args) == 2  # the reports exist now
    assert "scores.csv: the file already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "message"),
    [(["--bootstrap", "50"], "from 100 to 100,000"), (["--ci", "1.5"], "confidence level")],
)
def test_bad_bootstrap_settings_exit_2(inputs, capsys, option, message):
    assert main(eval_args(inputs, *option)) == 2
    assert message in capsys.readouterr().err


def test_a_folder_of_system_outputs(inputs, capsys, tmp_path):
    folder = tmp_path / "systems"
    folder.mkdir()
    (folder / "one.txt").write_text("Hallo Welt\nTschüss\n", encoding="utf-8")
    (folder / "two.txt").write_text("Hallo\nTschau\n", encoding="utf-8")
    (folder / ".hidden").write_text("x\n", encoding="utf-8")
    assert main(["eval", "--ref", str(inputs["ref"]), "--hyp", str(folder), "-b", "0"]) == 0
    assert "Systems (2):\n  one  one.txt\n  two  two.txt" in capsys.readouterr().out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["eval", "--ref", str(inputs["ref"]), "--hyp", str(empty)]) == 2
    assert "empty: this folder holds no files." in capsys.readouterr().err


def test_demo_with_the_options_of_eval_and_of_a_study_that_name_no_files(capsys):
    """--demo is refused only with files of one's own: a study's --runs is a count."""
    assert main(["eval", "--demo", "-b", "100", "-m", "bleu", "--runs", "X", "a", "b"]) == 2
    assert "--runs cannot be given with it" in capsys.readouterr().err
    study = ["study", "resamples", "--demo", "-m", "bleu", "--sizes", "1000"]
    assert main([*study, "--stability-sizes", "100", "--runs", "2"]) == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["eval", "--demo", "--jsn", "r.json"],
            "unrecognized arguments: --jsn r.json. Did you mean --json?",
        ),
        (["study", "size", "--demo", "--repeets", "3"], "Did you mean --repeats?"),
        (["eval", "ref.txt", "sys.txt"], "Files and values go after their option (--ref FILE"),
        (["eval", "--demo", "-m", "bleu", "chrf"], "give --metrics one comma-separated list"),
        (["eval", "--demo", "--name", "A", "B"], "repeat --ref, --name or --by for several"),
    ],
)
def test_an_unrecognized_argument_says_what_was_likely_meant(capsys, args, said):
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2
    assert said in capsys.readouterr().err
