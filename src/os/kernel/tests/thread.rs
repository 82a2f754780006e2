//! Threads: clone with the flags pthread_create passes, ids, exit against exit_group, the
//! CLONE_CHILD_CLEARTID wake, futex waits and wakes, signals to one thread. The answers are
//! Linux's (futex(2), clone(2), and the kernel's kernel/futex and kernel/fork.c).

use super::futex::*;
use super::*;

/// What glibc's and musl's pthread_create pass.
const THREAD_FLAGS: u64 = CLONE_VM
    | CLONE_FS
    | CLONE_FILES
    | CLONE_SIGHAND
    | CLONE_THREAD
    | 0x40000 // CLONE_SYSVSEM
    | CLONE_SETTLS
    | CLONE_PARENT_SETTID
    | CLONE_CHILD_CLEARTID;

const PTID: u64 = BUF + 0x100;
const TLS: u64 = 0x7777_0000;

/// A thread of pid 1 (stack at BUF2), its tid word at PTID (set and later cleared).
fn spawn(t: &mut T) -> Pid {
    let tid = t.call(nr::CLONE, &[THREAD_FLAGS, BUF2, PTID, TLS, PTID]);
    assert!(tid > 1, "clone: {tid}");
    tid
}

fn futex_as(t: &mut T, pid: Pid, addr: u64, op: u64, val: u64, rest: &[u64]) -> Sys {
    let mut a = vec![addr, op, val];
    a.extend_from_slice(rest);
    t.sys_as(pid, nr::FUTEX, &a)
}

#[test]
fn a_thread_shares_the_address_space_and_gets_its_tls_and_tid_words() {
    let mut t = T::new();
    let tid = spawn(&mut t);
    let s = t.k.proc(tid).slot.unwrap();
    assert_eq!(
        t.g.spaces().root(s),
        t.g.spaces().root(0),
        "one address space"
    );
    assert_eq!(t.g.word64(s, layout::S_TPIDR), TLS);
    assert_eq!(t.g.reg(s, 31), BUF2);
    assert_eq!(t.g.reg(s, 0), 0);
    assert_eq!(t.get_obj::<u32>(PTID), tid as u32, "CLONE_PARENT_SETTID");
    // A write by one thread is seen by the other at once.
    t.g.write_mem(s, BUF, b"from the thread").unwrap();
    assert_eq!(t.get(BUF, 15), b"from the thread");
    assert_eq!(t.call_as(tid, nr::GETPID, &[]), 1);
    assert_eq!(t.call_as(tid, nr::GETTID, &[]), tid);
    assert_eq!(t.call_as(tid, nr::GETPPID, &[]), 0);
    assert_ne!(
        t.g.st(s)[layout::S_FASTFD] & layout::FASTFD_HOST_BRK,
        0,
        "brk goes to the host once there are threads"
    );
}

#[test]
fn threads_share_the_fd_table_and_cwd() {
    let mut t = T::new();
    let tid = spawn(&mut t);
    let fd = t.open("/tmp/f", O_RDWR | O_CREAT, 0o644);
    t.put(BUF2, b"abc");
    assert_eq!(t.call_as(tid, nr::WRITE, &[fd as u64, BUF2, 3]), 3);
    assert_eq!(t.call_as(tid, nr::CLOSE, &[fd as u64]), 0);
    assert_eq!(
        t.call(nr::CLOSE, &[fd as u64]),
        EBADF.ret(),
        "closed for both"
    );
    let p = t.cstr(BUF, "/tmp");
    assert_eq!(t.call_as(tid, nr::CHDIR, &[p]), 0);
    assert_eq!(t.k.process(1).cwd, "/tmp");
}

#[test]
fn bad_thread_flags_are_einval() {
    let mut t = T::new();
    // CLONE_THREAD needs CLONE_SIGHAND, which needs CLONE_VM.
    assert_eq!(
        t.call(nr::CLONE, &[CLONE_VM | CLONE_THREAD, BUF2]),
        EINVAL.ret()
    );
    assert_eq!(t.call(nr::CLONE, &[CLONE_SIGHAND | 17, 0]), EINVAL.ret());
}

