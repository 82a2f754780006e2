//! Signal actions, kill, delivery into handlers, rt_sigreturn.

use super::*;

fn set_action(t: &mut T, s: i32, handler: u64, flags: u64) -> i64 {
    let act = Sigaction {
        handler,
        flags,
        restorer: 0x10abc,
        mask: 0,
    };
    t.put(BUF + 0x400, bytemuck::bytes_of(&act));
    t.call(nr::RT_SIGACTION, &[s as u64, BUF + 0x400, 0, 8])
}

#[test]
fn sigaction_installs_and_reports_the_old_action() {
    let mut t = T::new();
    assert_eq!(set_action(&mut t, sig::SIGUSR1, 0x10100, SA_RESTART), 0);
    assert_eq!(
        t.call(nr::RT_SIGACTION, &[sig::SIGUSR1 as u64, 0, BUF, 8]),
        0
    );
    let old: Sigaction = t.get_obj(BUF);
    assert_eq!(
        (old.handler, old.flags, old.restorer),
        (0x10100, SA_RESTART, 0x10abc)
    );
}

#[test]
fn sigaction_errors() {
    let mut t = T::new();
    assert_eq!(set_action(&mut t, sig::SIGKILL, 0x10100, 0), EINVAL.ret());
    assert_eq!(set_action(&mut t, sig::SIGSTOP, 0x10100, 0), EINVAL.ret());
    assert_eq!(set_action(&mut t, 0, 0x10100, 0), EINVAL.ret());
    assert_eq!(set_action(&mut t, 65, 0x10100, 0), EINVAL.ret());
    assert_eq!(t.call(nr::RT_SIGACTION, &[10, BAD, 0, 8]), EFAULT.ret());
    assert_eq!(t.call(nr::RT_SIGACTION, &[10, 0, BAD, 8]), EFAULT.ret());
    assert_eq!(
        t.call(nr::RT_SIGACTION, &[10, 0, BUF, 4]),
        EINVAL.ret(),
        "sigsetsize"
    );
}

#[test]
fn sigprocmask_reads_an_empty_mask_and_checks_pointers() {
    let mut t = T::new();
    t.put(BUF, &[0xff; 8]);
    assert_eq!(t.call(nr::RT_SIGPROCMASK, &[0, 0, BUF, 8]), 0);
    assert_eq!(t.get_obj::<u64>(BUF), 0);
    assert_eq!(t.call(nr::RT_SIGPROCMASK, &[0, BAD, 0, 8]), EFAULT.ret());
    assert_eq!(t.call(nr::RT_SIGPROCMASK, &[0, 0, BAD, 8]), EFAULT.ret());
    assert_eq!(
        t.call(nr::RT_SIGPROCMASK, &[7, BUF, 0, 8]),
        EINVAL.ret(),
        "how"
    );
    assert_eq!(
        t.call(nr::RT_SIGPROCMASK, &[0, 0, 0, 16]),
        EINVAL.ret(),
        "sigsetsize"
    );
}

#[test]
fn kill_with_the_default_action_ends_the_target() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(t.call(nr::KILL, &[c as u64, sig::SIGTERM as u64]), 0);
    assert_eq!(t.k.proc(c).state, PState::Zombie(sig::SIGTERM));
}

#[test]
fn kill_of_oneself_does_not_return() {
    let mut t = T::new();
    assert_eq!(t.sys(nr::KILL, &[1, sig::SIGINT as u64]), Sys::NoReturn);
    assert_eq!(t.k.proc(1).state, PState::Zombie(sig::SIGINT));
}

#[test]
fn kill_errors() {
    let mut t = T::new();
    assert_eq!(t.call(nr::KILL, &[99, 9]), ESRCH.ret());
    assert_eq!(t.call(nr::KILL, &[1, 65]), EINVAL.ret());
    assert_eq!(t.call(nr::KILL, &[1, u64::MAX]), EINVAL.ret());
    assert_eq!(
        t.call(nr::KILL, &[(-77i64) as u64, 9]),
        ESRCH.ret(),
        "no such group"
    );
}

#[test]
fn signal_zero_only_checks_the_target() {
    let mut t = T::new();
    assert_eq!(t.call(nr::KILL, &[1, 0]), 0);
    assert_eq!(t.call(nr::KILL, &[5, 0]), ESRCH.ret());
}

