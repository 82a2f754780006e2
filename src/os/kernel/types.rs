//! The kernel's objects: open file descriptions and fds, pipes, processes.

use super::*;

/// What an open file description refers to.
#[derive(Debug)]
pub enum Kind {
    Mem(Ino),
    /// A file in a mount: the open host file, its host path, and whether the mount is read-only.
    Host(std::fs::File, PathBuf, bool),
    Dir(Target, String),
    PipeR(usize),
    PipeW(usize),
    /// One end of a socketpair: the pipe it reads and the pipe it writes (its peer's reverse);
    /// [`SHUT`] for a direction shut down.
    Sock(usize, usize),
    /// An AF_UNIX stream socket before it connects: fresh, bound or listening (its entry in
    /// [`Kernel::unix`]).
    Unix(u64),
    /// An AF_INET/AF_INET6 socket under `--net`: a host socket, always non-blocking on the
    /// host (a guest that would block waits like a pipe reader instead).
    Net(super::net::HostSock),
    /// An eventfd: its counter, and whether reads take one at a time (EFD_SEMAPHORE).
    Event {
        count: u64,
        semaphore: bool,
    },
    /// An epoll instance and what it watches.
    Epoll(super::event::Epoll),
    /// A /proc file's bytes as made when it was opened.
    Bytes(Rc<[u8]>),
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
    /// Where this description reports its going away: its own kernel's queue.
    pub(super) closes: Closes,
}

/// A kernel's queue of descriptions closed by dropping their last fd, applied by the kernel
/// afterwards (pipe ends counted down, unlinked files' data freed). Each kernel has its own, so
/// two kernels in one thread (runs one after another, tests) never see each other's.
pub type Closes = Rc<RefCell<Vec<Closed>>>;

/// A socket direction that was shut down (no pipe).
pub const SHUT: usize = usize::MAX;

impl Drop for OpenFile {
    fn drop(&mut self) {
        if let Kind::Sock(rx, tx) = self.kind {
            let mut q = self.closes.borrow_mut();
            if rx != SHUT {
                q.push(Closed::PipeReader(rx));
            }
            if tx != SHUT {
                q.push(Closed::PipeWriter(tx));
            }
            return;
        }
        let c = match self.kind {
            Kind::PipeR(p) => Closed::PipeReader(p),
            Kind::PipeW(p) => Closed::PipeWriter(p),
            Kind::Mem(i) | Kind::Dir(Target::Mem(i), _) => Closed::File(i),
            Kind::Unix(key) => Closed::Unix(key),
            _ => return,
        };
        self.closes.borrow_mut().push(c);
    }
}

/// An open file description that went away with its last fd.
#[derive(Debug)]
pub enum Closed {
    PipeReader(usize),
    PipeWriter(usize),
    File(Ino),
    Unix(u64),
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
    /// For one direction of a connected socket: the address of the socket that reads it
    /// (getsockname of that end, getpeername of the other); empty for an unnamed socket.
    pub name: Vec<u8>,
    /// Writes so far: each is an edge for an edge-triggered epoll watch.
    pub writes: u64,
}

impl Pipe {
    /// Appends a write's bytes.
    pub fn push(&mut self, data: &[u8]) {
        self.buf.extend(data);
        self.writes += 1;
    }
}

/// An AF_UNIX stream socket that is not connected: fresh, bound, or listening with the
/// connections that wait for accept.
#[derive(Debug, Default)]
pub struct UnixSock {
    /// The address it is bound to (a path, or an abstract name starting with NUL); empty when
    /// unbound.
    pub name: Vec<u8>,
    /// `Some(backlog)` once listening.
    pub backlog: Option<usize>,
    /// Connections made and not yet accepted: the (read, write) pipes of the accepting end.
    pub queue: VecDeque<(usize, usize)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PState {
    Running,
    /// Waiting in a syscall that will be retried (wait4, pipe read/write, vfork parent).
    Blocked,
    /// Exited; the Linux wait status.
    Zombie(i32),
    /// A group leader whose own thread ended (SYS_exit) while other threads run on: the process
    /// lives, and its wait status will be this one.
    ThreadExited(i32),
}

/// Where a futex lives: an address in one address space (private memory, whatever the
/// FUTEX_PRIVATE_FLAG says, as Linux keys it), or a place in a frame of MAP_SHARED memory
/// (shared futexes between processes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FutexKey {
    Space(u32, u64),
    Frame(u32, u32),
}

/// A thread waiting in futex(FUTEX_WAIT*): queued until a wake that matches its bitset, its
/// deadline or a signal. The blocked call is retried after every submit; the record says how it
/// ends without reading guest memory again.
#[derive(Clone, Debug)]
pub struct FutexWait {
    pub key: FutexKey,
    pub bitset: u32,
    /// Queue order (wakes go first come, first served).
    pub seq: u64,
    pub woken: bool,
    pub deadline: Option<web_time::Instant>,
}

/// A thread of a process (a process is its thread group: the threads sharing `tgid`). What
/// CLONE_FILES, CLONE_FS and CLONE_SIGHAND share (fds, cwd, umask, actions) and what makes the
/// process (image, ids, limits, children) is read from the group leader's entry, the one whose
/// pid is the tgid, through [`Kernel::process`]; the rest is per thread.
pub struct Proc {
    pub pid: Pid,
    /// The thread group (the process's pid); `pid` itself for a process's first thread.
    pub tgid: Pid,
    /// CLONE_CHILD_CLEARTID / set_tid_address: cleared and woken when the thread ends.
    pub clear_tid: u64,
    /// A futex wait in progress.
    pub futex: Option<FutexWait>,
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
    /// The arguments and environment the image started with, each NUL-terminated
    /// (/proc/self/cmdline and environ).
    pub cmdline: Rc<[u8]>,
    pub environ: Rc<[u8]>,
    pub umask: u32,
    pub mmap_low: u64,
    /// Installed actions by signal.
    pub sigactions: BTreeMap<i32, Sigaction>,
    /// Signals waiting for delivery to a handler.
    pub pending: Vec<i32>,
    /// What the handler's siginfo says for a pending signal (the latest sender's).
    pub siginfo: BTreeMap<i32, Siginfo>,
    /// Handlers running now (a new one is delivered only outside any).
    pub in_handler: u32,
    /// A vfork parent waits for this child to exec or exit.
    pub vfork_parent: Option<Pid>,
    /// Set in a vfork parent while its child has neither exec'd nor exited.
    pub vfork_child: Option<Pid>,
    /// One of the `--instances` copies: its outcome is garm's.
    pub root: bool,
    /// The end of a nanosleep in progress.
    pub sleep_until: Option<web_time::Instant>,
    /// Blocked reading standard input the host has not sent yet.
    pub input_wait: bool,
    /// Blocked on a host socket (`--net`): the outside world, not a deadlock.
    pub net_wait: bool,
    /// The slot's instruction count when last accounted (see [`Kernel::account`]).
    pub counted: u64,
    /// The thread name (prctl PR_SET_NAME; the program's base name after exec).
    pub comm: [u8; 16],
    /// Resource limits set with setrlimit/prlimit64 (the rest have their defaults).
    pub rlimits: BTreeMap<u32, Rlimit>,
    /// The process has had threads: its break is kept by the host from then on.
    pub threaded: bool,
    /// The process has had children (fork): its exit looks for them to reparent (a scan of
    /// every process, which thousands of childless instances exiting made quadratic).
    pub forked: bool,
    /// The process has (had) MAP_SHARED memory, which its forks share: such processes of an
    /// instance take turns like threads (see `run::assign_turns`).
    pub shares_memory: bool,
}
