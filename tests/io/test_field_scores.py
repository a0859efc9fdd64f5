"""The score files the field writes: WMT's DA and MQM files, MetricX's JSONL, mt-metrics-eval's
score files, and sacreBLEU's own output (recognised and refused in words).

The hand-made test set has two documents listed out of ASCII order (``d2`` with two segments,
then ``d10`` with one), so that WMT's SID, which numbers the segments with the documents
sorted by docid, differs from the position in the file: SID 1 is ``d10``'s segment (position
3), SIDs 2 and 3 are ``d2``'s.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from shared_corpora import SHARED_DATA

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.docids import docids_from_lines
from mtgui.io.entries import read_entry
from mtgui.io.field_formats import (
    METRICX_JSONL,
    MTME_SEGMENTS,
    MTME_SYSTEMS,
    SACREBLEU_JSON,
    SACREBLEU_TEXT,
    WMT_DA,
    WMT_DA_SYSTEMS,
)
from mtgui.io.loader import load_file
from mtgui.io.mqm import MQM_TSV, error_spans, weight
from mtgui.io.score_choices import score_offer, window_score_format
from mtgui.io.score_formats import score_format
from mtgui.io.score_sources import ScoreSource, load_score_source, needs_system
from mtgui.io.window_words import window_message

SYSTEMS = ("Online-B", "Allegro.eu")
TEXTS = ("a b c", "d e f", "g h i")


def _sgml(tag: str, sysid: str) -> str:
    docs = [("d2", TEXTS[:2]), ("d10", TEXTS[2:])]
    body = "".join(
        f'<doc sysid="{sysid}" docid="{doc}">\n'
        + "".join(f'<seg id="{i}">{t}</seg>\n' for i, t in enumerate(texts, start=1))
        + "</doc>\n"
        for doc, texts in docs
    )
    return f'<{tag} setid="t" srclang="is" trglang="en">\n{body}</{tag}>\n'


@pytest.fixture
def sgml_files(tmp_path):
    (tmp_path / "ref.sgm").write_text(_sgml("refset", "ref"), encoding="utf-8")
    files = [load_file(tmp_path / "ref.sgm", {Role.REFERENCE})]
    for name in SYSTEMS:
        path = tmp_path / f"{name}.sgm"
        path.write_text(_sgml("tstset", name), encoding="utf-8")
        files.append(load_file(path, {Role.SYSTEM}))
    return files


@pytest.fixture
def text_files(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    files = [load_file(tmp_path / "ref.txt", {Role.REFERENCE})]
    for name in SYSTEMS:
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
        files.append(load_file(path, {Role.SYSTEM}))
    return files


DA_ROWS = "".join(
    f"{row} \n"  # WMT ends every line with a space
    for row in (
        "SYS SID RAW.SCR Z.SCR N",
        "Online-B.4 1 70 0.5 2",
        "Online-B.4 2 60 -0.5 1",
        "Online-B.4 3 80 1.5 3",
        "Allegro.eu.2 1 50 -1 1",
        "Allegro.eu.2 3 90 2 2",
        "HUMAN.0 2 95 1.25 1",
    )
)


def _means(corpus, system, metric="human"):
    scores = corpus.scores_of(system, metric)
    assert scores is not None
    return scores.means.tolist()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_wmt_da_sids_are_placed_by_the_documents_sorted_by_docid(tmp_path, sgml_files):
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS)
    text = path.read_text(encoding="utf-8")
    assert score_format(text) == WMT_DA
    corpus = assemble(sgml_files, [load_score_source(ScoreSource(path))])
    # d2's segments are positions 1-2 (SIDs 2-3), d10's is position 3 (SID 1).
    assert _means(corpus, "Online-B") == [-0.5, 1.5, 0.5]
    assert _means(corpus, "Allegro.eu")[1:] == [2.0, -1.0]
    assert np.isnan(_means(corpus, "Allegro.eu")[0])
    assert any("HUMAN.0: a human translation scored as a system" in n for n in corpus.notes)


def test_wmt_da_raw_on_request(tmp_path, sgml_files):
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS)
    corpus = assemble(sgml_files, [load_score_source(ScoreSource(path, "raw"))])
    assert _means(corpus, "Online-B") == [60.0, 80.0, 70.0]
    with pytest.raises(InputError, match=r"Z\.SCR and RAW\.SCR, not 'N'"):
        load_score_source(ScoreSource(path, "N"))


def test_wmt_da_runs_are_named_by_the_ranking_file_where_present(tmp_path, sgml_files):
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS.replace("Online-B.4", "Run.4"))
    _write(tmp_path, "ad-sys-ranking-is-en-z-names.csv", "71.3 0.028 3 3 Run.4 Online-B\n")
    table = load_score_source(ScoreSource(path))
    assert table.systems == ("Online-B", "Allegro.eu.2", "HUMAN.0")
    corpus = assemble(sgml_files, [table])
    assert _means(corpus, "Online-B") == [-0.5, 1.5, 0.5]


def test_a_pipe_or_folder_named_as_the_ranking_file_is_passed_over_not_read(tmp_path, sgml_files):
    """Reading a FIFO there waited forever; the runs keep their names without the .N."""
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS)
    os.mkfifo(tmp_path / "ad-sys-ranking-is-en-z-names.csv")
    assert load_score_source(ScoreSource(path)).systems == ("Online-B.4", "Allegro.eu.2", "HUMAN.0")


def test_two_runs_of_one_system_are_never_pooled(tmp_path, sgml_files):
    rows = DA_ROWS + "Online-B.5 1 10 -3 1 \n"
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", rows)
    corpus = assemble(sgml_files, [load_score_source(ScoreSource(path))])
    assert corpus.scores_of("Online-B", "human") is None
    assert any("Online-B.4" in note and "Online-B.5" in note for note in corpus.notes)


def test_wmt_da_needs_documents_and_says_so(tmp_path, text_files):
    path = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS)
    table = load_score_source(ScoreSource(path))
    with pytest.raises(InputError, match=r"sorted by their ids .* has no documents") as refused:
        assemble(text_files, [table])
    in_window = window_message(refused.value)
    assert "(add a file of document ids in the window)" in in_window and "--" not in in_window
    docids = docids_from_lines(tmp_path / "ids", ("d2", "d2", "d10"))
    corpus = assemble(text_files, [table], docids=docids)
    assert _means(corpus, "Online-B") == [-0.5, 1.5, 0.5]


def test_wmt_system_level_files_are_refused_in_words(tmp_path):
    path = _write(
        tmp_path,
        "ad-sys-scores-is-en.csv",
        "RAW.SCR Z.SCR N SYS N.ALL \n70 0.1 3 Online-B.4 4 \n",
    )
    assert score_format(path.read_text(encoding="utf-8")) == WMT_DA_SYSTEMS
    with pytest.raises(InputError, match=r"per system .* load ad-seg-scores-is-en\.csv"):
        load_score_source(ScoreSource(path))
    entry = read_entry(path, None)
    assert entry.problem is not None and "ad-seg-scores-is-en.csv" in entry.problem
    ranking = _write(tmp_path, "ad-sys-ranking-is-en-z-names.csv", "71.3 0.028 3 3 B.4 B\n")
    assert "ranking" in (read_entry(ranking, None).problem or "")


def test_metricx_jsonl_with_system_and_segment_ids(tmp_path, text_files):
    lines = [
        {"system_id": name, "segment_id": i, "prediction": 1.0 + i + (name == "Online-B")}
        for name in SYSTEMS
        for i in range(3)
    ]
    path = _write(tmp_path, "metricx.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    text = path.read_text(encoding="utf-8")
    assert score_format(text) == METRICX_JSONL
    assert not needs_system(text)
    offer = score_offer(text, path, window_score_format(text, path) or "")
    assert [(c.metric, c.higher_is_better) for c in offer.choices] == [("metricx", False)]
    table = load_score_source(ScoreSource(path, metric="metricx", higher_is_better=False))
    corpus = assemble(text_files, [table])
    assert _means(corpus, "Online-B", "metricx") == [2.0, 3.0, 4.0]
    assert _means(corpus, "Allegro.eu", "metricx") == [1.0, 2.0, 3.0]


def test_metricx_jsonl_of_one_system_needs_its_name(tmp_path, text_files):
    rows = "".join(json.dumps({"hypothesis": "x", "prediction": p}) + "\n" for p in (3, 1, 2))
    path = _write(tmp_path, "out.jsonl", rows)
    assert needs_system(path.read_text(encoding="utf-8"))
    with pytest.raises(InputError, match="MetricX's output, whose error scores are better when"):
        load_score_source(ScoreSource(path, system="Online-B"))  # unnamed: human, upside down
    with pytest.raises(InputError, match="no system_id"):
        load_score_source(ScoreSource(path, metric="metricx"))
    table = load_score_source(ScoreSource(path, metric="metricx", system="Online-B"))
    assert _means(assemble(text_files, [table]), "Online-B", "metricx") == [3.0, 1.0, 2.0]


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ({"system_id": "", "segment_id": 1, "prediction": 1}, 'system_id "" is not'),
        ({"system_id": {"a": [1]}, "segment_id": 1, "prediction": 1}, "is not a system's name"),
        ({"system_id": True, "segment_id": 1, "prediction": 1}, "is not a system's name"),
        ({"system_id": "Online-B", "segment_id": -5, "prediction": 1}, "from 0 upwards"),
    ],
)
def test_metricx_lines_with_junk_ids_are_refused_at_their_line(tmp_path, item, words):
    good = {"system_id": "Online-B", "segment_id": 0, "prediction": 2.5}
    path = _write(tmp_path, "m.jsonl", json.dumps(good) + "\n" + json.dumps(item) + "\n")
    with pytest.raises(InputError, match="line 2") as refused:
        load_score_source(ScoreSource(path, metric="metricx", higher_is_better=False))
    assert words in str(refused.value)


def test_metricx_null_system_id_takes_the_name_given(tmp_path, text_files):
    rows = "".join(json.dumps({"system_id": None, "prediction": p}) + "\n" for p in (3, 1, 2))
    path = _write(tmp_path, "out.jsonl", rows)
    table = load_score_source(ScoreSource(path, metric="metricx", system="Online-B"))
    assert _means(assemble(text_files, [table]), "Online-B", "metricx") == [3.0, 1.0, 2.0]


def test_mt_metrics_eval_segment_scores_and_system_scores(tmp_path, text_files):
    rows = "".join(f"{s}\t{v}\n" for s in SYSTEMS for v in ("0.5", "None", "0.25"))
    path = _write(tmp_path, "BLEURT-20-refA.seg.score", rows)
    text = path.read_text(encoding="utf-8")
    assert score_format(text, path=path) == MTME_SEGMENTS
    offer = score_offer(text, path, MTME_SEGMENTS)
    assert [c.metric for c in offer.choices] == ["bleurt-20-refa"]
    table = load_score_source(ScoreSource(path, metric="bleurt"))
    corpus = assemble(text_files, [table])
    assert _means(corpus, "Allegro.eu", "bleurt")[::2] == [0.5, 0.25]
    system_level = _write(tmp_path, "BLEU-refA.sys.score", "Online-B\t30.1\nAllegro.eu\t29\n")
    assert score_format(system_level.read_text(encoding="utf-8")) == MTME_SYSTEMS
    with pytest.raises(InputError, match=r"per system .*\*\.seg\.score"):
        load_score_source(ScoreSource(system_level))


MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
MQM_ROWS = [
    # Online-B, segment 1 (d2 #1): rater1 Major + Minor Fluency/Punctuation, rater2 no error.
    "Online-B.7\td2\t1\t1\trater1\ts\t<v>a</v> b c\tAccuracy/Mistranslation\tMajor",
    "Online-B.7\td2\t1\t1\trater1\ts\ta b<v>,</v> c\tFluency/Punctuation\tMinor",
    "Online-B.7\td2\t1\t1\trater2\ts\ta b c\tNo-error\tNo-error",
    # segment 2: a Non-translation.
    "Online-B.7\td2\t2\t2\trater1\ts\t<v>d e f</v>\tNon-translation!\tMajor",
    # segment 3 (d10 #1): a Minor Fluency/Grammar and a Neutral.
    "Online-B.7\td10\t1\t3\trater1\ts\tg <v>h</v> i\tFluency/Grammar\tMinor",
    "Online-B.7\td10\t1\t3\trater1\ts\tg h <v>i</v>\tStyle/Awkward\tNeutral",
]


def test_mqm_rows_giving_one_segment_two_seg_ids_are_refused_at_the_line(tmp_path):
    """Else the second segment's errors were added to the first's penalty without a word."""
    rows = [*MQM_ROWS, "Online-B.7\td10\t1\t2\trater1\ts\tg h i\tNo-error\tNo-error"]
    path = _write(tmp_path, "mqm.tsv", MQM_HEADER + "\n".join(rows) + "\n")
    with pytest.raises(InputError, match="line 8: seg_id 2, but line 6 gives seg_id 3"):
        load_score_source(ScoreSource(path, metric="mqm", higher_is_better=False))


def test_mqm_penalties_use_freitag_weights_and_average_raters(tmp_path, sgml_files, text_files):
    path = _write(tmp_path, "mqm_newstest.tsv", MQM_HEADER + "\n".join(MQM_ROWS) + "\n")
    text = path.read_text(encoding="utf-8")
    assert score_format(text) == MQM_TSV
    assert weight("Minor", "Fluency/Punctuation") == 0.1
    assert weight("Major", "Non-translation!") == 25
    assert weight("No-error", "No-error") == 0
    assert error_spans(MQM_ROWS[0]) == ["a"]
    source = ScoreSource(path, metric="mqm", higher_is_better=False)
    for files in (sgml_files, text_files):  # by docid and segment, or by seg_id
        corpus = assemble(files, [load_score_source(source)])
        assert _means(corpus, "Online-B", "mqm") == pytest.approx([(5.1 + 0) / 2, 25, 1])
        assert corpus.scores_of("Online-B", "mqm").higher_is_better is False
    marked = corpus.scores_of("Online-B", "mqm").annotations
    assert marked[0] == (
        "Major Accuracy/Mistranslation (rater1, 5): <v>a</v> b c",
        "Minor Fluency/Punctuation (rater1, 0.1): a b<v>,</v> c",
    )
    assert len(marked[2]) == 2  # the Neutral error is shown, weighing 0
    with pytest.raises(InputError, match="--mqm FILE"):
        load_score_source(ScoreSource(path))  # as human, higher is better: upside down
    accuracy = load_score_source(ScoreSource(path, "accuracy", "mqm-accuracy", None, False))
    corpus = assemble(sgml_files, [accuracy])
    assert _means(corpus, "Online-B", "mqm-accuracy") == [2.5, 0.0, 0.0]
    offer = score_offer(text, path, MQM_TSV)
    assert [(c.metric, c.chosen, c.label) for c in offer.choices][:3] == [
        ("mqm", True, "all errors"),
        ("mqm-accuracy", False, "accuracy errors"),
        ("mqm-fluency", False, "fluency errors"),
    ]


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        (
            '{\n "name": "BLEU",\n "score": 33.3,\n "signature": "nrefs:1|case:mixed"\n}\n',
            SACREBLEU_JSON,
            "sacreBLEU's JSON output",
        ),
        (
            '[{"system": "a.txt", "BLEU": "30.0"}, {"system": "b.txt", "BLEU": "31.0"}]',
            SACREBLEU_JSON,
            "whole test set",
        ),
        (
            "BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = 71.7 100.0/"
            "100.0/100.0/0.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)\n",
            SACREBLEU_TEXT,
            "per sentence with -sl",
        ),
    ],
)
def test_sacrebleu_outputs_are_recognised_and_refused(tmp_path, text, kind, words):
    path = _write(tmp_path, "out.json", text)
    assert score_format(text) == kind
    with pytest.raises(InputError, match=words) as refused:
        load_score_source(ScoreSource(path))
    assert "system outputs and the references" in refused.value.message
    assert window_score_format(text, path) == kind
    assert "sacreBLEU" in (read_entry(path, None).problem or "")


def test_the_window_never_offers_id_or_count_columns(tmp_path):
    path = _write(
        tmp_path, "mapped.tsv", "sysid\tsid\tline\tz\traw\tn\trid\nA\t3\t1\t0.5\t70\t2\t9\n"
    )
    text = path.read_text(encoding="utf-8")
    offer = score_offer(text, path, window_score_format(text, path) or "")
    assert [c.column for c in offer.choices] == ["z", "raw"]
    da = _write(tmp_path, "ad-seg-scores-is-en.csv", DA_ROWS)
    da_text = da.read_text(encoding="utf-8")
    da_offer = score_offer(da_text, da, window_score_format(da_text, da) or "")
    assert [(c.column, c.metric, c.chosen) for c in da_offer.choices] == [
        ("Z.SCR", "human", True),
        ("RAW.SCR", "human-raw", False),
    ]


IS_EN = SHARED_DATA / "wmt21-newstest2021-is-en"


@pytest.mark.skipif(
    not (IS_EN / "human").is_dir(), reason=f"the shared WMT data is absent ({SHARED_DATA})"
)
def test_shared_is_en_da_reproduces_wmt_system_scores_and_sid_mapping():
    sgm = IS_EN / "sgm"
    files = [load_file(sgm / "newstest2021.is-en.ref.A.en.sgm", {Role.REFERENCE})]
    files += [load_file(p, {Role.SYSTEM}) for p in sorted((sgm / "systems").iterdir())]
    human = IS_EN / "human"
    tables = [
        load_score_source(ScoreSource(human / "ad-seg-scores-is-en.csv", column))
        for column in (None, "raw")
    ]
    tables[1] = type(tables[1])(**{**tables[1].__dict__, "metric": "raw"})
    corpus = assemble(files, tables)
    wmt = {}
    for line in (human / "ad-sys-scores-is-en.csv").read_text().splitlines()[1:]:
        raw, z, _, label, _ = line.split()
        wmt[label.rsplit(".", 1)[0]] = (float(raw), float(z))
    assert len(corpus.systems) == 8
    for system in corpus.systems:
        z = corpus.scores_of(system.name, "human").means
        raw = corpus.scores_of(system.name, "raw").means
        assert float(np.nanmean(z)) == pytest.approx(wmt[system.name][1], abs=1e-12)
        assert float(np.nanmean(raw)) == pytest.approx(wmt[system.name][0], abs=1e-9)
    # The README's mapping of SID to the txt line, for every scored segment of one system.
    mapped = (human / "seg-scores-mapped.tsv").read_text().splitlines()[1:]
    z = corpus.scores_of("Online-G", "human").means
    for row in (r.split("\t") for r in mapped):
        if row[1] == "Online-G":
            assert z[int(row[4]) - 1] == float(row[8])


@pytest.mark.skipif(
    not (IS_EN / "human").is_dir(), reason=f"the shared WMT data is absent ({SHARED_DATA})"
)
def test_shared_is_en_good_stnd_is_refused_naming_the_segment_file():
    entry = read_entry(IS_EN / "human" / "ad-isen-good-stnd.csv", None)
    assert entry.problem is not None and "ad-seg-scores-is-en.csv" in entry.problem
