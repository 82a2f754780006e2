//! Clocks, sleep, uname, sysinfo, limits, random bytes, mmap and friends.

use super::*;

#[test]
fn clock_gettime_writes_a_timespec() {
    let mut t = T::new();
    assert_eq!(t.call(nr::CLOCK_GETTIME, &[0, BUF]), 0);
    let ts: Timespec = t.get_obj(BUF);
    assert!(ts.sec > 1_600_000_000);
    assert!((0..1_000_000_000).contains(&ts.nsec));
}

#[test]
fn clock_gettime_errors() {
    let mut t = T::new();
    assert_eq!(t.call(nr::CLOCK_GETTIME, &[0, 0]), EFAULT.ret(), "NULL");
    assert_eq!(t.call(nr::CLOCK_GETTIME, &[1, BAD]), EFAULT.ret());
    assert_eq!(t.call(nr::CLOCK_GETTIME, &[99, BUF]), EINVAL.ret());
}

#[test]
fn gettimeofday_accepts_null() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETTIMEOFDAY, &[0, 0]), 0);
    assert_eq!(t.call(nr::GETTIMEOFDAY, &[BUF, 0]), 0);
    let tv: Timeval = t.get_obj(BUF);
    assert!((0..1_000_000).contains(&tv.usec));
    assert_eq!(t.call(nr::GETTIMEOFDAY, &[BAD, 0]), EFAULT.ret());
}

#[test]
fn nanosleep_blocks_then_returns() {
    let mut t = T::new();
    t.put(BUF, bytemuck::bytes_of(&Timespec { sec: 0, nsec: 1 }));
    assert_eq!(t.sys(nr::NANOSLEEP, &[BUF, 0]), Sys::Block);
    assert!(t.k.sleeping());
    std::thread::sleep(std::time::Duration::from_millis(1));
    assert_eq!(t.call(nr::NANOSLEEP, &[BUF, 0]), 0);
    assert!(!t.k.sleeping());
}

#[test]
fn nanosleep_errors() {
    let mut t = T::new();
    t.put(
        BUF,
        bytemuck::bytes_of(&Timespec {
            sec: 0,
            nsec: 1_000_000_000,
        }),
    );
    assert_eq!(t.call(nr::NANOSLEEP, &[BUF, 0]), EINVAL.ret());
    t.put(BUF, bytemuck::bytes_of(&Timespec { sec: -1, nsec: 0 }));
    assert_eq!(t.call(nr::NANOSLEEP, &[BUF, 0]), EINVAL.ret());
    assert_eq!(t.call(nr::NANOSLEEP, &[BAD, 0]), EFAULT.ret());
}

#[test]
fn uname_names_linux_on_aarch64() {
    let mut t = T::new();
    assert_eq!(t.call(nr::UNAME, &[BUF]), 0);
    let u: Utsname = t.get_obj(BUF);
    assert_eq!(&u.fields[0][..6], b"Linux\0");
    assert_eq!(&u.fields[4][..8], b"aarch64\0");
    assert_eq!(t.call(nr::UNAME, &[BAD]), EFAULT.ret());
}

#[test]
fn sysinfo_counts_memory_and_processes() {
    let mut t = T::new();
    t.fork();
    assert_eq!(t.call(nr::SYSINFO, &[BUF]), 0);
    let s: Sysinfo = t.get_obj(BUF);
    assert_eq!(s.totalram, 4 * MEM as u64);
    assert_eq!((s.procs, s.mem_unit), (2, 1));
    assert_eq!(t.call(nr::SYSINFO, &[BAD]), EFAULT.ret());
}

#[test]
fn prlimit_reads_the_stack_limit_and_checks_pointers() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PRLIMIT64, &[0, 3, 0, BUF]), 0);
    let r: Rlimit = t.get_obj(BUF);
    assert_eq!(
        r.cur,
        crate::loader::process::stack_reserve(MEM as u64),
        "RLIMIT_STACK"
    );
    assert_eq!(t.call(nr::PRLIMIT64, &[0, 3, 0, BAD]), EFAULT.ret());
    assert_eq!(t.call(nr::PRLIMIT64, &[0, 3, BAD, 0]), EFAULT.ret());
    assert_eq!(t.call(nr::PRLIMIT64, &[0, 99, 0, BUF]), EINVAL.ret());
    assert_eq!(t.call(nr::PRLIMIT64, &[42, 3, 0, BUF]), ESRCH.ret());
}

