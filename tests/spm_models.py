"""A small SentencePiece model trained on the demo's references, put where sacreBLEU looks for
its spBLEU models, with the network turned off (shared by the engine's and the command line's
spBLEU tests)."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from pathlib import Path

import pytest

MODEL_FILES = ("sacrebleu_tokenizer_spm.model", "flores200sacrebleuspm")
"""sacreBLEU's file names of the flores101 (and spm) and flores200 models."""


def train_demo_model(vocab_size: int = 300) -> bytes:
    """A SentencePiece model of a small vocabulary trained on the demo's references."""
    import sentencepiece

    from mtgui.io.demo import load_demo

    texts = [text for ref in load_demo().test_set.references for text in ref.texts]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_writer=model, vocab_size=vocab_size, minloglevel=2
    )
    return model.getvalue()


def go_offline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every download fail as without a network; the addresses asked for are listed."""
    asked: list[str] = []

    def offline(url: object, *args: object, **kwargs: object) -> None:
        asked.append(str(url))
        raise urllib.error.URLError("[Errno -2] Name or service not known")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    return asked


def sacrebleu_home(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Path:
    """Point $SACREBLEU at ``folder``, for mtgui and for sacreBLEU's spm tokenizer (which read
    it at import)."""
    from sacrebleu.tokenizers import tokenizer_spm

    monkeypatch.setenv("SACREBLEU", str(folder))
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(folder))
    return folder


def install_models(folder: Path, model: bytes) -> None:
    """Put ``model`` in ``folder``/models under both of sacreBLEU's file names."""
    (folder / "models").mkdir(parents=True, exist_ok=True)
    for name in MODEL_FILES:
        (folder / "models" / name).write_bytes(model)
