//! The view of guest processes that the kernel and the process loader need: memory, state words
//! and decoded code, per process slot. The GPU machine implements it; [`MemGuest`] is a plain
//! in-memory implementation, so syscall handlers and loading are unit-tested without a GPU.
//! Both keep their address spaces in [`Spaces`] (one logic for mapping, faults and fork).

use crate::gpu::layout::{self, Stop, STATE_WORDS};
use crate::gpu::machine::Machine;
pub use crate::gpu::space::{Fault, Perm};
use crate::gpu::space::{FrameOp, OutOfFrames, Spaces};
use crate::gpu::GpuError;
use bytemuck::Pod;
use std::fmt;

/// Why a guest memory access failed.
#[derive(Debug)]
pub enum MemError {
    /// The range is outside the process's memory (the guest sees EFAULT).
    Fault { addr: u64, len: usize },
    /// The frame pool is spent (the guest sees ENOMEM).
    NoFrames,
    /// The device failed (garm's own failure, not the guest's).
    Device(GpuError),
    /// The bytes are on the device and not read back yet, where a readback cannot block (a
    /// browser): the host reads them back between steps and retries the access.
    Pending,
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MemError::Fault { addr, len } => {
                write!(f, "guest range {addr:#x}+{len:#x} is outside guest memory")
            }
            MemError::NoFrames => f.write_str("the guest memory pool is spent (raise --pool)"),
            MemError::Device(e) => write!(f, "device: {e}"),
            MemError::Pending => f.write_str("guest memory not read back yet"),
        }
    }
}

impl std::error::Error for MemError {}

impl From<OutOfFrames> for MemError {
    fn from(_: OutOfFrames) -> MemError {
        MemError::NoFrames
    }
}

impl From<GpuError> for MemError {
    fn from(e: GpuError) -> MemError {
        MemError::Device(e)
    }
}

