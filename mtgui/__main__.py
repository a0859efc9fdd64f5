"""``python -m mtgui`` does exactly what the ``mtgui`` command does."""

import sys

from mtgui.launch import main

sys.exit(main())
