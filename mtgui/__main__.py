"""``python -m mtgui`` does exactly what the ``mtgui`` command does."""

import sys

from mtgui.cli import main

sys.exit(main())
