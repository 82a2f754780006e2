//! Memory mappings in a process's address space: mmap (anonymous zero pages given frames on
//! first touch, file contents copied in), munmap, mprotect, mremap. Mappings without an address
//! grow down from the mmap area's top (loader::process::mmap_top); `--mem` caps their total.

use super::*;
use crate::guest::Perm;
use crate::loader;
use crate::os::vfs::Node;

const PAGE: u64 = 4096;
const VA_LIMIT: u64 = 1 << 48;

/// `len` rounded up to whole pages, if it fits the address space at all.
fn pages(len: u64) -> Option<u64> {
    len.checked_add(PAGE - 1)
        .map(|l| l / PAGE * PAGE)
        .filter(|&l| l <= VA_LIMIT)
}

/// The rights PROT_READ/WRITE/EXEC ask for (the same bits).
fn perm(prot: u64) -> Perm {
    Perm((prot & 7) as u8)
}

/// How many pages of `[addr, addr + len)` (page-aligned) are mapped: none means free, all means
/// a range with no holes.
fn mapped_pages(c: &Call, addr: u64, len: u64) -> u64 {
    (addr..addr + len)
        .step_by(PAGE as usize)
        .filter(|&a| c.g.perm(c.slot, a).is_some())
        .count() as u64
}

fn free(c: &Call, addr: u64, len: u64) -> bool {
    mapped_pages(c, addr, len) == 0
}

fn fully_mapped(c: &Call, addr: u64, len: u64) -> bool {
    mapped_pages(c, addr, len) == len.div_ceil(PAGE)
}

/// Whether `[addr, addr + len)` is a place a mapping may go: page-aligned, above the null
/// guard, inside the address space.
fn placeable(addr: u64, len: u64) -> bool {
    addr & (PAGE - 1) == 0
        && addr >= loader::LO_BOUND as u64
        && addr.checked_add(len).is_some_and(|e| e <= VA_LIMIT)
}

/// Whether a mapping of `len` bytes fits under the process's cap (`--mem`, or a lower
/// RLIMIT_AS it set): what is mapped, less the heap's reserve above the break (it counts once
/// it is used).
fn within_cap(k: &Kernel, c: &Call, len: u64) -> bool {
    let s = c.g.st(c.slot);
    let unused_heap = (s[layout::S_BRK_MAX] as u64).saturating_sub(s[layout::S_BRK] as u64);
    let used = c.g.mapped_bytes(c.slot).saturating_sub(unused_heap);
    let limit = super::misc::rlimit_of(k, &*c.g, c.pid, crate::os::abi::rlimit::AS).cur;
    used.saturating_add(len) <= c.g.mem_bytes().min(limit)
}

/// ENOMEM for a mapping past the cap, said once per run (a program that does not check, as
/// pthread_create's callers often do not, fails later and far from the cause).
fn over_cap(k: &mut Kernel, pid: Pid) -> Fail {
    if !k.mem_note {
        k.mem_note = true;
        crate::elog!(
            "garm: pid {}: a mapping would pass the process's memory cap (--mem): ENOMEM (raise --mem)",
            k.tg(pid)
        );
    }
    ENOMEM.into()
}

pub fn mmap(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (want, len, prot, flags, fd, off) = (c.a[0], c.a[1], c.a[2], c.a[3], c.i(4), c.a[5]);
    if len == 0 || off & (PAGE - 1) != 0 {
        return Err(EINVAL.into());
    }
    let len = pages(len).ok_or(ENOMEM)?;
    // The bytes of a file mapping are copied in: read them before anything is allocated.
    let src: Option<Vec<u8>> = if flags & MAP_ANONYMOUS == 0 {
        let f = k.fd(c.pid, fd)?;
        let of = f.file.borrow();
        Some(match &of.kind {
            Kind::Mem(i) => match &k.vfs.inodes[*i].node {
                Node::File(d) => {
                    let start = (off as usize).min(d.len());
                    d[start..(start + len as usize).min(d.len())].to_vec()
                }
                _ => return Err(ENODEV_OR_EACCES.into()),
            },
            Kind::Host(file, ..) => {
                // Through the open file, not its path: the path may name something else now.
                use crate::os::host::FileExt;
                let mut b = vec![0u8; len as usize];
                let n = file.read_at(&mut b, off).unwrap_or(0);
                b.truncate(n);
                b
            }
            _ => return Err(ENODEV_OR_EACCES.into()),
        })
    } else {
        None
    };
    if !within_cap(k, c, len) {
        return Err(over_cap(k, c.pid));
    }
    let addr = if flags & (MAP_FIXED | MAP_FIXED_NOREPLACE) != 0 {
        if !placeable(want, len) {
            return Err(EINVAL.into());
        }
        if flags & MAP_FIXED == 0 && !free(c, want, len) {
            return Err(EEXIST.into());
        }
        want
    } else if want != 0 && placeable(want, len) && free(c, want, len) {
        // A hint where nothing is mapped is taken, as Linux does.
        want
    } else {
        let heap_end = c.g.st(c.slot)[layout::S_BRK_MAX] as u64;
        let p = k.process_mut(c.pid);
        let low = p.mmap_low.saturating_sub(len);
        if low < heap_end.div_ceil(PAGE) * PAGE + PAGE || low < loader::LO_BOUND as u64 {
            return Err(ENOMEM.into());
        }
        p.mmap_low = low;
        low
    };
    // A mapping replaces what was there (MAP_FIXED), decoded code included.
    match src {
        None if flags & MAP_SHARED != 0 => {
            c.g.map_shared_anon(c.slot, addr, len, perm(prot))?;
            k.process_mut(c.pid).shares_memory = true;
        }
        None => c.g.map(c.slot, addr, len, perm(prot), false)?,
        Some(src) => {
            c.g.map(c.slot, addr, len, Perm::RW, true)?;
            c.g.write_mem(c.slot, addr, &src)?;
            c.g.protect(c.slot, addr, len, perm(prot))?;
        }
    }
    ret(addr)
}

