//! In-tree fuzzing of the host code that takes guest-controlled input: the ELF loader, the A64
//! decoder and the syscall handlers (on the in-memory [`MemGuest`], no GPU). Seeded and
//! deterministic with no extra crates (cargo-fuzz needs a nightly toolchain): a bounded run is a
//! unit test, `garm hostfuzz` runs long. Each target checks invariants, not earlier output.

use crate::guest::{Guest, MemError, MemGuest};
use crate::isa::{self, form, table};
use crate::loader::{self, process, Image};
use crate::os::abi::*;
use crate::os::errno::Errno;
use crate::os::kernel::{self, signal, Kernel, Kind, PState, Pid, Sys, MAX_FDS, MAX_FILE};
use crate::os::vfs::Node;
use crate::os::{nr, strace, syscalls, Output, Stdin};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// splitmix64: small, fast, and every seed gives a full-period stream.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6a09_e667_f3bc_c909)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

/// The stream of one execution (or one syscall world): reproducible from (seed, index) alone.
fn case_rng(seed: u64, i: u64) -> Rng {
    let mut r = Rng::new(seed ^ i.wrapping_mul(0xd134_2543_de82_ef95));
    r.next_u64();
    r
}

/// What a run did: executions, distinct outcomes with counts, invariant violations and panics.
#[derive(Debug, Default)]
pub struct Report {
    pub target: &'static str,
    pub seed: u64,
    pub executions: u64,
    pub outcomes: BTreeMap<String, u64>,
    pub findings: Vec<String>,
    /// The slowest single execution (a hang shows up here, or never returns).
    pub slowest: Duration,
    pub slowest_case: String,
    pub elapsed: Duration,
}

impl Report {
    fn new(target: &'static str, seed: u64) -> Report {
        Report {
            target,
            seed,
            ..Default::default()
        }
    }

    fn note(&mut self, outcome: impl Into<String>) {
        *self.outcomes.entry(outcome.into()).or_default() += 1;
    }

    fn find(&mut self, what: String) {
        if self.findings.len() < 40 && !self.findings.contains(&what) {
            self.findings.push(what);
        }
    }

    /// Runs one execution, turning a panic into a finding and keeping the slowest time.
    fn guarded(&mut self, case: impl Fn() -> String, f: impl FnOnce(&mut Report)) {
        let t = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| f(self)));
        let dt = t.elapsed();
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            self.find(format!("panic: {msg} ({})", case()));
        }
        if dt > self.slowest {
            self.slowest = dt;
            self.slowest_case = case();
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "hostfuzz {}: seed {}, {} executions in {:.1} s ({:.0}/s), {} distinct outcomes, {} findings",
            self.target,
            self.seed,
            self.executions,
            secs,
            self.executions as f64 / secs.max(1e-9),
            self.outcomes.len(),
            self.findings.len()
        )?;
        writeln!(
            f,
            "  slowest execution {:.3} ms: {}",
            self.slowest.as_secs_f64() * 1e3,
            self.slowest_case
        )?;
        let mut top: Vec<(&String, &u64)> = self.outcomes.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let shown = if f.alternate() { top.len() } else { 25 };
        for (o, n) in top.iter().take(shown) {
            writeln!(f, "  {n:>10}  {o}")?;
        }
        if top.len() > shown {
            writeln!(f, "  ... and {} more outcomes", top.len() - shown)?;
        }
        for x in &self.findings {
            writeln!(f, "  FINDING: {x}")?;
        }
        Ok(())
    }
}

/// An outcome label without its numbers, so errors of one kind count together.
fn shape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && !prev.is_ascii_alphanumeric() {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_hexdigit() || *d == 'x')
            {
                chars.next();
            }
            out.push('#');
            prev = '#';
        } else {
            out.push(c);
            prev = c;
        }
    }
    out.chars().take(90).collect()
}

// ------------------------------------------------------------------------------- ELF corpus

use crate::loader::build::{build_elf, Ph};

/// A minimal static AArch64 ELF: `mov x0, #0; mov x8, #93; svc #0` at 0x10078, one R+X segment
/// at 0x10000 holding headers and code.
pub fn tiny_elf() -> Vec<u8> {
    let total = 0x78 + 12u64;
    let mut e = build_elf(2, 0x10078, &[(1, 5, 0, 0x10000, total, total)], 0x78, &[]);
    for w in [0xd280_0000u32, 0xd280_0ba8, 0xd400_0001] {
        e.extend_from_slice(&w.to_le_bytes());
    }
    e
}

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;
const PT_NOTE: u32 = 4;
const PT_PHDR: u32 = 6;
const PT_TLS: u32 = 7;
const PT_GNU_STACK: u32 = 0x6474_e551;

/// The two-segment ELF of the loader's tests: R+X headers page and an R+W bss page at `base`.
fn two_seg_elf(ty: u16, base: u64, interp: bool) -> Vec<u8> {
    let mut phs = vec![
        (PT_LOAD, 5, 0, base, 4096, 4096),
        (PT_LOAD, 6, 4096, base + 4096, 0, 4096),
    ];
    if interp {
        phs.push((PT_INTERP, 4, 0x200, base + 0x200, 8, 8));
    }
    build_elf(
        ty,
        base + 0x100,
        &phs,
        4096,
        &[(0x200, b"/lib/ld\0".to_vec())],
    )
}

/// A richer static ELF as a linker lays one out: PT_PHDR, a read-only headers page, text,
/// rodata, data+bss, PT_DYNAMIC and PT_TLS inside the data, PT_NOTE, PT_GNU_STACK; a static PIE
/// (ET_DYN linked at 0) when `pie`, with a PT_INTERP (refused) when `interp`.
fn rich_elf(pie: bool, interp: bool) -> Vec<u8> {
    let base = if pie { 0 } else { 0x10000 };
    let mut phs: Vec<Ph> = vec![(PT_PHDR, 4, 64, base + 64, 9 * 56, 9 * 56)];
    if interp {
        phs.push((PT_INTERP, 4, 0x2000, base + 0x2000, 8, 8));
    }
    phs.extend([
        (PT_LOAD, 4, 0, base, 0x1000, 0x1000),
        (PT_LOAD, 5, 0x1000, base + 0x1000, 0x800, 0x800),
        (PT_LOAD, 4, 0x2000, base + 0x2000, 0x100, 0x100),
        (PT_LOAD, 6, 0x3000, base + 0x3000, 0x80, 0x2000),
        (PT_DYNAMIC, 6, 0x3000, base + 0x3000, 0x40, 0x40),
        (PT_TLS, 4, 0x3040, base + 0x3040, 0x10, 0x40),
        (PT_NOTE, 4, 0x2010, base + 0x2010, 0x20, 0x20),
    ]);
    if !interp {
        phs.push((PT_GNU_STACK, 6, 0, 0, 0, 0));
    }
    // Code: the tiny program, then NOPs.
    let mut code = Vec::new();
    for w in [0xd280_0000u32, 0xd280_0ba8, 0xd400_0001] {
        code.extend_from_slice(&w.to_le_bytes());
    }
    while code.len() < 0x800 {
        code.extend_from_slice(&0xd503_201fu32.to_le_bytes());
    }
    // _DYNAMIC: DT_NULL-terminated (DT_RELA, DT_RELASZ, DT_NULL).
    let mut dynamic = Vec::new();
    for v in [7u64, base + 0x2080, 8, 0, 0, 0] {
        dynamic.extend_from_slice(&v.to_le_bytes());
    }
    build_elf(
        if pie { 3 } else { 2 },
        base + 0x1000,
        &phs,
        0x3080,
        &[
            (0x1000, code),
            (0x2000, b"/lib/ld\0".to_vec()),
            (0x3000, dynamic),
        ],
    )
}

