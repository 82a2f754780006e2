//! fork, exit, wait4/waitid, execve, process groups and ids.

use super::*;

fn exit_as(t: &mut T, pid: Pid, code: u64) {
    assert_eq!(t.sys_as(pid, nr::EXIT_GROUP, &[code]), Sys::NoReturn);
}

#[test]
fn fork_makes_a_child_in_a_free_slot() {
    let mut t = T::new();
    t.g.set_reg(0, 5, 0x55);
    let c = t.fork();
    assert_eq!(c, 2);
    let p = t.k.proc(c);
    assert_eq!((p.ppid, p.slot, p.pgid), (1, Some(1), 1));
    assert_eq!(t.g.reg(1, 0), 0, "the child sees 0");
    assert_eq!(t.g.reg(1, 5), 0x55, "registers are copied");
    assert_eq!(t.g.status(1), Some(Stop::Running));
}

#[test]
fn fork_copies_memory_and_shares_open_files() {
    let mut t = T::new();
    t.put(BUF, b"parent data");
    let fd = t.open("/tmp/shared", O_RDWR | O_CREAT, 0o644);
    let c = t.fork();
    assert_eq!(t.g.read_mem(1, BUF, 11).unwrap(), b"parent data");
    t.g.write_mem(1, BUF2, b"kid").unwrap();
    assert_eq!(t.call_as(c, nr::WRITE, &[fd as u64, BUF2, 3]), 3);
    assert_eq!(
        t.call(nr::LSEEK, &[fd as u64, 0, 1]),
        3,
        "one shared offset"
    );
}

#[test]
fn fork_with_a_new_stack_sets_sp() {
    let mut t = T::new();
    let c = t.call(nr::CLONE, &[17, 0x80000]);
    assert_eq!(t.g.reg(t.k.proc(c).slot.unwrap(), 31), 0x80000);
}

#[test]
fn fork_without_a_free_slot_is_eagain() {
    let mut t = T::new();
    for _ in 0..3 {
        assert!(t.fork() > 0);
    }
    assert_eq!(t.fork(), EAGAIN.ret());
}

#[test]
fn a_shared_memory_process_that_is_no_thread_is_enosys() {
    let mut t = T::new();
    assert_eq!(t.call(nr::CLONE, &[CLONE_VM | 17, 0]), ENOSYS.ret());
}

#[test]
fn wait_reaps_an_exited_child() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 7);
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, BUF, 0, 0]), c);
    let ws: i32 = t.get_obj(BUF);
    assert_eq!(ws, 7 << 8);
    assert!(!t.k.procs.contains_key(&c), "reaped");
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, BUF, 0, 0]), ECHILD.ret());
}

#[test]
fn wait_blocks_while_children_run_and_wnohang_returns_zero() {
    let mut t = T::new();
    t.fork();
    assert_eq!(t.sys(nr::WAIT4, &[u64::MAX, 0, 0, 0]), Sys::Block);
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, 0, WNOHANG, 0]), 0);
}

#[test]
fn wait_without_children_is_echild() {
    let mut t = T::new();
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, 0, 0, 0]), ECHILD.ret());
    assert_eq!(t.call(nr::WAIT4, &[42, 0, 0, 0]), ECHILD.ret());
}

#[test]
fn wait_for_the_most_negative_pid_or_a_negative_id_is_an_error() {
    // Found by `garm hostfuzz`: wait4(i64::MIN) negated the pid (an overflow panic in debug
    // builds); waitid with a negative P_PID/P_PGID id is EINVAL, as in Linux.
    let mut t = T::new();
    t.fork();
    assert_eq!(
        t.call(nr::WAIT4, &[i64::MIN as u64, 0, WNOHANG, 0]),
        ECHILD.ret()
    );
    for (idtype, id) in [
        (1u64, 0u64),
        (1, u64::MAX),
        (1, i64::MIN as u64),
        (2, i64::MIN as u64),
    ] {
        assert_eq!(
            t.call(nr::WAITID, &[idtype, id, 0, WNOHANG | 4]),
            EINVAL.ret(),
            "idtype {idtype} id {id:#x}"
        );
    }
}

#[test]
fn wait_with_bad_options_is_einval() {
    let mut t = T::new();
    t.fork();
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, 0, 0x1000, 0]), EINVAL.ret());
}

#[test]
fn wait_for_a_specific_pid() {
    let mut t = T::new();
    let a = t.fork();
    let b = t.fork();
    exit_as(&mut t, a, 1);
    exit_as(&mut t, b, 2);
    assert_eq!(t.call(nr::WAIT4, &[b as u64, BUF, 0, 0]), b);
    assert_eq!(t.get_obj::<i32>(BUF), 2 << 8);
}

