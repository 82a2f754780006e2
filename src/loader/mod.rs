//! ELF loading (with `object`) and the Linux initial stack.
//!
//! Guest memory layout (one flat space per instance, `--mem` bytes):
//! `0..0x10000` unmapped (null guard: any access faults); `.text` from 0x10000, then `.rodata`;
//! `.data`/`.bss` on their own pages; the brk heap from the page after the last segment up to the
//! stack reserve; the stack at the top of memory, growing down, holding argv/envp/auxv.

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

/// A loaded program: what goes into guest memory before the first instruction.
#[derive(Clone, Debug)]
pub struct Image {
    pub entry: u64,
    pub segments: Vec<Segment>,
    pub phdr_addr: u64,
    pub phnum: u64,
    /// First byte past the highest segment, page aligned: where brk starts.
    pub brk_start: u64,
}

impl Image {
    /// Whether `addr` lies in an executable segment.
    pub fn is_exec(&self, addr: u64) -> bool {
        self.segments
            .iter()
            .any(|s| s.exec && addr >= s.vaddr && addr < s.vaddr + s.memsz)
    }
}

/// Parses an AArch64 static executable, refusing anything garm cannot run with a clear message.
pub fn load_elf(data: &[u8], mem_bytes: u64) -> Result<Image, String> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err("not an ELF file (bad magic)".into());
    }
    let hdr = elf::FileHeader64::<Endianness>::parse(data).map_err(|e| {
        if data.get(4) == Some(&1) {
            "32-bit ELF: garm runs 64-bit AArch64 executables".to_string()
        } else {
            format!("malformed ELF header: {e}")
        }
    })?;
    let en = hdr
        .endian()
        .map_err(|e| format!("malformed ELF header: {e}"))?;
    if en != Endianness::Little {
        return Err("big-endian ELF: garm runs little-endian AArch64".into());
    }
    let machine = hdr.e_machine(en);
    if machine != elf::EM_AARCH64 {
        return Err(format!(
            "ELF machine is {} ({}), not AArch64",
            machine_name(machine),
            machine.0
        ));
    }
    let ty = hdr.e_type(en);
    if ty != elf::ET_EXEC {
        return Err(format!(
            "ELF type {ty} is not a static executable (ET_EXEC); shared objects, PIE and relocatable files are not supported yet"
        ));
    }
    let phdrs = hdr
        .program_headers(en, data)
        .map_err(|e| format!("malformed ELF program headers: {e}"))?;
    let phoff = hdr.e_phoff(en);
    let mut segments: Vec<Segment> = Vec::new();
    let mut phdr_addr = 0;
    for ph in phdrs {
        if ph.p_type(en) == elf::PT_INTERP {
            return Err("dynamically linked ELF (PT_INTERP): link it statically".into());
        }
        if ph.p_type(en) != elf::PT_LOAD {
            continue;
        }
        let vaddr = ph.p_vaddr(en);
        let memsz = ph.p_memsz(en);
        let filesz = ph.p_filesz(en);
        let off = ph.p_offset(en);
        if filesz > memsz {
            return Err(format!(
                "segment at {vaddr:#x}: file size exceeds memory size"
            ));
        }
        let end = vaddr
            .checked_add(memsz)
            .ok_or_else(|| format!("segment at {vaddr:#x} wraps the address space"))?;
        if vaddr < LO_BOUND as u64 || end > mem_bytes {
            return Err(format!(
                "segment {vaddr:#x}..{end:#x} does not fit guest memory {:#x}..{mem_bytes:#x} (raise --mem?)",
                LO_BOUND
            ));
        }
        let bytes = off
            .checked_add(filesz)
            .and_then(|e| data.get(off as usize..e as usize))
            .ok_or_else(|| {
                format!(
                    "segment at {vaddr:#x}: file data past the end of the file (truncated ELF?)"
                )
            })?;
        for s in &segments {
            if vaddr < s.vaddr + s.memsz && s.vaddr < end {
                return Err(format!(
                    "segments {:#x}..{:#x} and {vaddr:#x}..{end:#x} overlap",
                    s.vaddr,
                    s.vaddr + s.memsz
                ));
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
        return Err("ELF has no loadable segments".into());
    }
    if phdr_addr == 0 {
        // Headers outside every segment: qemu-user reports the first segment's address plus
        // e_phoff, and so does garm, so AT_PHDR agrees with the reference.
        phdr_addr = segments[0].vaddr + phoff;
    }
    let entry = hdr.e_entry(en);
    if !segments
        .iter()
        .any(|s| s.exec && entry >= s.vaddr && entry < s.vaddr + s.memsz)
    {
        return Err(format!(
            "entry point {entry:#x} is not in an executable segment"
        ));
    }
    let top = segments
        .iter()
        .map(|s| s.vaddr + s.memsz)
        .max()
        .unwrap_or(0);
    Ok(Image {
        entry,
        phdr_addr,
        phnum: hdr.e_phnum(en) as u64,
        brk_start: top.div_ceil(PAGE) * PAGE,
        segments,
    })
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
        (at::BASE, 0),
        (at::FLAGS, 0),
        (at::ENTRY, img.entry),
        (at::UID, 0),
        (at::EUID, 0),
        (at::GID, 0),
        (at::EGID, 0),
        (at::HWCAP, 0),
        (at::CLKTCK, 100),
        (at::RANDOM, str_base + random_off as u64),
        (at::SECURE, 0),
        (at::EXECFN, str_base + execfn_off as u64),
        (at::HWCAP2, 0),
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
