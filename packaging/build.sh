#!/usr/bin/env bash
# Build mtgui as a standalone program (no Python needed to run it) with PyInstaller.
#
#   bash packaging/build.sh
#
# Works from a checkout on Linux, macOS and Windows (Git Bash); see packaging/README.md. It makes
# a fresh virtual environment in build/packaging-venv, installs mtgui and PyInstaller into it,
# and builds dist/mtgui/ (on macOS also dist/mtgui.app). On Linux it adds a desktop entry, the
# icon and MIME types for *.mtgui.json sessions and *.mtgui projects
# (packaging/linux/install-desktop.sh registers them), and where dpkg-deb is, a Debian package
# dist/mtgui_VERSION_ARCH.deb (packaging/linux/make-deb.sh). The last line printed is the path
# of the built executable.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
python="${PYTHON:-python3}"
venv="$root/build/packaging-venv"

case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN*) bin="$venv/Scripts"; exe="$root/dist/mtgui/mtgui.exe" ;;
  Darwin) bin="$venv/bin"; exe="$root/dist/mtgui.app/Contents/MacOS/mtgui" ;;
  *) bin="$venv/bin"; exe="$root/dist/mtgui/mtgui" ;;
esac

echo "build: a fresh environment in $venv" >&2
rm -rf "$venv" "$root/dist/mtgui" "$root/dist/mtgui.app" "$root/build/mtgui"
"$python" -m venv "$venv"
"$bin/python" -m pip install --quiet --upgrade pip >&2
"$bin/python" -m pip install --quiet "$root" "pyinstaller>=6.10,<7" >&2

echo "build: PyInstaller" >&2
# From build/, not the checkout: `python -m` puts the working folder first on sys.path, and
# mtgui must come from the environment (where mtgui.resources is installed), not the checkout.
mkdir -p "$root/build"
cd "$root/build"
"$bin/python" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$root/dist" --workpath "$root/build" "$root/packaging/mtgui.spec" >&2
cd "$root"

if [ "$(uname -s)" = Linux ]; then
  # The kernels compiled once here, for a generic CPU (mtgui.engine.runtime.compiled), and kept
  # in the bundle: a user's first TER run loads them instead of compiling for tens of seconds.
  echo "build: compiling the kernels into the bundle" >&2
  warm="$root/build/kernel-warm-up"
  rm -rf "$warm"
  mkdir -p "$warm/run"
  (cd "$warm/run" && env -u XDG_CACHE_HOME HOME="$warm" NUMBA_CPU_NAME=generic \
    "$exe" eval --demo --metrics ter,wer,chrf --bootstrap 0 >/dev/null)
  "$bin/python" "$root/packaging/bundle_kernels.py" "$warm" "$root/dist/mtgui/_internal" >&2
  rm -rf "$warm"

  share="$root/dist/mtgui/share"
  mkdir -p "$share/applications" "$share/mime/packages" "$share/icons/hicolor/scalable/apps"
  cp "$root/packaging/linux/mtgui.desktop" "$share/applications/"
  cp "$root/packaging/linux/mtgui-session.xml" "$share/mime/packages/"
  cp "$root/resources/icons/mtgui.svg" "$share/icons/hicolor/scalable/apps/mtgui.svg"
  for size in 48 128 256; do
    mkdir -p "$share/icons/hicolor/${size}x${size}/apps"
    cp "$root/resources/icons/mtgui-$size.png" "$share/icons/hicolor/${size}x${size}/apps/mtgui.png"
  done
  cp "$root/packaging/linux/install-desktop.sh" "$root/dist/mtgui/"

  # A Debian package of it, for people who install by double-clicking (where dpkg-deb is).
  if command -v dpkg-deb >/dev/null; then
    echo "build: the Debian package" >&2
    bash "$root/packaging/linux/make-deb.sh" "$root/dist/mtgui" "$root/dist" >&2
  fi
fi

echo "build: done" >&2
echo "$exe"
