//! Processes, file descriptors, pipes and the host-side syscalls. Every process is one slot of
//! a [`Guest`] (the GPU machine, or an in-memory one in tests); the shader runs them all in the
//! same dispatch and stops one here only for a syscall it cannot answer itself. Handlers live
//! by family in the submodules and are found through the syscall table ([`super::syscalls`]).

mod call;
mod types;
pub use types::*;
pub mod event;
pub mod fs;
pub mod fsmeta;
pub mod futex;
pub mod io;
pub mod memory;
pub mod misc;
pub mod net;
pub mod poll;
pub mod process;
pub mod procfs;
pub mod signal;
#[cfg(test)]
mod tests;

use super::abi::*;
pub use super::errno::*;
use super::syscalls;
use super::vfs::{Dev, Ino, Target, Vfs};
use super::{strace, Output, Stdin};
use crate::gpu::layout::{self, Stop};
use crate::guest::{Guest, MemError};
use crate::loader::Image;
use bytemuck::Zeroable;
pub use call::*;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;

pub type Pid = i64;

/// Bytes a pipe holds before writers block.
pub const PIPE_CAP: usize = 65536;
/// Bytes a pipe write moves all at once or not at all.
pub const PIPE_BUF: usize = 4096;
/// File descriptors per process (RLIMIT_NOFILE).
pub const MAX_FDS: usize = 1024;
pub use super::vfs::MAX_FILE;

pub struct Kernel {
    pub vfs: Vfs,
    pub pipes: Vec<Pipe>,
    pub procs: BTreeMap<Pid, Proc>,
    /// Each instance's first process (it stays in `procs` while the kernel lives: a root is
    /// never reaped): the run loop asks for every instance after every submit, and a scan of
    /// `procs` per instance made each submit quadratic in the instances (7680 on an H200:
    /// 0.33 s of host work per submit).
    root_pids: Vec<Option<Pid>>,
    pub slots: Vec<Option<Pid>>,
    next_pid: Pid,
    pub strace: bool,
    /// Console writes go through the host, never the shader's fast path (under gdb, so a
    /// single step over a write retires just it).
    pub host_console: bool,
    reported: HashSet<u64>,
    pub round_trips: u64,
    pub stdin: Stdin,
    pub limit_note: bool,
    /// Whether the note on a mapping past `--mem` was given.
    pub mem_note: bool,
    pub forks: u64,
    /// Threads created (clone with CLONE_THREAD).
    pub threads: u64,
    pub fork_time: std::time::Duration,
    /// Instructions retired per instance, by every process of its tree.
    pub executed: Vec<u64>,
    closes: Closes,
    /// Each instance's filesystem root (all 0 when instances share one machine).
    roots: Vec<Ino>,
    /// Instances share pids, signals, `/tmp` and the pool of process slots (`--shared`);
    /// otherwise each is its own machine.
    pub shared: bool,
    /// Process slots each instance may hold at once (unless shared).
    pub quota: usize,
    /// When the kernel started (times(2) counts from here).
    pub started: web_time::Instant,
    /// The last futex waiter's queue number.
    pub futex_seq: u64,
    /// `--net`: AF_INET/AF_INET6 sockets are host sockets (otherwise socket() says EACCES).
    pub net: bool,
    /// AF_UNIX sockets not connected (fresh, bound, listening), by key.
    pub unix: BTreeMap<u64, UnixSock>,
    /// The last AF_UNIX socket key given.
    pub unix_seq: u64,
    /// Bound abstract AF_UNIX names, by (the instance's root, name).
    pub abstract_names: BTreeMap<(Ino, Vec<u8>), u64>,
}

impl Kernel {
    pub fn new(slots: usize, instances: usize, strace: bool) -> Kernel {
        Kernel {
            vfs: Vfs::new(),
            pipes: Vec::new(),
            procs: BTreeMap::new(),
            root_pids: Vec::new(),
            slots: vec![None; slots],
            next_pid: 1,
            strace,
            reported: HashSet::new(),
            round_trips: 0,
            host_console: false,
            stdin: Stdin::new(instances),
            limit_note: false,
            mem_note: false,
            forks: 0,
            threads: 0,
            fork_time: Default::default(),
            executed: vec![0; instances],
            closes: Closes::default(),
            roots: vec![0; instances],
            shared: false,
            quota: (slots / instances.max(1)).max(1),
            started: web_time::Instant::now(),
            futex_seq: 0,
            net: false,
            unix: BTreeMap::new(),
            unix_seq: 0,
            abstract_names: BTreeMap::new(),
        }
    }