#[test]
fn getrandom_fills_and_caps_the_length() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETRANDOM, &[BUF, 32, 0]), 32);
    assert!(t.get(BUF, 32).iter().any(|&b| b != 0));
    assert_eq!(t.call(nr::GETRANDOM, &[BUF, 1 << 20, 0]), 1 << 16);
    assert_eq!(t.call(nr::GETRANDOM, &[BAD, 8, 0]), EFAULT.ret());
}

#[test]
fn accepted_no_ops() {
    let mut t = T::new();
    for n in [
        nr::SCHED_YIELD,
        nr::SET_ROBUST_LIST,
        nr::MADVISE,
        nr::MPROTECT,
    ] {
        assert_eq!(
            t.call(n, &[0x10000, 4096, 0]),
            0,
            "{}",
            crate::os::syscalls::name(n)
        );
    }
    for n in [nr::GETUID, nr::GETEUID, nr::GETGID, nr::GETEGID] {
        assert_eq!(t.call(n, &[]), 0);
    }
}

#[test]
fn anonymous_mmap_grows_down_below_the_stack_and_is_zeroed() {
    let mut t = T::new();
    t.put(0xbf000, &[5; 16]);
    let a = t.call(nr::MMAP, &[0, 4096, 3, MAP_ANONYMOUS | 2, u64::MAX, 0]);
    assert_eq!(a, 0xbf000);
    assert_eq!(t.get(0xbf000, 16), [0; 16]);
    let b = t.call(nr::MMAP, &[0, 5000, 3, MAP_ANONYMOUS | 2, u64::MAX, 0]);
    assert_eq!(b, 0xbd000, "rounded up to two pages");
    assert_eq!(t.g.spaces().frame_counts().1, 0, "no frame before a touch");
}

#[test]
fn mmap_munmap_mprotect_at_high_addresses() {
    let mut t = T::new();
    let fixed = MAP_ANONYMOUS | MAP_FIXED | 2;
    for a in [0x7f12_3456_7000u64, 0x5555_5555_4000, 0xffff_ffff_f000] {
        assert_eq!(
            t.call(nr::MMAP, &[a, 4096, 3, fixed, u64::MAX, 0]),
            a as i64
        );
        t.put(a + 8, b"high");
        assert_eq!(t.get(a + 8, 4), b"high");
        assert_eq!(t.call(nr::MPROTECT, &[a, 4096, 1]), 0);
        assert_eq!(t.g.perm(0, a), Some(Perm::R));
        assert_eq!(t.call(nr::MUNMAP, &[a, 4096]), 0);
        assert_eq!(t.g.perm(0, a), None);
        assert_eq!(
            t.call(nr::MPROTECT, &[a, 4096, 3]),
            ENOMEM.ret(),
            "unmapped"
        );
    }
    // A hint where nothing is mapped is taken; MAP_FIXED_NOREPLACE refuses a mapped range.
    let hint = 0x2000_0000_0000u64;
    assert_eq!(
        t.call(nr::MMAP, &[hint, 8192, 3, MAP_ANONYMOUS | 2, u64::MAX, 0]),
        hint as i64
    );
    let noreplace = MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | 2;
    assert_eq!(
        t.call(nr::MMAP, &[hint + 4096, 4096, 3, noreplace, u64::MAX, 0]),
        EEXIST.ret()
    );
    // PROT_NONE reserves without rights; mprotect gives them later.
    let r = t.call(nr::MMAP, &[0, 4 * 4096, 0, MAP_ANONYMOUS | 2, u64::MAX, 0]) as u64;
    assert_eq!(t.g.perm(0, r), Some(Perm::NONE));
    assert_eq!(t.call(nr::MPROTECT, &[r, 4096, 3]), 0);
    t.put(r, b"ok");
    assert_eq!(t.get(r, 2), b"ok");
    assert_eq!(t.call(nr::MPROTECT, &[r + 1, 4096, 3]), EINVAL.ret());
    assert_eq!(t.call(nr::MUNMAP, &[r, 0]), EINVAL.ret());
    // mremap grows in place when the pages after are free.
    assert_eq!(t.call(nr::MUNMAP, &[r + 4096, 3 * 4096]), 0);
    assert_eq!(t.call(nr::MREMAP, &[r, 4096, 3 * 4096, 0]), r as i64);
    assert_eq!(t.get(r, 2), b"ok");
}

