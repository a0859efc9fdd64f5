"""The Python API (mtgui.evaluate, mtgui.read): the command line's numbers to the bit."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from shared_corpora import SHARED_DATA, golden
from synthetic_sets import write_set

import mtgui
from mtgui.cli.main import main
from mtgui.engine.core.errors import InputError
from mtgui.io.demo import demo_inputs
from mtgui.io.writers import json_text

FAST = {"resamples": 300, "seed": 7}


def eval_json(capsys, *args: str) -> str:
    """What ``mtgui eval ... --json -`` writes."""
    assert main(["eval", *args, "--json", "-"]) == 0
    return capsys.readouterr().out


def demo_files() -> tuple[list[Path], list[Path]]:
    inputs = demo_inputs()
    return [inputs[0][0]], [path for path, _ in inputs[1:]]


def test_to_json_is_what_eval_writes_on_the_demo(capsys):
    refs, systems = demo_files()
    cli = eval_json(
        capsys,
        *("-r", *map(str, refs), "-t", *map(str, systems)),
        *("-b", "300", "--seed", "7", "-m", "bleu,chrf,ter", "--holm", "--bleu-scale", "100"),
    )
    api = mtgui.evaluate(
        refs, systems, metrics=["bleu", "chrf", "ter"], correction="holm", bleu_scale=100, **FAST
    )
    assert api.to_json() == cli


@pytest.mark.shared
@pytest.mark.skipif(
    not SHARED_DATA.is_dir(), reason=f"the shared WMT data is absent ({SHARED_DATA})"
)
def test_to_json_is_what_eval_writes_on_wmt21_plain_text_with_two_references(capsys):
    dataset = "wmt21-newstest2021-de-en-2ref"
    info, folder = golden(dataset), SHARED_DATA / dataset
    refs = [folder / r["txt"] for r in info["references"]]
    systems = [folder / s["txt"] for s in info["systems"]][:4]
    cli = eval_json(
        capsys, "-r", *map(str, refs), "-t", *map(str, systems), "-b", "300", "--seed", "7"
    )
    api = mtgui.evaluate(refs, systems, **FAST)
    assert api.to_json() == cli
    assert json.loads(cli)["systems"][0]["name"] == api.systems[0]


def test_segments_given_as_strings_score_as_the_same_text_in_files(tmp_path):
    ref = ["the cat sat on the mat .", "a dog barked ."]
    outputs = {"A": ["the cat sat on a mat .", "a dog barked ."], "B": ["cat mat", "dog"]}
    for name, texts in [("ref", ref), *outputs.items()]:
        (tmp_path / f"{name}.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    in_memory = mtgui.evaluate([ref], outputs, **FAST)
    on_disk = mtgui.evaluate(
        [tmp_path / "ref.txt"], {name: tmp_path / f"{name}.txt" for name in outputs}, **FAST
    )
    for metric in in_memory.metrics:
        for system in outputs:
            assert in_memory.score(system, metric) == on_disk.score(system, metric)
            assert in_memory.interval(system, metric) == on_disk.interval(system, metric)
    assert in_memory.compare("A", "B", "bleu") == on_disk.compare("A", "B", "bleu")


def test_every_answer_agrees_with_the_json_report():
    refs, systems = demo_files()
    result = mtgui.evaluate(refs, systems, correction="holm", **FAST)
    report = result.report
    for entry in report["systems"]:
        score = entry["scores"]["bleu"]
        assert result.score(entry["name"], "bleu") == score["score"]
        assert result.interval(entry["name"], "bleu") == (score["ci_low"], score["ci_high"])
    for pair in report["pairs"]:
        compared = result.compare(pair["x"], pair["y"], pair["metric"])
        assert (compared.delta, compared.verdict) == (pair["delta"], pair["verdict"])
        assert compared.interval == (pair["ci_low"], pair["ci_high"])
        assert compared.p_value == pair["p_holm"]  # the p-value the verdict follows
        assert result.grid(pair["metric"])[pair["x"]][pair["y"]] == pair["verdict"]
    ranked = [entry["system"] for entry in report["rankings"]["nist"]]
    assert [entry.system for entry in result.ranking("nist").systems] == ranked
    assert list(result.grid("nist")) == ranked  # best first, as the ranking


def test_progress_is_told_of_every_phase_up_to_its_end():
    refs, systems = demo_files()
    seen: list[tuple[str, int, int]] = []
    mtgui.evaluate(refs, systems, progress=lambda *step: seen.append(step), **FAST)
    phases = {phase for phase, _, _ in seen}
    assert len(phases) >= 2
    last = {phase: (done, total) for phase, done, total in seen}
    assert all(done == total for done, total in last.values())


def test_what_is_not_there_is_refused_in_words():
    result = mtgui.evaluate([["a b c"]], {"A": ["a b c"], "B": ["a b"]}, **FAST)
    with pytest.raises(InputError, match="'chrf' is not among the metrics"):
        result.score("A", "chrf")
    with pytest.raises(InputError, match="'C' is not among the systems"):
        result.compare("A", "C", "bleu")
    with pytest.raises(InputError, match="compared with itself"):
        result.compare("A", "A", "bleu")
    with pytest.raises(InputError, match="'blue' is not a metric"):
        mtgui.evaluate([["a"]], {"A": ["a"]}, metrics=["blue"])
    with pytest.raises(InputError, match="must be strings"):
        mtgui.evaluate([["a"]], {"A": [1]})  # type: ignore[list-item]
    with pytest.raises(InputError, match="has 1 line, but the test set has 2 segments"):
        mtgui.evaluate([["a", "b"]], {"A": ["a"]})


def test_importing_mtgui_loads_neither_the_engine_nor_numpy():
    code = (
        "import sys, mtgui\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'mtgui.'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "['mtgui._version']"
    assert mtgui.evaluate is mtgui.api.evaluate


def test_scoring_options_go_by_the_command_lines_names(capsys):
    """``smooth_method``, ``bleu_max_order``, ``chrf_whitespace``, ``ter_normalized``, ...
    give what ``mtgui eval`` gives with the same options; an unknown name is said."""
    refs, systems = demo_files()
    cli = eval_json(
        capsys,
        *("-r", *map(str, refs), "-t", *map(str, systems), "-b", "100", "--seed", "7"),
        *("-m", "bleu,chrf,ter", "-lc", "--smooth-method", "floor", "--bleu-max-order", "3"),
        *("--chrf-whitespace", "--ter-normalized", "--empty-refs", "empty"),
    )
    api = mtgui.evaluate(
        refs,
        systems,
        metrics=["bleu", "chrf", "ter"],
        resamples=100,
        seed=7,
        lowercase="full",
        smooth_method="floor",
        bleu_max_order=3,
        chrf_whitespace=True,
        ter_normalized=True,
        empty_refs="empty",
    )
    assert api.to_json() == cli
    with pytest.raises(InputError, match=r"'smoth_method'.*did you mean 'smooth_method'"):
        mtgui.evaluate([["a"]], {"A": ["a"]}, smoth_method="exp")


def test_a_campaign_gives_what_mtgui_campaign_json_writes(tmp_path, capsys):
    """mtgui.campaign(path) is the report ``mtgui campaign FILE --json -`` writes, and a bad
    file is said with its line."""
    text = '[settings]\nmetrics = ["bleu"]\nbootstrap = 100\nseed = 5\n'
    for k in range(2):
        write_set(tmp_path / f"s{k}", {"A": 0.1, "B": 0.4}, count=15, seed=k)
        text += f'\n[[test_sets]]\nname = "s{k}"\nrefs = "s{k}/ref.txt"\n'
        text += f'hyps = ["s{k}/A.txt", "s{k}/B.txt"]\n'
    path = tmp_path / "two.toml"
    path.write_text(text)
    report = mtgui.campaign(path)
    assert main(["campaign", str(path), "--json", "-"]) == 0
    assert json_text(report) == capsys.readouterr().out
    assert [s["name"] for s in report["test_sets"]] == ["s0", "s1"]
    path.write_text(text + "\n[oops\n")
    with pytest.raises(InputError, match="line"):
        mtgui.campaign(path)


def test_the_p_value_of_a_pair_is_the_one_its_verdict_follows_under_max_t():
    refs, systems = demo_files()
    result = mtgui.evaluate(refs, systems, metrics=["bleu"], correction="maxt", **FAST)
    for pair in result.report["pairs"]:
        assert result.compare(pair["x"], pair["y"], "bleu").p_value == pair["p_maxt"]


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ({"unit": "doc"}, "unit must be one of auto, segment, document, not 'doc'"),
        ({"correction": "bonferroni"}, "correction must be one of none, holm, fdr, maxt"),
        ({"lowercase": "yes"}, "lowercase must be one of full, ascii, not 'yes'"),
        ({"bleu_scale": 10}, "bleu_scale must be 1 or 100, not 10"),
    ],
)
def test_a_setting_out_of_its_choices_is_refused_in_words(setting, said):
    with pytest.raises(InputError, match=re.escape(said)):
        mtgui.evaluate([["a b c"]], {"A": ["a b c"], "B": ["a b"]}, **FAST, **setting)


def test_metrics_may_be_one_comma_separated_string_as_on_the_command_line():
    result = mtgui.evaluate(
        [["a b c"]], {"A": ["a b c"], "B": ["a b"]}, metrics="bleu, chrf", **FAST
    )
    assert result.metrics == ("bleu", "chrf")


def test_segments_given_where_files_are_expected_are_refused_with_the_right_form():
    segments = ["the cat sat .", "a dog ."]
    with pytest.raises(InputError, match=re.escape('lists of segments given as [["segment 1"')):
        mtgui.evaluate(segments, {"A": segments}, **FAST)  # one list too few around the reference
    with pytest.raises(InputError, match=re.escape('given as {"A": ["segment 1"')):
        mtgui.evaluate([segments], segments, **FAST)  # a system's segments without its name


def test_resamples_0_scores_only_as_eval_bootstrap_0(capsys):
    refs, systems = demo_files()
    cli = eval_json(
        capsys,
        *("-r", *map(str, refs), "-t", *map(str, systems)),
        *("-b", "0", "-m", "bleu,ter", "--bleu-scale", "100"),
    )
    result = mtgui.evaluate(refs, systems, metrics="bleu,ter", resamples=0, bleu_scale=100)
    assert result.bootstrap is None and result.to_json() == cli
    scores = {s: result.score(s, "ter") for s in result.systems}
    ranking = result.ranking("ter")  # lower is better: by score, nothing tested
    assert [e.system for e in ranking.systems] == sorted(scores, key=scores.__getitem__)
    assert {(e.best_rank, e.worst_rank) for e in ranking.systems} == {(1, len(scores))}
    assert len(ranking.clusters) == 1
    for asked in (
        lambda: result.interval("Lumen", "bleu"),
        lambda: result.compare("Lumen", "Quill", "bleu"),
        lambda: result.grid("bleu"),
    ):
        with pytest.raises(InputError, match=r"has no bootstrap \(resamples=0\)") as refused:
            asked()
        assert "resamples=2000" in str(refused.value)
