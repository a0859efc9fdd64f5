"""The bundle's entry point: exactly what the ``mtgui`` command does."""

import sys

from mtgui.launch import main

if __name__ == "__main__":
    sys.exit(main())
