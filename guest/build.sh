#!/bin/sh
# build.sh: compile the garm guest runtime plus one program into a static AArch64 ELF.
#
# Usage: guest/build.sh SRC.c [MORE.c ...] OUT.elf      (run from anywhere)
#
# Exact flags (the Rust side uses the same):
#   C:    clang --target=aarch64-none-elf -ffreestanding -nostdlib -O2 -mllvm -force-vector-width=1
#               -fno-slp-vectorize -ffp-contract=off -fsigned-char
#               -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables
#               -fno-unwind-tables -Wall -I guest/include -c X.c -o X.o
#   asm:  clang --target=aarch64-none-elf -c guest/rt/X.S -o X.S.o     (each .S)
#   link: ld.lld -T linker/garm.ld -static -z max-page-size=4096 --gc-sections
#               <runtime .S.o> <runtime .o> <program .o> -o OUT.elf
#         (runtime files directly in guest/rt/ add -mgeneral-regs-only; those in
#         guest/rt/fp/ and the program may use FP/SIMD. `garm cc` also builds a program
#         file -mgeneral-regs-only when its IR has no FP or variadic definition; this
#         script does not, which only costs speed on garm)
# FP/SIMD is allowed (garm runs Tier 2); -ffp-contract=off keeps a*b+c two
# roundings, so the native JIT oracle computes the same bits. --gc-sections
# drops unused runtime functions (optional; the layout is the same without it).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 SRC.c [MORE.c ...] OUT.elf" >&2
    exit 2
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-clang}
LD=${LD:-ld.lld}
CFLAGS="--target=aarch64-none-elf -ffreestanding -nostdlib -O2 -mllvm -force-vector-width=1 -fno-slp-vectorize -ffp-contract=off -fsigned-char \
-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables \
-Wall -I $ROOT/guest/include"

# Last argument is the output; the rest are program sources.
OUT=
SRCS=
for a in "$@"; do
    [ -n "$OUT" ] && SRCS="$SRCS $OUT"
    OUT=$a
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

OBJS=
for f in "$ROOT"/guest/rt/*.S; do
    o="$TMP/$(basename "$f" .S).S.o"
    $CC --target=aarch64-none-elf -c "$f" -o "$o"
    OBJS="$OBJS $o"
done
for f in "$ROOT"/guest/rt/*.c "$ROOT"/guest/rt/fp/*.c $SRCS; do
    o="$TMP/$(basename "$f" .c).$$.o"
    case " $OBJS " in *" $o "*) o="$TMP/$(basename "$f" .c).$$.2.o" ;; esac
    # The runtime outside guest/rt/fp/ never touches FP/SIMD registers.
    case "$f" in "$ROOT"/guest/rt/*/*) extra= ;; "$ROOT"/guest/rt/*) extra=-mgeneral-regs-only ;; *) extra= ;; esac
    # shellcheck disable=SC2086
    $CC $CFLAGS $extra -c "$f" -o "$o"
    OBJS="$OBJS $o"
done
# shellcheck disable=SC2086
$LD -T "$ROOT/linker/garm.ld" -static -z max-page-size=4096 --gc-sections $OBJS -o "$OUT"
