"""A campaign run: every test set analysed exactly as one set alone is analysed, then the
aggregate of their verdicts (:func:`~mtgui.engine.campaign.combined.aggregate`).

The one driver of a campaign, for the command line (``mtgui campaign``, which reads the
campaign file and the sets' files, then writes the reports) and the window (whose test sets
are its input tabs): both hand it corpora already read and the settings already checked, and
get the same numbers to the bit. It is a generator of progress, so that a run in the window
stops within a set when cancelled (the analysis of one set yields between its steps), not only
between two sets.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.analysis import AnalysisResult, iter_analysis
from mtgui.engine.campaign.combined import Aggregate, CampaignSet, aggregate
from mtgui.engine.core import Corpus, InputError
from mtgui.engine.metrics import MetricSettings
from mtgui.engine.resampling import BootstrapSettings
from mtgui.engine.scale import on_scale


@dataclass(frozen=True)
class CampaignSettings:
    """What every set of a campaign is analysed with (the campaign's ``[settings]``): the
    metrics, the scoring and resampling settings, and the scale BLEU is reported on."""

    metrics: tuple[str, ...]
    scoring: MetricSettings
    resampling: BootstrapSettings
    bleu_scale: int = 1


@dataclass(frozen=True)
class CampaignInput:
    """One test set, read: its name, its corpus, where it comes from in words for a message
    (``"test set 'news' (line 12)"``) with the file to name (the campaign file), and its
    metrics where they are not the campaign's (scores loaded for this set only)."""

    name: str
    corpus: Corpus
    where: str = ""
    path: Path | None = None
    metrics: tuple[str, ...] = ()  # this set's metrics, if not the campaign's

    def metrics_of(self, settings: CampaignSettings) -> tuple[str, ...]:
        """The metrics this set is analysed with."""
        return self.metrics or settings.metrics

    def failed(self, error: InputError) -> InputError:
        """``error`` said of this set (the hint is left out: it is about one set's options)."""
        where = self.where or f"test set '{self.name}'"
        return InputError(f"{where}: {error.message}", path=self.path)


@dataclass(frozen=True)
class CampaignProgress:
    """Where a campaign run is: ``done`` of ``total`` sets analysed, ``current`` the set under
    way (empty while the aggregate is made), and ``part`` of it done (0 to 1)."""

    done: int
    total: int
    current: str
    part: float = 0.0


@dataclass(frozen=True)
class SetAnalysed:
    """One set's finished analysis, on the scale reported."""

    name: str
    result: AnalysisResult

    def campaign_set(self) -> CampaignSet:
        """This set as the aggregate takes it."""
        higher = {m.name: m.higher_is_better for m in self.result.statistics.metrics}
        return CampaignSet(self.name, self.result.bootstrap, higher)


@dataclass(frozen=True)
class CampaignFound:
    """A finished campaign: every set's analysis in the given order, and the aggregate."""

    sets: tuple[SetAnalysed, ...]
    aggregate: Aggregate


def iter_campaign(
    sets: Sequence[CampaignInput], settings: CampaignSettings, fork: bool = False
) -> Generator[CampaignProgress, None, CampaignFound]:
    """Analyse every set with ``settings`` (a progress snapshot before each, and as each goes
    on), then aggregate them with the settings' seed. ``fork``: see
    :func:`~mtgui.engine.analysis.iter_analysis` (only where no other thread runs).

    Raises
    ------
    InputError
        If there are no sets, or a set cannot be analysed (said of that set).
    """
    if not sets:
        raise InputError("a campaign needs at least one test set.")
    total = len(sets)
    found = []
    for index, one in enumerate(sets):
        yield CampaignProgress(index, total, one.name)
        try:
            found.append((yield from _analyse(one, settings, index, total, fork)))
        except InputError as error:
            raise one.failed(error) from None
    yield CampaignProgress(total, total, "")
    combined = aggregate([s.campaign_set() for s in found], settings.resampling.seed)
    combined = replace(combined, notes=(*same_references(sets), *combined.notes))
    return CampaignFound(tuple(found), combined)


def same_references(sets: Sequence[CampaignInput]) -> list[str]:
    """A note for each group of sets whose references are the same texts (the same file named
    twice, or a copy): one test set, whose verdicts the aggregate counts once per name. It is
    not refused: the same set under two names can be meant (a demo, a check of the numbers)."""
    groups: dict[tuple[tuple[str, ...], ...], list[str]] = {}
    for one in sets:
        texts = tuple(column.texts for column in one.corpus.test_set.references)
        groups.setdefault(texts, []).append(one.name)
    return [
        f"{_listed(names)} have the same references: they are one test set counted "
        f"{_times(len(names))} in the aggregate."
        for names in groups.values()
        if len(names) > 1
    ]


def _listed(names: Sequence[str]) -> str:
    """``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [f"'{name}'" for name in names]
    return f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _times(count: int) -> str:
    """``twice``, ``3 times``."""
    return "twice" if count == 2 else f"{count} times"


def _analyse(
    one: CampaignInput, settings: CampaignSettings, index: int, total: int, fork: bool
) -> Generator[CampaignProgress, None, SetAnalysed]:
    """One set's analysis, as ``mtgui eval`` makes it alone, its steps reported as a part."""
    run = iter_analysis(
        one.corpus, one.metrics_of(settings), settings.scoring, settings.resampling, fork=fork
    )
    try:
        while True:
            step = next(run)
            done, steps = getattr(step, "done", 0), getattr(step, "total", 0)
            yield CampaignProgress(index, total, one.name, done / steps if steps else 0.0)
    except StopIteration as finished:
        result: AnalysisResult = finished.value
    finally:
        run.close()
    return SetAnalysed(one.name, on_scale(result, settings.bleu_scale))
