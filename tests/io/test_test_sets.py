"""Named test sets through sacreBLEU's catalogue and cache (issue 36, point 3).

The caches are laid out as sacreBLEU lays them out, from small files of our own
(tests/sacrebleu_cache.py); the network is off in every test. What mtgui reads is what
sacreBLEU's dataset classes give for the set, and ``--origlang``/``--subset`` keep the segments
sacreBLEU's own ``filter_subset`` keeps.
"""

from __future__ import annotations

import json

import pytest
from sacrebleu_cache import WMT19, WMT19_SYSTEM, WMT23, make_wmt19, make_wmt23, sacrebleu_home
from spm_models import go_offline

from mtgui.cli.main import main
from mtgui.engine.core import InputError
from mtgui.io.test_sets import catalogue, language_pairs, named_test_set, read_field, subset_mask


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = sacrebleu_home(monkeypatch, tmp_path / "sacrebleu")
    go_offline(monkeypatch)
    return folder


def test_the_catalogue_is_sacrebleus():
    names = catalogue()
    assert {"wmt23", "wmt19", "iwslt17"} <= set(names)
    assert names.index("wmt23") < names.index("wmt19")  # newest first, as sacrebleu --list
    assert "en-de" in language_pairs("wmt23")
    assert language_pairs("no-such-set") == []


def test_an_sgml_set_gives_source_references_and_document_ids(home):
    make_wmt19(home)
    named = named_test_set("wmt19", "de-en")
    assert named.source == home / "wmt19" / "wmt19.de-en.src"  # sacreBLEU's own files
    assert named.references == (home / "wmt19" / "wmt19.de-en.ref",)
    segments = [pair for _, _, pairs in WMT19 for pair in pairs]
    assert read_field(named.source) == [source for source, _ in segments]
    assert read_field(named.references[0]) == [reference for _, reference in segments]
    assert named.docids is not None
    assert read_field(named.docids) == [doc for doc, _, pairs in WMT19 for _ in pairs]
    assert dict(named.attributes).keys() == {"origlang", "genre"}


def test_an_xml_set_gives_the_references_sacrebleu_scores_against(home):
    make_wmt23(home)
    named = named_test_set("wmt23", "en-de")
    assert named.references == (home / "wmt23" / "wmt23.en-de.ref-refA",)  # refA, not refB
    assert read_field(named.references[0]) == [s[1] for *_, segs in WMT23 for s in segs]
    assert dict(named.attributes).keys() == {"origlang", "domain"}


@pytest.mark.parametrize(
    ("name", "pair", "origlang", "subset"),
    [
        ("wmt19", "de-en", "en", None),
        ("wmt19", "de-en", "non-en", None),
        ("wmt19", "de-en", None, "country:GB"),
        ("wmt19", "de-en", "en", "world"),
        ("wmt23", "en-de", "non-en", None),
        ("wmt23", "en-de", None, "spe+ch"),
    ],
)
def test_origlang_and_subset_keep_what_sacrebleu_keeps(home, name, pair, origlang, subset):
    from sacrebleu.utils import filter_subset

    (make_wmt19 if name == "wmt19" else make_wmt23)(home)
    named = named_test_set(name, pair)
    lines = read_field(named.source)
    (theirs,) = filter_subset([lines], name, pair, origlang, subset)
    mask = subset_mask(named, origlang, subset)
    assert [line for line, keep in zip(lines, mask, strict=True) if keep] == theirs


def test_a_broken_cache_annotation_names_its_file_instead_of_crashing(home):
    """An origlang file shorter than the domains (a cache cut short) was an internal error."""
    make_wmt23(home)
    named = named_test_set("wmt23", "en-de")
    origlang = dict(named.attributes)["origlang"]
    origlang.write_text("en\n", encoding="utf-8")
    with pytest.raises(InputError, match="cache of the test set wmt23 en-de is broken") as caught:
        subset_mask(named, "en", "news")
    assert caught.value.path == origlang and "Delete the folder" in (caught.value.hint or "")


