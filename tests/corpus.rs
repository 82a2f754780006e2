//! The differential corpus (guest/tests/corpus/*.c): every program runs on garm (the GPU, or
//! lavapipe without one), in the native JIT oracle (the same C built for x86_64, loaded in
//! memory) and under qemu-aarch64 (the same ELF); stdout and exit status must agree three ways.
//! Each is also built against the real libcs (`--libc glibc`, `--libc musl`: their FP/SIMD
//! string routines, clang's vectorised loops) and must agree with qemu-aarch64 there too.

mod common;
use common::*;
use std::path::PathBuf;

/// The corpus programs' names (every `.c` of guest/tests/corpus), at least 40.
fn programs() -> Vec<String> {
    let names = c_programs("tests/corpus");
    assert!(names.len() >= 40, "corpus has {} programs", names.len());
    names
}

/// Every corpus program built against garm's runtime, in one garm run (an instance each: the
/// integer programs run side by side in the small shader), each against qemu-aarch64 and the
/// native JIT.
#[test]
fn corpus_agrees_on_garm_qemu_and_the_native_jit() {
    let names = programs();
    let elfs: Vec<PathBuf> = names
        .iter()
        .map(|n| build(&format!("tests/corpus/{n}")))
        .collect();
    let runs = batch_same_as_qemu(&elfs);
    for ((name, elf), g) in names.iter().zip(&elfs).zip(&runs) {
        jit_agrees(&format!("tests/corpus/{name}"), elf, g);
    }
}

/// The program built against glibc and musl: each run on its own, as their FP/SIMD string
/// routines and printf bring the shader's FP units in (in one batch every lane pays for the
/// units any lane uses: the glibc corpus took 290 s as one run, ~1 s a program alone).
fn libcs(name: &str) {
    let rel = format!("tests/corpus/{name}");
    musl_sysroot();
    for libc in ["glibc", "musl"] {
        // Against qemu only: the libcs differ from garm's runtime where C leaves things to the
        // implementation (errno after a strtol with no digits, say).
        let elf = build_with(&rel, &["--libc", libc, "-lm"]);
        same_as_qemu(&elf, &[], &[], b"");
    }
}

macro_rules! corpus {
    ($($name:ident),* $(,)?) => {
        const PROGRAMS: &[&str] = &[$(stringify!($name)),*];
        $(#[test] fn $name() { libcs(stringify!($name)); })*
    };
}

corpus!(
    ackermann,
    base64,
    bignum_factorial,
    bit_tricks,
    bitfields,
    bits_builtins,
    bst,
    bytecode_vm,
    collatz,
    crc32_kat,
    expr_eval,
    funcptr_callbacks,
    hanoi,
    heap_pq,
    int128_mul,
    int16_edge,
    int32_edge,
    int64_edge,
    int8_edge,
    lcs_edit,
    linked_list,
    malloc_stress,
    mandelbrot_fixed,
    matrix_int,
    md5_kat,
    merge_sort,
    nqueens,
    overflow_builtins,
    primes_mr,
    printf_formats,
    qsort_cmp,
    rle_lz,
    sha256_kat,
    shifts_var,
    sieve,
    string_funcs,
    strtol_parse,
    structs_pack,
    switch_big,
    switch_sparse,
    tokenizer,
    unions,
    varargs_own,
    wordcount_hash,
);

/// Every program in the directory has its libc test above (so none is silently left out).
#[test]
fn corpus_is_complete() {
    let mut listed: Vec<String> = PROGRAMS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        programs(),
        listed,
        "guest/tests/corpus and the corpus! list differ"
    );
}

/// A program started by a relative name still finds `/proc/self/exe` absolute, as Linux gives
/// it: glibc's static start-up asserts it (`_dl_get_origin`) and aborted before main.
#[test]
fn a_glibc_program_started_by_a_relative_name_runs() {
    let elf = build_with("tests/corpus/md5_kat", &["--libc", "glibc"]);
    let out = std::process::Command::new(garm_bin())
        .args(["run", "--tier", "interp"])
        .arg(elf.file_name().unwrap())
        .current_dir(elf.parent().unwrap())
        .output()
        .expect("garm runs");
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        q.out(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success());
}
