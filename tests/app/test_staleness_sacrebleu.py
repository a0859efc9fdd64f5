"""The sentence that says results are from earlier settings names sacreBLEU's options too,
which sessions and the preferences write only when they are not their default."""

from __future__ import annotations

from mtgui.app.staleness import setting_changes
from mtgui.engine.analysis_settings import AnalysisSettings


def changes(old: AnalysisSettings, new: AnalysisSettings) -> list[str]:
    return setting_changes(old.to_dict(), new.to_dict(), {})


def test_a_changed_option_is_named_with_its_default_before():
    fresh = AnalysisSettings()
    floor = AnalysisSettings(bleu_smooth_method="floor", bleu_smooth_value=0.5, ter_no_punct=True)
    assert changes(fresh, floor) == [
        "BLEU smoothing mteval, now floor",
        "BLEU smoothing value default, now 0.5",
        "TER without punctuation off, now on",
    ]
    assert changes(floor, fresh) == [
        "BLEU smoothing floor, now mteval",
        "BLEU smoothing value 0.5, now default",
        "TER without punctuation on, now off",
    ]
    assert changes(fresh, AnalysisSettings(bleu_max_order=6)) == ["BLEU max order 4, now 6"]
    assert changes(floor, floor) == []