def test_eval_on_a_named_set_equals_sacrebleu_on_its_files(home, tmp_path, capsys):
    import sacrebleu
    from sacrebleu.utils import filter_subset

    make_wmt19(home)
    system = tmp_path / "system.txt"
    system.write_text("\n".join(WMT19_SYSTEM) + "\n", encoding="utf-8")
    args = ["eval", "--test-set", "wmt19", "-l", "de-en", "--origlang", "en", "--hyp", str(system)]
    assert main([*args, "-b", "0", "-m", "bleu", "--smooth-method", "exp", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    reference = read_field(home / "wmt19" / "wmt19.de-en.ref")  # made by sacreBLEU's code
    hyps, refs = filter_subset([WMT19_SYSTEM, reference], "wmt19", "de-en", "en", None)
    expected = sacrebleu.corpus_bleu(hyps, [refs]).score
    assert 100 * data["systems"][0]["scores"]["bleu"]["score"] == pytest.approx(expected, 1e-9)
    assert data["test_set"]["segments"] == 2
    assert data["test_set"] == {"segments": 2, "documents": 2, "references": ["wmt19.de-en"]}
    notes = " ".join(data["notes"])
    assert "--origlang en: 2 of 4 segments kept." in notes


@pytest.mark.parametrize("given", ["plain text", "the set's XML"])
def test_the_documents_attributes_make_breakdowns(home, tmp_path, capsys, given):
    """With plain-text outputs the documents come from the set's document ids; with the set's
    own XML file (which holds the systems) from that file."""
    xml = make_wmt23(home)
    system = tmp_path / "system.txt"
    system.write_text("\n".join(s[3] for *_, segs in WMT23 for s in segs) + "\n")
    system = system if given == "plain text" else xml
    args = ["eval", "--test-set", "wmt23", "-l", "en-de", "--hyp", str(system), "-b", "0"]
    assert main([*args, "--by", "domain", "-m", "bleu"]) == 0
    out = capsys.readouterr().out
    assert "Test set: 4 segments in 2 documents (wmt23, en-de)" in out
    assert "news" in out and "speech" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--test-set", "wmt2023", "-l", "en-de"], "'wmt2023' is not a test set sacreBLEU knows"),
        (["--test-set", "wmt23"], "the test set wmt23 needs a language pair (-l/--language-pair)"),
        (["--test-set", "wmt23", "-l", "de-xx"], "the test set wmt23 has no language pair de-xx"),
        (["--test-set", "wmt23", "-l", "en-de", "--ref", "r.txt"], "--ref cannot be given"),
        (["--origlang", "en", "--ref", "r.txt"], "--origlang needs a test set"),
        (["--origlang", "en", "--demo"], "--origlang needs a test set"),
        (["--test-set", "wmt23", "-l", "en-de", "--demo"], "--demo cannot be given"),
        (
            ["--test-set", "wmt23", "-l", "en-de"],
            "the test set wmt23 (en-de) is not in sacreBLEU's cache",
        ),
    ],
)
def test_mistakes_and_an_uncached_set_offline_exit_2_in_words(home, capsys, args, message):
    assert main(["eval", "--hyp", "h.txt", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_an_uncached_set_offline_says_what_to_do(home):
    with pytest.raises(InputError) as caught:
        named_test_set("wmt23", "en-de")
    hint = caught.value.hint or ""
    assert "sacrebleu -t wmt23 -l en-de --echo src" in hint
    assert str(home) in hint
    assert "could not be downloaded" in caught.value.problem


def test_keeping_segments_keeps_every_systems_texts_and_scores_in_step():
    from dataclasses import replace

    import numpy as np
    from metric_corpora import ORIGIN, make_corpus

    from mtgui.engine.core.corpus import SegmentScores
    from mtgui.io.test_sets import keep_segments

    corpus = make_corpus([["a", "b", "c"], ["A", "B", "C"]], one=["x", "y", "z"])
    scores = SegmentScores("one", np.array([1.0, 2.0, 3.0]), np.array([1, 1, 0]), ORIGIN)
    corpus = replace(corpus, scores=(scores,))
    kept = keep_segments(corpus, [True, False, True], "--origlang en")
    assert [r.texts for r in kept.test_set.references] == [("a", "c"), ("A", "C")]
    assert kept.test_set.seg_ids == ("1", "3")  # the lines as in the files
    assert kept.systems[0].hypotheses == ("x", "z")
    assert kept.scores[0].means.tolist() == [1.0, 3.0]
    assert kept.scores[0].counts.tolist() == [1, 0]
    assert kept.notes[-1] == "--origlang en: 2 of 3 segments kept."
