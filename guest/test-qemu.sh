#!/bin/sh
# test-qemu.sh: build every demo and test program, run each under qemu-aarch64, show output and status.
# Usage: guest/test-qemu.sh [OUTDIR]   (default: /tmp/garm-guest)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-/tmp/garm-guest}
mkdir -p "$OUT"

run() {  # run NAME [ARGS...] (stdin from /dev/null unless redirected by caller)
    name=$1; shift
    echo "=== $name $*"
    timeout 10 qemu-aarch64 "$OUT/$name.elf" "$@"
    echo "--- exit status $?"
}

fail=0
for src in "$ROOT"/guest/demos/*.c "$ROOT"/guest/tests/*.c; do
    name=$(basename "$src" .c)
    "$ROOT/guest/build.sh" "$src" "$OUT/$name.elf" || { echo "BUILD FAILED: $name"; fail=1; }
done

run hello </dev/null
run hello one "two three" </dev/null
run sha256 </dev/null
run sha256 16 </dev/null
run primes </dev/null
run primes 100000 </dev/null
run bf </dev/null
run bf 50 </dev/null
run life </dev/null
run life 20 </dev/null
run exitcode </dev/null
printf 'line one\nline two\nno newline' | run cat
GARM_INSTANCE=3 GARM_INSTANCES=8 run instance </dev/null
run selfmod </dev/null
run fault </dev/null          # expect 139 (SIGSEGV)
run illegal </dev/null        # expect 132 (SIGILL)
run spin </dev/null           # expect 124 (killed by timeout after 10 s)

# Runtime conformance: guest output must equal the same source built for the host with glibc.
for t in printf_fmt libc_test; do
    qemu-aarch64 "$OUT/$t.elf" >"$OUT/$t.guest" </dev/null
    cc -w -O1 -o "$OUT/$t.host" "$ROOT/guest/tests/$t.c" && "$OUT/$t.host" >"$OUT/$t.ref" </dev/null
    if cmp -s "$OUT/$t.guest" "$OUT/$t.ref"; then echo "=== $t: identical to host glibc"
    else echo "=== $t: DIFFERS from host glibc"; diff "$OUT/$t.guest" "$OUT/$t.ref" | head; fail=1; fi
done

# Only general-purpose integer A64 is emulated: no FP/SIMD register may appear.
for elf in "$OUT"/*.elf; do
    # Operands only (symbol names in <...> removed): any q/v/d/s/h/b/z register is FP/SIMD/SVE.
    if llvm-objdump -d --no-show-raw-insn "$elf" | sed 's/<[^>]*>//g' | grep -Eq '\b[qvdsbhz][0-9]{1,2}\b'; then
        echo "FP/SIMD REGISTER USE in $elf"; fail=1
    fi
done
echo "=== done (fail=$fail)"
exit $fail
