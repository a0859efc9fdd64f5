"""Text into tokens and n-gram ids: the tokenizers (mteval-v13a's 13a and sacreBLEU's), the
case choices, the pool of tokenizing workers and the reference n-gram index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgui.engine.core.faces import lazy_names

if TYPE_CHECKING:
    from mtgui.engine.text.settings import DEFAULT_TOKENIZER, TOKENIZERS, Case
    from mtgui.engine.text.spm import (
        SPM_TOKENIZERS,
        ensure_spm_model,
        sacrebleu_home,
        spm_model_path,
        spm_model_url,
    )

_MODULE_OF = {
    "Case": "settings",
    "DEFAULT_TOKENIZER": "settings",
    "TOKENIZERS": "settings",
    "SPM_TOKENIZERS": "spm",
    "ensure_spm_model": "spm",
    "sacrebleu_home": "spm",
    "spm_model_path": "spm",
    "spm_model_url": "spm",
}
"""Each public name and the module of this stage that defines it."""

__all__ = [
    "DEFAULT_TOKENIZER",
    "SPM_TOKENIZERS",
    "TOKENIZERS",
    "Case",
    "ensure_spm_model",
    "sacrebleu_home",
    "spm_model_path",
    "spm_model_url",
]


__getattr__ = lazy_names(__name__, _MODULE_OF, globals())
