//! Hosted static programs (AArch64 glibc and musl, not garm's runtime) run on garm exactly as on
//! qemu-aarch64: their libcs' start-up, stdio and vectorised string routines (FP/SIMD, Tier 2).

mod common;
use common::*;
use std::process::Command;

#[test]
fn glibc_static_program_matches_qemu() {
    let src = root().join("guest/tests/hosted/glibc_hello.c");
    let elf = tmp().join(format!("glibc_hello-{}.elf", std::process::id()));
    let o = Command::new("clang")
        .args([
            "--target=aarch64-linux-gnu",
            "-static",
            "-fuse-ld=lld",
            "-O2",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .output()
        .expect("clang");
    assert!(
        o.status.success(),
        "building with AArch64 glibc failed (scripts/deps.sh installs libc6-dev-arm64-cross): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    hello_matches_qemu(&elf);
}

/// The hello program prints what qemu-aarch64 prints, and exits as it does.
fn hello_matches_qemu(elf: &std::path::Path) {
    let q = qemu(elf, &["x"], &[], b"");
    assert_eq!(q.out(), "hello glibc 2 len=13\ndynamic\n");
    let g = garm(&[elf.to_str().unwrap(), "x"], b"");
    assert_eq!((g.status, g.out()), (q.status, q.out()), "{}", g.stderr);
}

#[test]
fn musl_static_program_matches_qemu() {
    musl_sysroot();
    let src = root().join("guest/tests/hosted/glibc_hello.c");
    let elf = tmp().join(format!("musl_hello-{}.elf", std::process::id()));
    let o = Command::new(garm_bin())
        .args(["cc", "--libc", "musl"])
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    hello_matches_qemu(&elf);
}

/// `garm run --libc X prog.c` builds against that libc: the run matches qemu-aarch64's run of
/// `garm cc --libc X`'s ELF.
#[test]
fn run_builds_c_sources_against_a_real_libc() {
    musl_sysroot();
    let src = tmp().join(format!("exit3-{}.c", std::process::id()));
    std::fs::write(&src, "int main(void) { return 3; }\n").unwrap();
    for libc in ["glibc", "musl"] {
        let g = garm(&["--libc", libc, src.to_str().unwrap()], b"");
        let elf = tmp().join(format!("exit3-{libc}-{}.elf", std::process::id()));
        let o = Command::new(garm_bin())
            .args(["cc", "--libc", libc])
            .arg(&src)
            .arg("-o")
            .arg(&elf)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let q = qemu(&elf, &[], &[], b"");
        assert_eq!(q.status, 3);
        assert_eq!(g.status, q.status, "{libc}: {}", g.stderr);
    }
    // `garm diff --libc`: the GPU against qemu (the JIT runs garm's runtime only).
    let d = Command::new(garm_bin())
        .args(["diff", "--libc", "musl"])
        .arg(&src)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&d.stdout);
    let engines: Vec<&str> = text.lines().filter_map(|l| l.split(' ').next()).collect();
    assert_eq!(&engines[..2], ["gpu", "qemu"], "{text}");
    assert!(text.lines().nth(1).unwrap().contains("exit 3"), "{text}");
    let d = Command::new(garm_bin())
        .args(["diff", "--libc", "glibc", "--no-qemu"])
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(d.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&d.stderr).contains("compares with qemu-aarch64"));
}
