#!/usr/bin/env bash
# demo.sh: installs what is missing, builds garm, and runs C demos on the GPU (lavapipe without one).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cargo build --release --quiet
G=target/release/garm
echo "== adapters"; $G info | grep '^\['
echo "== hello";  $G run guest/demos/hello.c from the GPU
echo "== SHA-256"; $G run guest/demos/sha256.c
echo "== primes"; $G run guest/demos/primes.c 30000
echo "== brainfuck"; $G run guest/demos/bf.c
echo "== life"; $G run guest/demos/life.c
echo "== 8 guests in one dispatch"; $G run --instances 8 --stats guest/demos/instance.c
