"""Every reader on every file of the real WMT data in ../shared/data.

The datasets' golden.json lists their files, system ids and sizes; these tests load each form
(NIST SGML, WMT XML, plain text) and check that all forms give the same test set and the same
text, the SGML one exactly as mteval-v13a sees it (entities are decoded later, by the tokenizer).
Skipped with a reason where ../shared is absent.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from mtgui.engine.core.corpus import Corpus, Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file, load_scores
from mtgui.io.textutil import collapse_space

pytestmark = pytest.mark.shared

# The same folder as conftest's shared_data fixture; needed here at collection time.
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
DATASETS = sorted(p.parent.name for p in SHARED_DATA.glob("*/golden.json"))


def mteval_entities(text: str) -> str:
    """The four entities mteval-v13a's tokenizer decodes, in its order."""
    for entity, char in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
        text = text.replace(entity, char)
    return text


def golden(shared_data: Path, name: str) -> dict:
    return json.loads((shared_data / name / "golden.json").read_text(encoding="utf-8"))


def load(folder: Path, form: str, info: dict) -> Corpus:
    """Load a dataset in one form ('sgm' or 'txt') from its golden.json listing."""
    files = []
    if info["source"].get(form):
        files.append(load_file(folder / info["source"][form], {Role.SOURCE}))
    files += [load_file(folder / r[form], {Role.REFERENCE}) for r in info["references"]]
    files += [load_file(folder / s[form], {Role.SYSTEM}) for s in info["systems"]]
    return assemble(files)


