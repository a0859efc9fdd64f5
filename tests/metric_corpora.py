"""Small corpora built in memory for metric tests."""

from __future__ import annotations

from collections.abc import Sequence

from mtgui.engine.core.corpus import Corpus, Origin, SystemOutput, TestSet, TextColumn

ORIGIN = Origin("memory", "plain text", "UTF-8")


def make_corpus(references: Sequence[Sequence[str]], **systems: Sequence[str]) -> Corpus:
    """A corpus without documents: ``references`` is one list of segments per reference."""
    size = len(references[0])
    test_set = TestSet(
        doc_ids=("",) * size,
        seg_ids=tuple(str(i + 1) for i in range(size)),
        references=tuple(
            TextColumn(f"ref{i}", tuple(texts), ORIGIN) for i, texts in enumerate(references)
        ),
        has_documents=False,
    )
    outputs = tuple(SystemOutput(name, tuple(h), ORIGIN) for name, h in systems.items())
    return Corpus(test_set, outputs)
