#!/bin/sh
# Remove StudyJobs for this user.
#
#   uninstall.sh [--prefix DIR] [--purge] [--yes]
#
# Removes: the login entry of the worker ($XDG_CONFIG_HOME/autostart/studyjobs-worker.desktop, and a systemd
# user unit studyjobs-worker.service if you installed one), the menu entry, the icon, ~/.local/bin/studyjobs and
# the installed folder (default ~/.local/opt/StudyJobs). A running worker of the default data folder is stopped.
#
# Keeps: your data folder (~/.local/share/StudyJobs, or $STUDYJOBS_DATA_DIR: jobs, documents, study guides,
# settings) unless --purge is given, and always the Markdown study guides already written to your output
# folder (they are your files, wherever you chose to put them).
#
# --purge  also delete the data folder and the log folder (asks first unless --yes).
set -eu

PREFIX=${HOME}/.local/opt/StudyJobs
PURGE=0
YES=0
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) PREFIX=$2; shift 2 ;;
        --purge) PURGE=1; shift ;;
        --yes|-y) YES=1; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done
CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
case $CONFIG_HOME in /*) ;; *) CONFIG_HOME=$HOME/.config ;; esac
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
case $DATA_HOME in /*) ;; *) DATA_HOME=$HOME/.local/share ;; esac
STATE_HOME=${XDG_STATE_HOME:-$HOME/.local/state}
DATA_DIR=${STUDYJOBS_DATA_DIR:-$DATA_HOME/StudyJobs}
LOG_DIR=$STATE_HOME/StudyJobs

# The worker of this data folder: its pid is in daemon.lock; stop it only if it runs from the installed folder.
if [ -f "$DATA_DIR/daemon.lock" ]; then
    PID=$(tr -cd '0-9' <"$DATA_DIR/daemon.lock")
    if [ -n "$PID" ] && [ -e "/proc/$PID/exe" ]; then
        case $(readlink "/proc/$PID/exe" 2>/dev/null) in
            "$PREFIX"/*) kill -TERM "$PID" 2>/dev/null && echo "Stopped the StudyJobs worker (process $PID)." ;;
        esac
    fi
fi

rm -f "$CONFIG_HOME/autostart/studyjobs-worker.desktop"
if [ -f "$CONFIG_HOME/systemd/user/studyjobs-worker.service" ]; then
    command -v systemctl >/dev/null 2>&1 && systemctl --user disable --now studyjobs-worker.service 2>/dev/null || true
    rm -f "$CONFIG_HOME/systemd/user/studyjobs-worker.service"
fi
rm -f "$DATA_HOME/applications/studyjobs.desktop" "$DATA_HOME/icons/hicolor/scalable/apps/studyjobs.svg"
if [ -L "$HOME/.local/bin/studyjobs" ]; then
    case $(readlink "$HOME/.local/bin/studyjobs") in "$PREFIX"/*) rm -f "$HOME/.local/bin/studyjobs" ;; esac
fi
if [ -x "$PREFIX/StudyJobs" ] || [ -x "$PREFIX/studyjobs-worker" ]; then
    rm -rf "$PREFIX"
    echo "Removed $PREFIX."
elif [ -e "$PREFIX" ]; then
    echo "Left $PREFIX alone: it does not look like a StudyJobs installation." >&2
fi

if [ "$PURGE" = 1 ]; then
    if [ "$YES" != 1 ]; then
        printf 'Delete your StudyJobs jobs, documents, study guides and settings in %s? [y/N] ' "$DATA_DIR"
        read -r answer || answer=
        case $answer in y|Y|yes|YES) ;; *) echo "Kept $DATA_DIR."; exit 0 ;; esac
    fi
    rm -rf "$DATA_DIR" "$LOG_DIR"
    echo "Deleted $DATA_DIR and $LOG_DIR."
else
    [ -d "$DATA_DIR" ] && echo "Kept your jobs and settings in $DATA_DIR (run with --purge to delete them)."
fi
echo "StudyJobs is uninstalled."