/// Process slots: memory, state words, decoded code.
pub trait Guest {
    /// The cap on a process's memory (`--mem`): its mappings, and separately its heap.
    fn mem_bytes(&self) -> u64;
    /// Bytes of the code window from a process's lowest executable page (where its code may
    /// run); a dynamically linked program's loader and libraries must fit in it too.
    fn code_window(&self) -> u64 {
        self.mem_bytes()
    }
    fn slots(&self) -> usize;
    fn st(&self, slot: usize) -> &[u32];
    fn st_mut(&mut self, slot: usize) -> &mut [u32];
    fn read_mem(&mut self, slot: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError>;
    /// Whether `len` bytes at `addr` are mapped in `slot` (no device round trip).
    fn in_bounds(&self, slot: usize, addr: u64, len: usize) -> bool {
        len == 0 || self.spaces().pieces(slot, addr, len as u64).is_some()
    }
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError>;
    /// Memory, state and code map of `from` into `to` (fork).
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError>;
    /// `to` becomes a thread of `from`: the same address space, a copy of the state and code
    /// map.
    fn share_slot(&mut self, from: usize, to: usize) -> Result<(), MemError>;
    /// An empty address space, zeroed state, no code (exec).
    fn reset_slot(&mut self, slot: usize);
    /// Gives back the slot's memory (its process ended); the state words stay for reports.
    fn free_slot(&mut self, slot: usize);
    /// The address spaces of all slots.
    fn spaces(&self) -> &Spaces;
    fn spaces_mut(&mut self) -> &mut Spaces;
    /// Carries out frame work (zeroing, copying) on the memory behind the frames; `slot`'s
    /// tables changed.
    fn apply(&mut self, slot: usize, ops: &[FrameOp]) -> Result<(), MemError>;
    /// Sets the bytes of a frame (a page of 4096).
    fn fill_frame(&mut self, f: u32, bytes: &[u8]);

    /// Maps the read-only page at `va` holding `bytes` (4096 of them) with rights `perm`:
    /// every process mapping the same bytes at the same address shares one frame.
    fn map_shared(
        &mut self,
        slot: usize,
        va: u64,
        perm: Perm,
        bytes: &[u8],
    ) -> Result<(), MemError> {
        use sha2::{Digest, Sha256};
        self.forget_code(slot, va, 4096);
        let mut h = Sha256::new();
        h.update(va.to_le_bytes());
        h.update([perm.0]);
        h.update(bytes);
        let key = u128::from_le_bytes(h.finalize()[..16].try_into().unwrap());
        let (f, new) = self.spaces_mut().map_shared(slot, va, perm, key)?;
        if new {
            self.fill_frame(f, bytes);
        }
        self.apply(slot, &[])
    }

    /// Maps `[addr, addr + len)` afresh with rights `perm`: zero-filled frames now (`eager`),
    /// or zero pages given frames on first touch.
    fn map(
        &mut self,
        slot: usize,
        addr: u64,
        len: u64,
        perm: Perm,
        eager: bool,
    ) -> Result<(), MemError> {
        self.forget_code(slot, addr, len);
        let mut ops = Vec::new();
        let r = self
            .spaces_mut()
            .map(slot, addr, len, perm, eager, &mut ops);
        self.apply(slot, &ops)?;
        Ok(r?)
    }
    fn unmap(&mut self, slot: usize, addr: u64, len: u64) -> Result<(), MemError> {
        self.forget_code(slot, addr, len);
        self.spaces_mut().unmap(slot, addr, len);
        self.apply(slot, &[])
    }
    /// Maps `[addr, addr + len)` afresh as MAP_SHARED anonymous memory: zeroed frames now,
    /// which a fork shares with the child (writes show on both sides).
    fn map_shared_anon(
        &mut self,
        slot: usize,
        addr: u64,
        len: u64,
        perm: Perm,
    ) -> Result<(), MemError> {
        self.map(slot, addr, len, perm, true)?;
        self.spaces_mut().make_shared(slot, addr, len);
        Ok(())
    }
    /// Changes the rights of the mapped pages of a range; false if some page was not mapped.
    fn protect(&mut self, slot: usize, addr: u64, len: u64, perm: Perm) -> Result<bool, MemError> {
        // A page that lost its execute right must fault at the next fetch.
        if !perm.has(Perm::X) {
            self.forget_code(slot, addr, len);
        }
        let all = self.spaces_mut().protect(slot, addr, len, perm);
        self.apply(slot, &[])?;
        Ok(all)
    }
    /// The rights of the page at `addr`, if mapped.
    fn perm(&self, slot: usize, addr: u64) -> Option<Perm> {
        self.spaces().perm(slot, addr)
    }
    /// Resolves a memory fault the shader stopped on (a zero page's first touch).
    fn fault_in(&mut self, slot: usize, addr: u64, write: bool) -> Result<Fault, MemError> {
        let mut ops = Vec::new();
        let f = self.spaces_mut().fault(slot, addr, write, &mut ops);
        self.apply(slot, &ops)?;
        Ok(f)
    }
    /// Bytes mapped in the slot (with frames or not).
    fn mapped_bytes(&self, slot: usize) -> u64 {
        self.spaces().mapped_bytes(slot)
    }
    /// Drops the decoded code of the pages of `[addr, addr + len)` (they change or go).
    fn forget_code(&mut self, slot: usize, addr: u64, len: u64);
    /// Decodes the page at `page_addr` holding `bytes` and maps it executable in `slot`.
    fn map_exec(&mut self, slot: usize, page_addr: u64, bytes: &[u8]) -> Result<(), MemError>;
    /// V0-V31.
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError>;
    /// Whether `len` bytes at `addr` can be read now; where reads are deferred (a browser) a
    /// miss is noted for the next read-back. A handler checks a buffer this way before it takes
    /// data it could not put back (a pipe's, stdin's), as its retry would lose them.
    fn ready(&mut self, _slot: usize, _addr: u64, _len: usize) -> bool {
        true
    }
    /// Whether [`Guest::vregs`] can answer now; where reads are deferred (a browser) it notes
    /// them as wanted when not.
    fn vregs_ready(&mut self, _slot: usize) -> bool {
        true
    }
    fn set_vregs(&mut self, slot: usize, v: &[u128; 32]) -> Result<(), MemError>;

    fn word64(&self, slot: usize, i: usize) -> u64 {
        let s = self.st(slot);
        s[i] as u64 | (s[i + 1] as u64) << 32
    }
    fn set_word64(&mut self, slot: usize, i: usize, v: u64) {
        let s = self.st_mut(slot);
        s[i] = v as u32;
        s[i + 1] = (v >> 32) as u32;
    }
    /// x0..x30, and 31 for SP.
    fn reg(&self, slot: usize, r: usize) -> u64 {
        self.word64(slot, r * 2)
    }
    fn set_reg(&mut self, slot: usize, r: usize, v: u64) {
        self.set_word64(slot, r * 2, v)
    }
    fn pc(&self, slot: usize) -> u64 {
        self.word64(slot, layout::S_PC)
    }
    fn set_pc(&mut self, slot: usize, v: u64) {
        self.set_word64(slot, layout::S_PC, v)
    }
    /// Why the slot stopped; `None` for a word the shader never writes.
    fn status(&self, slot: usize) -> Option<Stop> {
        Stop::from_word(self.st(slot)[layout::S_STATUS])
    }
    fn set_status(&mut self, slot: usize, s: Stop) {
        self.st_mut(slot)[layout::S_STATUS] = s.word()
    }
}

impl dyn Guest + '_ {
    /// Reads a plain-data guest struct.
    pub fn read_obj<T: Pod>(&mut self, slot: usize, addr: u64) -> Result<T, MemError> {
        let b = self.read_mem(slot, addr, std::mem::size_of::<T>())?;
        Ok(bytemuck::pod_read_unaligned(&b))
    }

