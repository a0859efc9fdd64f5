"""spBLEU (issue 36, point 2): sacreBLEU's SentencePiece tokenizers flores101, flores200 and spm,
on sacreBLEU's model files where sacreBLEU keeps them.

A small model trained on the demo's references stands for FLORES's (no test downloads
anything: the network is off). With the same file, BLEU and its signature equal sacreBLEU's; a
missing model is downloaded by sacreBLEU's code when online and refused in words (what, from
where, to where) when offline; a missing sentencepiece is refused with what to install.
"""

from __future__ import annotations

import io
import os
import sys
import urllib.request

import pytest
from spm_models import go_offline, install_models, sacrebleu_home, train_demo_model

pytest.importorskip("sentencepiece")

from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.registry import REGISTRY
from mtgui.engine.metrics.sacrebleu_signature import metric_options
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.cache import StatisticsCache
from mtgui.engine.statistics.rows import compute_statistics, iter_statistics
from mtgui.engine.text.settings import TOKENIZERS, Case
from mtgui.engine.text.spm import spm_model_path
from mtgui.io.demo import load_demo
from mtgui.io.window_words import window_message


@pytest.fixture(scope="module")
def model() -> bytes:
    return train_demo_model()


@pytest.fixture
def home(tmp_path, monkeypatch, model):
    """$SACREBLEU with both models in place, offline."""
    folder = sacrebleu_home(monkeypatch, tmp_path / "sacrebleu")
    install_models(folder, model)
    go_offline(monkeypatch)
    return folder


@pytest.fixture
def empty_home(tmp_path, monkeypatch):
    return sacrebleu_home(monkeypatch, tmp_path / "empty")


@pytest.mark.parametrize(
    ("tokenizer", "case"),
    [("flores101", Case.SENSITIVE), ("flores200", Case.SENSITIVE), ("flores101", Case.FULL)],
)
def test_bleu_and_its_signature_equal_sacrebleus_with_the_same_model(home, tokenizer, case):
    demo = load_demo()
    references = [list(ref.texts) for ref in demo.test_set.references]
    settings = MetricSettings(tokenize=tokenizer, case=case, bleu_smooth_method="exp")
    stats = compute_statistics(demo, ["bleu"], settings)
    theirs = BLEU(tokenize=tokenizer, lowercase=case is Case.FULL)
    for system in demo.systems:
        expected = theirs.corpus_score(list(system.hypotheses), references)
        assert stats.score(system.name, "bleu") * 100 == pytest.approx(expected.score, abs=1e-9)
        assert stats.totals(system.name, "bleu")[2:6].tolist() == expected.counts
    bleu = REGISTRY["bleu"].factory(demo.test_set, settings)
    signature = metric_options(bleu, settings, 2)["sacrebleu_signature"]
    assert signature == theirs.get_signature().format()
    assert f"tok:{tokenizer}" in signature
    chrf = REGISTRY["chrf"].factory(demo.test_set, settings)  # chrF has no tokenizer
    theirs_chrf = CHRF(lowercase=case is Case.FULL)
    theirs_chrf.corpus_score(list(demo.systems[0].hypotheses), references)
    chrf_signature = metric_options(chrf, settings, 2)["sacrebleu_signature"]
    assert chrf_signature == theirs_chrf.get_signature().format()


def test_spm_is_flores101_under_its_old_name(home):
    demo = load_demo()
    spm, flores = (
        MetricSettings(tokenize=t, bleu_smooth_method="exp") for t in ("spm", "flores101")
    )
    scores = [compute_statistics(demo, ["bleu"], s).score("Lumen", "bleu") for s in (spm, flores)]
    assert scores[0] == scores[1]
    bleu = REGISTRY["bleu"].factory(demo.test_set, spm)
    assert "|tok:flores101|" in metric_options(bleu, spm, 2)["sacrebleu_signature"]
    assert spm.signature.startswith("tok:spm|")  # mtgui's own signature keeps the name asked for


def test_the_tokenizers_are_offered_and_kept_in_sessions(home):
    for name in ("spm", "flores101", "flores200"):
        assert name in TOKENIZERS
        settings = AnalysisSettings.from_mapping({"tokenizer": name})
        assert settings.metric_settings().tokenize == name


