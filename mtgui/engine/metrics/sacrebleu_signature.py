"""What a paper needs to quote a metric: its options, its references and sacreBLEU's signature.

sacreBLEU's signature (``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``) is the
field's way of saying how a BLEU, chrF or TER was computed. mtgui gives it for a metric only
where mtgui's number equals sacreBLEU's under those settings (its tests check them to 1e-9):
BLEU with one of sacreBLEU's smoothing methods, chrF and chrF++, TER. Elsewhere it is None,
with the reason: mtgui's default BLEU smoothing (mteval-v13a's, which sacreBLEU does not have),
ASCII-only lowercasing (mteval's, not sacreBLEU's ``-lc``), a metric sacreBLEU does not have.

The fields and their order are those of sacreBLEU 2.6's ``BLEUSignature``,
``CHRFSignature`` and ``TERSignature``; the version is the installed sacreBLEU's (mtgui's TER
uses its tokenizer).
"""

from __future__ import annotations

from typing import Any

from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.sacrebleu_options import MTEVAL, SMOOTH_DEFAULTS, smoothing_label
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.text.settings import Case
from mtgui.engine.text.spm import SPM_TOKENIZERS, spm_signature

_CASES = {Case.SENSITIVE: "mixed", Case.FULL: "lc"}  # sacreBLEU has no ASCII-only lowercasing
_ASCII_CASE = (
    "mtgui lowercases A-Z only (--lowercase ascii, as mteval-v13a); sacreBLEU's -lc lowercases "
    "every letter"
)
_MTEVAL = (
    "BLEU's smoothing is mteval-v13a's (mtgui's default), which sacreBLEU does not have: it "
    "equals sacreBLEU's exp only where every n-gram order has a match (choose --smooth-method "
    "exp for sacreBLEU's BLEU)"
)


def metric_options(metric: Metric, settings: MetricSettings, nrefs: int | str) -> dict[str, Any]:
    """``metric``'s number of references (``var`` where segments have different numbers of
    them), its options, and sacreBLEU's signature (None, with a
    ``sacrebleu_signature_reason``, where mtgui's number is not sacreBLEU's)."""
    if isinstance(metric, Bleu):
        options, (signature, reason) = _bleu_options(metric, settings), _bleu(metric, settings)
    elif isinstance(metric, Chrf):
        options, (signature, reason) = _chrf_options(metric, settings), _chrf(metric, settings)
    elif isinstance(metric, Ter):
        options, (signature, reason) = _ter_options(metric), (_ter(metric), None)
    else:
        options, signature = {}, None
        reason = f"sacreBLEU has no {metric.label}"
    entry: dict[str, Any] = {"nrefs": nrefs, **options, "sacrebleu_signature": None}
    if signature is None:
        entry["sacrebleu_signature_reason"] = reason
        return entry
    entry["sacrebleu_signature"] = _format({"nrefs": nrefs, **signature})
    return entry


def _format(fields: dict[str, Any]) -> str:
    """sacreBLEU's ``Signature.format``: ``name:value`` joined by ``|``, true/false as yes/no,
    the version last. ``importlib.metadata`` is imported here, not with the module: it costs
    a run that asks for no signature (the command line's plain report) about 10 ms."""
    from importlib.metadata import version

    fields = {**fields, "version": version("sacrebleu")}
    return "|".join(
        f"{name}:{('yes' if value else 'no') if isinstance(value, bool) else value}"
        for name, value in fields.items()
    )


def _bleu_options(metric: Bleu, settings: MetricSettings) -> dict[str, Any]:
    method = metric.smooth_method
    default = SMOOTH_DEFAULTS[method]
    value = (
        None
        if default is None
        else (metric.smooth_value if metric.smooth_value is not None else default)
    )
    return {
        "tokenize": settings.tokenize,
        "case": settings.case.value,
        "smooth_method": method,
        "smooth_value": value,
        "max_order": metric.order,
        "effective_order": metric.effective_order,
    }


def _bleu(metric: Bleu, settings: MetricSettings) -> tuple[dict[str, Any] | None, str | None]:
    if metric.smooth_method == MTEVAL:
        return None, _MTEVAL
    if settings.case not in _CASES:
        return None, _ASCII_CASE
    return {
        "case": _CASES[settings.case],
        "eff": metric.effective_order,
        "tok": _tokenizer_signature(settings.tokenize),
        "smooth": smoothing_label(metric.smooth_method, metric.smooth_value),
    }, None


def _tokenizer_signature(tokenizer: str) -> str:
    """sacreBLEU's signature of a tokenizer: its name, with the dictionary's version for
    MeCab's (asked of sacreBLEU, which mtgui's ja-mecab and ko-mecab are), the model's name for
    spBLEU's (``flores101`` for ``spm`` too, as sacreBLEU)."""
    if tokenizer in SPM_TOKENIZERS:
        return spm_signature(tokenizer)
    if not tokenizer.endswith("-mecab"):
        return tokenizer
    from sacrebleu.metrics.bleu import _get_tokenizer

    return str(_get_tokenizer(tokenizer)().signature())


def _chrf_options(metric: Chrf, settings: MetricSettings) -> dict[str, Any]:
    return {
        "case": settings.case.value,
        "char_order": metric.char_order,
        "word_order": metric.word_order,
        "beta": metric.beta,
        "whitespace": metric.whitespace,
        "eps_smoothing": metric.eps_smoothing,
    }


def _chrf(metric: Chrf, settings: MetricSettings) -> tuple[dict[str, Any] | None, str | None]:
    if settings.case not in _CASES:
        return None, _ASCII_CASE
    return {
        "case": _CASES[settings.case],
        "eff": not metric.eps_smoothing,
        "nc": metric.char_order,
        "nw": metric.word_order,
        "space": metric.whitespace,
    }, None


def _ter_options(metric: Ter) -> dict[str, Any]:
    o = metric.tokenizer_options
    return {
        "normalized": o.normalized,
        "no_punct": o.no_punct,
        "asian_support": o.asian_support,
        "case_sensitive": o.case_sensitive,
    }


def _ter(metric: Ter) -> dict[str, Any]:
    o = metric.tokenizer_options
    return {
        "case": "mixed" if o.case_sensitive else "lc",
        "tok": "tercom",
        "norm": o.normalized,
        "punct": not o.no_punct,
        "asian": o.asian_support,
    }
