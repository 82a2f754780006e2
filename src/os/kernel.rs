//! Processes, file descriptors, pipes and the host-side syscalls (Linux aarch64 numbers and
//! `-errno` results). Every process is one slot of the GPU machine; the shader runs them all in
//! the same dispatch and stops one here only for a syscall it cannot answer itself.

pub use super::errno::*;
use super::vfs::{self, Dev, Ino, Node, Target, Vfs};
use super::{nr, syscall_name, Output, Stdin};
use crate::gpu::layout::{self, st};
use crate::gpu::machine::Machine;
use crate::loader::{self, Image};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::rc::Rc;

pub type Pid = i64;

/// sa_flags bit: restart a blocked syscall after the handler instead of failing it with EINTR.
const SA_RESTART: u64 = 0x1000_0000;

/// Marks garm's signal frame on the guest stack ("garmsig\0"), checked by rt_sigreturn.
const SIGFRAME_MAGIC: u64 = 0x0067_6973_6d72_6167;

pub const SIGINT: i32 = 2;
pub const SIGKILL: i32 = 9;
pub const SIGPIPE: i32 = 13;
pub const SIGTERM: i32 = 15;
pub const SIGCHLD: i32 = 17;
pub const SIGSEGV: i32 = 11;
pub const SIGCONT: i32 = 18;
pub const SIGSTOP: i32 = 19;
pub const SIGURG: i32 = 23;
pub const SIGWINCH: i32 = 28;

const O_ACCMODE: u64 = 3;
const O_WRONLY: u64 = 1;
const O_CREAT: u64 = 0o100;
const O_EXCL: u64 = 0o200;
const O_TRUNC: u64 = 0o1000;
const O_APPEND: u64 = 0o2000;
const O_NONBLOCK: u64 = 0o4000;
const O_DIRECTORY: u64 = 0o40000;
const O_NOFOLLOW: u64 = 0o100000;
const O_CLOEXEC: u64 = 0o2000000;
const AT_FDCWD: i64 = -100;
const AT_SYMLINK_NOFOLLOW: u64 = 0x100;
const AT_REMOVEDIR: u64 = 0x200;
const AT_EMPTY_PATH: u64 = 0x1000;
const PIPE_CAP: usize = 65536;
const MAX_FDS: usize = 1024;
/// Largest file garm keeps in memory (a guest cannot make the host allocate without bound).
const MAX_FILE: u64 = 256 << 20;

/// What an open file description refers to.
#[derive(Debug)]
pub enum Kind {
    Mem(Ino),
    Host(std::fs::File, PathBuf),
    Dir(Target, String),
    PipeR(usize),
    PipeW(usize),
    Dev(Dev),
    Stdin,
    /// Console output of a root instance: (instance, host fd 1 or 2).
    Out(usize, u32),
}

#[derive(Debug)]
pub struct OpenFile {
    pub kind: Kind,
    pub offset: u64,
    pub flags: u64,
}

impl Drop for OpenFile {
    fn drop(&mut self) {
        PIPE_CLOSES.with(|c| match self.kind {
            Kind::PipeR(p) => c.borrow_mut().push((p, true)),
            Kind::PipeW(p) => c.borrow_mut().push((p, false)),
            _ => {}
        });
    }
}

thread_local! {
    /// Pipe ends closed by dropping their last description, applied by the kernel afterwards.
    static PIPE_CLOSES: RefCell<Vec<(usize, bool)>> = const { RefCell::new(Vec::new()) };
}

#[derive(Clone, Debug)]
pub struct Fd {
    pub file: Rc<RefCell<OpenFile>>,
    pub cloexec: bool,
}

#[derive(Default, Debug)]
pub struct Pipe {
    pub buf: VecDeque<u8>,
    pub readers: usize,
    pub writers: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PState {
    Running,
    /// Waiting in a syscall that will be retried (wait4, pipe read/write, vfork parent).
    Blocked,
    /// Exited; the Linux wait status.
    Zombie(i32),
}

pub struct Proc {
    pub pid: Pid,
    pub ppid: Pid,
    pub pgid: Pid,
    pub slot: Option<usize>,
    /// The root instance whose console output this process shares.
    pub inst: usize,
    pub fds: Vec<Option<Fd>>,
    pub cwd: String,
    pub state: PState,
    pub image: Rc<Image>,
    pub exe_path: String,
    pub umask: u32,
    pub mmap_low: u64,
    /// Installed actions by signal: (handler, flags, restorer); handler 0 default, 1 ignore.
    pub sigactions: BTreeMap<i32, [u64; 3]>,
    /// Signals waiting for delivery to a handler.
    pub pending: Vec<i32>,
    /// Handlers running now (a new one is delivered only outside any).
    pub in_handler: u32,
    /// A vfork parent waits for this child to exec or exit.
    pub vfork_parent: Option<Pid>,
    /// Set in a vfork parent while its child has neither exec'd nor exited.
    pub vfork_child: Option<Pid>,
    /// One of the `--instances` copies: its outcome is garm's.
    pub root: bool,
    /// The end of a nanosleep in progress.
    pub sleep_until: Option<std::time::Instant>,
}

/// One read or write request: fd, guest buffer, length, and the offset for pread/pwrite.
#[derive(Clone, Copy)]
struct Io {
    fd: i64,
    buf: u64,
    len: usize,
    at: Option<u64>,
}

impl Io {
    /// From the syscall arguments (fd, buf, len).
    fn at(a: [u64; 6], at: Option<u64>) -> Io {
        Io {
            fd: a[0] as i64,
            buf: a[1],
            len: a[2] as usize,
            at,
        }
    }
}

/// What the host's answer to a syscall means for the dispatch loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The process runs on (a result is in x0, or exec/sigreturn set it up).
    Resume,
    /// It waits (wait, pipe): the call is retried after the next submit.
    Blocked,
    /// The call ended the process (exit, a fatal signal): progress, but nothing to resume.
    Ended,
}

/// How a syscall ended: a result for x0, a block (retry later), or no result (exit, exec).
pub enum Sys {
    Ret(i64),
    Block,
    NoReturn,
}

pub struct Kernel {
    pub vfs: Vfs,
    pub pipes: Vec<Pipe>,
    pub procs: BTreeMap<Pid, Proc>,
    pub slots: Vec<Option<Pid>>,
    next_pid: Pid,
    pub strace: bool,
    reported: HashSet<u64>,
    pub round_trips: u64,
    pub stdin: Stdin,
    pub limit_note: bool,
    pub forks: u64,
    pub fork_time: std::time::Duration,
}

fn errno(e: std::io::Error) -> i64 {
    -(e.raw_os_error().unwrap_or(5) as i64)
}