pub fn munmap(_k: &mut Kernel, c: &mut Call) -> SysResult {
    let (addr, len) = (c.a[0], c.a[1]);
    if addr & (PAGE - 1) != 0 || len == 0 {
        return Err(EINVAL.into());
    }
    let len = pages(len).ok_or(EINVAL)?;
    if addr.checked_add(len).is_none_or(|e| e > VA_LIMIT) {
        return Err(EINVAL.into());
    }
    c.g.unmap(c.slot, addr, len)?;
    ret(0)
}

pub fn mprotect(_k: &mut Kernel, c: &mut Call) -> SysResult {
    let (addr, len, prot) = (c.a[0], c.a[1], c.a[2]);
    if addr & (PAGE - 1) != 0 || prot & !7 != 0 {
        return Err(EINVAL.into());
    }
    let len = pages(len).ok_or(ENOMEM)?;
    if addr.checked_add(len).is_none_or(|e| e > VA_LIMIT) {
        return Err(ENOMEM.into());
    }
    // Linux: ENOMEM when part of the range is not mapped.
    if !fully_mapped(c, addr, len) {
        return Err(ENOMEM.into());
    }
    c.g.protect(c.slot, addr, len, perm(prot))?;
    ret(0)
}

/// mremap: shrinking unmaps the tail; growing extends in place when the pages after are free,
/// else (with MREMAP_MAYMOVE) moves to a fresh mapping with the bytes copied.
pub fn mremap(k: &mut Kernel, c: &mut Call) -> SysResult {
    let old = c.a[0];
    let (Some(old_len), Some(new_len)) = (pages(c.a[1]), pages(c.a[2])) else {
        return Err(ENOMEM.into());
    };
    if old & (PAGE - 1) != 0 || new_len == 0 {
        return Err(EINVAL.into());
    }
    // Linux: EFAULT for a range that is not all mapped.
    if !placeable(old, old_len.max(PAGE)) || !fully_mapped(c, old, old_len.max(PAGE)) {
        return Err(EFAULT.into());
    }
    let rights = c.g.perm(c.slot, old).unwrap_or(Perm::RW);
    if new_len <= old_len {
        c.g.unmap(c.slot, old + new_len, old_len - new_len)?;
        return ret(old);
    }
    let grow = new_len - old_len;
    if !within_cap(k, c, grow) {
        return Err(over_cap(k, c.pid));
    }
    // In place when the pages after are free, but not past the mmap area's top into the gap
    // Linux keeps below the stack (there Linux moves the mapping too).
    let area_top = loader::process::mmap_top(c.g.mem_bytes());
    let below_top = old >= area_top || old + new_len <= area_top;
    if placeable(old, new_len) && below_top && free(c, old + old_len, grow) {
        c.g.map(c.slot, old + old_len, grow, rights, false)?;
        return ret(old);
    }
    if c.a[3] & MREMAP_MAYMOVE == 0 {
        return Err(ENOMEM.into());
    }
    let bytes = c.read(old, old_len as usize)?;
    let mut anon = Call {
        g: &mut *c.g,
        out: &mut *c.out,
        slot: c.slot,
        pid: c.pid,
        nr: crate::os::nr::MMAP,
        a: [0, new_len, 3, MAP_ANONYMOUS | 2, u64::MAX, 0],
        readonly: Vec::new(),
    };
    let Sys::Ret(new) = mmap(k, &mut anon)? else {
        unreachable!("anonymous mmap never blocks")
    };
    c.write(new as u64, &bytes)?;
    c.g.protect(c.slot, new as u64, new_len, rights)?;
    c.g.unmap(c.slot, old, old_len)?;
    ret(new)
}

/// mmap of something that is not a regular file (Linux: ENODEV for most, EACCES for some).
const ENODEV_OR_EACCES: Errno = EACCES;

/// brk, when the shader leaves it to the host (a process with threads: each thread's slot has a
/// copy of the break, and all are kept equal here). The heap is mapped lazily up to its cap at
/// load, so moving the break is bookkeeping only.
pub fn brk(k: &mut Kernel, c: &mut Call) -> SysResult {
    let s = c.g.st(c.slot);
    let (lo, hi, cur) = (
        s[layout::S_BRK_MIN] as u64,
        s[layout::S_BRK_MAX] as u64,
        s[layout::S_BRK],
    );
    let want = c.a[0];
    let new = if (lo..=hi).contains(&want) {
        want as u32
    } else {
        cur
    };
    for t in k.threads_of(c.pid) {
        if let Some(slot) = k.procs[&t].slot {
            c.g.st_mut(slot)[layout::S_BRK] = new;
        }
    }
    ret(new as i64)
}
