"""``mtgui eval`` with sacreBLEU's options under its names (issue 36, points 1 and 8)."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.ter import TER

from mtgui.cli.main import main
from mtgui.io.demo import load_demo


def report(capsys, *options: str) -> dict:
    args = ["eval", "--demo", "--bootstrap", "0", "--json", "-", *options]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def test_sacrebleus_bleu_and_ter_options_give_sacrebleus_numbers(capsys):
    data = report(
        capsys, "-m", "bleu,ter", "--smooth-method", "add-k", "-sv", "2",
        "--bleu-max-order", "3", "--ter-no-punct", "--ter-case-sensitive",
    )  # fmt: skip
    demo = load_demo()
    references = [list(ref.texts) for ref in demo.test_set.references]
    bleu = BLEU(smooth_method="add-k", smooth_value=2, max_ngram_order=3)
    ter = TER(no_punct=True, case_sensitive=True)
    for entry in data["systems"]:
        hypotheses = list(demo.system(entry["name"]).hypotheses)
        expected = bleu.corpus_score(hypotheses, references).score
        assert 100 * entry["scores"]["bleu"]["score"] == pytest.approx(expected, abs=1e-9)
        expected = ter.corpus_score(hypotheses, references).score
        assert entry["scores"]["ter"]["score"] == pytest.approx(expected, abs=1e-9)
    options = data["settings"]["metric_options"]
    assert options["bleu"]["sacrebleu_signature"] == bleu.get_signature().format()
    assert options["ter"]["sacrebleu_signature"] == ter.get_signature().format()
    assert options["bleu"]["nrefs"] == 2
    assert "bleu[smooth=add-k[2.00],order=3]" in data["settings"]["signature"]
    assert "ter[tok=tercom,case=mixed,norm=no,punct=no,asian=no]" in data["settings"]["signature"]


def test_without_the_options_the_scores_are_as_before(capsys):
    """The default is mteval's BLEU, named in the signature, with no sacreBLEU signature."""
    plain, mteval = report(capsys), report(capsys, "--smooth-method", "mteval")
    assert plain == mteval
    assert "metrics:bleu[smooth=mteval],nist[refs=2],mbleu" in plain["settings"]["signature"]
    assert plain["settings"]["metric_options"]["bleu"]["sacrebleu_signature"] is None


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--bleu-max-order", "0", "the BLEU maximum n-gram order must be a whole number from 1"),
        ("--smooth-value", "-1", "the BLEU smoothing value must be a number from 0 to 1000"),
        ("--smooth-value", "nan", "the BLEU smoothing value must be a number from 0 to 1000"),
    ],
)
def test_bad_options_exit_2_with_a_message(capsys, option, value, message):
    assert main(["eval", "--demo", option, value]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("mtgui: ") and message in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_an_unknown_smoothing_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["eval", "--demo", "--smooth-method", "add-one"])
    assert stopped.value.code == 2
    assert "invalid choice: 'add-one'" in capsys.readouterr().err