def test_a_tokenizer_change_is_a_new_key_of_the_statistics_cache(home):
    demo = load_demo()
    cache = StatisticsCache()
    first = run_to_end(iter_statistics(demo, ["bleu"], MetricSettings(), cache=cache))
    settings = MetricSettings(tokenize="flores101")
    again = run_to_end(iter_statistics(demo, ["bleu"], settings, cache=cache))
    fresh = compute_statistics(demo, ["bleu"], settings)
    assert again.score("Lumen", "bleu") == fresh.score("Lumen", "bleu")
    assert again.score("Lumen", "bleu") != first.score("Lumen", "bleu")


def test_a_replaced_model_file_is_not_taken_for_the_old_one_by_the_cache(home):
    demo = load_demo()
    cache = StatisticsCache()
    settings = MetricSettings(tokenize="flores101")
    first = run_to_end(iter_statistics(demo, ["bleu"], settings, cache=cache))
    smaller = train_demo_model(vocab_size=100)  # another model under the same name
    (home / "models" / "sacrebleu_tokenizer_spm.model").write_bytes(smaller)
    again = run_to_end(iter_statistics(demo, ["bleu"], settings, cache=cache))
    fresh = compute_statistics(demo, ["bleu"], settings)
    assert again.totals("Lumen", "bleu").tolist() == fresh.totals("Lumen", "bleu").tolist()
    assert again.totals("Lumen", "bleu").tolist() != first.totals("Lumen", "bleu").tolist()


def test_a_missing_model_offline_says_what_to_download_and_where(empty_home, monkeypatch):
    asked = go_offline(monkeypatch)
    settings = MetricSettings(tokenize="flores200")  # the setting itself needs no model
    with pytest.raises(InputError) as caught:
        compute_statistics(load_demo(), ["bleu"], settings)
    path = empty_home / "models" / "flores200sacrebleuspm"
    url = SPM_MODELS["flores200"]["url"]
    assert asked == [url]  # sacreBLEU's download was tried first
    message = caught.value.message
    assert "the flores200 tokenizer needs sacreBLEU's SentencePiece model" in message
    assert "could not be downloaded" in message
    assert f"Download {url} and save it as {path}" in message
    assert f"Download {url}" in window_message(caught.value)
    assert list((empty_home / "models").iterdir()) == []  # no partial file, no lock left


def test_a_missing_model_is_downloaded_through_sacrebleus_code(empty_home, monkeypatch, model):
    asked: list[str] = []

    def online(url, *args, **kwargs):
        asked.append(url)
        return io.BytesIO(model)

    monkeypatch.setattr(urllib.request, "urlopen", online)
    stats = compute_statistics(load_demo(), ["bleu"], MetricSettings(tokenize="flores101"))
    assert asked == [SPM_MODELS["flores101"]["url"]]
    path = spm_model_path("flores101")
    assert path == empty_home / "models" / "sacrebleu_tokenizer_spm.model"
    assert path.read_bytes() == model
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert stats.score("Lumen", "bleu") > 0


def test_a_file_that_is_no_model_is_named(empty_home):
    (empty_home / "models").mkdir(parents=True)
    bad = empty_home / "models" / "sacrebleu_tokenizer_spm.model"
    bad.write_text("not a model\n")
    with pytest.raises(InputError, match="this is not a SentencePiece model") as caught:
        compute_statistics(load_demo(), ["bleu"], MetricSettings(tokenize="flores101"))
    assert caught.value.path == bad


def test_without_sentencepiece_the_setting_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # importing it now fails
    with pytest.raises(InputError) as caught:
        MetricSettings(tokenize="flores101")
    assert "need the sentencepiece package, which is not installed" in caught.value.problem
    assert "pip install 'mtgui[spm]'" in window_message(caught.value)


@pytest.mark.parametrize("kind", ["folder", "fifo", "dangling link"])
def test_a_folder_pipe_or_dangling_link_in_the_models_place_is_named(empty_home, monkeypatch, kind):
    """Said as what it is, not as a missing model that a download would mend (it would not)."""
    asked = go_offline(monkeypatch)
    (empty_home / "models").mkdir(parents=True)
    bad = empty_home / "models" / "sacrebleu_tokenizer_spm.model"
    {
        "folder": bad.mkdir,
        "fifo": lambda: os.mkfifo(bad),
        "dangling link": lambda: bad.symlink_to(empty_home / "none"),
    }[kind]()
    with pytest.raises(InputError, match="not the model file") as caught:
        compute_statistics(load_demo(), ["bleu"], MetricSettings(tokenize="flores101"))
    assert caught.value.path == bad and asked == []
