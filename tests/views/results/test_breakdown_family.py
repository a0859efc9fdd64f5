"""The family "all" in the window: a breakdown's groups join the whole test set's family, as
``mtgui eval --by KEY --family all`` joins them, and the whole set's verdicts are decided again."""

from __future__ import annotations

from dataclasses import replace

from gui_helpers import wait_for_result

from mtgui.cli.breakdown_options import breakdown_requests
from mtgui.cli.eval import analyse
from mtgui.cli.main import build_parser, load_inputs
from mtgui.cli.score_specs import metric_names
from mtgui.cli.settings import command_settings
from mtgui.views.results.results_pane import joined_note
from mtgui.views.window.launch import load_demo_into


def choose(combo, value):
    combo.setCurrentIndex(combo.findData(value))
    combo.activated.emit(combo.currentIndex())  # chosen by hand: no suggestion overrides it


def command_line(metrics, by):
    """What ``mtgui eval --demo --by BY --family all`` finds, in-process."""
    arguments = ["eval", "--demo", "-m", ",".join(metrics), "-b", "200", "--seed", "3"]
    args = build_parser("eval").parse_args(
        [*arguments, "--correction", "holm", "--family", "all", "--by", by]
    )
    corpus = load_inputs(args)
    chosen = command_settings(args, metric_names(args))
    settings = chosen.metric_settings()
    groupings = [(r, r.grouping(corpus.test_set, settings)) for r in breakdown_requests(args)]
    return analyse(args, corpus, chosen, groupings, fork=False)


def numbers(run):
    """Every pair's verdict, corrected p-value and interval: what a grid shows."""
    return [(p.x, p.y, p.metric, p.verdict, p.p_corrected, p.ci_low, p.ci_high) for p in run.pairs]


def test_a_breakdown_under_family_all_decides_the_whole_set_again_as_the_command_line(
    qtbot, window
):
    panel = window.settings_panel
    panel.resamples.setValue(200)  # Holm over 4 x 6 pairs per metric: B is raised for them
    panel.seed.setValue(3)
    choose(panel.correction, "holm")
    choose(panel.family, "all")
    load_demo_into(window)
    wait_for_result(qtbot, window)
    pane, view = window.results, window.results.breakdown
    analysed = window.result
    assert not pane.joined.isVisible()
    pane.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: pane.result is not analysed, timeout=60_000)
    metrics = analysed.bootstrap.metrics
    cli = command_line(metrics, "genre")
    whole, breakdown = pane.result.bootstrap, view.breakdown
    assert (
        whole.settings.resamples
        == cli.result.settings.resamples
        > analysed.bootstrap.settings.resamples
    )
    assert numbers(whole) == numbers(cli.result)
    assert whole.joined == cli.result.joined == 4 * 6 * len(metrics)
    ((_, theirs),) = cli.breakdowns
    for mine, group in zip(breakdown.groups, theirs.groups, strict=True):
        assert numbers(mine.bootstrap) == numbers(group.bootstrap)
        assert mine.notes == group.notes
    # Every tab shows the whole set so decided; the note says the family grew, and why B rose.
    metric = pane.current_metric()
    assert pane.grid_model.pair(0, 1) in [p for p in whole.pairs if p.metric == metric]
    assert "every breakdown group together" in pane.grid_reading.text()
    note = pane.joined.text()
    assert pane.joined.isVisible() and "The family grew with the breakdown by genre" in note
    assert f"The bootstrap drew {whole.settings.resamples:,} resamples instead of the 200" in note
    assert f"over {whole.joined} comparisons" in note  # the command line's words
    assert "in one family with the whole test set's" in view.message.text()
    assert "again in it" in note and view.result is analysed  # the view's analysis stays
    assert window.result is analysed  # the exports keep the analysis as it ran
    # Another key: another family, of the analysis and the new groups (not of the last one).
    by_genre = pane.result
    view.key.setCurrentIndex(view.key.findData("length"))
    view.key.activated.emit(view.key.currentIndex())
    qtbot.waitUntil(lambda: pane.result is not by_genre, timeout=60_000)
    groups = sum(1 for g in view.breakdown.groups if g.bootstrap is not None)
    assert pane.result.bootstrap.joined == 6 * len(metrics) * (1 + groups)
    assert "The family grew with the breakdown by length" in pane.joined.text()
    assert numbers(pane.result.bootstrap) == numbers(command_line(metrics, "length").result)
    # Where the groups cannot join (a segment-level test decides), the note says the engine's why.
    apart = replace(analysed.bootstrap, notes=(*analysed.bootstrap.notes, "Not joined: why."))
    text = joined_note(analysed, replace(analysed, bootstrap=apart), view.breakdown)
    assert "Not joined: why." in text and "grew" not in text
    assert joined_note(analysed, analysed, view.breakdown) == ""
    # The family of each metric: the grid shows the analysis as it ran, and no note.
    choose(panel.family, "metric")
    qtbot.waitUntil(
        lambda: window.result is not analysed and not window.controller.analysing, timeout=60_000
    )
    qtbot.waitUntil(
        lambda: view.controller.source is view.result and not view.controller.running,
        timeout=60_000,
    )
    assert pane.result is window.result and not pane.joined.isVisible()
