"""A byte-order mark is dropped, and a note names every file that had one (issue 36, point 5):
sacreBLEU keeps a UTF-8 mark as text, so a user comparing the two numbers can see why."""

from __future__ import annotations

import codecs

from mtgui.api import read
from mtgui.engine.core.corpus import Role
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file


def test_every_file_with_a_mark_is_named_once(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_bytes(codecs.BOM_UTF8 + b"the cat sat\nhello world\n")
    plain = tmp_path / "plain.txt"
    plain.write_text("the cat sat\nhello world\n", encoding="utf-8")
    wide = tmp_path / "wide.txt"
    wide.write_bytes(codecs.BOM_UTF16_LE + "the cat sat\nhello\n".encode("utf-16-le"))
    corpus = read([ref], [plain, wide])
    bom = [note for note in corpus.notes if "byte-order mark" in note]
    assert bom == [
        f"{ref}: the byte-order mark at its start was dropped (sacreBLEU keeps a UTF-8 one as "
        "text, part of the first segment, so its scores of this file can differ slightly).",
        f"{wide}: the byte-order mark at its start was dropped (sacreBLEU keeps a UTF-8 one as "
        "text, part of the first segment, so its scores of this file can differ slightly).",
    ]
    assert corpus.test_set.references[0].texts[0] == "the cat sat"  # the mark is not text


def test_a_file_of_several_systems_is_named_once(tmp_path):
    sgml = tmp_path / "systems.sgm"
    docs = "".join(
        f'<tstset setid="s" srclang="en" trglang="de" sysid="{name}"><doc docid="d">'
        f'<seg id="1">a b</seg></doc></tstset>\n'
        for name in ("A", "B")
    )
    sgml.write_bytes(codecs.BOM_UTF8 + f"<mteval>\n{docs}</mteval>\n".encode())
    ref = tmp_path / "ref.sgm"
    ref.write_text(
        '<refset setid="s" srclang="en" trglang="de"><doc docid="d" sysid="ref">'
        '<seg id="1">a b</seg></doc></refset>\n',
        encoding="utf-8",
    )
    corpus = assemble([load_file(ref, {Role.REFERENCE}), load_file(sgml, {Role.SYSTEM})])
    assert len(corpus.systems) == 2
    assert sum("byte-order mark" in note for note in corpus.notes) == 1


def test_no_mark_no_note(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b\n", encoding="utf-8")
    assert not [n for n in read([ref], {"s": ["a b"]}).notes if "byte-order" in n]