/// The loader's seed corpus: (name, bytes).
pub fn elf_corpus() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("tiny", tiny_elf()),
        ("exec2", two_seg_elf(2, 0x10000, false)),
        ("pie2", two_seg_elf(3, 0, false)),
        ("pie2-interp", two_seg_elf(3, 0, true)),
        ("rich-exec", rich_elf(false, false)),
        ("rich-pie", rich_elf(true, false)),
        ("rich-interp", rich_elf(false, true)),
    ]
}

// ------------------------------------------------------------------------------- ELF loader

/// ELF header fields (offset, width).
const EHDR_FIELDS: &[(usize, usize)] = &[
    (4, 1),
    (5, 1),
    (6, 1),
    (7, 1),
    (16, 2),
    (18, 2),
    (20, 4),
    (24, 8),
    (32, 8),
    (40, 8),
    (48, 4),
    (52, 2),
    (54, 2),
    (56, 2),
    (58, 2),
    (60, 2),
    (62, 2),
];
/// Program header fields (offset in the entry, width).
const PHDR_FIELDS: &[(usize, usize)] = &[
    (0, 4),
    (4, 4),
    (8, 8),
    (16, 8),
    (24, 8),
    (32, 8),
    (40, 8),
    (48, 8),
];

/// Values at the edges of a `width`-byte field, and ones that matter to the loader.
fn interesting(r: &mut Rng, width: usize, mem: u64) -> u64 {
    let max = if width == 8 {
        u64::MAX
    } else {
        (1u64 << (width * 8)) - 1
    };
    let v = match r.below(14) {
        0 => 0,
        1 => 1,
        2 => max,
        3 => max - 1,
        4 => max >> 1,
        5 => (max >> 1) + 1,
        6 => r.pick(&[0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff]),
        7 => r.pick(&[0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 1 << 32, 1 << 63]),
        8 => r.pick(&[0xfff, 0x1000, 0x1001, 0xffff, 0x1_0000, 0x1_0001, 0x2_0000]),
        9 => mem.wrapping_add(r.below(0x2001)).wrapping_sub(0x1000),
        10 => r.pick(&[40, 56, 57, 64, 0x78, 0x1c8, 0xffff]),
        11 => 0u64.wrapping_sub(r.below(0x2000)),
        12 => r.below(16),
        _ => r.next_u64(),
    };
    v & max
}

fn put_field(e: &mut [u8], at: usize, width: usize, v: u64) {
    for k in 0..width {
        if let Some(b) = e.get_mut(at + k) {
            *b = (v >> (8 * k)) as u8;
        }
    }
}

fn get_field(e: &[u8], at: usize, width: usize) -> u64 {
    (0..width).fold(0, |v, k| {
        v | (*e.get(at + k).unwrap_or(&0) as u64) << (8 * k)
    })
}

/// One random change to an ELF image.
fn mutate_elf(r: &mut Rng, e: &mut Vec<u8>, corpus: &[(&str, Vec<u8>)], mem: u64) {
    let phoff = (get_field(e, 32, 8) as usize).min(e.len());
    let phnum = get_field(e, 56, 2).min(16) as usize;
    let ph_field = |r: &mut Rng| {
        let (o, w) = r.pick(PHDR_FIELDS);
        (
            phoff + 56 * r.below(phnum.max(1) as u64 + 1) as usize + o,
            w,
        )
    };
    match r.below(10) {
        0 => {
            // A bit flip, mostly in the headers.
            if e.is_empty() {
                return;
            }
            let at = if r.one_in(4) {
                r.below(e.len() as u64)
            } else {
                r.below(e.len().min(0x240) as u64)
            } as usize;
            e[at] ^= 1 << r.below(8);
        }
        1 => {
            if e.is_empty() {
                return;
            }
            let at = r.below(e.len().min(0x240) as u64) as usize;
            e[at] = r.pick(&[0, 0xff, 0x7f, 0x80, 1, 2, 3, 6, 7]);
        }
        2 => {
            let (at, w) = r.pick(EHDR_FIELDS);
            let v = interesting(r, w, mem);
            put_field(e, at, w, v);
        }
        3 | 4 => {
            let (at, w) = ph_field(r);
            let v = interesting(r, w, mem);
            put_field(e, at, w, v);
        }
        5 => {
            // Truncation, often at a header or program header boundary.
            let n = if r.one_in(2) {
                r.pick(&[0, 3, 4, 16, 52, 63, 64, 65, 0x78, 64 + 56 * phnum])
            } else {
                r.below(e.len() as u64 + 1) as usize
            };
            e.truncate(n.min(e.len()));
        }
        6 => {
            // Extension with zeros or noise.
            let n = r.pick(&[1usize, 7, 56, 4096, 0x2000]);
            let noise = r.one_in(2);
            for _ in 0..n {
                e.push(if noise { r.next_u64() as u8 } else { 0 });
            }
        }
        7 => {
            // Splice: a field's value copied from another field, or another ELF's header bytes.
            if r.one_in(2) {
                let (a, wa) = ph_field(r);
                let (b, _) = ph_field(r);
                let v = get_field(e, b, wa);
                put_field(e, a, wa, v);
            } else {
                let (_, other) = &corpus[r.below(corpus.len() as u64) as usize];
                let start = r.below(0x200) as usize;
                let n = r.below(64) as usize + 1;
                for k in start..start + n {
                    if let (Some(d), Some(&s)) = (e.get_mut(k), other.get(k)) {
                        *d = s;
                    }
                }
            }
        }
        8 => {
            // e_phnum edges (0xffff is PN_XNUM: the count comes from section header 0).
            let v = r.pick(&[0u64, 1, 2, 9, 10, 0xfffe, 0xffff, 1024]);
            put_field(e, 56, 2, v);
        }
        _ => {
            // A segment that ends exactly at, or just past, the end of memory; or overlaps.
            let i = r.below(phnum.max(1) as u64) as usize;
            let p = phoff + 56 * i;
            let va = get_field(e, p + 16, 8);
            let end = mem.wrapping_sub(r.below(2) * 0x1000);
            put_field(e, p + 40, 8, end.wrapping_sub(va).wrapping_add(r.below(3)));
        }
    }
}

/// Random argv/envp strings (ASCII, with a few multi-byte characters and long ones).
fn random_strings(r: &mut Rng, max: u64) -> Vec<String> {
    (0..r.below(max + 1))
        .map(|_| {
            let len = match r.below(8) {
                0 => 0,
                1 => r.below(5000) as usize,
                _ => r.below(24) as usize,
            };
            (0..len)
                .map(|_| {
                    if r.one_in(50) {
                        'é'
                    } else {
                        (b' ' + r.below(95) as u8) as char
                    }
                })
                .collect()
        })
        .collect()
}