    /// Makes every instance its own machine: a private `/tmp` (call after the mounts are made),
    /// its own pids to signal and wait for, its own share of process slots.
    pub fn isolate(&mut self) {
        self.shared = false;
        self.roots = self.vfs.instance_roots(self.executed.len());
    }

    /// Lets all instances share one machine (pids, signals, `/tmp`, the slot pool).
    pub fn share(&mut self) {
        self.shared = true;
        self.quota = self.slots.len();
        self.roots = vec![0; self.executed.len()];
    }

    /// Whether `caller` may see `target` (signal it, set its group): the same instance, or any
    /// when instances share a machine.
    pub fn visible(&self, caller: Pid, target: Pid) -> bool {
        match (self.procs.get(&caller), self.procs.get(&target)) {
            (Some(a), Some(b)) => self.shared || a.inst == b.inst,
            _ => false,
        }
    }

    /// A new open file description of `kind` (O_CLOEXEC in `flags` sets the fd flag).
    pub fn new_fd(&self, kind: Kind, flags: u64) -> Fd {
        Fd {
            file: Rc::new(RefCell::new(OpenFile {
                kind,
                offset: 0,
                flags: flags & !O_CLOEXEC,
                closes: self.closes.clone(),
            })),
            cloexec: flags & O_CLOEXEC != 0,
        }
    }

    /// Adds what each process retired since the last call to its instance's total (a slot's
    /// count is cumulative and a forked child starts from its parent's); returns the most any
    /// one process retired.
    pub fn account(&mut self, g: &dyn Guest) -> u64 {
        let mut most = 0;
        for p in self.procs.values_mut() {
            if let Some(s) = p.slot {
                let now = g.word64(s, layout::S_COUNT);
                let ran = now.saturating_sub(p.counted);
                if let Some(e) = self.executed.get_mut(p.inst) {
                    *e += ran;
                }
                most = most.max(ran);
                p.counted = now;
            }
        }
        most
    }

    /// Instance `inst`'s first process (its root), live or a zombie.
    pub fn root_of(&self, inst: usize) -> Option<&Proc> {
        let p = self.procs.get(&(*self.root_pids.get(inst)?)?)?;
        debug_assert!(p.root && p.inst == inst);
        Some(p)
    }

    /// The live processes of every instance below `n`, by instance (one pass over `procs`).
    pub fn live_by_instance(&self, n: usize) -> Vec<Vec<Pid>> {
        let mut v = vec![Vec::new(); n];
        for p in self.procs.values().filter(|p| p.slot.is_some()) {
            if let Some(l) = v.get_mut(p.inst) {
                l.push(p.pid);
            }
        }
        v
    }

    /// The live (not yet exited) processes of instance `inst`.
    pub fn live_of(&self, inst: usize) -> Vec<Pid> {
        self.procs
            .values()
            .filter(|p| p.inst == inst && p.slot.is_some())
            .map(|p| p.pid)
            .collect()
    }

    /// Ends every live process of instance `inst` with signal `sig`.
    pub fn kill_instance(&mut self, g: &mut dyn Guest, inst: usize, sig: i32) {
        for pid in self.live_of(inst) {
            self.exit_proc(g, pid, sig);
        }
    }

    /// Registers a root process (one per `--instances` copy) in `slot`.
    pub fn spawn_root(
        &mut self,
        slot: usize,
        image: Rc<Image>,
        exe_path: &str,
        mmap_low: u64,
    ) -> Pid {
        let pid = self.alloc_pid();
        if self.root_pids.len() <= slot {
            self.root_pids.resize(slot + 1, None);
        }
        // The first root of an instance is its root (the lowest pid, as a scan would find).
        self.root_pids[slot].get_or_insert(pid);
        let fds = vec![
            Some(self.new_fd(Kind::Stdin, 0)),
            Some(self.new_fd(Kind::Out(slot, 1), O_WRONLY)),
            Some(self.new_fd(Kind::Out(slot, 2), O_WRONLY)),
        ];
        self.procs.insert(
            pid,
            Proc {
                pid,
                tgid: pid,
                clear_tid: 0,
                futex: None,
                ppid: 0,
                pgid: pid,
                slot: Some(slot),
                inst: slot,
                fds,
                cwd: "/".into(),
                state: PState::Running,
                image,
                // Absolute, as Linux's readlink gives it (glibc's static start-up asserts a
                // leading '/' for $ORIGIN): a relative program name is taken from the guest's
                // cwd, /.
                exe_path: normalize("/", exe_path),
                cmdline: Rc::from(&[][..]),
                environ: Rc::from(&[][..]),
                umask: 0o022,
                mmap_low,
                sigactions: BTreeMap::new(),
                pending: Vec::new(),
                siginfo: BTreeMap::new(),
                in_handler: 0,
                vfork_parent: None,
                vfork_child: None,
                root: true,
                sleep_until: None,
                input_wait: false,
                net_wait: false,
                counted: 0,
                comm: comm_of(exe_path),
                rlimits: BTreeMap::new(),
                threaded: false,
                forked: false,
                shares_memory: false,
            },
        );
        self.slots[slot] = Some(pid);
        pid
    }