#[test]
fn a_thread_exit_clears_its_tid_and_wakes_the_joiner() {
    let mut t = T::new();
    let tid = spawn(&mut t);
    // The joiner waits while the tid word holds the tid (pthread_join).
    assert_eq!(
        futex_as(&mut t, 1, PTID, FUTEX_WAIT, tid as u64, &[0]),
        Sys::Block
    );
    assert_eq!(
        t.sys_as(tid, nr::EXIT, &[3]),
        Sys::NoReturn,
        "exit ends only the thread"
    );
    assert!(!t.k.procs.contains_key(&tid), "a thread leaves no zombie");
    assert_eq!(t.get_obj::<u32>(PTID), 0, "CLONE_CHILD_CLEARTID");
    assert_eq!(
        futex_as(&mut t, 1, PTID, FUTEX_WAIT, tid as u64, &[0]),
        Sys::Ret(0)
    );
    assert_eq!(t.k.proc(1).state, PState::Running, "the process lives on");
    assert_eq!(t.call(nr::WAIT4, &[u64::MAX, 0, 1, 0]), ECHILD.ret());
}

#[test]
fn exit_group_from_a_thread_ends_every_thread() {
    let mut t = T::new();
    let a = spawn(&mut t);
    let b = spawn(&mut t);
    assert_eq!(t.sys_as(b, nr::EXIT_GROUP, &[9]), Sys::NoReturn);
    assert!(!t.k.procs.contains_key(&a) && !t.k.procs.contains_key(&b));
    assert_eq!(t.k.proc(1).state, PState::Zombie(9 << 8));
    assert!(t.k.slots.iter().all(|s| s.is_none()), "every slot is free");
}

#[test]
fn the_leader_may_exit_first_and_the_last_thread_ends_the_process() {
    let mut t = T::new();
    let c = t.fork();
    // In the child: a thread, then the child's main thread exits alone.
    let tid = t.call_as(c, nr::CLONE, &[THREAD_FLAGS, BUF2, PTID, TLS, PTID]);
    assert_eq!(t.sys_as(c, nr::EXIT, &[0]), Sys::NoReturn);
    assert_eq!(
        t.call_as(tid, nr::GETPID, &[]),
        c,
        "the process is still the child"
    );
    assert_eq!(
        t.call(nr::WAIT4, &[c as u64, BUF, 1, 0]),
        0,
        "not waitable yet"
    );
    assert_eq!(t.sys_as(tid, nr::EXIT, &[4]), Sys::NoReturn);
    assert_eq!(t.call(nr::WAIT4, &[c as u64, BUF, 0, 0]), c);
    // The status is the leader's own exit's, as Linux reports a group that ended this way.
    assert_eq!(t.get_obj::<i32>(BUF), 0);
}

#[test]
fn futex_wait_checks_the_value_and_wake_counts() {
    let mut t = T::new();
    let a = spawn(&mut t);
    let b = spawn(&mut t);
    t.put(BUF, &5u32.to_le_bytes());
    assert_eq!(
        futex_as(&mut t, a, BUF, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 4, &[0]),
        Sys::Ret(EAGAIN.ret()),
        "the word moved on"
    );
    assert_eq!(
        futex_as(&mut t, a, BUF, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, &[0]),
        Sys::Block
    );
    // A private and a shared wait on private memory are one futex, as Linux keys them.
    assert_eq!(futex_as(&mut t, b, BUF, FUTEX_WAIT, 5, &[0]), Sys::Block);
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_WAKE, 1, &[]),
        Sys::Ret(1),
        "one woken"
    );
    assert_eq!(
        futex_as(&mut t, a, BUF, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, &[0]),
        Sys::Ret(0),
        "the first waiter first"
    );
    assert_eq!(futex_as(&mut t, b, BUF, FUTEX_WAIT, 5, &[0]), Sys::Block);
    assert_eq!(futex_as(&mut t, 1, BUF, FUTEX_WAKE, 10, &[]), Sys::Ret(1));
    assert_eq!(futex_as(&mut t, 1, BUF, FUTEX_WAKE, 10, &[]), Sys::Ret(0));
    assert_eq!(futex_as(&mut t, b, BUF, FUTEX_WAIT, 5, &[0]), Sys::Ret(0));
}

