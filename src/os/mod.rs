//! The host side of the guest OS: the kernel ([`kernel`]: processes, fds, pipes, syscalls), the
//! filesystem ([`vfs`]), guest output routing and standard input.

pub mod errno;
pub mod kernel;
pub mod vfs;

use std::io::{Read, Write};

/// Linux aarch64 (asm-generic) syscall numbers garm implements.
pub mod nr {
    pub const GETCWD: u64 = 17;
    pub const DUP: u64 = 23;
    pub const DUP3: u64 = 24;
    pub const FCNTL: u64 = 25;
    pub const IOCTL: u64 = 29;
    pub const MKDIRAT: u64 = 34;
    pub const UNLINKAT: u64 = 35;
    pub const SYMLINKAT: u64 = 36;
    pub const LINKAT: u64 = 37;
    pub const RENAMEAT: u64 = 38;
    pub const FTRUNCATE: u64 = 46;
    pub const FACCESSAT: u64 = 48;
    pub const CHDIR: u64 = 49;
    pub const FCHDIR: u64 = 50;
    pub const OPENAT: u64 = 56;
    pub const CLOSE: u64 = 57;
    pub const PIPE2: u64 = 59;
    pub const GETDENTS64: u64 = 61;
    pub const LSEEK: u64 = 62;
    pub const READ: u64 = 63;
    pub const WRITE: u64 = 64;
    pub const READV: u64 = 65;
    pub const WRITEV: u64 = 66;
    pub const PREAD64: u64 = 67;
    pub const PWRITE64: u64 = 68;
    pub const READLINKAT: u64 = 78;
    pub const NEWFSTATAT: u64 = 79;
    pub const FSTAT: u64 = 80;
    pub const UTIMENSAT: u64 = 88;
    pub const EXIT: u64 = 93;
    pub const EXIT_GROUP: u64 = 94;
    pub const WAITID: u64 = 95;
    pub const SET_TID_ADDRESS: u64 = 96;
    pub const SET_ROBUST_LIST: u64 = 99;
    pub const NANOSLEEP: u64 = 101;
    pub const CLOCK_GETTIME: u64 = 113;
    pub const SCHED_YIELD: u64 = 124;
    pub const KILL: u64 = 129;
    pub const TGKILL: u64 = 131;
    pub const RT_SIGACTION: u64 = 134;
    pub const RT_SIGPROCMASK: u64 = 135;
    pub const RT_SIGRETURN: u64 = 139;
    pub const SETPGID: u64 = 154;
    pub const GETPGID: u64 = 155;
    pub const UNAME: u64 = 160;
    pub const UMASK: u64 = 166;
    pub const GETTIMEOFDAY: u64 = 169;
    pub const GETPID: u64 = 172;
    pub const GETPPID: u64 = 173;
    pub const GETUID: u64 = 174;
    pub const GETEUID: u64 = 175;
    pub const GETGID: u64 = 176;
    pub const GETEGID: u64 = 177;
    pub const GETTID: u64 = 178;
    pub const SYSINFO: u64 = 179;
    pub const BRK: u64 = 214;
    pub const MUNMAP: u64 = 215;
    pub const MREMAP: u64 = 216;
    pub const CLONE: u64 = 220;
    pub const EXECVE: u64 = 221;
    pub const MMAP: u64 = 222;
    pub const MPROTECT: u64 = 226;
    pub const MADVISE: u64 = 233;
    pub const WAIT4: u64 = 260;
    pub const PRLIMIT64: u64 = 261;
    pub const RENAMEAT2: u64 = 276;
    pub const GETRANDOM: u64 = 278;
    pub const STATX: u64 = 291;
}

pub fn syscall_name(n: u64) -> String {
    let s = match n {
        nr::GETCWD => "getcwd",
        nr::DUP => "dup",
        nr::DUP3 => "dup3",
        nr::FCNTL => "fcntl",
        nr::IOCTL => "ioctl",
        nr::MKDIRAT => "mkdirat",
        nr::UNLINKAT => "unlinkat",
        nr::SYMLINKAT => "symlinkat",
        nr::LINKAT => "linkat",
        nr::RENAMEAT => "renameat",
        nr::FTRUNCATE => "ftruncate",
        nr::FACCESSAT => "faccessat",
        nr::CHDIR => "chdir",
        nr::FCHDIR => "fchdir",
        nr::OPENAT => "openat",
        nr::CLOSE => "close",
        nr::PIPE2 => "pipe2",
        nr::GETDENTS64 => "getdents64",
        nr::LSEEK => "lseek",
        nr::READ => "read",
        nr::WRITE => "write",
        nr::READV => "readv",
        nr::WRITEV => "writev",
        nr::PREAD64 => "pread64",
        nr::PWRITE64 => "pwrite64",
        nr::READLINKAT => "readlinkat",
        nr::NEWFSTATAT => "newfstatat",
        nr::FSTAT => "fstat",
        nr::UTIMENSAT => "utimensat",
        nr::EXIT => "exit",
        nr::EXIT_GROUP => "exit_group",
        nr::WAITID => "waitid",
        nr::SET_TID_ADDRESS => "set_tid_address",
        nr::SET_ROBUST_LIST => "set_robust_list",
        nr::NANOSLEEP => "nanosleep",
        nr::CLOCK_GETTIME => "clock_gettime",
        nr::SCHED_YIELD => "sched_yield",
        nr::KILL => "kill",
        nr::TGKILL => "tgkill",
        nr::RT_SIGACTION => "rt_sigaction",
        nr::RT_SIGPROCMASK => "rt_sigprocmask",
        nr::RT_SIGRETURN => "rt_sigreturn",
        nr::SETPGID => "setpgid",
        nr::GETPGID => "getpgid",
        nr::UNAME => "uname",
        nr::UMASK => "umask",
        nr::GETTIMEOFDAY => "gettimeofday",
        nr::GETPID => "getpid",
        nr::GETPPID => "getppid",
        nr::GETUID => "getuid",
        nr::GETEUID => "geteuid",
        nr::GETGID => "getgid",
        nr::GETEGID => "getegid",
        nr::GETTID => "gettid",
        nr::SYSINFO => "sysinfo",
        nr::BRK => "brk",
        nr::MUNMAP => "munmap",
        nr::MREMAP => "mremap",
        nr::CLONE => "clone",
        nr::EXECVE => "execve",
        nr::MMAP => "mmap",
        nr::MPROTECT => "mprotect",
        nr::MADVISE => "madvise",
        nr::WAIT4 => "wait4",
        nr::PRLIMIT64 => "prlimit64",
        nr::RENAMEAT2 => "renameat2",
        nr::GETRANDOM => "getrandom",
        nr::STATX => "statx",
        _ => return format!("syscall_{n}"),
    };
    s.to_string()
}

