//! Differential fuzzer: random blocks of valid A64 instructions, run on garm and on qemu-aarch64.
//!
//! Each block is generated from the rows of the encoding table ([`crate::isa::ENCODINGS`]): a row
//! is picked, its free bits are filled at random, and the word is kept when the table's own
//! decoder accepts it through that row. A few fields are then fixed so the block runs the same
//! way on any Armv8-A core: memory accesses go through a base register set just before them to a
//! point in a 512-byte scratch area (unaligned, pre/post-index writeback and register offsets
//! included), branches only go forward inside the block, and nothing writes x27 (the scratch
//! base the generator relies on). Unpredictable cases (a load's Rt equal to its writeback base,
//! LDP with Rt == Rt2, ...) are not generated: they have their own regression tests.
//!
//! Blocks of one seed go into one ELF (a C driver plus an assembly file built with the guest
//! toolchain). Before each block the driver loads random x0-x30, NZCV and TPIDR_EL0 and fills
//! the scratch area; after it, the block's state (x0-x30, sp, NZCV) and the scratch area are
//! written to stdout with `write`. garm runs the ELF as many instances (instance *i* takes its
//! share of the blocks from GARM_INSTANCE/GARM_INSTANCES), qemu-aarch64 runs it once for all
//! blocks; the two outputs must be byte-identical. On a difference the block is rebuilt as all
//! its prefixes, which names the first divergent instruction, its disassembly and both states.

use crate::error::Error;
use crate::isa::{self, form, Decoded};
use crate::run::{self, RunOptions};
pub use crate::toolchain::disassemble;
use crate::toolchain::Toolchain;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Fuzzer settings (see `garm fuzz --help`).
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Guests garm runs in parallel; each takes an equal share of the blocks.
    pub instances: u32,
    /// Blocks per instance in one seed's ELF.
    pub blocks_per_instance: u32,
    /// Generated instructions per block (helper instructions included).
    pub block_len: u32,
    /// Keep the generated sources and ELF here (else a temporary directory, removed).
    pub keep: Option<PathBuf>,
    pub adapter: Option<String>,
    /// Draw from the Tier-2 classes only ([`isa::table::TIER2_CLASSES`]).
    pub tier2: bool,
    /// Run every block through the translation tier (each block a region, translated before
    /// the first dispatch) instead of the interpreter.
    pub translate: bool,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        FuzzConfig {
            instances: 64,
            blocks_per_instance: 16,
            block_len: 32,
            keep: None,
            adapter: None,
            tier2: false,
            translate: false,
        }
    }
}

/// The result of one seed.
#[derive(Debug, Default)]
pub struct SeedResult {
    /// Generated instructions (all blocks).
    pub instructions: u64,
    pub blocks: u64,
    /// Generated instructions per ISA.md class.
    pub classes: BTreeMap<&'static str, u64>,
    /// The divergence report, if garm and qemu differ.
    pub divergence: Option<String>,
    /// Instructions garm ran in translated code (with [`FuzzConfig::translate`]).
    pub translated: u64,
    /// `--block K --keep DIR`: the block's garm trace and qemu log.
    pub traces: Option<(PathBuf, PathBuf)>,
}

// ---------------------------------------------------------------- random numbers

/// splitmix64: small, fast and good enough; the same seed gives the same blocks everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6a09_e667_f3bc_c909)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
    /// A register value biased towards the edges where engines go wrong.
    fn value(&mut self) -> u64 {
        match self.below(12) {
            0 => 0,
            1 => u64::MAX,
            2 => 0x8000_0000_0000_0000 ^ self.below(2),
            3 => 0x7fff_ffff_ffff_ffff - self.below(2),
            4 => 0x8000_0000 ^ self.below(2),
            5 => 0x7fff_ffff + self.below(3),
            6 => 0xffff_ffff_0000_0000 | self.next() >> 32,
            7 => self.below(64),
            8 => self.next() as u32 as u64,
            9 => (self.next() as i32 as i64) as u64,
            _ => self.next(),
        }
    }
}

// ---------------------------------------------------------------- block generation

/// Scratch area: 512 bytes, 64-byte aligned (DC ZVA zeroes 64-byte blocks inside it); x27 points
/// at its middle.
pub const SCRATCH: u64 = 512;
const BASE_REG: u32 = 27;

/// How a word's offset field is patched once the block's layout is known.
#[derive(Clone, Copy, Debug)]
enum Fix {
    /// imm26 (B, BL) to the start of unit `.1`.
    Imm26(usize),
    /// imm19 at bits 5-23 (B.cond, CBZ/CBNZ) to a unit.
    Imm19(usize),
    /// imm14 at bits 5-18 (TBZ/TBNZ) to a unit.
    Imm14(usize),
    /// ADR to a unit (the address BR/BLR/RET then jump to).
    Adr(usize),
    /// LDR (literal) back `.0` words from itself (reading code: same bytes on every engine).
    LitBack(u32),
}

/// One unit: an instruction, with the helper instructions it needs before it. Branches only land
/// on unit starts, so a helper is never skipped on its own.
#[derive(Clone, Debug, Default)]
struct Unit {
    words: Vec<u32>,
    fixes: Vec<(usize, Fix)>,
    /// Class of each word, for coverage counts.
    classes: Vec<&'static str>,
}

/// One generated block.
#[derive(Clone, Debug)]
pub struct Block {
    units: Vec<Unit>,
    /// x0..x30, NZCV (bits 31-28), TPIDR_EL0, seed of the scratch fill.
    state: [u64; 34],
}

fn set_bits(w: u32, lo: u32, n: u32, v: u32) -> u32 {
    let m = ((1u64 << n) - 1) as u32;
    (w & !(m << lo)) | ((v & m) << lo)
}

fn rt(w: u32) -> u32 {
    w & 31
}

/// `add Xd|SP, x27, #k` or `sub ... #-k`: a base register `k` bytes from the scratch middle.
fn base_setup(d: u32, k: i64) -> u32 {
    let sub = k < 0;
    let imm = k.unsigned_abs() as u32 & 0xfff;
    0x9100_0000 | (sub as u32) << 30 | imm << 10 | BASE_REG << 5 | d
}

