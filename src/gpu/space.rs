//! Address spaces over the page tables ([`super::paging`]): mapping, unmapping and protecting
//! page ranges, zero pages given a frame on first touch, copies for fork. Frames are named here,
//! never touched: each operation lists the frame work ([`FrameOp`]) for the caller's storage
//! (the GPU buffer, or host memory in the test double), so both run this one logic.

use super::layout::{PTE_CODE, PTE_EXEC, PTE_FRAME, PTE_PRESENT, PTE_READ, PTE_WRITE};
use super::paging::{Frames, Tables, PAGE, VA_LIMIT};

/// The entry holds a frame (its number in the low bits).
pub const PTE_HELD: u32 = 1 << 27;
/// The page is mapped but has no frame yet: a zero page on first touch.
pub const PTE_LAZY: u32 = 1 << 26;
/// A MAP_SHARED page: fork shares its frame writable in both (no copy-on-write).
pub const PTE_SHARED: u32 = 1 << 23;
/// Writable by its rights, but its frame is shared (fork): the shader sees it read-only and the
/// first write copies the frame.
pub const PTE_COW: u32 = 1 << 25;

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
        let mut p = if e & PTE_COW != 0 { 2 } else { 0 };
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

/// A writable page whose frame others share: read-only to the shader until its first write.
fn cow(frame: u32, perm: Perm) -> u32 {
    (held(frame, perm) & !PTE_WRITE) | PTE_COW
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
/// A fault next to the last block of its address space doubles the block, up to this many
/// times (8, 16, 32, 64 pages): memory touched in order (a memset, a growing stack) costs a
/// round trip per 256 KiB, not per 32 KiB.
const FAULT_GROWTH: u32 = 3;

/// The address spaces of every process slot, their tables and the frame pool.
pub struct Spaces {
    pub tables: Tables,
    frames: Frames,
    /// Entries holding each frame (frames are shared by fork and by [`Spaces::map_shared`]).
    refs: Vec<u32>,
    /// Read-only frames by content key, for [`Spaces::map_shared`], and the key of each.
    shared: std::collections::HashMap<u128, u32>,
    shared_key: std::collections::HashMap<u32, u128>,
    /// Each slot's root table. Slots may share one (threads: [`Spaces::share`]); an address
    /// space is named by its root.
    roots: Vec<u32>,
    /// Pages mapped per address space (with a frame or lazy), and the slots using it.
    pages: std::collections::HashMap<u32, u64>,
    users: std::collections::HashMap<u32, u32>,
    peak: u32,
    /// Frames copied at a first write after fork, or for a host write to a shared frame.
    pub cow_copies: u64,
    /// Faults that gave zero pages their frames.
    pub zero_faults: u64,
    /// Per address space: the last block given frames on a fault and its growth level.
    last_block: std::collections::HashMap<u32, (u64, u64, u32)>,
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
        let roots: Vec<u32> = (0..spaces).map(|_| tables.alloc()).collect();
        Spaces {
            tables,
            frames: Frames::new(frames),
            refs: vec![0; frames as usize],
            shared: Default::default(),
            shared_key: Default::default(),
            pages: roots.iter().map(|&r| (r, 0)).collect(),
            users: roots.iter().map(|&r| (r, 1)).collect(),
            roots,
            peak: 0,
            cow_copies: 0,
            zero_faults: 0,
            last_block: Default::default(),
        }
    }

    pub fn root(&self, s: usize) -> u32 {
        self.roots[s]
    }

    /// Frames in the pool, in use now, and the most in use at once.
    pub fn frame_counts(&self) -> (u32, u32, u32) {
        (self.frames.total(), self.frames.in_use(), self.peak)
    }

    /// Frames more than one entry holds now.
    pub fn shared_frames(&self) -> u32 {
        self.refs.iter().filter(|&&r| r > 1).count() as u32
    }

    /// Bytes mapped in space `s` (with frames or not).
    pub fn mapped_bytes(&self, s: usize) -> u64 {
        self.pages[&self.roots[s]] * PAGE
    }

    fn alloc(&mut self, ops: &mut Vec<FrameOp>) -> Result<u32, OutOfFrames> {
        let f = self.take()?;
        ops.push(FrameOp::Zero(f));
        Ok(f)
    }

    /// A frame whose contents the caller sets (no zeroing).
    fn take(&mut self) -> Result<u32, OutOfFrames> {
        let f = self.frames.alloc().ok_or(OutOfFrames)?;
        self.peak = self.peak.max(self.frames.in_use());
        Ok(f)
    }

    fn decref(&mut self, f: u32) {
        let r = &mut self.refs[f as usize];
        debug_assert!(*r > 0, "frame {f} released more often than held");
        *r -= 1;
        if *r == 0 {
            self.unshare(f);
            self.frames.release(f);
        }
    }

    /// Takes frame `f` out of the share table: its bytes may change from now on.
    fn unshare(&mut self, f: u32) {
        if let Some(k) = self.shared_key.remove(&f) {
            self.shared.remove(&k);
        }
    }

    /// The entry for frame `f` with rights `perm`: copy-on-write while others share a writable
    /// page. A shared frame that becomes writable by its only holder leaves the share table.
    fn entry(&mut self, f: u32, perm: Perm) -> u32 {
        if perm.has(Perm::W) {
            if self.refs[f as usize] > 1 {
                return cow(f, perm);
            }
            self.unshare(f);
        }
        held(f, perm)
    }

    /// Makes the page at `va` (holding a frame) privately writable by the host or the guest:
    /// a frame others share is copied first.
    fn own(
        &mut self,
        s: usize,
        va: u64,
        e: u32,
        ops: &mut Vec<FrameOp>,
    ) -> Result<(), OutOfFrames> {
        if e & PTE_SHARED != 0 {
            return Ok(());
        }
        let f = e & PTE_FRAME;
        let p = Perm::of(e);
        if self.refs[f as usize] > 1 {
            let g = self.take()?;
            ops.push(FrameOp::Copy { from: f, to: g });
            self.cow_copies += 1;
            self.put(s, va, held(g, p));
        } else if e & PTE_COW != 0 || self.shared_key.contains_key(&f) {
            // The only holder: its own frame, with the write bit its rights give.
            self.unshare(f);
            self.put(s, va, held(f, p));
        }
        Ok(())
    }

    /// Replaces the entry of page `va` (writing no table where both are empty), counting the
    /// holders of the frames it names and it named (a frame no entry holds goes back).
    fn put(&mut self, s: usize, va: u64, e: u32) {
        let root = self.roots[s];
        let old = self.tables.lookup(root, va);
        // A page keeps its decoded-code mark while it stays mapped (new rights, a private copy):
        // only [`Spaces::mark_code`] clears it.
        let e = if e != 0 { e | (old & PTE_CODE) } else { 0 };
        if old == 0 && e == 0 {
            return;
        }
        self.tables.set(root, va, e);
        let keeps = e & PTE_HELD != 0 && old & PTE_HELD != 0 && e & PTE_FRAME == old & PTE_FRAME;
        if e & PTE_HELD != 0 && !keeps {
            self.refs[(e & PTE_FRAME) as usize] += 1;
        }
        if old & PTE_HELD != 0 && !keeps {
            self.decref(old & PTE_FRAME);
        }
        match (old != 0, e != 0) {
            (false, true) => *self.pages.entry(root).or_default() += 1,
            (true, false) => *self.pages.entry(root).or_default() -= 1,
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
            // Fail before changing anything when the pool cannot hold the range (each new
            // frame is taken before the one it replaces goes back).
            let need = pages(addr, len).count();
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
            if e & PTE_SHARED != 0 {
                self.put(s, va, held(e & PTE_FRAME, perm) | PTE_SHARED);
            } else if e & PTE_HELD != 0 {
                let n = self.entry(e & PTE_FRAME, perm);
                self.put(s, va, n);
            } else if e & PTE_LAZY != 0 {
                self.put(s, va, lazy(perm));
            } else {
                all = false;
            }
        }
        all
    }

    /// Makes the pages of `[addr, addr + len)` that hold frames MAP_SHARED ones: fork gives the
    /// child the same frames, writable.
    pub fn make_shared(&mut self, s: usize, addr: u64, len: u64) {
        for va in pages(addr, len) {
            let e = self.tables.lookup(self.roots[s], va);
            if e & PTE_HELD != 0 {
                self.tables.set(self.roots[s], va, e | PTE_SHARED);
            }
        }
    }

    /// Marks the page at `va` as holding decoded code (a write to it stops the guest first), or
    /// clears the mark.
    pub fn mark_code(&mut self, s: usize, va: u64, on: bool) {
        let e = self.tables.lookup(self.roots[s], va);
        if e != 0 && (e & PTE_CODE != 0) != on {
            self.tables.set(self.roots[s], va, e ^ PTE_CODE);
        }
    }

    /// The page-table entry of `va` (0 where nothing is mapped).
    pub fn pte(&self, s: usize, va: u64) -> u32 {
        self.tables.lookup(self.roots[s], va)
    }

    /// The rights of the page at `va`, if it is mapped.
    /// The mapped ranges of slot `s`'s address space, [start, end) with their rights, in
    /// address order (adjacent pages with the same rights merged): /proc/self/maps.
    pub fn regions(&self, s: usize) -> Vec<(u64, u64, Perm)> {
        let mut out: Vec<(u64, u64, Perm)> = Vec::new();
        for (va, e) in self.tables.leaves(self.roots[s]) {
            if e & (PTE_HELD | PTE_LAZY) == 0 {
                continue;
            }
            let p = Perm::of(e);
            match out.last_mut() {
                Some(last) if last.1 == va && last.2 == p => last.1 = va + PAGE,
                _ => out.push((va, va + PAGE, p)),
            }
        }
        out
    }

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

    /// Makes `[addr, addr + len)` the host's to write: frames for its lazy pages, private
    /// copies of frames others share.
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
            } else if e & PTE_HELD != 0 {
                self.own(s, va, e, ops)?;
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
            // A write to a copy-on-write page copies it (or takes it back, when no one else
            // holds the frame any more).
            if write && e & PTE_COW != 0 && self.own(s, va, e, ops).is_err() {
                return Fault::NoFrames;
            }
            return Fault::Fixed;
        }
        let root = self.roots[s];
        let page = va & !(PAGE - 1);
        // Next to the last block: a larger one, on the side away from it (a stack grows down,
        // a heap up); otherwise the aligned block around the fault.
        let (level, start, block) = match self.last_block.get(&root) {
            Some(&(lo, hi, l)) if page + (hi - lo) >= lo && page < hi + (hi - lo) => {
                let level = (l + 1).min(FAULT_GROWTH);
                let block = (FAULT_AROUND << level) * PAGE;
                let start = if page < lo {
                    (page + PAGE).saturating_sub(block)
                } else {
                    page
                };
                (level, start, block)
            }
            _ => {
                let block = FAULT_AROUND * PAGE;
                (0, va & !(block - 1), block)
            }
        };
        self.last_block.insert(root, (start, start + block, level));
        self.zero_faults += 1;
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

    /// Makes slot `to` use `from`'s address space itself (a thread: CLONE_VM), after giving
    /// back its own.
    pub fn share(&mut self, from: usize, to: usize) {
        if self.roots[from] == self.roots[to] {
            return;
        }
        self.clear(to);
        let fresh = self.roots[to];
        self.users.remove(&fresh);
        self.pages.remove(&fresh);
        self.tables.free_space(fresh);
        let root = self.roots[from];
        self.roots[to] = root;
        *self.users.entry(root).or_insert(1) += 1;
    }

    /// The slots using the same address space as `s` (itself included).
    pub fn slots_sharing(&self, s: usize) -> Vec<usize> {
        let root = self.roots[s];
        // Alone in it (no threads), as nearly every slot is: every memory change of every
        // process asks, and a scan of the slots made thousands of instances quadratic.
        if self.users.get(&root).is_none_or(|&u| u <= 1) {
            return vec![s];
        }
        (0..self.roots.len())
            .filter(|&t| self.roots[t] == root)
            .collect()
    }

    /// Slot `s` leaves its address space (which goes when no slot uses it) for a fresh empty
    /// one.
    pub fn clear(&mut self, s: usize) {
        let root = self.roots[s];
        let users = self.users.entry(root).or_insert(1);
        *users -= 1;
        if *users == 0 {
            self.users.remove(&root);
            self.pages.remove(&root);
            self.last_block.remove(&root);
            for (_, e) in self.tables.leaves(root) {
                if e & PTE_HELD != 0 {
                    self.decref(e & PTE_FRAME);
                }
            }
            self.tables.free_space(root);
        }
        let fresh = self.tables.alloc();
        self.roots[s] = fresh;
        self.pages.insert(fresh, 0);
        self.users.insert(fresh, 1);
    }

    /// Makes `to` a copy of `from` (fork) without copying a frame: both share every frame,
    /// writable pages becoming copy-on-write in both; lazy pages stay lazy.
    pub fn copy(&mut self, from: usize, to: usize) {
        if from == to {
            return;
        }
        self.clear(to);
        for (va, e) in self.tables.leaves(self.roots[from]) {
            if e & (PTE_HELD | PTE_SHARED) != PTE_HELD {
                // Lazy pages stay lazy; MAP_SHARED pages stay one frame, writable in both.
                self.put(to, va, e);
                continue;
            }
            // The child's entry first: the frame's second holder makes it copy-on-write.
            self.put(to, va, e & !PTE_WRITE);
            let n = self.entry(e & PTE_FRAME, Perm::of(e));
            self.put(from, va, n);
            self.put(to, va, n);
        }
    }

    /// Maps the page at `va` in space `s` to the frame holding content `key` (a read-only page
    /// of a program: every process running it shares one frame). Returns the frame and
    /// whether it is new (the caller fills it; it is not zeroed).
    pub fn map_shared(
        &mut self,
        s: usize,
        va: u64,
        perm: Perm,
        key: u128,
    ) -> Result<(u32, bool), OutOfFrames> {
        debug_assert!(!perm.has(Perm::W));
        if let Some(&f) = self.shared.get(&key) {
            self.put(s, va, held(f, perm));
            return Ok((f, false));
        }
        let f = self.take()?;
        self.shared.insert(key, f);
        self.shared_key.insert(f, key);
        self.put(s, va, held(f, perm));
        Ok((f, true))
    }

    /// Checks the bookkeeping against the tables (for tests and the fuzzer): every frame's
    /// count is the entries naming it, the pool's use the frames counted, each space's page
    /// count its entries; a shared or copy-on-write frame is writable to the shader only as
    /// MAP_SHARED.
    pub fn check(&self) -> Result<(), String> {
        let mut refs = vec![0u32; self.refs.len()];
        let mut roots: Vec<u32> = self.roots.clone();
        roots.sort_unstable();
        roots.dedup();
        for &root in &roots {
            let leaves = self.tables.leaves(root);
            if self.pages.get(&root).copied().unwrap_or(0) != leaves.len() as u64 {
                return Err(format!(
                    "space {root}: page count {:?} for {} entries",
                    self.pages.get(&root),
                    leaves.len()
                ));
            }
            for (va, e) in leaves {
                if e & PTE_HELD != 0 {
                    refs[(e & PTE_FRAME) as usize] += 1;
                }
                if e & PTE_COW != 0 && e & PTE_WRITE != 0 {
                    return Err(format!("{va:#x}: copy-on-write and writable"));
                }
                if e & PTE_LAZY != 0 && e & (PTE_HELD | PTE_PRESENT) != 0 {
                    return Err(format!("{va:#x}: lazy with a frame or present"));
                }
            }
        }
        for (f, (&want, &have)) in refs.iter().zip(&self.refs).enumerate() {
            if want != have {
                return Err(format!("frame {f}: {have} counted, {want} entries"));
            }
        }
        let used = refs.iter().filter(|&&r| r > 0).count() as u32;
        if used != self.frames.in_use() {
            return Err(format!(
                "{used} frames named, {} taken",
                self.frames.in_use()
            ));
        }
        for &root in &roots {
            for (va, e) in self.tables.leaves(root) {
                let f = e & PTE_FRAME;
                if e & PTE_HELD != 0
                    && e & PTE_WRITE != 0
                    && e & PTE_SHARED == 0
                    && (refs[f as usize] > 1 || self.shared_key.contains_key(&f))
                {
                    return Err(format!("{va:#x}: frame {f} shared yet writable"));
                }
            }
        }
        for (k, f) in &self.shared {
            if self.shared_key.get(f) != Some(k) || refs[*f as usize] == 0 {
                return Err(format!("share table: frame {f}"));
            }
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
    fn random_operations_keep_the_bookkeeping() {
        for seed in [0x9e37_79b9_7f4a_7c15u64, 0x2545_f491_4f6c_dd1d, 7] {
            random_operations(seed);
        }
    }

    fn random_operations(seed: u64) {
        let mut x = seed;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut sp = Spaces::new(4, 96);
        let mut ops = Vec::new();
        let perms = [Perm::NONE, Perm::R, Perm::RW, Perm::RX, Perm::RWX];
        let mut peak = 0;
        for step in 0..20_000 {
            let s = rnd(4) as usize;
            let va = 0x40_0000 + rnd(48) * PAGE;
            let len = (1 + rnd(6)) * PAGE;
            let p = perms[rnd(5) as usize];
            let what = rnd(13);
            // Failures (a spent pool) are part of the test: the bookkeeping must hold anyway.
            match what {
                0 => drop(sp.map(s, va, len, p, false, &mut ops)),
                1 => drop(sp.map(s, va, len, p, true, &mut ops)),
                2 => sp.unmap(s, va, len),
                3 => drop(sp.protect(s, va, len, p)),
                4 | 5 => drop(sp.fault(s, va, rnd(2) == 0, &mut ops)),
                6 => drop(sp.populate(s, va, len, &mut ops)),
                7 => sp.copy(s, rnd(4) as usize),
                8 => sp.clear(s),
                9 => drop(sp.map_shared(s, va, Perm::RX, rnd(3) as u128)),
                10 => sp.make_shared(s, va, len),
                11 => sp.share(s, rnd(4) as usize),
                _ => sp.mark_code(s, va, rnd(2) == 0),
            }
            peak = peak.max(sp.frame_counts().1);
            if let Err(e) = sp.check() {
                panic!("step {step} (operation {what} on slot {s} at {va:#x}): {e}");
            }
        }
        assert!(peak > 32, "the pool was used ({peak} frames at most)");
        assert!(sp.cow_copies > 0);
    }

    #[test]
    fn memory_touched_in_order_faults_in_growing_blocks() {
        let mut sp = Spaces::new(1, 4096);
        let mut ops = Vec::new();
        let top = 0x7fff_0000_0000u64;
        sp.map(0, top - 1024 * PAGE, 1024 * PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        // A stack growing down a page at a time: blocks of 8, 16, 32, then 64 pages.
        let mut faults = 0;
        let mut va = top - 8;
        while va > top - 512 * PAGE {
            if sp.frame(0, va) == Some(None) {
                assert_eq!(sp.fault(0, va, true, &mut ops), Fault::Fixed);
                faults += 1;
            }
            va -= PAGE;
        }
        // 8 + 16 + 32 + 64 pages, then 64 at a time to the 512th page.
        assert_eq!(faults, 4 + 7);
        // A fault far away starts small again.
        let before = sp.frame_counts().1;
        sp.fault(0, top - 1000 * PAGE, false, &mut ops);
        assert_eq!(sp.frame_counts().1 - before, 8);
    }

    #[test]
    fn copy_unmap_and_clear_return_frames() {
        let mut sp = Spaces::new(2, 8);
        let mut ops = Vec::new();
        sp.map(0, 0x20_0000, 3 * PAGE, Perm::RX, true, &mut ops)
            .unwrap();
        sp.map(0, 0x40_0000, 2 * PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        sp.copy(0, 1);
        assert_eq!(sp.frame_counts().1, 3, "fork copies no frame");
        assert_eq!(sp.shared_frames(), 3);
        assert_eq!(sp.perm(1, 0x40_1000), Some(Perm::RW));
        // Too big for what is left: refused whole.
        assert_eq!(
            sp.map(1, 0x1000_0000, 6 * PAGE, Perm::RW, true, &mut ops),
            Err(OutOfFrames)
        );
        assert_eq!(sp.frame_counts().1, 3);
        sp.unmap(0, 0x20_1000, PAGE);
        assert_eq!(sp.frame_counts().1, 3, "the child still holds it");
        sp.unmap(1, 0x20_1000, PAGE);
        assert_eq!(sp.frame_counts().1, 2);
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

    #[test]
    fn threads_share_a_space_that_outlives_all_but_its_last_slot() {
        let mut sp = Spaces::new(3, 8);
        let mut ops = Vec::new();
        sp.map(0, 0x40_0000, 2 * PAGE, Perm::RW, true, &mut ops)
            .unwrap();
        sp.share(0, 1);
        assert_eq!(sp.root(0), sp.root(1));
        assert_eq!(sp.slots_sharing(1), [0, 1]);
        assert_eq!(sp.frame(1, 0x40_0000), sp.frame(0, 0x40_0000));
        let e = sp.tables.lookup(sp.root(1), 0x40_0000);
        assert_eq!(
            e & (PTE_WRITE | PTE_COW),
            PTE_WRITE,
            "no copy-on-write between threads"
        );
        sp.map(1, 0x50_0000, PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        assert_eq!(sp.perm(0, 0x50_0000), Some(Perm::RW), "one address space");
        assert_eq!(sp.mapped_bytes(0), 3 * PAGE);
        let tables = sp.tables.count();
        sp.clear(0);
        assert_eq!(sp.frame_counts().1, 2, "the other thread still uses it");
        assert_eq!(sp.mapped_bytes(1), 3 * PAGE);
        sp.clear(1);
        assert_eq!(sp.frame_counts().1, 0);
        assert!(sp.tables.count() <= tables + 1, "tables reused");
        // Fork of a thread copies the space it shares.
        sp.map(2, 0x40_0000, PAGE, Perm::RW, true, &mut ops)
            .unwrap();
        sp.share(2, 0);
        sp.copy(0, 1);
        assert_ne!(sp.root(1), sp.root(2));
        assert_eq!(sp.slots_sharing(2), [0, 2]);
    }

    #[test]
    fn map_shared_pages_stay_one_frame_across_fork() {
        let mut sp = Spaces::new(2, 8);
        let mut ops = Vec::new();
        sp.map(0, 0x40_0000, PAGE, Perm::RW, true, &mut ops)
            .unwrap();
        sp.make_shared(0, 0x40_0000, PAGE);
        sp.copy(0, 1);
        assert_eq!(sp.frame(0, 0x40_0000), sp.frame(1, 0x40_0000));
        for s in [0, 1] {
            let e = sp.tables.lookup(sp.root(s), 0x40_0000);
            assert_eq!(e & (PTE_WRITE | PTE_COW), PTE_WRITE, "writable in both");
        }
        sp.populate(1, 0x40_0000, 8, &mut ops).unwrap();
        assert_eq!(sp.frame(0, 0x40_0000), sp.frame(1, 0x40_0000), "no copy");
        sp.protect(1, 0x40_0000, PAGE, Perm::R);
        sp.protect(1, 0x40_0000, PAGE, Perm::RW);
        let e = sp.tables.lookup(sp.root(1), 0x40_0000);
        assert_eq!(
            e & (PTE_WRITE | PTE_COW | PTE_SHARED),
            PTE_WRITE | PTE_SHARED
        );
    }

    #[test]
    fn the_code_mark_stays_with_a_mapped_page() {
        let mut sp = Spaces::new(2, 8);
        let mut ops = Vec::new();
        sp.map(0, 0x40_0000, PAGE, Perm::RWX, true, &mut ops)
            .unwrap();
        sp.mark_code(0, 0x40_0000, true);
        let code = |sp: &Spaces, s: usize| sp.tables.lookup(sp.root(s), 0x40_0000) & PTE_CODE != 0;
        sp.protect(0, 0x40_0000, PAGE, Perm::RWX);
        sp.copy(0, 1);
        assert!(code(&sp, 0) && code(&sp, 1), "kept by protect and fork");
        assert_eq!(sp.fault(1, 0x40_0000, true, &mut ops), Fault::Fixed);
        assert!(code(&sp, 1), "kept by the copy-on-write copy");
        sp.mark_code(1, 0x40_0000, false);
        assert!(!code(&sp, 1) && code(&sp, 0));
        sp.unmap(0, 0x40_0000, PAGE);
        sp.map(0, 0x40_0000, PAGE, Perm::RW, false, &mut ops)
            .unwrap();
        assert!(!code(&sp, 0), "a new mapping starts unmarked");
    }

    #[test]
    fn fork_shares_frames_and_the_first_write_copies() {
        let mut sp = Spaces::new(3, 16);
        let mut ops = Vec::new();
        sp.map(0, 0x40_0000, 2 * PAGE, Perm::RW, true, &mut ops)
            .unwrap();
        let f = sp.frame(0, 0x40_0000).unwrap().unwrap();
        sp.copy(0, 1);
        let e = |sp: &Spaces, s: usize| sp.tables.lookup(sp.root(s), 0x40_0000);
        for s in [0, 1] {
            assert_eq!(
                e(&sp, s) & (PTE_WRITE | PTE_COW),
                PTE_COW,
                "read-only to the shader"
            );
            assert_eq!(sp.perm(s, 0x40_0000), Some(Perm::RW));
        }
        // The child writes: it gets a copy; the parent is then the frame's only holder.
        ops.clear();
        assert_eq!(sp.fault(1, 0x40_0008, true, &mut ops), Fault::Fixed);
        let g = sp.frame(1, 0x40_0000).unwrap().unwrap();
        assert_ne!(g, f);
        assert_eq!(ops, [FrameOp::Copy { from: f, to: g }]);
        assert_eq!(e(&sp, 1) & (PTE_WRITE | PTE_COW), PTE_WRITE);
        // The parent's write takes the frame back without a copy.
        ops.clear();
        assert_eq!(sp.fault(0, 0x40_0000, true, &mut ops), Fault::Fixed);
        assert!(ops.is_empty());
        assert_eq!(sp.frame(0, 0x40_0000), Some(Some(f)));
        assert_eq!(sp.cow_copies, 1);
        // A host write into a shared page copies it too.
        sp.copy(0, 2);
        sp.populate(2, 0x40_1000, 8, &mut ops).unwrap();
        assert_ne!(sp.frame(2, 0x40_1000), sp.frame(0, 0x40_1000));
        // A read-only page of a program: one frame for everyone, freed with its last holder.
        let (a, new) = sp.map_shared(1, 0x20_0000, Perm::RX, 7).unwrap();
        assert!(new);
        let (b, new) = sp.map_shared(2, 0x20_0000, Perm::RX, 7).unwrap();
        assert_eq!((a, new), (b, false));
        let before = sp.frame_counts().1;
        sp.clear(1);
        sp.clear(2);
        assert_eq!(
            sp.frame_counts().1,
            before - 3,
            "b's frame, and 2's own two copies"
        );
        let (c, new) = sp.map_shared(0, 0x20_0000, Perm::RX, 7).unwrap();
        assert!(new, "gone with its last holder (frame {c})");
    }
}
