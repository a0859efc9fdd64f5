"""Before Qt starts under X11, the libraries its xcb plugin needs are looked for, and missing
ones are named with their Debian/Ubuntu packages (mtgui.app.x_libraries, mtgui.launch)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgui import launch
from mtgui.app import x_libraries
from mtgui.app.x_libraries import (
    X_LIBRARIES,
    missing_libraries_message,
    missing_x_libraries,
    uses_xcb,
)

X11 = {"DISPLAY": ":0"}


def lacking(*names: str):
    """A loader that finds every library but ``names``."""
    return lambda library: library not in names


def test_missing_libraries_are_named_with_their_packages():
    missing = missing_x_libraries(X11, lacking("libxcb-icccm.so.4", "libxcb-keysyms.so.1"))
    assert missing == {
        "libxcb-icccm.so.4": "libxcb-icccm4",
        "libxcb-keysyms.so.1": "libxcb-keysyms1",
    }
    message = missing_libraries_message(missing)
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in message
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in message


def test_the_list_names_the_libraries_a_fresh_debian_lacked():
    for package in ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"):
        assert package in X_LIBRARIES.values()


@pytest.mark.parametrize(
    ("environment", "platform", "xcb"),
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "w", "QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "darwin", False),
    ],
)
def test_only_the_xcb_platform_is_checked(environment, platform, xcb):
    assert uses_xcb(environment, platform) is xcb


def test_nothing_is_missing_on_other_platforms():
    assert missing_x_libraries({"QT_QPA_PLATFORM": "offscreen"}, lacking(*X_LIBRARIES)) == {}


def test_this_machine_loads_the_libraries_the_tests_need():
    assert x_libraries.loadable("libxcb.so.1")
    assert not x_libraries.loadable("libmtgui-no-such-library.so.9")


def test_the_window_is_not_started_without_them(monkeypatch, capsys):
    from mtgui.views.window import launch as window_launch

    monkeypatch.setattr(window_launch, "run_application", lambda **_: 0)  # never a window
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(x_libraries, "loadable", lacking("libxcb-cursor.so.0"))
    assert launch.open_window(False, [Path("x")]) == 1
    error = capsys.readouterr().err
    assert "sudo apt install libxcb-cursor0" in error and "Qt" in error
