"""``mtgui eval`` with chrF++, sacreBLEU's chrF options, and the tokenizers that need extras."""

from __future__ import annotations

import json
import sys

import pytest

from mtgui.cli.main import main


def test_chrf_and_chrfpp_side_by_side_with_the_options_in_the_signature(capsys):
    args = ["eval", "--demo", "-m", "bleu,chrf,chrf++", "--chrf-beta", "1", "--bootstrap", "0"]
    assert main([*args, "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["settings"]["metrics"] == ["bleu", "chrf", "chrf++"]
    scores = report["systems"][0]["scores"]
    assert scores["chrf"]["score"] != scores["chrf++"]["score"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "chrf[nc=6,nw=0,beta=1,space=no],chrf++[nc=6,nw=2,beta=1,space=no]" in out
    assert "System     BLEU     chrF   chrF++" in out


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--chrf-char-order", "0", "the chrF character order must be a whole number from 1 to 20"),
        ("--chrf-char-order", "1000", "from 1 to 20, not 1000."),
        ("--chrf-word-order", "-1", "the chrF word order must be a whole number from 0 to 10"),
        ("--chrf-beta", "-1", "the chrF beta must be a whole number from 0 to 10, not -1."),
    ],
)
def test_bad_chrf_options_exit_2_with_a_message(capsys, option, value, message):
    assert main(["eval", "--demo", "-m", "chrf", option, value]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("mtgui: ") and message in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_a_tokenizer_whose_extra_is_missing_exits_2_with_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "MeCab", None)
    assert main(["eval", "--demo", "--tokenize", "ja-mecab"]) == 2
    err = capsys.readouterr().err
    assert "mtgui: the ja-mecab tokenizer needs MeCab, which is not installed." in err
    assert "pip install 'mtgui[ja]'" in err and "Traceback" not in err
