#!/usr/bin/env bash
# Make a Debian package of the built app, for people who install by double-clicking:
#
#   bash packaging/linux/make-deb.sh [BUNDLE [OUTPUT_FOLDER [VERSION]]]
#
# BUNDLE is the folder packaging/build.sh made (default dist/mtgui), OUTPUT_FOLDER where the
# package goes (default dist), VERSION the package's version (default mtgui's own). The package
# puts the bundle in /opt/mtgui, the command in /usr/bin, and the desktop entry, the MIME types
# of sessions and projects and the icons under /usr/share, whose caches the system's package
# triggers bring up to date: no maintainer scripts, so removing the package removes exactly
# what it installed. The last line printed is the package's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bundle="${1:-$root/dist/mtgui}"
output="${2:-$root/dist}"
version="${3:-}"

command -v dpkg-deb >/dev/null || { echo "make-deb: dpkg-deb is needed (Debian, Ubuntu)" >&2; exit 1; }
[ -x "$bundle/mtgui" ] || { echo "make-deb: no built program at $bundle/mtgui" >&2; exit 1; }
if [ -z "$version" ]; then
  version="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$root/mtgui/_version.py")"
fi
if ! [[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
  echo "make-deb: the version '$version' is not a package version (it does not start with a digit, or holds other characters than letters, digits and . + ~)" >&2
  exit 1
fi
architecture="$(dpkg --print-architecture)"

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
package="$staging/mtgui"
mkdir -p "$package/DEBIAN" "$package/opt" "$package/usr/bin" \
  "$package/usr/share/applications" "$package/usr/share/mime/packages" \
  "$package/usr/share/icons/hicolor/scalable/apps"
cp -a "$bundle" "$package/opt/mtgui"
# The per-user installer and the bundle's own share/ belong to the unpacked bundle, not here.
rm -rf "$package/opt/mtgui/install-desktop.sh" "$package/opt/mtgui/share"
ln -s /opt/mtgui/mtgui "$package/usr/bin/mtgui"
cp "$here/mtgui.desktop" "$package/usr/share/applications/mtgui.desktop"
cp "$here/mtgui-session.xml" "$package/usr/share/mime/packages/mtgui.xml"
cp "$root/resources/icons/mtgui.svg" "$package/usr/share/icons/hicolor/scalable/apps/mtgui.svg"
for size in 48 128 256; do
  mkdir -p "$package/usr/share/icons/hicolor/${size}x${size}/apps"
  cp "$root/resources/icons/mtgui-$size.png" \
    "$package/usr/share/icons/hicolor/${size}x${size}/apps/mtgui.png"
done

installed_size="$(du -sk --exclude=DEBIAN "$package" | cut -f1)"
# The system libraries Qt loads (mtgui.app.x_libraries names the same); the rest is in the
# bundle.
cat > "$package/DEBIAN/control" <<EOF
Package: mtgui
Version: $version
Architecture: $architecture
Maintainer: mtgui developers <mtgui@localhost>
Installed-Size: $installed_size
Section: science
Priority: optional
Depends: libegl1, libgl1, libopengl0, libfontconfig1, libfreetype6, libdbus-1-3, libglib2.0-0 | libglib2.0-0t64, libx11-6, libx11-xcb1, libxcb1, libxcb-cursor0, libxcb-icccm4, libxcb-image0, libxcb-keysyms1, libxcb-randr0, libxcb-render0, libxcb-render-util0, libxcb-shape0, libxcb-shm0, libxcb-sync1, libxcb-util1, libxcb-xfixes0, libxcb-xkb1, libxkbcommon0, libxkbcommon-x11-0
Homepage: https://github.com/mtgui/mtgui
Description: Is one machine-translation system really better than another?
 mtgui scores the outputs of machine-translation systems against reference
 translations (BLEU, NIST, chrF, TER and more, and external scores such as
 COMET), bootstraps the test set and tells for every pair of systems whether
 one is significantly better, with confidence intervals on every score.
EOF

mkdir -p "$output"
deb="$output/mtgui_${version}_${architecture}.deb"
# gzip: every dpkg reads it, and it packs the bundle in seconds (xz takes minutes).
dpkg-deb --root-owner-group -Zgzip -z1 --build "$package" "$deb" >&2
echo "$deb"
