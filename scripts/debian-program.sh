#!/usr/bin/env bash
# debian-program.sh PKG...: Debian arm64 packages and every package they depend on (Depends and
# Pre-Depends, recursively; no Recommends), unpacked into one sysroot by sysroot.sh, without
# adding the architecture to dpkg. Prints the sysroot's path. Then, as with qemu-user's -L:
#   root=$(scripts/debian-program.sh sqlite3)
#   garm run -L "$root" "$root/usr/bin/sqlite3" :memory: 'select 6*7'
# The sysroot is $GARM_SYSROOT, else $XDG_CACHE_HOME/garm/sysroot-arm64; packages already there
# are not fetched again.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: debian-program.sh PKG..." >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/garm"
work="$cache/debs-arm64"
mkdir -p "$work/lists/partial"
o=(-oAPT::Architecture=arm64 -oAPT::Architectures=arm64 -oDir::State::Lists="$work/lists"
   -oDir::Cache::archives="$work" -qq)
if [ ! -e "$work/lists/.updated" ]; then
    SUDO=
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get "${o[@]}" update >&2 && touch "$work/lists/.updated"
fi
args=()
for p in "$@"; do args+=("$p:arm64"); done
# Virtual packages print as <name>: what provides them is listed too.
mapfile -t deps < <(apt-cache "${o[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${args[@]}" \
    | grep -v '^[ <]' | sed 's/:arm64$//' | sort -u)
[ ${#deps[@]} -gt 0 ] || { echo "debian-program.sh: no such package: $*" >&2; exit 1; }
bash "$here/sysroot.sh" "${deps[@]}"