    fn alloc_pid(&mut self) -> Pid {
        let pid = self.next_pid;
        self.next_pid += 1;
        pid
    }

    pub fn pid_of_slot(&self, slot: usize) -> Option<Pid> {
        self.slots.get(slot).copied().flatten()
    }

    pub fn proc(&self, pid: Pid) -> &Proc {
        &self.procs[&pid]
    }

    pub fn proc_mut(&mut self, pid: Pid) -> &mut Proc {
        self.procs.get_mut(&pid).expect("live pid")
    }

    /// The thread group (process) `pid` belongs to.
    pub fn tg(&self, pid: Pid) -> Pid {
        self.procs.get(&pid).map_or(pid, |p| p.tgid)
    }

    /// The process `pid` is a thread of: its leader's entry, which holds what the threads share.
    pub fn process(&self, pid: Pid) -> &Proc {
        &self.procs[&self.tg(pid)]
    }

    pub fn process_mut(&mut self, pid: Pid) -> &mut Proc {
        let tg = self.tg(pid);
        self.proc_mut(tg)
    }

    /// The live threads (those holding a slot) of `pid`'s process.
    pub fn threads_of(&self, pid: Pid) -> Vec<Pid> {
        let tg = self.tg(pid);
        self.procs
            .values()
            .filter(|p| p.tgid == tg && p.slot.is_some())
            .map(|p| p.pid)
            .collect()
    }

    /// The mask of fds 1 and 2 that still write to an open console, for the shader's fast path
    /// (a closed host end goes through the host, which answers with SIGPIPE).
    pub fn fast_fd_mask(&self, pid: Pid, out: &Output) -> u32 {
        let p = self.process(pid);
        let mut m = 0;
        for (bit, fd) in [(1u32, 1usize), (2, 2)] {
            if self.host_console {
                break;
            }
            if let Some(Some(f)) = p.fds.get(fd) {
                if let Kind::Out(_, hfd) = f.file.borrow().kind {
                    if hfd as usize == fd && !out.is_broken(hfd) {
                        m |= bit;
                    }
                }
            }
        }
        if p.threaded {
            m |= layout::FASTFD_HOST_BRK;
        }
        m
    }

    pub(crate) fn apply_pipe_closes(&mut self) {
        // A closed listener queues the ends of its waiting connections: until none is left.
        loop {
            let closes = std::mem::take(&mut *self.closes.borrow_mut());
            if closes.is_empty() {
                return;
            }
            self.apply_closes(closes);
        }
    }

    fn apply_closes(&mut self, closes: Vec<Closed>) {
        for c in closes {
            let p = match c {
                Closed::File(i) => {
                    self.vfs.closed(i);
                    continue;
                }
                Closed::Unix(key) => {
                    net::forget_unix(self, key);
                    continue;
                }
                Closed::PipeReader(p) | Closed::PipeWriter(p) => p,
            };
            if let Some(pipe) = self.pipes.get_mut(p) {
                if matches!(c, Closed::PipeReader(_)) {
                    pipe.readers = pipe.readers.saturating_sub(1);
                } else {
                    pipe.writers = pipe.writers.saturating_sub(1);
                }
                if pipe.readers == 0 && pipe.writers == 0 {
                    // Nothing can reach the buffer any more: give its memory back.
                    pipe.buf = VecDeque::new();
                }
            }
        }
    }

    /// The open fd `fd` of `pid`.
    pub fn fd(&self, pid: Pid, fd: i64) -> Result<Fd, Errno> {
        self.process(pid)
            .fds
            .get(usize::try_from(fd).map_err(|_| EBADF)?)
            .cloned()
            .flatten()
            .ok_or(EBADF)
    }

