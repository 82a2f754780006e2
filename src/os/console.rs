//! The console: where guest output goes (straight to the host, streamed line by line with an
//! `[i] ` prefix per instance, or kept in memory for `garm diff` and the fuzzer), whether the
//! host's end is closed (the guest then gets SIGPIPE), and guest standard input.

use crate::os::host::libc;
use std::io::{Read, Write};

/// How guest output reaches the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputMode {
    /// One instance: bytes go to the host's stdout/stderr as written.
    Direct,
    /// Many instances: each completed line goes out at once as `[i] line`; the lines of one
    /// instance keep their order, instances interleave by line.
    Lines,
    /// Kept per instance in memory (library callers read them with [`Output::bytes`]).
    Keep,
}

/// The host end of fd 1 or 2 is closed (EPIPE): the writer gets SIGPIPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Broken;

/// Keep mode holds at most this much per instance (beyond it the rest is dropped and the
/// output marked truncated), so a flooding guest under `garm diff` or the fuzzer cannot make
/// garm's memory grow without bound.
pub const MAX_KEPT: usize = 64 << 20;

/// A partial line longer than this goes out as a line of its own, so one instance's endless line
/// cannot make garm buffer without bound.
pub const MAX_PARTIAL_LINE: usize = 64 << 10;

pub struct Output {
    pub mode: OutputMode,
    instances: usize,
    /// Keep mode: per instance, (fd, bytes) chunks in order.
    kept: Vec<Vec<(u32, Vec<u8>)>>,
    /// Lines mode: per instance, the unfinished line of fd 1 and of fd 2.
    partial: Vec<[Vec<u8>; 2]>,
    /// Host fds 1 and 2 found closed.
    broken: [bool; 2],
    /// Keep mode: bytes kept per instance, and whether some were dropped past [`MAX_KEPT`].
    kept_bytes: Vec<usize>,
    pub truncated: Vec<bool>,
}

impl Output {
    pub fn new(instances: usize, mode: OutputMode) -> Output {
        Output {
            mode,
            instances,
            kept: vec![
                Vec::new();
                if mode == OutputMode::Keep {
                    instances
                } else {
                    0
                }
            ],
            partial: vec![
                Default::default();
                if mode == OutputMode::Lines {
                    instances
                } else {
                    0
                }
            ],
            broken: [false; 2],
            kept_bytes: vec![0; instances],
            truncated: vec![false; instances],
        }
    }

    pub fn instances(&self) -> usize {
        self.instances
    }

    /// Whether the host end of console fd `fd` (1 or 2) is closed.
    pub fn is_broken(&self, fd: u32) -> bool {
        matches!(fd, 1 | 2) && self.broken[fd as usize - 1]
    }

