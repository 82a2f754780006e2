//! Every demo runs on the GPU (lavapipe without one) with stdout and exit status equal to
//! qemu-aarch64's on the same ELF.

mod common;
use common::*;

#[test]
fn hello_with_arguments() {
    let r = same_as_qemu(&build("demos/hello"), &[], &["one", "two words", "-x"], b"");
    assert!(r.out().starts_with("Hello from AArch64 on the GPU!\n"));
}

#[test]
fn sha256_known_answers_and_a_buffer() {
    let r = same_as_qemu(&build("demos/sha256"), &[], &["4"], b"");
    assert!(r.out().contains("all known answers match"), "{}", r.out());
    assert_eq!(r.status, 0);
}

#[test]
fn glibc_string_functions_at_every_alignment() {
    let elf = build_with("demos/strings", &["--libc", "glibc"]);
    let r = same_as_qemu(&elf, &[], &["2"], b"");
    assert!(r.out().starts_with("strings: "), "{}", r.out());
}

#[test]
fn primes_sieve() {
    let r = same_as_qemu(&build("demos/primes"), &[], &["20000"], b"");
    assert!(r.out().contains("2262"), "pi(20000) = 2262: {}", r.out());
}

#[test]
fn brainfuck_hello_world() {
    let r = same_as_qemu(&build("demos/bf"), &[], &[], b"");
    assert!(r.out().contains("Hello World!"));
}

#[test]
fn life_generations() {
    same_as_qemu(&build("demos/life"), &[], &["8"], b"");
}

#[test]
fn exit_status_and_stderr() {
    let r = same_as_qemu(&build("demos/exitcode"), &[], &[], b"");
    assert_eq!(r.status, 42);
    assert!(
        !r.stderr.is_empty(),
        "the guest's stderr reaches the host's stderr"
    );
}

#[test]
fn stdin_reaches_the_guest() {
    let input = b"alpha\nbeta\ngamma delta\n".repeat(50);
    let r = same_as_qemu(&build("demos/cat"), &[], &[], &input);
    assert_eq!(r.stdout, input);
}

#[test]
fn self_modifying_code_is_redecoded() {
    let r = same_as_qemu(&build("demos/selfmod"), &[], &[], b"");
    assert!(
        r.out().contains("first call: 1234") && r.out().contains("second call: 4321"),
        "{}",
        r.out()
    );
}

#[test]
fn runtime_library_matches_qemu() {
    same_as_qemu(&build("tests/libc_test"), &[], &[], b"");
}

#[test]
fn printf_formats_match_qemu() {
    same_as_qemu(&build("tests/printf_fmt"), &[], &[], b"");
}

#[test]
fn division_and_bit_scans_match_qemu() {
    same_as_qemu(&build("tests/divbits"), &[], &[], b"");
}

#[test]
fn portable_vec2_prelude_runs_the_demos() {
    for d in [
        "demos/hello",
        "demos/sha256",
        "demos/primes",
        "tests/divbits",
    ] {
        same_as_qemu(&build(d), &["--prelude", "vec2"], &[], b"");
    }
}

#[test]
fn c_source_is_compiled_and_run() {
    let src = root().join("guest/demos/hello.c");
    let r = garm(&[src.to_str().unwrap(), "x"], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.out(), "Hello from AArch64 on the GPU!\nargv[1] = x\n");
}

/// The GL backend (Mesa llvmpipe through EGL) has no SHADER_INT64: garm picks the portable
/// vec2<u32> prelude there, and the result still matches qemu.
#[test]
fn gl_backend_runs_the_portable_prelude() {
    let elf = build("demos/sha256");
    let r = same_as_qemu(&elf, &["--adapter", "gl", "--stats"], &[], b"");
    assert!(r.stderr.contains("prelude vec2<u32>"), "{}", r.stderr);
}
