"""The window reads files through the same readers (issue 32): hostile score files dropped on
it become a message on their entry in the files panel, never an exception (which the window
shows as an "unexpected error" dialog); two files of one metric for one system are refused
when the window assembles its corpus, naming both."""

from __future__ import annotations

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.io.entries import LoadRequest, iter_read, read_entry
from mtgui.io.score_sources import ScoreSource
from mtgui.io.workspace import Workspace

HOSTILE = {
    "deep.json": "[" * 100_000,
    "deep-objects.json": '{"a":' * 50_000,
    "huge-number.json": '{"s.txt": [{"COMET": ' + "1" * 100_001 + "}]}",
    "comet.txt": "s.txt\tSegment 0\tscore: 0.5\ns.txt\tSegment " + "7" * 5000 + "\tscore: 1\n",
    "table.tsv": "system\tline\tscore\nA\t" + "9" * 5000 + "\t0.5\n",
}


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("role", [None, Role.SCORES])
def test_a_hostile_scores_file_dropped_on_the_window_is_a_message(write, name, role):
    path = write(name, HOSTILE[name])
    entry = read_entry(path, role)
    if entry.offer is not None:  # the window asks what to load from it: then it is read
        entry = read_entry(path, Role.SCORES, sources=(ScoreSource(path, metric="x"),))
    assert not entry.ok
    assert entry.problem and "internal" not in entry.problem


def test_two_files_of_one_metric_for_one_system_in_the_window(write):
    files = {
        "ref": write("ref.txt", "a b\nc\n"),
        "a": write("A.txt", "a b\nc\n"),
        "ones": write("ones.txt", "1\n1\n"),
        "twos": write("twos.txt", "2\n2\n"),
    }
    requests = [
        LoadRequest(files["ref"], Role.REFERENCE),
        LoadRequest(files["a"], Role.SYSTEM),
        *(
            LoadRequest(files[n], Role.SCORES, sources=(ScoreSource(files[n], None, "xm", "A"),))
            for n in ("ones", "twos")
        ),
    ]
    workspace = Workspace()
    for entry in run_to_end(iter_read(requests)):
        workspace = workspace.with_entry(entry)
    assert all(entry.ok for entry in workspace.entries)
    with pytest.raises(InputError, match=r"both .*ones\.txt and .*twos\.txt give the system 'A'"):
        workspace.corpus()
