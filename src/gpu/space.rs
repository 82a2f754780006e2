//! Address spaces over the page tables ([`super::paging`]): mapping, unmapping and protecting
//! page ranges, zero pages given a frame on first touch, copies for fork. Frames are named here,
//! never touched: each operation lists the frame work ([`FrameOp`]) for the caller's storage
//! (the GPU buffer, or host memory in the test double), so both run this one logic.

use super::layout::{PTE_EXEC, PTE_FRAME, PTE_PRESENT, PTE_READ, PTE_WRITE};
use super::paging::{Frames, Tables, PAGE, VA_LIMIT};

/// The entry holds a frame (its number in the low bits).
pub const PTE_HELD: u32 = 1 << 27;
/// The page is mapped but has no frame yet: a zero page on first touch.
pub const PTE_LAZY: u32 = 1 << 26;

/// Access rights of a page: read, write, execute (bits 0-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Perm(pub u8);

impl Perm {
    pub const NONE: Perm = Perm(0);
    pub const R: Perm = Perm(1);
    pub const W: Perm = Perm(2);
    pub const X: Perm = Perm(4);
    pub const RW: Perm = Perm(3);
    pub const RX: Perm = Perm(5);
    pub const RWX: Perm = Perm(7);

    pub fn has(self, p: Perm) -> bool {
        self.0 & p.0 == p.0
    }

    pub fn union(self, p: Perm) -> Perm {
        Perm(self.0 | p.0)
    }

    /// The entry bits of these rights. Any right makes the page readable by the shader (Arm
    /// has no write-only pages, and an execute-only page reads here as in qemu).
    fn bits(self) -> u32 {
        let mut b = 0;
        for (p, bit) in [
            (Perm::R, PTE_READ),
            (Perm::W, PTE_WRITE),
            (Perm::X, PTE_EXEC),
        ] {
            if self.has(p) {
                b |= bit;
            }
        }
        if self.0 != 0 {
            b |= PTE_PRESENT;
        }
        b
    }

    fn of(e: u32) -> Perm {
        let mut p = 0;
        for (bit, v) in [(PTE_READ, 1), (PTE_WRITE, 2), (PTE_EXEC, 4)] {
            if e & bit != 0 {
                p |= v;
            }
        }
        Perm(p)
    }
}

fn held(frame: u32, perm: Perm) -> u32 {
    PTE_HELD | frame | perm.bits()
}

fn lazy(perm: Perm) -> u32 {
    PTE_LAZY | (perm.bits() & !PTE_PRESENT)
}

/// Work on frames for the storage behind them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameOp {
    Zero(u32),
    Copy { from: u32, to: u32 },
}

/// What a fault at an address comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The page has a frame now (or had one): the access runs again.
    Fixed,
    /// Nothing is mapped there (SEGV_MAPERR).
    Unmapped,
    /// Mapped without the right (SEGV_ACCERR).
    Denied,
    /// A zero page could not get a frame: the pool is spent.
    NoFrames,
}

/// The frame pool is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfFrames;

/// Lazy pages given frames together on a fault: the aligned block around the fault (a stack or
/// heap that grows one page at a time costs one host round trip per block).
const FAULT_AROUND: u64 = 8;

/// The address spaces of every process slot, their tables and the frame pool.
pub struct Spaces {
    pub tables: Tables,
    frames: Frames,
    roots: Vec<u32>,
    /// Pages mapped per space (with a frame or lazy).
    pages: Vec<u64>,
    peak: u32,
}

/// The page addresses of `[addr, addr + len)`, widened to whole pages.
fn pages(addr: u64, len: u64) -> impl Iterator<Item = u64> {
    let start = addr & !(PAGE - 1);
    let end = addr.saturating_add(len).min(VA_LIMIT).div_ceil(PAGE) * PAGE;
    (start..end).step_by(PAGE as usize)
}

impl Spaces {
    pub fn new(spaces: usize, frames: u32) -> Spaces {
        let mut tables = Tables::new();
        let roots = (0..spaces).map(|_| tables.alloc()).collect();
        Spaces {
            tables,
            frames: Frames::new(frames),
            roots,
            pages: vec![0; spaces],
            peak: 0,
        }
    }

    pub fn root(&self, s: usize) -> u32 {
        self.roots[s]
    }

    /// Frames in the pool, in use now, and the most in use at once.
    pub fn frame_counts(&self) -> (u32, u32, u32) {
        (self.frames.total(), self.frames.in_use(), self.peak)
    }

    /// Bytes mapped in space `s` (with frames or not).
    pub fn mapped_bytes(&self, s: usize) -> u64 {
        self.pages[s] * PAGE
    }

    fn alloc(&mut self, ops: &mut Vec<FrameOp>) -> Result<u32, OutOfFrames> {
        let f = self.frames.alloc().ok_or(OutOfFrames)?;
        self.peak = self.peak.max(self.frames.in_use());
        ops.push(FrameOp::Zero(f));
        Ok(f)
    }