#[test]
fn futex_bitsets_choose_whom_to_wake() {
    let mut t = T::new();
    let a = spawn(&mut t);
    t.put(BUF, &0u32.to_le_bytes());
    let op = FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG;
    assert_eq!(futex_as(&mut t, a, BUF, op, 0, &[0, 0, 0b10]), Sys::Block);
    let wake = FUTEX_WAKE_BITSET | FUTEX_PRIVATE_FLAG;
    assert_eq!(
        futex_as(&mut t, 1, BUF, wake, 1, &[0, 0, 0b01]),
        Sys::Ret(0)
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF, wake, 1, &[0, 0, 0b11]),
        Sys::Ret(1)
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF, op, 0, &[0, 0, 0]),
        Sys::Ret(EINVAL.ret()),
        "an empty bitset"
    );
}

#[test]
fn futex_requeue_moves_waiters() {
    let mut t = T::new();
    let a = spawn(&mut t);
    let b = spawn(&mut t);
    t.put(BUF, &1u32.to_le_bytes());
    t.put(BUF + 8, &0u32.to_le_bytes());
    for p in [a, b] {
        assert_eq!(futex_as(&mut t, p, BUF, FUTEX_WAIT, 1, &[0]), Sys::Block);
    }
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_CMP_REQUEUE, 1, &[1, BUF + 8, 2]),
        Sys::Ret(EAGAIN.ret()),
        "the word is not val3"
    );
    // Wake one, move one: CMP_REQUEUE counts both.
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_CMP_REQUEUE, 1, &[1, BUF + 8, 1]),
        Sys::Ret(2)
    );
    assert_eq!(futex_as(&mut t, 1, BUF, FUTEX_WAKE, 5, &[]), Sys::Ret(0));
    assert_eq!(
        futex_as(&mut t, 1, BUF + 8, FUTEX_WAKE, 5, &[]),
        Sys::Ret(1)
    );
}

#[test]
fn futex_timeouts_and_bad_arguments() {
    let mut t = T::new();
    t.put(BUF, &0u32.to_le_bytes());
    // A relative timeout of zero has passed at once.
    t.put(
        BUF2,
        bytemuck::bytes_of(&crate::os::abi::Timespec { sec: 0, nsec: 0 }),
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_WAIT, 0, &[BUF2]),
        Sys::Ret(ETIMEDOUT.ret())
    );
    t.put(
        BUF2,
        bytemuck::bytes_of(&crate::os::abi::Timespec {
            sec: 0,
            nsec: 1_000_000_000,
        }),
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_WAIT, 0, &[BUF2]),
        Sys::Ret(EINVAL.ret())
    );
    t.put(
        BUF2,
        bytemuck::bytes_of(&crate::os::abi::Timespec {
            sec: 0,
            nsec: 2_000_000,
        }),
    );
    assert_eq!(futex_as(&mut t, 1, BUF, FUTEX_WAIT, 0, &[BUF2]), Sys::Block);
    assert!(t.k.sleeping(), "a timed waiter is no deadlock");
    std::thread::sleep(std::time::Duration::from_millis(3));
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_WAIT, 0, &[BUF2]),
        Sys::Ret(ETIMEDOUT.ret())
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF + 1, FUTEX_WAKE, 1, &[]),
        Sys::Ret(EINVAL.ret()),
        "misaligned"
    );
    assert_eq!(
        futex_as(&mut t, 1, BAD & !3, FUTEX_WAIT, 0, &[0]),
        Sys::Ret(EFAULT.ret())
    );
    assert_eq!(
        futex_as(&mut t, 1, BUF, 6, 0, &[]),
        Sys::Ret(ENOSYS.ret()),
        "LOCK_PI"
    );
}

