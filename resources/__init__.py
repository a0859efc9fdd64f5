"""Data files bundled with mtgui (installed as the package ``mtgui.resources``)."""
