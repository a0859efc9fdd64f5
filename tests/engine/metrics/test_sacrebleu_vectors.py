"""sacreBLEU's own test vectors, run through mtgui with sacreBLEU's options (issue 36).

The inputs and expected numbers are those of sacreBLEU's test suite (github.com/mjpost/sacrebleu,
test/test_bleu.py, test_sentence_bleu.py, test_chrf.py, test_ter.py); the tests are ours. Each
number is checked against sacreBLEU's printed expectation (with the tolerance its test uses, as
the expectations are rounded) and against the installed sacreBLEU itself to 1e-9.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtgui.api import read
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.engine.text.settings import Case


def scored(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], metric: str, **options
) -> Statistics:
    """mtgui's statistics of one system, ``references`` as sacreBLEU takes them (streams; an
    empty one is sacreBLEU's "", a reference of no words)."""
    corpus = read([list(r) for r in references], {"sys": list(hypotheses)})
    options.setdefault("empty_refs", "empty")
    return compute_statistics(corpus, (metric,), MetricSettings(**options))


def corpus_bleu(hypotheses, references, **options) -> float:
    """mtgui's corpus BLEU on sacreBLEU's 0-100 scale."""
    return 100 * scored(hypotheses, references, "bleu", **options).score("sys", "bleu")


# -- test_bleu.py

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]
# sacreBLEU's raw_corpus_bleu: floor smoothing (0.1 unless given), no tokenization, effective
# order
RAW = {"tokenize": "none", "bleu_smooth_method": "floor", "bleu_effective_order": True}


@pytest.mark.parametrize(
    ("hypotheses", "references", "value", "expected"),
    [
        (["this is a test", "another test"], [["ref1", "ref2"]], 0.01, 0.0),
        (["this is a test"], [["this is a test"]], 0.01, 1.0),
        (["this is a fest"], [["this is a test"]], 0.01, 0.223606797749979),
        (["test"], [["a test"]], 0.01, 0.3678794411714425),  # effective order
        (["a test"], [["a test"]], 0.01, 1.0),
        (["a little test"], [["a test"]], 0.01, 0.03218297948685433),
        (["am I am a character sequence"], [["I am a symbol string sequence a a"]], 0.0, 0.0),
        (
            ["am I am a character sequence"],
            [["I am a symbol string sequence a a"]],
            None,
            0.1555722182,
        ),
    ],
)
def test_raw_corpus_bleu(hypotheses, references, value, expected):
    score = corpus_bleu(hypotheses, references, **RAW, bleu_smooth_value=value) / 100
    assert score == pytest.approx(expected, abs=1e-8)
    sacrebleu = BLEU(
        tokenize="none", smooth_method="floor", smooth_value=value, effective_order=True
    )
    assert score * 100 == pytest.approx(
        sacrebleu.corpus_score(hypotheses, references).score, abs=1e-9
    )


@pytest.mark.parametrize(
    ("hypotheses", "options", "expected"),
    [
        (HYPS, {}, 48.530827),
        (("", "", ""), {}, 0.0),  # empty hypotheses are not removed
        (HYPS, {"tokenize": "none"}, 49.1919566),
        (HYPS, {"tokenize": "13a"}, 48.530827),
        (HYPS, {"tokenize": "intl"}, 43.91623493),
        (HYPS, {"bleu_smooth_method": "none"}, 48.530827),
    ],
)
def test_corpus_bleu(hypotheses, options, expected):
    options = {"bleu_smooth_method": "exp", **options}  # sacreBLEU's default
    assert corpus_bleu(hypotheses, REFS, **options) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("order", "expected"),
    [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")],
)
def test_max_order(order, expected):
    score = corpus_bleu(HYPS, REFS, bleu_smooth_method="exp", bleu_max_order=order)
    assert f"{score:.2f}" == expected
    sacrebleu = BLEU(max_ngram_order=order).corpus_score(HYPS, REFS).score
    assert score == pytest.approx(sacrebleu, abs=1e-9)


def row(common: list[int], total: list[int], hyp_len: int, ref_len: int) -> np.ndarray:
    return np.array([hyp_len, ref_len, *common, *total], dtype=np.float64)


