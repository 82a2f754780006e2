#!/usr/bin/env bash
# test.sh: installs what is missing, then runs the whole test suite (on lavapipe without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
cargo test --release "$@"
# The JIT's dlopen fallback (cargo feature `dlopen`): only the garm crate rebuilds.
cargo test --release --features dlopen --test jit "$@"
