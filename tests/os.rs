//! The guest OS: processes, pipes, files, mounts and the initial stack, each checked against
//! qemu-aarch64 on the same ELF (or against known answers where qemu-user cannot follow: it
//! cannot exec an AArch64 ELF without binfmt, and it runs on the host's own filesystem).

mod common;
use common::*;

#[test]
fn pipeline_with_fork_pipe_dup_and_execve() {
    pipeline_same_as_qemu(&build("tests/os/pipeline"));
}

#[test]
fn sixty_four_workers_report_through_a_pipe() {
    let elf = build("tests/os/workers");
    let g = garm(
        &[
            "--max-procs",
            "80",
            "--mem",
            "1M",
            elf.to_str().unwrap(),
            "64",
        ],
        b"",
    );
    let q = qemu(&elf, &["64"], &[], b"");
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(g.out().starts_with("64 results, 64 reaped"), "{}", g.out());
}

#[test]
fn file_round_trips_match_qemu() {
    let elf = build("tests/os/files");
    let g = garm(&[elf.to_str().unwrap(), "/tmp"], b"");
    let dir = tmp().join(format!("files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let q = qemu(&elf, &[dir.to_str().unwrap()], &[], b"");
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(g.out().contains("listing: f0 f1 f2 sub"), "{}", g.out());
}

#[test]
fn argv_envp_and_auxv_match_qemu() {
    let elf = build("tests/os/showargs");
    let e = elf.to_str().unwrap();
    let r = garm(&[e, "one", "two three"], b"");
    let q = qemu(&elf, &["one", "two three"], &[], b"");
    assert_eq!(env_sorted(&r.out()), env_sorted(&q.out()));
    for key in [
        "AT_PAGESZ 4096",
        "AT_PHNUM",
        "AT_ENTRY 0x10000",
        "AT_RANDOM present",
        "env HOME=/",
    ] {
        assert!(r.out().contains(key), "{key}: {}", r.out());
    }
}

#[test]
fn environment_options_set_and_unset() {
    let elf = build("tests/os/showargs");
    let g = garm(
        &[
            "-E",
            "GREETING=hi there",
            "-U",
            "LANG",
            elf.to_str().unwrap(),
        ],
        b"",
    );
    assert!(g.out().contains("env GREETING=hi there"), "{}", g.out());
    assert!(!g.out().contains("LANG="), "{}", g.out());
}

#[test]
fn fork_bomb_stops_at_the_process_limit() {
    let elf = build("tests/os/forkbomb");
    let g = garm(&["--max-procs", "12", elf.to_str().unwrap()], b"");
    assert_eq!(g.status, 0, "{}", g.stderr);
    assert_eq!(
        g.out(),
        "fork failed with EAGAIN after 11 children; reaped 11\n"
    );
    assert!(
        g.stderr.contains("process limit of 12 reached"),
        "{}",
        g.stderr
    );
}

#[test]
fn mounts_write_through_and_read_only_refuses() {
    let elf = build("tests/os/mounts");
    let base = tmp().join(format!("mnt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("rw")).unwrap();
    std::fs::create_dir_all(base.join("ro")).unwrap();
    std::fs::write(base.join("ro/in.txt"), "host data\n").unwrap();
    let rw = format!("{}:/rw", base.join("rw").display());
    let ro = format!("{}:/ro:ro", base.join("ro").display());
    let g = garm(
        &["--mount", &rw, "--mount", &ro, elf.to_str().unwrap()],
        b"",
    );
    assert_eq!(g.status, 0, "{}", g.stderr);
    assert_eq!(
        g.out(),
        "rw open ok\nro read [host data]\nro create -1 errno 30 (EROFS=30)\nro write -1 errno 30\nescape -1 errno 2\n"
    );
    assert_eq!(
        std::fs::read_to_string(base.join("rw/out.txt")).unwrap(),
        "written by the guest\n"
    );
    assert!(!base.join("ro/new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(base.join("ro/in.txt")).unwrap(),
        "host data\n"
    );
}

#[test]
fn redirected_stdout_waitid_mremap_uname_match_qemu() {
    let elf = build("tests/os/misc");
    let g = garm(&[elf.to_str().unwrap(), "/tmp"], b"");
    let dir = tmp().join(format!("misc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let q = qemu(&elf, &[dir.to_str().unwrap()], &[], b"");
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(
        g.out()
            .contains("file has 50 bytes: this line goes to the file"),
        "{}",
        g.out()
    );
}

#[test]
fn strace_shows_host_syscalls_with_arguments() {
    let elf = build("tests/os/files");
    let g = garm(&["--strace", elf.to_str().unwrap(), "/tmp"], b"");
    assert!(g.stderr.contains(r#"chdir("/tmp") = 0"#), "{}", g.stderr);
    assert!(
        g.stderr.contains(r#"openat(-100,"a.txt",0x242,0o644) = 3"#),
        "{}",
        g.stderr
    );
    assert!(g.stderr.contains("errno=2 (ENOENT)"), "{}", g.stderr);
}

#[test]
fn signal_handlers_ignore_and_default_actions_match_qemu() {
    let r = same_as_qemu(&build("tests/os/signals"), &[], &[], b"");
    assert_eq!(
        r.status,
        128 + 10,
        "the last raise(SIGUSR1) kills with the default action"
    );
    assert!(
        r.out().contains("usr1 handled: 30\n") && r.out().contains("usr2 from child: 12\n"),
        "{}",
        r.out()
    );
}

#[test]
fn hostile_guest_inputs_get_errors_not_crashes_or_escapes() {
    let elf = build("tests/os/hostile");
    let base = tmp().join(format!("hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("m")).unwrap();
    let outside = base.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("passwd"), "secret\n").unwrap();
    std::os::unix::fs::symlink(&outside, base.join("m/out")).unwrap();
    std::os::unix::fs::symlink("../outside/victim", base.join("m/rel")).unwrap();
    let mount = format!("{}:/m", base.join("m").display());
    let g = garm(&["--mount", &mount, elf.to_str().unwrap()], b"");
    assert_eq!(g.status, 0, "{}", g.stderr);
    let expect = "write len 0xfffffffc: -14\nwrite len 2^40: -14\nmmap fixed at the top: -22\nmmap 2^62: -12\n\
                  pwrite at 2^40: -27\nftruncate 2^62: -27\nkill 200: -22\nsyscall 293: -38\nsyscall 293 again: -38\nread at EOF into the null page: 0\n\
                  open link out of mount, O_NOFOLLOW: -40\nopen link out of mount: -13\n\
                  create through relative link: -40\ndc zva child: signal 11\nstill here\n";
    assert_eq!(g.out(), expect);
    assert!(
        !outside.join("victim").exists(),
        "a guest created a host file outside its mount"
    );
}

#[test]
fn vfork_parent_resumes_once_with_the_child_pid() {
    let elf = build("tests/os/vfork");
    let r = same_as_qemu(&elf, &[], &[], b"");
    assert!(r.out().ends_with("no stray children: 1\n"), "{}", r.out());
    // With exec in the child (garm only: qemu-user cannot exec an AArch64 ELF).
    let g = garm(&[elf.to_str().unwrap(), "exec"], b"");
    assert_eq!(
        g.out(),
        "round 0: child reaped, status 9\nround 1: child reaped, status 9\nround 2: child reaped, status 9\nno stray children: 1\n"
    );
}

#[test]
fn sa_restart_resumes_a_blocked_read_and_its_absence_gives_eintr() {
    // The known answer is the reference (the child signals a parent it knows is blocked, 100 ms
    // later); qemu is checked against it too, not taken as the reference.
    let want = "SA_RESTART: read 4 errno 0 handler 10\nSA_RESTART: then [data]\nno restart: read -1 errno 4 handler 10\nno restart: then [data]\n";
    let elf = build("tests/os/restart");
    let g = garm(&[elf.to_str().unwrap()], b"");
    assert_eq!(g.out(), want, "garm stderr: {}", g.stderr);
    assert_eq!(g.status, 0);
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(q.out(), want, "qemu-aarch64 disagrees with Linux's answer");
}

#[test]
fn nanosleep_blocks_only_its_own_process() {
    let r = same_as_qemu(&build("tests/os/sleep"), &[], &[], b"");
    assert!(
        r.out()
            .starts_with("child: 2666466670000\nparent: nanosleep 0\n"),
        "{}",
        r.out()
    );
}

#[test]
fn stdio_on_files_matches_qemu() {
    // fopen modes, buffered reads and writes, seeking, r+ switching, append, tmpfile, remove.
    let elf = build("tests/os/stdiofiles");
    let dir = tmp().join(format!("stdiofiles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let g = garm(&[elf.to_str().unwrap(), "/tmp"], b"");
    let q = qemu(&elf, &[dir.to_str().unwrap()], &[], b"");
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert!(
        g.out().contains("after r+ [line ONEhello\n]"),
        "{}",
        g.out()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// MRS of the ID registers reads what Linux shows at EL0: the fields Linux fixes equal
/// qemu-aarch64's (it emulates the same view), the feature fields say what garm executes, and
/// AT_HWCAP says the same, so libcs choose code garm runs.
#[test]
fn id_registers_and_hwcap_are_linuxs_view_of_what_garm_executes() {
    let elf = build("tests/os/idregs");
    let g = garm(&[elf.to_str().unwrap()], b"");
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(g.status, 0, "garm stderr: {}", g.stderr);
    let parse = |s: &str| -> Vec<(String, u64)> {
        s.lines()
            .map(|l| {
                let (k, v) = l.split_once(' ').expect("name value");
                (k.to_string(), u64::from_str_radix(v.trim(), 16).unwrap())
            })
            .collect()
    };
    let (gv, qv) = (parse(&g.out()), parse(&q.out()));
    assert_eq!(gv.len(), qv.len(), "{}", g.out());
    // (register, the bits where garm differs from qemu's max CPU by design, garm's value there).
    let by_design: &[(&str, u64, u64)] = &[
        ("S3_0_C0_C0_0", !0, 0x000f_0000), // MIDR: software implementer, ID-register arch
        ("S3_0_C0_C4_0", !0xff, 0), // PFR0: FP and AdvSIMD without FP16 arithmetic; no SVE, DIT
        ("S3_0_C0_C4_1", !0, 0),    // PFR1: no BTI, SSBS, MTE
        ("S3_0_C0_C4_4", !0, 0),    // ZFR0: no SVE
        ("S3_0_C0_C4_5", !0, 0),    // SMFR0: no SME
        ("S3_0_C0_C6_0", !0, 0x0020_0000), // ISAR0: LSE (Atomic 2); no AES, SHA, CRC32, ...
        ("S3_0_C0_C6_1", !0, 0x0010_0000), // ISAR1: LRCPC 1 (LDAPR; not LDAPUR)
        ("S3_0_C0_C7_0", 0xfff << 32, 0x111 << 32), // MMFR0: TGran*_2 as Linux >= 5.12 shows
        ("AT_HWCAP", !0, 1 | 1 << 1 | 1 << 8 | 1 << 11 | 1 << 15), // FP, ASIMD, ATOMICS, CPUID, LRCPC
        ("AT_HWCAP2", !0, 0),
    ];
    for ((gk, g), (qk, q)) in gv.iter().zip(&qv) {
        assert_eq!(gk, qk);
        let (mask, want) = by_design
            .iter()
            .find(|d| d.0 == gk)
            .map_or((0, 0), |d| (d.1, d.2));
        assert_eq!(g & !mask, q & !mask, "{gk}: garm {g:#x}, qemu {q:#x}");
        assert_eq!(g & mask, want, "{gk}: garm {g:#x}");
    }
}

#[test]
fn mmap_patterns_at_high_addresses_match_qemu() {
    // MAP_FIXED at 0x7f.., 0x55.. and 0x4000_0000_0000, munmap of a middle page, MAP_FIXED over
    // a mapping, PROT_NONE opened with mprotect, mremap growing and shrinking, a file mapping.
    let r = same_as_qemu(&build("tests/os/mmaps"), &[], &[], b"");
    assert!(
        r.out().contains("fixed 1 at the address asked 1, zero 1"),
        "{}",
        r.out()
    );
}

#[test]
fn a_socketpair_between_parent_and_child() {
    // Built against glibc (the runtime has no socket calls): requests and replies both ways,
    // MSG_DONTWAIT, MSG_NOSIGNAL, poll, shutdown's end of file, EPIPE, ENOTSOCK.
    let elf = build_with("tests/os/socketpair", &["--libc", "glibc"]);
    let r = same_as_qemu(&elf, &[], &[], b"");
    assert!(r.out().contains("pong<ping 3>") && r.out().contains("after shutdown: bye"));
}

#[test]
fn a_program_counts_one_cpu_every_way() {
    // Known answers (qemu-user shows the host's CPUs): garm is one CPU to each process, and
    // /proc/cpuinfo lists the features AT_HWCAP claims.
    let elf = build_with("tests/os/cpus", &["--libc", "glibc"]);
    let r = garm(&[elf.to_str().unwrap()], b"");
    assert_eq!(
        r.out(),
        "affinity 1\nonline 1 conf 1\ncpuinfo processors 1\nFeatures\t: fp asimd atomics cpuid lrcpc\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0);
}

#[test]
fn proc_self_files_and_etc_as_programs_read_them() {
    // Known answers (qemu-user shows its own /proc/self/status and the host's /etc); the
    // command line also against qemu, which makes /proc/self/cmdline for its guest too.
    let elf = build_with("tests/os/procself", &["--libc", "glibc"]);
    let path = elf.to_str().unwrap();
    let r = garm(&["-E", "PROCSELF_TEST=yes", path, "one", "two words"], b"");
    let q = qemu(&elf, &["one", "two words"], &[], b"");
    let first = |s: &str| s.lines().next().unwrap_or("").to_string();
    assert_eq!(first(&r.out()), first(&q.out()), "cmdline");
    assert_eq!(
        r.out().lines().skip(1).collect::<Vec<_>>().join("\n"),
        "environ has PROCSELF_TEST: yes\n\
         status: name ok, pid ok, ppid ok, umask ok, threads 1\n\
         maps: stack ok, code ok, data ok\n\
         meminfo: total ok, free <= total ok\n\
         uptime: ok\n\
         status is a regular file: yes\n\
         written: refused\n\
         /etc: passwd ok, hosts ok, group ok",
        "{}",
        r.stderr
    );
}