    fn host_write(&mut self, fd: u32, bytes: &[u8]) -> Result<(), Broken> {
        let i = if fd == 2 { 1 } else { 0 };
        if self.broken[i] {
            return Err(Broken);
        }
        crate::progress::clear_line();
        crate::progress::wrote(bytes);
        let r = if fd == 2 {
            std::io::stderr().write_all(bytes)
        } else {
            std::io::stdout().write_all(bytes)
        };
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.broken[i] = true;
                Err(Broken)
            }
            // Any other host error loses the bytes, as a full disk would; the guest goes on.
            _ => Ok(()),
        }
    }

    /// Instance `inst` writes `bytes` to console fd `fd` (1 or 2).
    pub fn emit(&mut self, inst: usize, fd: u32, bytes: &[u8]) -> Result<(), Broken> {
        match self.mode {
            OutputMode::Direct => self.host_write(fd, bytes),
            OutputMode::Keep => {
                let room = MAX_KEPT - self.kept_bytes[inst];
                if bytes.len() > room {
                    self.truncated[inst] = true;
                }
                let take = bytes.len().min(room);
                if take > 0 {
                    self.kept[inst].push((fd, bytes[..take].to_vec()));
                    self.kept_bytes[inst] += take;
                }
                Ok(())
            }
            OutputMode::Lines => {
                let k = if fd == 2 { 1 } else { 0 };
                if self.broken[k] {
                    return Err(Broken);
                }
                self.partial[inst][k].extend_from_slice(bytes);
                let mut text = Vec::new();
                let buf = &mut self.partial[inst][k];
                let mut start = 0;
                while let Some(nl) = buf[start..].iter().position(|&b| b == b'\n') {
                    text.extend_from_slice(format!("[{inst}] ").as_bytes());
                    text.extend_from_slice(&buf[start..start + nl + 1]);
                    start += nl + 1;
                }
                buf.drain(..start);
                if buf.len() > MAX_PARTIAL_LINE {
                    text.extend_from_slice(format!("[{inst}] ").as_bytes());
                    text.append(buf);
                    text.push(b'\n');
                }
                if text.is_empty() {
                    return Ok(());
                }
                self.host_write(fd, &text)
            }
        }
    }

    /// Splits one instance's output-ring words into records and emits them; `Err` when a record
    /// went to a closed host end.
    pub fn drain_ring(&mut self, inst: usize, words: &[u32]) -> Result<(), Broken> {
        let mut r = Ok(());
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
            if self.emit(inst, fd, &bytes).is_err() {
                r = Err(Broken);
            }
            i = end;
        }
        r
    }

    pub fn flush(&self) {
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
    }

    /// Lines mode: writes out every unfinished line (with a newline added), as at the end.
    pub fn finish(&mut self) {
        if self.mode != OutputMode::Lines {
            return;
        }
        for inst in 0..self.instances {
            for (k, fd) in [(0usize, 1u32), (1, 2)] {
                let rest = std::mem::take(&mut self.partial[inst][k]);
                if !rest.is_empty() {
                    let mut text = format!("[{inst}] ").into_bytes();
                    text.extend_from_slice(&rest);
                    text.push(b'\n');
                    let _ = self.host_write(fd, &text);
                }
            }
        }
        self.flush();
    }

    /// Keep mode: everything instance `inst` wrote to `fd`.
    pub fn bytes(&self, inst: usize, fd: u32) -> Vec<u8> {
        self.kept
            .get(inst)
            .into_iter()
            .flatten()
            .filter(|(f, _)| *f == fd)
            .flat_map(|(_, b)| b.clone())
            .collect()
    }

    /// Keep mode: instance `inst`'s chunks (fd, bytes) from the `from`-th on; a caller that
    /// streams a run's output counts the chunks it has shown.
    pub fn chunks(&self, inst: usize, from: usize) -> &[(u32, Vec<u8>)] {
        self.kept
            .get(inst)
            .and_then(|k| k.get(from..))
            .unwrap_or(&[])
    }

    /// Keep mode: forgets what was kept (the host fuzzer, between calls).
    pub fn clear(&mut self) {
        for k in &mut self.kept {
            k.clear();
        }
        self.kept_bytes.fill(0);
    }
}

/// Guest standard input. The host's stdin is read without ever blocking garm: bytes are taken
/// when the host has them, and a guest reading ahead of them waits like a pipe reader (the other
/// guests, and `--timeout`, go on). With several instances every copy sees the same bytes: what
/// has arrived is kept and replayed to each.
pub struct Stdin {
    /// Bytes received and not yet read by every instance; `buf[0]` is input byte `base`.
    buf: Vec<u8>,
    base: usize,
    /// The host's stdin reached its end (or was given in full).
    eof: bool,
    /// Given in full (`garm diff`): never read the host's.
    fixed: bool,
    /// The host's stdin is a terminal: an end of input (Ctrl-D) is delivered once, then reading
    /// goes on, as on Linux.
    tty: bool,
    /// The next input byte each instance reads (absolute).
    pos: Vec<usize>,
    /// Each instance's own input (then `buf` is unused and `pos` counts into these).
    own: Option<Vec<Vec<u8>>>,
}

/// How much a single poll of the host's stdin takes at most.
const STDIN_CHUNK: usize = 64 << 10;

impl Stdin {
    pub fn new(instances: usize) -> Stdin {
        // SAFETY: isatty on fd 0 only inspects it.
        let tty = unsafe { libc::isatty(0) } == 1;
        Stdin {
            buf: Vec::new(),
            base: 0,
            eof: false,
            fixed: false,
            tty,
            pos: vec![0; instances],
            own: None,
        }
    }

