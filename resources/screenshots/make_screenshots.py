"""Make the screenshots of the README and the docs: the demo data, WMT21 is-en and de-en.

python resources/screenshots/make_screenshots.py [SHARED_DATA]

SHARED_DATA is the folder of the shared WMT data (by default ../shared/data beside the checkout,
else /work/shared/data). The files the shots load are copied first into a temporary folder and
opened by names relative to it, so that no path of this machine shows in a note or a title.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from mtgui.app.campaign import provide_campaign_reader, provide_campaign_steps
from mtgui.cli.campaign_project import campaign_project
from mtgui.cli.campaign_steps import campaign_steps
from mtgui.views.results.campaign_view import open_campaign
from mtgui.views.studies.studies_view import STUDIES
from mtgui.views.window.launch import create_application, load_demo_into
from mtgui.views.window.main_window import MainWindow

HERE = Path(__file__).resolve().parent
SHARED_PLACES = (HERE.parents[2] / "shared" / "data", Path("/work/shared/data"))
IS_EN = Path("wmt21-is-en")  # relative to the temporary folder the shots run in
DE_EN = Path("wmt21-de-en")
CAMPAIGN = Path("wmt21-into-english.toml")
Shot = Callable[[MainWindow], None]  # puts the window in the state to photograph


def show_tab(name: str) -> Shot:
    """A shot of one tab as it opens."""
    return lambda window: window.results.tabs.setCurrentIndex(
        [window.results.tabs.tabText(i) for i in range(window.results.tabs.count())].index(name)
    )


def show_segments(first: str, second: str, segment: int) -> Shot:
    """The Segments tab on two systems, one segment selected."""

    def shot(window: MainWindow) -> None:
        window.show_segments(first, second)
        window.results.segments.select_segment(segment)

    return shot


def show_pair(first: str, second: str) -> Shot:
    """The paired view, as a double-click on the grid opens it."""
    return lambda window: window.show_pair(first, second)


DEMO = {
    "demo-distributions": show_tab("Distributions"),
    "demo-segments": show_segments("Lumen", "Ostrich", 2),
}


def show_breakdown(key: str) -> Shot:
    """The Breakdown tab by ``key``, once its groups are bootstrapped (on their thread)."""

    def shot(window: MainWindow) -> None:
        app = QApplication.instance()
        view = window.results.breakdown
        view.key.setCurrentIndex(view.key.findData(key))
        window.results.tabs.setCurrentWidget(view)
        view.start()  # as choosing the key in the window does
        app.processEvents()
        while view.breakdown is None or view.breakdown.by != key or view.controller.running:
            app.processEvents()
            time.sleep(0.01)

    return shot


IS_EN_SHOTS = {
    "wmt21-is-en-scores": show_tab("Scores"),
    "wmt21-is-en-significance": show_tab("Significance"),
    "wmt21-is-en-paired": show_pair("Online-A", "Mideind"),
    "wmt21-is-en-segments": show_segments("Manifold", "HuaweiTSC", 0),
    "wmt21-is-en-details": show_tab("Details"),
    "wmt21-is-en-documents": show_tab("Documents"),
    "wmt21-is-en-breakdown": show_breakdown("length"),
}


def show_human_study(window: MainWindow) -> None:
    """The agreement study run on what is loaded, its table of metric-against-metric tests."""
    app = QApplication.instance()
    studies = window.results.studies
    window.results.tabs.setCurrentWidget(studies)
    studies.kind.setCurrentIndex(list(STUDIES).index("human"))
    studies.run_button.click()
    while window.controller.studying:
        app.processEvents()
        time.sleep(0.01)
    studies.table_choice.setCurrentIndex(studies.table_choice.findData("correlations.csv"))


def show_human_scores(window: MainWindow) -> None:
    """The Scores tab on the human scores: absolute intervals, no relative ones."""
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData("human"))
    show_tab("Scores")(window)


def shown_window() -> tuple[QApplication, MainWindow]:
    """The application and a new main window at the shots' size, shown."""
    app = create_application()
    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    return app, window


def settle(app: QApplication) -> None:
    """Let the views lay out and paint what they were given (plots laid out on a timer were
    grabbed black when the shot came at once)."""
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def shoot(loader: Callable[[MainWindow], None], shots: dict[str, Shot]) -> None:
    """Open a window, load with ``loader``, wait for the analysis, save each shot."""
    app, window = shown_window()
    loader(window)

    def save_when_done() -> None:
        if window.result is None or window.controller.analysing:
            QTimer.singleShot(100, save_when_done)
            return
        for name, shot in shots.items():
            shot(window)
            settle(app)
            window.grab().save(str(HERE / f"{name}.png"))
        window.close()
        app.quit()

    QTimer.singleShot(100, save_when_done)
    app.exec()


def load_is_en(window: MainWindow) -> None:
    """WMT21 is-en in SGML, with chrF ticked too."""
    window.settings_panel.metric_boxes["chrf"].setChecked(True)
    systems = sorted((IS_EN / "sgm" / "systems").glob("*.sgm"))
    window.add_files([IS_EN / "sgm" / "newstest2021.is-en.ref.A.en.sgm", *systems])


def load_is_en_with_human(window: MainWindow) -> None:
    """WMT21 is-en in SGML with its DA z-scores, BLEU, chrF and Human ticked."""
    load_is_en(window)
    window.choose_scores = lambda question: question.defaults()  # its z: the DA z-scores
    window.add_files([IS_EN / "human" / "seg-scores-mapped.tsv"])
    for name in ("nist", "mbleu"):
        window.settings_panel.metric_boxes[name].setChecked(False)
    window.settings_panel.metric_boxes["human"].setChecked(True)


