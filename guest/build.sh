#!/bin/sh
# build.sh: compile the garm guest runtime plus one program into a static AArch64 ELF.
#
# Usage: guest/build.sh SRC.c [MORE.c ...] OUT.elf      (run from anywhere)
#
# Exact flags (the Rust side uses the same):
#   C:    clang --target=aarch64-none-elf -ffreestanding -nostdlib -O2 -mgeneral-regs-only
#               -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables
#               -fno-unwind-tables -Wall -I guest/include -c X.c -o X.o
#   asm:  clang --target=aarch64-none-elf -c guest/rt/start.S -o start.o
#   link: ld.lld -T linker/garm.ld -static -z max-page-size=4096 --gc-sections
#               start.o <runtime .o> <program .o> -o OUT.elf
# -mgeneral-regs-only keeps every FP/SIMD register out of the code: the
# emulator implements only general-purpose integer A64. --gc-sections drops
# unused runtime functions (optional; the layout is the same without it).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 SRC.c [MORE.c ...] OUT.elf" >&2
    exit 2
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-clang}
LD=${LD:-ld.lld}
CFLAGS="--target=aarch64-none-elf -ffreestanding -nostdlib -O2 -mgeneral-regs-only \
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

OBJS="$TMP/start.o"
$CC --target=aarch64-none-elf -c "$ROOT/guest/rt/start.S" -o "$TMP/start.o"
for f in "$ROOT"/guest/rt/*.c $SRCS; do
    o="$TMP/$(basename "$f" .c).$$.o"
    case " $OBJS " in *" $o "*) o="$TMP/$(basename "$f" .c).$$.2.o" ;; esac
    # shellcheck disable=SC2086
    $CC $CFLAGS -c "$f" -o "$o"
    OBJS="$OBJS $o"
done
# shellcheck disable=SC2086
$LD -T "$ROOT/linker/garm.ld" -static -z max-page-size=4096 --gc-sections $OBJS -o "$OUT"