#[test]
fn wait_status_of_a_killed_child_is_the_signal() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(t.call(nr::KILL, &[c as u64, sig::SIGTERM as u64]), 0);
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, BUF, 0, 0]), c);
    assert_eq!(t.get_obj::<i32>(BUF), sig::SIGTERM);
}

#[test]
fn wait_into_a_bad_status_pointer_is_efault() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 0);
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, BAD, 0, 0]), EFAULT.ret());
}

#[test]
fn waitid_reports_through_siginfo() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 3);
    assert_eq!(t.call(nr::WAITID, &[1, c as u64, BUF, 4]), 0);
    let si: SiginfoChld = t.get_obj(BUF);
    assert_eq!(
        (si.signo, si.code, si.pid, si.status),
        (sig::SIGCHLD, CLD_EXITED, c as i32, 3)
    );
}

#[test]
fn waitid_wnowait_leaves_the_zombie() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 0);
    assert_eq!(t.call(nr::WAITID, &[0, 0, BUF, 4 | WNOWAIT]), 0);
    assert!(t.k.procs.contains_key(&c));
    assert_eq!(t.call(nr::WAITID, &[0, 0, BUF, 4]), 0);
    assert!(!t.k.procs.contains_key(&c));
}

#[test]
fn waitid_killed_child_and_bad_idtype() {
    let mut t = T::new();
    let c = t.fork();
    t.call(nr::KILL, &[c as u64, sig::SIGKILL as u64]);
    assert_eq!(t.call(nr::WAITID, &[0, 0, BUF, 4]), 0);
    let si: SiginfoChld = t.get_obj(BUF);
    assert_eq!((si.code, si.status), (CLD_KILLED, sig::SIGKILL));
    assert_eq!(t.call(nr::WAITID, &[9, 0, BUF, 4]), EINVAL.ret());
}

#[test]
fn waitid_wnohang_with_running_children_zeroes_siginfo() {
    let mut t = T::new();
    t.fork();
    t.put(BUF, &[0xff; 128]);
    assert_eq!(t.call(nr::WAITID, &[0, 0, BUF, 4 | WNOHANG]), 0);
    assert_eq!(t.get_obj::<SiginfoChld>(BUF).pid, 0);
}

#[test]
fn exit_frees_the_slot_and_keeps_a_zombie_for_the_parent() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 9);
    assert_eq!(t.k.slots[1], None);
    assert_eq!(t.g.status(1), Some(Stop::Exited));
    assert_eq!(t.k.proc(c).state, PState::Zombie(9 << 8));
}

#[test]
fn orphans_are_reaped_when_they_exit() {
    let mut t = T::new();
    let c = t.fork();
    let gc = t.call_as(c, nr::CLONE, &[17, 0]);
    exit_as(&mut t, c, 0);
    assert_eq!(t.k.proc(gc).ppid, 0, "reparented");
    exit_as(&mut t, gc, 0);
    assert!(!t.k.procs.contains_key(&gc), "nobody waits for it");
}

#[test]
fn a_zombie_is_reaped_when_its_parent_exits_without_waiting() {
    let mut t = T::new();
    let c = t.fork();
    let gc = t.call_as(c, nr::CLONE, &[17, 0]);
    exit_as(&mut t, gc, 0);
    assert!(
        matches!(t.k.proc(gc).state, PState::Zombie(_)),
        "c may wait"
    );
    exit_as(&mut t, c, 0);
    assert!(!t.k.procs.contains_key(&gc), "nobody waits for it now");
}

#[test]
fn exit_code_is_truncated_to_a_byte() {
    let mut t = T::new();
    let c = t.fork();
    exit_as(&mut t, c, 0x1234);
    assert_eq!(t.k.proc(c).state, PState::Zombie(0x34 << 8));
}

#[test]
fn exit_closes_pipe_ends() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    let c = t.fork();
    t.call(nr::CLOSE, &[4]);
    exit_as(&mut t, c, 0);
    assert_eq!(t.read_fd(3, 4).unwrap(), b"", "no writer left: EOF");
}

#[test]
fn vfork_blocks_the_parent_until_the_child_exits() {
    let mut t = T::new();
    assert_eq!(
        t.sys(nr::CLONE, &[CLONE_VM | CLONE_VFORK | 17, 0]),
        Sys::Block
    );
    assert_eq!(t.g.reg(0, 0), 2, "the parent's result is ready");
    assert!(t.k.in_vfork(1));
    exit_as(&mut t, 2, 0);
    assert!(!t.k.in_vfork(1));
    assert_eq!(t.k.proc(1).state, PState::Running);
}

