//! POSIX threads on garm against qemu-aarch64, with the two real libcs: atomics (LSE and
//! exclusives, the libcs' and hand-written) under contention from 8 threads, mutexes and condition variables, a barrier,
//! thread-local storage, join, detached threads, signals to one thread, fork from a thread, timed
//! waits, and how a process with threads ends (exit from a thread, pthread_exit from main).
//! Both libcs' pthread_create pass the same clone flags; glibc's arenas reserve 128 MiB each,
//! hence its larger --mem.

mod common;
use common::*;

fn mem_for(libc: &str) -> &'static str {
    if libc == "glibc" {
        "256M"
    } else {
        "64M"
    }
}

fn pthreads(libc: &str) {
    musl_sysroot();
    let elf = build_with("tests/threads/pthreads", &["--libc", libc]);
    same_as_qemu(&elf, &["--mem", mem_for(libc)], &[], b"");
}

#[test]
fn pthreads_musl() {
    pthreads("musl");
}

#[test]
fn pthreads_glibc() {
    pthreads("glibc");
}

/// LDXR/STXR, LDXP/STXP, LDADDAL, CASAL and a SWPA spinlock written out in assembly, 8 threads
/// (and 12 processes sharing memory) on one line at once: no update lost or torn.
#[test]
fn atomics_under_contention() {
    musl_sysroot();
    for libc in ["musl", "glibc"] {
        let elf = build_with("tests/threads/contend", &["--libc", libc]);
        same_as_qemu(&elf, &["--mem", mem_for(libc)], &[], b"");
        // Twelve processes on a MAP_SHARED page: slots in two workgroups, which lavapipe runs
        // on different CPU threads.
        same_as_qemu(&elf, &["--mem", mem_for(libc)], &["fork"], b"");
    }
}

fn threadlife(libc: &str) {
    musl_sysroot();
    let elf = build_with("tests/threads/threadlife", &["--libc", libc]);
    for args in [&[][..], &["exit"], &["mainexit"]] {
        same_as_qemu(&elf, &["--mem", mem_for(libc)], args, b"");
    }
}

#[test]
fn thread_lives_musl() {
    threadlife("musl");
}

#[test]
fn thread_lives_glibc() {
    threadlife("glibc");
}

/// Sixteen copies of the threaded program in one dispatch (each instance's threads take turns
/// within its address space while the instances run side by side): every copy prints what
/// qemu-aarch64 prints.
#[test]
fn pthreads_in_16_instances() {
    musl_sysroot();
    let elf = build_with("tests/threads/pthreads", &["--libc", "musl"]);
    let q = qemu(&elf, &[], &[], b"");
    assert_eq!(q.status, 0);
    let e = elf.to_string_lossy().into_owned();
    let g = garm(
        &[
            "--instances",
            "16",
            "--max-procs",
            "256",
            "--mem",
            "64M",
            &e,
        ],
        b"",
    );
    assert_eq!(g.status, 0, "{}", g.stderr);
    let out = g.out();
    for i in 0..16 {
        let mine: String = out
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("[{i}] ")))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(mine, q.out(), "instance {i}");
    }
}
