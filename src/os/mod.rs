//! The host side of the guest OS: syscalls the shader hands over (Linux aarch64 numbers and
//! `-errno` results), guest output routing, and `--strace`.

use crate::gpu::machine::Machine;
use std::collections::HashSet;
use std::io::{Read, Write};

/// Linux aarch64 syscall numbers garm knows by name.
pub mod nr {
    pub const IOCTL: u64 = 29;
    pub const OPENAT: u64 = 56;
    pub const CLOSE: u64 = 57;
    pub const LSEEK: u64 = 62;
    pub const READ: u64 = 63;
    pub const WRITE: u64 = 64;
    pub const WRITEV: u64 = 66;
    pub const EXIT: u64 = 93;
    pub const EXIT_GROUP: u64 = 94;
    pub const SET_TID_ADDRESS: u64 = 96;
    pub const CLOCK_GETTIME: u64 = 113;
    pub const GETPID: u64 = 172;
    pub const GETPPID: u64 = 173;
    pub const GETUID: u64 = 174;
    pub const GETEUID: u64 = 175;
    pub const GETGID: u64 = 176;
    pub const GETEGID: u64 = 177;
    pub const GETTID: u64 = 178;
    pub const BRK: u64 = 214;
}

pub const ENOENT: i64 = 2;
pub const EBADF: i64 = 9;
pub const EFAULT: i64 = 14;
pub const EINVAL: i64 = 22;
pub const ENOTTY: i64 = 25;
pub const ESPIPE: i64 = 29;
pub const ENOSYS: i64 = 38;

pub fn syscall_name(n: u64) -> String {
    let s = match n {
        nr::IOCTL => "ioctl",
        nr::OPENAT => "openat",
        nr::CLOSE => "close",
        nr::LSEEK => "lseek",
        nr::READ => "read",
        nr::WRITE => "write",
        nr::WRITEV => "writev",
        nr::EXIT => "exit",
        nr::EXIT_GROUP => "exit_group",
        nr::SET_TID_ADDRESS => "set_tid_address",
        nr::CLOCK_GETTIME => "clock_gettime",
        nr::GETPID => "getpid",
        nr::GETPPID => "getppid",
        nr::GETUID => "getuid",
        nr::GETEUID => "geteuid",
        nr::GETGID => "getgid",
        nr::GETEGID => "getegid",
        nr::GETTID => "gettid",
        nr::BRK => "brk",
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

    fn read(&mut self, inst: usize, len: usize) -> Vec<u8> {
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

/// Host syscall handler state.
pub struct HostOs {
    pub strace: bool,
    pub stdin: Stdin,
    reported: HashSet<u64>,
    pub round_trips: u64,
}

impl HostOs {
    pub fn new(instances: usize, strace: bool) -> HostOs {
        HostOs {
            strace,
            stdin: Stdin::new(instances),
            reported: HashSet::new(),
            round_trips: 0,
        }
    }

    /// Answers the syscall instance `inst` stopped on; its result goes into x0.
    pub fn syscall(
        &mut self,
        m: &mut Machine,
        inst: usize,
        out: &mut Output,
    ) -> Result<(), String> {
        self.round_trips += 1;
        let n = m.reg(inst, 8);
        let a: [u64; 6] = std::array::from_fn(|i| m.reg(inst, i));
        let r: i64 = match n {
            nr::READ => {
                if a[0] != 0 {
                    -EBADF
                } else {
                    let len = a[2].min(1 << 20) as usize;
                    let data = self.stdin.read(inst, len);
                    match m.write_mem(inst, a[1], &data) {
                        Ok(()) => data.len() as i64,
                        Err(_) => -EFAULT,
                    }
                }
            }
            nr::WRITE => {
                if a[0] != 1 && a[0] != 2 {
                    -EBADF
                } else {
                    match m.read_mem(inst, a[1], a[2].min(1 << 24) as usize) {
                        Ok(bytes) => {
                            out.emit(inst, a[0] as u32, &bytes);
                            bytes.len() as i64
                        }
                        Err(_) => -EFAULT,
                    }
                }
            }
            nr::IOCTL => -ENOTTY,
            nr::LSEEK => -ESPIPE,
            nr::CLOSE => {
                if a[0] <= 2 {
                    0
                } else {
                    -EBADF
                }
            }
            nr::GETPID | nr::GETTID | nr::SET_TID_ADDRESS => 1000 + inst as i64,
            nr::GETPPID => 1,
            nr::GETUID | nr::GETEUID | nr::GETGID | nr::GETEGID => 0,
            nr::CLOCK_GETTIME => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                let mut ts = Vec::new();
                ts.extend_from_slice(&now.as_secs().to_le_bytes());
                ts.extend_from_slice(&(now.subsec_nanos() as u64).to_le_bytes());
                match m.write_mem(inst, a[1], &ts) {
                    Ok(()) => 0,
                    Err(_) => -EFAULT,
                }
            }
            _ => {
                if self.strace && self.reported.insert(n) {
                    eprintln!(
                        "garm: unimplemented syscall {n} ({}) returns -ENOSYS",
                        syscall_name(n)
                    );
                }
                -ENOSYS
            }
        };
        if self.strace {
            let prefix = if out.kept.len() > 1 {
                format!("[{inst}] ")
            } else {
                String::new()
            };
            eprintln!(
                "{prefix}{}({:#x}, {:#x}, {:#x}, {:#x}) = {r}",
                syscall_name(n),
                a[0],
                a[1],
                a[2],
                a[3]
            );
        }
        m.set_reg(inst, 0, r as u64);
        Ok(())
    }
}