    /// Puts `fd` in the lowest free slot at or above `min`.
    pub fn install_fd(&mut self, pid: Pid, fd: Fd, min: usize) -> Result<usize, Errno> {
        if min >= MAX_FDS {
            return Err(EINVAL);
        }
        // RLIMIT_NOFILE, as the process set it (never above garm's table).
        let limit = self
            .process(pid)
            .rlimits
            .get(&rlimit::NOFILE)
            .map_or(MAX_FDS, |l| (l.cur as usize).min(MAX_FDS));
        if min >= limit {
            // F_DUPFD asked for a number past the limit; a plain open has no room at all.
            return Err(if min == 0 { EMFILE } else { EINVAL });
        }
        let fds = &mut self.process_mut(pid).fds;
        let i = (min..limit)
            .find(|&i| fds.get(i).is_none_or(|f| f.is_none()))
            .ok_or(EMFILE)?;
        if fds.len() <= i {
            fds.resize(i + 1, None);
        }
        fds[i] = Some(fd);
        Ok(i)
    }

    /// Closes every fd of a process (exit) and lets pipe ends go.
    fn close_all(&mut self, pid: Pid) {
        if let Some(p) = self.procs.get_mut(&pid) {
            p.fds.clear();
        }
        self.apply_pipe_closes();
    }

    /// Ends a whole process (exit_group, a fatal signal, a fault) with a wait status: every
    /// thread stops, the slots go, the leader becomes a zombie for its parent, its children are
    /// reparented.
    pub fn exit_proc(&mut self, g: &mut dyn Guest, pid: Pid, wstatus: i32) {
        let Some(pid) = self.procs.get(&pid).map(|p| p.tgid) else {
            return;
        };
        if matches!(
            self.procs.get(&pid).map(|p| &p.state),
            None | Some(PState::Zombie(_))
        ) {
            return;
        }
        // A process that never had threads has none to end (and no scan to find them).
        if self.procs[&pid].threaded {
            for t in self.threads_of(pid) {
                if t != pid {
                    self.end_thread(g, t, false);
                }
            }
        }
        self.close_all(pid);
        let (slot, vfork_parent) = {
            let p = self.proc_mut(pid);
            p.state = PState::Zombie(wstatus);
            p.sleep_until = None;
            p.futex = None;
            (p.slot.take(), p.vfork_parent.take())
        };
        if let Some(s) = slot {
            self.slots[s] = None;
            g.set_status(s, Stop::Exited);
            g.free_slot(s);
        }
        if let Some(vp) = vfork_parent {
            self.wake(g, vp);
        }
        let ppid = self.procs[&pid].ppid;
        if signal::handler(self, ppid, sig::SIGCHLD) > SIG_IGN {
            let (code, status) = if wstatus & 0x7f == 0 {
                (CLD_EXITED, (wstatus >> 8) & 0xff)
            } else {
                (CLD_KILLED, wstatus & 0x7f)
            };
            let mut info = Siginfo::zeroed();
            info.signo = sig::SIGCHLD;
            info.code = code;
            info.pid = pid as i32;
            info.status = status;
            // Standard signals coalesce: one pending SIGCHLD, with the first child's siginfo.
            let p = self.proc_mut(ppid);
            if !p.pending.contains(&sig::SIGCHLD) {
                p.pending.push(sig::SIGCHLD);
                p.siginfo.insert(sig::SIGCHLD, info);
            }
        }
        // Its children are reparented, and zombies nobody will wait for reaped at once (only
        // its children and itself can have become such zombies now). A process that never
        // forked has no children to look for.
        let me = &self.procs[&pid];
        if me.forked {
            self.procs.retain(|_, c| {
                if c.ppid == pid {
                    c.ppid = 0;
                }
                !(c.ppid == 0 && matches!(c.state, PState::Zombie(_)) && !c.root)
            });
        } else if me.ppid == 0 && !me.root {
            self.procs.remove(&pid);
        }
    }

