//! Debian's own busybox-static:arm64 (fetched by scripts/sysroot.sh) runs every case of
//! scripts/busybox-cases.txt (`busybox sh -c ...`: text tools, arithmetic, files on a mount,
//! pipes, redirection, functions, `$(...)`, `read`) with stdout and exit status equal to
//! qemu-aarch64's. All cases run as the instances of one garm run (each in a fresh fixture of
//! its own, made by scripts/busybox-compare.sh, the script that compares them one garm run at a
//! time): 78 runs one after another took 144 s on lavapipe.

mod common;
use common::*;
use garm::api::{Config, Instance, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(dir: &Path) {
    let o = Command::new("bash")
        .arg(root().join("scripts/busybox-compare.sh"))
        .arg("--fixture")
        .arg(dir)
        .output()
        .expect("busybox-compare.sh");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The applets busybox lists: qemu's side gets a wrapper for each (qemu-aarch64 cannot exec an
/// AArch64 ELF, so BusyBox's re-exec of itself fails there and it looks applets up on PATH),
/// garm's a link to busybox, as the script makes them.
fn applet_dirs(bb: &Path, work: &Path, qemu_bin: &str) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let list = Command::new("qemu-aarch64")
        .arg(bb)
        .arg("--list")
        .output()
        .unwrap();
    let (wrap, bbin) = (work.join("wrap"), work.join("bbin"));
    std::fs::create_dir_all(&wrap).unwrap();
    std::fs::create_dir_all(&bbin).unwrap();
    std::fs::copy(bb, bbin.join("busybox")).unwrap();
    for a in String::from_utf8_lossy(&list.stdout).split_whitespace() {
        let w = wrap.join(a);
        let text = format!(
            "#!/bin/sh\nexec '{}' '{}' {a} \"$@\"\n",
            qemu_bin,
            bb.display()
        );
        std::fs::write(&w, text).unwrap();
        std::fs::set_permissions(&w, std::fs::Permissions::from_mode(0o755)).unwrap();
        if a != "busybox" {
            std::os::unix::fs::symlink("busybox", bbin.join(a)).unwrap();
        }
    }
    (wrap, bbin)
}

#[test]
fn debian_busybox_matches_qemu_on_every_case() {
    let o = Command::new("bash")
        .arg(root().join("scripts/sysroot.sh"))
        .arg("busybox-static")
        .output()
        .expect("sysroot.sh");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bb = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("bin/busybox");
    let cases: Vec<String> = std::fs::read_to_string(root().join("scripts/busybox-cases.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let work = tmp().join(format!("busybox-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    // Absolute: the cases run with PATH naming the wrappers alone.
    let which = |p: &str| {
        let o = Command::new("sh")
            .args(["-c", &format!("command -v {p}")])
            .output();
        String::from_utf8(o.unwrap().stdout)
            .unwrap()
            .trim()
            .to_string()
    };
    let (qemu_bin, timeout) = (which("qemu-aarch64"), which("timeout"));
    let (wrap, bbin) = applet_dirs(&bb, &work, &qemu_bin);
    let (q, g) = (work.join("q"), work.join("g"));
    for i in 0..cases.len() {
        fixture(&q.join(i.to_string()));
        fixture(&g.join(i.to_string()));
    }
    // qemu: each case in its own fixture, with the wrappers on PATH.
    let theirs: Vec<Ran> = cases
        .iter()
        .enumerate()
        .map(|(i, cmd)| {
            let o = Command::new(&timeout)
                .arg("60")
                .arg(&qemu_bin)
                .arg(&bb)
                .args(["sh", "-c", cmd])
                .current_dir(q.join(i.to_string()))
                .env_clear()
                .env("PATH", &wrap)
                .env("HOME", "/")
                .env("LANG", "C")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            Ran {
                status: o.status.code().unwrap_or(-1),
                stdout: o.stdout,
                stderr: String::new(),
            }
        })
        .collect();
    let printed = theirs.iter().filter(|r| !r.stdout.is_empty()).count();
    assert!(printed >= 60, "only {printed} cases printed under qemu");
    // garm: one run, case i in instance i, its fixture at /w/i.
    let bbs = bb.to_string_lossy().into_owned();
    let instances: Vec<Instance> = cases
        .iter()
        .enumerate()
        .map(|(i, cmd)| {
            Instance::new(&[&bbs, "sh", "-c", &format!("cd /w/{i} && {cmd}")]).env("PATH=/bbin")
        })
        .collect();
    let config = Config::default()
        .mount(&g, "/w", false)
        .mount(&bbin, "/bbin", true)
        .max_procs(4 * cases.len() as u32)
        .timeout(std::time::Duration::from_secs(600));
    let prog = Program::load(&bb).expect("busybox loads");
    let ours = run_instances(&prog, &instances, &config);
    let mut bad = Vec::new();
    for ((cmd, g), q) in cases.iter().zip(&ours).zip(&theirs) {
        if (g.out(), g.status) != (q.out(), q.status) {
            bad.push(format!(
                "DIFF {cmd} (qemu {}, garm {}):\n{}\n-- qemu:\n{}\n-- garm stderr: {}",
                q.status,
                g.status,
                g.out(),
                q.out(),
                g.stderr
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases differ:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}