#[test]
fn ignored_and_default_ignored_signals_do_nothing() {
    let mut t = T::new();
    assert_eq!(t.call(nr::KILL, &[1, sig::SIGCHLD as u64]), 0);
    assert_eq!(t.call(nr::KILL, &[1, sig::SIGWINCH as u64]), 0);
    set_action(&mut t, sig::SIGTERM, SIG_IGN, 0);
    assert_eq!(t.call(nr::KILL, &[1, sig::SIGTERM as u64]), 0);
    assert_eq!(t.k.proc(1).state, PState::Running);
}

#[test]
fn sigkill_cannot_be_caught() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(t.call(nr::KILL, &[c as u64, 9]), 0);
    assert!(matches!(t.k.proc(c).state, PState::Zombie(9)));
}

#[test]
fn kill_of_a_process_group() {
    let mut t = T::new();
    let a = t.fork();
    let b = t.fork();
    t.call(nr::SETPGID, &[a as u64, 0]);
    t.call(nr::SETPGID, &[b as u64, a as u64]);
    assert_eq!(t.call(nr::KILL, &[(-a) as u64, sig::SIGTERM as u64]), 0);
    assert!(matches!(t.k.proc(a).state, PState::Zombie(_)));
    assert!(matches!(t.k.proc(b).state, PState::Zombie(_)));
    assert_eq!(t.k.proc(1).state, PState::Running);
}

#[test]
fn tgkill_targets_the_thread_id() {
    let mut t = T::new();
    let c = t.fork();
    assert_eq!(
        t.call(nr::TGKILL, &[c as u64, c as u64, sig::SIGTERM as u64]),
        0
    );
    assert!(matches!(t.k.proc(c).state, PState::Zombie(_)));
    assert_eq!(t.call(nr::TGKILL, &[0, 1, 9]), EINVAL.ret());
}

#[test]
fn a_handler_without_sa_restorer_returns_to_the_sigreturn_address() {
    // glibc on arm64 registers no restorer: Linux returns through its vDSO trampoline.
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    t.g.set_reg(0, 31, 0x80000);
    assert_eq!(t.call(nr::KILL, &[1, sig::SIGUSR1 as u64]), 0);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    assert_eq!(t.g.pc(0), 0x10200);
    assert_eq!(t.g.reg(0, 30), crate::os::kernel::signal::SIGRETURN_PC);
}

#[test]
fn a_caught_signal_is_queued_and_delivered_with_a_frame() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, SA_RESTORER);
    t.g.set_pc(0, 0x10040);
    t.g.set_reg(0, 31, 0x80000);
    t.g.set_reg(0, 19, 0x1919);
    assert_eq!(t.call(nr::KILL, &[1, sig::SIGUSR1 as u64]), 0);
    assert_eq!(t.k.proc(1).pending, [sig::SIGUSR1]);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    assert_eq!(t.g.pc(0), 0x10200);
    assert_eq!(t.g.reg(0, 0), sig::SIGUSR1 as u64);
    assert_eq!(t.g.reg(0, 30), 0x10abc, "returns to the restorer");
    let sp = t.g.reg(0, 31);
    assert!(sp < 0x80000 && sp.is_multiple_of(16));
    let f: RtSigframe = t.get_obj(sp);
    let mc = &f.uc.mcontext;
    assert_eq!((mc.pc, mc.regs[19], mc.sp), (0x10040, 0x1919, 0x80000));
    assert_eq!(
        (f.info.signo, f.info.code, f.info.pid),
        (sig::SIGUSR1, SI_USER, 1)
    );
    let fp: FpsimdContext = bytemuck::pod_read_unaligned(&mc.reserved[..528]);
    assert_eq!((fp.magic, fp.size), (FPSIMD_MAGIC, 528));
    let record: FrameRecord = t.get_obj(t.g.reg(0, 29));
    assert!(t.g.reg(0, 29) > sp, "the frame record sits above the frame");
    let _ = record;
    // The handler returns through rt_sigreturn: everything comes back.
    t.g.set_reg(0, 19, 0);
    assert_eq!(t.sys(nr::RT_SIGRETURN, &[]), Sys::NoReturn);
    assert_eq!(
        (t.g.pc(0), t.g.reg(0, 19), t.g.reg(0, 31)),
        (0x10040, 0x1919, 0x80000)
    );
    assert_eq!(t.k.proc(1).in_handler, 0);
}

