//! `garm run -g PORT`: Debian's gdb-multiarch in batch mode drives garm's stub and qemu-aarch64's
//! on the same ELF (built with -g) through the same script; what gdb prints must agree: the
//! breakpoint's function, arguments and line, registers (those pointing into the stack compared
//! by their distance from sp: the two stacks lie at different addresses), disassembly at the
//! pc, steps, memory, variables, a fault's signal and the exit status.

mod common;
use common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Whether something listens on 127.0.0.1:`port` (read from /proc/net/tcp: connecting would
/// take qemu's one gdb connection).
fn listening(port: u16) -> bool {
    let t = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    t.lines().skip(1).any(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() > 3 && f[1].ends_with(&format!(":{port:04X}")) && f[3] == "0A"
    })
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn gdb(elf: &std::path::Path, port: u16, script: &str) -> String {
    let file = tmp().join(format!("gdb-{port}-{}.gdb", std::process::id()));
    let text =
        format!("set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\n{script}\n");
    std::fs::write(&file, text).unwrap();
    let o = Command::new("timeout")
        .args(["120", "gdb-multiarch", "-q", "-nx", "-batch", "-x"])
        .arg(&file)
        .arg(elf)
        .output()
        .expect("gdb-multiarch (scripts/deps.sh installs it)");
    let _ = std::fs::remove_file(&file);
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// gdb's output with garm as the target, and garm's exit status and stdout.
fn under_garm(elf: &std::path::Path, args: &[&str], script: &str) -> (String, i32, String) {
    let mut child = Command::new(garm_bin())
        .args(["run", "-g", "0"])
        .arg(elf)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("garm's first line names the port: {line:?}"));
    let text = gdb(elf, port, script);
    let o = child.wait_with_output().unwrap();
    let status = o.status.code().unwrap_or(-1);
    (
        text,
        status,
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn under_qemu(elf: &std::path::Path, args: &[&str], script: &str) -> String {
    let port = free_port();
    let mut child = Command::new("qemu-aarch64")
        .args(["-g", &port.to_string()])
        .arg(elf)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while !listening(port) {
        assert!(t.elapsed().as_secs() < 30, "qemu's stub never listened");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let text = gdb(elf, port, script);
    let _ = child.kill();
    let _ = child.wait();
    text
}

/// gdb's output made comparable: `info registers` lines become (name, value), a value near sp
/// as its distance from sp, and registers only one stub has (qemu's system registers) are
/// left out; pids are dropped.
fn normalise(text: &str, both: &std::collections::BTreeSet<String>) -> Vec<String> {
    let regs: Vec<(String, u64)> = text.lines().filter_map(reg_line).collect();
    let sp = regs.iter().find(|r| r.0 == "sp").map_or(0, |r| r.1);
    let mut out = Vec::new();
    for l in text.lines() {
        if let Some((name, v)) = reg_line(l) {
            if !both.contains(&name) {
                continue;
            }
            let near = sp != 0 && v.abs_diff(sp) < 1 << 20;
            out.push(if near {
                format!("{name} sp{:+}", v as i64 - sp as i64)
            } else {
                format!("{name} {v:#x}")
            });
        } else {
            out.push(without_pids(l));
        }
    }
    out
}

fn reg_line(l: &str) -> Option<(String, u64)> {
    let mut f = l.split_whitespace();
    let name = f.next()?;
    let v = f.next()?.strip_prefix("0x")?;
    let ok = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (ok && !l.starts_with(' ') && !l.contains(':'))
        .then(|| {
            u64::from_str_radix(v, 16)
                .ok()
                .map(|v| (name.to_string(), v))
        })
        .flatten()
}

/// "process 123" -> "process N".
fn without_pids(l: &str) -> String {
    let mut out = String::new();
    let mut rest = l;
    while let Some(i) = rest.find("process ") {
        out += &rest[..i + 8];
        rest = rest[i + 8..].trim_start_matches(|c: char| c.is_ascii_digit());
        out += "N";
    }
    out + rest
}

fn agree(args: &[&str], script: &str) -> (String, i32, String) {
    agree_on(
        &build_with("tests/gdb/target", &["-g", "-O1"]),
        args,
        script,
    )
}

fn agree_on(elf: &std::path::Path, args: &[&str], script: &str) -> (String, i32, String) {
    let elf = elf.to_path_buf();
    let (g, status, stdout) = under_garm(&elf, args, script);
    let q = under_qemu(&elf, args, script);
    let names = |t: &str| -> std::collections::BTreeSet<String> {
        t.lines().filter_map(reg_line).map(|r| r.0).collect()
    };
    let both: std::collections::BTreeSet<String> =
        names(&g).intersection(&names(&q)).cloned().collect();
    let stopped = ["Breakpoint 1, ", "received signal"];
    assert!(
        stopped.iter().any(|w| q.contains(w)),
        "gdb ran under qemu:\n{q}"
    );
    let (ng, nq) = (normalise(&g, &both), normalise(&q, &both));
    assert_eq!(ng, nq, "gdb under garm:\n{g}\ngdb under qemu:\n{q}");
    (g, status, stdout)
}

#[test]
fn breakpoint_registers_steps_memory_and_exit_agree_with_qemu() {
    let script = "break mix\ncontinue\ninfo registers\nx/4i $pc\nx/2xw $pc\n\
                  stepi\nstepi\ninfo registers x8 pc\nbreak 12\ncontinue\nprint r\n\
                  print/x $sp - $x29\ncontinue";
    let (g, status, stdout) = agree(&[], script);
    assert!(g.contains("Breakpoint 1, mix (a=7"), "{g}");
    assert!(g.contains("target.c:12"), "{g}");
    assert!(g.contains("exited with code 027"), "{g}");
    assert_eq!(status, 23, "garm exits with the guest's status");
    assert_eq!(stdout, "mix=77527\n");
}

#[test]
fn a_fault_stops_in_gdb_then_ends_the_process() {
    let script = "continue\ninfo registers pc x8\nx/i $pc\ncontinue";
    let (g, status, _) = agree(&["a", "b"], script);
    assert!(g.contains("SIGSEGV"), "{g}");
    assert!(g.contains("terminated with signal SIGSEGV"), "{g}");
    assert_eq!(status, 139);
}

#[test]
fn v_registers_and_fp_status_agree_with_qemu() {
    let elf = build_with("tests/gdb/float", &["--libc", "glibc", "-g", "-O1"]);
    let script = "break scale\ncontinue\np $d0\np $d1\np $v1.d.u[0]\nfinish\np $d0\n\
                  info registers fpsr fpcr\ncontinue";
    let (g, status, stdout) = agree_on(&elf, &[], script);
    assert!(g.contains("Value returned is $4 = 3.25"), "{g}");
    assert_eq!((status, stdout.as_str()), (0, "3.250000\n"));
}

/// A single step over the SVC of a console write stops at the next instruction, with the
/// write's result in x0 (garm's shader would finish the write and run on in the same step: under
/// gdb console writes go through the host). Known answer, not qemu: qemu-aarch64's stub (7.2)
/// stops one instruction further after a syscall, where Linux's ptrace stops right after it.
#[test]
fn a_step_over_a_write_svc_stops_right_after_it() {
    let elf = build_with("tests/gdb/target", &["-g", "-O1"]);
    let script = "break write\ncontinue\nstepi 3\nx/i $pc\nstepi\ninfo registers pc x0\ncontinue";
    let (g, status, stdout) = under_garm(&elf, &[], script);
    let svc = g
        .lines()
        .find(|l| l.starts_with("=> ") && l.contains("svc"))
        .and_then(|l| l[3..].split_whitespace().next())
        .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .unwrap_or_else(|| panic!("stopped at the SVC: {g}"));
    let regs: Vec<(String, u64)> = g.lines().filter_map(reg_line).collect();
    assert!(
        regs.contains(&("pc".into(), svc + 4)),
        "the next instruction: {g}"
    );
    assert!(
        regs.contains(&("x0".into(), 10)),
        "the write's result, 10 bytes: {g}"
    );
    assert_eq!((status, stdout.as_str()), (23, "mix=77527\n"));
}
