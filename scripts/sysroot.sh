#!/usr/bin/env bash
# sysroot.sh PKG...: downloads Debian arm64 packages (and nothing else) without adding the
# architecture to dpkg, and unpacks them into one sysroot:
#   apt-get -oAPT::Architecture=arm64 ... download PKG:arm64 ; dpkg -x PKG.deb SYSROOT
# The sysroot is $GARM_SYSROOT, else $XDG_CACHE_HOME/garm/sysroot-arm64 (~/.cache/...); a package
# already unpacked there is not fetched again. Prints the sysroot's path.
# Example: scripts/sysroot.sh musl-dev musl   (what `garm cc --libc musl` needs)
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: sysroot.sh PKG..." >&2; exit 2; }
cache="${XDG_CACHE_HOME:-$HOME/.cache}/garm"
root="${GARM_SYSROOT:-$cache/sysroot-arm64}"
work="$cache/debs-arm64"
mkdir -p "$root/.garm-pkgs" "$work/lists/partial"
# One at a time: test processes fetch into the same cache.
exec 9>"$work/.lock"
flock 9
o=(-oAPT::Architecture=arm64 -oAPT::Architectures=arm64 -oDir::State::Lists="$work/lists"
   -oDir::Cache::archives="$work" -qq)
missing=()
for p in "$@"; do
    [ -e "$root/.garm-pkgs/$p" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    [ -e "$work/lists/.updated" ] || { $SUDO apt-get "${o[@]}" update >&2 && touch "$work/lists/.updated"; }
    for p in "${missing[@]}"; do
        (cd "$work" && apt-get "${o[@]}" download "$p:arm64" >&2 2>/dev/null) \
            || { echo "sysroot.sh: cannot download $p:arm64" >&2; exit 1; }
        # Architecture-independent packages (readline-common) end in _all.
        deb=$( (ls -t "$work"/"${p}"_*_arm64.deb "$work"/"${p}"_*_all.deb 2>/dev/null || true) | head -1)
        dpkg -x "$deb" "$root"
        touch "$root/.garm-pkgs/$p"
    done
fi
echo "$root"
