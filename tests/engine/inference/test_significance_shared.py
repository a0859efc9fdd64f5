"""On the real WMT data: every verdict agrees with the p-value that decides it, and test sets
with enough documents are resampled by document."""

from __future__ import annotations

import pytest
from shared_corpora import DATASETS, MISSING, corpus, golden, statistics

from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import TIE, Correction
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import MIN_DOCUMENTS, BootstrapSettings, Unit
from mtgui.engine.text.settings import Case

pytestmark = pytest.mark.shared


def cases() -> list:
    return [pytest.param(d, id=d) for d in DATASETS] or [pytest.param("", marks=MISSING)]


@pytest.mark.parametrize("dataset", cases())
def test_verdicts_are_tie_exactly_when_the_deciding_p_value_is_at_least_alpha(dataset):
    refs = tuple(r["id"] for r in golden(dataset)["references"])
    stats = statistics(dataset, "txt", refs, Case.SENSITIVE, ("bleu", "nist", "chrf"))
    for level in (0.95, 0.9):
        for correction in Correction:
            settings = BootstrapSettings(resamples=1000, level=level, correction=correction)
            result = run_to_end(iter_bootstrap(stats, settings))
            for pair in result.pairs:
                deciding = pair.p_value if correction is Correction.NONE else pair.p_corrected
                assert deciding is not None
                assert (pair.verdict == TIE) == (deciding >= 1 - level), (correction, pair)
                if correction is Correction.NONE:
                    assert (pair.verdict == TIE) == (pair.ci_low <= 0 <= pair.ci_high), pair


@pytest.mark.parametrize("dataset", cases())
def test_sgml_and_xml_with_enough_documents_resample_documents_by_default(dataset):
    info = golden(dataset)
    if "sgm" not in info["systems"][0]:
        pytest.skip(f"{dataset} has no SGML form, so no documents")
    refs = tuple(r["id"] for r in info["references"])
    loaded = corpus(dataset, "sgm", refs)
    test_set = loaded.test_set
    assert test_set.has_documents
    assert len(test_set.documents) >= MIN_DOCUMENTS  # 47 to 169 documents in the shared sets
    stats = statistics(dataset, "sgm", refs, Case.SENSITIVE, ("bleu",))
    result = run_to_end(
        iter_bootstrap(stats, BootstrapSettings(resamples=200), test_set.document_index())
    )
    assert result.settings.unit is Unit.DOCUMENT and result.notes == ()
    assert "|unit:document|" in result.signature
