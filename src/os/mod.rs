//! The host side of the guest OS: the kernel ([`kernel`]: processes, fds, pipes, syscalls by
//! family), the syscall table ([`syscalls`]), the guest ABI ([`abi`]), errno ([`errno`]), the
//! filesystem ([`vfs`]), `--strace`, guest output routing and standard input.

pub mod abi;
pub mod errno;
pub mod kernel;
pub mod strace;
pub mod syscalls;
pub mod vfs;

pub use syscalls::nr;

use std::io::{Read, Write};

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
