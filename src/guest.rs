//! The view of guest processes that the kernel and the process loader need: memory, state words
//! and decoded code, per process slot. The GPU machine implements it; [`MemGuest`] is a plain
//! in-memory implementation, so syscall handlers and loading are unit-tested without a GPU.

use crate::gpu::layout::{self, Stop, STATE_WORDS};
use crate::gpu::machine::Machine;
use crate::gpu::GpuError;
use bytemuck::Pod;
use std::fmt;

/// Why a guest memory access failed.
#[derive(Debug)]
pub enum MemError {
    /// The range is outside the process's memory (the guest sees EFAULT).
    Fault { addr: u64, len: usize },
    /// The device failed (garm's own failure, not the guest's).
    Device(GpuError),
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MemError::Fault { addr, len } => {
                write!(f, "guest range {addr:#x}+{len:#x} is outside guest memory")
            }
            MemError::Device(e) => write!(f, "device: {e}"),
        }
    }
}

impl std::error::Error for MemError {}

impl From<GpuError> for MemError {
    fn from(e: GpuError) -> MemError {
        MemError::Device(e)
    }
}

/// Process slots: memory, state words, decoded code.
pub trait Guest {
    /// Bytes of memory per slot.
    fn mem_bytes(&self) -> u64;
    fn slots(&self) -> usize;
    fn st(&self, slot: usize) -> &[u32];
    fn st_mut(&mut self, slot: usize) -> &mut [u32];
    fn read_mem(&mut self, slot: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError>;
    /// Whether `len` bytes at `addr` may be accessed in `slot` (no device round trip): inside
    /// its memory, outside the null and stack guards.
    fn in_bounds(&self, slot: usize, addr: u64, len: usize) -> bool;
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError>;
    /// Memory, state and code map of `from` into `to` (fork).
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError>;
    /// Zeroed memory, state and code map (exec).
    fn reset_slot(&mut self, slot: usize);
    /// Decodes the page at `page_addr` holding `bytes` and maps it executable in `slot`.
    fn map_exec(&mut self, slot: usize, page_addr: u64, bytes: &[u8]) -> Result<(), MemError>;
    /// V0-V31.
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError>;
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
        self.cfg.mem_bytes as u64
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
    fn in_bounds(&self, slot: usize, addr: u64, len: usize) -> bool {
        len == 0 || self.check_range(slot, addr, len).is_ok()
    }
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError> {
        Machine::write_mem(self, slot, addr, data)
    }
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.copy_instance(from, to);
        Ok(())
    }
    fn reset_slot(&mut self, slot: usize) {
        self.reset_instance(slot)
    }
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError> {
        Ok(Machine::vregs(self, slot)?)
    }
    fn set_vregs(&mut self, slot: usize, v: &[u128; 32]) -> Result<(), MemError> {
        Machine::set_vregs(self, slot, v);
        Ok(())
    }
    fn map_exec(&mut self, slot: usize, page_addr: u64, bytes: &[u8]) -> Result<(), MemError> {
        let d = self
            .code_slot_for(page_addr, bytes)
            .map_err(MemError::Device)?;
        self.map_code(slot, (page_addr >> 12) as u32, d);
        Ok(())
    }
}

/// Guest memory and state in host vectors: the kernel's test double.
pub struct MemGuest {
    pub mem: Vec<Vec<u8>>,
    pub state: Vec<u32>,
    /// Accesses below this address fault (the null guard).
    pub lo_bound: u64,
    /// Executable pages mapped per slot (page addresses).
    pub exec_pages: Vec<Vec<u64>>,
    pub vregs: Vec<[u128; 32]>,
}

impl MemGuest {
    pub fn new(slots: usize, mem_bytes: usize) -> MemGuest {
        let mut g = MemGuest {
            mem: vec![vec![0; mem_bytes]; slots],
            state: vec![0; slots * STATE_WORDS],
            lo_bound: crate::loader::LO_BOUND as u64,
            exec_pages: vec![Vec::new(); slots],
            vregs: vec![[0; 32]; slots],
        };
        for s in 0..slots {
            g.reset_slot(s);
            g.set_status(s, Stop::Exited);
        }
        g
    }

    fn range(
        &self,
        slot: usize,
        addr: u64,
        len: usize,
    ) -> Result<std::ops::Range<usize>, MemError> {
        let fault = || MemError::Fault { addr, len };
        let end = addr.checked_add(len as u64).ok_or_else(fault)?;
        if addr < self.lo_bound || end > self.mem_bytes() {
            return Err(fault());
        }
        let s = self.st(slot);
        if addr < s[layout::S_GUARD_HI] as u64 && end > s[layout::S_GUARD_LO] as u64 {
            return Err(fault());
        }
        Ok(addr as usize..end as usize)
    }
}

impl Guest for MemGuest {
    fn mem_bytes(&self) -> u64 {
        self.mem.first().map_or(0, |m| m.len() as u64)
    }
    fn slots(&self) -> usize {
        self.mem.len()
    }
    fn st(&self, slot: usize) -> &[u32] {
        &self.state[slot * STATE_WORDS..(slot + 1) * STATE_WORDS]
    }
    fn st_mut(&mut self, slot: usize) -> &mut [u32] {
        &mut self.state[slot * STATE_WORDS..(slot + 1) * STATE_WORDS]
    }
    fn read_mem(&mut self, slot: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let r = self.range(slot, addr, len)?;
        Ok(self.mem[slot][r].to_vec())
    }
    fn in_bounds(&self, slot: usize, addr: u64, len: usize) -> bool {
        len == 0 || self.range(slot, addr, len).is_ok()
    }
    fn write_mem(&mut self, slot: usize, addr: u64, data: &[u8]) -> Result<(), MemError> {
        if data.is_empty() {
            return Ok(());
        }
        let r = self.range(slot, addr, data.len())?;
        self.mem[slot][r].copy_from_slice(data);
        Ok(())
    }
    fn copy_slot(&mut self, from: usize, to: usize) -> Result<(), MemError> {
        self.mem[to] = self.mem[from].clone();
        let (a, b) = (from * STATE_WORDS, to * STATE_WORDS);
        self.state.copy_within(a..a + STATE_WORDS, b);
        self.exec_pages[to] = self.exec_pages[from].clone();
        self.vregs[to] = self.vregs[from];
        Ok(())
    }
    fn reset_slot(&mut self, slot: usize) {
        self.mem[slot].fill(0);
        self.exec_pages[slot].clear();
        self.vregs[slot] = [0; 32];
        let s = self.st_mut(slot);
        s.fill(0);
        s[layout::S_CODE_LO] = u32::MAX;
    }
    fn vregs(&mut self, slot: usize) -> Result<[u128; 32], MemError> {
        Ok(self.vregs[slot])
    }
    fn set_vregs(&mut self, slot: usize, v: &[u128; 32]) -> Result<(), MemError> {
        self.vregs[slot] = *v;
        Ok(())
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
        assert!(matches!(d.read_mem(0, 0, 4), Err(MemError::Fault { .. })));
        assert!(d.read_mem(0, (1 << 20) - 4, 8).is_err());
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
