//! ELF loading (with `object`) and the Linux initial stack.
//!
//! Guest memory layout (one flat space per instance, `--mem` bytes):
//! `0..0x10000` unmapped (null guard: any access faults); `.text` from 0x10000, then `.rodata`;
//! `.data`/`.bss` on their own pages; the brk heap from the page after the last segment up to the
//! stack reserve; the stack at the top of memory, growing down, holding argv/envp/auxv.
//!
//! Static executables come in two kinds, both loaded as Linux loads them: ET_EXEC at its link
//! addresses, and static PIE (ET_DYN without PT_INTERP) at a load bias that puts its lowest page
//! at [`LO_BOUND`]. The bias is applied to every segment, the entry point and AT_PHDR, so the
//! [`Image`] describes the program as it sits in guest memory; relocations are not applied (the
//! kernel does not either): a static PIE relocates itself from its own `_DYNAMIC`.

pub mod build;
pub mod process;

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader};
use object::Endianness;

/// Lowest guest address an access may touch.
pub const LO_BOUND: u32 = 0x1_0000;
pub const PAGE: u64 = 4096;

/// One loadable segment.
#[derive(Clone, Debug)]
pub struct Segment {
    pub vaddr: u64,
    pub memsz: u64,
    pub data: Vec<u8>,
    pub exec: bool,
    pub write: bool,
}

/// A loaded program: what goes into guest memory before the first instruction, at its final
/// addresses (a static PIE's load bias already applied).
#[derive(Clone, Debug)]
pub struct Image {
    pub entry: u64,
    pub segments: Vec<Segment>,
    pub phdr_addr: u64,
    pub phnum: u64,
    /// First byte past the highest segment, page aligned: where brk starts.
    pub brk_start: u64,
    /// Where the dynamic loader was placed (AT_BASE), 0 for a static program.
    pub base: u64,
    /// The first instruction: the dynamic loader's entry, else the program's.
    pub start: u64,
}

impl Image {
    /// Whether `addr` lies in an executable segment.
    pub fn is_exec(&self, addr: u64) -> bool {
        self.segments
            .iter()
            .any(|s| s.exec && addr >= s.vaddr && addr < s.vaddr + s.memsz)
    }
}

/// Largest program file garm reads (the loadable part must fit a process's memory anyway).
pub const MAX_PROGRAM: u64 = 256 << 20;

/// Why a program file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ProgramFileError {
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("not a regular file")]
    NotRegular,
    #[error("{0} bytes is larger than garm reads for a program ({MAX_PROGRAM} bytes)")]
    TooBig(u64),
}

/// Reads a program file from the host once: a regular file (never a blocking open of a FIFO,
/// never a device read without end), at most [`MAX_PROGRAM`] bytes.
pub fn read_program(p: &std::path::Path) -> Result<Vec<u8>, ProgramFileError> {
    use crate::os::host::{libc, OpenOptionsExt};
    use std::io::Read;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(p)?;
    let md = f.metadata()?;
    if !md.is_file() {
        return Err(ProgramFileError::NotRegular);
    }
    if md.len() > MAX_PROGRAM {
        return Err(ProgramFileError::TooBig(md.len()));
    }
    let mut v = Vec::with_capacity(md.len() as usize);
    f.by_ref().take(MAX_PROGRAM + 1).read_to_end(&mut v)?;
    if v.len() as u64 > MAX_PROGRAM {
        return Err(ProgramFileError::TooBig(v.len() as u64));
    }
    Ok(v)
}

