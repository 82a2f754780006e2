#!/usr/bin/env bash
# web.sh [--port P] [--files DIR] [--build-only] [--out DIR]: builds garm for the browser (the core
# for wasm32 on wgpu's WebGPU backend, bound by wasm-bindgen; the page in web/static; the demo
# ELFs built by garm's toolchain) into target/web, then serves it on 127.0.0.1:P (8080), with
# DIR's files under /files/. Installs the wasm32 target and wasm-bindgen-cli when missing.
# $GARM_BIN names a garm binary to build the demos with (else this script builds one). The wasm
# build has its own target directory (target/wasm): a test that runs this script inside
# `cargo test` must not wait on the lock of the directory it runs from.
set -euo pipefail
cd "$(dirname "$0")/.."
port=8080 files="" build_only=0 out=target/web
while [ $# -gt 0 ]; do
    case "$1" in
        --port) port="$2"; shift 2 ;;
        --files) files="$2"; shift 2 ;;
        --build-only) build_only=1; shift ;;
        --out) out="$2"; shift 2 ;;
        *) echo "usage: scripts/web.sh [--port P] [--files DIR] [--build-only] [--out DIR]" >&2; exit 2 ;;
    esac
done
GARM_DEPS_WEB=${GARM_DEPS_WEB:-server} source scripts/deps.sh

# The JS glue must come from the same wasm-bindgen as the crate in Cargo.lock.
want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
    || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    echo "web.sh: installing wasm-bindgen-cli $want" >&2
    cargo install -q wasm-bindgen-cli --version "$want"
fi

CARGO_TARGET_DIR=target/wasm cargo build -q --release --target wasm32-unknown-unknown -p garm-web
if [ -z "${GARM_BIN:-}" ]; then
    cargo build -q --release
    GARM_BIN=./target/release/garm
fi
rm -rf "$out.new" && mkdir -p "$out.new/demos"
wasm-bindgen --target web --no-typescript --out-dir "$out.new/pkg" \
    target/wasm/wasm32-unknown-unknown/release/garm_web.wasm
cp web/static/* "$out.new/"
# The bundled demos: name, arguments (space-separated), standard input.
demos=(
    "hello||"
    "sha256||"
    "primes|100|"
    "queens|6|"
    "life|20|"
    "instance||"
    "cat||one line\nand another\n"
    "bf||"
)
echo "[" > "$out.new/demos/index.json"
sep=""
for d in "${demos[@]}"; do
    IFS='|' read -r name args stdin <<< "$d"
    "$GARM_BIN" cc -O2 -o "$out.new/demos/$name.elf" "guest/demos/$name.c"
    printf '%s{"name": "%s", "file": "%s.elf", "args": "%s", "stdin": "%s"}\n' \
        "$sep" "$name" "$name" "$args" "$stdin" >> "$out.new/demos/index.json"
    sep=","
done
echo "]" >> "$out.new/demos/index.json"
if [ -n "$files" ]; then
    ln -s "$(cd "$files" && pwd)" "$out.new/files"
fi
rm -rf "$out" && mv "$out.new" "$out"
echo "web.sh: built $out ($(du -sh "$out/pkg" | cut -f1) of wasm and glue)" >&2
[ "$build_only" = 1 ] && exit 0
echo "web.sh: serving http://127.0.0.1:$port/ (Ctrl-C stops)" >&2
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
