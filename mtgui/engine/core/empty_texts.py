"""Notes on texts that hold nothing: a reference or a system output whose segments are all empty.

Such a file reads without error (empty segments are allowed, and a few are normal), but a
reference without a word scores every system against nothing, and a system output without a
word scores 0 everywhere: the numbers come out, and they mean nothing. Most often the wrong
file was loaded (an empty export, the wrong column of a spreadsheet), so the note says so in
words, naming the reference or system and its file.
"""

from __future__ import annotations

from collections.abc import Sequence

from mtgui.engine.core.corpus import Corpus, SystemOutput, TestSet


def empty_text_notes(test_set: TestSet, systems: Sequence[SystemOutput] = ()) -> list[str]:
    """A note for every reference and every system output whose segments are all empty (or
    only white space); none for an empty test set."""
    if test_set.size == 0:
        return []
    notes = []
    empty = [ref for ref in test_set.references if _all_empty(ref.texts)]
    if empty and len(empty) == len(test_set.references):
        notes.append(
            "Every reference is empty: all segments of "
            + _list([f"'{ref.name}' ({ref.origin.file_name})" for ref in empty])
            + " are empty, so every system is scored against nothing and its scores mean "
            "nothing. Check that the right reference file was loaded."
        )
    else:
        notes += [
            f"The reference '{ref.name}' ({ref.origin.file_name}) is empty: "
            f"{_all_segments(test_set.size)}, so it gives the systems nothing to match and "
            "distorts the reference lengths the metrics compare with. Check that the right "
            "file was loaded."
            for ref in empty
        ]
    notes += [
        f"The system output '{system.name}' ({system.origin.file_name}) is empty: "
        f"{_all_segments(test_set.size)}, so it scores as no translation at all. Check that "
        "the right file was loaded."
        for system in systems
        if _all_empty(system.hypotheses)
    ]
    return notes


def corpus_notes(corpus: Corpus) -> list[str]:
    """The corpus's own notes and the notes on its empty texts, each once."""
    return list(dict.fromkeys([*corpus.notes, *empty_text_notes(corpus.test_set, corpus.systems)]))


def _all_empty(texts: Sequence[str]) -> bool:
    return all(not text.strip() for text in texts)


def _all_segments(count: int) -> str:
    return "its only segment is empty" if count == 1 else f"all its {count:,} segments are empty"


def _list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