    /// Replaces the entry of page `va` (writing no table where both are empty), releasing the
    /// frame it held unless the new entry keeps it.
    fn put(&mut self, s: usize, va: u64, e: u32) {
        let root = self.roots[s];
        let old = self.tables.lookup(root, va);
        if old == 0 && e == 0 {
            return;
        }
        self.tables.set(root, va, e);
        let keeps = e & PTE_HELD != 0 && e & PTE_FRAME == old & PTE_FRAME;
        if old & PTE_HELD != 0 && !keeps {
            self.frames.release(old & PTE_FRAME);
        }
        match (old != 0, e != 0) {
            (false, true) => self.pages[s] += 1,
            (true, false) => self.pages[s] -= 1,
            _ => {}
        }
    }

    /// Maps `[addr, addr + len)` afresh, replacing what was there: with zeroed frames now
    /// (`eager`), or lazily (each page a zero page on first touch).
    pub fn map(
        &mut self,
        s: usize,
        addr: u64,
        len: u64,
        perm: Perm,
        eager: bool,
        ops: &mut Vec<FrameOp>,
    ) -> Result<(), OutOfFrames> {
        if eager {
            // Fail before changing anything when the pool cannot hold the range.
            let need = pages(addr, len)
                .filter(|&va| self.tables.lookup(self.roots[s], va) & PTE_HELD == 0)
                .count();
            if need > (self.frames.total() - self.frames.in_use()) as usize {
                return Err(OutOfFrames);
            }
        }
        for va in pages(addr, len) {
            let e = if eager {
                held(self.alloc(ops)?, perm)
            } else {
                lazy(perm)
            };
            self.put(s, va, e);
        }
        Ok(())
    }

    pub fn unmap(&mut self, s: usize, addr: u64, len: u64) {
        for va in pages(addr, len) {
            self.put(s, va, 0);
        }
    }

    /// Sets the rights of the mapped pages in the range; returns whether every page was mapped.
    pub fn protect(&mut self, s: usize, addr: u64, len: u64, perm: Perm) -> bool {
        let mut all = true;
        for va in pages(addr, len) {
            let e = self.tables.lookup(self.roots[s], va);
            if e & PTE_HELD != 0 {
                self.put(s, va, held(e & PTE_FRAME, perm));
            } else if e & PTE_LAZY != 0 {
                self.put(s, va, lazy(perm));
            } else {
                all = false;
            }
        }
        all
    }

    /// The rights of the page at `va`, if it is mapped.
    pub fn perm(&self, s: usize, va: u64) -> Option<Perm> {
        let e = self.tables.lookup(self.roots[s], va);
        (e & (PTE_HELD | PTE_LAZY) != 0).then(|| Perm::of(e))
    }

    /// The frame of the page at `va`: `Some(None)` for a lazy page (reads as zeros), `None`
    /// where nothing is mapped.
    pub fn frame(&self, s: usize, va: u64) -> Option<Option<u32>> {
        let e = self.tables.lookup(self.roots[s], va);
        if e & PTE_HELD != 0 {
            Some(Some(e & PTE_FRAME))
        } else if e & PTE_LAZY != 0 {
            Some(None)
        } else {
            None
        }
    }

    /// Gives frames to the lazy pages of `[addr, addr + len)` (before the host writes there).
    pub fn populate(
        &mut self,
        s: usize,
        addr: u64,
        len: u64,
        ops: &mut Vec<FrameOp>,
    ) -> Result<(), OutOfFrames> {
        for va in pages(addr, len) {
            let e = self.tables.lookup(self.roots[s], va);
            if e & PTE_LAZY != 0 {
                let f = self.alloc(ops)?;
                self.put(s, va, held(f, Perm::of(e)));
            }
        }
        Ok(())
    }

    /// Resolves the shader's fault at `va` (a write or not): a lazy page with the right gets its
    /// frame, with the lazy pages of its aligned block.
    pub fn fault(&mut self, s: usize, va: u64, write: bool, ops: &mut Vec<FrameOp>) -> Fault {
        let e = self.tables.lookup(self.roots[s], va);
        if e & (PTE_HELD | PTE_LAZY) == 0 {
            return Fault::Unmapped;
        }
        let p = Perm::of(e);
        if p == Perm::NONE || (write && !p.has(Perm::W)) {
            return Fault::Denied;
        }
        if e & PTE_HELD != 0 {
            return Fault::Fixed;
        }
        let block = FAULT_AROUND * PAGE;
        let start = va & !(block - 1);
        // The faulting page first: it must succeed; its neighbours only while frames last.
        if self.populate(s, va, 1, ops).is_err() {
            return Fault::NoFrames;
        }
        for a in pages(start, block) {
            let e = self.tables.lookup(self.roots[s], a);
            if e & PTE_LAZY != 0 && Perm::of(e) == p {
                let Ok(f) = self.alloc(ops) else { break };
                self.put(s, a, held(f, p));
            }
        }
        Fault::Fixed
    }

