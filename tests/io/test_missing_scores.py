"""A missing score is one rule in every format of scores (issue 32): empty or one of the words
of MISSING (NaN among them) is a segment without a score, noted, in a table, a file of one
number per line, comet-score's output and its JSON alike; two files never average into one
system's metric."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
from mtgui.io.score_sources import ScoreSource, load_score_source

DATA = Path(__file__).parent / "data" / "external_scores"


@pytest.fixture
def files():
    ref = load_file(DATA / "ref.txt", {Role.REFERENCE})
    return [ref, *(load_file(DATA / f"sys{n}.txt", {Role.SYSTEM}) for n in "AB")]


FORMS = {
    "table": ("t.tsv", "system\tline\tscore\nsysA\t1\t0.5\nsysA\t2\t{x}\nsysA\t3\t0.25\n", None),
    "lines": ("l.txt", "0.5\n{x}\n0.25\n", "sysA"),
    "comet output": (
        "c.txt",
        "hyps/sysA.txt\tSegment 0\tscore: 0.5\nhyps/sysA.txt\tSegment 1\tscore: {x}\n"
        "hyps/sysA.txt\tSegment 2\tscore: 0.25\n",
        None,
    ),
    "comet json": (
        "c.json",
        '{{"hyps/sysA.txt": [{{"COMET": 0.5}}, {{"COMET": {x}}}, {{"COMET": 0.25}}]}}',
        None,
    ),
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("missing", ["nan", "NaN", "NA", "null"])
def test_a_missing_score_is_skipped_alike_in_every_format(write, files, form, missing):
    name, text, system = FORMS[form]
    if form == "comet json" and missing in ("nan", "NA"):
        missing = f'"{missing}"'  # JSON's own are NaN and null; the words as strings too
    path = write(name, text.format(x=missing))
    table = load_score_source(ScoreSource(path, metric="x", system=system))
    corpus = assemble(files, [table])
    scores = corpus.scores_of("sysA", "x")
    assert scores is not None
    np.testing.assert_array_equal(scores.counts, [1, 0, 1])
    skipped = ("1 segment without a score was skipped", "1 row without a score was skipped")
    assert any(words in note for note in corpus.notes for words in skipped), corpus.notes


@pytest.mark.parametrize("form", FORMS)
def test_inf_is_refused_in_every_format(write, form):
    name, text, system = FORMS[form]
    value = "Infinity" if form == "comet json" else "inf"
    path = write(name, text.format(x=value))
    with pytest.raises(InputError):
        load_score_source(ScoreSource(path, metric="x", system=system))


def test_two_files_of_one_metric_for_one_system_are_refused(write, files):
    ones = write("ones.txt", "1\n1\n1\n")
    twos = write("twos.txt", "2\n2\n2\n")
    tables = [load_score_source(ScoreSource(p, metric="xm", system="sysA")) for p in (ones, twos)]
    with pytest.raises(InputError) as caught:
        assemble(files, tables)
    message = caught.value.message
    assert str(ones) in message and str(twos) in message
    assert "'sysA'" in message and "'xm'" in message and "does not average" in message


def test_two_files_of_one_metric_for_different_systems_are_fine(write, files):
    a = write("a.txt", "1\n1\n1\n")
    b = write("b.txt", "2\n2\n2\n")
    tables = [
        load_score_source(ScoreSource(a, metric="xm", system="sysA")),
        load_score_source(ScoreSource(b, metric="xm", system="sysB")),
    ]
    corpus = assemble(files, tables)
    assert corpus.scores_of("sysB", "xm") is not None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("c.json", '{"hyps/sysA.txt": [{"COMET": null}, {"COMET": NaN}, {"COMET": "NA"}]}'),
        ("c.json", '{"hyps/sysA.txt": []}'),
        ("c.txt", "".join(f"hyps/sysA.txt\tSegment {i}\tscore: nan\n" for i in range(3))),
    ],
)
def test_comet_files_without_any_score_are_refused(write, name, text):
    with pytest.raises(InputError, match="no segment in this comet-score file has a score"):
        load_score_source(ScoreSource(write(name, text)))
