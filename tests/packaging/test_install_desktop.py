"""packaging/linux/install-desktop.sh installs and removes only its own files, whatever the paths.

Run directly against a fake bundle folder (no build needed): HOME and XDG_DATA_HOME point into
the test's folder, and the cache updaters it calls are stubs on PATH. The desktop entry is read
back with a parser that follows the Desktop Entry Specification (string escapes, then the Exec
key's quoting and field codes), so a path the launcher would split shows up as a wrong argv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "linux" / "install-desktop.sh"
SCRIPTS = [SCRIPT, ROOT / "packaging" / "build.sh", ROOT / ".ci" / "run"]
STUBS = ("update-desktop-database", "update-mime-database", "gtk-update-icon-cache", "xdg-mime")
ODD_NAMES = [
    "b with space",
    "q\"uote's",
    "a&b amp",
    "p|ipe",
    "d$ollar $HOME",
    "back\\slash",
    "per%cent %F %%",
    "tick`s`",
    "semi;colon (x) *?#~<>",
    "ünï cödé",
]
ODD_HOMES = [*ODD_NAMES, "new\nline home"]

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("sh") is None, reason="the desktop install is Linux's"
)

# --- The Desktop Entry Specification, read back --------------------------------------------

_STRING_ESCAPES = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def unescape_string(value: str) -> str:
    """A value of type string: \\s \\n \\t \\r \\\\ (section "Possible value types")."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\":
            assert i + 1 < len(value), f"a lone backslash ends {value!r}"
            out.append(_STRING_ESCAPES.get(value[i + 1], "\\" + value[i + 1]))
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def exec_argv(value: str, files: list[str]) -> list[str]:
    """The argv an Exec value starts (section "The Exec key"): arguments split at spaces,
    double-quoted ones with \\" \\` \\$ \\\\ escaped, reserved characters only inside quotes,
    %% a percent sign and %F the files."""
    text = unescape_string(value)
    argv: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        if text[i] == '"':
            word, i = [], i + 1
            while text[i] != '"':
                if text[i] == "\\":
                    assert text[i + 1] in '"`$\\', f"a backslash before {text[i + 1]!r}"
                    i += 1
                word.append(text[i])
                i += 1
            i += 1
            assert i == len(text) or text[i] == " ", "a quoted argument must be whole"
            argv.append(_field_codes("".join(word), files, quoted=True))
            continue
        end = text.find(" ", i)
        end = len(text) if end < 0 else end
        word = text[i:end]
        assert not _RESERVED & set(word), f"unquoted reserved character in {word!r}"
        if word == "%F":
            argv += files
        else:
            argv.append(_field_codes(word, files, quoted=False))
        i = end
    return argv


def _field_codes(word: str, files: list[str], quoted: bool) -> str:
    """%% is a percent sign; a field code inside an argument is an error here."""
    out, i = [], 0
    while i < len(word):
        if word[i] == "%":
            assert word[i + 1] == "%", f"field code %{word[i + 1]} inside {word!r}"
            i += 2
            out.append("%")
        else:
            out.append(word[i])
            i += 1
    return "".join(out)


def desktop_values(path: Path) -> dict[str, str]:
    """The [Desktop Entry] group's keys."""
    values: dict[str, str] = {}
    group = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            group = line
        elif "=" in line and group == "[Desktop Entry]" and not line.startswith("#"):
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


def test_the_parser_reads_the_specifications_examples():
    assert exec_argv(r'"/a b/\\$c" %F', ["f"]) == ["/a b/$c", "f"]
    assert exec_argv(r'"/x/\\\\y" %%', []) == ["/x/\\y", "%"]
    with pytest.raises(AssertionError):
        exec_argv("/a b&c/mtgui %F", [])


# --- Running the script against a fake bundle ----------------------------------------------


def make_bundle(folder: Path) -> Path:
    """A folder shaped like dist/mtgui: the program, share/ and the script."""
    share = folder / "share"
    (share / "applications").mkdir(parents=True)
    (share / "mime" / "packages").mkdir(parents=True)
    for size in ("48x48", "scalable"):
        (share / "icons" / "hicolor" / size / "apps").mkdir(parents=True)
    shutil.copy(ROOT / "packaging/linux/mtgui.desktop", share / "applications")
    shutil.copy(ROOT / "packaging/linux/mtgui-session.xml", share / "mime" / "packages")
    shutil.copy(ROOT / "resources/icons/mtgui.svg", share / "icons/hicolor/scalable/apps")
    shutil.copy(ROOT / "resources/icons/mtgui-48.png", share / "icons/hicolor/48x48/apps/mtgui.png")
    program = folder / "mtgui"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    shutil.copy(SCRIPT, folder / "install-desktop.sh")
    return folder