#[test]
fn mmap_errors() {
    let mut t = T::new();
    let anon = MAP_ANONYMOUS | 2;
    assert_eq!(
        t.call(nr::MMAP, &[0, 0, 3, anon, u64::MAX, 0]),
        EINVAL.ret(),
        "length 0"
    );
    assert_eq!(
        t.call(nr::MMAP, &[0, u64::MAX, 3, anon, u64::MAX, 0]),
        ENOMEM.ret()
    );
    assert_eq!(
        t.call(nr::MMAP, &[0, 8 << 20, 3, anon, u64::MAX, 0]),
        ENOMEM.ret()
    );
    assert_eq!(
        t.call(nr::MMAP, &[0, 4096, 3, 2, 77, 0]),
        EBADF.ret(),
        "bad fd"
    );
    assert_eq!(
        t.call(nr::MMAP, &[0, 4096, 3, 2, 3, 1]),
        EINVAL.ret(),
        "unaligned offset"
    );
}

#[test]
fn mmap_with_a_bad_fd_allocates_nothing() {
    let mut t = T::new();
    t.call(nr::MMAP, &[0, 4096, 3, 2, 77, 0]);
    let a = t.call(nr::MMAP, &[0, 4096, 3, MAP_ANONYMOUS | 2, u64::MAX, 0]);
    assert_eq!(a, 0xbf000);
}

#[test]
fn mmap_respects_a_lower_rlimit_as() {
    let mut t = T::new();
    let anon = MAP_ANONYMOUS | 2;
    assert!(t.call(nr::MMAP, &[0, 4096, 3, anon, u64::MAX, 0]) > 0);
    // RLIMIT_AS (9) at what is mapped now: one more page is refused.
    let used = t.g.mapped_bytes(0);
    t.put(BUF, &[used, used].map(u64::to_le_bytes).concat());
    assert_eq!(t.call(nr::PRLIMIT64, &[0, 9, BUF, 0]), 0);
    assert_eq!(
        t.call(nr::MMAP, &[0, 4096, 3, anon, u64::MAX, 0]),
        ENOMEM.ret()
    );
}

#[test]
fn mmap_fixed_places_the_mapping() {
    let mut t = T::new();
    let fixed = MAP_ANONYMOUS | MAP_FIXED | 2;
    assert_eq!(
        t.call(nr::MMAP, &[0x50000, 4096, 3, fixed, u64::MAX, 0]),
        0x50000
    );
    assert_eq!(
        t.call(nr::MMAP, &[0x50001, 4096, 3, fixed, u64::MAX, 0]),
        EINVAL.ret()
    );
    assert_eq!(
        t.call(nr::MMAP, &[0x1000, 4096, 3, fixed, u64::MAX, 0]),
        EINVAL.ret()
    );
    assert_eq!(
        t.call(nr::MMAP, &[1 << 48, 4096, 3, fixed, u64::MAX, 0]),
        EINVAL.ret()
    );
}

#[test]
fn file_mmap_copies_the_file_at_the_offset() {
    let mut t = T::new();
    let fd = t.open("/tmp/m", O_RDWR | O_CREAT, 0o644);
    let mut data = vec![1u8; 4096];
    data.extend_from_slice(b"second page");
    t.write_fd(fd, &data);
    let a = t.call(nr::MMAP, &[0, 4096, 1, 2, fd as u64, 4096]) as u64;
    assert_eq!(t.get(a, 12), b"second page\0");
}

