"""The computing core of mtgui: pure Python and numpy, never Qt.

Everything here is usable from a script, from the command line and from the desktop
application's worker thread alike.
"""
