//! Hosted static programs (AArch64 glibc and musl, not garm's runtime) run on garm as far as
//! Tier 1 allows. glibc's string routines use SIMD (Tier 2), so today it must stop with a clean
//! illegal-instruction report naming an FP/SIMD word, never run on silently; once Tier 2 lands it
//! must match qemu-aarch64 exactly.

mod common;
use common::*;
use std::process::Command;

#[test]
fn glibc_static_program_matches_qemu_or_traps_cleanly_on_simd() {
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
    let q = qemu(&elf, &["x"], &[], b"");
    assert_eq!(q.out(), "hello glibc 2 len=13\ndynamic\n");
    let g = garm(&[elf.to_str().unwrap(), "x"], b"");
    if g.status == 132 {
        let line = g
            .stderr
            .lines()
            .find(|l| l.contains("illegal instruction"))
            .unwrap_or_else(|| panic!("{}", g.stderr));
        let word = u32::from_str_radix(line.split("word 0x").nth(1).unwrap().get(..8).unwrap(), 16)
            .unwrap();
        // Advanced SIMD and FP encodings have op0 = x111 (bits 28:25 = 0111 or 1111) or are
        // SIMD loads/stores (bits 29:27 = 011/001 with bit 26 set).
        let simd_fp = (word >> 25) & 0x7 == 0b111 || (word >> 26) & 1 == 1;
        assert!(simd_fp, "stopped on a non-SIMD word {word:#010x}: {line}");
    } else {
        assert_eq!((g.status, g.out()), (q.status, q.out()), "{}", g.stderr);
    }
}

#[test]
fn musl_static_program_matches_qemu_or_traps_cleanly_on_simd() {
    // The sysroot comes from scripts/sysroot.sh (scripts/deps.sh runs it).
    let o = Command::new("bash")
        .arg(root().join("scripts/sysroot.sh"))
        .args(["musl-dev", "musl"])
        .output()
        .expect("sysroot.sh");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
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
    let q = qemu(&elf, &["x"], &[], b"");
    assert_eq!(q.out(), "hello glibc 2 len=13\ndynamic\n");
    let g = garm(&[elf.to_str().unwrap(), "x"], b"");
    if g.status == 132 {
        assert!(
            g.stderr.contains("not implemented yet (Tier 2)"),
            "stopped on something other than FP/SIMD: {}",
            g.stderr
        );
    } else {
        assert_eq!((g.status, g.out()), (q.status, q.out()), "{}", g.stderr);
    }
}