#[test]
fn ids() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETPID, &[]), 1);
    assert_eq!(t.call(nr::GETTID, &[]), 1);
    assert_eq!(t.call(nr::GETPPID, &[]), 0);
    assert_eq!(t.call(nr::SET_TID_ADDRESS, &[BUF]), 1);
    let c = t.fork();
    assert_eq!(t.call_as(c, nr::GETPID, &[]), c);
    assert_eq!(t.call_as(c, nr::GETPPID, &[]), 1);
}

#[test]
fn process_groups() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(t.call(nr::GETPGID, &[0]), 1);
    assert_eq!(
        t.call(nr::SETPGID, &[c as u64, 0]),
        0,
        "the child leads its own group"
    );
    assert_eq!(t.call(nr::GETPGID, &[c as u64]), c);
    assert_eq!(
        t.call(nr::SETPGID, &[c as u64, 1]),
        0,
        "back to an existing group"
    );
    assert_eq!(t.call(nr::GETPGID, &[c as u64]), 1);
}

#[test]
fn setpgid_errors() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(t.call(nr::SETPGID, &[0, 999]), EPERM.ret(), "no such group");
    assert_eq!(
        t.call(nr::SETPGID, &[55, 0]),
        ESRCH.ret(),
        "no such process"
    );
    assert_eq!(
        t.call_as(c, nr::SETPGID, &[1, 0]),
        ESRCH.ret(),
        "not a child"
    );
    assert_eq!(
        t.call(nr::SETPGID, &[0, u64::MAX]),
        EINVAL.ret(),
        "negative group"
    );
    assert_eq!(t.call(nr::GETPGID, &[77]), ESRCH.ret());
}

fn put_argv(t: &mut T, base: u64, n: usize) -> u64 {
    let s = t.cstr(base, "arg");
    let ptrs: Vec<u64> = (0..n).map(|_| s).chain([0]).collect();
    t.put(base + 0x10, bytemuck::cast_slice(&ptrs));
    base + 0x10
}

#[test]
fn execve_loads_a_new_program() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    let path = t.cstr(BUF, "/tmp/prog");
    let argv = put_argv(&mut t, BUF + 0x100, 2);
    let fd = t.open("/tmp/keep", O_RDWR | O_CREAT, 0o644);
    let cx = t.open("/tmp/gone", O_RDWR | O_CREAT | O_CLOEXEC, 0o644);
    assert_eq!(t.sys(nr::EXECVE, &[path, argv, 0]), Sys::NoReturn);
    assert_eq!(t.g.pc(0), 0x10078);
    assert_eq!(
        t.g.read_mem(0, t.g.reg(0, 31), 8).unwrap(),
        2u64.to_le_bytes(),
        "argc"
    );
    assert_eq!(t.k.proc(1).exe_path, "/tmp/prog");
    assert!(t.k.fd(1, fd).is_ok(), "fds survive exec");
    assert_eq!(
        t.k.fd(1, cx).unwrap_err(),
        EBADF,
        "close-on-exec fds do not"
    );
}

#[test]
fn execve_with_too_many_arguments_is_e2big() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    let path = t.cstr(BUF, "/tmp/prog");
    let argv = put_argv(&mut t, BUF + 0x100, 5000);
    assert_eq!(t.call(nr::EXECVE, &[path, argv, 0]), E2BIG.ret());
}

#[test]
fn execve_with_arguments_too_big_for_the_stack_is_e2big() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    let path = t.cstr(BUF, "/tmp/prog");
    let long = "x".repeat(4000);
    let s = t.cstr(BUF + 0x100, &long);
    let ptrs: Vec<u64> = (0..100).map(|_| s).chain([0]).collect();
    t.put(BUF + 0x2000, bytemuck::cast_slice(&ptrs));
    assert_eq!(t.call(nr::EXECVE, &[path, BUF + 0x2000, 0]), E2BIG.ret());
}

#[test]
fn execve_errors() {
    let mut t = T::new();
    let p = t.cstr(BUF, "/none");
    assert_eq!(t.call(nr::EXECVE, &[p, 0, 0]), ENOENT.ret());
    let p = t.cstr(BUF, "/tmp");
    assert_eq!(t.call(nr::EXECVE, &[p, 0, 0]), EACCES.ret());
    let fd = t.open("/tmp/junk", O_RDWR | O_CREAT, 0o755);
    t.write_fd(fd, b"#!not an elf");
    let p = t.cstr(BUF, "/tmp/junk");
    assert_eq!(t.call(nr::EXECVE, &[p, 0, 0]), ENOEXEC.ret());
    assert_eq!(t.call(nr::EXECVE, &[BAD, 0, 0]), EFAULT.ret());
    let p = t.cstr(BUF, "/tmp/junk");
    assert_eq!(t.call(nr::EXECVE, &[p, BAD, 0]), EFAULT.ret());
}

