"""The human-judgement study: how well each metric agrees with human scores."""
