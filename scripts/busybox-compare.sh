#!/usr/bin/env bash
# busybox-compare.sh [FILTER]: runs Debian's busybox-static:arm64 (fetched by sysroot.sh) on garm
# and on qemu-aarch64 for each line of scripts/busybox-cases.txt (as `busybox sh -c LINE`, in a
# fresh copy of a small fixture directory) and compares stdout and exit status. Prints one line
# per case and the tally; exits 1 if any case differs. FILTER: only lines containing it.
#
# qemu-aarch64 cannot exec an AArch64 ELF (no binfmt), so BusyBox's re-exec of /proc/self/exe
# fails there and it looks applets up on PATH: qemu gets a PATH of wrappers that each run
# `qemu-aarch64 busybox APPLET`. garm runs the same binary with the fixture mounted at /w.
# Environment: GARM (default target/release/garm), GARM_OPTS (extra `garm run` options),
# BBC_SHOW=1 prints qemu's output for each case.
#
# busybox-compare.sh --fixture DIR: only makes the fixture in DIR (tests/busybox.rs runs every
# case as one instance of a single garm run, each in its own fixture).
set -uo pipefail
cd "$(dirname "$0")/.."
garm="${GARM:-target/release/garm}"
filter="${1:-}"

fixture() {
    mkdir -p "$1/dir/sub"
    printf '%s\n' banana apple cherry apple date elderberry fig grape banana kiwi >"$1/words.txt"
    printf '%s\n' apple apple banana cherry cherry date >"$1/sorted.txt"
    printf 'alpha 3\nbeta 10\ngamma 1\ndelta 7\nepsilon 5\n' >"$1/table.txt"
    printf 'root:x:0:0\nuser:x:1000:1000\nnobody:x:65534:65534\n' >"$1/passwd.txt"
    printf 'one\n' >"$1/dir/a"
    printf 'two two\n' >"$1/dir/sub/b"
}

if [ "$filter" = --fixture ]; then
    fixture "$2"
    exit
fi

root=$(bash scripts/sysroot.sh busybox-static) || exit 1
bb="$root/bin/busybox"
[ -x "$garm" ] || cargo build --release -q || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
qemu=$(command -v qemu-aarch64) || { echo "busybox-compare: qemu-aarch64 not found" >&2; exit 1; }
mkdir -p "$work/wrap"
for a in $(qemu-aarch64 "$bb" --list); do
    printf '#!/bin/sh\nexec %q %q %s "$@"\n' "$qemu" "$bb" "$a" >"$work/wrap/$a"
    chmod +x "$work/wrap/$a"
done


# garm's guest finds the applets as qemu's side does: a PATH of applet links to busybox.
mkdir -p "$work/bbin"
cp "$bb" "$work/bbin/busybox"
for a in $(qemu-aarch64 "$bb" --list); do
    [ "$a" = busybox ] || ln -sf busybox "$work/bbin/$a"
done

pass=0 fail=0
while IFS= read -r cmd; do
    case "$cmd" in '' | '#'*) continue ;; esac
    [ -n "$filter" ] && [[ "$cmd" != *"$filter"* ]] && continue
    q="$work/q" g="$work/g"
    rm -rf "$q" "$g"
    fixture "$q"
    fixture "$g"
    qout=$(cd "$q" && timeout 60 env -i PATH="$work/wrap" HOME=/ LANG=C "$qemu" "$bb" sh -c "$cmd" 2>/dev/null </dev/null)
    qrc=$?
    [ -n "${BBC_SHOW:-}" ] && printf '== %s (qemu %s)\n%s\n' "$cmd" "$qrc" "$qout"
    # shellcheck disable=SC2086
    gout=$(timeout 120 "$garm" run ${GARM_OPTS:-} --mount "$g:/w" --mount "$work/bbin:/bbin:ro" \
        -E PATH=/bbin "$bb" sh -c "cd /w && $cmd" 2>"$work/gerr" </dev/null)
    grc=$?
    if [ "$qout" == "$gout" ] && [ "$qrc" == "$grc" ]; then
        pass=$((pass + 1))
        echo "same  $cmd"
    else
        fail=$((fail + 1))
        echo "DIFF  $cmd  (qemu $qrc, garm $grc: $(head -c 200 "$work/gerr" | tr '\n' ' '))"
    fi
done <scripts/busybox-cases.txt
echo "busybox-compare: $pass same, $fail differ"
[ "$fail" -eq 0 ]