    /// Writes a plain-data guest struct.
    pub fn write_obj<T: Pod>(&mut self, slot: usize, addr: u64, v: &T) -> Result<(), MemError> {
        self.write_mem(slot, addr, bytemuck::bytes_of(v))
    }

    /// Reads `n` plain-data structs in a row.
    pub fn read_objs<T: Pod>(
        &mut self,
        slot: usize,
        addr: u64,
        n: usize,
    ) -> Result<Vec<T>, MemError> {
        let size = std::mem::size_of::<T>();
        let b = self.read_mem(slot, addr, n * size)?;
        Ok(b.chunks_exact(size)
            .map(bytemuck::pod_read_unaligned)
            .collect())
    }
}

impl Guest for Machine {
    fn mem_bytes(&self) -> u64 {
        self.cfg.mem_bytes
    }
    fn code_window(&self) -> u64 {
        self.cfg.code_bytes as u64
    }
    fn slots(&self) -> usize {
        self.instances()
    }
    fn st(&self, slot: usize) -> &[u32] {
        Machine::st(self, slot)
    }
    fn st_mut(&mut self, slot: usize) -> &mut [u32] {
        Machine::st_mut(self, slot)
    }
    fn read_mem(&mut self, slot: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError> {
        Machine::read_mem(self, slot, addr, len)
    }
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError> {
        Machine::write_mem(self, slot, addr, data)
    }
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.copy_instance(from, to);
        Ok(())
    }
    fn share_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.share_instance(from, to);
        Ok(())
    }
    fn reset_slot(&mut self, slot: usize) {
        self.reset_instance(slot)
    }
    fn free_slot(&mut self, slot: usize) {
        self.free_instance(slot)
    }
    fn spaces(&self) -> &Spaces {
        &self.spaces
    }
    fn spaces_mut(&mut self) -> &mut Spaces {
        &mut self.spaces
    }
    fn apply(&mut self, slot: usize, ops: &[FrameOp]) -> Result<(), MemError> {
        self.frame_ops(slot, ops);
        Ok(())
    }
    fn fill_frame(&mut self, f: u32, bytes: &[u8]) {
        Machine::fill_frame(self, f, bytes)
    }
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError> {
        if self.deferred_reads {
            return self.vregs_deferred(slot);
        }
        Ok(Machine::vregs(self, slot)?)
    }
    fn ready(&mut self, slot: usize, addr: u64, len: usize) -> bool {
        !self.deferred_reads
            || len == 0
            || !matches!(self.read_seen(slot, addr, len), Err(MemError::Pending))
    }
    fn vregs_ready(&mut self, slot: usize) -> bool {
        !self.deferred_reads || self.vregs_deferred(slot).is_ok()
    }
    fn set_vregs(&mut self, slot: usize, v: &[u128; 32]) -> Result<(), MemError> {
        Machine::set_vregs(self, slot, v);
        Ok(())
    }
    fn forget_code(&mut self, slot: usize, addr: u64, len: u64) {
        Machine::forget_code(self, slot, addr, len)
    }
    fn map_exec(&mut self, slot: usize, page_addr: u64, bytes: &[u8]) -> Result<(), MemError> {
        let d = self
            .code_slot_for(page_addr, bytes)
            .map_err(MemError::Device)?;
        self.map_code(slot, page_addr, d);
        Ok(())
    }
}

