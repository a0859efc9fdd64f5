"""sacreBLEU's cache of named test sets, laid out as sacreBLEU lays it out, from small files of
our own: the downloaded archive and what it unpacks to under ``NAME/raw`` (sacreBLEU makes the
plain-text field files beside it when a set is first read).

- ``wmt19`` ``de-en``: WMT's SGML (source and reference files), four segments in three
  documents whose ids are in sacreBLEU's own annotation of wmt19 (``SUBSETS``);
- ``wmt23`` ``en-de``: WMT's XML (one file: source, references A and B, a system), four
  segments in two documents with a domain each.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

# (docid, origlang, [(source, reference)]); sacreBLEU annotates bbc.381790 GB-politics,
# rt.com.91337 OTHER-politics-MK, nytimes.184853 US-world.
WMT19 = (
    ("bbc.381790", "en", [("Der Hund beißt den Mann.", "The dog bites the man.")]),
    (
        "rt.com.91337",
        "de",
        [("Es war nicht überraschend.", "It was not surprising."), ("Ja.", "Yes.")],
    ),
    ("nytimes.184853", "en", [("Heute regnet es.", "It is raining today.")]),
)
WMT19_SYSTEM = ["The dog bit the man.", "It wasn't surprising.", "Yes.", "Today it rains."]

# (docid, origlang, domain, [(source, refA, refB, system)])
WMT23 = (
    (
        "doc-news",
        "en",
        "news",
        [
            ("The cat sleeps.", "Die Katze schläft.", "Die Katze pennt.", "Die Katze schläft."),
            ("It is late.", "Es ist spät.", "Es ist schon spät.", "Es ist spät."),
        ],
    ),
    (
        "doc-speech",
        "de",
        "speech",
        [
            ("Good morning.", "Guten Morgen.", "Morgen.", "Guten Tag."),
            ("Thank you.", "Danke.", "Vielen Dank.", "Danke schön."),
        ],
    ),
)


def sacrebleu_home(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Path:
    """Point $SACREBLEU at ``folder`` (for mtgui, and for sacreBLEU's subset filter, which reads
    it at import)."""
    import sacrebleu.utils

    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("SACREBLEU", str(folder))
    monkeypatch.setattr(sacrebleu.utils, "SACREBLEU_DIR", str(folder))
    return folder


def _archive(raw: Path, name: str, members: list[Path]) -> None:
    """The downloaded archive ``name`` in ``raw``, holding the unpacked ``members``."""
    with tarfile.open(raw / name, "w:gz") as archive:
        for member in members:
            archive.add(member, arcname=str(member.relative_to(raw)))


def make_wmt19(home: Path) -> None:
    """sacreBLEU's cache of wmt19 with only de-en, as downloaded and unpacked."""
    raw = home / "wmt19" / "raw"
    (raw / "sgm").mkdir(parents=True)
    sides = {"src": ("newstest2019-deen-src.de.sgm", 0), "ref": ("newstest2019-deen-ref.en.sgm", 1)}
    files = []
    for kind, (file_name, side) in sides.items():
        lines = [f'<{kind}set setid="newstest2019" srclang="de" trglang="en">']
        for docid, origlang, segments in WMT19:
            lines.append(f'<doc sysid="ref" docid="{docid}" genre="news" origlang="{origlang}">')
            lines.append("<p>")
            for number, pair in enumerate(segments, start=1):
                lines.append(f'<seg id="{number}">{pair[side]}</seg>')
            lines += ["</p>", "</doc>"]
        lines.append(f"</{kind}set>")
        path = raw / "sgm" / file_name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        files.append(path)
    _archive(raw, "wmt19.test.tgz", files)


def make_wmt23(home: Path) -> Path:
    """sacreBLEU's cache of wmt23 with only en-de, as downloaded and unpacked; the XML file."""
    raw = home / "wmt23" / "raw"
    folder = raw / "wmt23-news-systems-v.0.1" / "xml"
    folder.mkdir(parents=True)
    lines = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="wmttest2023">']
    lines.append('<collection id="general">')
    for docid, origlang, domain, segments in WMT23:
        lines.append(f'<doc id="{docid}" origlang="{origlang}" domain="{domain}">')
        for tag, attributes, side in (
            ("src", 'lang="en"', 0),
            ("ref", 'lang="de" translator="refA"', 1),
            ("ref", 'lang="de" translator="refB"', 2),
            ("hyp", 'language="de" system="Ostrich"', 3),
        ):
            segs = "".join(
                f'<seg id="{n}">{texts[side]}</seg>' for n, texts in enumerate(segments, start=1)
            )
            lines.append(f"<{tag} {attributes}><p>{segs}</p></{tag}>")
        lines.append("</doc>")
    lines += ["</collection>", "</dataset>"]
    path = folder / "wmttest2023.en-de.all.xml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _archive(raw, "wmt23.v.0.1.tar.gz", [path])
    return path
