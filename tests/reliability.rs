//! Reliability: a closed reader ends a writer with SIGPIPE, `--max-insns` bounds a whole process
//! tree, `--timeout` ends a run and keeps what was written, orphans' output is not lost, writes
//! in mounts get Linux's answers. Checked against qemu-aarch64 where qemu applies.

mod common;
use common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd`, reads its first stdout line, closes the pipe and returns (line, exit status);
/// panics if it does not end within 20 s.
fn first_line_then_close(mut cmd: Command) -> (String, i32) {
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // The reader is gone now (as `| head -1` leaves it).
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return (
                line,
                st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0)),
            );
        }
        if t0.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("still running 20 s after its reader closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_writer_to_a_closed_pipe_gets_sigpipe_like_under_qemu() {
    let elf = build("tests/os/yes");
    let mut q = Command::new("qemu-aarch64");
    q.arg(&elf);
    let (ql, qs) = first_line_then_close(q);
    assert_eq!((ql.as_str(), qs), ("y\n", 141), "qemu");
    // The shader's fast path (fd 1), the host path (a dup of fd 1), and many instances.
    for extra in [&[][..], &["dup"][..]] {
        let mut g = Command::new(garm_bin());
        g.arg("run").arg(&elf).args(extra);
        assert_eq!(
            first_line_then_close(g),
            (ql.clone(), 141),
            "garm {extra:?}"
        );
    }
    let mut g = Command::new(garm_bin());
    g.args(["run", "--instances", "3"]).arg(&elf);
    let (l, s) = first_line_then_close(g);
    assert_eq!((l.as_str(), s), ("[0] y\n", 141));
}

#[test]
fn max_insns_bounds_the_whole_process_tree() {
    let elf = build("tests/os/forkspin");
    let t0 = Instant::now();
    let r = garm(
        &["--stats", "--max-insns", "3000000", elf.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 124, "{}", r.stderr);
    assert!(
        r.stderr.contains("instruction limit reached"),
        "{}",
        r.stderr
    );
    // Seven spinning processes share one budget: the run ends near 3 M instructions in all.
    let retired: u64 = r
        .stderr
        .lines()
        .find_map(|l| {
            l.split("stats: ")
                .nth(1)?
                .split(" instructions retired")
                .next()?
                .parse()
                .ok()
        })
        .expect("--stats line");
    assert!(
        (3_000_000..4_000_000).contains(&retired),
        "{retired} instructions: {}",
        r.stderr
    );
    assert!(t0.elapsed() < Duration::from_secs(60));
}

#[test]
fn timeout_ends_the_run_and_keeps_what_was_written() {
    let elf = build("tests/os/forkspin");
    let r = garm(&["--timeout", "1", elf.to_str().unwrap()], b"");
    assert_eq!(r.status, 124, "{}", r.stderr);
    assert!(r.stderr.contains("wall-clock timeout"), "{}", r.stderr);
    // Output streams: an instance's completed lines are out before the run ends.
    let spin = build("demos/spin");
    let r = garm(
        &["--timeout", "2", "--instances", "2", spin.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 124, "{}", r.stderr);
    assert_eq!(
        r.out(),
        "[0] spinning forever\n[1] spinning forever\n",
        "{}",
        r.stderr
    );
}

#[test]
fn an_orphans_output_after_its_parent_exits_is_kept() {
    let r = same_as_qemu(&build("tests/os/orphan"), &[], &[], b"");
    assert_eq!(r.out(), "parent\norphan after parent exit\n");
    assert_eq!(r.status, 3);
}

#[test]
fn creating_in_mounts_matches_linux() {
    let elf = build("tests/os/mountops");
    let dir = tmp().join(format!("mountops-{}", std::process::id()));
    let (gd, qd) = (dir.join("garm"), dir.join("qemu"));
    for d in [&gd, &qd] {
        let _ = std::fs::remove_dir_all(d);
        std::fs::create_dir_all(d).unwrap();
    }
    let mount = format!("{}:/m", gd.display());
    let g = garm(&["--mount", &mount, elf.to_str().unwrap(), "/m"], b"");
    let q = qemu(&elf, &[qd.to_str().unwrap()], &[], b"");
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(
        g.out().starts_with(
            "mkdir: 0 errno 0\nsymlink: 0 errno 0\nopen excl: 0 errno 0\nmkdir: -1 errno 17"
        ),
        "{}",
        g.out()
    );
    // Read-only: every new name is EROFS (qemu has no read-only mount to compare with).
    let ro = format!("{}:/m:ro", qd.display());
    let _ = std::fs::remove_dir_all(&qd);
    std::fs::create_dir_all(&qd).unwrap();
    let g = garm(&["--mount", &ro, elf.to_str().unwrap(), "/m"], b"");
    assert_eq!(
        g.out(),
        "mkdir: -1 errno 30\nsymlink: -1 errno 30\nopen excl: -1 errno 30\n".repeat(2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// garm's peak resident memory from `--stats`, in MiB.
fn peak_mib(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| {
            l.split("peak host memory ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no peak line in {stderr}"))
}

#[test]
fn unlinked_files_give_their_memory_back() {
    let elf = build("tests/os/bigfiles");
    let dir = tmp().join(format!("bigfiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let q = qemu(&elf, &[dir.to_str().unwrap()], &[], b"");
    let g = garm(&["--stats", elf.to_str().unwrap(), "/tmp"], b"");
    assert_eq!(g.out(), q.out(), "{}", g.stderr);
    assert_eq!(g.status, 0);
    // Eight 128 MiB files one after another: at most one is alive at a time. The bound leaves
    // room for garm itself (the GPU driver: about 150 MiB on lavapipe).
    let peak = peak_mib(&g.stderr);
    assert!(peak < 700, "peak {peak} MiB: {}", g.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_filesystem_budget_gives_enospc_not_an_abort() {
    let elf = build("tests/os/bigfiles");
    let g = garm(&["--fs-limit", "64M", elf.to_str().unwrap(), "/tmp"], b"");
    assert_eq!(g.out(), "round 0 failed\n", "{}", g.stderr);
    assert_eq!(g.status, 1);
}

#[test]
fn stores_to_text_and_read_only_data_are_sigsegv_like_under_qemu() {
    let elf = build("tests/os/rostore");
    for what in ["rodata", "text"] {
        let r = same_as_qemu(&elf, &[], &[what], b"");
        assert_eq!((r.out().as_str(), r.status), ("before\n", 139), "{what}");
        assert!(
            r.stderr.contains("write at address"),
            "{what}: {}",
            r.stderr
        );
    }
    // Self-modifying code in its own writable, executable section still runs.
    same_as_qemu(&build("demos/selfmod"), &[], &[], b"");
}

#[test]
fn a_runaway_stack_stops_at_its_guard_like_under_qemu() {
    // Before the guard gap, the stack grew over the heap and the program's own text.
    let r = same_as_qemu(&build("tests/os/deepstack"), &[], &[], b"");
    assert_eq!((r.out().as_str(), r.status), ("recursing\n", 139));
    assert!(r.stderr.contains("stack overflow"), "{}", r.stderr);
}

#[test]
fn each_instance_is_its_own_machine_whatever_the_others_do() {
    let elf = build("tests/os/misbehave");
    let r = garm(
        &[
            "--instances",
            "8",
            "--max-insns",
            "20000000",
            elf.to_str().unwrap(),
        ],
        b"",
    );
    // Instance 0's kill(-1) reached nothing (its namespace has only its init, itself); the first
    // non-zero status is instance 4's instruction limit.
    assert_eq!(r.status, 124, "{}", r.stderr);
    let out = r.out();
    let lines_of = |i: usize| -> String {
        let p = format!("[{i}] ");
        out.lines()
            .filter_map(|l| l.strip_prefix(&p))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    // qemu runs only the instances that are safe outside garm (see misbehave.c), each with a
    // directory of its own.
    let qemu_as = |i: usize| -> String {
        let dir = tmp().join(format!("misbehave-{i}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let idx = i.to_string();
        let q = qemu(
            &elf,
            &[dir.to_str().unwrap()],
            &[("GARM_INSTANCE", &idx), ("GARM_INSTANCES", "8")],
            b"",
        );
        let _ = std::fs::remove_dir_all(&dir);
        q.out()
    };
    for i in [1, 3, 6, 7] {
        assert_eq!(lines_of(i), qemu_as(i), "instance {i}");
    }
    // The flood: the same bytes, its 512 KiB line cut into 64 KiB lines.
    assert_eq!(lines_of(2).replace('\n', ""), qemu_as(2).replace('\n', ""));
    // Those that end early printed their honest first line (the known answer).
    assert_eq!(
        lines_of(0),
        "before: instance 0 sum=199990000\nafter: instance 0 sum=199990000 file=instance 0\n"
    );
    for (i, sum) in [(4, 999950000u64), (5, 1199940000)] {
        assert_eq!(lines_of(i), format!("before: instance {i} sum={sum}\n"));
    }
    assert!(
        r.stderr.contains("[4] garm: instruction limit reached"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("[5] garm: guest memory fault"),
        "{}",
        r.stderr
    );
}

#[test]
fn hostile_arguments_get_linuxs_answers() {
    // Each line was a difference from Linux before (consumed data, 0 for a bad pointer, ...).
    let r = same_as_qemu(&build("tests/os/smallerrs"), &[], &[], b"");
    assert!(
        r.out().contains("then read pipe: 4\ngot [data]\n"),
        "{}",
        r.out()
    );
}

#[test]
fn a_stdout_flood_keeps_garms_memory_bounded() {
    // Four instances writing as fast as they can for 3 s, into /dev/null: output streams out,
    // nothing accumulates.
    let elf = build("tests/os/yes");
    let o = Command::new(garm_bin())
        .args(["run", "--stats", "--instances", "4", "--timeout", "3"])
        .arg(&elf)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(124), "{stderr}");
    let peak = peak_mib(&stderr);
    assert!(peak < 500, "peak {peak} MiB: {stderr}");
}

#[test]
fn prctl_poll_and_select_match_qemu() {
    same_as_qemu(&build("tests/os/sysmore"), &[], &[], b"");
}

#[test]
fn signal_handlers_see_linuxs_frame_like_under_qemu() {
    let r = same_as_qemu(&build("tests/os/sigframe"), &[], &[], b"");
    assert!(r.out().contains("kill returned 4242\n"), "{}", r.out());
    assert!(
        r.out().contains("fpsimd record 1 x19 0x1919"),
        "{}",
        r.out()
    );
}

#[test]
fn a_guest_waiting_for_stdin_does_not_stop_the_timeout() {
    // garm never blocks on the host's stdin: the reader waits like a pipe reader.
    let elf = build("demos/cat");
    let t0 = Instant::now();
    let mut child = Command::new(garm_bin())
        .args(["run", "--timeout", "1"])
        .arg(&elf)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("still waiting on stdin 30 s after a 1 s timeout");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(stdin);
    assert_eq!(status.code(), Some(124));
}

#[test]
fn input_that_arrives_late_wakes_a_guest_polling_stdin() {
    use std::io::Write;
    let elf = build("tests/os/pollstdin");
    let run = |mut cmd: Command| -> String {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::thread::sleep(Duration::from_millis(500));
        stdin.write_all(b"late\n").unwrap();
        // Held open until the guest is done, so no hang-up races the wake-up.
        let o = child.wait_with_output().unwrap();
        drop(stdin);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let mut g = Command::new(garm_bin());
    g.arg("run").arg(&elf);
    let mut q = Command::new("qemu-aarch64");
    q.arg(&elf);
    let (g, q) = (run(g), run(q));
    assert_eq!(g, q);
    assert_eq!(g, "ppoll 1 revents 1 read 5 [late\n]\n");
}

/// A long run on a terminal shows a progress line, erased before anything else is written; with
/// stderr not a terminal nothing of it appears. (`script` gives garm a pseudo-terminal.)
#[test]
fn progress_line_only_on_a_terminal_and_never_mixed_with_output() {
    let elf = build("demos/spin");
    let cmd = format!(
        "{} run --instances 2 --timeout 2 {}",
        garm_bin(),
        elf.to_str().unwrap()
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("GARM_PROGRESS")
        .output()
        .expect("script (bsdutils)");
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains(" finished, "), "{tty}");
    // Whatever follows the last erase is real output, not a progress line.
    let last = tty.rsplit("\r\x1b[K").next().unwrap();
    assert!(last.starts_with("[0] garm: wall-clock timeout"), "{last:?}");
    assert!(!last.contains(" finished, "), "{last:?}");
    let piped = garm(
        &["--instances", "2", "--timeout", "2", elf.to_str().unwrap()],
        b"",
    );
    assert_eq!(piped.status, 124);
    assert!(!piped.stderr.contains(" finished, "), "{}", piped.stderr);
    assert!(!piped.stderr.contains('\x1b'), "{}", piped.stderr);
}

#[test]
fn accesses_spanning_two_pages_match_qemu() {
    // Each page of a guest lies in its own frame, so the two halves of such an access are
    // translated apart (integer, pair, SIMD, structure and console-write paths).
    let elf = build("tests/os/pagecross");
    let r = same_as_qemu(&elf, &[], &[], b"");
    assert!(r.out().ends_with("across\n"), "{}", r.out());
    // A pool over several bindings (on lavapipe's 128 MiB ones: three; frames are handed out
    // from the top, so this run's live in the last binding).
    same_as_qemu(&elf, &["--pool", "300M"], &[], b"");
    // Single-stepped (one step per dispatch), a crossing access still completes.
    let r = same_as_qemu(&elf, &[], &["4094", "4095"], b"");
    let trace = tmp().join("pagecross.trace");
    let t = garm(
        &[
            "--trace",
            trace.to_str().unwrap(),
            "--trace-limit",
            "200000",
            elf.to_str().unwrap(),
            "4094",
            "4095",
        ],
        b"",
    );
    assert_eq!((t.status, t.out()), (r.status, r.out()));
}

#[test]
fn a_fork_of_64_mib_copies_only_the_pages_written_after_it() {
    // The child writes every eighth page of 64 MiB its parent touched; neither sees the other's
    // writes (output equal to qemu's), and only those pages (and the parent's one) are copied.
    let elf = build("tests/os/bigfork");
    let r = same_as_qemu(&elf, &["--mem", "100M", "--stats"], &[], b"");
    let copies: u64 = r
        .stderr
        .split(" copied on write")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no copy count in {}", r.stderr));
    let pages = 64 * 256;
    assert!(
        (pages / 8..pages / 8 + 64).contains(&copies),
        "{copies} copies for {} pages written after the fork",
        pages / 8
    );
}

#[test]
fn memory_faults_reach_the_guests_handler_with_their_codes_like_under_qemu() {
    // SEGV_ACCERR (fixed by the handler with mprotect, the write then happens), SEGV_MAPERR
    // (left with siglongjmp), a store into text, SIGBUS for a misaligned atomic.
    musl_sysroot();
    let elf = build_with(
        "tests/os/segv",
        &["--libc", "musl", "--cflag", "-march=armv8.1-a"],
    );
    let r = same_as_qemu(&elf, &[], &[], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.out().contains("unmapped read: sig 11 code 1 offset 4104"),
        "{}",
        r.out()
    );
}

#[test]
fn map_shared_memory_stays_shared_across_fork_like_under_qemu() {
    let r = same_as_qemu(&build("tests/os/sharedmap"), &[], &[], b"");
    assert!(
        r.out().contains("shared 15 99 123, private 20"),
        "{}",
        r.out()
    );
}
