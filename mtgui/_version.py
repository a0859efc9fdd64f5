"""mtgui's version, in a module of its own: every layer may import it without importing the
package's Python API (:mod:`mtgui.api`), which sits above them all."""

__version__ = "0.4.0"
