"""The bundle's entry point: exactly what the ``mtgui`` command does.

``freeze_support`` comes first: a tokenizing worker (mtgui.engine.text.token_pool) is this same
program started again with multiprocessing's arguments, and it must run the worker and exit
there, not open a second window or run the command again.
"""

import multiprocessing

from mtgui.engine.text.token_pool import freeze_support_done
from mtgui.entry import run

if __name__ == "__main__":
    multiprocessing.freeze_support()
    freeze_support_done()
    run()