def test_scoring_of_statistics():
    bleu = Bleu(smooth_method="none")  # compute_bleu's default
    assert bleu.score_one(row([9, 7, 5, 3], [10, 8, 6, 4], 11, 11)) == pytest.approx(
        0.8375922397, abs=1e-8
    )


@pytest.mark.parametrize(
    ("common", "total", "hyp_len", "ref_len", "value"),
    [
        ([0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0),
        ([0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0),
        ([6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1),
        ([0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01),
    ],
)
def test_degenerate_statistics_score_0(common, total, hyp_len, ref_len, value):
    bleu = Bleu(smooth_method="floor", smooth_value=value)
    assert bleu.score_one(row(common, total, hyp_len, ref_len)) == 0.0


# -- test_sentence_bleu.py: segment scores follow the smoothing

REF = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"


@pytest.mark.parametrize(
    ("method", "value", "lowercase", "tokenize", "expected"),
    [
        ("exp", None, False, "13a", 8.493),
        ("mteval", None, False, "13a", 8.493),  # mtgui's default: sentence BLEU as exp
        ("none", None, False, "13a", 0.0),
        ("floor", None, False, "13a", 4.51688),
        ("floor", 0.1, False, "13a", 4.51688),
        ("floor", 0.5, False, "13a", 10.10),
        ("add-k", None, False, "13a", 14.882),
        ("add-k", 1, False, "13a", 14.882),
        ("add-k", 2, False, "13a", 21.389),
        ("exp", None, False, "none", 7.347),
        ("exp", None, False, "intl", 8.493),
        ("exp", None, False, "char", 40.8759),
        ("exp", None, True, "char", 42.0267),
    ],
)
def test_sentence_bleu(method, value, lowercase, tokenize, expected):
    case = Case.FULL if lowercase else Case.SENSITIVE
    stats = scored(
        [SYS], [[REF]], "bleu", tokenize=tokenize, case=case,
        bleu_smooth_method=method, bleu_smooth_value=value,
    )  # fmt: skip
    score = 100 * float(stats.segment_scores("sys", "bleu")[0])
    assert score == pytest.approx(expected, abs=1e-3)
    sacrebleu = BLEU(
        lowercase=lowercase,
        tokenize=tokenize,
        smooth_method="exp" if method == "mteval" else method,
        smooth_value=value,
        effective_order=True,
    )
    assert score == pytest.approx(sacrebleu.sentence_score(SYS, [REF]).score, abs=1e-9)


@pytest.mark.parametrize(
    ("method", "value"),
    [("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("add-k", None), ("add-k", 1)],
)
def test_sentence_bleu_without_a_match_is_0(method, value):
    stats = scored(
        ["this is a cat"], [["okay thanks"]], "bleu",
        bleu_smooth_method=method, bleu_smooth_value=value,
    )  # fmt: skip
    assert stats.segment_scores("sys", "bleu")[0] == 0.0
    assert stats.score("sys", "bleu") == 0.0  # corpus level too, unlike mteval's smoothing


def test_mteval_smoothing_differs_where_nothing_matches():
    """mtgui's default keeps mteval-v13a's BLEU: a system without a match scores above 0."""
    stats = scored(["this is a cat"], [["okay thanks"]], "bleu")
    assert stats.score("sys", "bleu") > 0.0


# -- test_chrf.py

CHRF_CASES = [
    (["abcdefg"], ["hijklmnop"], 0.0),
    (["a"], ["b"], 0.0),
    ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333),
    (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    (
        [
            " risk assessment must be made of those who are qualified and expertise in the "
            "sector - these are the scientists ."
        ],
        [
            "risk assessment has to be undertaken by those who are qualified and expert in that "
            "area - that is the scientists ."
        ],
        63.361730,
    ),
    (
        [" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        64.1302698,
    ),
    (
        ["Niemand hat die Absicht, eine Mauer zu errichten"],
        ["Niemand hat die Absicht, eine Mauer zu errichten"],
        100.0,
    ),
]
CHRF_EFFECTIVE_ORDER = [
    (["a"], ["a"], 100.0),
    ([""], ["reference"], 0.0),
    (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0),
    ([""], ["c"], 0.0),
    (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]
CHRF_WHITESPACE = [
    (
        ["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        67.3481606,
    ),
    (
        [
            "risk assessment must be made of those who are qualified and expertise in the "
            "sector - these are the scientists ."
        ],
        [
            "risk assessment has to be undertaken by those who are qualified and expert in that "
            "area - that is the scientists ."
        ],
        65.2414427,
    ),
]


def chrf(hypotheses, references, **options) -> tuple[float, float]:
    """mtgui's chrF (beta 3, as sacreBLEU's tests) and sacreBLEU's, with the same options."""
    mine = scored(hypotheses, [references], "chrf", chrf_beta=3, **options).score("sys", "chrf")
    theirs = CHRF(
        beta=3,
        whitespace=options.get("chrf_whitespace", False),
        eps_smoothing=options.get("chrf_eps_smoothing", False),
    ).corpus_score(hypotheses, [references])
    return mine, theirs.score


@pytest.mark.parametrize(("hypotheses", "references", "expected"), CHRF_CASES)
def test_chrf_eps_smoothing(hypotheses, references, expected):
    mine, theirs = chrf(hypotheses, references, chrf_eps_smoothing=True)
    assert mine == pytest.approx(expected, abs=1e-4)
    assert mine == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize(("hypotheses", "references", "expected"), CHRF_EFFECTIVE_ORDER)
def test_chrf_effective_order(hypotheses, references, expected):
    mine, theirs = chrf(hypotheses, references)
    assert mine == pytest.approx(expected, abs=1e-4)
    assert mine == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize(("hypotheses", "references", "expected"), CHRF_WHITESPACE)
def test_chrf_whitespace(hypotheses, references, expected):
    mine, theirs = chrf(hypotheses, references, chrf_whitespace=True)
    assert mine == pytest.approx(expected, abs=1e-4)
    assert mine == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize(
    ("hypothesis", "reference", "expected"),
    [
        (
            "Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
            "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.",
            39.14078509,
        ),
        (
            "Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
            "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.",
            31.22557079,
        ),
        (
            "Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
            "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, "
            "připomněli.",
            57.15704367,
        ),
    ],
)
def test_sentence_chrf_eps_smoothing(hypothesis, reference, expected):
    stats = scored([hypothesis], [[reference]], "chrf", chrf_eps_smoothing=True)
    assert float(stats.segment_scores("sys", "chrf")[0]) == pytest.approx(expected, abs=1e-4)


# -- test_ter.py, and its tokenizer's options on the same texts

TER_REAL = (
    [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        "oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere "
        "Größe .",
        "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü "
        'des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
        "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu '
        '. "',
    ],
    [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        "oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten "
        "wird .",
        "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü "
        'des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte '
        "ein .",
        "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über "
        "die Bühne bewegt .",
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu '
        '. "',
    ],
)


@pytest.mark.parametrize(
    ("hypotheses", "references", "expected"),
    [
        (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0),
        (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1),
        ([""], ["a"], 1),
        (["a"], [""], 1),
        ([""], [""], 0),
        (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),
        (*TER_REAL, 0.136),
    ],
)
def test_ter(hypotheses, references, expected):
    score = scored(hypotheses, [references], "ter").score("sys", "ter")
    assert score == pytest.approx(100 * expected, abs=1e-3)


@pytest.mark.parametrize(
    "options",
    [
        {"ter_normalized": True},
        {"ter_no_punct": True},
        {"ter_normalized": True, "ter_asian_support": True},
        {"ter_case_sensitive": True},
        {"ter_normalized": True, "ter_no_punct": True, "ter_case_sensitive": True},
    ],
    ids=str,
)
def test_ter_options(options):
    hypotheses = [*TER_REAL[0], "Der Preis: 1.000,50 EUR (ca. 30%)!", "東京で会いましょう。"]
    references = [*TER_REAL[1], "der Preis beträgt 1.000,50 EUR.", "東京で会おう。"]
    score = scored(hypotheses, [references], "ter", **options).score("sys", "ter")
    sacrebleu = TER(**{name[4:]: value for name, value in options.items()})
    assert score == pytest.approx(sacrebleu.corpus_score(hypotheses, [references]).score, abs=1e-9)
