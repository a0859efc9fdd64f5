"""Widgets and helpers every area uses: tables, choosers, scrolling, absent names."""
