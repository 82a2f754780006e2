//! The host's half of address translation (docs/virtual-memory.md): the four-level page tables
//! the shader walks (`ptab`, binding 7) and the pool of 4 KiB frames in `mem`. The host owns
//! both; the device copy of the tables is rewritten where they changed before the next submit.

use super::layout::{PTE_FRAME, PTE_PRESENT, PT_ENTRIES};

pub const PAGE: u64 = 4096;
/// Guest virtual addresses have 48 bits.
pub const VA_LIMIT: u64 = 1 << 48;
const E: usize = PT_ENTRIES as usize;

/// The table index of each level for `va`: root, level 1, level 2, last level.
fn indices(va: u64) -> [usize; 4] {
    [39, 30, 21, 12].map(|s| ((va >> s) & (E as u64 - 1)) as usize)
}

/// Page tables: 512-entry tables of PTE words in one array, the device buffer's image. Table 0
/// is never handed out and stays empty: an entry that is not present names it, so the shader's
/// loads through such an entry stay in bounds.
pub struct Tables {
    pub words: Vec<u32>,
    free: Vec<u32>,
    /// Tables written since the last [`Tables::take_dirty`].
    dirty: Vec<bool>,
    any_dirty: bool,
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            words: vec![0; E],
            free: Vec::new(),
            dirty: vec![true],
            any_dirty: true,
        }
    }

    /// Tables in the array (allocated or free).
    pub fn count(&self) -> u32 {
        (self.words.len() / E) as u32
    }

    /// A fresh empty table.
    pub fn alloc(&mut self) -> u32 {
        if let Some(t) = self.free.pop() {
            return t;
        }
        let t = self.count();
        self.words.resize(self.words.len() + E, 0);
        self.dirty.push(true);
        self.any_dirty = true;
        t
    }

    fn put(&mut self, table: u32, k: usize, pte: u32) {
        self.words[table as usize * E + k] = pte;
        self.dirty[table as usize] = true;
        self.any_dirty = true;
    }

    fn get(&self, table: u32, k: usize) -> u32 {
        self.words[table as usize * E + k]
    }

    /// The last-level entry for `va` under `root` (present or not); 0 where a level above is
    /// missing.
    pub fn lookup(&self, root: u32, va: u64) -> u32 {
        if va >= VA_LIMIT {
            return 0;
        }
        let ix = indices(va);
        let mut t = root;
        for &k in &ix[..3] {
            let e = self.get(t, k);
            if e & PTE_PRESENT == 0 {
                return 0;
            }
            t = e & PTE_FRAME;
        }
        self.get(t, ix[3])
    }

    /// Sets the last-level entry for `va` under `root`, adding the tables above it as needed;
    /// returns the entry it replaced.
    pub fn set(&mut self, root: u32, va: u64, pte: u32) -> u32 {
        debug_assert!(va < VA_LIMIT);
        let ix = indices(va);
        let mut t = root;
        for &k in &ix[..3] {
            let e = self.get(t, k);
            t = if e & PTE_PRESENT != 0 {
                e & PTE_FRAME
            } else {
                let n = self.alloc();
                self.put(t, k, PTE_PRESENT | n);
                n
            };
        }
        let old = self.get(t, ix[3]);
        self.put(t, ix[3], pte);
        old
    }

    /// Every last-level entry under `root` that is not zero, by address.
    pub fn leaves(&self, root: u32) -> Vec<(u64, u32)> {
        let mut out = Vec::new();
        self.walk(root, 0, 0, &mut |va, e| out.push((va, e)));
        out
    }

    fn walk(&self, table: u32, level: u32, base: u64, f: &mut dyn FnMut(u64, u32)) {
        let shift = 39 - 9 * level as u64;
        for k in 0..E {
            let e = self.get(table, k);
            let va = base | (k as u64) << shift;
            if level == 3 {
                // A last-level entry may hold something without being present (the host's
                // bits: a zero page without a frame, a page without rights).
                if e != 0 {
                    f(va, e);
                }
            } else if e & PTE_PRESENT != 0 {
                self.walk(e & PTE_FRAME, level + 1, va, f);
            }
        }
    }

    /// Frees `root` and every table under it (the caller frees the frames, from
    /// [`Tables::leaves`], first).
    pub fn free_space(&mut self, root: u32) {
        let mut tables = vec![(root, 0u32)];
        let mut i = 0;
        while i < tables.len() {
            let (t, level) = tables[i];
            if level < 3 {
                for k in 0..E {
                    let e = self.get(t, k);
                    if e & PTE_PRESENT != 0 {
                        tables.push((e & PTE_FRAME, level + 1));
                    }
                }
            }
            i += 1;
        }
        for (t, _) in tables {
            self.words[t as usize * E..(t as usize + 1) * E].fill(0);
            self.dirty[t as usize] = true;
            self.free.push(t);
        }
        self.any_dirty = true;
    }

    /// Runs of tables written since the last call, as word ranges to upload.
    pub fn take_dirty(&mut self) -> Vec<std::ops::Range<usize>> {
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        if !self.any_dirty {
            return out;
        }
        for (t, d) in self.dirty.iter_mut().enumerate() {
            if std::mem::take(d) {
                match out.last_mut() {
                    Some(r) if r.end == t * E => r.end += E,
                    _ => out.push(t * E..(t + 1) * E),
                }
            }
        }
        self.any_dirty = false;
        out
    }
}

