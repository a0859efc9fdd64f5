#!/usr/bin/env sh
# Put mtgui in this user's application menu, and make *.mtgui.json sessions and *.mtgui projects
# open in it.
#
#   ./install-desktop.sh            (from the built folder, dist/mtgui/)
#   ./install-desktop.sh --remove
#
# Writes under ~/.local only (no root): a link ~/.local/bin/mtgui to this folder's program, the
# desktop entry, the icons and the MIME type. Every file it would write is checked before any
# is written: a file there that this script did not install (or that changed since) is left as
# it is, and nothing is installed. What it installed is recorded, each file with its SHA-256,
# in $XDG_DATA_HOME/mtgui/desktop-install.manifest (~/.local/share when XDG_DATA_HOME is unset);
# --remove removes only the files recorded there that still are as it wrote them.
set -eu
unset CDPATH
umask 022

me="install-desktop.sh"
nl='
'
manifest_header="# mtgui desktop install: the files install-desktop.sh wrote (kind, SHA-256, place; data = XDG_DATA_HOME or ~/.local/share, bin = ~/.local/bin)"

say() { printf '%s: %s\n' "$me" "$1"; }
refuse() {
  printf '%s: %s\n' "$me" "$1" >&2
  [ "$#" -lt 2 ] || printf '%s\n' "$2" >&2
  exit 2
}

# This folder, exactly (a command substitution would drop a trailing newline of the name).
case $0 in
  */*) folder=${0%/*} ;;
  *) folder=. ;;
esac
here=$(cd -- "${folder:-/}" && pwd && printf x)
here=${here%?x}

for tool in sha256sum mktemp; do
  command -v "$tool" >/dev/null || refuse "this needs the program $tool, which is not installed; nothing was changed."
done
case ${HOME:-} in
  /*) ;;
  *) refuse "HOME is not set to an absolute folder; nothing was changed." ;;
esac
data=${XDG_DATA_HOME:-}
case $data in
  /*) ;;
  *) data="$HOME/.local/share" ;; # unset or relative: the default, as the XDG specification says
esac
bin="$HOME/.local/bin"
record_folder="$data/mtgui"
record="$record_folder/desktop-install.manifest"

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- What a path in the desktop entry may be -------------------------------------------------

# The bundle's path goes into the desktop entry: refuse what the entry cannot hold.
check_bundle_path() {
  case $here in
    *"$nl"*) refuse "this folder's path holds a line break, which a desktop entry cannot express; nothing was changed." \
      "Move the folder to a path without one and run this again." ;;
    *[[:cntrl:]]*) refuse "this folder's path holds a control character, which a desktop entry cannot express; nothing was changed." \
      "Move the folder to a path without one and run this again." ;;
  esac
  if command -v iconv >/dev/null && ! printf '%s' "$here" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
    refuse "this folder's path is not valid UTF-8, which a desktop entry must be; nothing was changed." \
      "Move the folder to a path in UTF-8 and run this again."
  fi
}

# One argument of the Exec key, as the Desktop Entry Specification spells it: quoted when it
# holds a reserved character (inside the quotes \ " ` $ take a backslash), % doubled, and then
# the string escapes of every value (a backslash doubled). The path has no control character.
exec_argument() {
  quoted=$(printf '%s\n' "$1" | sed -e 's/%/%%/g')
  case $1 in
    *[[:space:]\"\'\\\>\<~\|\&\;\$\*\?\#\(\)\`]*)
      quoted=$(printf '%s\n' "$quoted" | sed -e 's/[\\"`$]/\\&/g')
      quoted="\"$quoted\""
      ;;
  esac
  printf '%s\n' "$quoted" | sed -e 's/\\/\\\\/g'
}

# The bundle's desktop entry with its Exec=mtgui pointing to this folder's program.
write_desktop_entry() {
  program=$(exec_argument "$here/mtgui")
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      "Exec=mtgui" | "Exec=mtgui "*) printf 'Exec=%s%s\n' "$program" "${line#Exec=mtgui}" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done <"$here/share/applications/mtgui.desktop" >"$1"
}

# --- The plan: each file as kind, source (or link target), root and relative place ------------

hash_file() {
  sum=$(sha256sum <"$1")
  printf '%s\n' "${sum%% *}"
}

hash_text() {
  sum=$(printf '%s' "$1" | sha256sum)
  printf '%s\n' "${sum%% *}"
}

root_folder() {
  if [ "$1" = bin ]; then printf '%s\n' "$bin"; else printf '%s\n' "$data"; fi
}

# Relative places come from the bundle or the record: plain names only.
check_place() {
  case $1 in
    "" | /* | */ | *//* | *[!A-Za-z0-9._/+-]* | . | .. | ./* | ../* | */./* | */../* | */. | */..)
      refuse "$2 names an unexpected file, \"$1\"; nothing was changed." ;;
  esac
}

