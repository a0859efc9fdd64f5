"""Named test sets (``--test-set wmt23 -l en-de``) through sacreBLEU's catalogue and cache.

sacreBLEU knows the field's test sets by name (:data:`sacrebleu.DATASETS`) and keeps them in
its folder (``$SACREBLEU``, by default ``~/.sacrebleu``): the downloaded archive under
``NAME/raw``, and one plain-text file per field beside it (``NAME/NAME.en-de.src``,
``.ref``, ``.docid``, ``.origlang``...). mtgui asks sacreBLEU's dataset classes for those
files, so that it reads exactly what ``sacrebleu -t NAME -l PAIR`` reads: the source, the
references (for WMT XML sets, the ones sacreBLEU scores against by default) and the document
ids. A set that is not in the cache is downloaded and unpacked by sacreBLEU's code when there
is a network; without one, an :class:`InputError` names the set and says what to do.

The dataset objects of sacreBLEU name their folder when sacreBLEU is imported; mtgui reads
``$SACREBLEU`` when a set is asked for (:func:`~mtgui.engine.text.sacrebleu_home`) and gives
a copy of the dataset that folder, so that both always agree for a user (the variable is set
before either starts) and a test can point both at a folder of its own.

``--origlang`` and ``--subset`` keep the documents sacreBLEU keeps (:func:`subset_mask`): by
their original language (``de``, or ``non-de``), or by a regular expression over the domain
(WMT XML sets) or sacreBLEU's own annotation of wmt18's and wmt19's documents
(``country:US``, ``politics``...).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mtgui.engine.core import Corpus, InputError, counted
from mtgui.engine.text import sacrebleu_home
from mtgui.io.decode import read_text
from mtgui.io.plaintext import split_lines

ATTRIBUTES = ("origlang", "genre", "domain")
"""The fields of a test set that are attributes of its documents (for ``--by``)."""


@dataclass(frozen=True)
class NamedTestSet:
    """A test set of sacreBLEU's catalogue for one language pair: its files in the cache."""

    name: str
    langpair: str
    source: Path
    references: tuple[Path, ...]
    docids: Path | None = None
    attributes: tuple[tuple[str, Path], ...] = ()  # (origlang|genre|domain, its file)

    @property
    def label(self) -> str:
        """``wmt23 en-de``, as messages name it."""
        return f"{self.name} {self.langpair}"


def catalogue() -> list[str]:
    """The names of the test sets sacreBLEU knows, newest first (as ``sacrebleu --list``)."""
    from sacrebleu import DATASETS

    return sorted(DATASETS, reverse=True)


def language_pairs(name: str) -> list[str]:
    """The language pairs of the test set ``name`` (none for a name sacreBLEU does not know)."""
    from sacrebleu import DATASETS

    return list(DATASETS[name].langpairs) if name in DATASETS else []


def is_cached(name: str) -> bool:
    """Whether sacreBLEU's cache holds the test set ``name`` (then opening it downloads
    nothing); False for a name sacreBLEU does not know."""
    from sacrebleu import DATASETS

    return name in DATASETS and _is_cached(_dataset(name))


def named_test_set(name: str, langpair: str | None) -> NamedTestSet:
    """The files of test set ``name`` for ``langpair``, downloaded by sacreBLEU if needed.

    Raises
    ------
    InputError
        For a name sacreBLEU does not know, a missing or unknown language pair, a set that is
        not in the cache and cannot be downloaded, or a cache sacreBLEU cannot read.
    """
    dataset = _dataset(name)
    pairs = list(dataset.langpairs)
    if not langpair:
        raise InputError(
            f"the test set {name} needs a language pair (-l/--language-pair).",
            hint=f"{name} has: {', '.join(pairs)}.",
        )
    if langpair not in pairs:
        raise InputError(
            f"the test set {name} has no language pair {langpair}.",
            hint=f"{name} has: {', '.join(pairs)}.",
        )
    cached = _is_cached(dataset)
    try:
        fields = list(dataset.fieldnames(langpair))
        files = [Path(f) for f in dataset.get_files(langpair)]
        source = Path(dataset.get_source_file(langpair))
        references = tuple(Path(f) for f in dataset.get_reference_files(langpair))
    except (Exception, SystemExit) as error:  # sacreBLEU exits on SSL and checksum errors
        raise _unavailable(name, langpair, dataset, cached, error) from None
    by_field = dict(zip(fields, files, strict=True))
    if not references:
        raise InputError(f"sacreBLEU's test set {name} has no references for {langpair}.")
    return NamedTestSet(
        name,
        langpair,
        source,
        references,
        by_field.get("docid"),
        tuple((key, by_field[key]) for key in ATTRIBUTES if key in by_field),
    )