/// `movz Xd, #v` or `movn Xd, #!v` for a small signed v.
fn mov_small(d: u32, v: i64) -> u32 {
    if v >= 0 {
        0xd280_0000 | (v as u32 & 0xffff) << 5 | d
    } else {
        0x9280_0000 | ((!v) as u32 & 0xffff) << 5 | d
    }
}

/// Registers a decoded instruction writes (31 is SP where the form says so).
fn written(d: &Decoded) -> Vec<u32> {
    let w1 = d.w[1];
    let mut v = vec![w1 & 63];
    if d.unit() == form::unit::ATOMIC {
        v.push((w1 >> 18) & 63);
        if (d.aux() >> form::atomic::OP_SHIFT) & 15 == form::atomic::CASP {
            let s = (w1 >> 12) & 63;
            v.extend([s, s + 1]);
        }
    }
    if d.unit() == form::unit::MEM && d.aux() & form::mem::STORE == 0 {
        v.push((w1 >> 18) & 63);
        if d.aux() & form::mem::PAIR != 0 {
            v.push((w1 >> 24) & 63);
        }
    }
    v
}

fn decodes_as(word: u32, row: &str) -> Option<Decoded> {
    match isa::lookup(word, 0x10000) {
        Some((e, f)) if e.name == row => Some(f.build(word)),
        _ => None,
    }
}

/// System registers the fuzzer reads (MRS) and writes (MSR): op0:op1:CRn:CRm:op2 keys.
const fn sr(op1: u32, crn: u32, crm: u32, op2: u32) -> u32 {
    1 << 14 | op1 << 11 | crn << 7 | crm << 3 | op2
}
const MRS_KEYS: &[u32] = &[
    sr(3, 4, 2, 0),  // NZCV
    sr(3, 13, 0, 2), // TPIDR_EL0
    sr(3, 4, 4, 0),  // FPCR
    sr(3, 4, 4, 1),  // FPSR
    sr(3, 0, 0, 7),  // DCZID_EL0
    sr(3, 0, 0, 1),  // CTR_EL0
];

/// Rows the fuzzer does not generate: they leave the block (SVC), trap (BRK, HLT) or read a
/// value the host defines (counters).
fn skipped(name: &str) -> bool {
    matches!(name, "SVC" | "BRK" | "HLT")
}

struct Gen<'a> {
    rng: &'a mut Rng,
    /// Index of the unit being generated.
    cur: usize,
    /// Words generated so far (for literal offsets).
    words_before: u32,
}