/// What must hold of an image `load_elf` accepted.
fn check_image(img: &Image, mem: u64) -> Result<(), String> {
    let mut segs: Vec<_> = img.segments.iter().collect();
    segs.sort_by_key(|s| s.vaddr);
    for s in &segs {
        let end = s.vaddr.checked_add(s.memsz).ok_or("segment wraps")?;
        if s.vaddr < loader::LO_BOUND as u64 || end > loader::process::mmap_top(mem) {
            return Err(format!(
                "segment {:#x}+{:#x} outside the program area",
                s.vaddr, s.memsz
            ));
        }
        if s.data.len() as u64 > s.memsz {
            return Err("segment data longer than memsz".into());
        }
    }
    // Empty segments occupy nothing (Linux maps nothing for them either).
    segs.retain(|s| s.memsz > 0);
    for w in segs.windows(2) {
        if w[0].vaddr + w[0].memsz > w[1].vaddr {
            let v: Vec<_> = segs.iter().map(|s| (s.vaddr, s.memsz)).collect();
            return Err(format!("segments overlap: {v:x?}"));
        }
    }
    if !img.is_exec(img.entry) {
        return Err("entry outside executable segments".into());
    }
    let top = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.memsz)
        .max()
        .unwrap_or(0);
    if img.brk_start < top
        || !img.brk_start.is_multiple_of(loader::PAGE)
        || img.brk_start > top + 4095
    {
        return Err(format!("brk_start {:#x} for top {top:#x}", img.brk_start));
    }
    Ok(())
}

/// What must hold once `load_process` put `img` into `slot`: the segments' bytes, zeroed bss,
/// the registers and the Linux initial stack.
fn check_loaded(
    g: &mut MemGuest,
    slot: usize,
    img: &Image,
    argv: &[String],
    envp: &[String],
) -> Result<(), String> {
    let mem = g.mem_bytes();
    g.spaces()
        .check()
        .map_err(|e| format!("address spaces: {e}"))?;
    let d: &mut dyn Guest = g;
    let err = |e: MemError| e.to_string();
    for s in &img.segments {
        if d.read_mem(slot, s.vaddr, s.data.len()).map_err(err)? != s.data {
            return Err(format!("segment {:#x} bytes differ", s.vaddr));
        }
        let bss = d
            .read_mem(
                slot,
                s.vaddr + s.data.len() as u64,
                (s.memsz - s.data.len() as u64) as usize,
            )
            .map_err(err)?;
        if bss.iter().any(|&b| b != 0) {
            return Err(format!("segment {:#x} bss not zero", s.vaddr));
        }
    }
    if d.pc(slot) != img.entry {
        return Err("pc is not the entry point".into());
    }
    let sp = d.reg(slot, 31);
    if !sp.is_multiple_of(16) || sp < process::stack_bottom(mem) || sp >= process::STACK_TOP {
        return Err(format!("sp {sp:#x} outside the stack reserve or unaligned"));
    }
    let word = |d: &mut dyn Guest, a: u64| -> Result<u64, String> {
        d.read_obj::<u64>(slot, a).map_err(err)
    };
    if word(d, sp)? != argv.len() as u64 {
        return Err("argc differs".into());
    }
    let mut a = sp + 8;
    for list in [argv, envp] {
        for s in list {
            let p = word(d, a)?;
            let got = d.read_mem(slot, p, s.len() + 1).map_err(err)?;
            if got[..s.len()] != *s.as_bytes() || got[s.len()] != 0 {
                return Err(format!("stack string at {p:#x} is not {s:?}"));
            }
            a += 8;
        }
        if word(d, a)? != 0 {
            return Err("argv/envp not NULL-terminated".into());
        }
        a += 8;
    }
    let mut aux = BTreeMap::new();
    loop {
        let (k, v) = (word(d, a)?, word(d, a + 8)?);
        if k == loader::at::NULL {
            break;
        }
        aux.insert(k, v);
        a += 16;
        if aux.len() > 64 {
            return Err("auxv not terminated".into());
        }
    }
    if aux.get(&loader::at::ENTRY) != Some(&img.entry)
        || aux.get(&loader::at::PHDR) != Some(&img.phdr_addr)
        || aux.get(&loader::at::PAGESZ) != Some(&loader::PAGE)
    {
        return Err("auxv AT_ENTRY/AT_PHDR/AT_PAGESZ wrong".into());
    }
    Ok(())
}

/// Mutated ELFs through `load_elf` at several memory sizes; accepted ones through
/// `load_process` (which builds the stack) into a `MemGuest`, with random argv/envp.
pub fn fuzz_loader(seed: u64, iters: u64) -> Report {
    let t0 = Instant::now();
    let mut rep = Report::new("loader", seed);
    let corpus = elf_corpus();
    // Guests are reused across executions (load_process resets the slot); large sizes only
    // go through load_elf, so an execution costs microseconds.
    let mut guests: Vec<MemGuest> = [0x2_0000usize, 0x4_0000, 0x10_0000]
        .iter()
        .map(|&m| MemGuest::new(1, m))
        .collect();
    for i in 0..iters {
        let case = || format!("loader seed {seed} case {i}");
        rep.guarded(case, |rep| {
            let mut r = case_rng(seed, i);
            let (name, base) = &corpus[r.below(corpus.len() as u64) as usize];
            let gi = r.below(5) as usize;
            let mem = match gi {
                0..=2 => guests[gi].mem_bytes(),
                3 => 8 << 20,
                _ => r.pick(&[1u64 << 32, u64::MAX, 0, 0x1_0000]),
            };
            let mut e = base.clone();
            for _ in 0..r.pick(&[0, 1, 1, 1, 2, 2, 3, 4, 8]) {
                mutate_elf(&mut r, &mut e, &corpus, mem);
            }
            let img = match loader::load_elf(&e, mem) {
                Ok(img) => img,
                Err(msg) => {
                    rep.note(format!("refused: {}", shape(&msg.to_string())));
                    return;
                }
            };
            if let Err(x) = check_image(&img, mem) {
                rep.find(format!("{x} ({name}, mem {mem:#x}, case {i})"));
            }
            if gi > 2 {
                rep.note("loaded (load_elf only)");
                return;
            }
            let argv = random_strings(&mut r, 6);
            let envp = random_strings(&mut r, 6);
            let g = &mut guests[gi];
            let fits = process::check_fits(&img, mem, &argv, &envp);
            match process::load_process(g, 0, &img, &argv, &envp) {
                Ok(low) => {
                    if let Err(f) = fits {
                        rep.find(format!("load_process took what check_fits refused: {f}"));
                    }
                    if low != process::mmap_top(mem) {
                        rep.find(format!("mmap top {low:#x} (case {i})"));
                    }
                    match check_loaded(g, 0, &img, &argv, &envp) {
                        Ok(()) => rep.note("loaded and started"),
                        Err(x) => rep.find(format!("{x} ({name}, mem {mem:#x}, case {i})")),
                    }
                }
                Err(process::LoadError::Fit(f)) => {
                    if fits.is_ok() {
                        rep.find(format!(
                            "load_process refused what check_fits took (case {i})"
                        ));
                    }
                    rep.note(format!("does not fit: {}", shape(&f.to_string())));
                }
                Err(process::LoadError::Mem(m)) => {
                    rep.find(format!("load_process memory error {m} ({name}, case {i})"))
                }
            }
        });
        rep.executions += 1;
    }
    rep.elapsed = t0.elapsed();
    rep
}

