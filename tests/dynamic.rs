//! Dynamically linked programs (PT_INTERP): the corpus built as a user's cross compiler builds
//! it (`clang --target=aarch64-linux-gnu -fuse-ld=lld`, no -static) runs on garm with the
//! installed cross sysroot (`-L /usr/aarch64-linux-gnu`) and equals qemu-aarch64 with the same
//! sysroot: glibc's own ld.so loads libc.so.6 through garm's mmap, mprotect and file system.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const SYSROOT: &str = "/usr/aarch64-linux-gnu";

/// `guest/tests/corpus/{name}.c` built dynamically against the sysroot's glibc.
fn build_dynamic(name: &str) -> PathBuf {
    let src = root().join(format!("guest/tests/corpus/{name}.c"));
    let out = tmp().join(format!("{name}-dyn-{}.elf", std::process::id()));
    let o = Command::new("clang")
        .args(["--target=aarch64-linux-gnu", "-fuse-ld=lld", "-O2", "-w"])
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

fn same_as_qemu_dynamic(elf: &Path, args: &[&str]) {
    let mut a = vec!["-L".to_string(), SYSROOT.to_string()];
    a.push(elf.to_string_lossy().into_owned());
    a.extend(args.iter().map(|s| s.to_string()));
    let g = garm(&a, b"");
    let q = qemu(elf, args, &[("QEMU_LD_PREFIX", SYSROOT)], b"");
    assert_eq!(
        g.out(),
        q.out(),
        "{}: stdout differs from qemu\n{}",
        elf.display(),
        g.stderr
    );
    assert_eq!(g.status, q.status, "{}: {}", elf.display(), g.stderr);
}

#[test]
fn the_corpus_linked_dynamically_equals_qemu() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("guest/tests/corpus"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "c").then_some(stem)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 40);
    for n in &names {
        same_as_qemu_dynamic(&build_dynamic(n), &[]);
    }
}

#[test]
fn a_dynamic_program_without_its_loader_is_refused_clearly() {
    let elf = build_dynamic("hanoi");
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