/// The pool of frames: a stack of free frame numbers.
pub struct Frames {
    free: Vec<u32>,
    total: u32,
}

impl Frames {
    /// The highest frames are handed out first: with a pool of several bindings, a small run
    /// lives in the last one, so every binding's path is the common one somewhere.
    pub fn new(total: u32) -> Frames {
        Frames {
            free: (0..total).collect(),
            total,
        }
    }

    pub fn alloc(&mut self) -> Option<u32> {
        self.free.pop()
    }

    pub fn release(&mut self, f: u32) {
        debug_assert!(f < self.total);
        self.free.push(f);
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    pub fn in_use(&self) -> u32 {
        self.total - self.free.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_lookup_and_free() {
        let mut t = Tables::new();
        let root = t.alloc();
        assert_eq!(root, 1, "table 0 is never handed out");
        for (va, f) in [
            (0x20_0000u64, 7u32),
            (0x7fff_ffff_f000, 9),
            (0x5555_5555_4000, 11),
        ] {
            assert_eq!(t.set(root, va, PTE_PRESENT | f), 0);
        }
        assert_eq!(t.lookup(root, 0x20_0fff) & PTE_FRAME, 7);
        assert_eq!(t.lookup(root, 0x7fff_ffff_f123), PTE_PRESENT | 9);
        assert_eq!(t.lookup(root, 0x20_1000), 0);
        assert_eq!(t.lookup(root, VA_LIMIT), 0);
        let leaves = t.leaves(root);
        assert_eq!(
            leaves.iter().map(|l| l.0).collect::<Vec<_>>(),
            [0x20_0000, 0x5555_5555_4000, 0x7fff_ffff_f000]
        );
        let n = t.count();
        t.free_space(root);
        let again = t.alloc();
        t.set(again, 0x1000, PTE_PRESENT | 3);
        assert_eq!(t.count(), n, "freed tables are reused");
        assert_eq!(
            t.lookup(again, 0x20_0000),
            0,
            "reused tables come back empty"
        );
    }

    #[test]
    fn dirty_runs_merge() {
        let mut t = Tables::new();
        let r = t.alloc();
        t.set(r, 0, PTE_PRESENT);
        assert_eq!(t.take_dirty(), vec![0..5 * E]);
        assert!(t.take_dirty().is_empty());
        t.set(r, 0x1000, PTE_PRESENT);
        assert_eq!(t.take_dirty(), vec![4 * E..5 * E]);
    }
}