    /// Ends one thread (SYS_exit): the process ends with its last thread, with the status its
    /// leader's own exit gave if the leader went first (as Linux reports the group).
    pub fn exit_thread(&mut self, g: &mut dyn Guest, tid: Pid, wstatus: i32) {
        let tg = self.tg(tid);
        let threaded = self.procs.get(&tg).is_some_and(|p| p.threaded);
        if !threaded || self.threads_of(tid).len() <= 1 {
            let ws = match self.procs.get(&tg).map(|p| &p.state) {
                Some(PState::ThreadExited(ws)) => *ws,
                _ => wstatus,
            };
            self.exit_proc(g, tid, ws);
            return;
        }
        self.end_thread(g, tid, true);
        if tid == tg {
            self.proc_mut(tg).state = PState::ThreadExited(wstatus);
        }
    }

    /// Frees one thread's slot (and forgets a thread other than the leader). `clear`: the
    /// process goes on, so the thread's CLONE_CHILD_CLEARTID word is zeroed and its waiter woken
    /// (how pthread_join learns of the exit).
    pub(super) fn end_thread(&mut self, g: &mut dyn Guest, tid: Pid, clear: bool) {
        let Some(p) = self.procs.get_mut(&tid) else {
            return;
        };
        let (slot, ctid, tg) = (p.slot.take(), p.clear_tid, p.tgid);
        p.futex = None;
        p.sleep_until = None;
        if let Some(s) = slot {
            if clear && ctid != 0 && g.write_mem(s, ctid, &0u32.to_le_bytes()).is_ok() {
                if let Some(key) = futex::key(g, s, ctid, false) {
                    futex::wake(self, key, 1, u32::MAX);
                }
            }
            self.slots[s] = None;
            g.set_status(s, Stop::Exited);
            g.free_slot(s);
        }
        if tid != tg {
            self.procs.remove(&tid);
        }
    }

    /// Ends a vfork parent's wait: its result (the child's pid) is already in x0.
    fn wake(&mut self, g: &mut dyn Guest, pid: Pid) {
        if let Some(p) = self.procs.get_mut(&pid) {
            if p.vfork_child.take().is_some() {
                p.state = PState::Running;
                if let Some(s) = p.slot {
                    g.set_status(s, Stop::Running);
                }
            }
        }
    }

    /// Whether any process is in nanosleep (not a deadlock: time will wake it).
    pub fn sleeping(&self) -> bool {
        self.procs.values().any(|p| {
            (p.sleep_until.is_some() || p.input_wait || p.net_wait || futex::timed_waiter(p))
                && p.slot.is_some()
        })
    }

    /// Whether a process waits for the host's input (a progress line would mix with the echo of
    /// what the user types).
    pub fn awaiting_input(&self) -> bool {
        self.procs.values().any(|p| p.input_wait)
    }

    /// Whether a process waits for its vfork child (its SVC is not retried meanwhile).
    pub fn in_vfork(&self, pid: Pid) -> bool {
        self.procs
            .get(&pid)
            .is_some_and(|p| p.vfork_child.is_some())
    }

    /// The directory a `*at` call's `dirfd` names (AT_FDCWD: the cwd).
    pub fn cwd_for(&self, pid: Pid, dirfd: i64) -> Result<String, Errno> {
        if dirfd == AT_FDCWD {
            return Ok(self.process(pid).cwd.clone());
        }
        let f = self.fd(pid, dirfd)?;
        let b = f.file.borrow();
        match &b.kind {
            Kind::Dir(_, path) => Ok(path.clone()),
            _ => Err(ENOTDIR),
        }
    }

    /// Handles the syscall that stopped `slot`.
    /// Runs syscall `n` with arguments `a` as `pid` in `slot` and settles what it leaves behind
    /// (the input-wait mark of an answered call, pipe ends it closed): what [`Kernel::syscall`]
    /// does before writing the answer back, and what the unit tests and the host fuzzer call.
    pub fn call_as(
        &mut self,
        g: &mut dyn Guest,
        out: &mut Output,
        slot: usize,
        pid: Pid,
        n: u64,
        a: [u64; 6],
    ) -> Result<Sys, MemError> {
        let mut call = Call {
            g,
            out,
            slot,
            pid,
            nr: n,
            a,
            readonly: Vec::new(),
        };
        let r = self.dispatch(&mut call)?;
        if r != Sys::Block {
            if let Some(p) = self.procs.get_mut(&pid) {
                p.input_wait = false;
                p.net_wait = false;
            }
        }
        self.apply_pipe_closes();
        Ok(r)
    }

