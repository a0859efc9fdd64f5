"""Our batch 13a equals sacreBLEU's tokenizer token for token; case folding as specified."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

from mtgui.engine.settings import Case
from mtgui.engine.tokenize import fold_case, tokenize

SACRE_13A = Tokenizer13a()
CHARACTERS = " .,-0123456789aZéÜ&;<>\"'{}[]()~`^_\\|/?!@#$%*+=:\n\t\r"
PIECES = ("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "\u00a0", "\u2028", "\x1c", "\x85", "ß")
ALPHABET = st.sampled_from([*CHARACTERS, *PIECES])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(ALPHABET, max_size=20).map("".join), min_size=1, max_size=8))
def test_13a_equals_sacrebleu_on_random_text(lines):
    assert tokenize(lines, "13a", Case.SENSITIVE) == [SACRE_13A(x.rstrip()).split() for x in lines]
    assert tokenize(lines, "13a", Case.FULL) == [
        SACRE_13A(x.lower().rstrip()).split() for x in lines
    ]


def test_13a_examples():
    assert tokenize(
        ["Hello, world. 3.5 million-ish 1-2 &quot;x&quot; A&amp;B"], "13a", Case.SENSITIVE
    ) == [
        [
            "Hello",
            ",",
            "world",
            ".",
            "3.5",
            "million-ish",
            "1",
            "-",
            "2",
            '"',
            "x",
            '"',
            "A",
            "&",
            "B",
        ]
    ]


def test_ascii_lowercasing_keeps_umlauts_as_mteval_does():
    assert fold_case("ÜBER Äpfel ABC", Case.ASCII) == "Über Äpfel abc"
    assert fold_case("ÜBER Äpfel ABC", Case.FULL) == "über äpfel abc"
    assert tokenize(["ÜBER Äpfel"], "13a", Case.ASCII) == [["Über", "Äpfel"]]
    # mteval decodes entities before lowercasing, so an upper-case entity is not decoded
    assert tokenize(["&AMP;"], "13a", Case.ASCII) == [["&", "amp", ";"]]
    assert tokenize(["&AMP;"], "13a", Case.FULL) == [["&"]]


def test_other_tokenizers_are_sacrebleus():
    line = "Die Katze (3,5 kg) saß — auf «der» Matte!"
    assert tokenize([line], "intl", Case.SENSITIVE) == [TokenizerV14International()(line).split()]
    assert tokenize([line], "none", Case.SENSITIVE) == [line.split()]
    assert tokenize(["abc d"], "char", Case.SENSITIVE) == [["a", "b", "c", "d"]]
    assert tokenize(["我爱你 ok"], "zh", Case.SENSITIVE) == [["我", "爱", "你", "ok"]]
