#!/bin/sh
# Install StudyJobs for this user from the unpacked tarball (no root needed).
#
#   ./install.sh [--prefix DIR]     default DIR: ~/.local/opt/StudyJobs
#
# Copies the StudyJobs folder to DIR, adds the menu entry (~/.local/share/applications/studyjobs.desktop), the
# icon, and ~/.local/bin/studyjobs (the command line). Installing again over an older copy replaces it; your jobs
# and settings (the data folder, ~/.local/share/StudyJobs) are never touched. "Start the worker when I log in" is
# switched on in the app's settings, not here.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${HOME}/.local/opt/StudyJobs
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) PREFIX=$2; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}

# Desktop Entry spec: quote the path when it has a reserved character, escape " ` $ \ inside the quotes, then
# apply the string escape of backslashes.
exec_quote() {
    case $1 in
        *[' 	"'\''\\><~|&;$*?#()`']*)
            printf '"%s"' "$(printf '%s' "$1" | sed -e 's/[\\"`$]/\\&/g' -e 's/\\/\\\\/g')" ;;
        *) printf '%s' "$1" ;;
    esac | sed -e 's/%/%%/g'
}

mkdir -p "$(dirname "$PREFIX")"
rm -rf "$PREFIX.new"
cp -a "$HERE/StudyJobs" "$PREFIX.new"
rm -rf "$PREFIX"
mv "$PREFIX.new" "$PREFIX"
cp "$HERE/uninstall.sh" "$PREFIX/uninstall.sh"

mkdir -p "$DATA_HOME/applications" "$DATA_HOME/icons/hicolor/scalable/apps" "$HOME/.local/bin"
cp "$HERE/studyjobs.svg" "$DATA_HOME/icons/hicolor/scalable/apps/studyjobs.svg"
sed_text() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }  # literal text for a sed replacement
EXEC=$(sed_text "$(exec_quote "$PREFIX/StudyJobs")")
TRY=$(sed_text "$(printf '%s' "$PREFIX/StudyJobs" | sed -e 's/\\/\\\\/g')")
sed -e "s|^Exec=.*|Exec=$EXEC %F|" -e "s|^TryExec=.*|TryExec=$TRY|" \
    "$HERE/studyjobs.desktop" >"$DATA_HOME/applications/studyjobs.desktop"
ln -sfn "$PREFIX/studyjobs-worker" "$HOME/.local/bin/studyjobs"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$DATA_HOME/applications" || true

echo "StudyJobs is installed in $PREFIX."
echo "Open it from your applications menu, or run: $PREFIX/StudyJobs"
echo "To remove it: $PREFIX/uninstall.sh   (add --purge to delete your jobs and study guides too)"
