//! `--trace FILE`: one line per retired instruction of the first instance's process (pid, pc,
//! word, its disassembly, its encoding group from the table, the registers it changed), made by
//! single-stepping the shader (one step per dispatch) until `--trace-limit` lines are written.
//! Lines wait in chunks so one llvm-mc call disassembles each chunk's new words.

use crate::gpu::layout;
use crate::gpu::machine::Machine;
use crate::guest::Guest;
use crate::os::kernel::{Kernel, Pid};
use std::fmt::Write as _;
use std::io::Write;

/// What one step starts from.
struct Before {
    pid: Pid,
    slot: usize,
    pc: u64,
    count: u64,
    regs: [u64; 32],
    nzcv: u32,
}

pub struct Tracer {
    out: std::io::BufWriter<std::fs::File>,
    left: u64,
    before: Option<Before>,
    /// Lines not written yet: (word, "pid pc word", "group registers").
    pending: Vec<(u32, String, String)>,
    /// Disassembly of the words seen (bounded by the program's distinct words).
    dis: std::collections::HashMap<u32, String>,
    /// When lines were last written: they never wait longer than [`AT_MOST`], so a run killed
    /// mid-way (Ctrl-C, timeout(1)) loses at most that much of its end.
    flushed: web_time::Instant,
}

const AT_MOST: std::time::Duration = std::time::Duration::from_millis(500);

/// Lines per llvm-mc call.
const CHUNK: usize = 4096;

impl Tracer {
    pub fn create(path: &std::path::Path, limit: u64) -> std::io::Result<Tracer> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(
            out,
            "# garm trace: pid pc word disassembly | encoding group [registers the instruction changed]"
        )?;
        Ok(Tracer {
            out,
            left: limit,
            before: None,
            pending: Vec::new(),
            dis: Default::default(),
            flushed: web_time::Instant::now(),
        })
    }

    /// Disassembles the waiting lines' new words and writes the lines.
    fn flush_pending(&mut self) -> std::io::Result<()> {
        let mut new: Vec<u32> = self
            .pending
            .iter()
            .map(|p| p.0)
            .filter(|w| !self.dis.contains_key(w))
            .collect();
        new.sort_unstable();
        new.dedup();
        if !new.is_empty() {
            let text = crate::toolchain::disassemble(&new);
            self.dis.extend(new.into_iter().zip(text));
        }
        self.flushed = web_time::Instant::now();
        for (word, head, tail) in self.pending.drain(..) {
            let d = self.dis.get(&word).map_or("", |s| s.as_str());
            writeln!(self.out, "{head} {d:<32} | {tail}")?;
        }
        self.out.flush()
    }

    /// Whether the limit is reached (the run then goes on at full speed).
    pub fn done(&self) -> bool {
        self.left == 0
    }

    /// Notes the traced process's state before a single-step submit: the first instance's root,
    /// or while it is gone, its lowest live process.
    pub fn before(&mut self, k: &Kernel, m: &Machine) {
        if self.before.is_some() {
            return; // mid-way through a two-step instruction (a pair): keep its start
        }
        let p = k
            .procs
            .values()
            .filter(|p| p.inst == 0 && p.slot.is_some())
            .min_by_key(|p| (!p.root, p.pid));
        self.before = p.and_then(|p| {
            let slot = p.slot?;
            let mut b = Before {
                pid: p.pid,
                slot,
                pc: m.pc(slot),
                count: m.word64(slot, layout::S_COUNT),
                regs: std::array::from_fn(|r| m.reg(slot, r)),
                nzcv: m.st(slot)[layout::S_NZCV],
            };
            if m.status(slot) == Some(layout::Stop::Write) {
                // A console write the shader finishes at the next dispatch's start (x0 = the
                // length, pc past the SVC), before it runs the next instruction: that one is what
                // the next line shows.
                b.pc += 4;
                b.regs[0] = b.regs[2] & 0xffff_ffff;
            }
            Some(b)
        });
    }

    /// Writes the line of the instruction the submit retired, if it retired one.
    pub fn after(&mut self, k: &Kernel, m: &mut Machine) -> std::io::Result<()> {
        let Some(b) = self.before.take() else {
            return Ok(());
        };
        if k.pid_of_slot(b.slot) != Some(b.pid) || m.word64(b.slot, layout::S_COUNT) == b.count {
            return Ok(());
        }
        if m.st(b.slot)[layout::S_USTEP] != 0 {
            // The first step of a pair: the line waits for the second.
            self.before = Some(b);
            return Ok(());
        }
        let word = m
            .read_mem(b.slot, b.pc, 4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .unwrap_or(0);
        let head = format!("{} {:#x} {word:08x}", b.pid, b.pc);
        let mut tail = crate::isa::describe(word).to_string();
        for (r, old) in b.regs.iter().enumerate() {
            let now = m.reg(b.slot, r);
            if now != *old {
                let name = if r == 31 {
                    "sp".to_string()
                } else {
                    format!("x{r}")
                };
                let _ = write!(tail, " {name}={now:#x}");
            }
        }
        let nzcv = m.st(b.slot)[layout::S_NZCV];
        if nzcv != b.nzcv {
            let _ = write!(tail, " nzcv={nzcv:04b}");
        }
        self.pending.push((word, head, tail));
        self.left -= 1;
        if self.left == 0 || self.pending.len() >= CHUNK || self.flushed.elapsed() > AT_MOST {
            self.flush_pending()?;
        }
        Ok(())
    }
}

impl Drop for Tracer {
    /// A run that ends before the limit still gets its last lines.
    fn drop(&mut self) {
        let _ = self.flush_pending();
    }
}
