"""``mtgui eval --tokenize flores101|flores200|spm`` (issue 36, point 2): spBLEU on the command
line, on sacreBLEU's model files (a small model trained on the demo stands for FLORES's)."""

from __future__ import annotations

import json

import pytest
from spm_models import go_offline, install_models, sacrebleu_home, train_demo_model

from mtgui.cli.main import main

pytest.importorskip("sentencepiece")


def test_spbleu_gives_sacrebleus_signature(tmp_path, monkeypatch, capsys):
    from sacrebleu.metrics.bleu import BLEU

    from mtgui.io.demo import load_demo

    home = sacrebleu_home(monkeypatch, tmp_path)
    install_models(home, train_demo_model())
    go_offline(monkeypatch)
    args = ["eval", "--demo", "-b", "0", "-m", "bleu", "--smooth-method", "exp", "--json", "-"]
    assert main([*args, "--tokenize", "flores200"]) == 0
    data = json.loads(capsys.readouterr().out)
    demo = load_demo()
    bleu = BLEU(tokenize="flores200")
    expected = bleu.corpus_score(
        list(demo.systems[0].hypotheses), [list(r.texts) for r in demo.test_set.references]
    )
    first = data["systems"][0]
    assert 100 * first["scores"]["bleu"]["score"] == pytest.approx(expected.score, abs=1e-9)
    signature = data["settings"]["metric_options"]["bleu"]["sacrebleu_signature"]
    assert signature == bleu.get_signature().format()


def test_a_missing_model_offline_exits_2_before_reading(tmp_path, monkeypatch, capsys):
    sacrebleu_home(monkeypatch, tmp_path)
    go_offline(monkeypatch)
    missing = tmp_path / "nothing.txt"  # never read: the model is looked for first
    code = main(["eval", "--ref", str(missing), "--hyp", str(missing), "--tokenize", "spm"])
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "the spm tokenizer needs sacreBLEU's SentencePiece model sacrebleu_tokenizer_spm" in err
    assert f"save it as {tmp_path / 'models' / 'sacrebleu_tokenizer_spm.model'}" in err