impl Gen<'_> {
    /// A register for x1..x30 roles, never x27.
    fn reg(&mut self) -> u32 {
        loop {
            let r = self.rng.below(31) as u32;
            if r != BASE_REG {
                return r;
            }
        }
    }

    /// A forward target: a unit after this one (the block end is `len`).
    fn target(&mut self) -> usize {
        self.cur + 1 + self.rng.below(6) as usize
    }

    /// One unit from `row`, or None when this attempt should be redrawn.
    fn unit(&mut self, row: &'static isa::table::Encoding) -> Option<Unit> {
        let r = self.rng.next() as u32;
        let mut w = (r & !row.mask) | row.value;
        let name = row.name;
        let class = row.class;
        let mut u = Unit::default();
        // Field fix-ups that random bits would rarely hit, before the decoder judges the word.
        match name {
            "HINT (NOP, YIELD, ...)" => {
                // Plain NOP and YIELD: other hints are PAuth, BTI, WFI... on a `max` qemu core.
                w = set_bits(w, 5, 7, self.rng.below(2) as u32);
            }
            "MRS" | "MSR (register)" => {
                let keys = if name == "MRS" {
                    MRS_KEYS
                } else {
                    &MRS_KEYS[..4]
                };
                w = set_bits(w, 5, 15, keys[self.rng.below(keys.len() as u64) as usize]);
            }
            "LDXR/STXR/LDAXR/STLXR/LDXP/STXP/LDAXP/STLXP/LDAR/STLR" => {
                // Rt2 must be 31 except in pairs (o1, bit 21); Rs 31 except in stores-exclusive.
                if w & (1 << 21) == 0 || self.rng.chance(1, 2) {
                    w &= !(1 << 21);
                    w = set_bits(w, 10, 5, 31);
                }
                if w & (1 << 22) != 0 || w & (1 << 23) != 0 {
                    w = set_bits(w, 16, 5, 31);
                }
                if self.rng.chance(1, 3) {
                    // CAS/CASP (LSE): o1 set, Rt2 31, the pair registers even, Rs random.
                    w |= 1 << 21;
                    w = set_bits(w, 10, 5, 31);
                    w = set_bits(w, 16, 5, self.rng.below(31) as u32) & !(1 << 16) & !1;
                }
            }
            "LDR/STR (unsigned offset)" => {
                let size = w >> 30;
                w = set_bits(w, 10, 12, self.rng.below(1024 >> size) as u32);
            }
            "LDR/STR B/H/S/D/Q (unsigned offset)" => {
                let log = if w & (1 << 23) != 0 { 4 } else { w >> 30 };
                w = set_bits(w, 10, 12, self.rng.below(1024 >> log) as u32);
            }
            "LDR/STR (register offset)" | "LDR/STR B/H/S/D/Q (register offset)" => {
                w = set_bits(w, 13, 3, [2, 3, 6, 7][self.rng.below(4) as usize]);
            }
            _ => {}
        }
        let d = decodes_as(w, name)?;
        if written(&d).contains(&BASE_REG) {
            return None;
        }
        match d.unit() {
            form::unit::BR => {
                let t = self.target();
                match name {
                    "B/BL" => u.fixes.push((0, Fix::Imm26(t))),
                    "B.cond" => u.fixes.push((0, Fix::Imm19(t))),
                    "CBZ/CBNZ" => u.fixes.push((0, Fix::Imm19(t))),
                    "TBZ/TBNZ" => u.fixes.push((0, Fix::Imm14(t))),
                    _ => {
                        // BR/BLR/RET Xn: Xn = adr of the target first.
                        let n = self.reg();
                        w = set_bits(w, 5, 5, n);
                        u.words.push(0x1000_0000 | n);
                        u.classes.push("PC-relative");
                        u.fixes.push((0, Fix::Adr(t)));
                    }
                }
            }
            form::unit::MEM | form::unit::VMEM if name.contains("literal") => {
                // Backwards only (at most into the block's 3-word prologue), so a prefix of the
                // block reads the same words as the whole block: the access may reach the
                // literal itself but no further.
                let nbytes = 1u32
                    << if d.unit() == form::unit::VMEM {
                        d.aux() & form::vmem::SIZE_MASK
                    } else {
                        d.aux() & 3
                    };
                let min = (nbytes / 4).saturating_sub(1).max(1);
                let avail = self.words_before + 3;
                if avail < min {
                    return None;
                }
                let back = min + self.rng.below((avail - min + 1) as u64) as u32;
                u.fixes.push((0, Fix::LitBack(back)));
            }
            form::unit::MEM | form::unit::VMEM | form::unit::VSTRUCT | form::unit::ATOMIC => {
                return self.mem_unit(w, &d, row)
            }
            form::unit::SYS if name.starts_with("DC") || name.starts_with("IC") => {
                let b = self.reg();
                let k = self.rng.below(SCRATCH) as i64 - (SCRATCH / 2) as i64;
                u.words.push(base_setup(b, k));
                u.classes.push("add/sub immediate");
                w = set_bits(w, 0, 5, b);
            }
            _ => {}
        }
        u.words.push(w);
        u.classes.push(class);
        Some(u)
    }

    /// A load or store with its base (and index) register set up to hit the scratch area.
    fn mem_unit(
        &mut self,
        mut w: u32,
        d: &Decoded,
        row: &'static isa::table::Encoding,
    ) -> Option<Unit> {
        let aux = d.aux();
        let (size, pair, excl, store, idx, regs) = if d.unit() == form::unit::VSTRUCT {
            use form::vstruct;
            let n = ((aux >> vstruct::N_SHIFT) & 3) + 1;
            let q = aux & vstruct::Q != 0;
            let post = if aux & vstruct::POST != 0 {
                form::mem::IDX_POST
            } else {
                form::mem::IDX_OFFSET
            };
            // n registers of 8 or 16 bytes, as n accesses of that size.
            (
                if q { 4 } else { 3 },
                false,
                false,
                aux & vstruct::STORE != 0,
                post,
                n,
            )
        } else if d.unit() == form::unit::VMEM {
            use form::vmem;
            let lane = (aux >> vmem::MODE_SHIFT) & 3 != 0;
            (
                aux & vmem::SIZE_MASK,
                aux & vmem::PAIR != 0,
                false,
                aux & vmem::STORE != 0,
                (aux >> vmem::IDX_SHIFT) & 3,
                if lane {
                    1
                } else {
                    ((aux >> vmem::NREGS_SHIFT) & 3) + 1
                },
            )
        } else if d.unit() == form::unit::ATOMIC {
            // The store-exclusives are the ATOMIC unit's (STXP: each register's size).
            let op = (aux >> form::atomic::OP_SHIFT) & 15;
            let stx = op == form::atomic::STX || op == form::atomic::STXP;
            (aux & 3, op == form::atomic::STXP, stx, stx, 0, 1)
        } else {
            (
                aux & 3,
                aux & form::mem::PAIR != 0,
                aux & form::mem::EXCL != 0,
                aux & form::mem::STORE != 0,
                (aux >> form::mem::IDX_SHIFT) & 3,
                1,
            )
        };
        let atomic = d.unit() == form::unit::ATOMIC;
        // Exclusive, ordered and atomic accesses fault unless naturally aligned.
        let ordered = row.class == "exclusive/ordered" || atomic;
        let casp = atomic && (aux >> form::atomic::OP_SHIFT) & 15 == form::atomic::CASP;
        let nbytes = (1u64 << size) * if pair || casp { 2 } else { regs as u64 };
        let mut u = Unit::default();

        // Base register: SP now and then (kept 16-byte aligned, as Linux checks), else any
        // register other than x27 and the ones this instruction writes or stores.
        let use_sp = self.rng.chance(1, 6) && !(excl && store && rt(w) == 31);
        let t = rt(w);
        let t2 = (w >> 10) & 31;
        let s = (w >> 16) & 31;
        if !store && pair && t == t2 {
            return None; // LDP Rt == Rt2: unpredictable
        }
        let b = if use_sp {
            31
        } else {
            let mut b;
            let mut tries = 0;
            loop {
                b = self.reg();
                tries += 1;
                let clash = (idx != 0 && (b == t || (pair && b == t2)))
                    || (excl && store && b == s)
                    || (atomic && (b == t || b == s || (casp && b == s + 1)))
                    || (row.name.contains("register offset") && b == ((w >> 16) & 31));
                if !clash || tries > 50 {
                    break;
                }
            }
            b
        };
        if excl && store && (s == t || (pair && s == t2) || s == b) {
            return None; // status register overlapping data or base: unpredictable
        }
        w = set_bits(w, 5, 5, b);

        // Index register for register offsets: a small value, junk above bit 31 for W forms.
        let mut off: i64 = if idx == form::mem::IDX_POST {
            0
        } else {
            d.imm() as i64
        };
        if row.name.contains("register offset") {
            let m = (w >> 16) & 31;
            let option = (w >> 13) & 7;
            let scale = if w & (1 << 12) != 0 { size } else { 0 };
            if m == 31 || m == b || m == BASE_REG {
                return None;
            }
            let v: i64 = if option == 2 {
                self.rng.below(128) as i64
            } else {
                self.rng.below(256) as i64 - 128
            };
            u.words.push(mov_small(m, v));
            u.classes.push("move wide");
            if option == 2 || option == 6 {
                // MOVK Xm, #junk, LSL #32/48: the extension must ignore the upper word.
                let hw = 2 + self.rng.below(2) as u32;
                u.words
                    .push(0xf280_0000 | hw << 21 | (self.rng.next() as u32 & 0xffff) << 5 | m);
                u.classes.push("move wide");
            }
            off = if option == 2 || option == 6 {
                (v as i32 as i64) << scale
            } else {
                v << scale
            };
        }

        // The access address: anywhere in the scratch area (aligned for exclusive and ordered
        // accesses, which fault otherwise), then the base that reaches it.
        let lo = -((SCRATCH / 2) as i64);
        let span = SCRATCH as i64 - nbytes as i64;
        let mut a = lo + self.rng.below(span as u64 + 1) as i64;
        if ordered || self.rng.chance(1, 2) {
            a &= !(nbytes as i64 - 1);
        }
        let mut base = a - off;
        if b == 31 {
            base &= !15;
            a = base + off;
            if a < lo || a > lo + span {
                return None;
            }
        }
        if !(-4095..=4095).contains(&base) {
            return None;
        }
        let setup = base_setup(b, base);
        if excl && store && self.rng.chance(3, 4) {
            // A matching load-exclusive first, so the store-exclusive can succeed.
            let mut l = (w | 1 << 22) & !(1 << 15) | (self.rng.below(2) as u32) << 15;
            l = set_bits(l, 16, 5, 31);
            loop {
                let t1 = self.reg();
                let t2b = self.reg();
                if t1 != b && (!pair || (t2b != b && t2b != t1)) {
                    l = set_bits(l, 0, 5, t1);
                    if pair {
                        l = set_bits(l, 10, 5, t2b);
                    }
                    break;
                }
            }
            decodes_as(l, row.name)?;
            u.words.push(setup);
            u.classes.push("add/sub immediate");
            u.words.push(l);
            u.classes.push(row.class);
        } else {
            if excl && store {
                // Without its own load-exclusive, clear the monitor first: one left by an
                // earlier exclusive load of another size or address is CONSTRAINED
                // UNPREDICTABLE (qemu even stores and reports failure), not a fair test.
                u.words.push(0xd503_305f); // clrex
                u.classes.push("system");
            }
            u.words.push(setup);
            u.classes.push("add/sub immediate");
        }
        u.words.push(w);
        u.classes.push(row.class);
        // The whole unit must still decode (the base field changed).
        decodes_as(w, row.name)?;
        Some(u)
    }
}

