//! An in-memory loader for x86_64 relocatable ELF objects (what `clang -c` writes): sections are
//! copied into one anonymous mapping (code RX, constants and GOT R, data and .bss RW), symbols
//! are resolved among the loaded objects only (never from the host process), and relocations are
//! applied with every 32-bit field range-checked. Anything it does not know is an error naming it.

use object::elf;
use object::{
    Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SectionFlags,
    SectionIndex, SymbolIndex, SymbolSection,
};
use std::collections::HashMap;

const PAGE: u64 = 4096;

/// Where a section goes: its region decides the page protection.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Region {
    /// `.text*`: read + execute.
    Code = 0,
    /// `.rodata*`, `.data.rel.ro*` and the GOT: written while relocating, then read-only.
    Ro = 1,
    /// `.init_array*` (first, contiguous), `.fini_array*`, `.data*`, then `.bss*`: read + write.
    Rw = 2,
}

/// Sort order inside the RW region, so the init and fini arrays are contiguous.
fn rw_rank(name: &str) -> u8 {
    if name.starts_with(".init_array") {
        0
    } else if name.starts_with(".fini_array") {
        1
    } else if name.starts_with(".bss") {
        3
    } else {
        2
    }
}

/// A loaded image: the mapping (unmapped on drop) and the entry point.
pub struct Image {
    base: *mut u8,
    len: usize,
    /// Address of the entry symbol.
    pub entry: u64,
    /// Bytes of code, read-only data and read-write data (with .bss) mapped.
    pub sizes: [u64; 3],
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: base/len came from our own mmap and nothing points into it after the drop.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.len);
        }
    }
}

/// Name of an x86_64 relocation type, for error messages.
pub fn x86_64_reloc_name(t: u32) -> String {
    const NAMES: &[&str] = &[
        "NONE",
        "64",
        "PC32",
        "GOT32",
        "PLT32",
        "COPY",
        "GLOB_DAT",
        "JUMP_SLOT",
        "RELATIVE",
        "GOTPCREL",
        "32",
        "32S",
        "16",
        "PC16",
        "8",
        "PC8",
        "DTPMOD64",
        "DTPOFF64",
        "TPOFF64",
        "TLSGD",
        "TLSLD",
        "DTPOFF32",
        "GOTTPOFF",
        "TPOFF32",
        "PC64",
        "GOTOFF64",
        "GOTPC32",
        "GOT64",
        "GOTPCREL64",
        "GOTPC64",
        "GOTPLT64",
        "PLTOFF64",
        "SIZE32",
        "SIZE64",
        "GOTPC32_TLSDESC",
        "TLSDESC_CALL",
        "TLSDESC",
        "IRELATIVE",
        "RELATIVE64",
        "PC32_BND",
        "PLT32_BND",
        "GOTPCRELX",
        "REX_GOTPCRELX",
    ];
    match NAMES.get(t as usize) {
        Some(n) => format!("R_X86_64_{n}"),
        None => format!("relocation type {t}"),
    }
}

fn section_class(name: &str, flags: u64, nobits: bool) -> Result<Option<Region>, String> {
    let alloc = flags & elf::SHF_ALLOC.0 != 0;
    if !alloc {
        // Sections that carry nothing the program needs at run time.
        let ignored = name.is_empty()
            || name == ".comment"
            || name == ".symtab"
            || name == ".strtab"
            || name == ".shstrtab"
            || name == ".llvm_addrsig"
            || name == ".group"
            || name.starts_with(".note")
            || name.starts_with(".rela")
            || name.starts_with(".debug");
        return if ignored {
            Ok(None)
        } else {
            Err(format!("unsupported section '{name}'"))
        };
    }
    if flags & elf::SHF_TLS.0 != 0 {
        return Err(format!(
            "unsupported section '{name}' (thread-local storage)"
        ));
    }
    let is = |p: &str| name == p || name.starts_with(&format!("{p}."));
    let region = if is(".text") {
        Region::Code
    } else if is(".rodata") || is(".data.rel.ro") {
        Region::Ro
    } else if is(".data") || is(".init_array") || is(".fini_array") || (is(".bss") && nobits) {
        Region::Rw
    } else {
        return Err(format!("unsupported section '{name}'"));
    };
    Ok(Some(region))
}

