"""Help (F1) and About: a short guide in plain words, and where the methods come from.

The readers are evaluators and linguists who may never open a terminal, so the guide says
what each number means and how to read it, with one worked example, rather than formulas.
Each method names the paper it comes from; the guide's wording is ours, not the papers'.
Everything it claims is what mtgui does (README.md, mtgui/engine/inference/intervals.py and
significance.py): change them together.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mtgui._version import __version__
from mtgui.engine.resampling import DEFAULT_LEVEL, DEFAULT_RESAMPLES, MIN_DOCUMENTS

REFERENCES: tuple[tuple[str, str], ...] = (
    # (short name used in the text, full reference)
    (
        "Papineni et al. (2002)",
        "Kishore Papineni, Salim Roukos, Todd Ward and Wei-Jing Zhu. BLEU: a Method for "
        "Automatic Evaluation of Machine Translation. ACL 2002.",
    ),
    (
        "Doddington (2002)",
        "George Doddington. Automatic Evaluation of Machine Translation Quality Using N-gram "
        "Co-Occurrence Statistics. HLT 2002.",
    ),
    (
        "Zhang & Vogel (2004)",
        "Ying Zhang and Stephan Vogel. Measuring Confidence Intervals for the Machine "
        "Translation Evaluation Metrics. TMI 2004.",
    ),
    (
        "Zhang, Vogel & Waibel (2004)",
        "Ying Zhang, Stephan Vogel and Alex Waibel. Interpreting BLEU/NIST Scores: How Much "
        "Improvement Do We Need to Have a Better System? LREC 2004.",
    ),
    (
        "Koehn (2004)",
        "Philipp Koehn. Statistical Significance Tests for Machine Translation Evaluation. "
        "EMNLP 2004.",
    ),
    (
        "Snover et al. (2006)",
        "Matthew Snover, Bonnie Dorr, Richard Schwartz, Linnea Micciulla and John Makhoul. "
        "A Study of Translation Edit Rate with Targeted Human Annotation. AMTA 2006.",
    ),
    (
        "Popović (2015)",
        "Maja Popović. chrF: character n-gram F-score for automatic MT evaluation. WMT 2015.",
    ),
    (
        "Post (2018)",
        "Matt Post. A Call for Clarity in Reporting BLEU Scores. WMT 2018 (sacreBLEU).",
    ),
    (
        "Riezler & Maxwell (2005)",
        "Stefan Riezler and John T. Maxwell III. On Some Pitfalls in Automatic Evaluation and "
        "Significance Testing for MT. ACL 2005 Workshop on Evaluation Measures for MT.",
    ),
    (
        "Holm (1979)",
        "Sture Holm. A Simple Sequentially Rejective Multiple Test Procedure. Scandinavian "
        "Journal of Statistics 6(2), 1979.",
    ),
    (
        "Benjamini & Hochberg (1995)",
        "Yoav Benjamini and Yosef Hochberg. Controlling the False Discovery Rate: A Practical "
        "and Powerful Approach to Multiple Testing. Journal of the Royal Statistical Society B "
        "57(1), 1995.",
    ),
    (
        "Westfall & Young (1993)",
        "Peter H. Westfall and S. Stanley Young. Resampling-Based Multiple Testing: Examples "
        "and Methods for p-Value Adjustment. Wiley, 1993.",
    ),
    (
        "Schuirmann (1987)",
        "Donald J. Schuirmann. A Comparison of the Two One-Sided Tests Procedure and the Power "
        "Approach for Assessing the Equivalence of Average Bioavailability. Journal of "
        "Pharmacokinetics and Biopharmaceutics 15(6), 1987.",
    ),
    (
        "Dror et al. (2018)",
        "Rotem Dror, Gili Baumer, Segev Shlomov and Roi Reichart. The Hitchhiker's Guide to "
        "Testing Statistical Significance in Natural Language Processing. ACL 2018.",
    ),
    (
        "Efron (1987)",
        "Bradley Efron. Better Bootstrap Confidence Intervals. Journal of the American "
        "Statistical Association 82(397), 1987.",
    ),
)

_CONTENTS = """
<h1>mtgui in a few minutes</h1>
<p>mtgui tells you whether one machine-translation system is really better than another, or
whether the difference in score could be the luck of which sentences ended up in the test
set.</p>
<p><a href="#load">Loading files</a> &middot; <a href="#metrics">The metrics</a> &middot;
<a href="#ci">Confidence intervals</a> &middot; <a href="#grid">The significance grid</a>
&middot; <a href="#more">Many systems, "~" and other tests</a> &middot;
<a href="#views">The views</a> &middot; <a href="#settings">Settings</a> &middot;
<a href="#papers">Papers</a></p>
"""

_LOADING = """
<h2><a name="load"></a>Loading files</h2>
<p>Drop the reference translations and the systems' outputs on the window (files or whole
folders), or use <b>File &gt; Open</b>. mtgui reads NIST/WMT SGML files, WMT XML files, plain
text (one segment per line) and tables of per-segment scores (CSV or TSV, for example human
judgments). SGML and XML files say what they hold; for a plain-text file mtgui asks whether it
is a reference, a system's output or the source, and suggests an answer from its name.</p>
<p>The files panel lists every file. A file that could not be read says why. Right-click a
system to rename it or to hide it from the analysis; drop a new version of a file on it to
replace it. All files must cover the same segments: mtgui never cuts or pads a file.</p>
<p><b>File &gt; Save session</b> keeps the files, the names and the settings in a small file;
open it later, or give the project folder to a colleague, to see the same analysis again.</p>
"""

_METRICS = """
<h2><a name="metrics"></a>The metrics: how close is the output to the references?</h2>
<p><b>BLEU</b> (Papineni et al. 2002) looks at the single words of the output, and at its runs
of two, three and four words, and finds what share of each also appears in a reference. It
multiplies the four shares together (a geometric mean) and lowers the result for outputs that
are shorter than the references (the <i>brevity penalty</i>). It goes from 0 to 1 here (many
papers multiply it by 100: <b>View &gt; BLEU and M-BLEU on a 0-100 scale</b> shows it so),
higher is better. It is the same number as NIST's mteval-v13a script and
sacreBLEU (Post 2018) give.</p>
<p><b>NIST</b> (Doddington 2002) also counts matching runs of up to five words, but a match
counts for more when the words are rare in the references: getting "Reykjavik" right tells more
than getting "the" right. Short outputs are penalized too. Its scale has no fixed top; higher
is better.</p>
<p><b>M-BLEU</b> (Zhang &amp; Vogel 2004) is BLEU with the plain average of the four shares
in place of their product, so that one weak share (often that of the four-word runs) does not
pull the whole score down. From 0 to 1, higher is better.</p>
<p><b>chrF</b> (Popović 2015) compares letters instead of words, so it gives partial credit
for a word with the right stem and the wrong ending. From 0 to 100, higher is better.
<b>chrF++</b> adds runs of one and two whole words to chrF's letters, as sacreBLEU's
<code>--chrf-word-order 2</code>.</p>
<p><b>TER</b> (Snover et al. 2006) counts the edits (insert, delete, replace, move a block) that
turn the output into a reference, per reference word: lower is better. <b>WER</b> is the same
idea without moves: the word edits to the closest reference, divided by its length; lower is
better.</p>
<p><b>Human</b> is the average of the per-segment scores you loaded, such as people's judgments.
Scores from other tools (COMET, BLEURT, MetricX...) loaded from a table, one number per line,
or COMET's own output, are metrics of their own under the names you give them, each with its
direction (for MetricX lower is better).</p>
<p>For TER and WER, where a lower number is better, every verdict in mtgui already says which
<i>system</i> is better, not which number is bigger.</p>
"""

_CI = f"""
<h2><a name="ci"></a>How sure is a score? The bootstrap and confidence intervals</h2>
<p>A test set is one sample of the text a system will meet. With other sentences the score
would have been a little different. The <b>bootstrap</b> (Zhang &amp; Vogel 2004; Koehn 2004)
measures how much: it builds a new test set of the same size by drawing segments at random
from yours (some twice, some not at all), scores every system on it, and does this
{DEFAULT_RESAMPLES:,} times (the <i>resamples</i>). Every system is scored on the same
resamples, so comparisons are fair.</p>
<p>The <b>confidence interval</b> (CI) is the range that holds the middle {DEFAULT_LEVEL:.0%} of
those scores: a range of plausible values for the system's score on other test sets like
yours. A narrow interval means the test set is big enough to pin the score down.</p>
<p>The <b>relative CI</b> (Zhang &amp; Vogel 2004, Table 1) gives the same interval as
percentages of the median score. <b>[-1.8%, +1.9%]</b> means the interval reaches 1.8% below
the median and 1.9% above it: with a median BLEU of 0.300, from about 0.295 to 0.306. As a
rule of thumb, a change smaller than this may be chance. To decide between two systems, use
the grid: it compares them resample by resample, which is more sensitive than looking at two
intervals side by side (two intervals can overlap while the grid still finds a clear
winner).</p>
<p>The <b>RSD</b> (relative standard deviation, Zhang, Vogel &amp; Waibel 2004) is the spread
of the bootstrap scores as a percentage of their mean: another way to say how steady the score
is.</p>
<p>Relative intervals and the RSD are left empty for human (or other loaded) scores: they
divide by the score, and z-scores near or below 0 would give meaningless percentages such as
"+435%". Read the interval itself.</p>
<p>When the test set is made of documents, their sentences are alike (one topic, one author),
and drawing single sentences makes the intervals too narrow however large the test set: in a
simulation with such documents, 95% intervals from drawing sentences held the true score only
about 79% of the time, and from drawing whole documents about 93-95%. So, with {MIN_DOCUMENTS}
or more documents, mtgui draws whole documents instead (Koehn 2004 warns about this); the
status line says which it did, and a note above the views says when the documents are few
enough for the intervals to be a little narrow even so.</p>
"""

_GRID = """
<h2><a name="grid"></a>Which system is better? The significance grid</h2>
<p>Each cell compares the system of its row with the system of its column, best system first.
mtgui takes the difference of their scores on each resample and looks at the interval of those
differences (Zhang &amp; Vogel 2004, section 3.2):</p>
<table border="1" cellspacing="0" cellpadding="4" style="margin-top:6px; margin-bottom:6px">
<tr><td style="background-color:#56B4E9; color:#000000"><b>&nbsp;&gt;&nbsp;</b></td><td>blue:
the row system is significantly better (the whole interval of the difference is on its side of
zero)</td></tr>
<tr><td style="background-color:#E69F00; color:#000000"><b>&nbsp;&lt;&nbsp;</b></td><td>orange:
the row system is significantly worse</td></tr>
<tr><td style="background-color:#E8E8E8; color:#000000"><b>&nbsp;~&nbsp;</b></td><td>grey: not
distinguishable: the interval contains zero, so this test set cannot tell them apart. It does
<i>not</i> mean that they are equally good (see <a href="#more">below</a>)</td></tr>
<tr><td style="background-color:#6FCFAE; color:#000000"><b>&nbsp;=&nbsp;</b></td><td>green:
equivalent: shown to differ by less than the margin you gave (only with an
<i>Equivalence</i> margin set)</td></tr>
</table>
<p>The colours are told apart by colour-blind readers too, and the symbol is always shown.
A sentence above the grid says at what confidence the verdicts are given and whether they were
corrected for making many comparisons.</p>
<p>Below the grid, the ranking is cut into <i>clusters</i>, best first. A cut between two
clusters means that every system above it is significantly better than every system below it.
Inside a cluster, some pairs may still differ (the first can be significantly better than the
last); the grid says which.</p>
<p>Point at a cell to see the numbers behind it:</p>
<ul>
<li>the <b>difference</b> of the two scores on the whole test set, and its interval;</li>
<li>the <b>win fraction</b> (Koehn 2004): in how many of the resamples the row system scored
better. 97% means it won 97 resamples out of 100;</li>
<li>the <b>p-value</b> (paired bootstrap, two-sided): roughly, how often a difference this large
would turn up by chance if the two systems were equally good. It is twice the share of
resamples in which the other system came out ahead, so it always agrees with the grid: at 95%
confidence a pair is <b>&gt;</b> or <b>&lt;</b> exactly when its p-value is below 0.05. It says
how sure, not how big or how important the difference is. sacreBLEU's p-value (in the exported
files as <i>p_value_sacrebleu</i>) counts in effect only one side: on systems that differ only
by chance it is below 0.05 about twice as often as it should be, which is why mtgui does not
use it for its verdicts;</li>
<li>with <i>Approximate randomization</i> ticked, a second p-value from swapping the two
systems' outputs on random segments 10,000 times (Riezler &amp; Maxwell 2005);</li>
<li>with a <i>Correction</i> chosen, p-values corrected for comparing many pairs at once: the
more pairs, the more likely one looks significant by chance alone. <b>Holm</b> (Holm 1979)
keeps the chance of even one wrong <b>&gt;</b> or <b>&lt;</b> in the grid below 5%;
<b>Benjamini-Hochberg</b> (Benjamini &amp; Hochberg 1995) keeps the expected share of wrong
ones among those found below 5%, and so finds more; <b>max-T</b> (Westfall &amp; Young 1993)
keeps Holm's guarantee and finds more than Holm (see <a href="#more">below</a>). The grid, the
clusters, the ranks, the intervals and the paired view then follow the correction;</li>
<li>the <b>minimum detectable difference</b> (MDD) and the <b>units needed</b>, and for loaded
segment scores the <b>t-test</b> and <b>Wilcoxon</b> p-values and the segment <b>win/loss
rates</b> (see <a href="#more">below</a>).</li>
</ul>
"""

_MORE = """
<h2><a name="more"></a>Many systems, what "~" cannot see, and other tests</h2>
<p><b>Why a correction with several systems.</b> With 10 systems the grid makes 45
comparisons per metric. Even if all 10 were equally good, each comparison has a 5% chance to
come out <b>&gt;</b> or <b>&lt;</b> by luck, so most grids would show some false difference
(Dror et al. 2018 explain this for NLP). A <i>Correction</i> raises the bar so that the grid as
a whole keeps its promise. <b>Holm</b> (Holm 1979) asks the most significant pair to pass 5% /
45, the next 5% / 44, and so on. <b>max-T</b> (Westfall &amp; Young 1993) looks at how the
largest of all the comparisons' differences (each measured in its own standard errors) varies
over the resamples, and asks each pair to beat that: since the comparisons share systems and
resamples, this bar is lower than Holm's while the chance of even one false <b>&gt;</b> or
<b>&lt;</b> in the grid stays below 5%. That is why mtgui suggests max-T as soon as three or
more systems are loaded. <b>Benjamini-Hochberg</b> promises less (that wrong verdicts are at
most 5% of those found) and finds more. A correction needs enough resamples to reach its
bar; where there are too few, mtgui draws more and says from how many to how many.</p>
<p><b>Family</b>: which comparisons share one correction: each metric's pairs (the default),
or every metric's pairs together (stricter; then the groups of the Breakdown tab join the family
once a breakdown is made, and the grid's verdicts are decided again, as a note says). The
sentence above the grid says which.</p>
<p><b>Under a correction the interval agrees with the verdict.</b> The interval shown beside a
verdict then holds zero exactly when the verdict is <b>~</b> (it is wider than the pair's own
95% interval, which the exported files keep as <i>ci_low_uncorrected</i> and
<i>ci_high_uncorrected</i>).</p>
<p><b>What "~" cannot see: the MDD.</b> A test set can only see differences of a certain size.
The <b>minimum detectable difference</b> is the true difference that this test set would
find 80% of the time; a real difference well below it will usually come out <b>~</b>. Above
the grid one line says it for the metric ("on this test set, differences smaller than about
0.016 BLEU can go unseen"); the tooltip and the paired view give it for each pair, with the
<b>units needed</b>: about how many segments (or documents) would make the difference seen
between the two systems detectable 80% of the time. That number is an estimate: it assumes
that the spread shrinks with the square root of the test set's size.</p>
<p><b>Equivalence ("=")</b>. To show that two systems are alike, give a margin under
<i>Equivalence</i>, such as <code>bleu=0.01</code>. mtgui then tests whether the difference
is shown to lie within plus or minus the margin (two one-sided tests, Schuirmann 1987): such
a pair gets a green <b>=</b>. Without a margin no <b>=</b> ever appears.</p>
<p><b>Document ids for plain text.</b> Plain text files do not say which sentences belong to
one document, so mtgui resamples single sentences and a note warns that the intervals can be
too narrow (on WMT news, a true tie was called significant 32-59% of the time instead of 5%).
Load a file with one document id per line (WMT ships them as <code>*.docids</code>) and give it
the role <i>Document ids</i>: mtgui then resamples whole documents, as for SGML files.</p>
<p><b>t-test, Wilcoxon and win/loss rates</b>. For scores loaded per segment (human
judgments, COMET...), the field also uses the paired <b>t-test</b> (as comet-compare does) and
the <b>Wilcoxon signed-rank test</b> (WMT's human rankings): both compare the two systems
segment by segment. Their p-values are shown beside the bootstrap's, and <i>Segment scores
by</i> chooses which of the three decides the grid. For every metric with segment scores, the
<b>win rate</b> and <b>loss rate</b> say on what share of the segments the row system is better
and worse (the rest tie).</p>
<p><b>Interval methods</b>. <i>Percentile</i> takes the middle 95% of the resampled scores
(Koehn 2004). <i>BCa</i> moves those percentiles to correct for a bias and a skew of the
resamples (Efron 1987). <i>Studentized</i> measures each resample in its own standard errors,
which widens the interval when few documents make the spread itself uncertain. With 10 to 29
documents, percentile intervals hold the true score only 88-92% of the time instead of 95%, so
<i>Automatic</i> takes the studentized interval there and the percentile one elsewhere.</p>
<p><b>Few units.</b> Every bootstrap verdict assumes that the test set's spread is known,
while it is estimated from the test set itself. With few segments or documents and many
systems, a correction's bar is far out in the tail, where that matters. max-T allows for it
(Student's t) and stayed near 5% with 20 systems on 100 segments in mtgui's simulations (about
9% with 10 systems on only 20 segments); Holm and Benjamini-Hochberg make no such allowance and
let through 6-8% with 20 systems on 100 segments (a note says so when that can happen). So with
many systems and few segments or documents, use max-T, and with fewer than about 30 documents
read a large grid with care.</p>
"""

_VIEWS = f"""
<h2><a name="views"></a>The views</h2>
<ul>
<li><b>Summary</b>: the result in words, a few sentences per metric: the best systems, who is
significantly ahead of whom and by how much, which neighbours this test set could not tell apart
(with the smallest difference it could see there), and whether the metric agrees with the human
scores when they were analysed. Every number in it is one the other tabs show.</li>
<li><b>Distributions</b>: each system's bootstrap scores as a histogram, with the score on the
whole test set (solid line), the median (dashed) and the interval (dotted); or all systems
overlaid in one plot.</li>
<li><b>Scores</b>: the table of scores, medians, intervals, relative intervals and RSD, best
system in bold. Click a column title to sort; point at it to see what it means.</li>
<li><b>Significance</b>: the grid described above.</li>
<li><b>Paired view</b>: double-click a cell of the grid to see the two systems compared in
full: how the difference is spread over the resamples, where zero falls, the interval, the
win fraction, the p-values, the minimum detectable difference and the units needed, and for
segment scores the t-test, Wilcoxon and win/loss rates, in words.</li>
<li><b>Details</b>: where BLEU and NIST scores come from: for each system the brevity or
length penalty, then for each run length (1 to 4 words for BLEU, 1 to 5 for NIST) the matches
behind the score, and for NIST how much each run length adds to it (Zhang, Vogel &amp; Waibel
2004, Table 1).</li>
<li><b>Segments</b>: two systems side by side, segment by segment, with their sentence scores
and the difference, the segments where one gains most first. Select a segment to read the
source, both outputs and the references, with the words that match a reference shaded.</li>
<li><b>Documents</b>: two systems document by document, each document scored on its own, the
documents where the first gains most first. Double-click one to read its segments.</li>
<li><b>Breakdown</b>: the systems within groups of segments: by what the files say of their
documents (original language, genre, domain), by the length of the reference, or by labels in
a file of yours. Each group has its own scores, intervals and grid.</li>
<li><b>Studies</b>: is your test set big enough, do more references help, are
{DEFAULT_RESAMPLES:,} resamples enough, and do the metrics agree with human scores (Zhang
&amp; Vogel 2004, section 4).</li>
<li><b>Campaign</b> (with two test sets or more): the tabs above the files panel are the
project's test sets (File &gt; Add test set, Ctrl+T, or the <b>+</b> beside them adds one;
double-click a tab to rename it); the settings are shared. This tab analyses every set as it
is analysed alone and shows a grid of systems by test sets, each cell the system's score there,
coloured by its rank cluster in that set (1 the best; one cluster: not told apart), then, for
every two systems, on how many sets one is better or worse, the mean difference over the sets
with its interval, p-value and verdict (a bootstrap over all the sets), and on at least how
many sets one is better with the error over the sets controlled (Dror et al. 2017). The HTML
report is then the campaign's.</li>
</ul>
"""

_SETTINGS = f"""
<h2><a name="settings"></a>Settings</h2>
<ul>
<li><b>Resamples</b>: how many bootstrap test sets; {DEFAULT_RESAMPLES:,} is the papers'
choice, more gives steadier intervals.</li>
<li><b>Confidence</b>: {DEFAULT_LEVEL} gives {DEFAULT_LEVEL:.0%} intervals and verdicts at that
level.</li>
<li><b>Seed</b>: the same seed, files and settings give exactly the same numbers again.</li>
<li><b>Resample by</b>: <i>Automatic</i> draws whole documents when the test set has
{MIN_DOCUMENTS} or more (SGML or XML files), else single segments; <i>Documents</i> and
<i>Segments</i> force one or the other. Drawing documents is more honest when the sentences
of a document are alike (Koehn 2004 warns about this).</li>
<li><b>Intervals</b>: percentile, BCa, studentized or automatic (see <a href="#more">Interval
methods</a>).</li>
<li><b>Correction</b>: none, Holm, Benjamini-Hochberg or max-T, for comparing many pairs at
once; max-T is suggested with three or more systems (see <a href="#more">above</a>).</li>
<li><b>Family</b>: the comparisons one correction covers: each metric's, or all metrics'
together.</li>
<li><b>Equivalence</b>: margins such as <code>bleu=0.01, chrf=0.5</code>, for the green
<b>=</b>.</li>
<li><b>Segment scores by</b>: the bootstrap, the t-test or the Wilcoxon test, for the grid of
loaded segment scores.</li>
<li><b>Tokenizer</b> and <b>Case</b>: how text is cut into words and whether "The" and "the"
are the same word. The defaults (13a, case-sensitive) are those of WMT and sacreBLEU.</li>
</ul>
"""


def _papers_html() -> str:
    items = "".join(
        f"<li><b>{html.escape(short)}</b>: {html.escape(full)}</li>" for short, full in REFERENCES
    )
    return f'<h2><a name="papers"></a>Where the methods come from</h2><ul>{items}</ul>'


GUIDE_HTML = "".join(
    (_CONTENTS, _LOADING, _METRICS, _CI, _GRID, _MORE, _VIEWS, _SETTINGS, _papers_html())
)
"""The in-app guide (Qt rich text)."""


class HelpDialog(QDialog):
    """The guide in a browser that follows its own links; not modal, so it can stay open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("mtgui help")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(GUIDE_HTML)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(780, 680)


def about_text() -> str:
    """The About box's text (Qt rich text): version, what mtgui is, the methods, the licence."""
    papers = "".join(f"<li>{html.escape(full)}</li>" for _, full in REFERENCES)
    return (
        f"<h3>mtgui {html.escape(__version__)}</h3>"
        "<p>Scores machine-translation systems (BLEU, NIST, M-BLEU and more) and tells, with "
        "bootstrap confidence intervals and significance tests, whether one is really better "
        "than another.</p>"
        f"<p>The methods come from:</p><ul>{papers}</ul>"
        "<p>Scores match NIST's mteval-v13a and sacreBLEU.</p>"
        "<p>Free software under the MIT licence.</p>"
    )


def about_box(parent: QWidget | None = None) -> QMessageBox:
    """The About box, not yet shown (tests open and close it without a modal loop)."""
    box = QMessageBox(parent)
    box.setWindowTitle("About mtgui")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    return box


def show_about(parent: QWidget | None = None) -> None:
    """Show the About box and wait until it is closed."""
    about_box(parent).exec()
