//! `--instances N` runs N copies in one dispatch: each sees its index, its output streams out line
//! by line with a `[i] ` prefix (one instance's lines in order), and garm exits with the first
//! non-zero status.

mod common;
use common::*;

/// The lines of `out` grouped by instance: a stable sort on the `[i] ` prefix keeps each
/// instance's own order.
fn by_instance(out: &str) -> Vec<String> {
    let mut lines: Vec<String> = out.lines().map(|l| format!("{l}\n")).collect();
    lines.sort_by_key(|l| {
        l.strip_prefix('[')
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(usize::MAX)
    });
    lines
}

#[test]
fn sixty_four_instances_each_checked_against_qemu() {
    let elf = build("demos/instance");
    let n = 64;
    let r = garm(&["--instances", "64", elf.to_str().unwrap(), "17"], b"");
    assert_eq!(
        r.status, 3,
        "instance 17 exits 3, the first non-zero status: {}",
        r.stderr
    );
    let grouped = by_instance(&r.out());
    let lines: Vec<&str> = grouped.iter().map(|l| l.trim_end()).collect();
    assert_eq!(lines.len(), n, "one line per instance:\n{}", r.out());
    for (i, line) in lines.iter().enumerate() {
        let idx = i.to_string();
        let q = qemu(
            &elf,
            &["17"],
            &[("GARM_INSTANCE", &idx), ("GARM_INSTANCES", "64")],
            b"",
        );
        assert_eq!(
            *line,
            format!("[{i}] {}", q.out().trim_end()),
            "instance {i}"
        );
        // Known answer too: the sum of k*k for k below 1000*(i+1).
        let m = 1000 * (i as u64 + 1);
        let sum = (m - 1) * m * (2 * m - 1) / 6;
        assert!(
            line.ends_with(&format!("sum={sum}")),
            "instance {i}: {line}"
        );
    }
}

#[test]
fn instances_keep_stdout_and_stderr_apart() {
    let elf = build("demos/exitcode");
    let r = garm(&["--instances", "3", elf.to_str().unwrap()], b"");
    assert_eq!(r.status, 42);
    let q = qemu(&elf, &[], &[], b"");
    let expect: String = (0..3)
        .flat_map(|i| {
            q.out()
                .lines()
                .map(move |l| format!("[{i}] {l}\n"))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(by_instance(&r.out()).concat(), expect);
    assert!(
        r.stderr.contains("[0] ") && r.stderr.contains("[2] "),
        "{}",
        r.stderr
    );
}

#[test]
fn a_thousand_instances_of_a_musl_program_in_llds_layout_match_qemu() {
    // ld.lld's default layout (text from 0x200000), the stack near the top of the 48-bit
    // space, malloc, a deep stack, mmap/mprotect/munmap: 1024 address spaces in one run, their
    // pages taken from one pool on first touch.
    musl_sysroot();
    let elf = build_with("tests/os/manyvm", &["--libc", "musl"]);
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(q.status, 0, "qemu: {}", q.stderr);
    let n = 1024;
    let r = garm(
        &[
            "--instances",
            &n.to_string(),
            "--stats",
            elf.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let want: Vec<String> = q.out().lines().map(|l| format!("{l}\n")).collect();
    let grouped = by_instance(&r.out());
    assert_eq!(grouped.len(), n * want.len(), "{}", r.stderr);
    for (i, lines) in grouped.chunks(want.len()).enumerate() {
        let own: Vec<String> = lines
            .iter()
            .map(|l| l.strip_prefix(&format!("[{i}] ")).unwrap_or(l).to_string())
            .collect();
        assert_eq!(own, want, "instance {i}");
    }
}

/// `--adapter all`: 64 instances spread over every adapter (lavapipe's Vulkan and Mesa's GL
/// adapters here, the second with the vec2 prelude) print what qemu-aarch64 prints for each,
/// in instance order, the same as one adapter; `--stats` names both adapters.
#[test]
fn sixty_four_instances_across_every_adapter_match_qemu_and_one_adapter() {
    let elf = build("demos/instance");
    let e = elf.to_str().unwrap();
    let spread = garm(
        &["--instances", "64", "--adapter", "all", "--stats", e, "17"],
        b"",
    );
    let one = garm(&["--instances", "64", e, "17"], b"");
    assert_eq!(
        spread.status, 3,
        "the first non-zero status: {}",
        spread.stderr
    );
    let stats: Vec<&str> = spread
        .stderr
        .lines()
        .filter(|l| l.starts_with("garm: stats: adapter"))
        .collect();
    assert!(
        stats.len() >= 2
            && stats.iter().any(|l| l.contains("(Vulkan)"))
            && stats.iter().any(|l| l.contains("(Gl)")),
        "two adapters ran: {}",
        spread.stderr
    );
    let lines: Vec<String> = spread.out().lines().map(|l| format!("{l}\n")).collect();
    assert_eq!(
        lines,
        by_instance(&spread.out()),
        "printed in instance order"
    );
    assert_eq!(lines, by_instance(&one.out()), "the same as one adapter");
    for (i, line) in lines.iter().enumerate() {
        let idx = i.to_string();
        let env = [("GARM_INSTANCE", idx.as_str()), ("GARM_INSTANCES", "64")];
        let q = qemu(&elf, &["17"], &env, b"");
        assert_eq!(*line, format!("[{i}] {}", q.out()), "instance {i}");
    }
}