def _dataset(name: str) -> Any:
    """A copy of sacreBLEU's dataset ``name`` whose folder is in the current $SACREBLEU."""
    from sacrebleu import DATASETS

    if name not in DATASETS:
        import difflib  # only for a name sacreBLEU does not know

        close = difflib.get_close_matches(name, list(DATASETS), n=3)
        hint = f"Did you mean {' or '.join(close)}? " if close else ""
        raise InputError(
            f"'{name}' is not a test set sacreBLEU knows.",
            hint=f"{hint}sacreBLEU's list: sacrebleu --list (the window: File > Open test set).",
        )
    dataset = copy.copy(DATASETS[name])
    folder = sacrebleu_home() / name
    dataset._outdir, dataset._rawdir = str(folder), str(folder / "raw")
    return dataset


def _is_cached(dataset: Any) -> bool:
    """Whether every archive of the dataset is in its raw folder (then nothing is downloaded)."""
    raw = Path(dataset._rawdir)
    archives = [raw / dataset._get_tarball_filename(url) for url in dataset.data or ()]
    return all(path.is_file() and path.stat().st_size > 0 for path in archives)


def _unavailable(
    name: str, langpair: str, dataset: Any, cached: bool, error: BaseException
) -> InputError:
    """The error for a test set that could not be had: not cached and offline, or broken."""
    reason = str(error) or type(error).__name__
    folder = Path(dataset._outdir)
    if not cached:
        return InputError(
            f"the test set {name} ({langpair}) is not in sacreBLEU's cache ({folder}) and "
            f"could not be downloaded ({reason}).",
            hint="Connect to the network and run again (mtgui downloads it through sacreBLEU), "
            f"or run 'sacrebleu -t {name} -l {langpair} --echo src' on a machine with a "
            f"network and copy its folder {name} into {folder.parent} ($SACREBLEU, by default "
            "~/.sacrebleu).",
        )
    return InputError(
        f"sacreBLEU's cache of the test set {name} ({langpair}) cannot be read ({reason}).",
        path=folder,
        hint="Delete that folder: sacreBLEU (or mtgui) downloads the test set again.",
    )


def read_field(path: Path) -> list[str]:
    """The lines of one of sacreBLEU's field files (one value per segment)."""
    text = read_text(path).text
    return split_lines(text) if text else []


def subset_mask(named: NamedTestSet, origlang: str | None, subset: str | None) -> list[bool]:
    """Which segments sacreBLEU's ``--origlang`` and ``--subset`` keep.

    Raises
    ------
    InputError
        If the set has no such annotation, the expression is not valid, or nothing is kept.
    """
    from sacrebleu.dataset import SUBSETS

    attributes = dict(named.attributes)
    marks: list[list[bool]] = []
    size = len(read_field(named.source)) if origlang is not None or subset is not None else 0
    if origlang is not None:
        if "origlang" not in attributes:
            raise _no_annotation(named, "--origlang", "original languages")
        wanted, negated = origlang.removeprefix("non-"), origlang.startswith("non-")
        values = _annotation(named, attributes["origlang"], size)
        marks.append([(value == wanted) != negated for value in values])
    if subset is not None:
        pattern = _pattern(subset.removeprefix("country:"))
        if "domain" in attributes:
            tags = _annotation(named, attributes["domain"], size)
        elif named.name in SUBSETS and named.docids is not None:
            docs = _annotation(named, named.docids, size)
            tags = [SUBSETS[named.name].get(doc, "") for doc in docs]
        else:
            raise _no_annotation(named, "--subset", "domains")
        marks.append([bool(pattern.search(tag)) for tag in tags])
    keep = [all(both) for both in zip(*marks, strict=True)]
    if not any(keep):
        asked = " and ".join(
            f"{option} {value}"
            for option, value in (("--origlang", origlang), ("--subset", subset))
            if value is not None
        )
        raise InputError(f"the test set {named.label} has no segment with {asked}.")
    return keep