class Desktop:
    """A home, a working folder and stubs on PATH to run the script in."""

    def __init__(self, tmp_path: Path, home_name: str = "home") -> None:
        self.root = tmp_path
        self.home = tmp_path / "x" / home_name
        self.home.mkdir(parents=True)
        self.cwd = tmp_path / "cwd"
        self.cwd.mkdir()
        self.stubs = tmp_path / "stubs"
        self.stubs.mkdir()
        for name in STUBS:
            stub = self.stubs / name
            stub.write_text(f'#!/bin/sh\necho {name} >> "{tmp_path}/stub-calls"\n')
            stub.chmod(0o755)
        self.data = self.home / ".local" / "share"
        self.bin = self.home / ".local" / "bin"

    def run(
        self, bundle: Path, *arguments: str, data: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        environment = {
            "PATH": f"{self.stubs}:/usr/bin:/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
        }
        if data is not None:
            environment["XDG_DATA_HOME"] = str(data)
        return subprocess.run(
            ["sh", str(bundle / "install-desktop.sh"), *arguments],
            cwd=self.cwd,
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def files(self) -> dict[str, bytes | str]:
        """Every file and link under the test's folder (but the bundles and stubs)."""
        found: dict[str, bytes | str] = {}
        for folder, _, names in os.walk(self.root):
            for name in names:
                path = Path(folder) / name
                if path.is_symlink():
                    found[str(path)] = "-> " + os.readlink(path)
                else:
                    found[str(path)] = path.read_bytes()
        return found


def installed(desktop: Desktop) -> set[Path]:
    return {
        desktop.bin / "mtgui",
        desktop.data / "applications/mtgui.desktop",
        desktop.data / "mime/packages/mtgui-session.xml",
        desktop.data / "icons/hicolor/scalable/apps/mtgui.svg",
        desktop.data / "icons/hicolor/48x48/apps/mtgui.png",
        desktop.data / "mtgui/desktop-install.manifest",
    }


@pytest.mark.parametrize("bundle_name", ODD_NAMES)
def test_an_odd_bundle_path_gives_an_entry_that_starts_the_program(tmp_path, bundle_name):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "bundles" / bundle_name)
    done = desktop.run(bundle)
    assert done.returncode == 0, done.stderr
    entry = desktop_values(desktop.data / "applications/mtgui.desktop")
    assert exec_argv(entry["Exec"], ["/s/a.mtgui.json", "/s/b c"]) == [
        str(bundle / "mtgui"),
        "/s/a.mtgui.json",
        "/s/b c",
    ]
    assert entry["MimeType"] == "application/x-mtgui-session;application/x-mtgui-project;"
    assert entry["Icon"] == "mtgui"
    assert os.readlink(desktop.bin / "mtgui") == str(bundle / "mtgui")
    assert (desktop.data / "icons/hicolor/scalable/apps/mtgui.svg").read_bytes() == (
        ROOT / "resources/icons/mtgui.svg"
    ).read_bytes()
    if shutil.which("desktop-file-validate"):
        checked = subprocess.run(
            ["desktop-file-validate", str(desktop.data / "applications/mtgui.desktop")],
            capture_output=True,
            text=True,
        )
        assert "error" not in checked.stdout, checked.stdout


@pytest.mark.parametrize("home_name", ODD_HOMES)
def test_remove_takes_only_its_own_files_whatever_the_home(tmp_path, home_name):
    desktop = Desktop(tmp_path, home_name)
    bundle = make_bundle(tmp_path / "bundles" / "b with space")
    # Files a word-split path would hit: the first word of HOME and names in the working folder.
    words = home_name.split()
    if len(words) > 1:
        (tmp_path / "x" / words[0]).write_text("unrelated")
    for word in words:
        (desktop.cwd / word.split("/")[-1]).write_text("unrelated")
    (desktop.data / "icons/hicolor/48x48/apps").mkdir(parents=True)
    (desktop.data / "icons/hicolor/48x48/apps/other.png").write_text("another program's icon")
    before = desktop.files()

    done = desktop.run(bundle)
    assert done.returncode == 0, done.stderr
    assert all(path.exists() or path.is_symlink() for path in installed(desktop))
    assert exec_argv(desktop_values(desktop.data / "applications/mtgui.desktop")["Exec"], []) == [
        str(bundle / "mtgui")
    ]
    removed = desktop.run(bundle, "--remove")
    assert removed.returncode == 0, removed.stderr
    after = desktop.files()
    for path in installed(desktop):
        assert not path.exists() and not path.is_symlink(), path
    stub_calls = tmp_path / "stub-calls"
    for path, content in before.items():
        assert after.get(path) == content, f"{path} changed"
    assert set(after) - set(before) == {str(stub_calls)}


def test_a_users_own_program_is_refused_and_nothing_changes(tmp_path):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "bundle")
    desktop.bin.mkdir(parents=True)
    (desktop.bin / "mtgui").write_text("#!/bin/sh\necho my own script\n")
    before = desktop.files()
    done = desktop.run(bundle)
    assert done.returncode != 0
    assert "nothing was changed" in done.stderr and str(desktop.bin / "mtgui") in done.stderr
    assert desktop.files() == before
    # And --remove, with nothing recorded, leaves it too.
    removed = desktop.run(bundle, "--remove")
    assert removed.returncode == 0 and "nothing to remove" in removed.stdout
    assert desktop.files() == before