    /// Standard input given in full (as `garm diff` gives every engine the same bytes).
    pub fn fixed(instances: usize, data: Vec<u8>) -> Stdin {
        Stdin {
            buf: data,
            base: 0,
            eof: true,
            fixed: true,
            tty: false,
            pos: vec![0; instances],
            own: None,
        }
    }

    /// Standard input given in full per instance (the library API's own input per instance).
    pub fn each(data: Vec<Vec<u8>>) -> Stdin {
        let mut s = Stdin::fixed(data.len(), Vec::new());
        s.own = Some(data);
        s
    }

    /// Takes what the host's stdin has now, without waiting.
    fn pull(&mut self) {
        if self.eof || self.fixed {
            return;
        }
        let mut p = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, no wait.
        if unsafe { libc::poll(&mut p, 1, 0) } <= 0 {
            return;
        }
        let mut chunk = vec![0u8; STDIN_CHUNK];
        match std::io::stdin().read(&mut chunk) {
            Ok(0) => self.eof = true,
            Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                ) => {}
            Err(_) => self.eof = true,
        }
    }

    /// Whether a read by instance `inst` would return now (bytes or end of input). The host is
    /// asked only when this instance has read everything received so far.
    pub fn ready(&mut self, inst: usize) -> bool {
        let Some(&p) = self.pos.get(inst) else {
            return false;
        };
        if p < self.base + self.buf.len() {
            return true;
        }
        self.pull();
        self.eof || p < self.base + self.buf.len()
    }

    /// Whether the host closed its end (a pipe's hang-up; never for a terminal or given input).
    pub fn hung_up(&self) -> bool {
        self.eof && !self.fixed && !self.tty
    }

    /// Up to `len` bytes for instance `inst`: `Some` (empty at the end of input), or `None` while
    /// nothing has arrived yet.
    pub fn read(&mut self, inst: usize, len: usize) -> Option<Vec<u8>> {
        if len == 0 {
            return Some(Vec::new());
        }
        if let Some(own) = &self.own {
            let data = own.get(inst)?;
            let p = self.pos[inst].min(data.len());
            let end = (p + len).min(data.len());
            self.pos[inst] = end;
            return Some(data[p..end].to_vec());
        }
        if !self.ready(inst) {
            return None;
        }
        let p = self.pos[inst].max(self.base) - self.base;
        let end = (p + len).min(self.buf.len());
        let out = self.buf[p..end].to_vec();
        self.pos[inst] = self.base + end;
        if out.is_empty() && self.tty {
            // Ctrl-D: this read sees the end, the next one waits for more typing.
            self.eof = false;
        }
        // Drop what every instance has read, now and then (not on every read: that would
        // copy the rest each time).
        let done = self
            .pos
            .iter()
            .copied()
            .min()
            .unwrap_or(0)
            .saturating_sub(self.base);
        if done > STDIN_CHUNK && done * 2 > self.buf.len() {
            self.buf.drain(..done);
            self.base += done;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_mode_is_bounded() {
        let mut o = Output::new(1, OutputMode::Keep);
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..70 {
            o.emit(0, 1, &chunk).unwrap();
        }
        assert_eq!(o.bytes(0, 1).len(), MAX_KEPT);
        assert!(o.truncated[0]);
    }
}

#[cfg(test)]
mod stdin_tests {
    use super::*;

    #[test]
    fn each_instance_reads_its_own_input() {
        let mut s = Stdin::each(vec![b"ab".to_vec(), b"xyz".to_vec()]);
        assert!(s.ready(0) && s.ready(1));
        assert_eq!(s.read(1, 2), Some(b"xy".to_vec()));
        assert_eq!(s.read(0, 10), Some(b"ab".to_vec()));
        assert_eq!(s.read(0, 10), Some(Vec::new()), "end of input");
        assert_eq!(s.read(1, 10), Some(b"z".to_vec()));
    }

    #[test]
    fn fixed_input_replays_to_every_instance() {
        let mut s = Stdin::fixed(2, b"abc".to_vec());
        assert_eq!(s.read(0, 2), Some(b"ab".to_vec()));
        assert_eq!(s.read(1, 10), Some(b"abc".to_vec()));
        assert_eq!(s.read(0, 10), Some(b"c".to_vec()));
        assert_eq!(s.read(0, 10), Some(Vec::new()), "end of input");
    }
}
