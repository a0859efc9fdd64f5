"""``mtgui campaign``: each test set's report is eval's for that set alone, to the bit; the
aggregate follows the sets' verdicts and deltas; the outputs are written; a bad campaign file
exits 2 naming the file, the line and what is wrong."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic_sets import write_set

from mtgui.cli.campaign_file import read_campaign, set_arguments
from mtgui.cli.main import main
from mtgui.engine.core import InputError

SETTINGS = """\
[settings]
metrics = ["bleu", "ter"]
bootstrap = 200
seed = 7
correction = "holm"
"""


def _set_entry(name: str, systems: list[str]) -> str:
    hyps = ", ".join(f'"{name}/{s}.txt"' for s in systems)
    return f'\n[[test_sets]]\nname = "{name}"\nrefs = "{name}/ref.txt"\nhyps = [{hyps}]\n'


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    """Three small sets (the third without C) and their campaign file."""
    monkeypatch.chdir(tmp_path)
    rates = {"A": 0.25, "B": 0.30, "C": 0.45}
    text = SETTINGS
    for k in range(3):
        systems = ["A", "B", "C"] if k < 2 else ["A", "B"]
        write_set(tmp_path / f"s{k}", {s: rates[s] for s in systems}, count=30, seed=k)
        text += _set_entry(f"s{k}", systems)
    path = tmp_path / "campaign.toml"
    path.write_text(text)
    return path


def test_each_set_is_eval_alone_and_the_aggregate_follows_the_sets(campaign, capsys):
    code = main(["campaign", str(campaign), "--json", "c.json", "--html", "c.html", "--csv", "out"])
    assert code == 0, capsys.readouterr().err
    report = json.loads(Path("c.json").read_text())
    folder = campaign.parent
    alone = main(
        [
            *("eval", "--ref", str(folder / "s0/ref.txt"), "--hyp"),
            *(str(folder / f"s0/{s}.txt") for s in "ABC"),
            *("-m", "bleu,ter", "-b", "200", "--seed", "7", "--correction", "holm"),
            *("--json", "alone.json"),
        ]
    )
    assert alone == 0
    assert report["test_sets"][0]["report"] == json.loads(Path("alone.json").read_text())
    sets = {s["name"]: s["report"] for s in report["test_sets"]}
    pairs = {(p["metric"], p["x"], p["y"]): p for p in report["aggregate"]["pairs"]}
    assert ("bleu", "A", "C") in pairs and pairs[("bleu", "A", "C")]["sets"] == 2
    for (metric, x, y), pair in pairs.items():
        verdicts = [
            next(
                q["verdict"]
                for q in sets[name]["pairs"]
                if (q["metric"], q["x"], q["y"]) == (metric, x, y)
            )
            for name in pair["set_names"]
        ]
        assert pair["sets_better"] == verdicts.count(">")
        assert pair["sets_worse"] == verdicts.count("<")
        assert pair["mean_delta"] == pytest.approx(sum(pair["deltas"].values()) / pair["sets"])
        assert pair["verdict"] in "<>~" and 0 < pair["p_value"] <= 1
        assert pair["better_on_at_least"] <= pair["sets"]
    assert pairs[("ter", "A", "C")]["verdict"] == ">"
    assert "Across the test sets" in Path("c.html").read_text()
    with open("out/aggregate.csv", encoding="utf-8-sig") as table:
        assert len(list(csv.DictReader(table))) == len(pairs)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[settings]\nbootstrap = \n", 2, "not valid TOML"),
        (
            '[settings]\nbootstrapp = 100\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n',
            2,
            "not an option of mtgui eval; did you mean 'bootstrap'?",
        ),
        (
            '[settings]\nseed = 1\nmetircs = ["bleu"]\n[[test_sets]]\nname="a"\nrefs="r"\n'
            'hyps="h"\n',
            3,
            "did you mean 'metrics'?",
        ),
        (
            '[settings]\nmetrics = "bleu,blue"\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n',
            2,
            "setting 'metrics': unknown metric 'blue'",
        ),
        (
            '[settings]\nbootstrap = "many"\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n',
            2,
            "bootstrap",
        ),
        ('[settings]\nref = "x"\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n', 2, "cannot be"),
        (
            '[[test_sets]]\nname = "a"\nrefs = "r"\nhyps = "h"\n\n'
            '[[test_sets]]\nname = "b"\nhyp = "h"\n',
            8,
            "unknown key 'hyp'; did you mean 'hyps'?",
        ),
        ('[[test_sets]]\nname = "a"\nhyps = "h"\n', 1, "has no 'refs'"),
        ('[[test_sets]]\nname = "a"\nrefs = "r"\nhyps = 3\n', 4, "'hyps' must be"),
        ("[settings]\nseed = 1\n", None, "no test set"),
        ('seed = 1\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n', 1, "unknown table or key"),
        ('[settings]\nlatex = "x.tex"\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n', 2, "cannot"),
        ("[settings]\nsummary = true\n[[test_sets]]\nname='a'\nrefs='r'\nhyps='h'\n", 2, "cannot"),
        ('[settings]\nmqm = "m.tsv"\n[[test_sets]]\nname="a"\nrefs="r"\nhyps="h"\n', 2, "cannot"),
        ("[settings]\n# caf\xe9\n", 2, "not UTF-8"),
        (
            "[settings]\nmetrics = ['bleu']\nseed = -1\n"
            "[[test_sets]]\nname='a'\nrefs='r'\nhyps='h'\n",
            3,
            "seed",
        ),
        (
            "[settings]\nseed = 1\nbootstrap = 0\n[[test_sets]]\nname='a'\nrefs='r'\nhyps='h'\n",
            3,
            "needs the bootstrap",
        ),
    ],
)
def test_a_bad_campaign_file_exits_2_with_file_line_and_problem(
    tmp_path, capsys, text, line, words
):
    path = tmp_path / "bad.toml"
    path.write_bytes(text.encode("latin-1"))
    assert main(["campaign", str(path)]) == 2
    error = capsys.readouterr().err
    assert str(path) in error and words in error
    if line is not None:
        assert f"line {line}" in error


def test_a_metric_named_by_a_sets_scores_is_valid_for_that_set_only(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.tsv").write_text("z\n0.5\n")
    path = tmp_path / "c.toml"
    entry = '[[test_sets]]\nname = "{0}"\nrefs = "r"\nhyps = "h"\nscores = "{0}.tsv:z=comet"\n'
    settings = '[settings]\nmetrics = ["bleu", "comet"]\n'
    path.write_text(settings + entry.format("a") + entry.format("b"))
    assert read_campaign(path).settings == ("--metrics", "bleu,comet")
    path.write_text(
        settings + entry.format("a") + '[[test_sets]]\nname = "b"\nrefs = "r"\nhyps = "h"\n'
    )
    with pytest.raises(InputError) as refused:
        read_campaign(path)
    assert refused.value.line == 2
    assert "setting 'metrics': test set 'b': unknown metric 'comet'" in refused.value.problem


def test_a_missing_file_in_a_set_names_the_set(campaign, capsys):
    campaign.write_text(campaign.read_text().replace('"s1/B.txt"', '"s1/missing.txt"'))
    assert main(["campaign", str(campaign)]) == 2
    error = capsys.readouterr().err
    assert "test set 's1'" in error and "missing.txt" in error


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_campaign_file_that_is_no_regular_file_is_refused_without_reading(tmp_path, capsys, kind):
    path = {"fifo": tmp_path / "c.toml", "device": Path("/dev/zero"), "folder": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)  # reading it would wait for a writer forever
    assert main(["campaign", str(path)]) == 2
    error = capsys.readouterr().err
    assert str(path) in error and "campaign file cannot be read" in error


def test_no_output_replaces_a_sets_source_or_document_ids_even_with_overwrite(campaign, capsys):
    (campaign.parent / "s1/src.txt").write_text((campaign.parent / "s1/ref.txt").read_text())
    campaign.write_text(
        campaign.read_text().replace('refs = "s1/', 'src = "s1/src.txt"\nrefs = "s1/')
    )
    before = (campaign.parent / "s1/src.txt").read_bytes()
    assert main(["campaign", str(campaign), "--json", "s1/src.txt", "--overwrite"]) == 2
    error = capsys.readouterr().err
    assert "s1/src.txt" in error and "input" in error and "--src" in error
    assert (campaign.parent / "s1/src.txt").read_bytes() == before


def test_hostile_names_reach_the_csv_inert_and_dashes_stay_names(campaign, capsys):
    """A test set named like a spreadsheet formula, one with a terminal's control sequence,
    a system file and a system name that begin with '-' (which eval's parser would take for
    options)."""
    folder = campaign.parent
    (folder / "s0/-A.txt").write_text((folder / "s0/A.txt").read_text())
    text = campaign.read_text().replace('"s0/A.txt"', '"s0/-A.txt"')
    text = text.replace('name = "s1"', 'name = "=HYPERLINK(\\"http://x\\")"')
    text = text.replace(
        'hyps = ["s2/A.txt", "s2/B.txt"]', 'hyps = ["s2/A.txt", "s2/B.txt"]\nnames = ["-A", "+B"]'
    )
    text = text.replace('name = "s0"', 'name = "s0\\u001b]0;title\\u0007"')
    campaign.write_text(text)
    assert main(["campaign", str(campaign), "--csv", "out"]) == 0, capsys.readouterr().err
    assert "\x1b" not in capsys.readouterr().out
    with open("out/scores.csv", encoding="utf-8-sig") as table:
        rows = list(csv.DictReader(table))
    assert {r["test_set"] for r in rows} == {"s0\x1b]0;title\x07", '\'=HYPERLINK("http://x")', "s2"}
    assert {r["system"] for r in rows if r["test_set"] == "s2"} == {"'-A", "'+B"}
    assert {r["system"] for r in rows if r["test_set"].startswith("s0")} == {"'-A", "B", "C"}


def test_no_output_goes_into_a_sets_folder_of_outputs(tmp_path, capsys):
    write_set(tmp_path / "systems", {"A": 0.2, "B": 0.3}, count=5)
    (tmp_path / "systems/ref.txt").rename(tmp_path / "ref.txt")
    path = tmp_path / "c.toml"
    path.write_text('[[test_sets]]\nname = "a"\nrefs = "ref.txt"\nhyps = "systems"\n')
    assert main(["campaign", str(path), "--csv", str(tmp_path / "systems")]) == 2
    assert "folder read as input (test set 'a' --hyp" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "systems").iterdir()) == ["A.txt", "B.txt"]


_KEYS = ["name", "refs", "hyps", "src", "docids", "scores", "names", "metrics", "bootstrap"]
_KEYS += ["seed", "correction", "paired_ar", "equivalence", "lowercase", "test_sets", "x"]
_VALUES = ['"a"', '""', '"-x"', "1", "-1", "0", "1e400", "nan", "true", "[]", '["a", "b"]']
_VALUES += ["[1, 2]", "{}", "{a = 1}", "1979-05-27", "[[]]", '"\\u0000"', '"holm"', '"../x"']
_HEADERS = ["[settings]", "[[test_sets]]", "[test_sets]", "[[settings]]", "[other]", "[a.b]"]
_LINE = st.one_of(
    st.sampled_from(_HEADERS),
    st.builds("{} = {}".format, st.sampled_from(_KEYS), st.sampled_from(_VALUES)),
    st.text(max_size=8),
)


@settings(
    max_examples=80,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(lines=st.lists(_LINE, max_size=10))
def test_any_campaign_text_is_read_or_refused_in_words(tmp_path, lines):
    """Whatever the file holds, reading it gives a campaign or an InputError, never another
    exception (settings, sets and eval's arguments for each set)."""
    path = tmp_path / "fuzz.toml"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    try:
        spec = read_campaign(path)
        for test_set in spec.test_sets:
            set_arguments(spec, test_set)
    except InputError as error:
        assert error.path == path


def test_the_windows_campaign_protects_every_file_it_read_from_its_exports(campaign):
    """The window's run (campaign_steps) hands its exports the inputs: scores files too."""
    from mtgui.cli.campaign_steps import campaign_steps

    scores = campaign.parent / "s1/human.tsv"
    scores.write_text("system\tline\tscore\n" + "".join(f"A\t{i}\t0.5\n" for i in range(1, 31)))
    campaign.write_text(
        campaign.read_text().replace('refs = "s1/', 'scores = "s1/human.tsv"\nrefs = "s1/')
    )
    steps = campaign_steps(campaign)
    with pytest.raises(StopIteration) as done:
        while True:
            next(steps)
    inputs = {path.resolve() for path in done.value.value.inputs}
    assert scores.resolve() in inputs and (campaign.parent / "s2/B.txt").resolve() in inputs
