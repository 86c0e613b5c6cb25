#!/usr/bin/env bash
# Install what packaging/windows/build.sh and its tests need on Debian/Ubuntu, when something is missing:
# Wine 8 (64-bit only), NSIS (makensis), mingw-w64 with POSIX threads, CMake and make (llama.cpp's cross-compile),
# osslsigncode, curl, unzip, Python's venv (uv is installed into one), Xvfb and xwininfo (the installed window is
# shown under Wine). Everything comes from the distribution's archive: a fresh Debian 12 needs nothing else.
# Runs apt-get (update first) only as root and only when a package is missing; prints what it installs.
set -uo pipefail
PACKAGES="wine wine64 nsis gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64
cmake make osslsigncode curl ca-certificates unzip python3 python3-venv xvfb x11-utils"
missing=()
for package in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install_tools: missing ${missing[*]} (install them with your package manager)" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
