"""What a scores file given to the window offers, and how sessions keep what the user said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io.entries import read_entry
from mtgui.io.score_choices import (
    COMET_JSON,
    LINE_SCORES,
    SCORES_TABLE,
    lower_is_better,
    metric_name,
    window_score_format,
)
from mtgui.io.score_sources import ScoreSource
from mtgui.io.session import (
    Session,
    SessionFile,
    read_session,
    session_to_dict,
    write_session,
)

DATA = Path(__file__).resolve().parent / "data" / "external_scores"


@pytest.mark.parametrize(
    ("text", "name", "found"),
    [
        ("system\tline\tcomet\tbleurt\nA\t1\t0.5\t0.2\n", "x.tsv", SCORES_TABLE),
        ("system\tline\tscore\nA\t1\t0.5\n", "x.tsv", SCORES_TABLE),
        ("0.5\n-1.25\n\nNA\n3e-2\n", "x.txt", LINE_SCORES),
        ("2019\nThe year was good.\n", "out.txt", None),  # a translation that starts with a number
        ("[Music]\nHello.\n", "out.txt", None),  # a subtitle, not JSON
        ('[{"COMET": 0.5}]', "scores.json", COMET_JSON),
        ("system\tline\tsrc\nA\t1\thello\n", "x.tsv", None),  # no column of numbers
    ],
)
def test_the_window_tells_scores_from_translations(text, name, found):
    assert window_score_format(text, Path(name)) == found


def test_names_and_directions_offered():
    assert metric_name("COMET-22 (da)") == "comet-22-da"
    assert metric_name("chrF") == "chrf-ext"  # mtgui's own name
    assert metric_name("2nd") == "m-2nd"
    assert [lower_is_better(n) for n in ("metricx-24", "mqm", "ter", "comet", "hter")] == [
        True,
        True,
        True,
        False,
        True,
    ]


def test_a_plain_human_table_is_read_at_once_and_others_are_offered():
    plain = read_entry(DATA / "judgments.tsv", None, "z")
    assert plain.scores is not None and plain.offer is None
    offered = read_entry(DATA / "judgments.tsv", None)
    assert offered.scores is None and offered.offer is not None and offered.offer.asks
    choices = [(c.column, c.metric, c.higher_is_better) for c in offered.offer.choices]
    assert choices == [("z", "human", True), ("mqm", "mqm", False)]


def test_several_metrics_of_one_file_are_read_and_kept_in_a_session(tmp_path):
    path = DATA / "judgments.tsv"
    sources = (ScoreSource(path, "z", "da"), ScoreSource(path, "mqm", "mqm", None, False))
    entry = read_entry(path, None, sources=sources)
    assert [(t.metric, t.higher_is_better) for t in entry.score_tables] == [
        ("da", True),
        ("mqm", False),
    ]
    line = (ScoreSource(DATA / "metricx-sysB.txt", None, "metricx", "sysB", False),)
    session = Session(
        (
            SessionFile(path, Role.SCORES, None, sources),
            SessionFile(DATA / "metricx-sysB.txt", Role.SCORES, None, line),
        ),
        settings={**Session().settings, "metrics": ["bleu", "da", "metricx"]},
        metric="mqm",
    )
    saved = session_to_dict(session, tmp_path)
    assert saved["files"][1]["scores"] == [
        {"column": None, "metric": "metricx", "higher_is_better": False, "system": "sysB"}
    ]
    write_session(tmp_path / "s.mtgui.json", session)
    again = read_session(tmp_path / "s.mtgui.json")
    assert again.score_sources == {path: sources, DATA / "metricx-sysB.txt": line}
    assert again.metric == "mqm" and again.settings["metrics"] == ["bleu", "da", "metricx"]


def test_a_session_may_name_only_the_scores_it_loads(tmp_path):
    data = {
        "mtgui_session": 1,
        "files": [{"path": str(DATA / "judgments.tsv"), "scores": [{"metric": "da"}]}],
        "settings": {"metrics": ["bleu", "comet"]},
    }
    (tmp_path / "s.mtgui.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=r"should be a list of metric names from .*, da"):
        read_session(tmp_path / "s.mtgui.json")
    data["files"][0]["scores"] = [{"metric": "bleu"}]
    (tmp_path / "s.mtgui.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="computes itself"):
        read_session(tmp_path / "s.mtgui.json")
