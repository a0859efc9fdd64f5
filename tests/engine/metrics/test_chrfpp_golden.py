"""chrF++ on every system of every shared dataset, against sacreBLEU's own API.

The shared golden.json files were made with sacreBLEU 2.6.0 and hold chrF2 but no chrF++; here
sacreBLEU (the installed version) computes chrF++ (``CHRF(word_order=2)``) on the texts as mtgui
read them, which test_metrics_golden shows are the texts sacreBLEU read (mtgui's chrF2 of them
equals the golden chrF2). All references of each dataset (sacreBLEU's statistics take the best
reference per segment, so two references test that too). Skipped where ../shared is absent.
"""

from __future__ import annotations

import pytest
from sacrebleu.metrics.chrf import CHRF
from shared_corpora import DATASETS, MISSING, corpus, golden, statistics

from mtgui.engine.text.settings import Case

pytestmark = pytest.mark.shared


@pytest.mark.parametrize("dataset", DATASETS or [pytest.param("", marks=MISSING)])
def test_chrfpp_equals_sacrebleu_on_every_system(dataset):
    refs = tuple(r["id"] for r in golden(dataset)["references"])
    stats = statistics(dataset, "txt", refs, Case.SENSITIVE, ("chrf++",))
    texts = corpus(dataset, "txt", refs)
    chrfpp = CHRF(word_order=2, references=[list(ref.texts) for ref in texts.test_set.references])
    assert stats.system_names == tuple(s["sysid"] for s in golden(dataset)["systems"])
    for system in texts.systems:
        expected = chrfpp.corpus_score(list(system.hypotheses), None).score
        assert stats.score(system.name, "chrf++") == pytest.approx(expected, abs=1e-6)
