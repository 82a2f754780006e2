#!/usr/bin/env bash
# deps.sh: installs the system packages garm needs when they are missing (Debian/Ubuntu):
# clang, lld, llvm (guest toolchain), mesa-vulkan-drivers + libvulkan1 (lavapipe, the software
# GPU), qemu-user (the reference emulator for tests and benchmarks), gdb-multiarch (the gdb
# stub's test drives it against garm and qemu), and the AArch64 glibc cross libraries for the
# hosted static-binary test.
set -euo pipefail

need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
command -v ld.lld >/dev/null 2>&1 || need+=(lld)
command -v llvm-objdump >/dev/null 2>&1 || need+=(llvm)
command -v qemu-aarch64 >/dev/null 2>&1 || need+=(qemu-user)
# gdb for AArch64 targets: the test that drives `garm run -g` (and qemu's stub, its oracle).
command -v gdb-multiarch >/dev/null 2>&1 || need+=(gdb-multiarch)
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libvulkan.so.1 ] \
    || ls /usr/lib/*/libvulkan.so.1 >/dev/null 2>&1 || need+=(libvulkan1)
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
# Mesa's EGL/GL (llvmpipe): a second backend the portable vec2 prelude is tested on.
ls /usr/share/glvnd/egl_vendor.d/50_mesa.json >/dev/null 2>&1 || need+=(libegl1 libegl-mesa0 libgl1-mesa-dri)
# glibc for AArch64, for the hosted static-binary test (clang --target=aarch64-linux-gnu -static).
[ -e /usr/aarch64-linux-gnu/lib/libc.a ] || need+=(libc6-dev-arm64-cross)
ls /usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a >/dev/null 2>&1 || need+=(libgcc-12-dev-arm64-cross)
# The browser build and its test (scripts/web.sh, tests/web.rs): a static file server and
# Debian's Chromium (WebGPU on SwiftShader, headless); only where asked for (test.sh, web.sh).
if [ -n "${GARM_DEPS_WEB:-}" ]; then
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    if [ "$GARM_DEPS_WEB" = browser ]; then
        command -v chromium >/dev/null 2>&1 || need+=(chromium)
    fi
fi

if [ ${#need[@]} -gt 0 ]; then
    echo "deps.sh: installing ${need[*]}" >&2
    SUDO=
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# musl for arm64 (Debian's musl-dev:arm64, unpacked into garm's cache, no dpkg architecture
# added), for `garm cc --libc musl` and its test.
bash "$(dirname "${BASH_SOURCE[0]}")/sysroot.sh" musl-dev musl >/dev/null

if ! command -v cargo >/dev/null 2>&1; then
    echo "deps.sh: cargo not found: install Rust 1.85 or newer (https://rustup.rs), then rerun" >&2
    exit 1
fi
# The Vulkan loader warns without a runtime dir (as under CI); give it a private one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    export XDG_RUNTIME_DIR=/tmp/garm-xdg-$(id -u)
    mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
fi