#[test]
fn mmap_of_a_pipe_is_refused() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    assert_eq!(t.call(nr::MMAP, &[0, 4096, 1, 2, 3, 0]), EACCES.ret());
}

#[test]
fn mremap_grows_by_moving_and_keeps_the_bytes() {
    let mut t = T::new();
    let a = t.call(nr::MMAP, &[0, 4096, 3, MAP_ANONYMOUS | 2, u64::MAX, 0]) as u64;
    t.put(a, b"moved");
    assert_eq!(
        t.call(nr::MREMAP, &[a, 4096, 2048, 0]),
        a as i64,
        "shrink in place"
    );
    assert_eq!(
        t.call(nr::MREMAP, &[a, 4096, 8192, 0]),
        ENOMEM.ret(),
        "no MAYMOVE"
    );
    let b = t.call(nr::MREMAP, &[a, 4096, 8192, MREMAP_MAYMOVE]) as u64;
    assert_ne!(a, b);
    assert_eq!(t.get(b, 5), b"moved");
    assert_eq!(
        t.call(nr::MREMAP, &[a + 1, 4096, 8192, MREMAP_MAYMOVE]),
        EINVAL.ret()
    );
}

#[test]
fn mremap_of_an_address_outside_memory_is_efault() {
    // Found by `garm hostfuzz`: shrinking "in place" handed back any page-aligned address, even
    // one below the null guard or past 2^63 (which came back as i64::MAX).
    let mut t = T::new();
    let top = MEM as u64;
    for old in [0u64, 0x1000, top, top - 0x1000, 1 << 63, !0xfff] {
        let len = if old == top - 0x1000 { 0x2000 } else { 0x1000 };
        assert_eq!(
            t.call(nr::MREMAP, &[old, len, 0x1000, MREMAP_MAYMOVE]),
            EFAULT.ret(),
            "old {old:#x}"
        );
    }
}

#[test]
fn munmap_checks_its_arguments() {
    let mut t = T::new();
    assert_eq!(t.call(nr::MUNMAP, &[0x50000, 4096]), 0);
    assert_eq!(t.call(nr::MUNMAP, &[0x50001, 4096]), EINVAL.ret());
    assert_eq!(t.call(nr::MUNMAP, &[0x50000, 0]), EINVAL.ret());
}

#[test]
fn prctl_names_the_thread_and_refuses_the_rest() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PRCTL, &[PR_GET_NAME, BUF]), 0);
    assert_eq!(&t.get(BUF, 5), b"prog\0", "the program's base name");
    let n = t.cstr(BUF + 0x100, "a-rather-long-thread-name");
    assert_eq!(t.call(nr::PRCTL, &[PR_SET_NAME, n]), 0);
    assert_eq!(t.call(nr::PRCTL, &[PR_GET_NAME, BUF]), 0);
    assert_eq!(&t.get(BUF, 16), b"a-rather-long-t\0", "15 bytes and a NUL");
    assert_eq!(t.call(nr::PRCTL, &[9999, 0]), EINVAL.ret());
    assert_eq!(t.call(nr::PRCTL, &[PR_GET_NAME, BAD]), EFAULT.ret());
}

#[test]
fn rseq_is_enosys_as_on_a_kernel_without_it() {
    let mut t = T::new();
    assert_eq!(t.call(nr::RSEQ, &[BUF, 32, 0, 0]), ENOSYS.ret());
}

#[test]
fn one_cpu_affinity() {
    let mut t = T::new();
    t.put(BUF, &[0xff; 16]);
    assert_eq!(t.call(nr::SCHED_GETAFFINITY, &[0, 16, BUF]), 8);
    assert_eq!(t.get_obj::<u64>(BUF), 1);
    assert_eq!(t.call(nr::SCHED_GETAFFINITY, &[0, 4, BUF]), EINVAL.ret());
    assert_eq!(t.call(nr::SCHED_GETAFFINITY, &[77, 8, BUF]), ESRCH.ret());
    assert_eq!(t.call(nr::SCHED_SETAFFINITY, &[0, 8, BUF]), 0);
    t.put(BUF, &2u64.to_le_bytes());
    assert_eq!(
        t.call(nr::SCHED_SETAFFINITY, &[0, 8, BUF]),
        EINVAL.ret(),
        "no CPU 0"
    );
}