// ------------------------------------------------------------------------------- decoder

/// What the shader relies on in a decoded form (see `shaders/cpu.wgsl`, `step`): register
/// selectors below 34 (it indexes `R: array<V, 34>` with 6-bit fields), fields within their
/// bits (`build` ORs them unmasked), a known unit, and an immediate that survives the compact
/// encoding.
fn check_form(f: &form::Form) -> Result<(), String> {
    for (n, r) in [
        ("rd", f.rd),
        ("rn", f.rn),
        ("rm", f.rm),
        ("rc", f.rc),
        ("rc2", f.rc2),
    ] {
        if r >= 34 {
            return Err(format!("{n} = {r} (the register file has 34 entries)"));
        }
    }
    if f.unit > form::unit::ATOMIC || f.op > 15 {
        return Err(format!("unit {} op {}", f.unit, f.op));
    }
    if f.cin > 2 || f.ext > 7 || f.sht > 3 || f.bsrc > 2 || f.cond > 15 || f.shamt > 63 {
        return Err(format!(
            "operand fields cin {} ext {} sht {} bsrc {} cond {} shamt {}",
            f.cin, f.ext, f.sht, f.bsrc, f.cond, f.shamt
        ));
    }
    if !f.fits() {
        return Err(format!("immediate {:#x} does not fit 32 bits", f.imm));
    }
    let mode = (f.aux >> form::bfm::MODE_SHIFT) & 3;
    if f.unit == form::unit::BFM && mode != form::bfm::MODE_EXTR {
        let lsb = f.aux & 63;
        let pos = (f.aux >> form::bfm::POS_SHIFT) & 63;
        let width = (f.aux >> form::bfm::WIDTH_SHIFT) & 127;
        let size = if f.w32 { 32 } else { 64 };
        if width == 0 || width > size || lsb >= size || pos >= size || pos + width > size {
            return Err(format!(
                "bitfield lsb {lsb} pos {pos} width {width} on {size} bits"
            ));
        }
    } else if f.unit == form::unit::BFM && (f.aux & 63) >= if f.w32 { 32 } else { 64 } {
        return Err(format!("extract position {} past the register", f.aux & 63));
    }
    Ok(())
}

/// Random words, and words built from each row's fixed bits, through `decode`, `lookup`,
/// `describe` and `decode_page`, at random pcs.
pub fn fuzz_decoder(seed: u64, iters: u64) -> Report {
    let t0 = Instant::now();
    let mut rep = Report::new("decoder", seed);
    let rows = isa::ENCODINGS;
    for e in rows {
        let fb = isa::fixed_bits(e);
        let mask: u32 = fb.chars().fold(0, |m, c| m << 1 | (c != 'x') as u32);
        if mask != e.mask || e.value & !e.mask != 0 {
            rep.find(format!(
                "row {}: fixed bits disagree with mask/value",
                e.name
            ));
        }
    }
    if isa::table_markdown().lines().count() < rows.len() {
        rep.find("table_markdown misses rows".into());
    }
    for i in 0..iters {
        let case = || format!("decoder seed {seed} case {i}");
        rep.guarded(case, |rep| {
            let mut r = case_rng(seed, i);
            let row = &rows[r.below(rows.len() as u64) as usize];
            let w = match r.below(8) {
                0..=2 => r.next_u64() as u32,
                3..=5 => (r.next_u64() as u32 & !row.mask) | row.value,
                // Next to a row: one fixed bit flipped.
                6 => ((r.next_u64() as u32 & !row.mask) | row.value) ^ 1 << r.below(32),
                _ => r.pick(&[0u32, u32::MAX, 0xd400_0001, 0xd503_201f, 1 << 31]),
            };
            let pc = match r.below(4) {
                0 => 0x10000 + (r.below(0x10000) << 2),
                1 => r.next_u64() & !3,
                2 => r.pick(&[0, !3, 1 << 63, (1 << 63) - 4, 0xffff_f000]),
                _ => r.next_u64(),
            };
            let matching: Vec<&table::Encoding> =
                rows.iter().filter(|e| w & e.mask == e.value).collect();
            if matching.len() > 1 {
                rep.find(format!("{w:#010x} matches {} rows", matching.len()));
            }
            let d = isa::decode(w, pc);
            let l = isa::lookup(w, pc);
            match &l {
                Some((e, f)) => {
                    if w & e.mask != e.value {
                        rep.find(format!(
                            "{w:#010x}: lookup gave row {} that does not match",
                            e.name
                        ));
                    }
                    if let Err(x) = check_form(f) {
                        rep.find(format!("{w:#010x} ({}) at pc {pc:#x}: {x}", e.name));
                    } else if f.build(w) != d {
                        rep.find(format!("{w:#010x}: decode differs from lookup's form"));
                    }
                    if d.w[1] >> 30 != 0 {
                        rep.find(format!("{w:#010x}: stray bits in the register word"));
                    }
                    rep.note(e.name);
                }
                None => {
                    if !d.is_trap() || d.w[2] != w || d.op() != form::op::ILLEGAL {
                        rep.find(format!("{w:#010x}: no row but not an illegal trap"));
                    }
                    rep.note("unallocated");
                }
            }
            // Whether a word is allocated never depends on where it sits.
            let pc2 = r.next_u64() & !3;
            if isa::lookup(w, pc2).is_some() != l.is_some() {
                rep.find(format!("{w:#010x}: allocated at one pc, not at {pc2:#x}"));
            }
            let name = isa::describe(w);
            // A row's word is described by its row; any other by a group (not by a row).
            let want = if w >> 16 == 0 {
                Some("UDF")
            } else {
                isa::lookup(w, 0).map(|(e, _)| e.name)
            };
            let agrees = match want {
                Some(n) => name == n,
                None => !isa::ENCODINGS.iter().any(|e| e.name == name),
            };
            if !agrees {
                rep.find(format!("{w:#010x}: describe says {name}, lookup {want:?}"));
            }
            let _ = (d.unit(), d.op(), d.imm(), d.aux());
            if r.one_in(2000) {
                // A whole page, as the loader decodes one (short pages pad with zeros).
                let n = r.below(4097) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| r.next_u64() as u8).collect();
                let page = r.next_u64() & !0xfff;
                let dec = isa::decode_page(&bytes, page);
                for (k, dd) in dec.iter().enumerate() {
                    let b = |j: usize| *bytes.get(4 * k + j).unwrap_or(&0) as u32;
                    let word = if 4 * k + 4 <= n {
                        b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24
                    } else {
                        0
                    };
                    if *dd != isa::decode(word, page + 4 * k as u64) {
                        rep.find(format!("decode_page differs at word {k}"));
                        break;
                    }
                }
            }
        });
        rep.executions += 1;
    }
    rep.elapsed = t0.elapsed();
    rep
}

