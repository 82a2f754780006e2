//! Bad input and misbehaving guests get one clear line on stderr and a non-zero exit, never a
//! panic: memory faults, illegal instructions, runaway guests, malformed ELF files.

mod common;
use common::*;

#[test]
fn memory_fault_reports_pc_address_and_access() {
    let r = same_as_qemu(&build("demos/fault"), &[], &[], b"");
    assert_eq!(r.status, 139, "SIGSEGV as a shell shows it");
    assert!(
        r.stderr
            .contains("memory fault: write at address 0x7ffffff0000 (pc 0x"),
        "{}",
        r.stderr
    );
}

#[test]
fn illegal_instruction_reports_pc_and_word() {
    let r = same_as_qemu(&build("demos/illegal"), &[], &[], b"");
    assert_eq!(r.status, 132, "SIGILL as a shell shows it");
    assert!(
        r.stderr.contains("illegal instruction at pc 0x") && r.stderr.contains("word 0x00000000"),
        "{}",
        r.stderr
    );
}

#[test]
fn runaway_guest_is_stopped_by_max_insns() {
    let elf = build("demos/spin");
    let r = garm(&["--max-insns", "300000", elf.to_str().unwrap()], b"");
    assert_eq!(r.status, garm::run::LIMIT_EXIT);
    assert!(
        r.stderr.contains("instruction limit reached"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.out(),
        "spinning forever\n",
        "output before the limit is kept"
    );
}

fn refused(bytes: &[u8], name: &str, expect: &str) {
    let p = tmp().join(format!("{name}-{}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    let r = garm(&[p.to_str().unwrap()], b"");
    assert_eq!(r.status, 1, "{name}: {}", r.stderr);
    assert!(
        r.stderr.starts_with("garm: ") && r.stderr.contains(expect),
        "{name}: {}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "one line: {}", r.stderr);
}

#[test]
fn truncated_elf_is_refused() {
    let elf = std::fs::read(build("demos/hello")).unwrap();
    refused(&elf[..elf.len() / 3], "truncated.elf", "truncated");
    refused(&elf[..40], "header-only.elf", "malformed ELF");
}

#[test]
fn x86_64_elf_is_refused() {
    let host = std::fs::read("/bin/true").expect("/bin/true is an x86-64 (host) ELF");
    refused(&host, "x86.elf", "not AArch64");
}

#[test]
fn random_bytes_are_refused() {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let junk: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    refused(&junk, "random.bin", "not an ELF");
}

#[test]
fn missing_program_is_an_error() {
    let r = garm(&["/nonexistent/prog.elf"], b"");
    assert_eq!(r.status, 1);
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
}

#[test]
fn too_much_memory_is_refused_clearly() {
    let elf = build("demos/hello");
    let r = garm(&["--pool", "64G", elf.to_str().unwrap()], b"");
    assert_eq!(r.status, 1);
    assert!(r.stderr.contains("lower --pool"), "{}", r.stderr);
    // A cap costs nothing until pages are touched: 64 processes of 64 MiB fit lavapipe's
    // 128 MiB binding.
    let r = garm(
        &["--instances", "64", "--mem", "64M", elf.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn a_spent_pool_ends_the_process_with_a_message() {
    // The stack grows a page block at a time until no frame is left (before its 1 MiB limit).
    let elf = build("tests/os/deepstack");
    let r = garm(&["--pool", "1M", elf.to_str().unwrap()], b"");
    assert_eq!(
        r.status, 137,
        "SIGKILL, as Linux's OOM killer: {}",
        r.stderr
    );
    assert!(r.stderr.contains("raise --pool"), "{}", r.stderr);
}

#[test]
fn unknown_adapter_is_refused_and_info_lists_adapters() {
    let elf = build("demos/hello");
    let r = garm(
        &["--adapter", "no-such-gpu-xyz", elf.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("no adapter matches 'no-such-gpu-xyz'"),
        "{}",
        r.stderr
    );
    let o = std::process::Command::new(garm_bin())
        .arg("info")
        .output()
        .unwrap();
    let info = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && info.contains("<- default") && info.contains("limits:"),
        "{info}"
    );
    // The default adapter is also reachable by its backend name.
    let r = garm(&["--adapter", "vulkan", elf.to_str().unwrap()], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn missing_toolchain_is_named() {
    let empty = tmp().join(format!("empty-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let src = root().join("guest/demos/hello.c");
    let o = std::process::Command::new(garm_bin())
        .args(["cc"])
        .arg(&src)
        .args(["-o", "/dev/null"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("clang not found") && err.contains("apt-get install clang lld"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
