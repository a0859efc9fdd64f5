"""Simulations against known truths: document effects (coverage of intervals, size of tests)
and families of systems (family-wise error of the corrections). Used by the tests and by
``bench/``; nothing in a user's run calls them.
"""
