"""spBLEU's tokenizers: sacreBLEU's SentencePiece models ``spm``, ``flores101``, ``flores200``.

spBLEU is BLEU over the pieces of a SentencePiece model trained for FLORES (sacreBLEU's
``--tokenize flores101`` and ``flores200``; ``spm`` is an older name of ``flores101``). Its
numbers are comparable only when everyone uses the same model file, so mtgui uses sacreBLEU's:
the same file names in the same folder (``$SACREBLEU/models/``, by default
``~/.sacrebleu/models/``), downloaded by sacreBLEU's own code when missing. A model that is
missing and cannot be downloaded (no network) is an :class:`InputError` that says which file
to download from where and where to put it. A segment's tokens are the pieces
``SentencePieceProcessor.EncodeAsPieces`` gives, as sacreBLEU's ``TokenizerSPM`` joins and
BLEU splits them again.

The ``sentencepiece`` package is mtgui's ``spm`` extra (``pip install 'mtgui[spm]'``); without
it the setting is refused in words when it is made.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from mtgui.engine.core.errors import InputError

SPM_TOKENIZERS: Final = ("spm", "flores101", "flores200")
"""sacreBLEU's SentencePiece tokenizers, under its names."""

_cache_lock = threading.Lock()
_loaded: dict[tuple[str, int, int], Any] = {}  # (model path, size, mtime) -> the processor


def sacrebleu_home() -> Path:
    """The folder where sacreBLEU keeps its test sets and models: ``$SACREBLEU``, by default
    ``~/.sacrebleu`` (read at each call, where sacreBLEU reads it once at import, so that a
    test may point it elsewhere)."""
    return Path(os.environ.get("SACREBLEU") or Path("~/.sacrebleu").expanduser())


def spm_model_url(tokenizer: str) -> str:
    """Where sacreBLEU downloads the model of ``tokenizer`` from (its ``SPM_MODELS``)."""
    from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

    return str(SPM_MODELS[tokenizer]["url"])


def spm_signature(tokenizer: str) -> str:
    """sacreBLEU's signature of ``tokenizer`` (``tok:flores101`` for ``spm`` too)."""
    from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

    return str(SPM_MODELS[tokenizer]["signature"])


def spm_model_path(tokenizer: str) -> Path:
    """The model file of ``tokenizer`` where sacreBLEU keeps it: ``models/`` in
    :func:`sacrebleu_home`, named after the last part of its download address."""
    return sacrebleu_home() / "models" / os.path.basename(spm_model_url(tokenizer))


def spm_model_identity(tokenizer: str) -> tuple[str, int, int] | None:
    """The model file of ``tokenizer`` as it is now (path, size, modification time), or None
    while it is missing: what statistics made with it are kept under, so that a model replaced
    since (a download, another FLORES model) is never taken for the old one."""
    path = spm_model_path(tokenizer)
    try:
        info = path.stat()
    except OSError:
        return None
    return (str(path), info.st_size, info.st_mtime_ns)


def check_sentencepiece() -> None:
    """Nothing if ``sentencepiece`` can be imported; else an :class:`InputError` saying what to
    install (any error while importing it counts: a broken install is as good as none)."""
    try:
        import sentencepiece  # noqa: F401
    except Exception:
        raise InputError(
            "spBLEU's tokenizers (spm, flores101, flores200) need the sentencepiece package, "
            "which is not installed.",
            hint="Install it with: pip install 'mtgui[spm]' (or choose another tokenizer).",
        ) from None


def ensure_spm_model(tokenizer: str) -> Path:
    """The model file of ``tokenizer``, downloaded by sacreBLEU's code first if it is missing.

    The download goes to a temporary name beside the file and is renamed into place only when
    complete, so that an interrupted download never leaves a broken model where sacreBLEU and
    mtgui look for one.

    Raises
    ------
    InputError
        If the file is missing and cannot be downloaded (offline, say): the message names the
        file, the address to download it from and the folder to put it in.
    """
    path = spm_model_path(tokenizer)
    if path.is_file() and path.stat().st_size > 0:
        return path
    _refuse_special(path)
    url = spm_model_url(tokenizer)
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        from sacrebleu.utils import download_file

        download_file(url, str(partial))  # type: ignore[no-untyped-call]
        if not partial.is_file() or partial.stat().st_size == 0:
            raise OSError("the download was empty")
        os.replace(partial, path)
    except (Exception, SystemExit) as error:  # sacreBLEU exits on SSL and checksum errors
        raise _missing_model(tokenizer, path, url, error) from None
    finally:
        for leftover in (partial, Path(f"{partial}.lock")):
            leftover.unlink(missing_ok=True)
    return path


def _refuse_special(path: Path) -> None:
    """Refuse a folder, a pipe, a device or a dangling link where the model file belongs:
    said as what it is (a download would not replace it), rather than as a missing model."""
    try:
        info = path.stat()
    except FileNotFoundError:
        if not path.is_symlink():
            return  # simply missing: downloaded
        what = "a symbolic link to nothing"
    except OSError as error:
        what = f"unreadable ({error.strerror or error})"
    else:
        if stat.S_ISREG(info.st_mode):
            return  # empty: downloaded again
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "a special file (a pipe or device)"
    raise InputError(
        f"where sacreBLEU's SentencePiece model belongs there is {what}, not the model file.",
        path=path,
        hint="Remove it: mtgui (or sacreBLEU) downloads the model there when online.",
    )


def _missing_model(tokenizer: str, path: Path, url: str, error: BaseException) -> InputError:
    """The error for a model that is not there and could not be downloaded."""
    reason = str(error) or type(error).__name__
    return InputError(
        f"the {tokenizer} tokenizer needs sacreBLEU's SentencePiece model {path.name}, which "
        f"is not in {path.parent} and could not be downloaded ({reason}).",
        hint=f"Download {url} and save it as {path} (the folder is $SACREBLEU/models, by "
        "default ~/.sacrebleu/models, where sacreBLEU looks for it too).",
    )


def spm_tokenizer(tokenizer: str) -> Callable[[str], str]:
    """A segment's pieces under ``tokenizer``'s model, joined by spaces (sacreBLEU's
    ``TokenizerSPM``). The model is loaded once per file (a file replaced since is loaded
    again).

    Raises
    ------
    InputError
        If sentencepiece is missing, or the model is missing and cannot be downloaded, or the
        file is not a SentencePiece model.
    """
    check_sentencepiece()
    path = ensure_spm_model(tokenizer)
    key = spm_model_identity(tokenizer) or (str(path), 0, 0)
    with _cache_lock:
        processor = _loaded.get(key)
        if processor is None:
            processor = _load(path)
            _loaded.clear()  # one model at a time is all a run needs
            _loaded[key] = processor
    encode = processor.EncodeAsPieces
    return lambda text: " ".join(encode(text))


def _load(path: Path) -> Any:
    """The SentencePiece processor of the model file ``path``."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.Load(str(path))
    except Exception as error:
        raise InputError(
            f"this is not a SentencePiece model ({error}).",
            path=path,
            hint="Delete it: mtgui (or sacreBLEU) downloads the model again when online.",
        ) from None
    return processor
