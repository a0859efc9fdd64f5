"""The desktop application without its widgets: what the window does, in Qt objects that can
be tested without one. Runs on worker threads, loading, sessions, exports, preferences. Only
``PySide6.QtCore`` is imported here; widgets live in :mod:`mtgui.views`."""