#[test]
fn a_blocked_call_is_interrupted_with_eintr() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    t.g.set_reg(0, 31, 0x80000);
    t.call(nr::PIPE2, &[BUF, 0]);
    assert_eq!(t.sys(nr::READ, &[3, BUF2, 4]), Sys::Block);
    t.k.proc_mut(1).state = PState::Blocked;
    t.g.set_status(0, Stop::Syscall);
    t.k.proc_mut(1).pending.push(sig::SIGUSR1);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let f: RtSigframe = t.get_obj(t.g.reg(0, 31));
    assert_eq!(f.uc.mcontext.regs[0] as i64, EINTR.ret());
}

#[test]
fn sa_restart_rewinds_to_the_svc() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, SA_RESTART);
    t.g.set_reg(0, 31, 0x80000);
    t.g.set_pc(0, 0x10044);
    t.k.proc_mut(1).state = PState::Blocked;
    t.g.set_status(0, Stop::Syscall);
    t.k.proc_mut(1).pending.push(sig::SIGUSR1);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let f: RtSigframe = t.get_obj(t.g.reg(0, 31));
    assert_eq!(f.uc.mcontext.pc, 0x10040);
}

#[test]
fn delivery_with_an_unwritable_stack_is_sigsegv() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    t.g.set_reg(0, 31, 0x100);
    t.k.proc_mut(1).pending.push(sig::SIGUSR1);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    assert_eq!(t.k.proc(1).state, PState::Zombie(sig::SIGSEGV));
}

#[test]
fn sigreturn_without_a_frame_is_sigsegv() {
    let mut t = T::new();
    t.g.set_reg(0, 31, 0x80000);
    assert_eq!(t.sys(nr::RT_SIGRETURN, &[]), Sys::NoReturn);
    assert_eq!(t.k.proc(1).state, PState::Zombie(sig::SIGSEGV));
}

#[test]
fn sigreturn_with_a_bad_stack_is_sigsegv() {
    let mut t = T::new();
    t.g.set_reg(0, 31, 0x8);
    assert_eq!(t.sys(nr::RT_SIGRETURN, &[]), Sys::NoReturn);
    assert_eq!(t.k.proc(1).state, PState::Zombie(sig::SIGSEGV));
}

#[test]
fn a_child_exit_queues_sigchld_for_a_catching_parent() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGCHLD, 0x10200, 0);
    let c = t.fork();
    t.sys_as(c, nr::EXIT, &[0]);
    assert_eq!(t.k.proc(1).pending, [sig::SIGCHLD]);
}

#[test]
fn no_second_handler_runs_inside_the_first() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    t.g.set_reg(0, 31, 0x80000);
    t.k.proc_mut(1).pending.extend([sig::SIGUSR1, sig::SIGUSR1]);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    assert_eq!(t.k.proc(1).in_handler, 1);
    assert_eq!(t.k.proc(1).pending.len(), 1);
}

/// Two instances (pids 1 and 2, slots 0 and 1), each its own machine unless `shared`.
fn two_instances(shared: bool) -> T {
    let mut t = T::new();
    t.k = Kernel::new(4, 2, false);
    t.k.spawn_root(0, image(), "/prog", 0xc0000);
    t.k.spawn_root(1, image(), "/prog", 0xc0000);
    t.g.set_status(1, Stop::Running);
    if shared {
        t.k.share();
    } else {
        t.k.isolate();
    }
    t
}

#[test]
fn an_instance_cannot_signal_another() {
    let mut t = two_instances(false);
    assert_eq!(t.call(nr::KILL, &[2, sig::SIGKILL as u64]), ESRCH.ret());
    assert_eq!(t.call(nr::GETPGID, &[2]), ESRCH.ret());
    // kill(-1) from an instance's root: nothing else in its namespace (never itself, never
    // its init), nothing in the other instance.
    assert_eq!(
        t.call(nr::KILL, &[u64::MAX, sig::SIGKILL as u64]),
        ESRCH.ret()
    );
    assert_eq!(
        t.k.proc(2).state,
        PState::Running,
        "kill(-1) reached only its own instance"
    );
    // Within one machine: a child's kill(-1) spares itself and init.
    let mut t = T::new();
    t.k.isolate();
    let c = t.fork();
    assert_eq!(
        t.call_as(c, nr::KILL, &[u64::MAX, sig::SIGTERM as u64]),
        ESRCH.ret(),
        "not init"
    );
    let c2 = t.fork();
    assert_eq!(t.call_as(c, nr::KILL, &[u64::MAX, sig::SIGTERM as u64]), 0);
    assert!(matches!(t.k.proc(c2).state, PState::Zombie(_)));
    assert_eq!(t.k.proc(c).state, PState::Running, "never the caller");
    assert_eq!(t.k.proc(1).state, PState::Running, "never init");
    let mut t = two_instances(true);
    assert_eq!(t.call(nr::KILL, &[2, sig::SIGTERM as u64]), 0, "--shared");
    assert!(matches!(t.k.proc(2).state, PState::Zombie(_)));
}

