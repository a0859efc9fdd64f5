"""The style sheet of the HTML report: readable on screen and on paper, no web fonts.

The grid's colours are those of the window (Okabe-Ito sky blue better, orange worse, grey
tied: told apart by people with the common colour-vision deficiencies), and the symbols stay
in the cells, so a grey-scale print still reads. Printed, each metric starts on a new page and
no table or figure is cut in two.
"""

STYLE = """\
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif;
       color: #1b2a38; background: #ffffff; max-width: 60rem; margin: 2rem auto;
       padding: 0 1.5rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #c9d3dc; }
h3 { font-size: 1.05rem; }
p.made { color: #55606b; margin-top: 0; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem;
       overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { padding: 0.3rem 0.6rem; border: 1px solid #c9d3dc; vertical-align: top; }
th { text-align: left; background: #f2f5f8; font-weight: 600; }
table.facts th { width: 11rem; }
caption { caption-side: bottom; text-align: left; color: #55606b; font-size: 0.85rem;
          padding-top: 0.3rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
span.ci { color: #55606b; font-size: 0.85rem; }
span.rank { color: #55606b; font-size: 0.8rem; }
table.grid td { width: 2.2rem; text-align: center; font-weight: 700; }
td.better { background: #56b4e9; color: #000000; }
td.worse { background: #e69f00; color: #000000; }
td.same { background: #e8e8e8; color: #000000; }
td.equal { background: #6fcfae; color: #000000; }
td.self { background: #ffffff; }
table.pairs td, table.pairs th { padding: 3px 7px; }
ul.files { padding-left: 1.2rem; }
figure { margin: 1rem 0; }
figcaption { color: #55606b; font-size: 0.85rem; }
svg { max-width: 100%; height: auto; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  section.metric { break-before: page; }
  table, figure, svg { break-inside: avoid; }
  table.pairs { break-inside: auto; font-size: 8.5pt; }
  td.better, td.worse, td.same, td.equal, th { -webkit-print-color-adjust: exact;
                                     print-color-adjust: exact; }
}
"""