impl Kernel {
    pub fn new(slots: usize, instances: usize, strace: bool) -> Kernel {
        Kernel {
            vfs: Vfs::new(),
            pipes: Vec::new(),
            procs: BTreeMap::new(),
            slots: vec![None; slots],
            next_pid: 1,
            strace,
            reported: HashSet::new(),
            round_trips: 0,
            stdin: Stdin::new(instances),
            limit_note: false,
            forks: 0,
            fork_time: Default::default(),
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
        let pid = self.next_pid;
        self.next_pid += 1;
        let con = |k: Kind, flags: u64| {
            Some(Fd {
                file: Rc::new(RefCell::new(OpenFile {
                    kind: k,
                    offset: 0,
                    flags,
                })),
                cloexec: false,
            })
        };
        let fds = vec![
            con(Kind::Stdin, 0),
            con(Kind::Out(slot, 1), O_WRONLY),
            con(Kind::Out(slot, 2), O_WRONLY),
        ];
        self.procs.insert(
            pid,
            Proc {
                pid,
                ppid: 0,
                pgid: pid,
                slot: Some(slot),
                inst: slot,
                fds,
                cwd: "/".into(),
                state: PState::Running,
                image,
                exe_path: exe_path.into(),
                umask: 0o022,
                mmap_low,
                sigactions: BTreeMap::new(),
                pending: Vec::new(),
                in_handler: 0,
                vfork_parent: None,
                vfork_child: None,
                root: true,
                sleep_until: None,
            },
        );
        self.slots[slot] = Some(pid);
        pid
    }

    pub fn pid_of_slot(&self, slot: usize) -> Option<Pid> {
        self.slots.get(slot).copied().flatten()
    }

    /// The mask of fds 1 and 2 that still write to the console, for the shader's fast path.
    pub fn fast_fd_mask(&self, pid: Pid) -> u32 {
        let p = &self.procs[&pid];
        let mut m = 0;
        for (bit, fd) in [(1u32, 1usize), (2, 2)] {
            if let Some(Some(f)) = p.fds.get(fd) {
                if let Kind::Out(_, hfd) = f.file.borrow().kind {
                    if hfd as usize == fd {
                        m |= bit;
                    }
                }
            }
        }
        m
    }

    fn apply_pipe_closes(&mut self) {
        let closes = PIPE_CLOSES.with(|c| std::mem::take(&mut *c.borrow_mut()));
        for (p, reader) in closes {
            if let Some(pipe) = self.pipes.get_mut(p) {
                if reader {
                    pipe.readers = pipe.readers.saturating_sub(1);
                } else {
                    pipe.writers = pipe.writers.saturating_sub(1);
                }
            }
        }
    }

    fn fd(&self, pid: Pid, fd: i64) -> Result<Fd, i64> {
        self.procs[&pid]
            .fds
            .get(usize::try_from(fd).map_err(|_| EBADF)?)
            .cloned()
            .flatten()
            .ok_or(EBADF)
    }

    fn install_fd(&mut self, pid: Pid, fd: Fd, min: usize) -> Result<usize, i64> {
        let fds = &mut self.procs.get_mut(&pid).unwrap().fds;
        let i = (min..MAX_FDS)
            .find(|&i| fds.get(i).is_none_or(|f| f.is_none()))
            .ok_or(EMFILE)?;
        if fds.len() <= i {
            fds.resize(i + 1, None);
        }
        fds[i] = Some(fd);
        Ok(i)
    }

    fn new_fd(kind: Kind, flags: u64) -> Fd {
        Fd {
            file: Rc::new(RefCell::new(OpenFile {
                kind,
                offset: 0,
                flags,
            })),
            cloexec: flags & O_CLOEXEC != 0,
        }
    }

    /// Closes every fd of a process (exit) and lets pipe ends go.
    fn close_all(&mut self, pid: Pid) {
        if let Some(p) = self.procs.get_mut(&pid) {
            p.fds.clear();
        }
        self.apply_pipe_closes();
    }

    /// Marks a process as exited with a wait status, frees its slot, reparents its children.
    pub fn exit_proc(&mut self, m: &mut Machine, pid: Pid, wstatus: i32) {
        self.close_all(pid);
        let (slot, vfork_parent) = {
            let p = self.procs.get_mut(&pid).unwrap();
            p.state = PState::Zombie(wstatus);
            (p.slot.take(), p.vfork_parent.take())
        };
        if let Some(s) = slot {
            self.slots[s] = None;
            m.st_mut(s)[layout::S_STATUS] = st::EXITED;
        }
        if let Some(vp) = vfork_parent {
            self.wake(m, vp);
        }
        let ppid = self.procs[&pid].ppid;
        if self.handler(ppid, SIGCHLD) > 1 {
            self.procs.get_mut(&ppid).unwrap().pending.push(SIGCHLD);
        }
        let orphans: Vec<Pid> = self
            .procs
            .values()
            .filter(|c| c.ppid == pid)
            .map(|c| c.pid)
            .collect();
        for c in orphans {
            self.procs.get_mut(&c).unwrap().ppid = 0;
        }
        // Zombies nobody will wait for are reaped at once.
        let ppid = self.procs[&pid].ppid;
        if ppid == 0 && !self.is_root(pid) {
            self.procs.remove(&pid);
        }
        let dead: Vec<Pid> = self
            .procs
            .values()
            .filter(|c| c.ppid == 0 && matches!(c.state, PState::Zombie(_)) && !self.is_root(c.pid))
            .map(|c| c.pid)
            .collect();
        for d in dead {
            self.procs.remove(&d);
        }
    }

    fn is_root(&self, pid: Pid) -> bool {
        self.procs.get(&pid).is_some_and(|p| p.root)
    }

    /// Ends a vfork parent's wait: its result (the child's pid) is already in x0.
    fn wake(&mut self, m: &mut Machine, pid: Pid) {
        if let Some(p) = self.procs.get_mut(&pid) {
            if p.vfork_child.take().is_some() {
                p.state = PState::Running;
                if let Some(s) = p.slot {
                    m.st_mut(s)[layout::S_STATUS] = st::RUNNING;
                }
            }
        }
    }

    /// Whether any process is in nanosleep (not a deadlock: time will wake it).
    pub fn sleeping(&self) -> bool {
        self.procs.values().any(|p| p.sleep_until.is_some())
    }

    /// Whether a process waits for its vfork child (its SVC is not retried meanwhile).
    pub fn in_vfork(&self, pid: Pid) -> bool {
        self.procs
            .get(&pid)
            .is_some_and(|p| p.vfork_child.is_some())
    }

    fn read_cstr(&self, m: &mut Machine, slot: usize, addr: u64) -> Result<String, i64> {
        let mut out = Vec::new();
        let mut a = addr;
        loop {
            let chunk = 256 - (a & 255) as usize;
            let bytes = m.read_mem(slot, a, chunk).map_err(|_| EFAULT)?;
            if let Some(z) = bytes.iter().position(|&b| b == 0) {
                out.extend_from_slice(&bytes[..z]);
                break;
            }
            out.extend_from_slice(&bytes);
            a += chunk as u64;
            if out.len() > 4096 {
                return Err(ENAMETOOLONG);
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn read_ptrs(&self, m: &mut Machine, slot: usize, addr: u64) -> Result<Vec<u64>, i64> {
        let mut v = Vec::new();
        if addr == 0 {
            return Ok(v);
        }
        let mut a = addr;
        loop {
            let b = m.read_mem(slot, a, 256).map_err(|_| EFAULT)?;
            for c in b.chunks(8) {
                let p = u64::from_le_bytes(c.try_into().unwrap());
                if p == 0 {
                    return Ok(v);
                }
                v.push(p);
                if v.len() > 4096 {
                    return Err(-7); // E2BIG
                }
            }
            a += 256;
        }
    }

    fn cwd_for(&self, pid: Pid, dirfd: i64) -> Result<String, i64> {
        if dirfd == AT_FDCWD {
            return Ok(self.procs[&pid].cwd.clone());
        }
        let f = self.fd(pid, dirfd)?;
        let b = f.file.borrow();
        match &b.kind {
            Kind::Dir(_, path) => Ok(path.clone()),
            _ => Err(ENOTDIR),
        }
    }

    /// Handles the syscall that stopped `slot`.
    pub fn syscall(
        &mut self,
        m: &mut Machine,
        slot: usize,
        out: &mut Output,
    ) -> Result<Outcome, String> {
        let Some(pid) = self.pid_of_slot(slot) else {
            return Ok(Outcome::Ended);
        };
        self.round_trips += 1;
        let n = m.reg(slot, 8);
        let a: [u64; 6] = std::array::from_fn(|i| m.reg(slot, i));
        // Arguments are rendered before the call: exec and exit replace what they point at.
        let args = if self.strace {
            self.render_args(m, slot, n, &a)
        } else {
            String::new()
        };
        let r = self.dispatch(m, slot, pid, n, a, out)?;
        self.apply_pipe_closes();
        let done = match r {
            Sys::Ret(v) => {
                if self.strace {
                    self.trace(out, pid, slot, n, &args, &render_result(v));
                }
                if self.procs.get(&pid).is_some_and(|p| p.slot == Some(slot)) {
                    m.set_reg(slot, 0, v as u64);
                    self.procs.get_mut(&pid).unwrap().state = PState::Running;
                }
                Outcome::Resume
            }
            Sys::Block => {
                self.procs.get_mut(&pid).unwrap().state = PState::Blocked;
                Outcome::Blocked
            }
            Sys::NoReturn => {
                if self.strace {
                    self.trace(out, pid, slot, n, &args, "?");
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
        if let Some(p) = self.procs.get(&pid) {
            if let Some(s) = p.slot {
                let mask = self.fast_fd_mask(pid);
                m.st_mut(s)[layout::S_FASTFD] = mask;
            }
        }
        Ok(done)
    }

    /// One `--strace` line in qemu's manner: `pid name(args) = result`.
    fn trace(&self, out: &Output, pid: Pid, slot: usize, n: u64, args: &str, r: &str) {
        let prefix = if out.kept.len() > 1 {
            format!("[{}] ", self.procs.get(&pid).map_or(slot, |p| p.inst))
        } else {
            String::new()
        };
        eprintln!("{prefix}{pid} {}({args}) = {r}", syscall_name(n));
    }

    /// Formats the arguments by the syscall's signature: d decimal, x hex, o octal, s string.
    fn render_args(&self, m: &mut Machine, slot: usize, n: u64, a: &[u64; 6]) -> String {
        let spec = match n {
            nr::OPENAT => "dsxo",
            nr::READ | nr::WRITE | nr::READV | nr::WRITEV | nr::GETDENTS64 => "dxd",
            nr::PREAD64 | nr::PWRITE64 => "dxdd",
            nr::CLOSE | nr::DUP | nr::EXIT | nr::EXIT_GROUP | nr::GETPGID | nr::FCHDIR => "d",
            nr::LSEEK | nr::FTRUNCATE => "ddd",
            nr::DUP3 | nr::FCNTL => "ddx",
            nr::IOCTL => "dxx",
            nr::PIPE2 | nr::GETCWD | nr::FSTAT | nr::MUNMAP => "xd",
            nr::CHDIR => "s",
            nr::MKDIRAT => "dso",
            nr::UNLINKAT | nr::FACCESSAT => "dsx",
            nr::RENAMEAT => "dsds",
            nr::RENAMEAT2 | nr::LINKAT => "dsdsx",
            nr::SYMLINKAT => "sds",
            nr::READLINKAT => "dsxd",
            nr::NEWFSTATAT => "dsxx",
            nr::STATX => "dsxxx",
            nr::UMASK => "o",
            nr::CLONE => "xx",
            nr::EXECVE => "sxx",
            nr::WAIT4 => "dxxx",
            nr::KILL | nr::SETPGID => "dd",
            nr::TGKILL => "ddd",
            nr::RT_SIGACTION | nr::RT_SIGPROCMASK | nr::MPROTECT => "dxx",
            nr::MMAP => "xdxxdx",
            nr::GETRANDOM => "xdx",
            nr::CLOCK_GETTIME => "dx",
            nr::UNAME | nr::BRK | nr::SYSINFO | nr::SET_TID_ADDRESS => "x",
            nr::GETTIMEOFDAY | nr::NANOSLEEP => "xx",
            nr::PRLIMIT64 => "ddxx",
            nr::GETPID
            | nr::GETPPID
            | nr::GETTID
            | nr::GETUID
            | nr::GETEUID
            | nr::GETGID
            | nr::GETEGID
            | nr::SCHED_YIELD => "",
            _ => "xxxxxx",
        };
        spec.chars()
            .zip(a.iter())
            .map(|(c, &v)| match c {
                'd' => (v as i64).to_string(),
                'o' => format!("{v:#o}"),
                's' => match self.read_cstr(m, slot, v) {
                    Ok(s) => format!("{s:?}"),
                    Err(_) => format!("{v:#x}"),
                },
                _ => format!("{v:#x}"),
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    fn dispatch(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        n: u64,
        a: [u64; 6],
        out: &mut Output,
    ) -> Result<Sys, String> {
        use Sys::Ret;
        let ai = |i: usize| a[i] as i64;
        Ok(match n {
            nr::READ => self.sys_read(m, slot, pid, Io::at(a, None))?,
            nr::PREAD64 => self.sys_read(m, slot, pid, Io::at(a, Some(a[3])))?,
            nr::WRITE => self.sys_write(m, slot, pid, Io::at(a, None), out)?,
            nr::PWRITE64 => self.sys_write(m, slot, pid, Io::at(a, Some(a[3])), out)?,
            nr::READV | nr::WRITEV => {
                let iov = m
                    .read_mem(slot, a[1], (a[2] as usize).min(1024) * 16)
                    .map_err(|e| e.to_string());
                let Ok(iov) = iov else {
                    return Ok(Ret(-EFAULT));
                };
                let mut total = 0i64;
                for c in iov.chunks(16) {
                    let base = u64::from_le_bytes(c[..8].try_into().unwrap());
                    let len = u64::from_le_bytes(c[8..].try_into().unwrap()) as usize;
                    if len == 0 {
                        continue;
                    }
                    let r = if n == nr::READV {
                        self.sys_read(
                            m,
                            slot,
                            pid,
                            Io {
                                fd: ai(0),
                                buf: base,
                                len,
                                at: None,
                            },
                        )?
                    } else {
                        self.sys_write(
                            m,
                            slot,
                            pid,
                            Io {
                                fd: ai(0),
                                buf: base,
                                len,
                                at: None,
                            },
                            out,
                        )?
                    };
                    match r {
                        Ret(v) if v < 0 => return Ok(Ret(if total > 0 { total } else { v })),
                        Ret(v) => {
                            total += v;
                            if (v as usize) < len {
                                break;
                            }
                        }
                        other => return Ok(if total > 0 { Ret(total) } else { other }),
                    }
                }
                Ret(total)
            }
            nr::OPENAT => {
                let path = match self.read_cstr(m, slot, a[1]) {
                    Ok(p) => p,
                    Err(e) => return Ok(Ret(-e)),
                };
                Ret(self
                    .sys_openat(pid, ai(0), &path, a[2], a[3] as u32)
                    .unwrap_or_else(|e| -e))
            }
            nr::CLOSE => {
                let fd = ai(0);
                let p = self.procs.get_mut(&pid).unwrap();
                match usize::try_from(fd).ok().and_then(|i| p.fds.get_mut(i)) {
                    Some(f @ Some(_)) => {
                        *f = None;
                        Ret(0)
                    }
                    _ => Ret(-EBADF),
                }
            }
            nr::LSEEK => Ret(self
                .sys_lseek(pid, ai(0), ai(1), a[2])
                .unwrap_or_else(|e| -e)),
            nr::DUP => match self.fd(pid, ai(0)) {
                Ok(f) => Ret(self
                    .install_fd(
                        pid,
                        Fd {
                            file: f.file,
                            cloexec: false,
                        },
                        0,
                    )
                    .map(|i| i as i64)
                    .unwrap_or_else(|e| -e)),
                Err(e) => Ret(-e),
            },
            nr::DUP3 => {
                if a[0] == a[1] {
                    return Ok(Ret(-EINVAL));
                }
                match self.fd(pid, ai(0)) {
                    Ok(f) => {
                        let to = a[1] as usize;
                        if to >= MAX_FDS {
                            return Ok(Ret(-EBADF));
                        }
                        let p = self.procs.get_mut(&pid).unwrap();
                        if p.fds.len() <= to {
                            p.fds.resize(to + 1, None);
                        }
                        p.fds[to] = Some(Fd {
                            file: f.file,
                            cloexec: a[2] & O_CLOEXEC != 0,
                        });
                        Ret(to as i64)
                    }
                    Err(e) => Ret(-e),
                }
            }
            nr::FCNTL => Ret(self
                .sys_fcntl(pid, ai(0), a[1], a[2])
                .unwrap_or_else(|e| -e)),
            nr::IOCTL => match self.fd(pid, ai(0)) {
                Ok(_) => Ret(-ENOTTY),
                Err(e) => Ret(-e),
            },
            nr::PIPE2 => {
                let id = self.pipes.len();
                self.pipes.push(Pipe {
                    buf: VecDeque::new(),
                    readers: 1,
                    writers: 1,
                });
                let fl = a[1] & (O_CLOEXEC | O_NONBLOCK);
                let r = self.install_fd(pid, Self::new_fd(Kind::PipeR(id), fl), 0);
                let w = self.install_fd(pid, Self::new_fd(Kind::PipeW(id), fl | O_WRONLY), 0);
                match (r, w) {
                    (Ok(r), Ok(w)) => {
                        let mut b = Vec::new();
                        b.extend_from_slice(&(r as i32).to_le_bytes());
                        b.extend_from_slice(&(w as i32).to_le_bytes());
                        Ret(if m.write_mem(slot, a[0], &b).is_ok() {
                            0
                        } else {
                            -EFAULT
                        })
                    }
                    _ => Ret(-EMFILE),
                }
            }
            nr::GETCWD => {
                let mut cwd = self.procs[&pid].cwd.clone().into_bytes();
                cwd.push(0);
                if cwd.len() > a[1] as usize {
                    Ret(-ERANGE)
                } else if m.write_mem(slot, a[0], &cwd).is_err() {
                    Ret(-EFAULT)
                } else {
                    Ret(cwd.len() as i64)
                }
            }
            nr::CHDIR | nr::FCHDIR => {
                let path = if n == nr::CHDIR {
                    match self.read_cstr(m, slot, a[0]) {
                        Ok(p) => p,
                        Err(e) => return Ok(Ret(-e)),
                    }
                } else {
                    match self.cwd_for(pid, ai(0)) {
                        Ok(p) => p,
                        Err(e) => return Ok(Ret(-e)),
                    }
                };
                let cwd = self.procs[&pid].cwd.clone();
                match self.vfs.resolve(&cwd, &path, true) {
                    Ok(t) if self.is_dir(&t) => {
                        self.procs.get_mut(&pid).unwrap().cwd = normalize(&cwd, &path);
                        Ret(0)
                    }
                    Ok(_) => Ret(-ENOTDIR),
                    Err(e) => Ret(-e),
                }
            }
            nr::MKDIRAT
            | nr::UNLINKAT
            | nr::READLINKAT
            | nr::FACCESSAT
            | nr::NEWFSTATAT
            | nr::STATX
            | nr::UTIMENSAT => self.path_call(m, slot, pid, n, a)?,
            nr::SYMLINKAT => Ret(self.sys_symlink(m, slot, pid, a).unwrap_or_else(|e| -e)),
            nr::RENAMEAT | nr::RENAMEAT2 | nr::LINKAT => self.two_path_call(m, slot, pid, n, a)?,
            nr::FSTAT => match self.fd(pid, ai(0)) {
                Ok(f) => {
                    let st = self.stat_of_file(&f.file.borrow());
                    Ret(if m.write_mem(slot, a[1], &st).is_ok() {
                        0
                    } else {
                        -EFAULT
                    })
                }
                Err(e) => Ret(-e),
            },
            nr::FTRUNCATE => Ret(self.sys_ftruncate(pid, ai(0), a[1]).unwrap_or_else(|e| -e)),
            nr::GETDENTS64 => self.sys_getdents(m, slot, pid, ai(0), a[1], a[2] as usize)?,
            nr::UMASK => {
                let p = self.procs.get_mut(&pid).unwrap();
                let old = p.umask;
                p.umask = a[0] as u32 & 0o777;
                Ret(old as i64)
            }
            nr::EXIT | nr::EXIT_GROUP => {
                self.exit_proc(m, pid, ((a[0] & 0xff) as i32) << 8);
                Sys::NoReturn
            }
            nr::CLONE => self.sys_clone(m, slot, pid, a)?,
            nr::EXECVE => self.sys_execve(m, slot, pid, a)?,
            nr::WAIT4 => self.sys_wait4(m, slot, pid, ai(0), a[1], a[2])?,
            nr::WAITID => {
                // waitid(idtype, id, siginfo, options): P_ALL 0, P_PID 1, P_PGID 2.
                let want = match a[0] {
                    0 => -1,
                    1 => ai(1),
                    2 => {
                        -(if a[1] == 0 {
                            self.procs[&pid].pgid
                        } else {
                            ai(1)
                        })
                    }
                    _ => return Ok(Ret(-EINVAL)),
                };
                self.sys_waitid(m, slot, pid, want, a[2], a[3])?
            }
            nr::KILL | nr::TGKILL => {
                let (target, sig) = if n == nr::KILL {
                    (ai(0), a[1] as i32)
                } else {
                    (ai(1), a[2] as i32)
                };
                self.sys_kill(m, pid, target, sig)
            }
            nr::RT_SIGACTION => {
                let sig = a[0] as i32;
                if sig == SIGKILL || sig == SIGSTOP || !(1..=64).contains(&sig) {
                    return Ok(Ret(-EINVAL));
                }
                let old = self.procs[&pid]
                    .sigactions
                    .get(&sig)
                    .copied()
                    .unwrap_or([0; 3]);
                if a[2] != 0 {
                    let b: Vec<u8> = [old[0], old[1], old[2], 0]
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect();
                    if m.write_mem(slot, a[2], &b).is_err() {
                        return Ok(Ret(-EFAULT));
                    }
                }
                if a[1] != 0 {
                    let Ok(b) = m.read_mem(slot, a[1], 24) else {
                        return Ok(Ret(-EFAULT));
                    };
                    let w = |i: usize| u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap());
                    self.procs
                        .get_mut(&pid)
                        .unwrap()
                        .sigactions
                        .insert(sig, [w(0), w(1), w(2)]);
                }
                Ret(0)
            }
            nr::RT_SIGRETURN => self.sys_sigreturn(m, slot, pid)?,
            nr::RT_SIGPROCMASK => {
                if a[2] != 0 {
                    let _ = m.write_mem(slot, a[2], &[0u8; 8]);
                }
                Ret(0)
            }
            nr::SETPGID => {
                let target = if a[0] == 0 { pid } else { ai(0) };
                let pg = if a[1] == 0 { target } else { ai(1) };
                match self.procs.get_mut(&target) {
                    Some(p) => {
                        p.pgid = pg;
                        Ret(0)
                    }
                    None => Ret(-ESRCH),
                }
            }
            nr::GETPGID => {
                let target = if a[0] == 0 { pid } else { ai(0) };
                self.procs
                    .get(&target)
                    .map(|p| Ret(p.pgid))
                    .unwrap_or(Ret(-ESRCH))
            }
            nr::GETPID | nr::GETTID | nr::SET_TID_ADDRESS => Ret(pid),
            nr::GETPPID => Ret(self.procs[&pid].ppid),
            nr::GETUID | nr::GETEUID | nr::GETGID | nr::GETEGID => Ret(0),
            nr::SET_ROBUST_LIST | nr::SCHED_YIELD | nr::MADVISE | nr::MPROTECT => Ret(0),
            nr::UNAME => {
                let mut b = vec![0u8; 65 * 6];
                for (i, s) in [
                    "Linux",
                    "garm",
                    "6.1.0-garm",
                    "#1 SMP garm",
                    "aarch64",
                    "(none)",
                ]
                .iter()
                .enumerate()
                {
                    b[i * 65..i * 65 + s.len()].copy_from_slice(s.as_bytes());
                }
                Ret(if m.write_mem(slot, a[0], &b).is_ok() {
                    0
                } else {
                    -EFAULT
                })
            }
            nr::CLOCK_GETTIME | nr::GETTIMEOFDAY => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                let mut ts = Vec::new();
                ts.extend_from_slice(&now.as_secs().to_le_bytes());
                let sub = if n == nr::GETTIMEOFDAY {
                    now.subsec_micros() as u64
                } else {
                    now.subsec_nanos() as u64
                };
                ts.extend_from_slice(&sub.to_le_bytes());
                let addr = if n == nr::GETTIMEOFDAY { a[0] } else { a[1] };
                Ret(if addr == 0 || m.write_mem(slot, addr, &ts).is_ok() {
                    0
                } else {
                    -EFAULT
                })
            }
            nr::NANOSLEEP => {
                // A sleeping process blocks like a waiting one; the others keep running.
                let now = std::time::Instant::now();
                match self.procs[&pid].sleep_until {
                    Some(t) if now >= t => {
                        self.procs.get_mut(&pid).unwrap().sleep_until = None;
                        Ret(0)
                    }
                    Some(_) => Sys::Block,
                    None => match m.read_mem(slot, a[0], 16) {
                        Ok(b) => {
                            let s = u64::from_le_bytes(b[..8].try_into().unwrap());
                            let ns = u64::from_le_bytes(b[8..].try_into().unwrap());
                            if ns > 999_999_999 {
                                return Ok(Ret(-EINVAL));
                            }
                            let d = std::time::Duration::new(s.min(1 << 32), ns as u32);
                            self.procs.get_mut(&pid).unwrap().sleep_until = Some(now + d);
                            Sys::Block
                        }
                        Err(_) => Ret(-EFAULT),
                    },
                }
            }
            nr::GETRANDOM => {
                let len = (a[1] as usize).min(1 << 16);
                let bytes = pseudo_random(len, a[0] ^ self.round_trips);
                Ret(if m.write_mem(slot, a[0], &bytes).is_ok() {
                    len as i64
                } else {
                    -EFAULT
                })
            }
            nr::SYSINFO => {
                let mut b = vec![0u8; 112];
                b[0..8].copy_from_slice(&1u64.to_le_bytes());
                b[32..40].copy_from_slice(
                    &(m.cfg.mem_bytes as u64 * self.slots.len() as u64).to_le_bytes(),
                );
                b[80..82].copy_from_slice(&(self.procs.len() as u16).to_le_bytes());
                b[104..108].copy_from_slice(&1u32.to_le_bytes());
                Ret(if m.write_mem(slot, a[0], &b).is_ok() {
                    0
                } else {
                    -EFAULT
                })
            }
            nr::PRLIMIT64 => {
                if a[3] != 0 {
                    let mut b = Vec::new();
                    b.extend_from_slice(&u64::MAX.to_le_bytes());
                    b.extend_from_slice(&u64::MAX.to_le_bytes());
                    let _ = m.write_mem(slot, a[3], &b);
                }
                Ret(0)
            }
            nr::MMAP => self.sys_mmap(m, slot, pid, a)?,
            nr::MUNMAP => Ret(0),
            nr::MREMAP => self.sys_mremap(m, slot, pid, a)?,
            _ => {
                if self.strace && self.reported.insert(n) {
                    eprintln!(
                        "garm: unimplemented syscall {n} ({}) returns -ENOSYS",
                        syscall_name(n)
                    );
                }
                Ret(-ENOSYS)
            }
        })
    }

    fn is_dir(&self, t: &Target) -> bool {
        match t {
            Target::Mem(i) => matches!(self.vfs.inodes[*i].node, Node::Dir(_) | Node::Mount { .. }),
            Target::Host(p, _) => std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()),
        }
    }

    fn sys_read(&mut self, m: &mut Machine, slot: usize, pid: Pid, io: Io) -> Result<Sys, String> {
        let Io { fd, buf, len, at } = io;
        let f = match self.fd(pid, fd) {
            Ok(f) => f,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        let len = len.min(1 << 20);
        let mut of = f.file.borrow_mut();
        if of.flags & O_ACCMODE == O_WRONLY {
            return Ok(Sys::Ret(-EBADF));
        }
        let off = at.unwrap_or(of.offset);
        let data: Vec<u8> = match &mut of.kind {
            Kind::Mem(ino) => match &self.vfs.inodes[*ino].node {
                Node::File(d) => d
                    .get(off as usize..)
                    .map(|s| s[..s.len().min(len)].to_vec())
                    .unwrap_or_default(),
                _ => return Ok(Sys::Ret(-EISDIR)),
            },
            Kind::Host(file, _) => {
                let mut b = vec![0u8; len];
                if file.seek(SeekFrom::Start(off)).is_err() {
                    return Ok(Sys::Ret(-ESPIPE));
                }
                match file.read(&mut b) {
                    Ok(k) => {
                        b.truncate(k);
                        b
                    }
                    Err(e) => return Ok(Sys::Ret(errno(e))),
                }
            }
            Kind::Dir(..) => return Ok(Sys::Ret(-EISDIR)),
            Kind::PipeR(p) => {
                let pipe = &mut self.pipes[*p];
                if pipe.buf.is_empty() {
                    if pipe.writers == 0 {
                        Vec::new()
                    } else if of.flags & O_NONBLOCK != 0 {
                        return Ok(Sys::Ret(-EAGAIN));
                    } else {
                        return Ok(Sys::Block);
                    }
                } else {
                    let k = len.min(pipe.buf.len());
                    pipe.buf.drain(..k).collect()
                }
            }
            Kind::PipeW(_) | Kind::Out(..) => return Ok(Sys::Ret(-EBADF)),
            Kind::Dev(d) => match d {
                Dev::Null => Vec::new(),
                Dev::Zero => vec![0; len],
                Dev::Urandom => pseudo_random(len, buf ^ off),
                Dev::Console => self.stdin.read(self.procs[&pid].inst, len),
            },
            Kind::Stdin => self.stdin.read(self.procs[&pid].inst, len),
        };
        if at.is_none() && matches!(of.kind, Kind::Mem(_) | Kind::Host(..)) {
            of.offset += data.len() as u64;
        }
        drop(of);
        Ok(Sys::Ret(match m.write_mem(slot, buf, &data) {
            Ok(()) => data.len() as i64,
            Err(_) => -EFAULT,
        }))
    }

    fn sys_write(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        io: Io,
        out: &mut Output,
    ) -> Result<Sys, String> {
        let Io { fd, buf, len, at } = io;
        let f = match self.fd(pid, fd) {
            Ok(f) => f,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        let mut of = f.file.borrow_mut();
        if of.flags & O_ACCMODE == 0 && !matches!(of.kind, Kind::Out(..) | Kind::Dev(_)) {
            return Ok(Sys::Ret(-EBADF));
        }
        // Pipes block before anything is read from the guest.
        if let Kind::PipeW(p) = of.kind {
            let pipe = &self.pipes[p];
            if pipe.readers == 0 {
                drop(of);
                let h = self.handler(pid, SIGPIPE);
                if h > 1 {
                    self.procs.get_mut(&pid).unwrap().pending.push(SIGPIPE);
                }
                if h == 0 {
                    self.exit_proc(m, pid, SIGPIPE);
                    return Ok(Sys::NoReturn);
                }
                return Ok(Sys::Ret(-EPIPE));
            }
            if pipe.buf.len() >= PIPE_CAP {
                return Ok(if of.flags & O_NONBLOCK != 0 {
                    Sys::Ret(-EAGAIN)
                } else {
                    Sys::Block
                });
            }
        }
        let len = match of.kind {
            Kind::PipeW(p) => len.min(PIPE_CAP - self.pipes[p].buf.len()),
            _ => len.min(1 << 24),
        };
        let data = match m.read_mem(slot, buf, len) {
            Ok(d) => d,
            Err(_) => return Ok(Sys::Ret(-EFAULT)),
        };
        let append = of.flags & O_APPEND != 0;
        let off = at.unwrap_or(of.offset);
        let r = match &mut of.kind {
            Kind::Mem(ino) => {
                let ino = *ino;
                if let Node::File(d) = &mut self.vfs.inodes[ino].node {
                    let start = if append { d.len() as u64 } else { off };
                    let Some(end) = start
                        .checked_add(data.len() as u64)
                        .filter(|&e| e <= MAX_FILE)
                    else {
                        return Ok(Sys::Ret(-EFBIG));
                    };
                    let (start, end) = (start as usize, end as usize);
                    if d.len() < end {
                        d.resize(end, 0);
                    }
                    d[start..end].copy_from_slice(&data);
                    if at.is_none() {
                        of.offset = end as u64;
                    }
                }
                data.len() as i64
            }
            Kind::Host(file, _) => {
                let pos = if append {
                    SeekFrom::End(0)
                } else {
                    SeekFrom::Start(off)
                };
                match file
                    .seek(pos)
                    .and_then(|p| file.write_all(&data).map(|_| p))
                {
                    Ok(p) => {
                        if at.is_none() {
                            of.offset = p + data.len() as u64;
                        }
                        data.len() as i64
                    }
                    Err(e) => errno(e),
                }
            }
            Kind::PipeW(p) => {
                self.pipes[*p].buf.extend(&data);
                data.len() as i64
            }
            Kind::Out(inst, hfd) => {
                out.emit(*inst, *hfd, &data);
                data.len() as i64
            }
            Kind::Dev(Dev::Console) => {
                out.emit(self.procs[&pid].inst, 1, &data);
                data.len() as i64
            }
            Kind::Dev(_) => data.len() as i64,
            _ => -EBADF,
        };
        Ok(Sys::Ret(r))
    }

    fn sys_openat(
        &mut self,
        pid: Pid,
        dirfd: i64,
        path: &str,
        flags: u64,
        mode: u32,
    ) -> Result<i64, i64> {
        let cwd = self.cwd_for(pid, dirfd)?;
        let umask = self.procs[&pid].umask;
        let follow = flags & O_NOFOLLOW == 0;
        let wr = flags & O_ACCMODE != 0 || flags & (O_TRUNC | O_CREAT) != 0;
        let target = match self.vfs.resolve(&cwd, path, follow) {
            Ok(t) => {
                if flags & O_CREAT != 0 && flags & O_EXCL != 0 {
                    return Err(EEXIST);
                }
                t
            }
            Err(ENOENT) if flags & O_CREAT != 0 => {
                let (parent, name) = self.vfs.resolve_parent(&cwd, path)?;
                match parent {
                    Target::Mem(dir) => {
                        Target::Mem(self.vfs.create_file(dir, &name, mode & !umask)?)
                    }
                    Target::Host(p, ro) => {
                        if ro {
                            return Err(EROFS);
                        }
                        Target::Host(p.join(name), ro)
                    }
                }
            }
            Err(e) => return Err(e),
        };
        if let Target::Mem(i) = target {
            if let Node::Symlink(_) = self.vfs.inodes[i].node {
                return Err(ELOOP);
            }
        }
        let is_dir = self.is_dir(&target);
        if flags & O_DIRECTORY != 0 && !is_dir {
            return Err(ENOTDIR);
        }
        let kind = if is_dir {
            if flags & O_ACCMODE != 0 {
                return Err(EISDIR);
            }
            Kind::Dir(target, normalize(&cwd, path))
        } else {
            match target {
                Target::Mem(i) => {
                    match &mut self.vfs.inodes[i].node {
                        Node::File(d) if flags & O_TRUNC != 0 && flags & O_ACCMODE != 0 => {
                            d.clear()
                        }
                        Node::Dev(d) => {
                            let d = *d;
                            let f = Self::new_fd(Kind::Dev(d), flags);
                            return self.install_fd(pid, f, 0).map(|i| i as i64);
                        }
                        _ => {}
                    }
                    Kind::Mem(i)
                }
                Target::Host(p, ro) => {
                    if ro && wr {
                        return Err(EROFS);
                    }
                    let mut o = std::fs::OpenOptions::new();
                    o.read(flags & O_ACCMODE != O_WRONLY)
                        .write(flags & O_ACCMODE != 0)
                        .create(flags & O_CREAT != 0)
                        .truncate(flags & O_TRUNC != 0 && flags & O_ACCMODE != 0);
                    if flags & O_CREAT != 0 && flags & O_ACCMODE == 0 {
                        o.write(true);
                    }
                    // Resolution already followed every link it allows; a symlink the host
                    // would follow here could point outside the mount, so refuse it (ELOOP).
                    // O_NONBLOCK keeps a host FIFO from stalling every guest.
                    use std::os::unix::fs::OpenOptionsExt;
                    o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
                    let file = o.open(&p).map_err(|e| -errno(e))?;
                    Kind::Host(file, p)
                }
            }
        };
        let f = Self::new_fd(kind, flags);
        self.install_fd(pid, f, 0).map(|i| i as i64)
    }

    fn sys_lseek(&mut self, pid: Pid, fd: i64, off: i64, whence: u64) -> Result<i64, i64> {
        let f = self.fd(pid, fd)?;
        let mut of = f.file.borrow_mut();
        let size = match &of.kind {
            Kind::Mem(i) => match &self.vfs.inodes[*i].node {
                Node::File(d) => d.len() as i64,
                _ => 0,
            },
            Kind::Host(file, _) => file.metadata().map(|m| m.len() as i64).unwrap_or(0),
            Kind::Dir(..) => 0,
            _ => return Err(ESPIPE),
        };
        let base = match whence {
            0 => 0,
            1 => of.offset as i64,
            2 => size,
            _ => return Err(EINVAL),
        };
        let n = base.checked_add(off).filter(|&n| n >= 0).ok_or(EINVAL)?;
        of.offset = n as u64;
        Ok(n)
    }

    fn sys_fcntl(&mut self, pid: Pid, fd: i64, cmd: u64, arg: u64) -> Result<i64, i64> {
        let f = self.fd(pid, fd)?;
        match cmd {
            0 | 1030 => {
                let nf = Fd {
                    file: f.file.clone(),
                    cloexec: cmd == 1030,
                };
                self.install_fd(pid, nf, arg as usize).map(|i| i as i64)
            }
            1 => Ok(f.cloexec as i64),
            2 => {
                self.procs.get_mut(&pid).unwrap().fds[fd as usize]
                    .as_mut()
                    .unwrap()
                    .cloexec = arg & 1 != 0;
                Ok(0)
            }
            3 => Ok(f.file.borrow().flags as i64 & !(O_CLOEXEC as i64)),
            4 => {
                let mut of = f.file.borrow_mut();
                let keep = O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_DIRECTORY;
                of.flags = (of.flags & keep) | (arg & (O_APPEND | O_NONBLOCK));
                Ok(0)
            }
            _ => Err(EINVAL),
        }
    }

    fn sys_ftruncate(&mut self, pid: Pid, fd: i64, len: u64) -> Result<i64, i64> {
        let f = self.fd(pid, fd)?;
        let of = f.file.borrow();
        match &of.kind {
            Kind::Mem(i) => {
                if let Node::File(d) = &mut self.vfs.inodes[*i].node {
                    if len > MAX_FILE {
                        return Err(EFBIG);
                    }
                    d.resize(len as usize, 0);
                }
                Ok(0)
            }
            Kind::Host(file, _) => file.set_len(len).map(|_| 0).map_err(|e| -errno(e)),
            _ => Err(EINVAL),
        }
    }

    fn stat_of_file(&self, of: &OpenFile) -> Vec<u8> {
        match &of.kind {
            Kind::Mem(i) => self.stat_mem(*i),
            Kind::Host(file, _) => file
                .metadata()
                .map(|md| stat_from_metadata(&md))
                .unwrap_or_else(|_| stat_bytes(0, vfs::S_IFREG | 0o644, 0, 1)),
            Kind::Dir(t, _) => self
                .stat_target(t)
                .unwrap_or_else(|_| stat_bytes(0, vfs::S_IFDIR | 0o755, 0, 1)),
            Kind::PipeR(p) | Kind::PipeW(p) => {
                stat_bytes(1000 + *p as u64, vfs::S_IFIFO | 0o600, 0, 1)
            }
            _ => stat_bytes(2, vfs::S_IFCHR | 0o620, 0, 1),
        }
    }

    fn stat_mem(&self, i: Ino) -> Vec<u8> {
        let ino = &self.vfs.inodes[i];
        let size = match &ino.node {
            Node::File(d) => d.len() as u64,
            Node::Symlink(s) => s.len() as u64,
            Node::Dir(_) => 4096,
            _ => 0,
        };
        let mut b = stat_bytes(i as u64 + 1, ino.mode, size, 1);
        b[88..96].copy_from_slice(&ino.mtime.to_le_bytes());
        b
    }

    /// Never follows a host link: resolution already followed the ones it allows, so a link
    /// left at the end of the path is to be described, not crossed.
    fn stat_host(&self, p: &std::path::Path) -> Result<Vec<u8>, i64> {
        let md = std::fs::symlink_metadata(p).map_err(|e| -errno(e))?;
        Ok(stat_from_metadata(&md))
    }

    fn stat_target(&self, t: &Target) -> Result<Vec<u8>, i64> {
        match t {
            Target::Mem(i) => Ok(self.stat_mem(*i)),
            Target::Host(p, _) => self.stat_host(p),
        }
    }

    fn path_call(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        n: u64,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        let path = match self.read_cstr(m, slot, a[1]) {
            Ok(p) => p,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        // fstat(fd) as newfstatat(fd, "", AT_EMPTY_PATH) names any fd, not only a directory.
        let empty_path_fd = path.is_empty()
            && matches!(n, nr::NEWFSTATAT | nr::STATX)
            && (if n == nr::STATX { a[2] } else { a[3] }) & AT_EMPTY_PATH != 0;
        let cwd = if empty_path_fd {
            String::new()
        } else {
            match self.cwd_for(pid, a[0] as i64) {
                Ok(c) => c,
                Err(e) => return Ok(Sys::Ret(-e)),
            }
        };
        let r: Result<i64, i64> = (|| match n {
            nr::MKDIRAT => {
                if self.vfs.resolve(&cwd, &path, false).is_ok() {
                    return Err(EEXIST);
                }
                let (parent, name) = self.vfs.resolve_parent(&cwd, &path)?;
                match parent {
                    Target::Mem(d) => {
                        if !matches!(self.vfs.inodes[d].node, Node::Dir(_)) {
                            return Err(ENOTDIR);
                        }
                        let mode = vfs::S_IFDIR | (a[2] as u32 & 0o777 & !self.procs[&pid].umask);
                        self.vfs.add(d, &name, Node::Dir(BTreeMap::new()), mode);
                        Ok(0)
                    }
                    Target::Host(p, ro) => {
                        if ro {
                            return Err(EROFS);
                        }
                        std::fs::create_dir(p.join(name))
                            .map(|_| 0)
                            .map_err(|e| -errno(e))
                    }
                }
            }
            nr::UNLINKAT => {
                let (parent, name) = self.vfs.resolve_parent(&cwd, &path)?;
                let rmdir = a[2] & AT_REMOVEDIR != 0;
                match parent {
                    Target::Mem(d) => {
                        let c = self.vfs.child(d, &name).ok_or(ENOENT)?;
                        let is_dir =
                            matches!(self.vfs.inodes[c].node, Node::Dir(_) | Node::Mount { .. });
                        if rmdir != is_dir {
                            return Err(if rmdir { ENOTDIR } else { EISDIR });
                        }
                        if let Node::Dir(mm) = &self.vfs.inodes[c].node {
                            if !mm.is_empty() {
                                return Err(ENOTEMPTY);
                            }
                        }
                        self.vfs.remove(d, &name);
                        Ok(0)
                    }
                    Target::Host(p, ro) => {
                        if ro {
                            return Err(EROFS);
                        }
                        let q = p.join(name);
                        if rmdir {
                            std::fs::remove_dir(q)
                        } else {
                            std::fs::remove_file(q)
                        }
                        .map(|_| 0)
                        .map_err(|e| -errno(e))
                    }
                }
            }
            nr::READLINKAT => {
                let t = self.vfs.resolve(&cwd, &path, false)?;
                let s = match t {
                    Target::Mem(i) if i == self.vfs.exe_ino => self.procs[&pid].exe_path.clone(),
                    Target::Mem(i) => match &self.vfs.inodes[i].node {
                        Node::Symlink(s) => s.clone(),
                        _ => return Err(EINVAL),
                    },
                    Target::Host(p, _) => std::fs::read_link(p)
                        .map_err(|e| -errno(e))?
                        .to_string_lossy()
                        .into_owned(),
                };
                let b = &s.as_bytes()[..s.len().min(a[3] as usize)];
                m.write_mem(slot, a[2], b).map_err(|_| EFAULT)?;
                Ok(b.len() as i64)
            }
            nr::FACCESSAT => self.vfs.resolve(&cwd, &path, true).map(|_| 0),
            nr::NEWFSTATAT | nr::STATX => {
                let flags = if n == nr::STATX { a[2] } else { a[3] };
                let follow = flags & AT_SYMLINK_NOFOLLOW == 0;
                let st = if path.is_empty() && flags & AT_EMPTY_PATH != 0 {
                    let f = self.fd(pid, a[0] as i64)?;
                    let b = f.file.borrow();
                    self.stat_of_file(&b)
                } else {
                    let t = self.vfs.resolve(&cwd, &path, follow)?;
                    self.stat_target(&t)?
                };
                let bytes = if n == nr::STATX {
                    statx_from_stat(&st)
                } else {
                    st
                };
                let dst = if n == nr::STATX { a[4] } else { a[2] };
                m.write_mem(slot, dst, &bytes).map_err(|_| EFAULT)?;
                Ok(0)
            }
            nr::UTIMENSAT => self.vfs.resolve(&cwd, &path, true).map(|_| 0),
            _ => Err(ENOSYS),
        })();
        Ok(Sys::Ret(r.unwrap_or_else(|e| -e)))
    }

    fn sys_symlink(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        a: [u64; 6],
    ) -> Result<i64, i64> {
        let target = self.read_cstr(m, slot, a[0])?;
        let link = self.read_cstr(m, slot, a[2])?;
        let cwd = self.cwd_for(pid, a[1] as i64)?;
        if self.vfs.resolve(&cwd, &link, false).is_ok() {
            return Err(EEXIST);
        }
        match self.vfs.resolve_parent(&cwd, &link)? {
            (Target::Mem(d), name) => {
                self.vfs
                    .add(d, &name, Node::Symlink(target), vfs::S_IFLNK | 0o777);
                Ok(0)
            }
            (Target::Host(p, ro), name) => {
                if ro {
                    return Err(EROFS);
                }
                if target.starts_with('/') {
                    return Err(EPERM);
                }
                std::os::unix::fs::symlink(target, p.join(name))
                    .map(|_| 0)
                    .map_err(|e| -errno(e))
            }
        }
    }

    fn two_path_call(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        n: u64,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        let r = (|| -> Result<i64, i64> {
            let from = self.read_cstr(m, slot, a[1])?;
            let to = self.read_cstr(m, slot, a[3])?;
            let cwd1 = self.cwd_for(pid, a[0] as i64)?;
            let cwd2 = self.cwd_for(pid, a[2] as i64)?;
            let (p1, n1) = self.vfs.resolve_parent(&cwd1, &from)?;
            let (p2, n2) = self.vfs.resolve_parent(&cwd2, &to)?;
            match (p1, p2) {
                (Target::Mem(d1), Target::Mem(d2)) => {
                    let c = self.vfs.child(d1, &n1).ok_or(ENOENT)?;
                    if !matches!(self.vfs.inodes[d2].node, Node::Dir(_)) {
                        return Err(ENOTDIR);
                    }
                    let is_dir =
                        matches!(self.vfs.inodes[c].node, Node::Dir(_) | Node::Mount { .. });
                    // The tree must stay a tree: no hard links to directories, no directory
                    // moved below itself (path_of and resolution walk parents).
                    let mut up = d2;
                    while is_dir && up != 0 {
                        if up == c {
                            return Err(EINVAL);
                        }
                        up = self.vfs.inodes[up].parent;
                    }
                    if n == nr::LINKAT {
                        if is_dir {
                            return Err(EPERM);
                        }
                        if self.vfs.child(d2, &n2).is_some() {
                            return Err(EEXIST);
                        }
                        if let Node::Dir(mm) = &mut self.vfs.inodes[d2].node {
                            mm.insert(n2, c);
                        }
                        return Ok(0);
                    }
                    if n == nr::RENAMEAT2 && a[4] & 1 != 0 && self.vfs.child(d2, &n2).is_some() {
                        return Err(EEXIST);
                    }
                    self.vfs.remove(d1, &n1);
                    if let Node::Dir(mm) = &mut self.vfs.inodes[d2].node {
                        mm.insert(n2, c);
                    }
                    self.vfs.inodes[c].parent = d2;
                    Ok(0)
                }
                (Target::Host(h1, ro1), Target::Host(h2, ro2)) => {
                    if ro1 || ro2 {
                        return Err(EROFS);
                    }
                    let r = if n == nr::LINKAT {
                        std::fs::hard_link(h1.join(n1), h2.join(n2))
                    } else {
                        std::fs::rename(h1.join(n1), h2.join(n2))
                    };
                    r.map(|_| 0).map_err(|e| -errno(e))
                }
                _ => Err(EXDEV),
            }
        })();
        Ok(Sys::Ret(r.unwrap_or_else(|e| -e)))
    }

    fn sys_getdents(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        fd: i64,
        buf: u64,
        len: usize,
    ) -> Result<Sys, String> {
        let f = match self.fd(pid, fd) {
            Ok(f) => f,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        let mut of = f.file.borrow_mut();
        let Kind::Dir(t, _) = &of.kind else {
            return Ok(Sys::Ret(-ENOTDIR));
        };
        let mut entries: Vec<(u64, u8, String)> = vec![(1, 4, ".".into()), (1, 4, "..".into())];
        match t {
            Target::Mem(i) => {
                if let Node::Dir(mm) = &self.vfs.inodes[*i].node {
                    for (name, &c) in mm {
                        let ty = match self.vfs.inodes[c].node {
                            Node::Dir(_) | Node::Mount { .. } => 4,
                            Node::Symlink(_) => 10,
                            Node::Dev(_) => 2,
                            Node::File(_) => 8,
                        };
                        entries.push((c as u64 + 1, ty, name.clone()));
                    }
                }
            }
            Target::Host(p, _) => {
                use std::os::unix::fs::DirEntryExt;
                if let Ok(rd) = std::fs::read_dir(p) {
                    let mut v: Vec<_> = rd.flatten().collect();
                    v.sort_by_key(|e| e.file_name());
                    for e in v {
                        let ty = e
                            .file_type()
                            .map(|t| {
                                if t.is_dir() {
                                    4
                                } else if t.is_symlink() {
                                    10
                                } else {
                                    8
                                }
                            })
                            .unwrap_or(0);
                        entries.push((e.ino(), ty, e.file_name().to_string_lossy().into_owned()));
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut idx = of.offset as usize;
        while idx < entries.len() {
            let (ino, ty, name) = &entries[idx];
            let reclen = (19 + name.len() + 1).div_ceil(8) * 8;
            if out.len() + reclen > len {
                break;
            }
            let mut rec = vec![0u8; reclen];
            rec[0..8].copy_from_slice(&ino.to_le_bytes());
            rec[8..16].copy_from_slice(&((idx + 1) as i64).to_le_bytes());
            rec[16..18].copy_from_slice(&(reclen as u16).to_le_bytes());
            rec[18] = *ty;
            rec[19..19 + name.len()].copy_from_slice(name.as_bytes());
            out.extend_from_slice(&rec);
            idx += 1;
        }
        if out.is_empty() && idx < entries.len() {
            return Ok(Sys::Ret(-EINVAL));
        }
        of.offset = idx as u64;
        drop(of);
        Ok(Sys::Ret(if m.write_mem(slot, buf, &out).is_ok() {
            out.len() as i64
        } else {
            -EFAULT
        }))
    }

    fn sys_mmap(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        const MAP_FIXED: u64 = 0x10;
        const MAP_ANONYMOUS: u64 = 0x20;
        let mem = m.cfg.mem_bytes as u64;
        let len = match a[1].checked_add(4095) {
            Some(l) if a[1] != 0 && l / 4096 * 4096 <= mem => l / 4096 * 4096,
            _ => return Ok(Sys::Ret(if a[1] == 0 { -EINVAL } else { -ENOMEM })),
        };
        let brk = m.st(slot)[layout::S_BRK] as u64;
        let addr = if a[3] & MAP_FIXED != 0 {
            if a[0] & 0xfff != 0
                || a[0].checked_add(len).is_none_or(|e| e > mem)
                || a[0] < loader::LO_BOUND as u64
            {
                return Ok(Sys::Ret(-EINVAL));
            }
            a[0]
        } else {
            let p = self.procs.get_mut(&pid).unwrap();
            let low = p.mmap_low.saturating_sub(len);
            if low < brk.div_ceil(4096) * 4096 + 4096 {
                return Ok(Sys::Ret(-ENOMEM));
            }
            p.mmap_low = low;
            m.st_mut(slot)[layout::S_BRK_MAX] = low as u32;
            low
        };
        let mut data = vec![0u8; len as usize];
        if a[3] & MAP_ANONYMOUS == 0 {
            let f = match self.fd(pid, a[4] as i64) {
                Ok(f) => f,
                Err(e) => return Ok(Sys::Ret(-e)),
            };
            let of = f.file.borrow();
            let off = a[5] as usize;
            let src: Vec<u8> = match &of.kind {
                Kind::Mem(i) => match &self.vfs.inodes[*i].node {
                    Node::File(d) => d.get(off..).unwrap_or(&[]).to_vec(),
                    _ => return Ok(Sys::Ret(-EINVAL)),
                },
                Kind::Host(file, _) => {
                    // Through the open file, not its path: the path may name something else now.
                    use std::os::unix::fs::FileExt;
                    let mut b = vec![0u8; data.len()];
                    let k = file.read_at(&mut b, off as u64).unwrap_or(0);
                    b.truncate(k);
                    b
                }
                _ => return Ok(Sys::Ret(-EINVAL)),
            };
            let k = src.len().min(data.len());
            data[..k].copy_from_slice(&src[..k]);
        }
        m.write_mem(slot, addr, &data)?;
        Ok(Sys::Ret(addr as i64))
    }

    /// The handler word of a process's action for `sig` (0 default, 1 ignore, else a function).
    fn handler(&self, pid: Pid, sig: i32) -> u64 {
        self.procs
            .get(&pid)
            .and_then(|p| p.sigactions.get(&sig))
            .map_or(0, |a| a[0])
    }

    /// Starts the handler of one pending signal in every process that can take it now: the
    /// registers go into a frame on the guest stack (garm's own layout, read back by
    /// rt_sigreturn), and the guest continues in the handler with x0 = signal and x30 = the
    /// restorer it registered. A process blocked in a syscall is interrupted with EINTR first.
    pub fn deliver_pending(&mut self, m: &mut Machine) {
        let ready: Vec<(Pid, usize)> = self
            .procs
            .values()
            .filter(|p| !p.pending.is_empty() && p.in_handler == 0 && p.vfork_child.is_none())
            .filter_map(|p| p.slot.map(|s| (p.pid, s)))
            .collect();
        for (pid, slot) in ready {
            let status = m.st(slot)[layout::S_STATUS];
            let blocked = self.procs[&pid].state == PState::Blocked;
            // Mid-instruction states (a pending console write, the second step of a pair) wait.
            if !(blocked || status == st::RUNNING || status == st::LIMIT_RETRY)
                || m.st(slot)[layout::S_USTEP] != 0
            {
                continue;
            }
            let sig = self.procs.get_mut(&pid).unwrap().pending.remove(0);
            // The action may have changed since the signal was queued.
            let [handler, flags, restorer] = self.procs[&pid]
                .sigactions
                .get(&sig)
                .copied()
                .unwrap_or([0; 3]);
            if handler == 1
                || (handler == 0 && matches!(sig, SIGCHLD | SIGCONT | SIGURG | SIGWINCH))
            {
                continue;
            }
            if handler == 0 {
                self.exit_proc(m, pid, sig);
                continue;
            }
            if blocked {
                // SA_RESTART: the handler returns to the SVC again (x0 still holds the first
                // argument while a call is blocked); otherwise the call fails with EINTR.
                if flags & SA_RESTART != 0 {
                    let pc = m.word64(slot, layout::S_PC);
                    m.set_word64(slot, layout::S_PC, pc - 4);
                } else {
                    m.set_reg(slot, 0, (-EINTR) as u64);
                }
                let p = self.procs.get_mut(&pid).unwrap();
                p.state = PState::Running;
                p.sleep_until = None;
            }
            let mut frame: Vec<u64> = vec![SIGFRAME_MAGIC, sig as u64];
            frame.extend((0..32).map(|r| m.reg(slot, r)));
            frame.push(m.word64(slot, layout::S_PC));
            frame.push(m.st(slot)[layout::S_NZCV] as u64);
            let sp = m.reg(slot, 31);
            let new_sp = sp.wrapping_sub(frame.len() as u64 * 8 + 16) & !15;
            let bytes: Vec<u8> = frame.iter().flat_map(|w| w.to_le_bytes()).collect();
            if m.write_mem(slot, new_sp, &bytes).is_err() {
                self.exit_proc(m, pid, SIGSEGV);
                continue;
            }
            m.set_reg(slot, 0, sig as u64);
            m.set_reg(slot, 30, restorer);
            m.set_reg(slot, 31, new_sp);
            m.set_word64(slot, layout::S_PC, handler);
            m.st_mut(slot)[layout::S_STATUS] = st::RUNNING;
            self.procs.get_mut(&pid).unwrap().in_handler += 1;
        }
    }

    /// rt_sigreturn: restores the registers saved by [`Kernel::deliver_pending`].
    fn sys_sigreturn(&mut self, m: &mut Machine, slot: usize, pid: Pid) -> Result<Sys, String> {
        let sp = m.reg(slot, 31);
        let Ok(b) = m.read_mem(slot, sp, 36 * 8) else {
            self.exit_proc(m, pid, SIGSEGV);
            return Ok(Sys::NoReturn);
        };
        let w: Vec<u64> = b
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if w[0] != SIGFRAME_MAGIC {
            self.exit_proc(m, pid, SIGSEGV);
            return Ok(Sys::NoReturn);
        }
        for r in 0..32 {
            m.set_reg(slot, r, w[2 + r]);
        }
        m.set_word64(slot, layout::S_PC, w[34]);
        m.st_mut(slot)[layout::S_NZCV] = w[35] as u32 & 15;
        let p = self.procs.get_mut(&pid).unwrap();
        p.in_handler = p.in_handler.saturating_sub(1);
        Ok(Sys::NoReturn)
    }

    fn sys_kill(&mut self, m: &mut Machine, pid: Pid, target: Pid, sig: i32) -> Sys {
        let targets: Vec<Pid> = if target > 0 {
            vec![target]
        } else if target == -1 {
            // Every process the caller may signal: all but itself are listed first.
            let mut all: Vec<Pid> = self.procs.keys().copied().filter(|&p| p != pid).collect();
            all.push(pid);
            all
        } else {
            let pg = if target == 0 {
                self.procs[&pid].pgid
            } else {
                -target
            };
            self.procs
                .values()
                .filter(|p| p.pgid == pg)
                .map(|p| p.pid)
                .collect()
        };
        if !(0..=64).contains(&sig) {
            return Sys::Ret(-EINVAL);
        }
        if targets.is_empty() || !self.procs.contains_key(&targets[0]) {
            return Sys::Ret(-ESRCH);
        }
        if sig == 0 || sig == SIGSTOP {
            // Stopping is not modelled: SIGSTOP is accepted and has no effect.
            return Sys::Ret(0);
        }
        let mut self_killed = false;
        for t in targets {
            let Some(p) = self.procs.get(&t) else {
                continue;
            };
            if matches!(p.state, PState::Zombie(_)) {
                continue;
            }
            let handler = self.handler(t, sig);
            let default_ignore = matches!(sig, SIGCHLD | SIGCONT | SIGURG | SIGWINCH);
            if sig != SIGKILL && (handler == 1 || (handler == 0 && default_ignore)) {
                continue; // SIG_IGN, or ignored by default
            }
            if handler > 1 && sig != SIGKILL {
                // Run by deliver_pending once the process is between instructions.
                self.procs.get_mut(&t).unwrap().pending.push(sig);
                continue;
            }
            self.exit_proc(m, t, sig);
            self_killed |= t == pid;
        }
        if self_killed {
            Sys::NoReturn
        } else {
            Sys::Ret(0)
        }
    }

    /// waitid: like wait4 (WEXITED implied, WNOHANG 1), reporting through a siginfo_t.
    fn sys_waitid(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        want: i64,
        info: u64,
        options: u64,
    ) -> Result<Sys, String> {
        const WNOHANG: u64 = 1;
        const WNOWAIT: u64 = 0x0100_0000;
        let zombie = match self.waitable(pid, want) {
            Ok(z) => z,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        let mut si = vec![0u8; 128];
        if let Some((cpid, ws)) = zombie {
            let (code, st): (i32, i32) = if ws & 0x7f == 0 {
                (1, (ws >> 8) & 0xff)
            } else {
                (2, ws & 0x7f)
            };
            si[0..4].copy_from_slice(&SIGCHLD.to_le_bytes());
            si[8..12].copy_from_slice(&code.to_le_bytes());
            si[16..20].copy_from_slice(&(cpid as i32).to_le_bytes());
            si[24..28].copy_from_slice(&st.to_le_bytes());
            if info != 0 && m.write_mem(slot, info, &si).is_err() {
                return Ok(Sys::Ret(-EFAULT));
            }
            if options & WNOWAIT == 0 {
                self.procs.remove(&cpid);
            }
            return Ok(Sys::Ret(0));
        }
        if options & WNOHANG != 0 {
            if info != 0 {
                let _ = m.write_mem(slot, info, &si);
            }
            return Ok(Sys::Ret(0));
        }
        Ok(Sys::Block)
    }

    /// mremap: shrinking keeps the mapping; growing moves it (with MREMAP_MAYMOVE) to a fresh
    /// region, copying the bytes.
    fn sys_mremap(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        const MREMAP_MAYMOVE: u64 = 1;
        let mem = m.cfg.mem_bytes as u64;
        let page = |x: u64| {
            x.checked_add(4095)
                .map(|v| v / 4096 * 4096)
                .filter(|&v| v <= mem)
        };
        let (old, Some(old_len), Some(new_len)) = (a[0], page(a[1]), page(a[2])) else {
            return Ok(Sys::Ret(-ENOMEM));
        };
        if old & 0xfff != 0 || new_len == 0 {
            return Ok(Sys::Ret(-EINVAL));
        }
        if new_len <= old_len {
            return Ok(Sys::Ret(old as i64));
        }
        if a[3] & MREMAP_MAYMOVE == 0 {
            return Ok(Sys::Ret(-ENOMEM));
        }
        let r = self.sys_mmap(m, slot, pid, [0, new_len, 3, 0x22, u64::MAX, 0])?;
        let Sys::Ret(new) = r else { return Ok(r) };
        if new < 0 {
            return Ok(Sys::Ret(new));
        }
        let Ok(bytes) = m.read_mem(slot, old, old_len as usize) else {
            return Ok(Sys::Ret(-EFAULT));
        };
        m.write_mem(slot, new as u64, &bytes)?;
        Ok(Sys::Ret(new))
    }

    /// The children `want` names (wait4's encoding: -1 any, >0 a pid, 0 my group, <-1 a group):
    /// ECHILD when there are none, else the first zombie (pid, wait status) if any.
    fn waitable(&self, pid: Pid, want: i64) -> Result<Option<(Pid, i32)>, i64> {
        let pgid = self.procs[&pid].pgid;
        let mut kids = self.procs.values().filter(|c| {
            c.ppid == pid
                && (want == -1
                    || (want > 0 && c.pid == want)
                    || (want == 0 && c.pgid == pgid)
                    || (want < -1 && c.pgid == -want))
        });
        let mut any = false;
        for c in kids.by_ref() {
            any = true;
            if let PState::Zombie(ws) = c.state {
                return Ok(Some((c.pid, ws)));
            }
        }
        if any {
            Ok(None)
        } else {
            Err(ECHILD)
        }
    }

    fn sys_wait4(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        want: i64,
        status: u64,
        options: u64,
    ) -> Result<Sys, String> {
        const WNOHANG: u64 = 1;
        match self.waitable(pid, want) {
            Err(e) => return Ok(Sys::Ret(-e)),
            Ok(Some((cpid, ws))) => {
                if status != 0 && m.write_mem(slot, status, &ws.to_le_bytes()).is_err() {
                    return Ok(Sys::Ret(-EFAULT));
                }
                self.procs.remove(&cpid);
                return Ok(Sys::Ret(cpid));
            }
            Ok(None) => {}
        }
        if options & WNOHANG != 0 {
            return Ok(Sys::Ret(0));
        }
        Ok(Sys::Block)
    }

    fn sys_clone(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        const CLONE_VM: u64 = 0x100;
        const CLONE_VFORK: u64 = 0x4000;
        const CLONE_THREAD: u64 = 0x10000;
        let flags = a[0];
        if flags & CLONE_THREAD != 0 || (flags & CLONE_VM != 0 && flags & CLONE_VFORK == 0) {
            return Ok(Sys::Ret(-ENOSYS)); // threads: not yet
        }
        let Some(cslot) = self.slots.iter().position(|s| s.is_none()) else {
            if !self.limit_note {
                eprintln!(
                    "garm: process limit of {} reached: fork returns EAGAIN (raise --max-procs)",
                    self.slots.len()
                );
                self.limit_note = true;
            }
            return Ok(Sys::Ret(-EAGAIN));
        };
        let t = std::time::Instant::now();
        let cpid = self.next_pid;
        self.next_pid += 1;
        m.copy_instance(slot, cslot)?;
        let parent = &self.procs[&pid];
        let child = Proc {
            pid: cpid,
            ppid: pid,
            pgid: parent.pgid,
            slot: Some(cslot),
            inst: parent.inst,
            fds: parent.fds.clone(),
            cwd: parent.cwd.clone(),
            state: PState::Running,
            image: parent.image.clone(),
            exe_path: parent.exe_path.clone(),
            umask: parent.umask,
            mmap_low: parent.mmap_low,
            sigactions: parent.sigactions.clone(),
            pending: Vec::new(),
            in_handler: 0,
            vfork_parent: if flags & CLONE_VFORK != 0 {
                Some(pid)
            } else {
                None
            },
            vfork_child: None,
            root: false,
            sleep_until: None,
        };
        // The child shares the parent's open file descriptions (and so its pipe ends).
        self.procs.insert(cpid, child);
        self.slots[cslot] = Some(cpid);
        m.set_reg(cslot, 0, 0);
        if a[1] != 0 {
            m.set_reg(cslot, 31, a[1]);
        }
        m.st_mut(cslot)[layout::S_STATUS] = st::RUNNING;
        self.forks += 1;
        self.fork_time += t.elapsed();
        if flags & CLONE_VFORK != 0 {
            // The parent sleeps until the child execs or exits; its result is the child's pid.
            m.set_reg(slot, 0, cpid as u64);
            let p = self.procs.get_mut(&pid).unwrap();
            p.state = PState::Blocked;
            p.vfork_child = Some(cpid);
            return Ok(Sys::Block);
        }
        Ok(Sys::Ret(cpid))
    }

    fn sys_execve(
        &mut self,
        m: &mut Machine,
        slot: usize,
        pid: Pid,
        a: [u64; 6],
    ) -> Result<Sys, String> {
        type Exec = (Vec<u8>, String, Vec<String>, Vec<String>);
        let r = (|| -> Result<Exec, i64> {
            let path = self.read_cstr(m, slot, a[0])?;
            let argv: Vec<String> = self
                .read_ptrs(m, slot, a[1])?
                .into_iter()
                .map(|p| self.read_cstr(m, slot, p))
                .collect::<Result<_, _>>()?;
            let envp: Vec<String> = self
                .read_ptrs(m, slot, a[2])?
                .into_iter()
                .map(|p| self.read_cstr(m, slot, p))
                .collect::<Result<_, _>>()?;
            let cwd = self.procs[&pid].cwd.clone();
            let bytes = match self.vfs.resolve(&cwd, &path, true)? {
                Target::Mem(i) => match &self.vfs.inodes[i].node {
                    Node::File(d) => d.clone(),
                    Node::Dir(_) => return Err(EACCES),
                    _ => return Err(EACCES),
                },
                Target::Host(p, _) => std::fs::read(p).map_err(|e| -errno(e))?,
            };
            Ok((bytes, normalize(&cwd, &path), argv, envp))
        })();
        let (bytes, path, argv, envp) = match r {
            Ok(x) => x,
            Err(e) => return Ok(Sys::Ret(-e)),
        };
        let image = match loader::load_elf(&bytes, m.cfg.mem_bytes as u64) {
            Ok(i) => Rc::new(i),
            Err(_) => return Ok(Sys::Ret(-ENOEXEC)),
        };
        if crate::run::check_fits(&image, m.cfg.mem_bytes as u64, &argv, &envp).is_err() {
            return Ok(Sys::Ret(-E2BIG));
        }
        let mmap_low = crate::run::load_process(m, slot, &image, &argv, &envp)?;
        let p = self.procs.get_mut(&pid).unwrap();
        p.image = image;
        p.exe_path = path;
        p.mmap_low = mmap_low;
        p.sigactions.retain(|_, a| a[0] == 1);
        p.pending.clear();
        p.in_handler = 0;
        for f in p.fds.iter_mut() {
            if f.as_ref().is_some_and(|f| f.cloexec) {
                *f = None;
            }
        }
        if let Some(vp) = p.vfork_parent.take() {
            self.wake(m, vp);
        }
        self.procs.get_mut(&pid).unwrap().state = PState::Running;
        Ok(Sys::NoReturn)
    }
}

/// A result as qemu's strace shows it: the value, or -1 with the errno and its name.
fn render_result(v: i64) -> String {
    if (-4095..0).contains(&v) {
        let name = match -v {
            ENOENT => "ENOENT",
            EBADF => "EBADF",
            ECHILD => "ECHILD",
            EAGAIN => "EAGAIN",
            ENOMEM => "ENOMEM",
            EFAULT => "EFAULT",
            EEXIST => "EEXIST",
            ENOTDIR => "ENOTDIR",
            EISDIR => "EISDIR",
            EINVAL => "EINVAL",
            ENOTTY => "ENOTTY",
            ESPIPE => "ESPIPE",
            EROFS => "EROFS",
            EPIPE => "EPIPE",
            ENOSYS => "ENOSYS",
            ENOTEMPTY => "ENOTEMPTY",
            _ => "",
        };
        format!("-1 errno={} ({name})", -v)
    } else {
        v.to_string()
    }
}

/// A 128-byte `struct stat` (aarch64 asm-generic layout).
fn stat_bytes(ino: u64, mode: u32, size: u64, nlink: u32) -> Vec<u8> {
    let mut b = vec![0u8; 128];
    b[0..8].copy_from_slice(&1u64.to_le_bytes());
    b[8..16].copy_from_slice(&ino.to_le_bytes());
    b[16..20].copy_from_slice(&mode.to_le_bytes());
    b[20..24].copy_from_slice(&nlink.to_le_bytes());
    b[48..56].copy_from_slice(&size.to_le_bytes());
    b[56..60].copy_from_slice(&4096u32.to_le_bytes());
    b[64..72].copy_from_slice(&size.div_ceil(512).to_le_bytes());
    b
}

/// `struct stat` of a host file.
fn stat_from_metadata(md: &std::fs::Metadata) -> Vec<u8> {
    use std::os::unix::fs::MetadataExt;
    let mut b = stat_bytes(md.ino(), md.mode(), md.size(), md.nlink() as u32);
    b[88..96].copy_from_slice(&md.mtime().to_le_bytes());
    b
}

/// `struct statx` from a `struct stat`.
fn statx_from_stat(s: &[u8]) -> Vec<u8> {
    let mut b = vec![0u8; 256];
    b[0..4].copy_from_slice(&0x7ffu32.to_le_bytes());
    b[4..8].copy_from_slice(&4096u32.to_le_bytes());
    b[16..20].copy_from_slice(&s[20..24]);
    b[28..30].copy_from_slice(&s[16..18]);
    b[32..40].copy_from_slice(&s[8..16]);
    b[40..48].copy_from_slice(&s[48..56]);
    b[48..56].copy_from_slice(&s[64..72]);
    b[112..120].copy_from_slice(&s[88..96]);
    b
}

/// Deterministic bytes for /dev/urandom and getrandom (reproducible runs; not for secrets).
fn pseudo_random(len: usize, seed: u64) -> Vec<u8> {
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