def test_an_existing_desktop_entry_that_is_not_its_own_is_left_whole(tmp_path):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "bundle|pipe")
    entry = desktop.data / "applications/mtgui.desktop"
    entry.parent.mkdir(parents=True)
    entry.write_text("[Desktop Entry]\nName=someone else's\nExec=other\n")
    before = desktop.files()
    done = desktop.run(bundle)
    assert done.returncode != 0 and str(entry) in done.stderr
    assert desktop.files() == before


def test_a_file_changed_after_the_install_is_kept_by_remove(tmp_path):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "bundle")
    assert desktop.run(bundle).returncode == 0
    entry = desktop.data / "applications/mtgui.desktop"
    entry.write_text(entry.read_text() + "NoDisplay=true\n")  # the user's own edit
    again = desktop.run(bundle)
    assert again.returncode != 0 and str(entry) in again.stderr  # not replaced without asking
    removed = desktop.run(bundle, "--remove")
    assert removed.returncode == 0 and str(entry) in removed.stdout
    assert entry.read_text().endswith("NoDisplay=true\n")
    assert not (desktop.bin / "mtgui").is_symlink()
    assert not (desktop.data / "mtgui/desktop-install.manifest").exists()


def test_installing_again_or_from_a_moved_folder_replaces_its_own_files(tmp_path):
    desktop = Desktop(tmp_path)
    first = make_bundle(tmp_path / "first")
    assert desktop.run(first).returncode == 0
    assert desktop.run(first).returncode == 0  # again: its own files, as they were
    second = make_bundle(tmp_path / "second place")
    done = desktop.run(second)
    assert done.returncode == 0, done.stderr
    assert os.readlink(desktop.bin / "mtgui") == str(second / "mtgui")
    assert desktop.run(second, "--remove").returncode == 0
    assert not (desktop.home / ".local/bin/mtgui").is_symlink()


def test_a_line_break_in_the_bundle_path_is_refused_in_words(tmp_path):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "new\nline")
    before = desktop.files()
    done = desktop.run(bundle)
    assert done.returncode != 0
    assert "line break" in done.stderr and "nothing was changed" in done.stderr
    assert desktop.files() == before


def test_a_record_it_did_not_write_is_refused(tmp_path):
    desktop = Desktop(tmp_path)
    bundle = make_bundle(tmp_path / "bundle")
    record = desktop.data / "mtgui/desktop-install.manifest"
    record.parent.mkdir(parents=True)
    (desktop.home / "precious").write_text("keep me")
    record.write_text("file 00 data/../../precious\n")
    done = desktop.run(bundle, "--remove")
    assert done.returncode != 0 and "nothing was changed" in done.stderr
    assert (desktop.home / "precious").read_text() == "keep me"


@pytest.mark.parametrize("data_name", ["data with space & $x", "data\nline|pipe"])
def test_an_odd_xdg_data_home_holds_the_entry_and_the_record(tmp_path, data_name):
    desktop = Desktop(tmp_path)
    data = tmp_path / data_name
    bundle = make_bundle(tmp_path / "bundle")
    before = desktop.files()
    done = desktop.run(bundle, data=data)
    assert done.returncode == 0, done.stderr
    assert (data / "applications/mtgui.desktop").is_file()
    assert (data / "mtgui/desktop-install.manifest").is_file()
    assert not desktop.data.exists()  # nothing under ~/.local/share
    assert desktop.run(bundle, "--remove", data=data).returncode == 0
    left = {path: content for path, content in desktop.files().items() if "stub-calls" not in path}
    assert left == before


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_the_packaging_scripts_are_shellcheck_clean(script):
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    checked = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
