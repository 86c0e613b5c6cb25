#!/usr/bin/env bash
# Pack a built Linux bundle as a Debian package (dpkg-deb; no debhelper, no root needed to build).
#
#   packaging/linux/build_deb.sh DIST OUT      -> OUT/studyjobs_<version>_amd64.deb
#
# DIST is the bundle folder packaging/build_linux.sh made (dist/StudyJobs, already self-tested). The package puts
# it in /opt/studyjobs, the command line at /usr/bin/studyjobs (a link to the worker), the menu entry at
# /usr/share/applications/studyjobs.desktop (TryExec: a menu never shows an entry whose program is gone) and the
# icon in the hicolor theme (SVG, and PNGs drawn from it by Qt). It writes nothing in anyone's home: the worker's
# login entry is the XDG autostart entry the window writes when "Start the worker when I log in" is on, so
# `apt-get remove` (and purge) leave every user's jobs, guides and settings where they are.
#
# Depends: libc6 at least the newest GLIBC_ symbol version any bundled binary needs (read with objdump, printed
# with the oldest distributions that have it), and the desktop libraries the window checks for
# (gui.platform_check.XCB_LIBRARIES). Prints the .deb's size and its installed size.
#
# Environment: PYTHON (default .venv/bin/python), DEB_COMPRESSION (default zstd: dpkg reads it since 1.21.18, older
# than any distribution with the glibc needed; xz makes a 14% smaller file in minutes instead of seconds).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
DIST=$(cd "$1" && pwd)
OUT=$2
VERSION=$(cd "$ROOT" && "$PY" -c 'import core; print(core.__version__)')
case "$(uname -m)" in x86_64 | amd64) ARCH=amd64 ;; aarch64 | arm64) ARCH=arm64 ;; *) ARCH=$(uname -m) ;; esac
NAME=studyjobs_${VERSION}_${ARCH}
STAGE=$OUT/deb/$NAME
PREFIX=/opt/studyjobs

# glibc: the newest GLIBC_x.y any bundled ELF file asks for. libc itself is never bundled.
glibc_floor() {
    find "$DIST" -type f \( -name '*.so*' -o -perm -u+x \) -print0 | xargs -0 objdump -T 2>/dev/null \
        | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
}
# The first release of each family whose glibc is at least $1 (their glibc: Debian 11 2.31, 12 2.36, 13 2.41;
# Ubuntu 20.04 2.31, 22.04 2.35, 24.04 2.39; RHEL 8 2.28, 9 2.34, 10 2.39; Fedora 36 2.35, 37 2.36).
oldest_distributions() {
    local need=$1 line family release have found=()
    while read -r family release have; do
        if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" = "$need" ]; then
            found+=("$family $release")
        fi
    done <<'EOF'
Debian 11 2.31
Debian 12 2.36
Debian 13 2.41
Ubuntu 20.04 2.31
Ubuntu 22.04 2.35
Ubuntu 24.04 2.39
RHEL/Rocky/Alma 8 2.28
RHEL/Rocky/Alma 9 2.34
RHEL/Rocky/Alma 10 2.39
Fedora 36 2.35
Fedora 37 2.36
EOF
    # Keep the first (oldest) release of each family.
    printf '%s\n' "${found[@]}" | awk '{release=$NF; $NF=""; if (!seen[$0]++) printf "%s%s, ", $0, release}' \
        | sed 's/, $//'
}

GLIBC=$(glibc_floor)
[ -n "$GLIBC" ] || { echo "build_deb: no GLIBC_ version found in $DIST (is objdump installed?)" >&2; exit 1; }
DESKTOP_PACKAGES=$(cd "$ROOT" && "$PY" -c \
    'from gui.platform_check import XCB_LIBRARIES; print(", ".join(dict.fromkeys(XCB_LIBRARIES.values())))')

echo "== packing $NAME.deb"
rm -rf "$OUT/deb" && mkdir -p "$STAGE$PREFIX" "$STAGE/DEBIAN" "$STAGE/usr/bin" "$STAGE/usr/share/applications"
cp -a "$DIST/." "$STAGE$PREFIX/"
ln -s "$PREFIX/studyjobs-worker" "$STAGE/usr/bin/studyjobs"
sed -e "s|^Exec=.*|Exec=$PREFIX/StudyJobs %F|" -e "s|^TryExec=.*|TryExec=$PREFIX/StudyJobs|" \
    "$ROOT/packaging/linux/studyjobs.desktop" >"$STAGE/usr/share/applications/studyjobs.desktop"
ICONS=$STAGE/usr/share/icons/hicolor
install -D -m 644 "$ROOT/resources/icons/studyjobs.svg" "$ICONS/scalable/apps/studyjobs.svg"
(cd "$ROOT" && QT_QPA_PLATFORM=offscreen "$PY" - "$ROOT/resources/icons/studyjobs.svg" "$ICONS" <<'EOF'
import sys
from pathlib import Path

from PySide6.QtGui import QGuiApplication, QIcon

app = QGuiApplication(["studyjobs-icons"])
icon = QIcon(sys.argv[1])
for size in (48, 64, 128, 256):
    folder = Path(sys.argv[2]) / f"{size}x{size}" / "apps"
    folder.mkdir(parents=True, exist_ok=True)
    if not icon.pixmap(size, size).save(str(folder / "studyjobs.png")):
        sys.exit(f"could not draw the {size}px icon")
EOF
)
install -D -m 644 /dev/stdin "$STAGE/usr/share/doc/studyjobs/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: StudyJobs

Files: *
License: MIT
Comment: StudyJobs is MIT-licensed. /opt/studyjobs bundles Python, Qt (PySide6, LGPL-3.0), llama.cpp (MIT) and
 the SmolLM2-135M-Instruct model (Apache-2.0), each under its own licence.
EOF

INSTALLED_KB=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
cat >"$STAGE/DEBIAN/control" <<EOF
Package: studyjobs
Version: $VERSION
Architecture: $ARCH
Maintainer: StudyJobs maintainers <maintainers@users.noreply.a-seed-1f2858f4.example>
Installed-Size: $INSTALLED_KB
Depends: libc6 (>= $GLIBC), $DESKTOP_PACKAGES, libdrm2
Recommends: hicolor-icon-theme, libgtk-3-0t64 | libgtk-3-0, libwayland-client0, libwayland-cursor0, libwayland-egl1
Section: education
Priority: optional
Description: turn documents into study guides with a language model
 StudyJobs reads PDF, DOCX, EPUB and text documents and writes study guides
 with a language model that runs on this computer (a small model ships
 inside the package; nothing is downloaded). Every document is a job you
 can watch: waiting, running, done, why it stopped, how long is left.
 .
 The window is in the applications menu; the command line is studyjobs.
EOF
# The menu and icon caches; nothing of any user's is touched on install, remove or purge.
for script in postinst postrm; do
    cat >"$STAGE/DEBIAN/$script" <<'EOF'
#!/bin/sh
set -e
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q /usr/share/applications || true; fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true; fi
exit 0
EOF
    chmod 755 "$STAGE/DEBIAN/$script"
done

dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-zstd}" --build "$STAGE" "$OUT/$NAME.deb" >/dev/null
rm -rf "$OUT/deb"
echo "deb:       $(du -m "$OUT/$NAME.deb" | cut -f1) MB $OUT/$NAME.deb"
echo "installed: $((INSTALLED_KB / 1024)) MB in $PREFIX"
echo "glibc:     $GLIBC or newer (GLIBC_$GLIBC is the newest symbol version the bundle needs): $(oldest_distributions "$GLIBC")"
