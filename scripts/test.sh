#!/usr/bin/env bash
# test.sh: installs what is missing, then runs the whole gate CI runs (on lavapipe without a GPU):
# formatting, clippy, the test suite, the corpus and bounded fuzz with the shader in checked mode,
# and the JIT's dlopen fallback.
set -euo pipefail
cd "$(dirname "$0")/.."
GARM_DEPS_WEB=browser source scripts/deps.sh
for tool in rustfmt clippy-driver; do
    if ! command -v "$tool" >/dev/null 2>&1 && ! rustup which "$tool" >/dev/null 2>&1; then
        echo "test.sh: $tool not found: rustup component add ${tool%-driver}" >&2
        exit 1
    fi
done
cargo fmt --check
cargo clippy --release --all-targets --all-features -- -D warnings
cargo test --release "$@"
# The shader with naga's runtime checks: the corpus and the bounded fuzz once more, so the claim
# that the unchecked shader never reads or writes out of bounds is cross-checked.
# (The corpus against garm's runtime, as one batch, and the interpreter's bounded fuzz runs; the
# libc builds run the same shader paths, and the translated fuzz blocks reach memory through the
# same checked helpers (txlat), each at a minute of compiles.)
# Exact names: "bounded_tier2" also matched the translator's tier-2 fuzz, 4 min of cold
# compiles of the checked shader at every change of the tier's text.
GARM_CHECKED=1 cargo test --release --test corpus --test fuzz "$@" -- --exact \
    corpus_agrees_on_garm_qemu_and_the_native_jit bounded_fuzz_matches_qemu_in_every_class \
    bounded_tier2_fuzz_matches_qemu
# The JIT's dlopen fallback (cargo feature `dlopen`): only the garm crate rebuilds.
cargo test --release --features dlopen --test jit "$@"
