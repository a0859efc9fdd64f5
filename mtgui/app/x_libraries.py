"""Whether the system libraries Qt's X11 platform plugin (xcb) loads are there, before Qt
tries: a fresh Debian or Ubuntu lacks some of them (``libxcb-cursor0``, ``libxcb-icccm4``,
``libxcb-keysyms1``), and Qt then stops with "could not load the Qt platform plugin xcb",
which names neither the library nor the package. mtgui names the packages to install instead.

The list is what ``ldd`` shows for PySide6's ``libqxcb.so`` and ``libQt6XcbQpa.so.6`` on
Debian 12, less what Qt carries and what every system has (the C library). Only the window
of a pip install on Linux under X11 is checked: the built app carries its own copies, and
Wayland and the offscreen platform do not load the plugin. No Qt is imported here.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping

X_LIBRARIES: Mapping[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
"""Each library Qt's xcb plugin loads, and the Debian/Ubuntu package that holds it."""


def loadable(library: str) -> bool:
    """Whether the dynamic loader finds and loads ``library`` (as Qt's plugin would)."""
    try:
        ctypes.CDLL(library)
    except OSError:
        return False
    return True


def uses_xcb(environment: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt would open the window through its xcb plugin: on Linux, with an X display,
    unless another platform is asked for or a Wayland session is there to be used."""
    if not platform.startswith("linux") or getattr(sys, "frozen", False):
        return False
    asked = environment.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0]
    if asked:
        return asked == "xcb"
    return bool(environment.get("DISPLAY")) and not environment.get("WAYLAND_DISPLAY")


def missing_x_libraries(
    environment: Mapping[str, str] | None = None,
    can_load: Callable[[str], bool] | None = None,
) -> dict[str, str]:
    """The libraries of :data:`X_LIBRARIES` that cannot be loaded (by ``can_load``, else
    :func:`loadable`), with their packages (none when the window does not use xcb)."""
    if not uses_xcb(os.environ if environment is None else environment):
        return {}
    can_load = can_load or loadable
    return {name: package for name, package in X_LIBRARIES.items() if not can_load(name)}


def missing_libraries_message(missing: Mapping[str, str]) -> str:
    """What to tell the user, in words, with the command that installs the packages."""
    packages = " ".join(dict.fromkeys(missing.values()))
    return (
        "mtgui cannot open its window: the X11 support of Qt (the toolkit of the window) needs "
        f"system libraries that are not installed ({', '.join(missing)}).\n"
        "On Debian or Ubuntu, install them with:\n\n"
        f"    sudo apt install {packages}\n\n"
        "then start mtgui again. (The command line, mtgui eval, works without them.)"
    )