#[test]
fn execve_resets_handlers_but_keeps_ignored_signals() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    for (s, h) in [(sig::SIGUSR1, 0x10000u64), (sig::SIGPIPE, SIG_IGN)] {
        let act = Sigaction {
            handler: h,
            ..Default::default()
        };
        t.put(BUF + 0x400, bytemuck::bytes_of(&act));
        t.call(nr::RT_SIGACTION, &[s as u64, BUF + 0x400, 0, 8]);
    }
    let path = t.cstr(BUF, "/tmp/prog");
    t.sys(nr::EXECVE, &[path, 0, 0]);
    assert_eq!(
        crate::os::kernel::signal::handler(&t.k, 1, sig::SIGUSR1),
        SIG_DFL
    );
    assert_eq!(
        crate::os::kernel::signal::handler(&t.k, 1, sig::SIGPIPE),
        SIG_IGN
    );
}

#[test]
fn execve_in_a_vfork_child_wakes_the_parent() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    t.sys(nr::CLONE, &[CLONE_VM | CLONE_VFORK | 17, 0]);
    assert!(t.k.in_vfork(1));
    t.g.write_mem(1, BUF, b"/tmp/prog\0").unwrap();
    assert_eq!(t.sys_as(2, nr::EXECVE, &[BUF, 0, 0]), Sys::NoReturn);
    assert!(!t.k.in_vfork(1));
}

#[test]
fn waitid_p_pgid_names_that_group_only() {
    // Found by `garm hostfuzz`: P_PGID 1 was read as wait4's -1, "any child".
    let mut t = T::new();
    let a = t.fork();
    let b = t.fork();
    t.call(nr::SETPGID, &[b as u64, 0]);
    t.sys_as(b, nr::EXIT, &[0]);
    // b is a zombie in group b; a still runs in group 1.
    assert_eq!(t.call(nr::WAITID, &[2, 1, BUF, 4 | WNOHANG]), 0);
    assert_eq!(
        t.get_obj::<SiginfoChld>(BUF).pid,
        0,
        "nothing in group 1 has exited"
    );
    assert!(t.k.procs.contains_key(&b));
    assert_eq!(t.call(nr::WAITID, &[2, b as u64, BUF, 4]), 0);
    assert_eq!(t.get_obj::<SiginfoChld>(BUF).pid, b as i32);
    let _ = a;
}

#[test]
fn execve_of_a_fifo_or_directory_in_a_mount_is_eacces_without_blocking() {
    // Regression: execve of a FIFO found in a mount waited forever for a writer.
    let dir = std::env::temp_dir().join(format!("garm-kt-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("fifo").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o755) }, 0);
    std::fs::write(dir.join("prog"), tiny_elf()).unwrap();
    let mut t = T::new();
    t.k.vfs.mount(&dir, "/mnt", true).unwrap();
    for (path, want) in [("/mnt/fifo", EACCES.ret()), ("/mnt/sub", EACCES.ret())] {
        let p = t.cstr(BUF, path);
        assert_eq!(t.call(nr::EXECVE, &[p, 0, 0]), want, "{path}");
    }
    let p = t.cstr(BUF, "/mnt/prog");
    assert_eq!(t.sys(nr::EXECVE, &[p, 0, 0]), Sys::NoReturn);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_argv_array_at_any_alignment_is_read_whole() {
    let mut t = T::new();
    t.put_file("/tmp/prog", &tiny_elf());
    let path = t.cstr(BUF, "/tmp/prog");
    // Pointers at an address 4 mod 8, crossing a 256-byte boundary.
    let s = t.cstr(BUF + 0x400, "argument");
    let arr = BUF + 0x1f0 + 4;
    let ptrs: Vec<u64> = (0..10).map(|_| s).chain([0]).collect();
    t.put(arr, bytemuck::cast_slice(&ptrs));
    assert_eq!(t.sys(nr::EXECVE, &[path, arr, 0]), Sys::NoReturn);
    assert_eq!(
        t.g.read_mem(0, t.g.reg(0, 31), 8).unwrap(),
        10u64.to_le_bytes()
    );
}