// ------------------------------------------------------------------------------- syscalls

/// Guest memory of a syscall world: small, so forks and resets stay cheap.
const SMEM: u64 = 0x4_0000;
const SLOTS: usize = 4;
/// Where the harness plants strings and structs (above brk, below the mmap area, which may
/// later map over it: that is part of the test).
const P_STR: u64 = 0x1_4000;
const P_LONG: u64 = 0x1_5000;
const P_TOOLONG: u64 = 0x1_6000;
const P_IOV: u64 = 0x1_8000;
const P_SIGACT: u64 = 0x1_8100;
const P_TS: u64 = 0x1_8200;
const P_ARGV: u64 = 0x1_8300;
const P_BUF: u64 = 0x1_9000;
/// Calls per world before a fresh kernel.
const WORLD_STEPS: u64 = 200;

const PATHS: &[&str] = &[
    "/tmp/x",
    "/dev/null",
    "..",
    ".",
    "/",
    "/tmp",
    "/bin/t",
    "/proc/self/exe",
    "/dev/zero",
    "/dev/urandom",
    "/tmp/d/",
    "x",
    "/tmp/l",
    "",
    "/tmp/x/y",
    "/tmp/../tmp/./x",
    "/tmp/d",
    "/tmp/d/e",
    "/bin/r",
    "/bin/m",
    "/dev/tty",
    "/tmp/loop",
    "d/../x",
    "/proc/self",
    "/nope/x",
    "A=1",
    "///tmp//x//",
];

fn plant(g: &mut dyn Guest, slot: usize) {
    let mut put = |a: u64, b: &[u8]| {
        let _ = g.write_mem(slot, a, b);
    };
    for (i, p) in PATHS.iter().enumerate() {
        let mut b = p.as_bytes().to_vec();
        b.push(0);
        put(P_STR + 64 * i as u64, &b);
    }
    // A 255-byte name and a 256-byte one (the NAME_MAX edge).
    let mut n255 = format!("/tmp/{}", "n".repeat(255)).into_bytes();
    n255.push(0);
    put(P_STR + 0xc00, &n255);
    let mut long = "d/../".repeat(600).into_bytes();
    long.extend_from_slice(b"x\0");
    put(P_LONG, &long);
    put(P_TOOLONG, &[b'a'; 5000]);
    put(P_TOOLONG + 5000, &[0]);
    let iov: [(u64, u64); 5] = [
        (P_BUF, 16),
        (P_BUF + 0x100, 0),
        (P_BUF + 0x200, 256),
        (P_BUF + 0x1000, 4096),
        (8, 16),
    ];
    let b: Vec<u8> = iov
        .iter()
        .flat_map(|&(a, l)| [a.to_le_bytes(), l.to_le_bytes()].concat())
        .collect();
    put(P_IOV, &b);
    // Sigactions: a handler with SA_RESTART, one without, SIG_IGN, SIG_DFL.
    for (k, (h, fl)) in [
        (0x10080u64, SA_RESTART),
        (0x10080, 0),
        (SIG_IGN, 0),
        (SIG_DFL, 0),
    ]
    .iter()
    .enumerate()
    {
        let a: Vec<u8> = [*h, *fl, 0x10084, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        put(P_SIGACT + 32 * k as u64, &a);
    }
    for (k, (s, ns)) in [(0i64, 0i64), (0, 1), (-1, 0), (0, 1_000_000_000), (1, 0)]
        .iter()
        .enumerate()
    {
        put(
            P_TS + 16 * k as u64,
            &[s.to_le_bytes(), ns.to_le_bytes()].concat(),
        );
    }
    // argv ["/bin/t", "x"], envp ["A=1"].
    let s = |i: u64| P_STR + 64 * i;
    let v: Vec<u8> = [s(6), s(11), 0, s(25), 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    put(P_ARGV, &v);
}

/// An in-memory kernel with a root process loaded from the tiny ELF, files to exec and a
/// directory tree to walk. No mounts: nothing reaches host files.
struct World {
    k: Kernel,
    g: MemGuest,
    out: Output,
    /// The call a blocked process retries, by pid.
    pending: BTreeMap<Pid, (u64, [u64; 6])>,
    /// Whether file offsets past 1 MiB reach the kernel (see `tame`).
    big: bool,
}

fn make_world(r: &mut Rng, corpus: &[(&str, Vec<u8>)]) -> World {
    let mut g = MemGuest::new(SLOTS, SMEM as usize);
    let mut k = Kernel::new(SLOTS, 1, false);
    // Standard input is fixed bytes (never the host's); the fork-limit note stays quiet.
    k.stdin = Stdin::fixed(1, b"input line\nmore\n".to_vec());
    k.limit_note = true;
    let img = Rc::new(loader::load_elf(&tiny_elf(), SMEM).expect("tiny ELF loads"));
    let argv = vec!["/bin/t".to_string()];
    let low = process::load_process(&mut g, 0, &img, &argv, &[]).expect("tiny ELF fits");
    k.spawn_root(0, img, "/bin/t", low);
    plant(&mut g, 0);
    let mut m = tiny_elf();
    for _ in 0..r.below(3) {
        mutate_elf(r, &mut m, corpus, SMEM);
    }
    for (name, bytes) in [("t", tiny_elf()), ("r", rich_elf(false, false)), ("m", m)] {
        let bin = k.vfs.child(0, "bin").unwrap();
        let i = k.vfs.create_file(bin, name, 0o755).unwrap();
        k.vfs.inodes[i].node = Node::File(std::rc::Rc::new(bytes));
    }
    let tmp = k.vfs.child(0, "tmp").unwrap();
    let x = k.vfs.create_file(tmp, "x", 0o644).unwrap();
    k.vfs.inodes[x].node = Node::File(std::rc::Rc::new(b"hello".to_vec()));
    let d = k.vfs.add(tmp, "d", Node::Dir(BTreeMap::new()), 0o040755);
    k.vfs.create_file(d, "e", 0o644).unwrap();
    k.vfs.add(tmp, "l", Node::Symlink("x".into()), 0o120777);
    k.vfs
        .add(tmp, "loop", Node::Symlink("loop".into()), 0o120777);
    let mut w = World {
        k,
        g,
        out: Output::new(1, crate::os::OutputMode::Keep),
        pending: BTreeMap::new(),
        big: r.one_in(2000),
    };
    // Open descriptors to start from: a directory (3), a file (4), a pipe (5, 6).
    let s = |i: u64| P_STR + 64 * i;
    for (n, a) in [
        (nr::OPENAT, [AT_FDCWD as u64, s(5), O_DIRECTORY, 0, 0, 0]),
        (nr::OPENAT, [AT_FDCWD as u64, s(0), O_RDWR, 0, 0, 0]),
        (nr::PIPE2, [P_BUF + 0x1f00, 0, 0, 0, 0, 0]),
    ] {
        let r = run_call(&mut w, 1, n, a);
        assert!(matches!(r, Ok(Sys::Ret(v)) if v >= 0), "world setup: {r:?}");
    }
    w
}

/// An argument of the given kind; one in five is any edge value instead.
fn arg(r: &mut Rng, kind: u8, w: &World, pid: Pid) -> u64 {
    let mut pids: Vec<Pid> = w.k.procs.keys().copied().collect();
    pids.push(1);
    let x = r.next_u64();
    if r.one_in(5) {
        return r.pick(&[
            0,
            1,
            u64::MAX,
            u64::MAX - 1,
            i64::MIN as u64,
            i64::MAX as u64,
            1 << 31,
            1 << 32,
            u32::MAX as u64,
            8,
            0xfff8,
            SMEM - 8,
            SMEM,
            SMEM + 8,
            x % SMEM,
            x,
        ]);
    }
    match kind {
        // An fd: mostly one the caller has open; dirfds are mostly AT_FDCWD.
        b'f' | b'd' if kind == b'd' && r.one_in(2) => AT_FDCWD as u64,
        b'f' | b'd' => {
            let open: Vec<u64> = w.k.procs[&pid]
                .fds
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_some())
                .map(|(i, _)| i as u64)
                .collect();
            if !open.is_empty() && !r.one_in(3) {
                r.pick(&open)
            } else {
                r.pick(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 1023, 1024, AT_FDCWD as u64])
            }
        }
        b's' => match r.below(12) {
            0 => P_LONG,
            1 => P_TOOLONG,
            2 => P_STR + 0xc00,
            3 => SMEM - 1 - r.below(4),
            4 => r.pick(&[0, 8, P_STR - 1]),
            _ => P_STR + 64 * r.below(PATHS.len() as u64),
        },
        b'b' => match r.below(6) {
            0 => r.pick(&[0, 8, 0xfff8, 0xffff]),
            1 => SMEM - r.below(64),
            2 => P_STR + 64 * r.below(PATHS.len() as u64),
            _ => P_BUF + r.below(0x2000),
        },
        b'n' => r.pick(&[
            0,
            1,
            2,
            8,
            16,
            255,
            256,
            4095,
            4096,
            4097,
            1 << 16,
            1 << 20,
            1 << 24,
            SMEM,
            x % 512,
        ]),
        b'o' => {
            let mut f = r.below(3);
            for bit in [
                O_CREAT,
                O_EXCL,
                O_TRUNC,
                O_APPEND,
                O_NONBLOCK,
                O_DIRECTORY,
                O_NOFOLLOW,
                O_CLOEXEC,
            ] {
                if r.one_in(4) {
                    f |= bit;
                }
            }
            f
        }
        b'm' => r.pick(&[0, 0o644, 0o755, 0o777, 0o7777, 0o170777]),
        b'p' => match r.below(6) {
            0 => r.pick(&[0, u64::MAX, (-2i64) as u64, 99_999, i64::MIN as u64]),
            1 => (-r.pick(&pids).max(1)) as u64,
            _ => r.pick(&pids).max(1) as u64,
        },
        b'g' => r.pick(&[0, 1, 2, 9, 10, 13, 15, 17, 19, 23, 28, 64, 65, x % 70]),
        b'v' => match r.below(4) {
            0 => r.pick(&[0, 8, SMEM - 16]),
            _ => P_IOV + 16 * r.below(5),
        },
        b'c' => r.pick(&[0, 1, 2, 3, 4, 5, 1024, 1025, x % 8]),
        b'a' => match r.below(4) {
            0 => r.pick(&[0, 8, SMEM - 16]),
            _ => P_SIGACT + 32 * r.below(4),
        },
        b't' => match r.below(4) {
            0 => r.pick(&[0, 8]),
            _ => P_TS + 16 * r.below(5),
        },
        b'e' => match r.below(4) {
            0 => r.pick(&[0, 8, P_BUF]),
            1 => P_ARGV + 24,
            _ => P_ARGV,
        },
        b'w' => r.pick(&[0, 1, 2, 3, 4]),
        b'k' => r.pick(&[
            17,
            0,
            CLONE_VFORK | CLONE_VM | 17,
            CLONE_VM,
            CLONE_THREAD,
            CLONE_VFORK | 17,
            // What pthread_create passes (glibc and musl), and a thread without CLONE_FILES.
            0x3d0f00,
            0x7d0f00,
            CLONE_VM | CLONE_SIGHAND | CLONE_THREAD,
            CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | 17,
        ]),
        b'u' => {
            let op = r.pick(&[0, 1, 3, 4, 5, 9, 10, 6, x & 0x3ff]);
            op | r.pick(&[0, 128, 256, 384])
        }
        b'F' => r.pick(&[
            F_DUPFD,
            F_GETFD,
            F_SETFD,
            F_GETFL,
            F_SETFL,
            F_DUPFD_CLOEXEC,
            5,
            x,
        ]),
        b'M' => {
            let mut f = r.pick(&[1u64, 2, 3]);
            for bit in [MAP_FIXED, MAP_ANONYMOUS, MAP_ANONYMOUS] {
                if r.one_in(2) {
                    f |= bit;
                }
            }
            f
        }
        b'P' => r.pick(&[0x3_0000, 0x2_0000, 0x1_0000, 0x1_2000, 0, 0x1000, 0x2_f000]),
        _ => r.pick(&[0, 1, 2, 3, 8, 0x100, 0x200, 0x1000, x]),
    }
}