/// Where guest output goes: straight to the host (one instance) or kept per instance.
pub struct Output {
    pub stream: bool,
    /// Per instance: (fd, bytes) chunks in order.
    pub kept: Vec<Vec<(u32, Vec<u8>)>>,
}

impl Output {
    pub fn new(instances: usize, stream: bool) -> Output {
        Output {
            stream,
            kept: vec![Vec::new(); instances],
        }
    }

    pub fn emit(&mut self, inst: usize, fd: u32, bytes: &[u8]) {
        if self.stream {
            // A closed host pipe must not kill garm; the guest just loses its output.
            let _ = if fd == 2 {
                std::io::stderr().write_all(bytes)
            } else {
                std::io::stdout().write_all(bytes)
            };
        } else {
            self.kept[inst].push((fd, bytes.to_vec()));
        }
    }

    /// Splits one instance's output-ring words into records and emits them.
    pub fn drain_ring(&mut self, inst: usize, words: &[u32]) {
        let mut i = 0;
        while i < words.len() {
            let hdr = words[i];
            let fd = hdr >> 28;
            let len = (hdr & 0x0fff_ffff) as usize;
            let n = len.div_ceil(4);
            let end = (i + 1 + n).min(words.len());
            let bytes: Vec<u8> = words[i + 1..end]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(len)
                .collect();
            self.emit(inst, fd, &bytes);
            i = end;
        }
    }

    pub fn flush(&self) {
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
    }

    /// Prints kept output in instance order, each line prefixed with `[i] `.
    pub fn print_prefixed(&self) {
        let mut out = std::io::stdout().lock();
        let mut err = std::io::stderr().lock();
        for (i, chunks) in self.kept.iter().enumerate() {
            for fd in [1u32, 2] {
                let bytes: Vec<u8> = chunks
                    .iter()
                    .filter(|(f, _)| *f == fd)
                    .flat_map(|(_, b)| b.clone())
                    .collect();
                if bytes.is_empty() {
                    continue;
                }
                let mut text = Vec::new();
                for line in bytes.split_inclusive(|&b| b == b'\n') {
                    text.extend_from_slice(format!("[{i}] ").as_bytes());
                    text.extend_from_slice(line);
                }
                if text.last() != Some(&b'\n') {
                    text.push(b'\n');
                }
                let _ = if fd == 2 {
                    err.write_all(&text)
                } else {
                    out.write_all(&text)
                };
            }
        }
    }

    /// Everything instance `inst` wrote to `fd`.
    pub fn bytes(&self, inst: usize, fd: u32) -> Vec<u8> {
        self.kept[inst]
            .iter()
            .filter(|(f, _)| *f == fd)
            .flat_map(|(_, b)| b.clone())
            .collect()
    }
}

/// Guest standard input: streamed from the host for one instance; read once and replayed to
/// each instance when there are many, so every copy sees the same input.
pub struct Stdin {
    shared: Option<Vec<u8>>,
    many: bool,
    pos: Vec<usize>,
}

impl Stdin {
    pub fn new(instances: usize) -> Stdin {
        Stdin {
            shared: None,
            many: instances > 1,
            pos: vec![0; instances],
        }
    }

    /// Standard input given in full (as `garm diff` gives every engine the same bytes).
    pub fn fixed(instances: usize, data: Vec<u8>) -> Stdin {
        Stdin {
            shared: Some(data),
            many: true,
            pos: vec![0; instances],
        }
    }

    pub fn read(&mut self, inst: usize, len: usize) -> Vec<u8> {
        if !self.many {
            let mut buf = vec![0u8; len];
            let n = std::io::stdin().read(&mut buf).unwrap_or(0);
            buf.truncate(n);
            return buf;
        }
        let all = self.shared.get_or_insert_with(|| {
            let mut v = Vec::new();
            let _ = std::io::stdin().read_to_end(&mut v);
            v
        });
        let p = self.pos[inst].min(all.len());
        let end = (p + len).min(all.len());
        self.pos[inst] = end;
        all[p..end].to_vec()
    }
}
