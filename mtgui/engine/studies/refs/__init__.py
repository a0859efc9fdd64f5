"""The references study (Zhang & Vogel 2004, 4.2): what it computes, and how it runs."""
