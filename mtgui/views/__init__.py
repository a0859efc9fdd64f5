"""Widgets that show results. They get their data through signals and Qt models only."""