/// Guest memory and state in host vectors: the kernel's test double.
pub struct MemGuest {
    /// Frames that were ever written (the others read as zeros).
    frames: std::collections::HashMap<u32, Box<[u8]>>,
    spaces: Spaces,
    mem_bytes: u64,
    pub state: Vec<u32>,
    /// Executable pages mapped per slot (page addresses).
    pub exec_pages: Vec<Vec<u64>>,
    pub vregs: Vec<[u128; 32]>,
}

impl MemGuest {
    /// State words, code pages and V registers of `from` into `to` (fork and clone; the address
    /// space is the caller's business).
    fn copy_cpu(&mut self, from: usize, to: usize) {
        let (a, b) = (from * STATE_WORDS, to * STATE_WORDS);
        self.state.copy_within(a..a + STATE_WORDS, b);
        self.exec_pages[to] = self.exec_pages[from].clone();
        self.vregs[to] = self.vregs[from];
    }

    /// `slots` processes of at most `mem_bytes` each, with a pool of frames for all of them.
    pub fn new(slots: usize, mem_bytes: usize) -> MemGuest {
        let frames = (slots * mem_bytes).div_ceil(4096).max(64) as u32;
        let mut g = MemGuest {
            frames: Default::default(),
            spaces: Spaces::new(slots, frames),
            mem_bytes: mem_bytes as u64,
            state: vec![0; slots * STATE_WORDS],
            exec_pages: vec![Vec::new(); slots],
            vregs: vec![[0; 32]; slots],
        };
        for s in 0..slots {
            g.reset_slot(s);
            g.set_status(s, Stop::Exited);
        }
        g
    }
}

