//! A fresh process in a guest slot (start-up and execve): segments, the initial stack, decoded
//! code and a reset state. Shared by the run loop and the kernel, so neither imports the other.
//!
//! The address space, as Linux lays out a static program on arm64 (48-bit addresses):
//! segments where the ELF puts them, the heap (brk) from the page after the last one, the stack
//! ending at [`STACK_TOP`] with a guard gap below its reserve, and mmap's area growing down from
//! [`mmap_top`]. The heap, the stack and anonymous mappings are zero pages until first touched.

use super::{build_stack, Image};
use crate::gpu::layout::{self, Stop};
use crate::guest::{Guest, MemError, Perm};

/// The end of the stack: the top of the 48-bit address space.
pub const STACK_TOP: u64 = 1 << 48;

/// Why a program cannot start in a process slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitError {
    /// The program's memory reaches into the stack reserve.
    Image { mem: u64 },
    /// argv, envp and auxv exceed a quarter of the stack reserve (Linux's own rule).
    Args,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            FitError::Image { mem } => write!(
                f,
                "the program needs more guest memory than --mem {mem} leaves beside the stack"
            ),
            FitError::Args => f.write_str("arguments and environment do not fit the stack"),
        }
    }
}

impl std::error::Error for FitError {}

/// Whether `image` with these arguments fits a process capped at `mem` bytes: its segments and
/// stack reserve within the cap, below the stack's guard gap, and argv/envp/auxv within a
/// quarter of the reserve.
pub fn check_fits(
    image: &Image,
    mem: u64,
    argv: &[String],
    envp: &[String],
) -> Result<(), FitError> {
    let stack = stack_reserve(mem);
    let pages: u64 = image
        .segments
        .iter()
        .map(|s| (s.vaddr + s.memsz).div_ceil(4096) - s.vaddr / 4096)
        .sum();
    if pages * 4096 + stack > mem || image.brk_start > STACK_TOP - stack - stack_guard(mem) {
        return Err(FitError::Image { mem });
    }
    let strings: u64 = argv.iter().chain(envp).map(|s| s.len() as u64 + 1).sum();
    let words = (argv.len() + envp.len()) as u64 * 8 + 512;
    if strings + words > stack / 4 {
        return Err(FitError::Args);
    }
    Ok(())
}

/// The stack reserve below [`STACK_TOP`]: the most the stack may grow (the process's
/// RLIMIT_STACK).
pub fn stack_reserve(mem: u64) -> u64 {
    (mem / 4).min(1 << 20)
}

/// The guard gap below the stack reserve: nothing is mapped there, so a stack that outgrows
/// its reserve stops with SIGSEGV.
pub fn stack_guard(mem: u64) -> u64 {
    (mem / 64).clamp(4096, 64 << 10)
}

/// The lowest address of the stack reserve.
pub fn stack_bottom(mem: u64) -> u64 {
    STACK_TOP - stack_reserve(mem)
}

/// Where mmap's area starts (it grows down): below the stack, its guard and a gap as Linux
/// leaves (128 MiB at least).
pub fn mmap_top(mem: u64) -> u64 {
    stack_bottom(mem) - stack_guard(mem) - (128 << 20)
}

/// The heap's end: `mem` past its start, below 4 GiB (the shader keeps the break in 32 bits;
/// a program whose heap would start above that gets none, and malloc falls back to mmap).
fn heap_end(brk_start: u64, mem: u64) -> u64 {
    if brk_start >= 1 << 32 {
        return brk_start;
    }
    (brk_start + mem).min((1 << 32) - 4096)
}

/// Zero-pads to a whole word, so the write needs no read-modify-write round trip. Safe: segments
/// are written in address order (a later one overwrites the pad) and the stack's strings start
/// 16-aligned below a 16-aligned top.
fn pad4(v: &[u8]) -> Vec<u8> {
    let mut v = v.to_vec();
    v.resize(v.len().div_ceil(4) * 4, 0);
    v
}

/// Why loading failed after the fit check.
#[derive(Debug)]
pub enum LoadError {
    Fit(FitError),
    Mem(MemError),
}

