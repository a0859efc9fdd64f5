"""The desktop application without its widgets: what the window does, in Qt objects that can
be tested without one. Only ``PySide6.QtCore`` is imported here; widgets live in
:mod:`mtgui.views`, which talk to this package through signals.

- ``controller``: :class:`~mtgui.app.controller.AppController`, the one object the window
  creates; it owns the parts below and gathers their messages.
- ``loading`` (the workspace and the files being read into it), ``analysis`` (runs, the result
  shown, whether it is current), ``studies``, ``sessions`` (opened off the GUI thread),
  ``exports`` (the CSV reports), ``estimate`` (the time left), ``staleness`` (what results
  were made from, in words).
- ``window_interface``: what the controller needs from the window (settings, dialogs).
- The worker machinery: ``worker`` (an engine generator on a thread), ``runs`` (one owner of a
  kind of run), ``threads`` (QThreads kept until they end), ``file_loader`` (reads files, one
  slow file holding up none).
- ``preferences`` (remembered between runs) and ``garbage`` (collection in the GUI thread).
"""