/// Why an ELF file cannot run on garm.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ElfError {
    #[error("not an ELF file (bad magic)")]
    NotElf,
    #[error("32-bit ELF: garm runs 64-bit AArch64 executables")]
    Class32,
    /// The `object` crate's words for what is wrong with the header or program headers.
    #[error("malformed ELF {part}: {detail}")]
    Malformed { part: &'static str, detail: String },
    #[error("big-endian ELF: garm runs little-endian AArch64")]
    BigEndian,
    #[error("ELF machine is {name} ({number}), not AArch64")]
    Machine { name: &'static str, number: u16 },
    #[error("ELF type {0} is not an executable (ET_EXEC, or ET_DYN for a static PIE); relocatable files and core dumps cannot run")]
    NotExecutable(u16),
    #[error("{what} (PT_INTERP): it needs its dynamic loader from a sysroot (load_dynamic; garm run -L DIR, GARM_LD_PREFIX)")]
    Dynamic { what: &'static str },
    #[error("the program's dynamic loader {0:?} is not in the sysroot (-L DIR, GARM_LD_PREFIX)")]
    NoInterp(String),
    #[error("the program's dynamic loader {0:?}: {1}")]
    Interp(String, String),
    #[error("segment at {vaddr:#x}: file size exceeds memory size")]
    FileSizeOverMemSize { vaddr: u64 },
    #[error("segment at {vaddr:#x} wraps the address space")]
    Wraps { vaddr: u64 },
    #[error(
        "segment {start:#x}..{end:#x} is outside the program area {lo:#x}..{hi:#x} of the address space"
    )]
    DoesNotFit {
        start: u64,
        end: u64,
        lo: u64,
        hi: u64,
    },
    #[error("segment at {vaddr:#x}: file data past the end of the file (truncated ELF?)")]
    Truncated { vaddr: u64 },
    #[error("segments {a:#x}..{b:#x} and {c:#x}..{d:#x} overlap")]
    Overlap { a: u64, b: u64, c: u64, d: u64 },
    #[error("ELF has no loadable segments")]
    NoSegments,
    #[error("entry point {0:#x} is not in an executable segment")]
    EntryNotExec(u64),
    #[error("segment end {0:#x} leaves no room for a heap")]
    NoHeap(u64),
}

/// Parses an AArch64 static executable (ET_EXEC, or a static PIE: ET_DYN without PT_INTERP),
/// refusing anything garm cannot run with a clear message.
pub fn load_elf(data: &[u8], mem_bytes: u64) -> Result<Image, ElfError> {
    parse(data, mem_bytes, LO_BOUND as u64, false).map(|(img, _)| img)
}

