//! Dynamically linked programs (PT_INTERP): the corpus built as a user's cross compiler builds
//! it (`clang --target=aarch64-linux-gnu -fuse-ld=lld`, no -static) runs on garm with the
//! installed cross sysroot (`-L /usr/aarch64-linux-gnu`) and equals qemu-aarch64 with the same
//! sysroot: glibc's own ld.so loads libc.so.6 through garm's mmap, mprotect and file system.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const SYSROOT: &str = "/usr/aarch64-linux-gnu";

/// `guest/{rel}.c` built dynamically against the sysroot's glibc.
fn build_dynamic(rel: &str) -> PathBuf {
    build_dynamic_with(rel, &[], "elf")
}

/// [`build_dynamic`] with more clang flags, to a file ending in `ext`.
fn build_dynamic_with(rel: &str, flags: &[&str], ext: &str) -> PathBuf {
    let src = root().join(format!("guest/{rel}.c"));
    let name = rel.replace('/', "_");
    let out = tmp().join(format!("{name}-dyn-{}.{ext}", std::process::id()));
    let o = Command::new("clang")
        .args(["--target=aarch64-linux-gnu", "-fuse-ld=lld", "-O2", "-w"])
        .args(flags)
        .arg(&src)
        .args(["-lm", "-o"])
        .arg(&out)
        .output()
        .expect("clang runs");
    assert!(
        o.status.success(),
        "clang {name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// `elf` with the cross sysroot on garm and under qemu: equal stdout and status.
fn same_as_qemu_dynamic(elf: &Path, args: &[&str]) {
    same_as_qemu_env(
        elf,
        &["-L", SYSROOT],
        args,
        &[("QEMU_LD_PREFIX", SYSROOT)],
        b"",
    );
}

#[test]
fn the_corpus_linked_dynamically_equals_qemu() {
    let names = c_programs("tests/corpus");
    assert!(names.len() >= 40);
    for n in &names {
        same_as_qemu_dynamic(&build_dynamic(&format!("tests/corpus/{n}")), &[]);
    }
}

#[test]
fn a_dynamic_program_without_its_loader_is_refused_clearly() {
    let elf = build_dynamic("tests/corpus/hanoi");
    let empty = tmp().join(format!("empty-sysroot-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let g = garm(&["-L".as_ref(), empty.as_os_str(), elf.as_os_str()], b"");
    assert_ne!(g.status, 0);
    assert!(
        g.stderr.contains("ld-linux-aarch64.so.1") && g.stderr.contains("-L DIR"),
        "{}",
        g.stderr
    );
}

#[test]
fn a_dynamic_program_forks_and_execs_itself() {
    // Its children execve /proc/self/exe: the loader comes again from the guest's /lib. qemu-user
    // cannot exec an AArch64 ELF without binfmt, so there the children call their role.
    let elf = build_dynamic("tests/os/pipeline");
    let g = garm(&["-L".as_ref(), SYSROOT.as_ref(), elf.as_os_str()], b"");
    let q = qemu(&elf, &["--no-exec"], &[("QEMU_LD_PREFIX", SYSROOT)], b"");
    assert_eq!(q.status, 0, "{}", q.stderr);
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(
        g.out().contains("counter: 100 lines, sum 106050"),
        "{}",
        g.out()
    );
    assert_eq!(g.status, 0);
}

#[test]
fn a_dynamic_program_dlopens_a_guest_library() {
    let lib = build_dynamic_with("tests/dynamic/plugin", &["-shared", "-fPIC"], "so");
    let elf = build_dynamic_with("tests/dynamic/dlopen", &["-ldl"], "elf");
    // The library's directory is mounted into the guest; qemu-user sees the host's files.
    let dir = lib.parent().unwrap().to_string_lossy().into_owned();
    let name = lib.file_name().unwrap().to_string_lossy().into_owned();
    let mount = format!("{dir}:/plugins:ro");
    let inside = format!("/plugins/{name}");
    let g = garm(
        &[
            "-L",
            SYSROOT,
            "--mount",
            &mount,
            &elf.to_string_lossy(),
            &inside,
        ],
        b"",
    );
    let q = qemu(
        &elf,
        &[&lib.to_string_lossy()],
        &[("QEMU_LD_PREFIX", SYSROOT)],
        b"",
    );
    assert_eq!(q.status, 0, "{}", q.out());
    assert!(q.out().contains("bump(2) = 84, counter 42"), "{}", q.out());
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert_eq!(g.status, 0);
}
