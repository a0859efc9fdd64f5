"""A plain-text account of what was loaded, for the command line and the main window.

Names, paths and notes come from the user's files, so every line goes through
:func:`~mtgui.engine.core.escapes.printable`: the account is printed on a terminal.
"""

from __future__ import annotations

from mtgui.engine.core import Corpus, Origin, corpus_notes, counted, printable


def summarize(corpus: Corpus) -> str:
    """Files, systems, references, segments and documents of ``corpus``, one item per line."""
    test_set = corpus.test_set
    lines = [_test_set_line(corpus), "Files:"]
    lines += [f"  {o.path}  ({o.format}, {o.encoding})" for o in _origins(corpus)]
    if test_set.source is not None:
        lines.append(f"Source: {test_set.source.origin.file_name}")
    lines.append(f"References ({test_set.num_references}):")
    lines += _aligned([(ref.name, ref.origin.file_name) for ref in test_set.references])
    lines.append(f"Systems ({len(corpus.systems)}):")
    lines += _aligned([(s.name, s.origin.file_name) for s in corpus.systems]) or ["  (none)"]
    for metric, higher in corpus.external_metrics().items():
        scores = [s for s in corpus.scores if s.metric == metric]
        named = "" if metric == "human" and higher else f" '{metric}'"
        direction = "" if higher else ", lower is better"
        lines.append(f"Per-segment scores{named} ({counted(len(scores), 'system')}{direction}):")
        lines += _aligned(
            [
                (
                    s.system,
                    f"{s.num_scored:,} of {counted(test_set.size, 'segment')} scored, "
                    f"{counted(int(s.counts.sum()), 'judgment')} ({s.origin.file_name})",
                )
                for s in scores
            ]
        )
    lines += [f"Note: {note}" for note in corpus_notes(corpus)]
    return "\n".join(printable(line) for line in lines)


def _origins(corpus: Corpus) -> list[Origin]:
    """Every file the corpus was read from, once each, in load order."""
    test_set = corpus.test_set
    origins = [test_set.source.origin] if test_set.source else []
    origins += [ref.origin for ref in test_set.references]
    origins += [s.origin for s in corpus.systems] + [s.origin for s in corpus.scores]
    return list(dict.fromkeys(origins))


def _aligned(rows: list[tuple[str, str]]) -> list[str]:
    """Two indented columns, the first padded to its widest entry."""
    if not rows:
        return []
    rows = [(printable(name), printable(detail)) for name, detail in rows]
    width = max(len(name) for name, _ in rows)
    return [f"  {name:<{width}}  {detail}" for name, detail in rows]


def _test_set_line(corpus: Corpus) -> str:
    """'Test set: N segments in D documents (setid, xx-yy)'."""
    test_set = corpus.test_set
    text = f"Test set: {counted(test_set.size, 'segment')}"
    if test_set.has_documents:
        text += f" in {counted(len(test_set.documents), 'document')}"
    else:
        text += " (plain text: no documents)"
    meta = test_set.metadata
    details = [meta.get("setid", "")]
    if meta.get("srclang") or meta.get("trglang"):
        details.append(f"{meta.get('srclang', '?')}-{meta.get('trglang', '?')}")
    details = [d for d in details if d]
    return text + (f" ({', '.join(details)})" if details else "")
