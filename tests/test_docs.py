"""The README stays a front page and the docs' links lead somewhere (without building the site).

``mkdocs build --strict`` in CI checks the site whole, anchors included; these checks are cheap
and run with the other tests, so that a moved or renamed file is caught before CI.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README_MAX_LINES = 400

FENCED_CODE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target), with an optional "title" after the target.
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...
NAV_PAGE = re.compile(r"^\s*-\s*(?:[^:\n]+:\s*)?([\w./-]+\.md)\s*$", re.MULTILINE)


def pages() -> list[Path]:
    """README.md and the site's pages (not the drafts in docs/_new/)."""
    site = [p for p in sorted(DOCS.rglob("*.md")) if "_new" not in p.relative_to(DOCS).parts]
    return [ROOT / "README.md", *site]


def relative_links(page: Path) -> list[str]:
    """The targets of the page's links and images that point into the repository, without
    their #fragment (links in code are examples, not links)."""
    text = INLINE_CODE.sub("", FENCED_CODE.sub("", page.read_text(encoding="utf-8")))
    targets = [match.group(1) for match in LINK.finditer(text)]
    local = [t for t in targets if not EXTERNAL.match(t) and not t.startswith("#")]
    return [target.split("#", 1)[0] for target in local]


def test_the_readme_is_a_front_page_of_at_most_400_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; move details into docs/ (at most {README_MAX_LINES})"
    )


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(page: Path):
    missing = [t for t in relative_links(page) if not (page.parent / t).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


@pytest.mark.parametrize("page", pages()[1:], ids=lambda p: str(p.relative_to(ROOT)))
def test_the_sites_pages_link_only_inside_docs(page: Path):
    """MkDocs can only link to files under docs/: a link out of it breaks the strict build."""
    outside = [
        target
        for target in relative_links(page)
        if not os.path.normpath(page.parent / target).startswith(str(DOCS) + os.sep)
    ]
    assert not outside, f"{page.relative_to(ROOT)} links outside docs/: {outside}"


def test_the_site_has_a_page_for_every_file_and_a_file_for_every_page():
    nav = set(NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text(encoding="utf-8")))
    files = {str(p.relative_to(DOCS)) for p in pages()[1:]}
    assert nav == files, f"only in mkdocs.yml: {nav - files}; only in docs/: {files - nav}"


def test_the_relative_link_finder_sees_links_and_images_but_not_code(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text(
        '[a](a.md) ![b](img/b.png "B") [c](c.md#part) [d](https://example.org) [e](#here)\n'
        "`[f](f.md)`\n```\n[g](g.md)\n```\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["a.md", "img/b.png", "c.md"]


def indented_blocks(page: Path) -> list[str]:
    """The page's indented code blocks (four spaces), each without its indent."""
    blocks, current = [], []
    for line in [*page.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line[4:])
        elif current:
            blocks.append("\n".join(current).strip("\n"))
            current = []
    if current:
        blocks.append("\n".join(current).strip("\n"))
    return blocks


def test_the_demos_output_the_pages_show_is_what_mtgui_eval_demo_prints(capsys):
    """The BLEU table and grid of docs/cli.md and the summary of docs/outputs.md, word for word
    (they go stale whenever a sentence under the grid or the summary changes)."""
    from mtgui.cli.main import main

    assert main(["eval", "--demo", "--summary"]) == 0
    printed = capsys.readouterr().out
    shown = [b for b in indented_blocks(DOCS / "cli.md") if b.startswith("BLEU\nSystem")]
    shown += [
        b.strip("\n")
        for b in re.findall(
            r"```\n(Summary in words:.*?)```", (DOCS / "outputs.md").read_text(), re.S
        )
    ]
    assert len(shown) == 2
    for block in shown:
        assert block in printed, f"not in `mtgui eval --demo --summary`'s output:\n{block}"


def test_the_campaign_file_the_page_shows_is_one_mtgui_campaign_reads(tmp_path: Path):
    """docs/campaigns.md's example: every key and setting accepted (the files it names are
    only read when the sets run)."""
    from mtgui.cli.campaign_file import read_campaign

    blocks = re.findall(r"```toml\n(.*?)```", (DOCS / "campaigns.md").read_text(), re.S)
    assert len(blocks) == 1
    (tmp_path / "wmt.toml").write_text(blocks[0], encoding="utf-8")
    campaign = read_campaign(tmp_path / "wmt.toml")
    assert [test_set.name for test_set in campaign.test_sets] == ["newstest2023", "newstest2024"]


def test_the_breakdown_example_of_the_command_line_page_runs(capsys):
    from mtgui.cli.main import main

    example = "mtgui eval --demo --by genre --by length --length-buckets 15,20"
    assert example in (DOCS / "cli.md").read_text(encoding="utf-8")
    assert main(example.split()[1:]) == 0
    printed = capsys.readouterr().out
    assert "Breakdown by genre (the documents' attribute genre): 3 groups" in printed
    assert "(segments: <15 2, [15,20) 58, >=20 35)" in printed  # compare-mt's buckets, as set