#[test]
fn futex_wake_op_changes_the_second_word_and_wakes_by_its_old_value() {
    let mut t = T::new();
    let a = spawn(&mut t);
    let b = spawn(&mut t);
    t.put(BUF, &0u32.to_le_bytes());
    t.put(BUF + 8, &1u32.to_le_bytes());
    assert_eq!(futex_as(&mut t, a, BUF, FUTEX_WAIT, 0, &[0]), Sys::Block);
    assert_eq!(
        futex_as(&mut t, b, BUF + 8, FUTEX_WAIT, 1, &[0]),
        Sys::Block
    );
    // FUTEX_OP(ADD, 2, CMP_GT, 0): the second word becomes 3; it was 1 > 0, so its waiter wakes.
    let op = (1 << 28) | (4 << 24) | (2 << 12);
    assert_eq!(
        futex_as(&mut t, 1, BUF, FUTEX_WAKE_OP, 1, &[1, BUF + 8, op]),
        Sys::Ret(2)
    );
    assert_eq!(t.get_obj::<u32>(BUF + 8), 3);
}

#[test]
fn a_signal_can_end_a_futex_wait() {
    let mut t = T::new();
    let a = spawn(&mut t);
    t.put(BUF, &0u32.to_le_bytes());
    // A handler for SIGUSR1 (10), then the thread waits and is sent the signal.
    let act = Sigaction {
        handler: 0x10000,
        ..Default::default()
    };
    t.put(BUF2, bytemuck::bytes_of(&act));
    assert_eq!(t.call(nr::RT_SIGACTION, &[10, BUF2, 0, 8]), 0);
    assert_eq!(futex_as(&mut t, a, BUF, FUTEX_WAIT, 0, &[0]), Sys::Block);
    t.k.proc_mut(a).state = PState::Blocked;
    assert_eq!(t.call(nr::TGKILL, &[1, a as u64, 10]), 0);
    assert_eq!(
        t.k.proc(a).pending,
        vec![10],
        "for that thread, not the process"
    );
    assert!(t.k.proc(1).pending.is_empty());
    crate::os::kernel::signal::deliver_pending(&mut t.k, &mut t.g);
    let s = t.k.proc(a).slot.unwrap();
    assert_eq!(t.g.reg(s, 0), 10, "in the handler");
    assert_eq!(t.k.proc(a).state, PState::Running);
    assert!(t.k.proc(a).futex.is_none(), "the wait is over");
    assert_eq!(
        t.call(nr::TGKILL, &[2, a as u64, 10]),
        ESRCH.ret(),
        "wrong group"
    );
}

#[test]
fn exec_from_a_thread_ends_the_others() {
    let mut t = T::new();
    let a = spawn(&mut t);
    let b = spawn(&mut t);
    t.put_file("/tmp/prog", &tiny_elf());
    let path = t.cstr(BUF, "/tmp/prog");
    t.put(BUF + 0x200, &[0u8; 16]);
    assert_eq!(
        t.sys_as(b, nr::EXECVE, &[path, BUF + 0x200, BUF + 0x200]),
        Sys::NoReturn
    );
    assert!(!t.k.procs.contains_key(&a) && !t.k.procs.contains_key(&b));
    let p = t.k.proc(1);
    assert_eq!(p.slot, t.k.slots.iter().position(|s| *s == Some(1)));
    assert!(
        p.slot.is_some(),
        "the process goes on in the thread's slot, as pid 1"
    );
    assert!(!p.threaded);
}

#[test]
fn brk_on_the_host_moves_every_threads_break() {
    let mut t = T::new();
    t.g.st_mut(0)[layout::S_BRK_MIN] = 0x11000;
    t.g.st_mut(0)[layout::S_BRK_MAX] = 0x40000;
    let a = spawn(&mut t);
    assert_eq!(t.call_as(a, nr::BRK, &[0]), 0x11000, "brk(0) asks");
    assert_eq!(t.call_as(a, nr::BRK, &[0x20000]), 0x20000);
    assert_eq!(
        t.g.st(0)[layout::S_BRK],
        0x20000,
        "the main thread's copy moved too"
    );
    assert_eq!(
        t.call(nr::BRK, &[0x50000]),
        0x20000,
        "past the cap: unchanged"
    );
}
