"""A study runs with one OpenBLAS thread, and gives the count back when it ends or is closed."""

from __future__ import annotations

import pytest
from study_runs import demo_statistics

from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.studies import SizeSettings, iter_size_study
from mtgui.engine.studies.blas_threads import one_blas_thread, openblas_threads

FUNCTIONS = openblas_threads()
pytestmark = pytest.mark.skipif(FUNCTIONS is None, reason="numpy does not use its own OpenBLAS")


@pytest.fixture
def threads():
    get, put = FUNCTIONS
    before = get()
    put(2)  # as on a two-core machine, whatever this one has
    yield get
    put(before)


def test_the_count_is_one_inside_and_restored_after_the_last_user(threads):
    with one_blas_thread():
        assert threads() == 1
        with one_blas_thread():
            assert threads() == 1
        assert threads() == 1  # the outer user still runs
    assert threads() == 2


def test_a_study_closed_early_gives_the_count_back(threads):
    statistics, documents = demo_statistics()
    settings = SizeSettings(BootstrapSettings(resamples=100), (0.5, 1.0), repeats=3)
    study = iter_size_study(statistics, settings, documents)
    next(study)
    next(study)
    assert threads() == 1
    study.close()
    assert threads() == 2
    for _ in iter_size_study(statistics, settings, documents):
        pass
    assert threads() == 2