/// The rows the generator draws from.
fn fuzz_rows() -> Vec<&'static isa::table::Encoding> {
    isa::ENCODINGS.iter().filter(|e| !skipped(e.name)).collect()
}

/// The classes the generator covers, in table order.
pub fn fuzz_classes() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for e in fuzz_rows() {
        if !v.contains(&e.class) {
            v.push(e.class);
        }
    }
    v
}

/// Generates block `k` of `seed` with about `len` instructions (deterministic).
pub fn gen_block(seed: u64, k: u64, len: u32, tier2: bool) -> Block {
    let mut rng = Rng::new(seed.wrapping_mul(0x1000_0000_01b3) ^ k.wrapping_mul(0x9e37_79b9));
    let rows = fuzz_rows();
    let mut state = [0u64; 34];
    for v in state.iter_mut().take(31) {
        *v = rng.value();
    }
    state[31] = rng.below(16) << 28;
    state[32] = rng.value();
    state[33] = rng.next();
    let mut units: Vec<Unit> = Vec::new();
    let mut words = 0u32;
    while words < len {
        let mut g = Gen {
            rng: &mut rng,
            cur: units.len(),
            words_before: words,
        };
        // A class first, then a row of it: classes with many rows (system) would crowd out
        // the data-processing ones otherwise.
        let mut classes = fuzz_classes();
        if tier2 {
            classes.retain(|c| isa::table::TIER2_CLASSES.contains(c));
        }
        let class = classes[g.rng.below(classes.len() as u64) as usize];
        let of: Vec<_> = rows.iter().filter(|e| e.class == class).collect();
        let row = of[g.rng.below(of.len() as u64) as usize];
        for _ in 0..200 {
            if let Some(u) = g.unit(row) {
                words += u.words.len() as u32;
                units.push(u);
                break;
            }
        }
    }
    Block { units, state }
}

impl Block {
    /// The words of the first `n` units, with branch and literal offsets resolved (a branch past
    /// the last unit goes to the block's end).
    pub fn words(&self, n: usize) -> Vec<u32> {
        let n = n.min(self.units.len());
        let mut starts = Vec::with_capacity(n + 1);
        let mut at = 0u32;
        for u in &self.units[..n] {
            starts.push(at);
            at += u.words.len() as u32;
        }
        starts.push(at);
        let mut out = Vec::with_capacity(at as usize);
        for (i, u) in self.units[..n].iter().enumerate() {
            for (j, &w) in u.words.iter().enumerate() {
                let here = starts[i] + j as u32;
                let mut w = w;
                for &(fj, fix) in &u.fixes {
                    if fj != j {
                        continue;
                    }
                    let to = |t: usize| (starts[t.min(n)] as i64 - here as i64) as u32;
                    w = match fix {
                        Fix::Imm26(t) => set_bits(w, 0, 26, to(t)),
                        Fix::Imm19(t) => set_bits(w, 5, 19, to(t)),
                        Fix::Imm14(t) => set_bits(w, 5, 14, to(t)),
                        Fix::Adr(t) => {
                            let bytes = to(t) << 2;
                            set_bits(set_bits(w, 29, 2, bytes), 5, 19, bytes >> 2)
                        }
                        Fix::LitBack(k) => set_bits(w, 5, 19, k.wrapping_neg()),
                    };
                }
                out.push(w);
            }
        }
        out
    }

    pub fn units(&self) -> usize {
        self.units.len()
    }

    fn count(&self, classes: &mut BTreeMap<&'static str, u64>) -> u64 {
        let mut n = 0;
        for u in &self.units {
            for c in &u.classes {
                *classes.entry(c).or_default() += 1;
                n += 1;
            }
        }
        n
    }
}

// ---------------------------------------------------------------- the ELF

const DRIVER_C: &str = r#"/* Fuzz driver (generated by garm fuzz): runs this instance's share of the blocks. */
#include <stdlib.h>
#include <unistd.h>
#include <stdint.h>
#define SCRATCH_QWORDS 64
extern const uint64_t fuzz_nblocks;
extern const uint64_t fuzz_state[][34];
extern void (*const fuzz_blocks[])(void);
void fuzz_run(uint64_t *regs, uint64_t *dump, void (*blk)(void), uint64_t *vin);
static uint64_t scratch[SCRATCH_QWORDS] __attribute__((aligned(64)));
static uint64_t regs[34] __attribute__((aligned(16)));
static uint64_t vin[64] __attribute__((aligned(16)));
static uint64_t rec[1 + 34 + 64 + SCRATCH_QWORDS];
/* FP operands that random bits rarely are: zeros, infinities, quiet and signalling NaNs with
 * payloads, subnormals, the normal extremes, rounding ties, integer-conversion limits. */
