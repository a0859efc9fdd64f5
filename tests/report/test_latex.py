"""``mtgui eval --latex`` (issue 36, point 7): per metric the scores with intervals and the
grid, booktabs style, every name escaped, the signature as comments; through the same output
plan as --json (atomic, '-' for standard output, one output there at most)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from metric_corpora import make_corpus

from mtgui.cli.main import main
from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.report.latex import latex_report

HOSTILE = "A&B_1 %$#{}~^\\"
ESCAPED = r"A\&B\_1 \%\$\#\{\}\textasciitilde{}\textasciicircum{}\textbackslash{}"
REF = [f"w{i} a b c d e" for i in range(12)]


@pytest.fixture(scope="module")
def analysed():
    systems = {
        HOSTILE: [f"w{i} a b c d e" for i in range(12)],
        "two\nlines": [f"w{i} a b x d" for i in range(12)],
        "plain": [f"w{i} x y" for i in range(12)],
    }
    corpus = make_corpus([REF], **systems)
    settings = BootstrapSettings(resamples=100, unit=Unit.SEGMENT)
    return run_to_end(iter_analysis(corpus, ["bleu", "ter"], MetricSettings(), settings))


@pytest.fixture(scope="module")
def text(analysed) -> str:
    return latex_report(analysed.corpus, analysed.statistics, analysed.bootstrap)


def test_every_name_is_escaped(text):
    rows = [line for line in text.splitlines() if line.endswith(r"\\") and "&" in line]
    assert sum(ESCAPED in row for row in rows) == 4  # its scores and grid rows, per metric
    assert sum(" & two lines & " in row for row in rows) == 4  # the line break: a space
    assert "two\nlines" not in text
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    unescaped = re.sub(r"\\[a-zA-Z]+(\{\})?|\\[&%$#_{}\\]|\$\\sim\$|\$-\$", "", body)
    assert not re.search(r"[%#^~_]", unescaped)  # every special is a command or escaped
    assert unescaped.count("$") == 0


def test_per_metric_a_scores_table_and_a_grid_in_booktabs(text, analysed):
    assert text.count(r"\begin{table}") == 4 and text.count(r"\end{table}") == 4
    assert text.count(r"\toprule") == text.count(r"\midrule") == text.count(r"\bottomrule") == 4
    assert r"Rank & System & BLEU & 95\% CI & Cluster \\" in text
    assert r"Rank & System & TER & 95\% CI & Cluster \\" in text
    bleu = analysed.bootstrap.interval("plain", "bleu")
    assert f"& plain & {bleu.score:.4f} & {{[}}{bleu.ci_low:.4f}, {bleu.ci_high:.4f}] &" in text
    assert r" & System & 1 & 2 & 3 \\" in text  # the grid's header
    assert r"$\sim$" in text or r"\textgreater{}" in text
    assert "caption{TER (lower is better): scores with 95\\% bootstrap" in text


def test_the_settings_head_the_file_as_comments(text, analysed):
    head = text.split(r"\begin{table}")[0].splitlines()
    assert all(line.startswith("%") for line in head if line)
    assert f"% signature: {analysed.bootstrap.signature}" in head
    assert "% bootstrap: 100 resamples of segments, seed 12345, 95% intervals" in head


def test_without_a_bootstrap_the_scores_alone():
    corpus = make_corpus([REF], a=REF, b=[f"w{i} a" for i in range(12)])
    statistics = compute_statistics(corpus, ["bleu"])
    text = latex_report(corpus, statistics, None)
    assert text.count(r"\begin{table}") == 1
    assert "System & BLEU \\\\\n\\midrule\na & 1.0000 \\\\" in text


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX (pdflatex) installed")
def test_the_tables_compile(text, tmp_path):
    document = (
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        + text
        + "\\end{document}\n"
    )
    (tmp_path / "t.tex").write_text(document, encoding="utf-8")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_command_line_writes_it_to_a_file_or_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    (tmp_path / "sys_1.txt").write_text("\n".join(REF[::-1]) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    args = ["eval", "-r", "ref.txt", "-t", "sys_1.txt", "b.txt", "-m", "bleu", "-b", "100"]
    assert main([*args, "--latex", "out.tex"]) == 0
    written = (tmp_path / "out.tex").read_text(encoding="utf-8")
    assert r"\begin{tabular}" in written and r"sys\_1" in written
    capsys.readouterr()
    assert main([*args, "--latex", "out.tex"]) == 2  # there: not overwritten without asking
    assert "--overwrite" in capsys.readouterr().err
    assert main([*args, "--latex", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("% mtgui ") and "Scores (" not in out  # the tables are not printed
    assert main([*args, "--latex", "-", "--json", "-"]) == 2  # one output on standard output