/// Argument kinds per syscall (f fd, d dirfd, s path, b buffer, n length, o open flags, m mode, p pid,
/// g signal, v iovec, c iovec count, a sigaction, t timespec, e argv, w whence/which,
/// k clone flags, u futex op, F fcntl cmd, M mmap flags, P page address, x anything).
fn schema(n: u64) -> &'static str {
    match n {
        nr::GETCWD => "bn",
        nr::DUP => "f",
        nr::DUP3 => "ffo",
        nr::FCNTL => "fFc",
        nr::IOCTL => "fxb",
        nr::MKDIRAT => "dsm",
        nr::UNLINKAT => "dsx",
        nr::SYMLINKAT => "sds",
        nr::LINKAT | nr::RENAMEAT | nr::RENAMEAT2 => "dsdsw",
        nr::FTRUNCATE => "fn",
        nr::FACCESSAT | nr::NEWFSTATAT | nr::UTIMENSAT => "dsbx",
        nr::CHDIR => "s",
        nr::FCHDIR | nr::CLOSE => "f",
        nr::OPENAT => "dsom",
        nr::PIPE2 => "bo",
        nr::GETDENTS64 | nr::READ | nr::WRITE => "fbn",
        nr::LSEEK => "fnw",
        nr::READV | nr::WRITEV => "fvc",
        nr::PREAD64 | nr::PWRITE64 => "fbnn",
        nr::READLINKAT => "dsbn",
        nr::FSTAT => "fb",
        nr::EXIT | nr::EXIT_GROUP => "x",
        nr::WAITID => "wpbx",
        nr::NANOSLEEP => "tb",
        nr::CLOCK_GETTIME => "wb",
        nr::KILL => "pg",
        nr::TGKILL => "ppg",
        nr::RT_SIGACTION => "gaan",
        nr::RT_SIGPROCMASK => "wbbn",
        nr::SETPGID => "pp",
        nr::GETPGID => "p",
        nr::UMASK => "m",
        nr::GETTIMEOFDAY => "bb",
        nr::MUNMAP | nr::MPROTECT | nr::MADVISE => "Pnx",
        nr::MREMAP => "Pnnx",
        nr::CLONE => "kbbxb",
        nr::FUTEX => "buxtbx",
        nr::EXECVE => "see",
        nr::MMAP => "PnwMfn",
        nr::WAIT4 => "pbxb",
        nr::PRLIMIT64 => "pwbb",
        nr::GETRANDOM => "bnx",
        nr::STATX => "dsxxb",
        _ => "bxxxxx",
    }
}