static const uint64_t fp64[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff8000000000123ull, 0xfff4000000000456ull, 0x7ff0000000000001ull,
    0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, 0x4330000000000001ull,
    0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41e0000000000000ull, 0xc1e0000000200000ull,
    0x43f0000000000000ull, 0x41dfffffffc00000ull, 0x3ff0000000000001ull, 0x4340000000000001ull};
static const uint32_t fp32[] = {
    0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fc01234u, 0xffa00001u, 0x7f800001u,
    0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u, 0xbf800000u, 0x3f000000u,
    0x4b000001u, 0x5f000000u, 0xdf000000u, 0x4f000000u, 0xcf000000u, 0x3f800001u, 0x4b800001u};

static uint64_t mix(uint64_t *z)
{
    *z += 0x9e3779b97f4a7c15ull;
    uint64_t x = *z;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int main(void)
{
    const char *si = getenv("GARM_INSTANCE"), *sn = getenv("GARM_INSTANCES");
    uint64_t i = si ? (uint64_t)atol(si) : 0, n = sn ? (uint64_t)atol(sn) : 1;
    uint64_t lo = fuzz_nblocks * i / n, hi = fuzz_nblocks * (i + 1) / n;
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t z = fuzz_state[k][33];
        for (int q = 0; q < SCRATCH_QWORDS; q++)
            scratch[q] = mix(&z);
        /* V0-V31: random, with some bytes and lanes zeroed or saturated so compares and
         * reductions see equal, zero and extreme elements. */
        for (int q = 0; q < 64; q++) {
            uint64_t x = mix(&z), m = mix(&z);
            if ((m & 7) == 0)
                x &= mix(&z);
            if ((m & 7) == 1)
                x |= mix(&z) & 0xff00ff00ff00ff00ull;
            if ((m & 15) == 2)
                x = 0;
            if ((m & 7) == 3)
                x = fp64[(m >> 8) % (sizeof fp64 / sizeof fp64[0])];
            if ((m & 7) == 4)
                x = (x & ~0xffffffffull) | fp32[(m >> 8) % (sizeof fp32 / sizeof fp32[0])];
            if ((m & 63) == 5)
                x = fp64[(m >> 8) % (sizeof fp64 / sizeof fp64[0])] ^ (mix(&z) & 3);
            vin[q] = x;
        }
        for (int r = 0; r < 33; r++)
            regs[r] = fuzz_state[k][r];
        /* FPCR: half the blocks in the default mode, the rest with a random RMode, FZ, DN and
         * AHP (binary16's alternative format). */
        {
            uint64_t m = mix(&z);
            regs[33] = (m & 1) ? (m & 0x7c00000ull) : 0;
        }
        regs[27] = (uint64_t)&scratch[SCRATCH_QWORDS / 2];
        rec[0] = k;
        fuzz_run(regs, &rec[1], fuzz_blocks[k], vin);
        for (int q = 0; q < SCRATCH_QWORDS; q++)
            rec[35 + 64 + q] = scratch[q];
        write(1, rec, sizeof rec);
    }
    return 0;
}
"#;

/// Bytes each block writes: block index, x0-x30, sp, NZCV, FPSR | FPCR << 32, V0-V31, the
/// scratch area.
pub const RECORD: usize = 8 * (1 + 34) + V_BYTES + SCRATCH as usize;
/// V0-V31 in a record.
const V_BYTES: usize = 32 * 16;

/// fuzz_run(regs, dump, block): saves the C context, loads the block's state, jumps; the block
/// ends at fuzz_exit, which dumps the state and returns to C.
const RUNNER_S: &str = r#"
    .text
    .p2align 2
    .globl fuzz_run
