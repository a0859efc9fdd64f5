"""Per-document scores as a long table: one row per system and document (``--documents``).

Columns ``system, docid, segments`` and one per metric, named as the metric (``bleu``,
``nist``, ...), each document scored as a test set of its own exactly as ``mteval-v13a.pl -d``
scores it (see :mod:`mtgui.engine.statistics.documents`). BLEU and M-BLEU are on the scale the
statistics score on: mteval's 0-1 by default; on sacreBLEU's 0-100 (``--bleu-scale 100``) their
columns are named ``bleu_x100`` and ``mbleu_x100``, so that a file never leaves the scale to be
guessed. Rows come system by system in load order, documents in the test set's order.
"""

from __future__ import annotations

from typing import Any

from mtgui.engine.core import Corpus
from mtgui.engine.statistics import Statistics, score_documents
from mtgui.report.cells import csv_cell, metric_column

DOCUMENT_COLUMNS = ("system", "docid", "segments")


def document_table(corpus: Corpus, statistics: Statistics) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the per-document scores (undefined scores as empty cells).

    Raises
    ------
    InputError
        If the test set has no documents (plain text).
    """
    table = score_documents(statistics, corpus.test_set)
    header = [*DOCUMENT_COLUMNS, *(metric_column(m) for m in statistics.metrics)]
    columns = [table.scores[m] for m in table.metrics]
    rows = [
        [
            system,
            document,
            int(table.segments[d]),
            *(csv_cell(float(scores[s, d])) for scores in columns),
        ]
        for s, system in enumerate(table.systems)
        for d, document in enumerate(table.documents)
    ]
    return header, rows
