"""Widgets and helpers every area uses: tables, choosers, scrolling, absent names, the palette,
the small dialogs, menu actions and fitting a window to its screen."""