fuzz_run:
    // ld1 {v0.16b-v3.16b}, [x3], #64 ... {v28.16b-v31.16b}: V0-V31 from vin (as words: the
    // driver is built without FP/SIMD).
    .inst 0x4cdf2060, 0x4cdf2064, 0x4cdf2068, 0x4cdf206c
    .inst 0x4cdf2070, 0x4cdf2074, 0x4cdf2078, 0x4cdf207c
    adrp x9, fuzz_save
    add x9, x9, :lo12:fuzz_save
    stp x19, x20, [x9, #0]
    stp x21, x22, [x9, #16]
    stp x23, x24, [x9, #32]
    stp x25, x26, [x9, #48]
    stp x27, x28, [x9, #64]
    stp x29, x30, [x9, #80]
    mov x10, sp
    stp x10, x1, [x9, #96]
    ldr x3, [x0, #248]
    msr nzcv, x3
    ldr x3, [x0, #256]
    msr tpidr_el0, x3
    ldr x3, [x0, #264]
    msr fpcr, x3
    msr fpsr, xzr
    mov x16, x2
    mov sp, x0
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x18, x19, [sp, #144]
    ldr x17, [sp, #136]
    ldp x20, x21, [sp, #160]
    ldp x22, x23, [sp, #176]
    ldp x24, x25, [sp, #192]
    ldp x26, x27, [sp, #208]
    ldp x28, x29, [sp, #224]
    ldr x30, [sp, #240]
    ldp x0, x1, [sp]
    br x16

fuzz_exit:
    msr tpidr_el0, x0
    adrp x0, fuzz_save
    add x0, x0, :lo12:fuzz_save
    ldr x0, [x0, #104]
    stp x1, x2, [x0, #8]
    stp x3, x4, [x0, #24]
    stp x5, x6, [x0, #40]
    stp x7, x8, [x0, #56]
    stp x9, x10, [x0, #72]
    stp x11, x12, [x0, #88]
    stp x13, x14, [x0, #104]
    stp x15, x16, [x0, #120]
    stp x17, x18, [x0, #136]
    stp x19, x20, [x0, #152]
    stp x21, x22, [x0, #168]
    stp x23, x24, [x0, #184]
    stp x25, x26, [x0, #200]
    stp x27, x28, [x0, #216]
    stp x29, x30, [x0, #232]
    mrs x1, tpidr_el0
    str x1, [x0]
    mov x1, sp
    str x1, [x0, #248]
    mrs x1, nzcv
    str x1, [x0, #256]
    mrs x1, fpsr
    mrs x2, fpcr
    orr x1, x1, x2, lsl #32
    str x1, [x0, #264]
    // st1 {v0.16b-v3.16b}, [x1], #64 ... : V0-V31 after the general registers.
    add x1, x0, #272
    .inst 0x4c9f2020, 0x4c9f2024, 0x4c9f2028, 0x4c9f202c
    .inst 0x4c9f2030, 0x4c9f2034, 0x4c9f2038, 0x4c9f203c
    adrp x9, fuzz_save
    add x9, x9, :lo12:fuzz_save
    ldp x19, x20, [x9, #0]
    ldp x21, x22, [x9, #16]
    ldp x23, x24, [x9, #32]
    ldp x25, x26, [x9, #48]
    ldp x27, x28, [x9, #64]
    ldp x29, x30, [x9, #80]
    ldr x10, [x9, #96]
    mov sp, x10
    ret

    .bss
    .p2align 4
fuzz_save:
    .zero 128
"#;

/// The assembly for `blocks` (each: its words and state).
fn blocks_asm(blocks: &[(Vec<u32>, [u64; 34])]) -> String {
    let mut s = String::from(RUNNER_S);
    s.push_str("    .text\n");
    for (k, (words, _)) in blocks.iter().enumerate() {
        // Prologue: x16's value (fuzz_run jumped through x16), SP at the scratch middle, no
        // exclusive monitor left over from the driver.
        let _ = writeln!(
            s,
            "    .p2align 2\nfuzz_b{k}:\n    ldr x16, [sp, #128]\n    mov sp, x27\n    clrex"
        );
        for w in words {
            let _ = writeln!(s, "    .inst {w:#010x}");
        }
        s.push_str("    b fuzz_exit\n");
    }
    s.push_str("    .section .rodata\n    .p2align 4\n    .globl fuzz_state\nfuzz_state:\n");
    for (_, st) in blocks {
        let q: Vec<String> = st.iter().map(|v| format!("{v:#x}")).collect();
        let _ = writeln!(s, "    .quad {}", q.join(","));
    }
    s.push_str("    .globl fuzz_nblocks\nfuzz_nblocks:\n");
    let _ = writeln!(s, "    .quad {}", blocks.len());
    s.push_str("    .globl fuzz_blocks\nfuzz_blocks:\n");
    for k in 0..blocks.len() {
        let _ = writeln!(s, "    .quad fuzz_b{k}");
    }
    s
}

/// Builds an ELF of `blocks` in `dir` and returns its path.
fn build_elf(dir: &Path, name: &str, blocks: &[(Vec<u32>, [u64; 34])]) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    // The sources live at a path named by their content: the compile cache keys on the path
    // too, so a rerun of the same seed (the bounded fuzz in every test run) compiles nothing.
    let asm = blocks_asm(blocks);
    let key = crate::toolchain::cache::sha(format!("{DRIVER_C}\0{asm}").as_bytes());
    let src = crate::toolchain::cache_dir()
        .join("fuzz-src")
        .join(&key[..24]);
    std::fs::create_dir_all(&src).map_err(Error::io(&src))?;
    let c = src.join("fuzz_driver.c");
    let s = src.join(format!("{name}.S"));
    for (path, text) in [(&c, DRIVER_C), (&s, asm.as_str())] {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
            // Written whole and renamed into place, so a concurrent run never sees half a file.
            let tmp = src.join(format!(
                ".tmp-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::write(&tmp, text).map_err(Error::io(&tmp))?;
            std::fs::rename(&tmp, path).map_err(Error::io(path))?;
        }
    }
    let elf = dir.join(format!("{name}.elf"));
    Toolchain::find()?.build(&[c, s], &elf, &[])?;
    Ok(elf)
}

/// stdout of the ELF on garm, instance outputs concatenated in index order, how the instances
/// ended when one did not exit cleanly, and the instructions run in translated code.
fn run_garm(
    elf: &[u8],
    instances: u32,
    cfg: &FuzzConfig,
    blocks: &[(Vec<u32>, [u64; 34])],
) -> Result<(Vec<u8>, String, u64), Error> {
    let opts = RunOptions {
        instances,
        adapter: cfg.adapter.clone(),
        max_insns: Some(1 << 32),
        tier_ranges: if cfg.translate {
            block_ranges(elf, blocks)?
        } else {
            Vec::new()
        },
        ..RunOptions::default()
    };
    let rep = run::run(elf, &["fuzz".to_string()], &opts, false)?;
    let mut out = Vec::new();
    let mut status = String::new();
    for (i, o) in rep.outcomes.iter().enumerate() {
        out.extend(rep.output.bytes(i, 1));
        if o.exit_status() != 0 && status.is_empty() {
            status = format!("garm instance {i}: {o:?}");
        }
    }
    Ok((out, status, rep.stats.tier_insns))
}

/// The address ranges of the generated blocks in the ELF (`fuzz_b{k}`: the prologue, the
/// block's words and its branch to the exit), for the translation tier.
fn block_ranges(elf: &[u8], blocks: &[(Vec<u32>, [u64; 34])]) -> Result<Vec<(u64, u64)>, Error> {
    use object::{Object, ObjectSymbol};
    let f = object::File::parse(elf).map_err(|e| Error::Usage(format!("fuzz ELF: {e}")))?;
    let mut v = Vec::new();
    for (k, (words, _)) in blocks.iter().enumerate() {
        let name = format!("fuzz_b{k}");
        let sym = f
            .symbols()
            .find(|s| s.name() == Ok(name.as_str()))
            .ok_or_else(|| Error::Usage(format!("fuzz ELF: no symbol {name}")))?;
        v.push((sym.address(), sym.address() + 4 * (words.len() as u64 + 4)));
    }
    Ok(v)
}

/// The qemu core garm is compared with: an Armv8.2 core with LDAPR whose implementation-defined
/// registers match garm's (CTR_EL0, DCZID_EL0: 64-byte DC ZVA blocks). qemu's default `max` core
/// zeroes 512-byte blocks and implements pointer authentication in the HINT space.
pub const QEMU_CPU: &str = "cortex-a76";

fn run_qemu(elf: &Path) -> Result<(Vec<u8>, String), Error> {
    let o = Command::new("qemu-aarch64")
        .env_clear()
        .args(["-cpu", QEMU_CPU])
        .arg(elf)
        .output()
        .map_err(|_| Error::NoQemu)?;
    let status = if o.status.success() {
        String::new()
    } else {
        format!(
            "qemu-aarch64: {}: {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        )
    };
    Ok((o.stdout, status))
}

fn q(rec: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(rec[8 * i..8 * i + 8].try_into().unwrap())
}

fn reg_name(i: usize) -> String {
    match i {
        31 => "sp".into(),
        32 => "nzcv".into(),
        33 => "fpsr|fpcr<<32".into(),
        _ => format!("x{i}"),
    }
}

/// Lists the registers of two records (without the block index) side by side, marking differences.
fn state_diff(label_a: &str, a: &[u8], label_b: &str, b: &[u8]) -> String {
    let mut s = String::new();
    for i in 0..34 {
        let (x, y) = (q(a, i), q(b, i));
        let mark = if x != y { "  <-- differs" } else { "" };
        if x != y || i >= 31 {
            let _ = writeln!(
                s,
                "    {:>5}: {label_a} {x:#018x}  {label_b} {y:#018x}{mark}",
                reg_name(i)
            );
        }
    }
    for v in 0..32 {
        let o = 34 * 8 + 16 * v;
        let x = u128::from_le_bytes(a[o..o + 16].try_into().unwrap());
        let y = u128::from_le_bytes(b[o..o + 16].try_into().unwrap());
        if x != y {
            let _ = writeln!(
                s,
                "    {:>5}: {label_a} {x:#034x}  {label_b} {y:#034x}  <-- differs",
                format!("v{v}")
            );
        }
    }
    let (sa, sb) = (&a[34 * 8 + V_BYTES..], &b[34 * 8 + V_BYTES..]);
    for (i, (x, y)) in sa.iter().zip(sb).enumerate() {
        if x != y {
            let _ = writeln!(
                s,
                "    scratch+{i:#x} (x27{:+}): {label_a} {x:#04x}  {label_b} {y:#04x}  <-- first differing byte",
                i as i64 - (SCRATCH / 2) as i64
            );
            break;
        }
    }
    s
}

/// Runs one seed: generate, build, run on garm and qemu, compare; on a difference, locate the
/// first divergent instruction. `only` restricts the ELF to one block (the reproduce command).
pub fn fuzz_seed(cfg: &FuzzConfig, seed: u64, only: Option<u64>) -> Result<SeedResult, Error> {
    let tmp;
    let dir = match &cfg.keep {
        Some(d) => d.clone(),
        None => {
            tmp = TempDir::new(seed)?;
            tmp.0.clone()
        }
    };
    let total = cfg.instances as u64 * cfg.blocks_per_instance as u64;
    let ks: Vec<u64> = match only {
        Some(k) => vec![k],
        None => (0..total).collect(),
    };
    let mut res = SeedResult::default();
    let mut blocks = Vec::new();
    let mut gens = Vec::new();
    for &k in &ks {
        let b = gen_block(seed, k, cfg.block_len, cfg.tier2);
        res.instructions += b.count(&mut res.classes);
        blocks.push((b.words(usize::MAX), b.state));
        gens.push(b);
    }
    res.blocks = ks.len() as u64;
    let elf = build_elf(&dir, &format!("fuzz-{seed}"), &blocks)?;
    let bytes = std::fs::read(&elf).map_err(Error::io(&elf))?;
    let instances = cfg.instances.min(ks.len() as u32).max(1);
    let (g, gs, translated) = run_garm(&bytes, instances, cfg, &blocks)?;
    res.translated = translated;
    let (qm, qs) = run_qemu(&elf)?;
    if let (Some(k), Some(_)) = (only, &cfg.keep) {
        let name = format!("fuzz-{seed}-block{k}-only");
        res.traces = Some(keep_traces(cfg, &dir, &name, &gens[0])?);
    }
    if g == qm && gs.is_empty() && qs.is_empty() {
        return Ok(res);
    }
    // First differing record (a run that stopped early has no record there).
    let rec = |v: &[u8], i: usize| v.get(i * RECORD..(i + 1) * RECORD).map(|s| s.to_vec());
    let Some(i) = (0..ks.len()).find(|&i| rec(&g, i) != rec(&qm, i)) else {
        res.divergence = Some(format!(
            "seed {seed}: same output but the runs ended differently\n  {gs}\n  {qs}"
        ));
        return Ok(res);
    };
    let k = ks[i];
    let mut report = locate(cfg, seed, k, &gens[i], &dir)?;
    // The block's state at its end in the whole run: where the block alone does not diverge
    // (locate then names its last instruction and shows equal states), this is the evidence.
    if let (Some(a), Some(b)) = (rec(&g, i), rec(&qm, i)) {
        let _ = writeln!(
            report,
            "  at the block's end in the run of all blocks (garm vs qemu):"
        );
        report.push_str(&state_diff("garm", &a[8..], "qemu", &b[8..]));
    }
    res.divergence = Some(report);
    Ok(res)
}

/// Runs every prefix of block `k` on both engines and reports the first instruction after which
/// the states differ.
fn locate(cfg: &FuzzConfig, seed: u64, k: u64, b: &Block, dir: &Path) -> Result<String, Error> {
    let n = b.units();
    let prefixes: Vec<(Vec<u32>, [u64; 34])> = (0..=n).map(|j| (b.words(j), b.state)).collect();
    let elf = build_elf(dir, &format!("fuzz-{seed}-block{k}"), &prefixes)?;
    let bytes = std::fs::read(&elf).map_err(Error::io(&elf))?;
    let (g, gs, _) = run_garm(
        &bytes,
        (n as u32 + 1).min(cfg.instances.max(1)),
        cfg,
        &prefixes,
    )?;
    let (qm, qs) = run_qemu(&elf)?;
    let rec = |v: &[u8], j: usize| v.get(j * RECORD + 8..(j + 1) * RECORD).map(|s| s.to_vec());
    let j = (1..=n).find(|&j| rec(&g, j) != rec(&qm, j)).unwrap_or(n);
    let words = b.words(n);
    let start = b.words(j - 1).len();
    let end = b.words(j).len();
    let dis = disassemble(&words);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "DIVERGENCE: seed {seed}, block {k}, instruction {} of the block",
        start
    );
    for (wi, w) in words.iter().enumerate().take(end).skip(start) {
        let _ = writeln!(
            s,
            "  {:#010x}  {:<40} table row: {}",
            w,
            dis[wi],
            isa::describe(*w)
        );
    }
    let _ = writeln!(s, "  block (=> marks the divergent unit):");
    for (wi, w) in words.iter().enumerate() {
        let mark = if (start..end).contains(&wi) {
            "=>"
        } else {
            "  "
        };
        let _ = writeln!(s, "   {mark} {wi:3}: {w:#010x}  {}", dis[wi]);
    }
    match (rec(&g, j - 1), rec(&qm, j - 1), rec(&g, j), rec(&qm, j)) {
        (Some(gb), Some(qb), Some(ga), Some(qa)) => {
            let _ = writeln!(s, "  state before (garm vs qemu):");
            s.push_str(&state_diff("garm", &gb, "qemu", &qb));
            let _ = writeln!(s, "  state after (garm vs qemu):");
            s.push_str(&state_diff("garm", &ga, "qemu", &qa));
        }
        _ => {
            let _ = writeln!(
                s,
                "  a run stopped early (garm {} bytes, qemu {} bytes of output)\n  {gs}\n  {qs}",
                g.len(),
                qm.len()
            );
        }
    }
    if cfg.keep.is_some() {
        let (g, q) = keep_traces(cfg, dir, &format!("fuzz-{seed}-block{k}-only"), b)?;
        let _ = writeln!(
            s,
            "  traces of the block, side by side: {} (garm --trace) and {} (qemu -d exec,cpu)",
            g.display(),
            q.display()
        );
    }
    let _ = writeln!(
        s,
        "  reproduce: garm fuzz --seed {seed} --block {k} --len {}{} --keep /tmp/garm-fuzz",
        cfg.block_len,
        if cfg.tier2 { " --tier2" } else { "" }
    );
    Ok(s)
}

/// `--keep`: the whole block alone, traced by garm (`--trace`'s format: pid, pc, word,
/// disassembly, table row, registers changed) and by qemu (`-d exec,cpu`, one instruction per
/// block), so a divergence reads side by side. Returns the two files.
fn keep_traces(
    cfg: &FuzzConfig,
    dir: &Path,
    name: &str,
    b: &Block,
) -> Result<(PathBuf, PathBuf), Error> {
    let elf = build_elf(dir, name, &[(b.words(b.units()), b.state)])?;
    let bytes = std::fs::read(&elf).map_err(Error::io(&elf))?;
    let gt = dir.join(format!("{name}.garm.trace"));
    let qt = dir.join(format!("{name}.qemu.log"));
    let opts = RunOptions {
        adapter: cfg.adapter.clone(),
        max_insns: Some(1 << 20),
        trace: Some(gt.clone()),
        trace_limit: 1 << 20,
        // qemu runs with an empty environment: so does this, so the two runs line up.
        env: Vec::new(),
        ..RunOptions::default()
    };
    run::run(&bytes, &["fuzz".to_string()], &opts, false)?;
    // qemu 8+ calls it -one-insn-per-tb, 7.x -singlestep.
    let traced = ["-one-insn-per-tb", "-singlestep"].iter().any(|flag| {
        Command::new("qemu-aarch64")
            .env_clear()
            .args(["-cpu", QEMU_CPU, flag, "-d", "exec,cpu,nochain", "-D"])
            .arg(&qt)
            .arg(&elf)
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !traced {
        return Err(Error::EngineFailed {
            engine: "qemu-aarch64",
            program: elf.display().to_string(),
            detail: "could not write its -d exec,cpu log".into(),
        });
    }
    Ok((gt, qt))
}

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(seed: u64) -> Result<TempDir, Error> {
        let d = std::env::temp_dir().join(format!(
            "garm-fuzz-{}-{seed}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&d).map_err(Error::io(&d))?;
        Ok(TempDir(d))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `garm fuzz`: runs seeds `first..first+count`, prints one line per seed, and the report of the
/// first divergence (exit status 1), or a summary (0).
pub fn fuzz_cli(cfg: &FuzzConfig, first: u64, count: u64, only: Option<u64>) -> Result<i32, Error> {
    let t0 = std::time::Instant::now();
    let mut total = SeedResult::default();
    for seed in first..first + count {
        let r = fuzz_seed(cfg, seed, only)?;
        total.instructions += r.instructions;
        total.blocks += r.blocks;
        for (c, n) in &r.classes {
            *total.classes.entry(c).or_default() += n;
        }
        let tiered = if cfg.translate {
            format!(", {} steps translated", r.translated)
        } else {
            String::new()
        };
        crate::out_ln!(
            "seed {seed}: {} blocks, {} instructions{tiered}: {} ({:.1} s total)",
            r.blocks,
            r.instructions,
            if r.divergence.is_some() {
                "DIVERGES"
            } else {
                "same as qemu"
            },
            t0.elapsed().as_secs_f64()
        );
        if let Some((g, q)) = &r.traces {
            crate::out_ln!(
                "traces of the block: {} (garm --trace) and {} (qemu -d exec,cpu)",
                g.display(),
                q.display()
            );
        }
        if let Some(d) = r.divergence {
            crate::out_ln!("{d}");
            return Ok(1);
        }
    }
    crate::out_ln!(
        "garm fuzz: seeds {first}..{}: {} blocks, {} instructions, no divergence from qemu-aarch64",
        first + count - 1,
        total.blocks,
        total.instructions
    );
    let classes: Vec<String> = total
        .classes
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    crate::out_ln!("classes: {}", classes.join(", "));
    Ok(0)
}
