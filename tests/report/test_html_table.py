"""The reports' plain HTML table: names isolated, numbers right-aligned (class "num"), words at
the end of a row escaped and aligned as text."""

from __future__ import annotations

from mtgui.report.html_table import html_table


def test_names_numbers_and_words_are_each_marked_up_for_what_they_hold():
    table = html_table(["x", "y", "delta", "verdict"], [["A", "B<", "+0.5000", ">"]], 2, words=1)
    assert table == (
        "<table><thead><tr><th>x</th><th>y</th><th>delta</th><th>verdict</th></tr></thead>"
        '<tbody><tr><td><bdi>A</bdi></td><td><bdi>B&lt;</bdi></td><td class="num">+0.5000</td>'
        "<td>&gt;</td></tr></tbody></table>"
    )


def test_without_words_every_cell_after_the_names_is_a_number():
    table = html_table(["set", "segments"], [["news", "2000"]], 1)
    assert '<td><bdi>news</bdi></td><td class="num">2000</td>' in table


def test_names_as_columns_are_isolated_so_that_a_right_to_left_name_moves_no_other():
    table = html_table(["system", "news\u202e", "<b>"], [["A", "1", "2"]], 1, named_columns=True)
    assert table.startswith(
        "<table><thead><tr><th>system</th><th><bdi>news\u202e\u202c</bdi></th>"
        "<th><bdi>&lt;b&gt;</bdi></th></tr>"
    )
