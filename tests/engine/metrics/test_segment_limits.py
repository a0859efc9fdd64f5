"""Segments too long for chrF, chrF++, TER or WER are refused in words before the work, naming
the file, the segment and the metric (issue 32: a 50 MB line ended in a MemoryError)."""

from __future__ import annotations

import pytest
from metric_corpora import make_corpus

from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import segment_limits
from mtgui.engine.metrics.segment_limits import (
    MAX_CHRF_CHARACTERS,
    MAX_TER_CELLS,
    SEGMENT_MEMORY,
    check_segment_sizes,
)
from mtgui.engine.statistics.rows import iter_statistics


def refusal(corpus, metrics) -> InputError:
    with pytest.raises(InputError) as caught:
        run_to_end(iter_statistics(corpus, metrics))
    return caught.value


def test_the_limits_follow_from_one_segments_memory():
    assert MAX_CHRF_CHARACTERS * segment_limits.CHRF_BYTES_PER_CHARACTER == SEGMENT_MEMORY
    assert MAX_TER_CELLS * segment_limits.TER_BYTES_PER_CELL <= SEGMENT_MEMORY
    assert MAX_TER_CELLS >= 10_000 * 10_000  # two segments of 10,000 words fit


@pytest.mark.parametrize("metric", ["chrf", "chrf++"])
def test_a_segment_over_chrfs_limit_is_refused_before_the_work(metric, monkeypatch):
    half = MAX_CHRF_CHARACTERS // 2
    hyp = "ab " * (half // 3 + 1)  # with the reference, just over the limit
    corpus = make_corpus([["short", "ab " * (half // 3 + 1)]], A=["short", hyp])
    monkeypatch.setattr("mtgui.engine.metrics.chrf.extract.iter_rows", _no_work)
    error = refusal(corpus, [metric])
    label = {"chrf": "chrF", "chrf++": "chrF++"}[metric]
    assert error.problem.startswith(f"segment 2 is too long for {label}: A's hypothesis and")
    assert f"at most {MAX_CHRF_CHARACTERS:,} characters" in error.problem
    assert error.path is not None


def test_a_segment_at_chrfs_limit_is_not_refused():
    text = "a" * (MAX_CHRF_CHARACTERS // 2)
    check_segment_sizes(make_corpus([[text]], A=[text]), ["chrf"])


@pytest.mark.parametrize("metric", ["ter", "wer"])
def test_a_segment_over_the_cell_limit_is_refused_before_the_work(metric, monkeypatch):
    monkeypatch.setitem(segment_limits._CELL_LIMITS, metric, 99)
    corpus = make_corpus([["a b", "w " * 10]], A=["a b", "w " * 10], B=["a", "w " * 9])
    error = refusal(corpus, ["bleu", metric])
    label = metric.upper()
    assert error.problem.startswith(
        f"segment 2 is too long for {label}: A's hypothesis has 10 words and the reference"
    )
    assert "100 cells" in error.problem and "at most 99 cells" in error.problem


def test_ter_checks_its_own_words_again_before_its_matrices(monkeypatch):
    # The check before the work counts words split at spaces; TER's own tokens are counted
    # again, chunk by chunk, before its matrices are made.
    monkeypatch.setattr(segment_limits, "MAX_TER_CELLS", 20)
    monkeypatch.setitem(segment_limits._CELL_LIMITS, "ter", 10**9)
    corpus = make_corpus([["a b c d e"]], A=["a b c d e"])
    error = refusal(corpus, ["ter"])
    assert "segment 1 is too long for TER: A's hypothesis has 5 words" in error.problem
    assert "25 cells" in error.problem


def _no_work(*args, **kwargs):
    raise AssertionError("chrF started on a segment it cannot hold")
