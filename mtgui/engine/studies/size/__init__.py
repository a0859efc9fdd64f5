"""The test-set size study (Zhang & Vogel 2004, 4.1): what it computes, and how it runs."""