# Writes the plan to $work/plan: lines "kind<TAB>root<TAB>place"; the sources are in $work.
make_plan() {
  for needed in mtgui share/applications/mtgui.desktop share/mime/packages/mtgui-session.xml; do
    [ -f "$here/$needed" ] || refuse "this folder has no $needed: run this script from the built mtgui folder (dist/mtgui); nothing was changed."
  done
  write_desktop_entry "$work/applications-mtgui.desktop"
  printf 'link\tbin\tmtgui\n' >"$work/plan"
  printf 'file\tdata\tapplications/mtgui.desktop\n' >>"$work/plan"
  printf 'file\tdata\tmime/packages/mtgui-session.xml\n' >>"$work/plan"
  if [ -d "$here/share/icons" ]; then
    (cd -- "$here/share" && find icons -type f) >"$work/icons"
    while IFS= read -r icon; do
      check_place "$icon" "the bundle's share folder"
      if [ ! -f "$here/share/$icon" ] || [ -L "$here/share/$icon" ]; then
        refuse "the bundle's share folder holds an unexpected file near \"$icon\"; nothing was changed."
      fi
      printf 'file\tdata\t%s\n' "$icon" >>"$work/plan"
    done <"$work/icons"
  fi
}

# Where the plan's file comes from (a file of the bundle, or the desktop entry made above).
source_of() {
  case $1 in
    applications/mtgui.desktop) printf '%s\n' "$work/applications-mtgui.desktop" ;;
    *) printf '%s\n' "$here/share/$1" ;;
  esac
}

# The hash a planned file will have: of the file's bytes, or of a link's target.
planned_hash() {
  if [ "$1" = link ]; then hash_text "$here/mtgui"; else hash_file "$(source_of "$3")"; fi
}

# --- The record of what was installed ----------------------------------------------------------

# Reads the record (if any) into $work/record: lines "kind<TAB>hash<TAB>root<TAB>place".
read_record() {
  : >"$work/record"
  [ -e "$record" ] || [ -L "$record" ] || return 0
  if [ ! -f "$record" ] || [ -L "$record" ]; then
    refuse "$record is not a plain file; nothing was changed."
  fi
  first=1
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$first" = 1 ]; then
      first=0
      [ "$line" = "$manifest_header" ] ||
        refuse "$record was not written by this script (its first line differs); nothing was changed."
      continue
    fi
    kind=${line%% *}
    rest=${line#* }
    hash=${rest%% *}
    rest=${rest#* }
    root=${rest%%/*}
    place=${rest#*/}
    case $kind in file | link) ;; *) refuse "$record has an unreadable line: \"$line\"; nothing was changed." ;; esac
    case $root in data | bin) ;; *) refuse "$record has an unreadable line: \"$line\"; nothing was changed." ;; esac
    case $hash in *[!0-9a-f]* | "") refuse "$record has an unreadable line: \"$line\"; nothing was changed." ;; esac
    check_place "$place" "the record of what was installed"
    printf '%s\t%s\t%s\t%s\n' "$kind" "$hash" "$root" "$place" >>"$work/record"
  done <"$record"
}

# The hash recorded for root/place, or nothing.
recorded_hash() {
  while IFS="$(printf '\t')" read -r kind hash root place; do
    if [ "$root" = "$2" ] && [ "$place" = "$3" ] && [ "$kind" = "$1" ]; then
      printf '%s\n' "$hash"
      return 0
    fi
  done <"$work/record"
}

# The hash of what is at a path now, as a file or as a link; empty if it is neither.
current_hash() {
  if [ "$1" = link ]; then
    [ -L "$2" ] || return 0
    target=$(readlink -- "$2" && printf x)
    hash_text "${target%?x}"
  else
    [ -f "$2" ] && [ ! -L "$2" ] || return 0
    hash_file "$2"
  fi
}

# Whether what is at root/place is this script's: as recorded, or already what it would write.
is_ours() { # kind root place path planned-hash
  now=$(current_hash "$1" "$4")
  [ -n "$now" ] || return 1
  [ "$now" = "$5" ] && return 0
  [ "$now" = "$(recorded_hash "$1" "$2" "$3")" ]
}

# Writes the record atomically from $work/done (lines "kind<TAB>hash<TAB>root<TAB>place").
write_record() {
  if [ ! -s "$work/done" ]; then
    rm -f -- "$record"
    rmdir -- "$record_folder" 2>/dev/null || true
    return 0
  fi
  mkdir -p -- "$record_folder"
  {
    printf '%s\n' "$manifest_header"
    while IFS="$(printf '\t')" read -r kind hash root place; do
      printf '%s %s %s/%s\n' "$kind" "$hash" "$root" "$place"
    done <"$work/done"
  } >"$record_folder/.desktop-install.manifest.$$.tmp"
  mv -f -- "$record_folder/.desktop-install.manifest.$$.tmp" "$record"
}

# --- Install ---------------------------------------------------------------------------------