/// Loads a program that may name a dynamic loader (PT_INTERP): the loader's file comes from
/// `read_interp` (given the path the program names) and goes at the top of the `window` bytes
/// from the program's lowest executable page, whence the process's mmap area grows down (so the
/// libraries it maps lie in the same code window as the program: garm's code map covers one
/// window). A static program loads as [`load_elf`].
pub fn load_dynamic(
    data: &[u8],
    mem_bytes: u64,
    window: u64,
    read_interp: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Result<Image, ElfError> {
    let (mut img, interp) = parse(data, mem_bytes, LO_BOUND as u64, true)?;
    let Some(path) = interp else {
        return Ok(img);
    };
    let low = img
        .segments
        .iter()
        .filter(|s| s.exec)
        .map(|s| s.vaddr & !(PAGE - 1))
        .min()
        .unwrap_or(LO_BOUND as u64);
    let window_top = low + window;
    let bytes = read_interp(&path).ok_or_else(|| ElfError::NoInterp(path.clone()))?;
    let probe =
        load_elf(&bytes, mem_bytes).map_err(|e| ElfError::Interp(path.clone(), e.to_string()))?;
    let span = probe.brk_start - LO_BOUND as u64;
    let base = window_top.saturating_sub(span) & !0xffff;
    if base < img.brk_start + mem_bytes {
        return Err(ElfError::Interp(
            path,
            "no room for it above the heap".into(),
        ));
    }
    let (ld, _) = parse(&bytes, mem_bytes, base, false)
        .map_err(|e| ElfError::Interp(path.clone(), e.to_string()))?;
    img.segments.extend(ld.segments);
    img.base = base;
    img.start = ld.entry;
    Ok(img)
}

/// [`load_elf`] with a position-independent program's lowest page at `pie_base`, and its
/// PT_INTERP path where `dynamic` allows one.
fn parse(
    data: &[u8],
    mem_bytes: u64,
    pie_base: u64,
    dynamic: bool,
) -> Result<(Image, Option<String>), ElfError> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err(ElfError::NotElf);
    }
    let hdr = elf::FileHeader64::<Endianness>::parse(data).map_err(|e| {
        if data.get(4) == Some(&1) {
            ElfError::Class32
        } else {
            ElfError::Malformed {
                part: "header",
                detail: e.to_string(),
            }
        }
    })?;
    let en = hdr.endian().map_err(|e| ElfError::Malformed {
        part: "header",
        detail: e.to_string(),
    })?;
    if en != Endianness::Little {
        return Err(ElfError::BigEndian);
    }
    let machine = hdr.e_machine(en);
    if machine != elf::EM_AARCH64 {
        return Err(ElfError::Machine {
            name: machine_name(machine),
            number: machine.0,
        });
    }
    let ty = hdr.e_type(en);
    if ty != elf::ET_EXEC && ty != elf::ET_DYN {
        return Err(ElfError::NotExecutable(ty.0));
    }
    let phdrs = hdr
        .program_headers(en, data)
        .map_err(|e| ElfError::Malformed {
            part: "program headers",
            detail: e.to_string(),
        })?;
    let interp = phdrs
        .iter()
        .find(|ph| ph.p_type(en) == elf::PT_INTERP)
        .map(|ph| {
            let (off, n) = (ph.p_offset(en) as usize, ph.p_filesz(en) as usize);
            let raw = off
                .checked_add(n)
                .and_then(|e| data.get(off..e))
                .unwrap_or_default();
            String::from_utf8_lossy(raw.split(|&b| b == 0).next().unwrap_or_default()).into_owned()
        });
    if interp.is_some() && !dynamic {
        let what = if ty == elf::ET_DYN {
            "dynamically linked PIE"
        } else {
            "dynamically linked ELF"
        };
        return Err(ElfError::Dynamic { what });
    }
    // Linux maps a static PIE anywhere and leaves relocation to the program; garm's memory is
    // small and starts at LO_BOUND, so the lowest page goes exactly there.
    let bias = if ty == elf::ET_DYN {
        let low = phdrs
            .iter()
            .filter(|ph| ph.p_type(en) == elf::PT_LOAD)
            .map(|ph| ph.p_vaddr(en))
            .min()
            .unwrap_or(0);
        pie_base.wrapping_sub(low & !(PAGE - 1))
    } else {
        0
    };
    let phoff = hdr.e_phoff(en);
    let mut segments: Vec<Segment> = Vec::new();
    let mut phdr_addr = 0;
    for ph in phdrs {
        if ph.p_type(en) != elf::PT_LOAD {
            continue;
        }
        let vaddr = ph.p_vaddr(en).wrapping_add(bias);
        let memsz = ph.p_memsz(en);
        let filesz = ph.p_filesz(en);
        let off = ph.p_offset(en);
        if filesz > memsz {
            return Err(ElfError::FileSizeOverMemSize { vaddr });
        }
        let end = vaddr.checked_add(memsz).ok_or(ElfError::Wraps { vaddr })?;
        let hi = process::mmap_top(mem_bytes);
        if vaddr < LO_BOUND as u64 || end > hi {
            return Err(ElfError::DoesNotFit {
                start: vaddr,
                end,
                lo: LO_BOUND as u64,
                hi,
            });
        }
        let bytes = off
            .checked_add(filesz)
            .and_then(|e| data.get(off as usize..e as usize))
            .ok_or(ElfError::Truncated { vaddr })?;
        for s in &segments {
            if vaddr < s.vaddr + s.memsz && s.vaddr < end {
                return Err(ElfError::Overlap {
                    a: s.vaddr,
                    b: s.vaddr + s.memsz,
                    c: vaddr,
                    d: end,
                });
            }
        }
        if phoff >= off && phoff < off + filesz {
            phdr_addr = vaddr + (phoff - off);
        }
        let flags = ph.p_flags(en);
        segments.push(Segment {
            vaddr,
            memsz,
            data: bytes.to_vec(),
            exec: flags.contains(elf::PF_X),
            write: flags.contains(elf::PF_W),
        });
    }
    if segments.is_empty() {
        return Err(ElfError::NoSegments);
    }
    if phdr_addr == 0 {
        // Headers outside every segment: qemu-user reports the first segment's address plus
        // e_phoff, and so does garm, so AT_PHDR agrees with the reference.
        phdr_addr = segments[0].vaddr + phoff;
    }
    let entry = hdr.e_entry(en).wrapping_add(bias);
    if !segments
        .iter()
        .any(|s| s.exec && entry >= s.vaddr && entry < s.vaddr + s.memsz)
    {
        return Err(ElfError::EntryNotExec(entry));
    }
    let top = segments
        .iter()
        .map(|s| s.vaddr + s.memsz)
        .max()
        .unwrap_or(0);
    let brk_start = top
        .checked_next_multiple_of(PAGE)
        .ok_or(ElfError::NoHeap(top))?;
    Ok((
        Image {
            entry,
            phdr_addr,
            phnum: hdr.e_phnum(en) as u64,
            brk_start,
            segments,
            base: 0,
            start: entry,
        },
        interp,
    ))
}

fn machine_name(m: elf::Machine) -> &'static str {
    match m {
        elf::EM_X86_64 => "x86-64",
        elf::EM_386 => "i386",
        elf::EM_ARM => "32-bit ARM",
        elf::EM_RISCV => "RISC-V",
        _ => "another architecture",
    }
}