#[test]
fn each_instance_has_its_own_tmp_and_slot_share() {
    let mut t = two_instances(false);
    let fd = t.open("/tmp/only-one", O_RDWR | O_CREAT, 0o644);
    assert!(fd >= 3);
    t.g.write_mem(1, BUF, b"/tmp/only-one\0").unwrap();
    assert_eq!(
        t.call_as(2, nr::OPENAT, &[AT_FDCWD as u64, BUF, 0, 0]),
        ENOENT.ret()
    );
    t.g.write_mem(1, BUF, b"/dev/null\0").unwrap();
    assert!(
        t.call_as(2, nr::OPENAT, &[AT_FDCWD as u64, BUF, 0, 0]) >= 3,
        "the rest is shared"
    );
    // Four slots, two instances: two each.
    assert!(t.fork() > 0);
    assert_eq!(t.fork(), EAGAIN.ret());
    assert!(
        t.call_as(2, nr::CLONE, &[17, 0]) > 0,
        "the other's share is untouched"
    );
}

#[test]
fn sa_siginfo_handlers_get_siginfo_and_ucontext_and_sigreturn_takes_their_changes() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, SA_SIGINFO);
    t.g.set_reg(0, 31, 0x80000);
    t.g.set_pc(0, 0x10040);
    let v: [u128; 32] = std::array::from_fn(|i| i as u128 * 0x0101);
    t.g.set_vregs(0, &v).unwrap();
    t.g.st_mut(0)[layout::S_FPCR] = 0x0040_0000;
    t.call(nr::KILL, &[1, sig::SIGUSR1 as u64]);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let frame = t.g.reg(0, 1);
    assert_eq!(frame, t.g.reg(0, 31), "x1 = &siginfo at the frame's base");
    assert_eq!(t.g.reg(0, 2), frame + 128, "x2 = &ucontext");
    // The handler changes x0, v5 and FPCR in the ucontext; sigreturn takes them.
    let mut f: RtSigframe = t.get_obj(frame);
    f.uc.mcontext.regs[0] = 1234;
    let mut fp: FpsimdContext = bytemuck::pod_read_unaligned(&f.uc.mcontext.reserved[..528]);
    assert_eq!(fp.vregs[7], 7 * 0x0101);
    assert_eq!(fp.fpcr, 0x0040_0000);
    fp.vregs[5] = u128::MAX;
    fp.fpcr = 0x00c0_0000;
    f.uc.mcontext.reserved[..528].copy_from_slice(bytemuck::bytes_of(&fp));
    t.put(frame, bytemuck::bytes_of(&f));
    assert_eq!(t.sys(nr::RT_SIGRETURN, &[]), Sys::NoReturn);
    assert_eq!(
        (t.g.reg(0, 0), t.g.pc(0), t.g.reg(0, 31)),
        (1234, 0x10040, 0x80000)
    );
    assert_eq!(t.g.vregs(0).unwrap()[5], u128::MAX);
    assert_eq!(t.g.st(0)[layout::S_FPCR], 0x00c0_0000);
}

#[test]
fn sigreturn_with_a_corrupt_fpsimd_record_is_sigsegv() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    t.g.set_reg(0, 31, 0x80000);
    t.call(nr::KILL, &[1, sig::SIGUSR1 as u64]);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let frame = t.g.reg(0, 31);
    // Clobber the record's magic (at the start of __reserved).
    t.put(frame + 128 + 176 + 288, &[0; 4]);
    assert_eq!(t.sys(nr::RT_SIGRETURN, &[]), Sys::NoReturn);
    assert_eq!(t.k.proc(1).state, PState::Zombie(sig::SIGSEGV));
}