struct Placed {
    obj: usize,
    sec: SectionIndex,
    name: String,
    region: Region,
    offset: u64,
    size: u64,
    nobits: bool,
}

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Whether this loader works on this host (it applies x86_64 relocations only); where it does not,
/// [`crate::jit::run_objects`] takes the `dlopen` fallback when garm is built with it.
pub const SUPPORTED: bool = cfg!(target_arch = "x86_64");

/// Loads `objects` (x86_64 ELF relocatable objects) and returns the image with `entry` resolved.
pub fn load(objects: &[&[u8]], entry: &str) -> Result<Image, String> {
    if !SUPPORTED {
        return Err(format!(
            "the native JIT loads x86_64 objects only; this host is {}",
            std::env::consts::ARCH
        ));
    }
    let mut files = Vec::new();
    for (i, data) in objects.iter().enumerate() {
        let f = object::File::parse(*data).map_err(|e| {
            format!("object {i}: not a valid ELF object (truncated or malformed: {e})")
        })?;
        if f.format() != object::BinaryFormat::Elf || !f.is_64() || !f.is_little_endian() {
            return Err(format!("object {i}: not a 64-bit little-endian ELF object"));
        }
        if f.architecture() != object::Architecture::X86_64 {
            return Err(format!(
                "object {i}: wrong machine {:?} (the native JIT loads x86_64 objects)",
                f.architecture()
            ));
        }
        if f.kind() != object::ObjectKind::Relocatable {
            return Err(format!(
                "object {i}: {:?} ELF, expected a relocatable object (ET_REL)",
                f.kind()
            ));
        }
        files.push(f);
    }

    // Classify and place sections.
    let mut placed: Vec<Placed> = Vec::new();
    for (oi, f) in files.iter().enumerate() {
        for s in f.sections() {
            let name = s
                .name()
                .map_err(|e| format!("object {oi}: bad section name: {e}"))?;
            let SectionFlags::Elf { sh_flags, .. } = s.flags() else {
                continue;
            };
            let nobits = s.kind() == object::SectionKind::UninitializedData;
            let Some(region) =
                section_class(name, sh_flags.0, nobits).map_err(|e| format!("object {oi}: {e}"))?
            else {
                continue;
            };
            placed.push(Placed {
                obj: oi,
                sec: s.index(),
                name: name.to_string(),
                region,
                offset: 0,
                size: s.size(),
                nobits,
            });
        }
    }
    // Stable sort keeps object order within a class.
    placed.sort_by_key(|p| {
        (
            p.region,
            if p.region == Region::Rw {
                rw_rank(&p.name)
            } else {
                0
            },
        )
    });

    // GOT slots: one per (object, symbol) any GOT-relative relocation names.
    let mut got_slots: HashMap<(usize, SymbolIndex), u64> = HashMap::new();
    for p in &placed {
        let s = files[p.obj].section_by_index(p.sec).unwrap();
        for (_, r) in s.relocations() {
            if let (RelocationFlags::Elf { r_type }, RelocationTarget::Symbol(si)) =
                (r.flags(), r.target())
            {
                if matches!(
                    r_type,
                    elf::R_X86_64_GOTPCREL | elf::R_X86_64_GOTPCRELX | elf::R_X86_64_REX_GOTPCRELX
                ) {
                    let n = got_slots.len() as u64;
                    got_slots.entry((p.obj, si)).or_insert(n);
                }
            }
        }
    }

    let mut region_size = [0u64; 3];
    let mut init_span = (0u64, 0u64);
    let mut fini_span = (0u64, 0u64);
    for p in placed.iter_mut() {
        let s = files[p.obj].section_by_index(p.sec).unwrap();
        let r = p.region as usize;
        let off = align_up(region_size[r], s.align());
        if p.name.starts_with(".init_array") || p.name.starts_with(".fini_array") {
            let span = if p.name.starts_with(".init") {
                &mut init_span
            } else {
                &mut fini_span
            };
            if span.1 == 0 {
                span.0 = off;
            }
            span.1 = off + p.size;
        }
        p.offset = off;
        region_size[r] = off + p.size;
    }
    let got_off = align_up(region_size[1], 8);
    region_size[1] = got_off + 8 * got_slots.len() as u64;
    let starts = [
        0,
        align_up(region_size[0].max(1), PAGE),
        align_up(region_size[0].max(1), PAGE) + align_up(region_size[1].max(1), PAGE),
    ];
    let total = starts[2] + align_up(region_size[2].max(1), PAGE);

    // SAFETY: a fresh private anonymous mapping; we own it until Image drops.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            total as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return Err(format!("cannot map {total} bytes for the JIT image"));
    }
    let mut image = Image {
        base: base as *mut u8,
        len: total as usize,
        entry: 0,
        sizes: region_size,
    };
    let b = base as u64;
    let mem = |addr: u64, len: usize| -> &mut [u8] {
        debug_assert!(addr >= b && addr + len as u64 <= b + total);
        // SAFETY: callers stay inside the mapping (checked by the relocation bounds below).
        unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, len) }
    };

    let mut sec_addr: HashMap<(usize, SectionIndex), u64> = HashMap::new();
    for p in &placed {
        let addr = b + starts[p.region as usize] + p.offset;
        sec_addr.insert((p.obj, p.sec), addr);
        if !p.nobits {
            let s = files[p.obj].section_by_index(p.sec).unwrap();
            let data = s
                .data()
                .map_err(|e| format!("object {}: section '{}': {e}", p.obj, p.name))?;
            if data.len() as u64 != p.size {
                return Err(format!(
                    "object {}: section '{}' is truncated",
                    p.obj, p.name
                ));
            }
            mem(addr, data.len()).copy_from_slice(data);
        }
    }

    // Symbols: defined ones by address; globals shared across objects.
    let rw0 = b + starts[2];
    let mut globals: HashMap<String, (u64, bool)> = HashMap::new();
    for (name, off) in [
        ("__init_array_start", init_span.0),
        ("__init_array_end", init_span.1),
        ("__fini_array_start", fini_span.0),
        ("__fini_array_end", fini_span.1),
    ] {
        globals.insert(name.to_string(), (rw0 + off, true));
    }
    let mut local: Vec<HashMap<SymbolIndex, u64>> = vec![HashMap::new(); files.len()];
    for (oi, f) in files.iter().enumerate() {
        for sym in f.symbols() {
            let addr = match sym.section() {
                SymbolSection::Section(si) => match sec_addr.get(&(oi, si)) {
                    Some(a) => a + sym.address(),
                    None => continue, // in a section not loaded; an error only if referenced
                },
                SymbolSection::Absolute => sym.address(),
                SymbolSection::Common => {
                    return Err(format!(
                        "object {oi}: common symbol '{}' (compile with -fno-common)",
                        sym.name().unwrap_or("?")
                    ))
                }
                _ => continue,
            };
            local[oi].insert(sym.index(), addr);
            if sym.is_global() {
                let name = sym.name().map_err(|e| e.to_string())?.to_string();
                let weak = sym.is_weak();
                match globals.get(&name) {
                    Some(&(_, false)) if !weak => return Err(format!("duplicate symbol '{name}'")),
                    Some(&(_, false)) => {}
                    _ => {
                        globals.insert(name, (addr, weak));
                    }
                }
            }
        }
    }
    let resolve = |oi: usize, si: SymbolIndex| -> Result<u64, String> {
        if let Some(a) = local[oi].get(&si) {
            return Ok(*a);
        }
        let sym = files[oi].symbol_by_index(si).map_err(|e| e.to_string())?;
        let name = sym.name().unwrap_or("?");
        if sym.is_undefined() {
            if let Some(&(a, _)) = globals.get(name) {
                return Ok(a);
            }
            if sym.is_weak() {
                return Ok(0);
            }
            return Err(format!(
                "undefined symbol '{name}' (the JIT resolves symbols among the program and \
                 garm's runtime only, never from the host process)"
            ));
        }
        Err(format!(
            "symbol '{name}' lies in a section the JIT does not load"
        ))
    };

    let got0 = b + starts[1] + got_off;
    for (&(oi, si), &slot) in &got_slots {
        let a = resolve(oi, si)?;
        mem(got0 + 8 * slot, 8).copy_from_slice(&a.to_le_bytes());
    }

    for p in &placed {
        let s = files[p.obj].section_by_index(p.sec).unwrap();
        let sbase = sec_addr[&(p.obj, p.sec)];
        for (off, r) in s.relocations() {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                return Err("non-ELF relocation".into());
            };
            let at = |what: &str| {
                format!(
                    "object {}: {} at {}+{off:#x}: {what}",
                    p.obj,
                    x86_64_reloc_name(r_type.0),
                    p.name
                )
            };
            let (s_addr, sym) = match r.target() {
                RelocationTarget::Symbol(si) => (resolve(p.obj, si).map_err(|e| at(&e))?, Some(si)),
                RelocationTarget::Section(si) => (
                    *sec_addr
                        .get(&(p.obj, si))
                        .ok_or_else(|| at("refers to a section not loaded"))?,
                    None,
                ),
                RelocationTarget::Absolute => (0, None),
                _ => return Err(at("unsupported relocation target")),
            };
            let a = r.addend();
            let place = sbase + off;
            let width = match r_type {
                elf::R_X86_64_64 | elf::R_X86_64_PC64 => 8,
                _ => 4,
            };
            if off + width > p.size || p.nobits {
                return Err(at("outside its section"));
            }
            let sa = (s_addr as i64).wrapping_add(a);
            let value: i64 = match r_type {
                elf::R_X86_64_64 => sa,
                elf::R_X86_64_PC64 => sa.wrapping_sub(place as i64),
                elf::R_X86_64_PC32 | elf::R_X86_64_PLT32 => sa.wrapping_sub(place as i64),
                elf::R_X86_64_32 | elf::R_X86_64_32S => sa,
                elf::R_X86_64_GOTPCREL | elf::R_X86_64_GOTPCRELX | elf::R_X86_64_REX_GOTPCRELX => {
                    let si = sym.ok_or_else(|| at("GOT relocation without a symbol"))?;
                    let g = got0 + 8 * got_slots[&(p.obj, si)];
                    (g as i64).wrapping_add(a).wrapping_sub(place as i64)
                }
                _ => return Err(at("unsupported relocation")),
            };
            let field = mem(place, width as usize);
            match r_type {
                elf::R_X86_64_64 | elf::R_X86_64_PC64 => {
                    field.copy_from_slice(&value.to_le_bytes())
                }
                elf::R_X86_64_32 => {
                    let v = u32::try_from(value)
                        .map_err(|_| at(&format!("value {value:#x} out of range for 32 bits")))?;
                    field.copy_from_slice(&v.to_le_bytes());
                }
                _ => {
                    let v = i32::try_from(value).map_err(|_| {
                        at(&format!("value {value:#x} out of range for signed 32 bits"))
                    })?;
                    field.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }

    let entry_addr = match globals.get(entry) {
        Some(&(a, _)) if a >= b && a < b + starts[1] => a,
        Some(_) => return Err(format!("entry symbol '{entry}' is not code")),
        None => return Err(format!("entry symbol '{entry}' not found")),
    };

    // W^X: code becomes RX and constants (with the GOT) R; data stays RW.
    let protect = |start: u64, len: u64, prot: i32| -> Result<(), String> {
        // SAFETY: a page-aligned range inside our mapping.
        let r = unsafe { libc::mprotect((b + start) as *mut libc::c_void, len as usize, prot) };
        if r != 0 {
            return Err(format!(
                "mprotect failed: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(())
    };
    protect(0, starts[1], libc::PROT_READ | libc::PROT_EXEC)?;
    protect(starts[1], starts[2] - starts[1], libc::PROT_READ)?;
    image.entry = entry_addr;
    Ok(image)
}
