//! `--trace`: the pcs of the instruction trace are the ones qemu-aarch64 executes, one by one
//! (`-d exec` with one instruction per translation block), and the changed registers are right.

mod common;
use common::*;
use std::process::Command;

/// The pcs qemu-aarch64 executes, in order.
fn qemu_pcs(elf: &std::path::Path, args: &[&str]) -> Vec<u64> {
    let name = elf.file_stem().unwrap().to_string_lossy().into_owned();
    let log = tmp().join(format!("qemu-exec-{name}-{}.log", std::process::id()));
    // qemu 8+ calls it -one-insn-per-tb, 7.x -singlestep.
    let ok = ["-one-insn-per-tb", "-singlestep"].iter().any(|flag| {
        Command::new("qemu-aarch64")
            .args([flag, "-d", "exec,nochain", "-D"])
            .arg(&log)
            .arg(elf)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    });
    assert!(ok, "qemu-aarch64 could not trace");
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    text.lines()
        .filter(|l| l.starts_with("Trace"))
        .map(|l| {
            let hex = l.split('/').nth(1).expect("qemu exec line");
            u64::from_str_radix(hex, 16).unwrap()
        })
        .collect()
}

fn garm_trace(elf: &std::path::Path, args: &[&str], limit: u64) -> Vec<(u64, String)> {
    let name = elf.file_stem().unwrap().to_string_lossy().into_owned();
    let out = tmp().join(format!("garm-trace-{name}-{}.txt", std::process::id()));
    let mut a = vec![
        "--trace".to_string(),
        out.to_string_lossy().into_owned(),
        "--trace-limit".to_string(),
        limit.to_string(),
        elf.to_string_lossy().into_owned(),
    ];
    a.extend(args.iter().map(|s| s.to_string()));
    let r = garm(&a, b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let pc = l.split(' ').nth(1).unwrap();
            (u64::from_str_radix(&pc[2..], 16).unwrap(), l.to_string())
        })
        .collect()
}

#[test]
fn the_trace_follows_qemus_instructions() {
    let elf = build("demos/hello");
    let q = qemu_pcs(&elf, &[]);
    let g = garm_trace(&elf, &[], 100_000);
    let gp: Vec<u64> = g.iter().map(|(pc, _)| *pc).collect();
    assert_eq!(gp, q, "pc sequences differ");
    // Each line disassembles its word (llvm-mc) before the table's group.
    assert!(
        g[0].1.contains("mov x29, #0") && g[0].1.contains("| MOVN"),
        "{}",
        g[0].1
    );
    // The first instructions of _start: the registers they set are shown.
    assert!(
        g[3].1.contains("BL") && g[3].1.contains("x30=0x10010"),
        "{}",
        g[3].1
    );
}

#[test]
fn the_trace_limit_is_honoured_and_the_run_finishes() {
    let elf = build("demos/primes");
    let g = garm_trace(&elf, &["2000"], 500);
    assert_eq!(g.len(), 500);
    let q = qemu_pcs(&elf, &["2000"]);
    let gp: Vec<u64> = g.iter().map(|(pc, _)| *pc).collect();
    assert_eq!(gp[..], q[..500]);
}
