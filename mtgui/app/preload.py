"""Modules a run imports on its worker threads, imported instead as the window starts.

An import holds the interpreter's lock (and the import lock) while a module's extension loads
and its body runs, so a module first imported on a run's thread holds the window too, just as
a large run starts and the window has most to draw. Found by listing what ``sys.modules``
gained during a run of the window (a 5 ms ticker once saw an import hold a worker 107 ms):

- ``numpy.random``, on the resample-drawing thread as the analysis starts;
- ``numpy.ma``, which ``np.unique`` and ``np.quantile`` reach for on their first call;
- ``concurrent.futures.process`` and the spawning side of ``multiprocessing``, where the
  tokenizing workers' pool starts (the command line imports them only then: 20 ms of every
  ``mtgui eval``);
- the SGML and WMT XML readers and chrF's extraction, which the command line imports where a
  file or a metric needs them (10 ms of every ``mtgui eval`` on plain text, with the others
  it leaves until used), and the window's file reading and runs would import on their threads.
"""

# ruff: noqa: F401
from __future__ import annotations

# Imported to be loaded now; nothing here uses them.
import concurrent.futures.process
import multiprocessing.popen_spawn_posix
import multiprocessing.resource_tracker
import multiprocessing.spawn
import multiprocessing.synchronize

import numpy.ma
import numpy.random

import mtgui.engine.metrics.chrf.extract
import mtgui.io.sgml
import mtgui.io.wmtxml
