"""ja-mecab and ko-mecab: sacreBLEU's MeCab tokenizers, which need mtgui's ja and ko extras.

Without the extra, the setting is refused in words that say what to install (never
sacreBLEU's RuntimeError on a worker thread); with it, BLEU equals sacreBLEU's with the same
tokenizer (skipped where the extra is not installed).
"""

from __future__ import annotations

import sys

import pytest
from metric_corpora import make_corpus

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.text.extra_tokenizers import EXTRA_TOKENIZERS
from mtgui.engine.text.settings import TOKENIZERS
from mtgui.io.window_words import window_message


@pytest.mark.parametrize(("tokenizer", "extra"), [("ja-mecab", "ja"), ("ko-mecab", "ko")])
def test_a_missing_extra_is_refused_with_what_to_install(monkeypatch, tokenizer, extra):
    assert tokenizer in TOKENIZERS
    for module in EXTRA_TOKENIZERS[tokenizer][2]:
        monkeypatch.setitem(sys.modules, module, None)  # importing it now fails
    with pytest.raises(InputError) as caught:
        MetricSettings(tokenize=tokenizer)
    what = "MeCab" if extra == "ja" else "MeCab-ko"
    assert (
        caught.value.problem == f"the {tokenizer} tokenizer needs {what}, which is not installed."
    )
    assert f"pip install 'mtgui[{extra}]'" in caught.value.message
    assert f"pip install 'mtgui[{extra}]'" in window_message(caught.value)  # the window says it
    # a session may name it: the settings keep it, the analysis cannot start
    kept = AnalysisSettings.from_mapping({"tokenizer": tokenizer})
    assert kept.tokenizer == tokenizer
    with pytest.raises(InputError, match="needs"):
        kept.metric_settings()


JAPANESE = (
    ["今日は良い天気です。", "私は東京に住んでいます。"],
    ["今日はいい天気ですね。", "私は東京で暮らしています。"],
)
KOREAN = (
    ["오늘은 날씨가 좋습니다.", "저는 서울에 삽니다."],
    ["오늘은 날씨가 아주 좋네요.", "저는 서울에서 살고 있습니다."],
)


@pytest.mark.parametrize(
    ("tokenizer", "texts"), [("ja-mecab", JAPANESE), ("ko-mecab", KOREAN)], ids=["ja", "ko"]
)
def test_bleu_equals_sacrebleu_with_the_same_tokenizer(tokenizer, texts):
    for module in EXTRA_TOKENIZERS[tokenizer][2]:
        pytest.importorskip(module)
    import sacrebleu

    hypotheses, references = texts
    corpus = make_corpus([references], system=hypotheses)
    stats = compute_statistics(corpus, ["bleu"], MetricSettings(tokenize=tokenizer))
    expected = sacrebleu.corpus_bleu(hypotheses, [references], tokenize=tokenizer)
    assert stats.score("system", "bleu") * 100 == pytest.approx(expected.score, abs=1e-9)
    assert stats.totals("system", "bleu")[2:6].tolist() == expected.counts