#[test]
fn resource_limits_report_garms_bounds_and_nofile_is_enforced() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETRLIMIT, &[rlimit::STACK as u64, BUF]), 0);
    let stack: Rlimit = t.get_obj(BUF);
    assert_eq!(stack.cur, crate::loader::process::stack_reserve(MEM as u64));
    assert_eq!(t.call(nr::GETRLIMIT, &[rlimit::NOFILE as u64, BUF]), 0);
    assert_eq!(t.get_obj::<Rlimit>(BUF).cur, MAX_FDS as u64);
    assert_eq!(t.call(nr::GETRLIMIT, &[99, BUF]), EINVAL.ret());
    // Lower NOFILE to 5: fds 3 and 4, then EMFILE.
    t.put(BUF, bytemuck::bytes_of(&Rlimit { cur: 5, max: 5 }));
    assert_eq!(t.call(nr::SETRLIMIT, &[rlimit::NOFILE as u64, BUF]), 0);
    assert_eq!(t.open("/tmp/a", O_RDWR | O_CREAT, 0o644), 3);
    assert_eq!(t.open("/tmp/b", O_RDWR | O_CREAT, 0o644), 4);
    assert_eq!(t.open("/tmp/c", O_RDWR | O_CREAT, 0o644), EMFILE.ret());
    // cur above max, and a hard limit above garm's table.
    t.put(BUF, bytemuck::bytes_of(&Rlimit { cur: 9, max: 5 }));
    assert_eq!(
        t.call(nr::SETRLIMIT, &[rlimit::NOFILE as u64, BUF]),
        EINVAL.ret()
    );
    t.put(
        BUF,
        bytemuck::bytes_of(&Rlimit {
            cur: 5,
            max: 1 << 20,
        }),
    );
    assert_eq!(
        t.call(nr::SETRLIMIT, &[rlimit::NOFILE as u64, BUF]),
        EPERM.ret()
    );
    // prlimit64 gives the old value and sets the new one; a fork inherits it.
    t.put(BUF, bytemuck::bytes_of(&Rlimit { cur: 100, max: 200 }));
    assert_eq!(
        t.call(nr::PRLIMIT64, &[0, rlimit::CPU as u64, BUF, BUF2]),
        0
    );
    assert_eq!(t.get_obj::<Rlimit>(BUF2).cur, u64::MAX);
    let c = t.fork();
    assert_eq!(
        t.call_as(c, nr::PRLIMIT64, &[0, rlimit::CPU as u64, 0, BUF2]),
        0
    );
    let g: &mut dyn Guest = &mut t.g;
    let child: Rlimit = g.read_obj(1, BUF2).unwrap();
    assert_eq!(child, Rlimit { cur: 100, max: 200 });
}

#[test]
fn statfs_of_garms_tree_is_a_tmpfs_sized_by_the_fs_limit() {
    let mut t = T::new();
    let p = t.cstr(BUF + 0x200, "/tmp");
    assert_eq!(t.call(nr::STATFS, &[p, BUF]), 0);
    let s: Statfs = t.get_obj(BUF);
    assert_eq!((s.ty, s.bsize, s.namelen), (TMPFS_MAGIC, 4096, 255));
    assert_eq!(s.blocks, t.k.vfs.limit / 4096);
    let fd = t.open("/tmp", O_DIRECTORY, 0) as u64;
    assert_eq!(t.call(nr::FSTATFS, &[fd, BUF2]), 0);
    assert_eq!(t.get_obj::<Statfs>(BUF2).ty, TMPFS_MAGIC);
    let p = t.cstr(BUF + 0x200, "/nope");
    assert_eq!(t.call(nr::STATFS, &[p, BUF]), ENOENT.ret());
    assert_eq!(t.call(nr::FSTATFS, &[99, BUF]), EBADF.ret());
}