# Checks every planned file before anything is written; lists the refused ones.
check_install() {
  : >"$work/refused"
  while IFS="$(printf '\t')" read -r kind root place; do
    path="$(root_folder "$root")/$place"
    parent=${path%/*}
    until [ -z "$parent" ] || [ -e "$parent" ] || [ -L "$parent" ]; do parent=${parent%/*}; done
    parent=${parent:-/}
    if [ ! -d "$parent" ]; then
      printf '  %s (not a folder)\n' "$parent" >>"$work/refused"
    elif [ -e "$path" ] || [ -L "$path" ]; then
      is_ours "$kind" "$root" "$place" "$path" "$(planned_hash "$kind" "$root" "$place")" ||
        printf '  %s\n' "$path" >>"$work/refused"
    elif [ ! -w "$parent" ]; then
      printf '  %s (cannot write in %s)\n' "$path" "$parent" >>"$work/refused"
    fi
  done <"$work/plan"
  if [ -s "$work/refused" ]; then
    printf '%s: nothing was changed: these files are there already and are not the ones this script installed (or they changed since):\n' "$me" >&2
    cat -- "$work/refused" >&2
    printf '%s\n' "Move them away (or remove them) if they may go, then run this again." >&2
    exit 1
  fi
}

# Puts one planned file in place (a temporary file next to it, then renamed over it).
install_one() { # kind root place
  path="$(root_folder "$2")/$3"
  mkdir -p -- "${path%/*}"
  temporary="${path%/*}/.mtgui-install.$$.tmp"
  rm -f -- "$temporary"
  if [ "$1" = link ]; then
    ln -s -- "$here/mtgui" "$temporary"
  else
    cp -- "$(source_of "$3")" "$temporary"
    chmod 644 -- "$temporary"
  fi
  mv -f -- "$temporary" "$path"
}

install() {
  check_bundle_path
  make_plan
  read_record
  check_install
  # What the record holds and this install does not replace stays recorded, if still there.
  : >"$work/done"
  while IFS="$(printf '\t')" read -r kind hash root place; do
    if ! grep -qxF "$(printf '%s\t%s\t%s' "$kind" "$root" "$place")" "$work/plan" &&
      [ "$(current_hash "$kind" "$(root_folder "$root")/$place")" = "$hash" ]; then
      printf '%s\t%s\t%s\t%s\n' "$kind" "$hash" "$root" "$place" >>"$work/done"
    fi
  done <"$work/record"
  trap 'write_record; rm -rf -- "$work"' EXIT # whatever stops it, what was written is recorded
  while IFS="$(printf '\t')" read -r kind root place; do
    install_one "$kind" "$root" "$place"
    printf '%s\t%s\t%s\t%s\n' "$kind" "$(planned_hash "$kind" "$root" "$place")" "$root" "$place" >>"$work/done"
  done <"$work/plan"
  write_record
  trap 'rm -rf -- "$work"' EXIT
  refresh_caches
  say "mtgui is in your applications menu; sessions (*.mtgui.json) and projects (*.mtgui) open in it."
  say "what was installed is listed in $record (./install-desktop.sh --remove takes it away)."
}

# --- Remove ----------------------------------------------------------------------------------

remove() {
  read_record
  if [ ! -s "$work/record" ]; then
    say "nothing to remove: no file is recorded as installed by this script (in $record)."
    return 0
  fi
  : >"$work/kept"
  while IFS="$(printf '\t')" read -r kind hash root place; do
    path="$(root_folder "$root")/$place"
    if [ ! -e "$path" ] && [ ! -L "$path" ]; then
      continue
    elif [ "$(current_hash "$kind" "$path")" = "$hash" ]; then
      rm -f -- "$path"
    else
      printf '  %s\n' "$path" >>"$work/kept"
    fi
  done <"$work/record"
  rm -f -- "$record"
  rmdir -- "$record_folder" 2>/dev/null || true
  refresh_caches
  if [ -s "$work/kept" ]; then
    say "removed what it installed, except these files, which changed since (left as they are):"
    cat -- "$work/kept"
  else
    say "removed what it installed."
  fi
}

refresh_caches() {
  if command -v update-mime-database >/dev/null && [ -d "$data/mime" ]; then
    update-mime-database "$data/mime" >/dev/null 2>&1 || true
  fi
  if command -v update-desktop-database >/dev/null && [ -d "$data/applications" ]; then
    update-desktop-database "$data/applications" >/dev/null 2>&1 || true
  fi
  if command -v gtk-update-icon-cache >/dev/null && [ -d "$data/icons/hicolor" ]; then
    gtk-update-icon-cache -q "$data/icons/hicolor" >/dev/null 2>&1 || true
  fi
}

case ${1:-} in
  "") install ;;
  --remove) remove ;;
  -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) refuse "unknown option \"$1\" (use no option to install, --remove to remove)." ;;
esac
