//! Tier 2 AdvSIMD against qemu-aarch64: every implemented SIMD instruction form on fixed inputs
//! (guest/tests/simd/simd_ops.c), and the vectorised string and memory functions of real libcs
//! (glibc's and musl's, guest/tests/simd/libc_strings.c) over every alignment; stdout and exit
//! status must equal qemu's; scalar binary32/binary64 arithmetic, compares and conversions
//! over special operands in every rounding mode with the exception flags (guest/tests/simd/fp_ops.c).

mod common;
use common::*;
use std::process::Command;

fn build_libc(rel: &str, libc: &str) -> std::path::PathBuf {
    if libc == "musl" {
        musl_sysroot();
    }
    build_with(rel, &["--libc", libc, "-lm"])
}

fn same(rel: &str, libc: &str) {
    let elf = build_libc(rel, libc);
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(q.status, 0, "qemu: {}", q.stderr);
    let g = garm(&[elf.to_str().unwrap()], b"");
    assert_eq!(g.stderr, "", "{rel} ({libc})");
    assert_eq!((g.status, g.out()), (q.status, q.out()), "{rel} ({libc})");
}

#[test]
fn simd_instruction_forms_match_qemu() {
    same("tests/simd/simd_ops", "musl");
}

#[test]
fn glibc_string_functions_match_qemu() {
    same("tests/simd/libc_strings", "glibc");
}

#[test]
fn musl_string_functions_match_qemu() {
    same("tests/simd/libc_strings", "musl");
}

#[test]
fn scalar_fp_matches_qemu_in_every_rounding_mode() {
    same("tests/simd/fp_ops", "musl");
}

#[test]
fn glibc_float_printf_strtod_and_libm_match_qemu() {
    same("tests/simd/float_libc", "glibc");
}

#[test]
fn musl_float_printf_strtod_and_libm_match_qemu() {
    same("tests/simd/float_libc", "musl");
}

#[test]
fn vector_fp_matches_qemu_in_every_rounding_mode() {
    same("tests/simd/fp_vec", "musl");
}

#[test]
fn fp_pairwise_and_narrowing_match_qemu() {
    same("tests/simd/fp_pairwise", "musl");
}

#[test]
fn half_precision_conversions_match_qemu_under_every_fpcr() {
    same("tests/simd/fp_half", "musl");
}

/// A shader variant that fails to compile (here a broken GARM_SHADER_DIR file, compiled when
/// the guest first needs the SIMD units) is a clear error and exit 1, not a panic.
#[test]
fn a_variant_that_does_not_compile_is_a_clear_error() {
    let elf = build_libc("tests/simd/simd_ops", "musl");
    let dir = tmp().join(format!("broken-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::fs::read_to_string(root().join("shaders/cpu/simd_fns.wgsl")).unwrap();
    std::fs::write(dir.join("simd_fns.wgsl"), src + "\nlet broken = ;\n").unwrap();
    let o = Command::new(garm_bin())
        .arg("run")
        .arg(&elf)
        .env("GARM_SHADER_DIR", &dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("does not compile") && !err.contains("panicked"),
        "{err}"
    );
}