impl Guest for MemGuest {
    fn mem_bytes(&self) -> u64 {
        self.mem_bytes
    }
    fn slots(&self) -> usize {
        self.exec_pages.len()
    }
    fn st(&self, slot: usize) -> &[u32] {
        &self.state[slot * STATE_WORDS..(slot + 1) * STATE_WORDS]
    }
    fn st_mut(&mut self, slot: usize) -> &mut [u32] {
        &mut self.state[slot * STATE_WORDS..(slot + 1) * STATE_WORDS]
    }
    fn read_mem(&mut self, slot: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError> {
        let pieces = self
            .spaces
            .pieces(slot, addr, len as u64)
            .ok_or(MemError::Fault { addr, len })?;
        let mut out = Vec::with_capacity(len);
        for (a, f, n) in pieces {
            let off = (a & 4095) as usize;
            match f.and_then(|f| self.frames.get(&f)) {
                Some(b) => out.extend_from_slice(&b[off..off + n as usize]),
                None => out.resize(out.len() + n as usize, 0),
            }
        }
        Ok(out)
    }
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let fault = MemError::Fault {
            addr,
            len: data.len(),
        };
        self.spaces
            .pieces(slot, addr, data.len() as u64)
            .ok_or(fault)?;
        let mut ops = Vec::new();
        self.spaces
            .populate(slot, addr, data.len() as u64, &mut ops)?;
        self.apply(slot, &ops)?;
        let mut k = 0;
        for (a, f, n) in self.spaces.pieces(slot, addr, data.len() as u64).unwrap() {
            let f = f.expect("populated");
            let off = (a & 4095) as usize;
            let b = self
                .frames
                .entry(f)
                .or_insert_with(|| vec![0; 4096].into_boxed_slice());
            b[off..off + n as usize].copy_from_slice(&data[k..k + n as usize]);
            k += n as usize;
        }
        Ok(())
    }
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.spaces.copy(from, to);
        self.copy_cpu(from, to);
        Ok(())
    }
    fn share_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.spaces.share(from, to);
        self.copy_cpu(from, to);
        Ok(())
    }
    fn reset_slot(&mut self, slot: usize) {
        self.free_slot(slot);
        self.exec_pages[slot].clear();
        self.vregs[slot] = [0; 32];
        self.st_mut(slot).fill(0);
    }
    fn free_slot(&mut self, slot: usize) {
        self.spaces.clear(slot);
    }
    fn spaces(&self) -> &Spaces {
        &self.spaces
    }
    fn spaces_mut(&mut self) -> &mut Spaces {
        &mut self.spaces
    }
    fn fill_frame(&mut self, f: u32, bytes: &[u8]) {
        self.frames.insert(f, bytes.to_vec().into_boxed_slice());
    }
    fn apply(&mut self, _slot: usize, ops: &[FrameOp]) -> Result<(), MemError> {
        for op in ops {
            match *op {
                FrameOp::Zero(f) => {
                    self.frames.remove(&f);
                }
                FrameOp::Copy { from, to } => match self.frames.get(&from).cloned() {
                    Some(b) => {
                        self.frames.insert(to, b);
                    }
                    None => {
                        self.frames.remove(&to);
                    }
                },
            }
        }
        Ok(())
    }
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError> {
        Ok(self.vregs[slot])
    }
    fn set_vregs(&mut self, slot: usize, v: &[u128; 32]) -> Result<(), MemError> {
        self.vregs[slot] = *v;
        Ok(())
    }
    fn forget_code(&mut self, slot: usize, addr: u64, len: u64) {
        let end = addr.saturating_add(len);
        self.exec_pages[slot].retain(|&p| p + 4096 <= addr || p >= end);
    }
    fn map_exec(&mut self, slot: usize, page_addr: u64, _bytes: &[u8]) -> Result<(), MemError> {
        self.exec_pages[slot].push(page_addr);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_guest_bounds_and_objects() {
        let mut g = MemGuest::new(2, 1 << 20);
        let d: &mut dyn Guest = &mut g;
        for s in 0..2 {
            d.map(s, 0x20000, 0x10000, Perm::RW, false).unwrap();
        }
        assert!(matches!(d.read_mem(0, 0, 4), Err(MemError::Fault { .. })));
        assert!(d.read_mem(0, 0x30000 - 4, 8).is_err());
        assert_eq!(
            d.read_mem(0, 0x2fff8, 8).unwrap(),
            [0; 8],
            "lazy pages read as zeros"
        );
        assert!(d.read_mem(0, u64::MAX - 2, 8).is_err());
        d.write_obj(1, 0x20000, &0x1122_3344_5566_7788u64).unwrap();
        assert_eq!(
            d.read_obj::<u64>(1, 0x20000).unwrap(),
            0x1122_3344_5566_7788
        );
        assert_eq!(d.read_obj::<u32>(0, 0x20000).unwrap(), 0);
        d.set_reg(1, 31, 0xdead_beef_0000);
        assert_eq!(d.reg(1, 31), 0xdead_beef_0000);
        d.copy_slot(1, 0).unwrap();
        assert_eq!(d.read_obj::<u16>(0, 0x20000).unwrap(), 0x7788);
        assert_eq!(d.reg(0, 31), 0xdead_beef_0000);
    }
}