/// Keeps a world's host memory bounded: the kernel grows an in-memory file to any offset up to
/// MAX_FILE (256 MiB), so file offsets and lengths between 1 MiB and MAX_FILE are moved just
/// past MAX_FILE (where EFBIG/EINVAL must come back), except in the rare worlds that allow them.
fn tame(n: u64, a: &mut [u64; 6], big: bool) {
    if big {
        return;
    }
    let i = match n {
        nr::LSEEK | nr::FTRUNCATE => 1,
        nr::PWRITE64 | nr::PREAD64 => 3,
        _ => return,
    };
    if a[i] > 1 << 20 && a[i] <= MAX_FILE {
        a[i] = MAX_FILE + 1 + (a[i] & 0xfff);
    }
}

/// What must hold of the kernel between calls: slots and processes agree, pipe end counts match
/// the open descriptions, the directory tree is a tree, and nothing refers to a host file.
fn check_kernel(w: &World) -> Result<(), String> {
    // The address spaces' bookkeeping (frame counts, copy-on-write, the share table).
    w.g.spaces()
        .check()
        .map_err(|e| format!("address spaces: {e}"))?;
    let k = &w.k;
    for (s, p) in k.slots.iter().enumerate() {
        if let Some(p) = p {
            if k.procs.get(p).and_then(|q| q.slot) != Some(s) {
                return Err(format!("slot {s} names pid {p}, which is not in it"));
            }
        }
    }
    let mut readers = vec![0usize; k.pipes.len()];
    let mut writers = vec![0usize; k.pipes.len()];
    let mut seen = HashSet::new();
    for (pid, p) in &k.procs {
        if let Some(s) = p.slot {
            if k.slots[s] != Some(*pid) {
                return Err(format!("pid {pid} claims slot {s}"));
            }
        }
        if matches!(p.state, PState::Zombie(_)) && (p.slot.is_some() || !p.fds.is_empty()) {
            return Err(format!("zombie {pid} keeps a slot or fds"));
        }
        // A thread other than its process's first lives only while it runs, in its process,
        // and owns no fd table (its leader's is the process's).
        if p.tgid != *pid {
            match k.procs.get(&p.tgid) {
                Some(l) if l.tgid == l.pid && !matches!(l.state, PState::Zombie(_)) => {}
                _ => return Err(format!("thread {pid} of a process {} that is gone", p.tgid)),
            }
            if p.slot.is_none() || !p.fds.is_empty() {
                return Err(format!("thread {pid} without a slot, or with its own fds"));
            }
            if k.procs.values().any(|c| c.ppid == *pid) {
                return Err(format!(
                    "thread {pid} is a parent (children belong to the process)"
                ));
            }
        }
        if matches!(p.state, PState::ThreadExited(_))
            && (p.slot.is_some() || !k.procs.values().any(|t| t.tgid == *pid && t.slot.is_some()))
        {
            return Err(format!("leader {pid} exited alone but has no thread left"));
        }
        for f in p.fds.iter().flatten() {
            if !seen.insert(Rc::as_ptr(&f.file)) {
                continue;
            }
            match f.file.borrow().kind {
                Kind::PipeR(i) => *readers.get_mut(i).ok_or("pipe index")? += 1,
                Kind::PipeW(i) => *writers.get_mut(i).ok_or("pipe index")? += 1,
                Kind::Host(..) => return Err("a host file is open".into()),
                _ => {}
            }
        }
    }
    for (i, p) in k.pipes.iter().enumerate() {
        if p.readers != readers[i] || p.writers != writers[i] {
            return Err(format!(
                "pipe {i}: counts r{} w{}, open descriptions r{} w{}",
                p.readers, p.writers, readers[i], writers[i]
            ));
        }
        if p.buf.len() > kernel::PIPE_CAP {
            return Err(format!("pipe {i} holds {} bytes", p.buf.len()));
        }
    }
    // Every directory reachable from / is reached once, and its parent is the directory it is in.
    let mut visited = HashSet::new();
    let mut stack = vec![0usize];
    while let Some(d) = stack.pop() {
        if !visited.insert(d) {
            return Err(format!("directory inode {d} reached twice"));
        }
        if let Node::Dir(m) = &k.vfs.inodes[d].node {
            for &c in m.values() {
                if let Node::Dir(_) = k.vfs.inodes[c].node {
                    if k.vfs.inodes[c].parent != d {
                        return Err(format!(
                            "directory {c} in {d} has parent {}",
                            k.vfs.inodes[c].parent
                        ));
                    }
                    stack.push(c);
                }
            }
        }
        if let Node::Mount { .. } = k.vfs.inodes[d].node {
            return Err("a mount appeared".into());
        }
    }
    let total: usize = k
        .vfs
        .inodes
        .iter()
        .map(|i| match &i.node {
            Node::File(d) => d.len(),
            _ => 0,
        })
        .sum();
    if !w.big && total as u64 > 512 << 20 {
        return Err(format!("in-memory files hold {total} bytes"));
    }
    Ok(())
}

/// What must hold of one call's result.
fn check_result(n: u64, a: &[u64; 6], v: i64) -> Result<(), String> {
    if v < 0 {
        return match Errno::from_ret(v) {
            Some(e) if !e.name().is_empty() => Ok(()),
            _ => Err(format!("returned {v}, not a known errno")),
        };
    }
    let v = v as u64;
    let bad = match n {
        nr::READ | nr::WRITE | nr::PREAD64 | nr::PWRITE64 | nr::GETDENTS64 | nr::READLINKAT => {
            v > a[2].max(if n == nr::READLINKAT { a[3] } else { 0 })
        }
        nr::GETRANDOM => v > a[1],
        nr::GETCWD => v > a[1],
        nr::OPENAT | nr::DUP | nr::DUP3 => v >= MAX_FDS as u64,
        nr::FCNTL if a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC => v >= MAX_FDS as u64 || v < a[2],
        // mremap hands back the caller's own address when it need not move.
        nr::MMAP | nr::MREMAP if !(n == nr::MREMAP && v == a[0]) => {
            !v.is_multiple_of(loader::PAGE)
                || v < loader::LO_BOUND as u64
                || v >= loader::process::STACK_TOP
        }
        _ => false,
    };
    if bad {
        Err(format!("result {v:#x} out of range"))
    } else {
        Ok(())
    }
}

fn random_nr(r: &mut Rng) -> u64 {
    if r.one_in(30) {
        r.pick(&[0, 1, 214, 300, 435, 999, u64::MAX, 1 << 32])
    } else {
        syscalls::TABLE[r.below(syscalls::TABLE.len() as u64) as usize].nr
    }
}