HUMAN_SHOTS = {
    "wmt21-is-en-summary": show_tab("Summary"),
    "wmt21-is-en-human-scores": show_human_scores,
    "wmt21-is-en-human-study": show_human_study,
}


def welcome() -> None:
    """The empty window, as a person who opens mtgui for the first time sees it."""
    app, window = shown_window()
    app.processEvents()
    window.grab().save(str(HERE / "welcome.png"))
    window.close()


def show_refused_file(window: MainWindow) -> None:
    """The files panel with WMT's system-level DA file, refused with its reason under it."""
    app = QApplication.instance()
    window.add_files([IS_EN / "human" / "ad-sys-scores-is-en.csv"])
    panel = window.files_panel
    row = panel.topLevelItem(panel.topLevelItemCount() - 1)
    while row.text(1) != "could not be read" or window.controller.analysing:
        app.processEvents()
        time.sleep(0.01)
        row = panel.topLevelItem(panel.topLevelItemCount() - 1)
    panel.collapseAll()
    row.setExpanded(True)
    panel.scrollToItem(row.child(0))
    show_tab("Summary")(window)


FILES_SHOTS = {"wmt21-is-en-refused-file": show_refused_file}


def campaign_text() -> str:
    """Two WMT21 test sets into English, which share the systems Facebook-AI and Online-A."""
    de_en = sorted(str(path) for path in (DE_EN / "systems").glob("*.en"))
    is_en = sorted(str(path) for path in (IS_EN / "sgm" / "systems").glob("*.sgm"))
    return (
        '[settings]\nmetrics = ["bleu", "chrf"]\nbootstrap = 1000\n\n'
        '[[test_sets]]\nname = "newstest2021 de-en"\n'
        f"refs = [{', '.join(repr(str(DE_EN / ('ref.' + r + '.en'))) for r in 'AB')}]\n"
        f"hyps = {de_en!r}\n\n"
        '[[test_sets]]\nname = "newstest2021 is-en"\n'
        f"refs = {str(IS_EN / 'sgm' / 'newstest2021.is-en.ref.A.en.sgm')!r}\n"
        f"hyps = {is_en!r}\n"
    ).replace("'", '"')


def campaign_shot() -> None:
    """The campaign window on two WMT21 test sets into English, once its run is done."""
    app, window = shown_window()
    CAMPAIGN.write_text(campaign_text(), encoding="utf-8")
    campaign = open_campaign(window, CAMPAIGN.resolve())
    if campaign is None:
        raise SystemExit("this mtgui has no campaign code")
    while campaign.outcome is None or campaign.runs.running:
        app.processEvents()
        time.sleep(0.01)
    campaign.resize(1000, 680)
    app.processEvents()
    campaign.grab().save(str(HERE / "wmt21-campaign.png"))
    campaign.close()
    window.close()


def window_campaign_shot() -> None:
    """The main window holding the same two test sets as tabs, on its Campaign tab."""
    app, window = shown_window()
    window.open_campaign(CAMPAIGN.resolve())
    end = time.monotonic() + 600
    while window.campaign.outcome is None or window.campaign.runs.running:
        if time.monotonic() > end:
            raise SystemExit("the window's campaign did not finish in 10 minutes")
        app.processEvents()
        time.sleep(0.01)
    settle(app)
    window.grab().save(str(HERE / "wmt21-window-campaign.png"))
    window.close()


def shared_data(argv: list[str]) -> Path:
    """The folder of the shared WMT data: the one given, else the first that exists."""
    places = [Path(argv[1])] if len(argv) > 1 else list(SHARED_PLACES)
    for place in places:
        if (place / "wmt21-newstest2021-is-en").is_dir():
            return place.resolve()
    raise SystemExit(f"no shared WMT data in {', '.join(map(str, places))}")


def copy_inputs(shared: Path, folder: Path) -> None:
    """The files the shots load, under short names, in ``folder``."""
    is_en = shared / "wmt21-newstest2021-is-en"
    shutil.copytree(is_en / "sgm", folder / IS_EN / "sgm")
    shutil.copytree(is_en / "human", folder / IS_EN / "human")
    de_en = shared / "wmt21-newstest2021-de-en-2ref" / "txt"
    (folder / DE_EN / "systems").mkdir(parents=True)
    for ref in "AB":
        shutil.copy(de_en / f"newstest2021.de-en.ref.{ref}.en", folder / DE_EN / f"ref.{ref}.en")
    for system in (de_en / "systems").glob("*.en"):
        name = system.name.removeprefix("newstest2021.de-en.")
        shutil.copy(system, folder / DE_EN / "systems" / name)


if __name__ == "__main__":
    provide_campaign_steps(campaign_steps)  # as mtgui.launch hands them to the window
    provide_campaign_reader(campaign_project)
    shared = shared_data(sys.argv)
    welcome()
    shoot(load_demo_into, DEMO)
    with tempfile.TemporaryDirectory(prefix="mtgui-shots-") as folder:
        copy_inputs(shared, Path(folder))
        os.chdir(folder)
        shoot(load_is_en, IS_EN_SHOTS)
        shoot(load_is_en_with_human, HUMAN_SHOTS)
        shoot(load_is_en, FILES_SHOTS)
        campaign_shot()
        window_campaign_shot()
        os.chdir(HERE)
