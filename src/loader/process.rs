//! A fresh process in a guest slot (start-up and execve): segments, the initial stack, decoded
//! code and a reset state. Shared by the run loop and the kernel, so neither imports the other.

use super::{build_stack, Image};
use crate::gpu::layout::{self, Stop};
use crate::guest::{Guest, MemError};

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

/// Whether `image` with these arguments fits a process of `mem` bytes: the heap start below the
/// stack reserve, and argv/envp/auxv within a quarter of the reserve.
pub fn check_fits(
    image: &Image,
    mem: u64,
    argv: &[String],
    envp: &[String],
) -> Result<(), FitError> {
    let stack = stack_reserve(mem);
    if image.brk_start + stack + stack_guard(mem) > mem {
        return Err(FitError::Image { mem });
    }
    let strings: u64 = argv.iter().chain(envp).map(|s| s.len() as u64 + 1).sum();
    let words = (argv.len() + envp.len()) as u64 * 8 + 512;
    if strings + words > stack / 4 {
        return Err(FitError::Args);
    }
    Ok(())
}

/// The stack reserve at the top of guest memory: the most the stack may grow (the process's
/// RLIMIT_STACK).
pub fn stack_reserve(mem: u64) -> u64 {
    (mem / 4).min(1 << 20)
}

/// The guard gap below the stack reserve: any access there faults, so a stack that outgrows
/// its reserve stops with SIGSEGV instead of overwriting the heap or mappings below.
pub fn stack_guard(mem: u64) -> u64 {
    (mem / 64).clamp(4096, 64 << 10)
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

/// Loads `image` into `slot` as a fresh process. Returns the top of the mmap area (just below
/// the stack reserve). Fails before touching the slot when the program does not fit.
pub fn load_process(
    g: &mut dyn Guest,
    slot: usize,
    image: &Image,
    argv: &[String],
    envp: &[String],
) -> Result<u64, LoadError> {
    let mem = g.mem_bytes();
    let reserve = stack_reserve(mem);
    let guard = stack_guard(mem);
    check_fits(image, mem, argv, envp).map_err(LoadError::Fit)?;
    // Everything that can fail is checked above: from here the old process is gone.
    let limit = g.word64(slot, layout::S_LIMIT);
    let count = g.word64(slot, layout::S_COUNT);
    g.reset_slot(slot);
    let mut segs: Vec<_> = image.segments.iter().collect();
    segs.sort_by_key(|s| s.vaddr);
    for s in &segs {
        g.write_mem(slot, s.vaddr, &pad4(&s.data))?;
    }
    let mut random = [0u8; 16];
    for (k, b) in random.iter_mut().enumerate() {
        *b = (slot as u8).wrapping_mul(31).wrapping_add(k as u8 * 7 + 1);
    }
    let stack = build_stack(image, mem, argv, envp, random);
    g.write_mem(slot, stack.base, &pad4(&stack.bytes))?;
    // The instruction count survives exec, so --max-insns bounds a process that re-execs.
    g.set_word64(slot, layout::S_COUNT, count);
    let s = g.st_mut(slot);
    s[layout::S_STATUS] = Stop::Running.word();
    s[layout::S_BRK] = image.brk_start as u32;
    s[layout::S_BRK_MIN] = image.brk_start as u32;
    s[layout::S_BRK_MAX] = (mem - reserve - guard) as u32;
    s[layout::S_GUARD_LO] = (mem - reserve - guard) as u32;
    s[layout::S_GUARD_HI] = (mem - reserve) as u32;
    s[layout::S_FASTFD] = 3;
    g.set_word64(
        slot,
        layout::S_LIMIT,
        if limit == 0 { u64::MAX } else { limit },
    );
    g.set_pc(slot, image.entry);
    g.set_reg(slot, 31, stack.sp);
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
    protect_read_only(g, slot, &segs);
    Ok(mem - reserve - guard)
}

/// Widens the slot's code range (where a store stops for the host, which checks the segment's
/// permission) over the read-only segments too, so a store into read-only data that lies apart
/// from the code is a SIGSEGV as well; unless that would take in a writable segment, whose every
/// store would then stop.
fn protect_read_only(g: &mut dyn Guest, slot: usize, segs: &[&super::Segment]) {
    let page = |a: u64| a & !0xfff;
    let ro = segs.iter().filter(|s| !s.write && s.memsz > 0);
    let (Some(lo), Some(hi)) = (
        ro.clone().map(|s| page(s.vaddr)).min(),
        ro.map(|s| page(s.vaddr + s.memsz + 0xfff)).max(),
    ) else {
        return;
    };
    let st = g.st(slot);
    let (lo, hi) = (
        lo.min(st[layout::S_CODE_LO] as u64),
        hi.max(st[layout::S_CODE_HI] as u64),
    );
    if segs
        .iter()
        .any(|s| s.write && s.vaddr < hi && s.vaddr + s.memsz > lo)
    {
        return;
    }
    let st = g.st_mut(slot);
    st[layout::S_CODE_LO] = lo as u32;
    st[layout::S_CODE_HI] = hi as u32;
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
            entry: 0x10000,
            segments,
            phdr_addr: 0x10040,
            phnum: 3,
            brk_start: 0x40000,
        }
    }

    #[test]
    fn read_only_data_apart_from_the_code_joins_the_code_range() {
        let mut g = MemGuest::new(1, 1 << 20);
        let img = image(vec![
            seg(0x10000, 0x1000, true, false),
            seg(0x11000, 0x2800, false, false),
            seg(0x20000, 0x1000, false, true),
        ]);
        load_process(&mut g, 0, &img, &["p".into()], &[]).unwrap();
        assert_eq!(g.st(0)[layout::S_CODE_LO], 0x10000);
        assert_eq!(g.st(0)[layout::S_CODE_HI], 0x14000);
    }

    #[test]
    fn a_writable_segment_in_between_keeps_the_range_as_it_was() {
        let mut g = MemGuest::new(1, 1 << 20);
        let img = image(vec![
            seg(0x10000, 0x1000, true, false),
            seg(0x11000, 0x1000, true, true),
            seg(0x12000, 0x1000, false, false),
        ]);
        load_process(&mut g, 0, &img, &["p".into()], &[]).unwrap();
        assert_eq!(
            g.st(0)[layout::S_CODE_LO],
            u32::MAX,
            "unchanged (MemGuest maps no code)"
        );
    }
}