/// Runs one call as `pid` the way `Kernel::syscall` does (result into x0, blocked state,
/// pipe closes), returning the handler's answer.
fn run_call(w: &mut World, pid: Pid, n: u64, a: [u64; 6]) -> Result<Sys, MemError> {
    let slot = w.k.proc(pid).slot.expect("a live process");
    w.g.set_status(slot, crate::gpu::layout::Stop::Syscall);
    let r = w.k.call_as(&mut w.g, &mut w.out, slot, pid, n, a)?;
    w.out.clear();
    match r {
        Sys::Ret(v) => {
            if w.k.procs.get(&pid).is_some_and(|p| p.slot == Some(slot)) {
                w.g.set_reg(slot, 0, v as u64);
                w.k.proc_mut(pid).state = PState::Running;
            }
        }
        Sys::Block => {
            w.k.proc_mut(pid).state = PState::Blocked;
            w.pending.insert(pid, (n, a));
        }
        Sys::NoReturn => {}
    }
    if let Some(p) = w.k.procs.get(&pid) {
        if let Some(s) = p.slot {
            if p.state == PState::Running
                && w.g.status(s) == Some(crate::gpu::layout::Stop::Syscall)
            {
                w.g.set_status(s, crate::gpu::layout::Stop::Running);
            }
            let mask = w.k.fast_fd_mask(pid, &w.out);
            w.g.st_mut(s)[crate::gpu::layout::S_FASTFD] = mask;
        }
    }
    Ok(r)
}

/// Sequences of random syscalls from the table (and unknown numbers) with edge-biased arguments,
/// as the root process or a forked child, with signal delivery between calls. One execution is
/// one syscall.
pub fn fuzz_syscalls(seed: u64, iters: u64) -> Report {
    let t0 = Instant::now();
    let mut rep = Report::new("syscalls", seed);
    let corpus = elf_corpus();
    let mut world_no = 0u64;
    while rep.executions < iters {
        let wn = world_no;
        world_no += 1;
        let mut r = case_rng(seed, wn);
        let mut w = make_world(&mut r, &corpus);
        let mut step = 0u64;
        while step < WORLD_STEPS && rep.executions < iters {
            step += 1;
            // Who runs: a live process not waiting for its vfork child; blocked ones retry.
            let live: Vec<Pid> =
                w.k.procs
                    .values()
                    .filter(|p| p.slot.is_some() && !w.k.in_vfork(p.pid))
                    .map(|p| p.pid)
                    .collect();
            if live.is_empty() {
                rep.note("world ended: no live process");
                break;
            }
            if live.iter().all(|p| w.k.proc(*p).state == PState::Blocked) && r.one_in(8) {
                rep.note("world ended: every process blocked");
                break;
            }
            let pid = r.pick(&live);
            let slot = w.k.proc(pid).slot.unwrap();
            let (n, a) = match w.k.proc(pid).state {
                PState::Blocked => w.pending[&pid],
                _ => {
                    let mut n = random_nr(&mut r);
                    // Calls that end the caller are drawn less often, so worlds grow deeper.
                    if matches!(n, nr::EXIT | nr::EXIT_GROUP | nr::RT_SIGRETURN) && !r.one_in(4) {
                        n = random_nr(&mut r);
                    }
                    let kinds = schema(n).as_bytes();
                    let mut a = [0u64; 6];
                    for (k, v) in a.iter_mut().enumerate() {
                        *v = arg(&mut r, *kinds.get(k).unwrap_or(&b'x'), &w, pid);
                    }
                    tame(n, &mut a, w.big);
                    (n, a)
                }
            };
            // The pc of a process in a syscall: just past an SVC in its code.
            w.g.set_pc(slot, 0x10000 + 4 * (1 + r.below(1023)));
            for (i, v) in a.iter().enumerate() {
                w.g.set_reg(slot, i, *v);
            }
            w.g.set_reg(slot, 8, n);
            if r.one_in(16) {
                plant(&mut w.g, slot);
            }
            let strace_on = r.one_in(8);
            let case = || {
                format!(
                    "syscalls seed {seed} world {wn} step {step}: pid {pid} {}({:x?})",
                    syscalls::name(n),
                    a
                )
            };
            rep.guarded(case, |rep| {
                if strace_on {
                    let _ = strace::render_args(&mut w.g, slot, n, &a);
                }
                match run_call(&mut w, pid, n, a) {
                    Err(e) => rep.find(format!("device error {e} from {}", case())),
                    Ok(Sys::Ret(v)) => {
                        if strace_on {
                            let _ = strace::render_result(v);
                        }
                        if let Err(x) = check_result(n, &a, v) {
                            rep.find(format!("{x}: {}", case()));
                        }
                        let what = match Errno::from_ret(v) {
                            Some(e) => e.name().to_string(),
                            None => "ok".into(),
                        };
                        rep.note(format!("{} {what}", syscalls::name(n)));
                    }
                    Ok(Sys::Block) => rep.note(format!("{} blocks", syscalls::name(n))),
                    Ok(Sys::NoReturn) => rep.note(format!("{} no return", syscalls::name(n))),
                }
                if r.one_in(4) {
                    signal::deliver_pending(&mut w.k, &mut w.g);
                }
                if let Err(x) = check_kernel(&w) {
                    rep.find(format!("{x} after {}", case()));
                }
            });
            rep.executions += 1;
        }
    }
    rep.note(format!("worlds: {world_no}"));
    rep.elapsed = t0.elapsed();
    rep
}

/// `garm hostfuzz`: runs the targets, prints their reports; the exit status is 1 on a finding.
pub fn cli(target: &str, seed: u64, iters: u64) -> Result<i32, crate::error::Error> {
    let targets: &[&str] = match target {
        "all" => &["loader", "decoder", "syscalls"],
        "loader" | "decoder" | "syscalls" => std::slice::from_ref(&target),
        t => {
            return Err(crate::error::Error::Usage(format!(
                "unknown hostfuzz target '{t}' (loader, decoder, syscalls, all)"
            )))
        }
    };
    let mut found = false;
    for t in targets {
        let rep = match *t {
            "loader" => fuzz_loader(seed, iters),
            "decoder" => fuzz_decoder(seed, iters),
            _ => fuzz_syscalls(seed, iters),
        };
        if std::env::var_os("GARM_HOSTFUZZ_ALL").is_some() {
            crate::out!("{rep:#}");
        } else {
            crate::out!("{rep}");
        }
        found |= !rep.findings.is_empty();
    }
    Ok(found as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(rep: Report) {
        assert!(rep.findings.is_empty(), "{rep}");
        assert!(rep.outcomes.len() > 5, "too few distinct outcomes: {rep}");
    }

    #[test]
    fn corpus_elfs_load_or_are_refused_as_designed() {
        for (name, e) in elf_corpus() {
            let r = loader::load_elf(&e, 1 << 20);
            assert_eq!(r.is_ok(), !name.contains("interp"), "{name}: {:?}", r.err());
        }
    }

    #[test]
    fn loader_survives_mutated_elfs() {
        clean(fuzz_loader(1, 50_000));
    }

    #[test]
    fn decoder_survives_random_words() {
        clean(fuzz_decoder(1, 100_000));
    }

    #[test]
    fn syscalls_survive_random_sequences() {
        clean(fuzz_syscalls(1, 50_000));
    }
}