    pub fn syscall(
        &mut self,
        g: &mut dyn Guest,
        slot: usize,
        out: &mut Output,
    ) -> Result<Outcome, MemError> {
        let Some(pid) = self.pid_of_slot(slot) else {
            return Ok(Outcome::Ended);
        };
        self.round_trips += 1;
        let n = g.reg(slot, 8);
        let a: [u64; 6] = std::array::from_fn(|i| g.reg(slot, i));
        // Arguments are rendered before the call: exec and exit replace what they point at.
        let args = if self.strace {
            strace::render_args(g, slot, n, &a)
        } else {
            String::new()
        };
        let r = match self.call_as(g, out, slot, pid, n, a) {
            // Retried once the host has read the memory back: the process stays in its call.
            Err(MemError::Pending) => return Ok(Outcome::Blocked),
            r => r?,
        };
        let inst = self.procs.get(&pid).map_or(slot, |p| p.inst);
        let done = match r {
            Sys::Ret(v) => {
                if self.strace {
                    strace::line(out, inst, pid, n, &args, &strace::render_result(v));
                }
                if self.procs.get(&pid).is_some_and(|p| p.slot == Some(slot)) {
                    g.set_reg(slot, 0, v as u64);
                    self.proc_mut(pid).state = PState::Running;
                }
                Outcome::Resume
            }
            Sys::Block => {
                self.proc_mut(pid).state = PState::Blocked;
                Outcome::Blocked
            }
            Sys::NoReturn => {
                if self.strace {
                    strace::line(out, inst, pid, n, &args, "?");
                }
                let running = self
                    .procs
                    .get(&pid)
                    .is_some_and(|p| p.state == PState::Running && p.slot == Some(slot));
                if running {
                    Outcome::Resume
                } else {
                    Outcome::Ended
                }
            }
        };
        if let Some(s) = self.procs.get(&pid).and_then(|p| p.slot) {
            let mask = self.fast_fd_mask(pid, out);
            g.st_mut(s)[layout::S_FASTFD] = mask;
        }
        Ok(done)
    }

    /// Says `msg` on stderr under `--strace`, once per `key` in a run (an unimplemented call,
    /// a refused socket family): no silent fallback, and no flood.
    pub(crate) fn note_once(&mut self, key: u64, msg: impl FnOnce() -> String) {
        if self.strace && self.reported.insert(key) {
            crate::elog!("garm: {}", msg());
        }
    }

    /// Runs the table's handler; an errno becomes `-errno`, an unknown call `-ENOSYS`.
    pub fn dispatch(&mut self, c: &mut Call) -> Result<Sys, MemError> {
        // Paths resolve from the caller's instance's root.
        let inst = self.procs.get(&c.pid).map_or(0, |p| p.inst);
        self.vfs.root = self.roots.get(inst).copied().unwrap_or(0);
        if self.procs.contains_key(&c.pid) {
            c.readonly = self
                .process(c.pid)
                .image
                .segments
                .iter()
                .filter(|s| !s.write)
                .map(|s| (s.vaddr, s.vaddr + s.memsz))
                .collect();
        }
        let Some(h) = syscalls::lookup(c.nr).and_then(|s| s.handler) else {
            self.note_once(c.nr, || {
                format!(
                    "unimplemented syscall {} ({}) returns -ENOSYS",
                    c.nr,
                    syscalls::name(c.nr)
                )
            });
            return Ok(Sys::Ret(ENOSYS.ret()));
        };
        match h(self, c) {
            Ok(s) => Ok(s),
            Err(Fail::Errno(e)) => Ok(Sys::Ret(e.ret())),
            Err(Fail::Host(e)) => Err(e),
        }
    }
}

/// Strings as /proc/self/cmdline and environ hold them: each followed by a NUL.
pub fn nul_joined(strings: &[String]) -> Rc<[u8]> {
    let mut v = Vec::new();
    for s in strings {
        v.extend_from_slice(s.as_bytes());
        v.push(0);
    }
    Rc::from(v)
}

/// The thread name Linux gives a program: its file's base name, at most 15 bytes.
pub fn comm_of(path: &str) -> [u8; 16] {
    let base = path.rsplit('/').next().unwrap_or("");
    let mut c = [0u8; 16];
    let n = base.len().min(15);
    c[..n].copy_from_slice(&base.as_bytes()[..n]);
    c
}

/// Deterministic bytes for /dev/urandom and getrandom (reproducible runs; not for secrets).
pub fn pseudo_random(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed ^ 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The absolute, `.`/`..`-free form of `path` from `cwd` (for getcwd after chdir).
pub fn normalize(cwd: &str, path: &str) -> String {
    let full = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{cwd}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in full.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}