#[test]
fn fsync_chmod_and_identity_calls() {
    let mut t = T::new();
    let fd = t.open("/tmp/f", O_RDWR | O_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::FSYNC, &[fd]), 0);
    assert_eq!(t.call(nr::FDATASYNC, &[fd]), 0);
    assert_eq!(t.call(nr::FSYNC, &[1]), EINVAL.ret(), "the console");
    assert_eq!(t.call(nr::FSYNC, &[50]), EBADF.ret());
    assert_eq!(t.call(nr::SYNC, &[]), 0);
    assert_eq!(t.call(nr::FCHMOD, &[fd, 0o600]), 0);
    assert_eq!(t.call(nr::FSTAT, &[fd, BUF]), 0);
    assert_eq!(t.get_obj::<Stat>(BUF).mode & 0o7777, 0o600);
    let p = t.cstr(BUF + 0x200, "/tmp/f");
    assert_eq!(t.call(nr::FCHMODAT, &[AT_FDCWD as u64, p, 0o751, 0]), 0);
    assert_eq!(t.call(nr::FSTAT, &[fd, BUF]), 0);
    assert_eq!(t.get_obj::<Stat>(BUF).mode, crate::os::vfs::S_IFREG | 0o751);
    t.put(BUF, &[0xff; 12]);
    assert_eq!(t.call(nr::GETRESUID, &[BUF, BUF + 4, BUF + 8]), 0);
    assert_eq!(t.get(BUF, 12), [0; 12]);
    assert_eq!(t.call(nr::GETRESGID, &[BUF, BUF + 4, BAD]), EFAULT.ret());
    assert_eq!(t.call(nr::GETSID, &[0]), 1);
    assert_eq!(t.call(nr::SETSID, &[]), EPERM.ret(), "a group leader");
    let c = t.fork();
    assert_eq!(t.call_as(c, nr::SETSID, &[]), c);
    assert_eq!(t.call_as(c, nr::GETPGID, &[0]), c);
}

#[test]
fn clocks_times_and_rusage() {
    let mut t = T::new();
    assert_eq!(t.call(nr::CLOCK_GETRES, &[1, BUF]), 0);
    assert_eq!(t.get_obj::<Timespec>(BUF), Timespec { sec: 0, nsec: 1 });
    assert_eq!(t.call(nr::CLOCK_GETRES, &[1, 0]), 0);
    assert_eq!(t.call(nr::CLOCK_GETRES, &[99, BUF]), EINVAL.ret());
    assert!(t.call(nr::TIMES, &[BUF]) >= 0);
    assert!(t.call(nr::TIMES, &[0]) >= 0);
    assert_eq!(t.call(nr::TIMES, &[BAD]), EFAULT.ret());
    assert_eq!(t.call(nr::GETRUSAGE, &[0, BUF]), 0);
    assert_eq!(
        t.call(nr::GETRUSAGE, &[u64::MAX, BUF]),
        0,
        "RUSAGE_CHILDREN"
    );
    assert_eq!(t.call(nr::GETRUSAGE, &[7, BUF]), EINVAL.ret());
    t.put(BUF, bytemuck::bytes_of(&Timespec { sec: 0, nsec: 1 }));
    assert_eq!(t.sys(nr::CLOCK_NANOSLEEP, &[1, 0, BUF, 0]), Sys::Block);
    std::thread::sleep(std::time::Duration::from_millis(1));
    assert_eq!(t.call(nr::CLOCK_NANOSLEEP, &[1, 0, BUF, 0]), 0);
    // An absolute time in the past returns at once.
    assert_eq!(t.call(nr::CLOCK_NANOSLEEP, &[0, 1, BUF, 0]), 0);
    assert_eq!(t.call(nr::CLOCK_NANOSLEEP, &[99, 0, BUF, 0]), EINVAL.ret());
}
