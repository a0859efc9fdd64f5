"""The result's tabs: scores, significance grid, pairs, histograms, segments, documents, breakdown,
details, and the pane that holds them."""