impl From<MemError> for LoadError {
    fn from(e: MemError) -> LoadError {
        LoadError::Mem(e)
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            LoadError::Fit(e) => e.fmt(f),
            LoadError::Mem(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads `image` into `slot` as a fresh process. Returns the top of the mmap area. Fails
/// before touching the slot when the program does not fit.
pub fn load_process(
    g: &mut dyn Guest,
    slot: usize,
    image: &Image,
    argv: &[String],
    envp: &[String],
) -> Result<u64, LoadError> {
    let mem = g.mem_bytes();
    check_fits(image, mem, argv, envp).map_err(LoadError::Fit)?;
    // Everything that can fail is checked above: from here the old process is gone.
    let limit = g.word64(slot, layout::S_LIMIT);
    let count = g.word64(slot, layout::S_COUNT);
    g.reset_slot(slot);
    let mut segs: Vec<_> = image.segments.iter().collect();
    segs.sort_by_key(|s| s.vaddr);
    // Each page's bytes and rights (a page two segments share gets both's): writable pages get
    // frames of their own, read-only ones the frame every process loading the same bytes there
    // shares.
    let mut pages: std::collections::BTreeMap<u64, (Perm, Vec<u8>)> = Default::default();
    for s in segs.iter().filter(|s| s.memsz > 0) {
        let mut perm = Perm::R;
        if s.write {
            perm = perm.union(Perm::W);
        }
        if s.exec {
            perm = perm.union(Perm::X);
        }
        for p in (s.vaddr / 4096)..(s.vaddr + s.memsz).div_ceil(4096) {
            let (e, bytes) = pages
                .entry(p * 4096)
                .or_insert_with(|| (Perm::NONE, vec![0; 4096]));
            *e = e.union(perm);
            let lo = (p * 4096).max(s.vaddr);
            let hi = (p * 4096 + 4096).min(s.vaddr + s.data.len() as u64);
            if lo < hi {
                let src = &s.data[(lo - s.vaddr) as usize..(hi - s.vaddr) as usize];
                bytes[(lo - p * 4096) as usize..(hi - p * 4096) as usize].copy_from_slice(src);
            }
        }
    }
    for (&p, (perm, bytes)) in &pages {
        if perm.has(Perm::W) {
            g.map(slot, p, 4096, *perm, true)?;
            g.write_mem(slot, p, bytes)?;
        } else {
            g.map_shared(slot, p, *perm, bytes)?;
        }
    }
    let mut random = [0u8; 16];
    for (k, b) in random.iter_mut().enumerate() {
        *b = (slot as u8).wrapping_mul(31).wrapping_add(k as u8 * 7 + 1);
    }
    let bottom = stack_bottom(mem);
    g.map(slot, bottom, STACK_TOP - bottom, Perm::RW, false)?;
    let stack = build_stack(image, STACK_TOP, argv, envp, random);
    g.write_mem(slot, stack.base, &pad4(&stack.bytes))?;
    let heap = image.brk_start.div_ceil(4096) * 4096;
    let end = heap_end(image.brk_start, mem);
    if end > heap {
        g.map(slot, heap, end - heap, Perm::RW, false)?;
    }
    // The instruction count survives exec, so --max-insns bounds a process that re-execs.
    g.set_word64(slot, layout::S_COUNT, count);
    let s = g.st_mut(slot);
    s[layout::S_STATUS] = Stop::Running.word();
    s[layout::S_BRK] = image.brk_start as u32;
    s[layout::S_BRK_MIN] = image.brk_start as u32;
    s[layout::S_BRK_MAX] = end as u32;
    s[layout::S_FASTFD] = 3;
    g.set_word64(
        slot,
        layout::S_LIMIT,
        if limit == 0 { u64::MAX } else { limit },
    );
    g.set_pc(slot, image.start);
    g.set_reg(slot, 31, stack.sp);
    // The code map starts at the lowest executable page.
    let code_base = segs
        .iter()
        .filter(|s| s.exec)
        .map(|s| s.vaddr & !0xfff)
        .min()
        .unwrap_or(0);
    g.set_word64(slot, layout::S_CODE_BASE, code_base);
    // Decode the executable pages from the file image; processes share identical pages.
    for s in segs.iter().filter(|s| s.exec) {
        let mut p = s.vaddr & !0xfff;
        while p < s.vaddr + s.memsz {
            let mut bytes = vec![0u8; 4096];
            for (k, b) in bytes.iter_mut().enumerate() {
                let a = p + k as u64;
                if a >= s.vaddr && a < s.vaddr + s.data.len() as u64 {
                    *b = s.data[(a - s.vaddr) as usize];
                }
            }
            g.map_exec(slot, p, &bytes)?;
            p += 4096;
        }
    }
    // With a dynamic loader, the mmap area grows down from just below it (in the code window).
    Ok(if image.base != 0 {
        image.base
    } else {
        mmap_top(mem)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guest::MemGuest;
    use crate::loader::Segment;

    fn seg(vaddr: u64, memsz: u64, exec: bool, write: bool) -> Segment {
        Segment {
            vaddr,
            memsz,
            data: vec![0; 16],
            exec,
            write,
        }
    }

    fn image(segments: Vec<Segment>) -> Image {
        Image {
            base: 0,
            start: 0x10000,
            entry: 0x10000,
            segments,
            phdr_addr: 0x10040,
            phnum: 3,
            brk_start: 0x40000,
        }
    }

    #[test]
    fn segments_get_their_rights_and_the_stack_and_heap_are_lazy() {
        let mem = 1 << 20;
        let mut g = MemGuest::new(1, mem);
        let img = image(vec![
            seg(0x10000, 0x1000, true, false),
            seg(0x11000, 0x2800, false, false),
            // Shares page 0x13000 with the read-only segment: the page gets both's rights.
            seg(0x13800, 0x1000, false, true),
        ]);
        load_process(&mut g, 0, &img, &["p".into()], &[]).unwrap();
        assert_eq!(g.perm(0, 0x10000), Some(Perm::RX));
        assert_eq!(g.perm(0, 0x11000), Some(Perm::R));
        assert_eq!(g.perm(0, 0x13000), Some(Perm::RW));
        assert_eq!(g.perm(0, 0xf000), None, "nothing below the program");
        assert_eq!(g.perm(0, STACK_TOP - 4096), Some(Perm::RW));
        let gap = stack_bottom(mem as u64) - 4096;
        assert_eq!(g.perm(0, gap), None, "the guard gap");
        assert_eq!(g.perm(0, 0x40000), Some(Perm::RW), "the heap");
        assert!(g.reg(0, 31) > STACK_TOP - 4096 && g.reg(0, 31) < STACK_TOP);
        assert_eq!(g.word64(0, layout::S_CODE_BASE), 0x10000);
        // Only the segments and the stack's written pages hold frames.
        assert_eq!(g.spaces().frame_counts().1, 6);
    }
}