#[test]
fn a_wait_that_can_finish_returns_before_the_sigchld_handler_runs() {
    // Linux returns the child's pid from the blocked wait, then runs the handler.
    let mut t = T::new();
    set_action(&mut t, sig::SIGCHLD, 0x10200, 0);
    t.g.set_reg(0, 31, 0x80000);
    let c = t.fork();
    assert_eq!(t.sys(nr::WAIT4, &[c as u64, 0, 0, 0]), Sys::Block);
    t.k.proc_mut(1).state = PState::Blocked;
    t.g.set_status(0, Stop::Syscall);
    for (r, v) in [c as u64, 0, 0, 0].iter().enumerate() {
        t.g.set_reg(0, r, *v);
    }
    t.g.set_reg(0, 8, nr::WAIT4);
    t.sys_as(c, nr::EXIT, &[0]);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    assert_eq!(t.k.proc(1).pending, [sig::SIGCHLD], "held back");
    assert_eq!(t.call(nr::WAIT4, &[c as u64, 0, 0, 0]), c);
}

#[test]
fn a_blocked_ppoll_is_never_restarted() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, SA_RESTART);
    t.g.set_reg(0, 31, 0x80000);
    t.g.set_pc(0, 0x10044);
    t.g.set_reg(0, 8, nr::PPOLL);
    t.k.proc_mut(1).state = PState::Blocked;
    t.g.set_status(0, Stop::Syscall);
    t.k.proc_mut(1).pending.push(sig::SIGUSR1);
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let f: RtSigframe = t.get_obj(t.g.reg(0, 31));
    assert_eq!(f.uc.mcontext.pc, 0x10044, "not rewound to the SVC");
    assert_eq!(f.uc.mcontext.regs[0] as i64, EINTR.ret());
}

#[test]
fn standard_signals_do_not_queue_twice_and_sigkill_can_be_asked_about() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGUSR1, 0x10200, 0);
    for _ in 0..5 {
        t.call(nr::KILL, &[1, sig::SIGUSR1 as u64]);
    }
    assert_eq!(t.k.proc(1).pending, [sig::SIGUSR1]);
    assert_eq!(
        t.call(nr::RT_SIGACTION, &[sig::SIGKILL as u64, 0, BUF, 8]),
        0
    );
}

#[test]
fn a_shared_directory_removed_in_one_instance_stays_in_the_other() {
    let mut t = two_instances(false);
    // /home is empty and shared by both roots: instance 1 (pid 2) removes its name for it.
    t.g.write_mem(1, BUF, b"/home\0").unwrap();
    assert_eq!(
        t.call_as(2, nr::UNLINKAT, &[AT_FDCWD as u64, BUF, AT_REMOVEDIR]),
        0
    );
    for n in 0..8 {
        t.open(&format!("/tmp/f{n}"), O_RDWR | O_CREAT, 0o644);
    }
    let p = t.cstr(BUF, "/home");
    assert_eq!(t.call(nr::NEWFSTATAT, &[AT_FDCWD as u64, p, BUF2, 0]), 0);
    let st: Stat = t.get_obj(BUF2);
    assert_eq!(st.mode & crate::os::vfs::S_IFMT, crate::os::vfs::S_IFDIR);
}

#[test]
fn sigchld_coalesces_and_keeps_the_first_childs_siginfo() {
    let mut t = T::new();
    set_action(&mut t, sig::SIGCHLD, 0x10200, 0);
    let a = t.fork();
    let b = t.fork();
    t.sys_as(a, nr::EXIT, &[0]);
    t.sys_as(b, nr::EXIT, &[0]);
    assert_eq!(t.k.proc(1).pending, [sig::SIGCHLD]);
    assert_eq!(t.k.proc(1).siginfo[&sig::SIGCHLD].pid, a as i32);
}

#[test]
fn a_directory_shared_by_instance_roots_cannot_be_moved() {
    let mut t = two_instances(false);
    t.g.write_mem(1, BUF, b"/home\0").unwrap();
    t.g.write_mem(1, BUF + 0x100, b"/tmp/h\0").unwrap();
    assert_eq!(
        t.call_as(
            2,
            nr::RENAMEAT,
            &[AT_FDCWD as u64, BUF, AT_FDCWD as u64, BUF + 0x100]
        ),
        EBUSY.ret()
    );
}
