//! Debian's own busybox-static:arm64 (fetched by scripts/sysroot.sh) runs every case of
//! scripts/busybox-cases.txt (`busybox sh -c ...`: text tools, arithmetic, files on a mount,
//! pipes, redirection, functions, `$(...)`, `read`) with stdout and exit status equal to
//! qemu-aarch64's, through scripts/busybox-compare.sh.

mod common;
use common::*;

#[test]
fn debian_busybox_matches_qemu_on_every_case() {
    let o = std::process::Command::new("bash")
        .arg(root().join("scripts/busybox-compare.sh"))
        .env("GARM", garm_bin())
        .current_dir(root())
        .output()
        .expect("busybox-compare.sh");
    let out = String::from_utf8_lossy(&o.stdout);
    let last = out.lines().last().unwrap_or("");
    let same: usize = last
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let diffs: Vec<&str> = out.lines().filter(|l| l.starts_with("DIFF")).collect();
    assert!(
        diffs.is_empty() && same >= 60,
        "{last}\n{}\n{}",
        diffs.join("\n"),
        String::from_utf8_lossy(&o.stderr)
    );
}