def _annotation(named: NamedTestSet, path: Path, size: int) -> list[str]:
    """The lines of one of the set's annotation files, one per segment of its source (else
    sacreBLEU's cache is broken: an InputError naming the file says how to mend it)."""
    values = read_field(path)
    if len(values) != size:
        raise InputError(
            f"sacreBLEU's cache of the test set {named.label} is broken: this file has "
            f"{counted(len(values), 'line')}, but the source ({named.source.name}) has {size:,}.",
            path=path,
            hint=f"Delete the folder {path.parent}: sacreBLEU (or mtgui) downloads the test set "
            "again.",
        )
    return values


def _pattern(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as error:
        raise InputError(f"--subset {text}: not a valid regular expression ({error}).") from None


def _no_annotation(named: NamedTestSet, option: str, what: str) -> InputError:
    return InputError(
        f"{option} needs the {what} of the documents, which the test set {named.label} does "
        "not give (as in sacreBLEU, only WMT's SGML and XML sets do).",
    )


def with_set_details(corpus: Corpus, named: NamedTestSet) -> Corpus:
    """``corpus`` (with the set's document ids) named after the set and its language pair (as
    the header of a report shows them), with its documents' attributes (origlang, genre,
    domain) for ``--by origlang`` and the like: each document's value on its first segment."""
    source, _, target = named.langpair.partition("-")
    metadata = {**corpus.test_set.metadata, "setid": named.name}
    metadata.update(srclang=source, trglang=target)
    test_set = replace(corpus.test_set, metadata=metadata)
    if not test_set.has_documents or not named.attributes:
        return replace(corpus, test_set=test_set)
    attributes: dict[str, dict[str, str]] = {}
    for key, path in named.attributes:
        values = read_field(path)
        if len(values) != test_set.size:
            continue  # a field file that does not fit: no attribute rather than a wrong one
        for doc, value in zip(test_set.doc_ids, values, strict=True):
            if value:
                attributes.setdefault(doc, {}).setdefault(key, value)
    return replace(corpus, test_set=replace(test_set, doc_attributes=attributes))


def keep_segments(corpus: Corpus, keep: Sequence[bool], why: str) -> Corpus:
    """``corpus`` with only the segments ``keep`` marks (the texts, the ids, every system's
    hypotheses and every loaded score), and a note that says ``why`` and how many are left.

    Raises
    ------
    InputError
        If ``keep`` does not have one mark per segment (the system files do not fit the set).
    """
    test_set = corpus.test_set
    if len(keep) != test_set.size:
        raise InputError(
            f"{why} needs one mark per segment of the test set, which has {test_set.size:,} "
            f"segments where the test set's annotation has {len(keep):,}.",
        )
    index = [int(i) for i in np.flatnonzero(np.asarray(keep, dtype=bool))]

    def chosen(texts: Sequence[str]) -> tuple[str, ...]:
        return tuple(texts[i] for i in index)

    kept_set = replace(
        test_set,
        doc_ids=chosen(test_set.doc_ids),
        seg_ids=chosen(test_set.seg_ids),
        references=tuple(replace(r, texts=chosen(r.texts)) for r in test_set.references),
        source=None
        if test_set.source is None
        else replace(test_set.source, texts=chosen(test_set.source.texts)),
    )
    systems = tuple(replace(s, hypotheses=chosen(s.hypotheses)) for s in corpus.systems)
    scores = tuple(
        replace(s, means=s.means[index].copy(), counts=s.counts[index].copy())
        for s in corpus.scores
    )
    note = f"{why}: {len(index):,} of {test_set.size:,} segments kept."
    return replace(
        corpus, test_set=kept_set, systems=systems, scores=scores, notes=(*corpus.notes, note)
    )
