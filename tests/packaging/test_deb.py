"""packaging/linux/make-deb.sh makes a Debian package that installs the app system-wide and is
removed cleanly by the package manager.

The package is made from a fake bundle (a script standing for the built program), so that no
build is needed. CI, which runs as root with apt (``MTGUI_TEST_APT=1``, set by .ci/run), also
installs the package packaging/build.sh made (the fake one where there is none), runs the
installed command, and removes the package again: nothing of it may stay behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtgui import __version__

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "linux" / "make-deb.sh"

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("dpkg-deb") is None,
    reason="Debian packages are made with dpkg-deb (Debian, Ubuntu)",
)


def fake_bundle(folder: Path) -> Path:
    """A bundle whose program prints its version, as the built one's ``--version`` does."""
    bundle = folder / "mtgui"
    (bundle / "_internal").mkdir(parents=True)
    program = bundle / "mtgui"
    program.write_text("#!/bin/sh\necho 'mtgui fake bundle'\n")
    program.chmod(0o755)
    (bundle / "_internal" / "library.txt").write_text("what the program loads\n")
    (bundle / "install-desktop.sh").write_text("#!/bin/sh\n")
    return bundle


def make_deb(tmp_path: Path, version: str | None = None) -> Path:
    arguments = [str(fake_bundle(tmp_path)), str(tmp_path / "out")]
    result = subprocess.run(
        ["bash", str(SCRIPT), *arguments, *([version] if version else [])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return Path(result.stdout.strip().splitlines()[-1])


def contents(deb: Path) -> dict[str, str]:
    """Each path in the package with its listing line (mode, owner, link target)."""
    listing = subprocess.run(
        ["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in listing.splitlines():
        name = line.split(maxsplit=5)[5].split(" -> ")[0].removeprefix(".")
        found[name.rstrip("/")] = line
    return found


def field(deb: Path, name: str) -> str:
    return subprocess.run(
        ["dpkg-deb", "--field", str(deb), name], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_package_holds_the_program_the_menu_entry_the_types_and_the_icons(tmp_path):
    deb = make_deb(tmp_path)
    assert deb.name == f"mtgui_{__version__}_{field(deb, 'Architecture')}.deb"
    assert field(deb, "Package") == "mtgui" and field(deb, "Version") == __version__
    assert "libxcb-cursor0" in field(deb, "Depends")
    files = contents(deb)
    for path in (
        "/opt/mtgui/mtgui",
        "/opt/mtgui/_internal/library.txt",
        "/usr/share/applications/mtgui.desktop",
        "/usr/share/mime/packages/mtgui.xml",
        "/usr/share/icons/hicolor/scalable/apps/mtgui.svg",
        "/usr/share/icons/hicolor/256x256/apps/mtgui.png",
    ):
        assert path in files, path
    assert files["/usr/bin/mtgui"].endswith("-> /opt/mtgui/mtgui")
    assert files["/opt/mtgui/mtgui"].startswith("-rwxr-xr-x root/root")
    assert "/opt/mtgui/install-desktop.sh" not in files  # the per-user installer is not needed


def test_the_package_has_no_maintainer_scripts(tmp_path):
    """The system's triggers update the menu, MIME and icon caches: removal leaves nothing."""
    deb = make_deb(tmp_path)
    control = subprocess.run(
        ["dpkg-deb", "--info", str(deb)], capture_output=True, text=True, check=True
    ).stdout
    for script in ("preinst", "postinst", "prerm", "postrm"):
        assert f" {script} " not in control


@pytest.mark.parametrize(
    ("bundle", "version", "message"),
    [("missing", None, "no built program"), ("fake", "v1; rm -rf /", "does not start")],
)
def test_a_wrong_bundle_or_version_is_refused_in_words(tmp_path, bundle, version, message):
    folder = fake_bundle(tmp_path) if bundle == "fake" else tmp_path / "nothing"
    result = subprocess.run(
        ["bash", str(SCRIPT), str(folder), str(tmp_path / "out"), *([version] if version else [])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and message in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(
    os.environ.get("MTGUI_TEST_APT") != "1" or shutil.which("apt-get") is None,
    reason="installs a package on this machine: only where MTGUI_TEST_APT=1 (CI, as root)",
)
def test_apt_installs_the_package_and_removes_it_cleanly(tmp_path):
    status = subprocess.run(["dpkg", "-s", "mtgui"], capture_output=True, text=True)
    if status.returncode == 0:
        pytest.skip("a package named mtgui is installed here already")
    built = sorted((ROOT / "dist").glob(f"mtgui_{__version__}_*.deb"))
    deb = built[-1] if built else make_deb(tmp_path, "0.0.1~test")
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}

    def apt(*arguments: str) -> None:
        result = subprocess.run(
            ["apt-get", "-y", "-qq", *arguments], capture_output=True, text=True, env=environment
        )
        assert result.returncode == 0, result.stdout + result.stderr

    apt("install", "--no-install-recommends", str(deb))
    try:
        listed = set(
            subprocess.run(["dpkg", "-L", "mtgui"], capture_output=True, text=True).stdout.split()
        )
        assert "/opt/mtgui/mtgui" in listed and "/usr/share/applications/mtgui.desktop" in listed
        run = subprocess.run(
            ["/usr/bin/mtgui", "--version"], capture_output=True, text=True, timeout=60
        )
        assert run.stdout.strip() in {"mtgui fake bundle", f"mtgui {__version__}"}, run.stderr
    finally:
        apt("remove", "--purge", "mtgui")
    for path in ("/opt/mtgui", "/usr/bin/mtgui", "/usr/share/applications/mtgui.desktop"):
        assert not os.path.lexists(path), path
    assert subprocess.run(["dpkg", "-s", "mtgui"], capture_output=True).returncode != 0
