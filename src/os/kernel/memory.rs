//! Memory mappings inside a process's flat window: mmap (anonymous and file copies), mremap,
//! munmap. Mappings grow down from below the stack reserve; brk grows up to meet them.

use super::*;
use crate::loader;
use crate::os::vfs::Node;

const PAGE: u64 = 4096;

/// `len` rounded up to whole pages, if it fits the process at all.
fn pages(len: u64, mem: u64) -> Option<u64> {
    len.checked_add(PAGE - 1)
        .map(|l| l / PAGE * PAGE)
        .filter(|&l| l <= mem)
}

pub fn mmap(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (want, len, flags, fd, off) = (c.a[0], c.a[1], c.a[3], c.i(4), c.a[5]);
    let mem = c.g.mem_bytes();
    if len == 0 || off & (PAGE - 1) != 0 {
        return Err(EINVAL.into());
    }
    let len = pages(len, mem).ok_or(ENOMEM)?;
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
                use std::os::unix::fs::FileExt;
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
    let addr = if flags & MAP_FIXED != 0 {
        if want & (PAGE - 1) != 0
            || want.checked_add(len).is_none_or(|e| e > mem)
            || want < loader::LO_BOUND as u64
        {
            return Err(EINVAL.into());
        }
        want
    } else {
        let brk = c.g.st(c.slot)[layout::S_BRK] as u64;
        let p = k.proc_mut(c.pid);
        let low = p.mmap_low.saturating_sub(len);
        if low < brk.div_ceil(PAGE) * PAGE + PAGE {
            return Err(ENOMEM.into());
        }
        p.mmap_low = low;
        c.g.st_mut(c.slot)[layout::S_BRK_MAX] = low as u32;
        low
    };
    let mut data = vec![0u8; len as usize];
    if let Some(src) = src {
        data[..src.len()].copy_from_slice(&src);
    }
    // A mapping replaces what was there, read-only segments included (MAP_FIXED).
    c.g.write_mem(c.slot, addr, &data)?;
    ret(addr)
}

/// Mappings are never given back (the window is small and flat): munmap only checks.
pub fn munmap(_k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] & (PAGE - 1) != 0 || c.a[1] == 0 {
        return Err(EINVAL.into());
    }
    ret(0)
}

/// mremap: shrinking keeps the mapping; growing moves it (with MREMAP_MAYMOVE) to a fresh
/// region, copying the bytes.
pub fn mremap(k: &mut Kernel, c: &mut Call) -> SysResult {
    let mem = c.g.mem_bytes();
    let old = c.a[0];
    let (Some(old_len), Some(new_len)) = (pages(c.a[1], mem), pages(c.a[2], mem)) else {
        return Err(ENOMEM.into());
    };
    if old & (PAGE - 1) != 0 || new_len == 0 {
        return Err(EINVAL.into());
    }
    // Nothing is mapped outside the process's window (Linux: EFAULT for an unmapped address).
    if old < loader::LO_BOUND as u64 || old.checked_add(old_len).is_none_or(|e| e > mem) {
        return Err(EFAULT.into());
    }
    if new_len <= old_len {
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
    ret(new)
}

/// mmap of something that is not a regular file (Linux: ENODEV for most, EACCES for some).
const ENODEV_OR_EACCES: Errno = EACCES;
