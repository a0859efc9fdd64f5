"""The studies tab: test-set size, agreement with humans, and their plots."""
