#!/bin/sh
# Remove StudyJobs from this Mac for the current user.
#
#   uninstall.sh [--purge] [--yes]
#
# Removes the worker's login item (the LaunchAgent com.studyjobs.worker) and StudyJobs.app from /Applications or
# ~/Applications. Keeps your jobs, documents, study guides and settings (~/Library/Application Support/StudyJobs)
# unless --purge is given (asks first unless --yes); Markdown study guides in your Documents folder are always kept.
set -eu
PURGE=0
YES=0
for arg in "$@"; do
    case $arg in
        --purge) PURGE=1 ;;
        --yes|-y) YES=1 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "unknown option: $arg" >&2; exit 2 ;;
    esac
done
LABEL=com.studyjobs.worker
AGENT=$HOME/Library/LaunchAgents/$LABEL.plist
launchctl bootout "gui/$(id -u)/$LABEL" 2>/dev/null || true
rm -f "$AGENT"
for app in /Applications/StudyJobs.app "$HOME/Applications/StudyJobs.app"; do
    if [ -d "$app" ]; then
        osascript -e 'quit app "StudyJobs"' 2>/dev/null || true
        rm -rf "$app" && echo "Removed $app."
    fi
done
DATA=${STUDYJOBS_DATA_DIR:-$HOME/Library/Application Support/StudyJobs}
LOGS=$HOME/Library/Logs/StudyJobs
if [ "$PURGE" = 1 ]; then
    if [ "$YES" != 1 ]; then
        printf 'Delete your StudyJobs jobs, documents, study guides and settings in %s? [y/N] ' "$DATA"
        read -r answer || answer=
        case $answer in y|Y|yes|YES) ;; *) echo "Kept $DATA."; exit 0 ;; esac
    fi
    rm -rf "$DATA" "$LOGS"
    echo "Deleted $DATA and $LOGS."
else
    [ -d "$DATA" ] && echo "Kept your jobs and settings in $DATA (run with --purge to delete them)."
fi
echo "StudyJobs is uninstalled."