def segments_tsv(folder: Path) -> list[tuple[str, str]]:
    with (folder / "segments.tsv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    return [(row[1], row[2]) for row in rows[1:]]


@pytest.fixture(
    params=DATASETS
    or [
        pytest.param(
            "none",
            marks=pytest.mark.skip(
                reason=f"the shared WMT data is not available here ({SHARED_DATA} is absent)"
            ),
        )
    ]
)
def dataset(request, shared_data):
    return shared_data / request.param, golden(shared_data, request.param)


def test_plain_text_form_loads_with_golden_names_and_sizes(dataset):
    folder, info = dataset
    corpus = load(folder, "txt", info)
    assert corpus.test_set.size == info["n_segments"]
    assert corpus.system_names == tuple(s["sysid"] for s in info["systems"])
    assert corpus.test_set.num_references == len(info["references"])
    if len(info["references"]) > 1:
        assert [r.name for r in corpus.test_set.references] == [r["id"] for r in info["references"]]
    assert not corpus.test_set.has_documents


def test_sgml_form_gives_the_mteval_text_of_the_plain_text_form(dataset):
    folder, info = dataset
    if not info["systems"][0].get("sgm"):
        pytest.skip(f"{folder.name} has no SGML form")
    sgml, text = load(folder, "sgm", info), load(folder, "txt", info)
    assert sgml.system_names == tuple(s["sysid"] for s in info["systems"])
    assert len(sgml.test_set.documents) == info["n_documents"]
    assert list(zip(sgml.test_set.doc_ids, sgml.test_set.seg_ids, strict=True)) == segments_tsv(
        folder
    )
    pairs = [(s.hypotheses, text.system(s.name).hypotheses) for s in sgml.systems]
    pairs += [
        (a.texts, b.texts)
        for a, b in zip(sgml.test_set.references, text.test_set.references, strict=True)
    ]
    assert sgml.test_set.source is not None and text.test_set.source is not None
    pairs.append((sgml.test_set.source.texts, text.test_set.source.texts))
    for from_sgml, from_text in pairs:
        # mteval collapses whitespace runs (is-en reference line 360 has a double space).
        assert [mteval_entities(t) for t in from_sgml] == [collapse_space(t) for t in from_text]


def test_wmt_xml_form_equals_the_plain_text_form(dataset):
    folder, info = dataset
    if not info.get("xml"):
        pytest.skip(f"{folder.name} has no WMT XML form")
    xml = assemble([load_file(folder / info["xml"]["file"])])
    text = load(folder, "txt", info)
    assert sorted(xml.system_names) == info["xml"]["systems_in_xml"]
    assert [r.name for r in xml.test_set.references] == info["xml"]["references_in_xml"]
    assert len(xml.test_set.documents) == info["xml"]["documents"] == info["n_documents"]
    assert list(zip(xml.test_set.doc_ids, xml.test_set.seg_ids, strict=True)) == segments_tsv(
        folder
    )
    for system in text.systems:
        assert xml.system(system.name).hypotheses == system.hypotheses
    assert xml.test_set.references[0].texts == text.test_set.references[0].texts
    assert xml.test_set.source is not None and text.test_set.source is not None
    assert xml.test_set.source.texts == text.test_set.source.texts


def test_wmt14_quirks_survive(shared_data):
    folder = shared_data / "wmt14-newstest2014-en-de"
    uu = load_file(folder / "sgm/systems/newstest2014.UU.3503.en-de.sgm", {Role.SYSTEM})
    assert uu.streams[0].name == "UU"  # <doc sysid> wins over <tstset sysid="post.memory.mert">
    kit = load_file(folder / "sgm/systems/newstest2014.KIT-primary.3399.en-de.sgm")
    assert kit.streams[0].texts[0] == "Orlando Bloom und Miranda Kerr noch gegenseitig lieben"
    ref = load_file(folder / "sgm/newstest2014-deen-ref.de.sgm").streams[0]
    assert any("Standard & Poor" in t for t in ref.texts)  # a raw, unescaped ampersand


def test_literal_entity_text_in_is_en_system_output(shared_data):
    folder = shared_data / "wmt21-newstest2021-is-en"
    sgml = load_file(folder / "sgm/systems/newstest2021.is-en.HuaweiTSC.en.sgm").streams[0]
    text = load_file(folder / "txt/systems/newstest2021.is-en.HuaweiTSC.en", {Role.SYSTEM})
    escaped = [t for t in sgml.texts if "&amp;amp;" in t]
    assert len(escaped) == 4  # "M&amp;C" written by the system, escaped once more in SGML
    assert sum("&amp;" in t for t in text.streams[0].texts) == 4


def test_human_scores_reproduce_the_wmt_system_scores(shared_data):
    folder = shared_data / "wmt21-newstest2021-is-en"
    corpus = assemble(
        [load_file(folder / "xml/newstest2021.is-en.all.xml")],
        [load_scores(folder / "human/seg-scores-mapped.tsv", score_column="z")],
    )
    names = {}
    for row in (folder / "human/ad-sys-ranking-is-en-z-names.csv").read_text().splitlines():
        fields = row.split()
        names[fields[4]] = fields[5]
    rows = (folder / "human/ad-sys-scores-is-en.csv").read_text().splitlines()[1:]
    checked = 0
    for fields in (row.split() for row in rows):
        z, n, label = float(fields[1]), int(fields[2]), fields[3]
        scores = corpus.scores_of(names[label])
        assert scores is not None
        assert scores.num_scored == n
        # WMT's system score is the unweighted mean of its segment scores.
        assert np.nanmean(scores.means) == pytest.approx(z, abs=1e-12)
        checked += 1
    assert checked == 10


def test_mteval_segment_scores_load_as_per_segment_scores(shared_data):
    folder = shared_data / "wmt21-newstest2021-is-en"
    scores_path = folder / "golden/mteval-v13a-seg-scores.tsv"
    corpus = assemble(
        [load_file(folder / "xml/newstest2021.is-en.all.xml")],
        [load_scores(scores_path, score_column="NIST_cs")],
    )
    with scores_path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    mideind = [float(r["NIST_cs"]) for r in rows if r["sysid"] == "Mideind"]
    scores = corpus.scores_of("Mideind")
    assert scores is not None
    np.testing.assert_array_equal(scores.means, mideind)
    assert any("NiuTrans" in note for note in corpus.notes) is False  # all 8 are in the XML


@pytest.mark.parametrize(
    "name",
    [
        "ad-seg-scores-is-en.csv",
        "ad-isen-good-stnd.csv",
        "ad-sys-scores-is-en.csv",
        "ad-sys-ranking-is-en-z-names.csv",
        "README.txt",
    ],
)
def test_wmt_human_files_mtgui_cannot_map_are_refused_clearly(shared_data, name):
    path = shared_data / "wmt21-newstest2021-is-en" / "human" / name
    with pytest.raises(InputError) as caught:
        load_scores(path)
    assert caught.value.line == 1
    assert "the first line must name the columns" in caught.value.problem


def test_two_reference_plain_text_dataset(shared_data):
    folder = shared_data / "wmt21-newstest2021-de-en-2ref"
    info = golden(shared_data, folder.name)
    corpus = load(folder, "txt", info)
    assert [r.name for r in corpus.test_set.references] == ["A", "B"]
    smu = corpus.system("SMU").hypotheses
    assert sum("<unk>" in line for line in smu) == 9


def every_input_file() -> list[Path]:
    """Every file of the shared datasets that a user could give mtgui."""
    skip_suffixes = {".json", ".time", ".md"}
    return sorted(
        path
        for path in SHARED_DATA.glob("*/**/*")
        if path.is_file()
        and path.suffix not in skip_suffixes
        and "mteval-v13a-logs" not in path.parts
        and not path.name.endswith(".txt")  # sacreBLEU's and mteval's printed reports
    )


@pytest.mark.parametrize(
    "path",
    every_input_file()
    or [pytest.param(None, marks=pytest.mark.skip(reason="the shared WMT data is absent"))],
    ids=lambda p: str(p.relative_to(SHARED_DATA)) if p else "none",
)
def test_every_shared_file_loads_or_is_refused_clearly(path: Path):
    """Texts load with the dataset's segment count; tables load as scores or say why not."""
    info = json.loads(
        (SHARED_DATA / path.relative_to(SHARED_DATA).parts[0] / "golden.json").read_text(
            encoding="utf-8"
        )
    )
    size = info["n_segments"]
    if path.suffix in (".sgm", ".xml") or "txt" in path.parts:
        loaded = load_file(path, None if path.suffix in (".sgm", ".xml") else {Role.SYSTEM})
        assert {stream.size for stream in loaded.streams} == {size}
        return
    try:
        table = load_scores(path)
    except InputError as error:
        assert error.path == path
        assert error.line == 1
        assert "the first line must name the columns" in error.problem
        return
    systems = len(table.systems)
    assert len(table.records) + table.skipped <= systems * size
    assert "seg-scores" in path.name
