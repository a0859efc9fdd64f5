#!/usr/bin/env sh
# Put mtgui in this user's application menu, and make *.mtgui.json sessions open in it.
#
#   ./install-desktop.sh            (from the built folder, dist/mtgui/)
#
# Writes under ~/.local only (no root): a link ~/.local/bin/mtgui to this folder's program, the
# desktop entry, the icons and the MIME type. Undo with ./install-desktop.sh --remove.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
bin="$HOME/.local/bin"

if [ "${1:-}" = "--remove" ]; then
  rm -f "$bin/mtgui" "$data/applications/mtgui.desktop" "$data/mime/packages/mtgui-session.xml"
  find "$data/icons/hicolor" -name mtgui.png -o -name mtgui.svg 2>/dev/null | xargs rm -f
else
  mkdir -p "$bin" "$data/applications" "$data/mime/packages"
  ln -sf "$here/mtgui" "$bin/mtgui"
  sed "s|^Exec=mtgui|Exec=$here/mtgui|" "$here/share/applications/mtgui.desktop" \
    > "$data/applications/mtgui.desktop"
  cp "$here/share/mime/packages/mtgui-session.xml" "$data/mime/packages/"
  cp -R "$here/share/icons" "$data/"
fi
command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q "$data/icons/hicolor" || true
echo "mtgui is in your applications menu; sessions (*.mtgui.json) open in it."
