"""The metric registry: one entry per metric, its facts read from the metric's class, and the
one list every front end (command line, sessions, reports) takes names and labels from."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import pytest

import mtgui.engine.metrics as metrics_package
from mtgui.cli.eval_options import EVAL_EPILOG, add_scoring_arguments
from mtgui.engine.core.corpus import Origin, TestSet, TextColumn
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics import (
    DEFAULT_METRICS,
    LABELS,
    METRIC_NAMES,
    REGISTRY,
    Metric,
    create_metrics,
    parse_metric_names,
)
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.metrics.registry import METRIC_CLASSES, MetricEntry
from mtgui.report import study_format


def _metric_classes_in_the_package() -> set[type[Metric]]:
    """Every concrete metric defined in a module of mtgui.engine.metrics."""
    for module in pkgutil.iter_modules(metrics_package.__path__):
        importlib.import_module(f"{metrics_package.__name__}.{module.name}")
    found: set[type[Metric]] = set()
    pending = list(Metric.__subclasses__())
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        made = "<locals>" in cls.__qualname__  # external_metric's, for loaded scores
        if cls.__module__.startswith(metrics_package.__name__) and "name" in vars(cls) and not made:
            found.add(cls)
    return found


def test_every_metric_of_the_package_has_exactly_one_entry():
    assert set(METRIC_CLASSES) == _metric_classes_in_the_package()
    assert len(METRIC_CLASSES) == len(REGISTRY) == len(METRIC_NAMES)
    assert METRIC_NAMES == tuple(REGISTRY) == tuple(cls.name for cls in METRIC_CLASSES)


@pytest.mark.parametrize("cls", METRIC_CLASSES, ids=lambda cls: cls.name)
def test_an_entry_says_what_its_class_says(cls):
    entry = REGISTRY[cls.name]
    assert entry == MetricEntry.of(cls)
    assert (entry.name, entry.label, entry.description, entry.scale) == (
        cls.name,
        cls.label,
        cls.description,
        cls.scale,
    )
    assert entry.ratio_scale is cls.ratio_scale
    assert entry.higher_is_better is cls.higher_is_better
    assert entry.description.endswith(".") and entry.label


def test_the_facts_front_ends_rely_on():
    assert REGISTRY["bleu"].label == "BLEU" and REGISTRY["chrf"].label == "chrF"
    assert [n for n, e in REGISTRY.items() if not e.higher_is_better] == ["ter", "wer"]
    assert [n for n, e in REGISTRY.items() if not e.ratio_scale] == ["human"]
    assert set(DEFAULT_METRICS) <= set(METRIC_NAMES)


def _test_set(references: int) -> TestSet:
    return TestSet(
        doc_ids=("d", "d"),
        seg_ids=("1", "2"),
        references=tuple(
            TextColumn(f"r{i}", ("a b", "c"), Origin("/r.sgm", "NIST SGML", "UTF-8"))
            for i in range(references)
        ),
    )


def test_the_factories_make_each_metric_for_its_test_set():
    test_set = _test_set(references=3)
    made = create_metrics(METRIC_NAMES, test_set)
    assert [type(m) for m in made] == list(METRIC_CLASSES)
    assert [m.name for m in made] == list(METRIC_NAMES)
    nist = made[METRIC_NAMES.index("nist")]
    assert isinstance(nist, Nist) and nist.num_references == 3
    assert [m.name for m in create_metrics(("ter", "bleu"), test_set)] == ["ter", "bleu"]


def test_metric_names_are_parsed_against_the_registry():
    assert parse_metric_names(", ".join(n.upper() for n in METRIC_NAMES)) == METRIC_NAMES
    with pytest.raises(InputError) as caught:
        parse_metric_names("bleu,meteor")
    assert caught.value.problem == "unknown metric 'meteor'."
    assert caught.value.hint == "Choose from: " + ", ".join(METRIC_NAMES) + "."


def test_the_command_line_offers_the_registry_s_metrics():
    parser = argparse.ArgumentParser()
    add_scoring_arguments(parser)
    assert parser.parse_args([]).metrics == ",".join(DEFAULT_METRICS)
    assert f"metrics from {','.join(METRIC_NAMES)}" in " ".join(parser.format_help().split())
    described = [line.split()[0] for line in EVAL_EPILOG.splitlines() if line.startswith("  ")]
    assert [name for name in described if name in REGISTRY] == list(METRIC_NAMES)


def test_labels_are_the_registry_s_everywhere():
    assert {name: entry.label for name, entry in REGISTRY.items()} == LABELS
    assert study_format.LABELS is LABELS