/// Auxiliary vector keys (Linux).
pub mod at {
    pub const NULL: u64 = 0;
    pub const PHDR: u64 = 3;
    pub const PHENT: u64 = 4;
    pub const PHNUM: u64 = 5;
    pub const PAGESZ: u64 = 6;
    pub const BASE: u64 = 7;
    pub const FLAGS: u64 = 8;
    pub const ENTRY: u64 = 9;
    pub const UID: u64 = 11;
    pub const EUID: u64 = 12;
    pub const GID: u64 = 13;
    pub const EGID: u64 = 14;
    pub const PLATFORM: u64 = 15;
    pub const HWCAP: u64 = 16;
    pub const CLKTCK: u64 = 17;
    pub const SECURE: u64 = 23;
    pub const RANDOM: u64 = 25;
    pub const HWCAP2: u64 = 26;
    pub const EXECFN: u64 = 31;
}

/// The initial stack: bytes to place at `base` and the sp that points at argc.
pub struct Stack {
    pub base: u64,
    pub bytes: Vec<u8>,
    pub sp: u64,
}

/// Builds a Linux-style initial stack ending at `top`: argc, argv, envp, auxv, then the strings.
pub fn build_stack(
    img: &Image,
    top: u64,
    argv: &[String],
    envp: &[String],
    random: [u8; 16],
) -> Stack {
    // Strings and AT_RANDOM bytes go at the top; pointers are computed from their final addresses.
    let mut strings: Vec<u8> = Vec::new();
    let mut add = |s: &[u8]| {
        let off = strings.len();
        strings.extend_from_slice(s);
        strings.push(0);
        off
    };
    let argv_off: Vec<usize> = argv.iter().map(|a| add(a.as_bytes())).collect();
    let envp_off: Vec<usize> = envp.iter().map(|e| add(e.as_bytes())).collect();
    let execfn_off = argv_off.first().copied().unwrap_or_else(|| add(b""));
    let platform_off = add(b"aarch64");
    let random_off = strings.len();
    strings.extend_from_slice(&random);
    let str_base = (top - strings.len() as u64) & !15;
    // The order qemu-user uses, so a program printing its auxv matches the reference.
    let auxv: Vec<(u64, u64)> = vec![
        (at::PHDR, img.phdr_addr),
        (at::PHENT, 56),
        (at::PHNUM, img.phnum),
        (at::PAGESZ, PAGE),
        (at::BASE, img.base),
        (at::FLAGS, 0),
        (at::ENTRY, img.entry),
        (at::UID, 0),
        (at::EUID, 0),
        (at::GID, 0),
        (at::EGID, 0),
        (at::HWCAP, crate::isa::idregs::HWCAP),
        (at::CLKTCK, 100),
        (at::RANDOM, str_base + random_off as u64),
        (at::SECURE, 0),
        (at::EXECFN, str_base + execfn_off as u64),
        (at::HWCAP2, crate::isa::idregs::HWCAP2),
        (at::PLATFORM, str_base + platform_off as u64),
        (at::NULL, 0),
    ];
    let mut words: Vec<u64> = vec![argv.len() as u64];
    words.extend(argv_off.iter().map(|&o| str_base + o as u64));
    words.push(0);
    words.extend(envp_off.iter().map(|&o| str_base + o as u64));
    words.push(0);
    for (k, v) in auxv {
        words.push(k);
        words.push(v);
    }
    let sp = (str_base - words.len() as u64 * 8) & !15;
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.resize((str_base - sp) as usize, 0);
    bytes.extend_from_slice(&strings);
    Stack {
        base: sp,
        bytes,
        sp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal AArch64 ELF of type `ty`: one R+X PT_LOAD holding the headers (the whole 4 KiB
    /// file) at `base`, one R+W bss PT_LOAD on the next page, optionally a PT_INTERP; entry at
    /// `base + 0x100`.
    fn tiny_elf(ty: elf::FileType, base: u64, interp: bool) -> Vec<u8> {
        let mut phs: Vec<build::Ph> = vec![
            (elf::PT_LOAD.0, 5, 0, base, 4096, 4096),
            (elf::PT_LOAD.0, 6, 4096, base + 4096, 0, 4096),
        ];
        if interp {
            phs.push((elf::PT_INTERP.0, 4, 0x200, base + 0x200, 8, 8));
        }
        build::build_elf(ty.0, base + 0x100, &phs, 4096, &[])
    }

    #[test]
    fn static_exec_loads_at_its_link_addresses() {
        let img = load_elf(&tiny_elf(elf::ET_EXEC, 0x10000, false), 1 << 20).unwrap();
        assert_eq!(img.entry, 0x10100);
        assert_eq!(img.phdr_addr, 0x10040);
        assert_eq!(img.segments[0].vaddr, 0x10000);
        assert_eq!(img.brk_start, 0x12000);
    }

    #[test]
    fn static_pie_is_biased_to_the_low_bound() {
        // Linked at 0 (as `garm cc --pie` links): everything moves up by LO_BOUND.
        let img = load_elf(&tiny_elf(elf::ET_DYN, 0, false), 1 << 20).unwrap();
        assert_eq!(img.entry, 0x10100, "AT_ENTRY = bias + e_entry");
        assert_eq!(img.phdr_addr, 0x10040, "AT_PHDR = load address + e_phoff");
        let v: Vec<u64> = img.segments.iter().map(|s| s.vaddr).collect();
        assert_eq!(v, [0x10000, 0x11000]);
        assert_eq!(img.brk_start, 0x12000);
        assert!(img.is_exec(0x10100) && !img.is_exec(0x100));
        // Linked elsewhere (an unaligned-looking base is still page-aligned): the same place.
        let img = load_elf(&tiny_elf(elf::ET_DYN, 0x40_0000, false), 1 << 20).unwrap();
        assert_eq!((img.entry, img.segments[0].vaddr), (0x10100, 0x10000));
    }

    #[test]
    fn a_segment_at_the_top_of_the_address_space_is_an_error() {
        // Found by `garm hostfuzz`: rounding the heap start up past u64::MAX overflowed (a
        // panic in debug builds, brk at 0 in release) when the memory size allowed the segment.
        let mut e = tiny_elf(elf::ET_EXEC, 0x10000, false);
        let bss = 64 + 56 + 40; // the second PT_LOAD's p_memsz
        e[bss..bss + 8].copy_from_slice(&(u64::MAX - 0x11000).to_le_bytes());
        let err = load_elf(&e, u64::MAX).unwrap_err();
        assert!(matches!(err, ElfError::DoesNotFit { .. }), "{err}");
    }

    #[test]
    fn a_dynamic_program_gets_its_loader_at_the_top_of_the_window() {
        let prog = tiny_elf(elf::ET_DYN, 0, true);
        let ld = tiny_elf(elf::ET_DYN, 0, false);
        let window = 32 << 20;
        let img = load_dynamic(&prog, 1 << 20, window, &mut |_| Some(ld.clone())).unwrap();
        let alone = load_elf(&ld, 1 << 20).unwrap();
        let span = alone.brk_start - LO_BOUND as u64;
        assert_eq!(img.base, (0x10000 + window - span) & !0xffff);
        assert_eq!(
            img.start,
            alone.entry - LO_BOUND as u64 + img.base,
            "the loader's entry"
        );
        // Both tiny ELFs have the same entry offset: the program's lies in its own page at
        // 0x10000, not near the loader.
        assert_eq!(img.entry, alone.entry, "AT_ENTRY: the program's");
        assert!(img.brk_start < img.base, "the heap stays the program's");
        let stack = build_stack(&img, 1 << 30, &["p".into()], &[], [0; 16]);
        let words: Vec<u64> = stack
            .bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let at_base = words.windows(2).find(|w| w[0] == at::BASE).unwrap()[1];
        assert_eq!(at_base, img.base);
        let e = load_dynamic(&prog, 1 << 20, window, &mut |_| None).unwrap_err();
        assert!(matches!(e, ElfError::NoInterp(_)), "{e}");
        // A static program loads as load_elf does.
        let st = tiny_elf(elf::ET_EXEC, 0x10000, false);
        let img = load_dynamic(&st, 1 << 20, window, &mut |_| None).unwrap();
        assert_eq!((img.base, img.start), (0, img.entry));
    }

    #[test]
    fn interpreter_is_refused_for_pie_and_exec() {
        let e = load_elf(&tiny_elf(elf::ET_DYN, 0, true), 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("dynamically linked PIE (PT_INTERP)") && e.contains("-L DIR"),
            "{e}"
        );
        let e = load_elf(&tiny_elf(elf::ET_EXEC, 0x10000, true), 1 << 20).unwrap_err();
        assert_eq!(
            e,
            ElfError::Dynamic {
                what: "dynamically linked ELF"
            }
        );
        let e = load_elf(&tiny_elf(elf::ET_REL, 0, false), 1 << 20).unwrap_err();
        assert_eq!(e, ElfError::NotExecutable(1));
    }
}