    /// Empties space `s`: its frames and tables go back, and it gets a fresh root.
    pub fn clear(&mut self, s: usize) {
        let root = self.roots[s];
        for (_, e) in self.tables.leaves(root) {
            if e & PTE_HELD != 0 {
                self.frames.release(e & PTE_FRAME);
            }
        }
        self.tables.free_space(root);
        self.roots[s] = self.tables.alloc();
        self.pages[s] = 0;
    }

    /// Makes `to` a copy of `from` (fork): every frame copied, lazy pages lazy.
    pub fn copy(
        &mut self,
        from: usize,
        to: usize,
        ops: &mut Vec<FrameOp>,
    ) -> Result<(), OutOfFrames> {
        self.clear(to);
        let leaves = self.tables.leaves(self.roots[from]);
        let need = leaves.iter().filter(|(_, e)| e & PTE_HELD != 0).count();
        if need > (self.frames.total() - self.frames.in_use()) as usize {
            return Err(OutOfFrames);
        }
        for (va, e) in leaves {
            let n = if e & PTE_HELD != 0 {
                let f = self.alloc(ops)?;
                ops.pop();
                ops.push(FrameOp::Copy {
                    from: e & PTE_FRAME,
                    to: f,
                });
                held(f, Perm::of(e))
            } else {
                e
            };
            self.put(to, va, n);
        }
        Ok(())
    }

    /// The pieces of `[addr, addr + len)` within one page each: (address, frame or lazy, length).
    pub fn pieces(&self, s: usize, addr: u64, len: u64) -> Option<Vec<(u64, Option<u32>, u64)>> {
        let end = addr.checked_add(len)?;
        let mut out = Vec::new();
        let mut a = addr;
        while a < end {
            let n = (PAGE - (a & (PAGE - 1))).min(end - a);
            out.push((a, self.frame(s, a)?, n));
            a += n;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_pages_take_frames_on_touch_in_blocks() {
        let mut sp = Spaces::new(2, 64);
        let mut ops = Vec::new();
        sp.map(0, 0x7fff_0000_0000, 16 * PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        assert!(ops.is_empty());
        assert_eq!(sp.frame_counts().1, 0);
        assert_eq!(sp.mapped_bytes(0), 16 * PAGE);
        let va = 0x7fff_0000_3010;
        assert_eq!(sp.fault(0, va, true, &mut ops), Fault::Fixed);
        assert_eq!(sp.frame_counts().1, 8, "the aligned block of 8 pages");
        assert_eq!(ops.len(), 8);
        assert!(sp.frame(0, va).unwrap().is_some());
        assert_eq!(
            sp.frame(0, 0x7fff_0000_8000),
            Some(None),
            "next block still lazy"
        );
        assert_eq!(
            sp.fault(0, 0x7fff_0001_0000, false, &mut ops),
            Fault::Unmapped
        );
        sp.protect(0, 0x7fff_0000_8000, PAGE, Perm::R);
        assert_eq!(sp.fault(0, 0x7fff_0000_8000, true, &mut ops), Fault::Denied);
        assert_eq!(sp.perm(0, 0x7fff_0000_8000), Some(Perm::R));
        sp.protect(0, 0x7fff_0000_0000, 16 * PAGE, Perm::RX);
        assert_eq!(sp.frame_counts().1, 8, "protect keeps the frames");
    }

    #[test]
    fn copy_unmap_and_clear_return_frames() {
        let mut sp = Spaces::new(2, 8);
        let mut ops = Vec::new();
        sp.map(0, 0x20_0000, 3 * PAGE, Perm::RX, true, &mut ops)
            .unwrap();
        sp.map(0, 0x40_0000, 2 * PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        ops.clear();
        sp.copy(0, 1, &mut ops).unwrap();
        assert_eq!(ops.len(), 3);
        assert!(matches!(ops[0], FrameOp::Copy { .. }));
        assert_eq!(sp.frame_counts().1, 6);
        assert_eq!(sp.perm(1, 0x40_1000), Some(Perm::RW));
        // Too big for what is left: refused whole.
        assert_eq!(
            sp.map(1, 0x1000_0000, 3 * PAGE, Perm::RW, true, &mut ops),
            Err(OutOfFrames)
        );
        assert_eq!(sp.frame_counts().1, 6);
        sp.unmap(0, 0x20_1000, PAGE);
        assert_eq!(sp.frame_counts().1, 5);
        assert_eq!(sp.frame(0, 0x20_1000), None);
        sp.clear(1);
        assert_eq!(sp.frame_counts().1, 2);
        assert_eq!(sp.mapped_bytes(1), 0);
        // A pool spent mid-fault: the faulting page still gets the last frame.
        sp.map(1, 0x50_0000, 8 * PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        sp.map(0, 0x60_0000, 5 * PAGE, Perm::RW, true, &mut ops)
            .unwrap();
        assert_eq!(sp.fault(1, 0x50_7000, false, &mut ops), Fault::Fixed);
        assert_eq!(sp.fault(1, 0x50_0000, false, &mut ops), Fault::NoFrames);
    }
}
