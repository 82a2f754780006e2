//! Filesystem metadata calls: statfs/fstatfs, fsync/fdatasync/sync, fchmod/fchmodat.

use super::fs::at;
use super::*;
use crate::os::host::libc;
use crate::os::vfs;

/// The statfs of a target: garm's own tree as a tmpfs sized by `--fs-limit`, a mount as the host
/// reports its filesystem.
fn statfs_of(k: &Kernel, t: &Target) -> Result<Statfs, Errno> {
    match t {
        Target::Mem(_) => {
            let blocks = k.vfs.limit / 4096;
            let free = k.vfs.limit.saturating_sub(k.vfs.used) / 4096;
            Ok(Statfs {
                ty: TMPFS_MAGIC,
                bsize: 4096,
                blocks,
                bfree: free,
                bavail: free,
                files: k.vfs.inodes.len() as u64 + 1_000_000,
                ffree: 1_000_000,
                namelen: 255,
                frsize: 4096,
                ..Default::default()
            })
        }
        Target::Host(p, ro) => {
            let path =
                std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).map_err(|_| ENOENT)?;
            let mut st: libc::statfs = unsafe { std::mem::zeroed() };
            // SAFETY: a NUL-terminated path and a statfs struct to fill.
            if unsafe { libc::statfs(path.as_ptr(), &mut st) } != 0 {
                return Err(Errno::from_io(&std::io::Error::last_os_error()));
            }
            Ok(Statfs {
                ty: st.f_type as i64,
                bsize: st.f_bsize as i64,
                blocks: st.f_blocks as u64,
                bfree: st.f_bfree as u64,
                bavail: st.f_bavail as u64,
                files: st.f_files as u64,
                ffree: st.f_ffree as u64,
                namelen: st.f_namelen as i64,
                frsize: st.f_frsize as i64,
                // ST_RDONLY for a read-only mount.
                flags: if *ro { 1 } else { 0 },
                ..Default::default()
            })
        }
    }
}

pub fn statfs(k: &mut Kernel, c: &mut Call) -> SysResult {
    let path = c.cstr(c.a[0])?;
    let cwd = k.process(c.pid).cwd.clone();
    let t = k.vfs.resolve(&cwd, &path, true)?;
    let st = statfs_of(k, &t)?;
    c.write_obj(c.a[1], &st)?;
    ret(0)
}

pub fn fstatfs(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let t = match &f.file.borrow().kind {
        Kind::Dir(t, _) => t.clone(),
        Kind::Mem(i) => Target::Mem(*i),
        Kind::Host(_, p, ro) => Target::Host(p.clone(), *ro),
        _ => Target::Mem(0),
    };
    let st = statfs_of(k, &t)?;
    c.write_obj(c.a[1], &st)?;
    ret(0)
}

/// fsync/fdatasync: files are in memory or written through to the host at once; a pipe or the
/// console cannot be synced (EINVAL, as Linux says).
pub fn fsync(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let of = f.file.borrow();
    match &of.kind {
        Kind::Host(file, ..) => {
            file.sync_data()?;
            ret(0)
        }
        Kind::Mem(_) | Kind::Dir(..) => ret(0),
        _ => Err(EINVAL.into()),
    }
}

pub fn sync(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    ret(0)
}

/// fchmodat(dirfd, path, mode, flags) and fchmod(fd, mode): the permission bits.
pub fn fchmodat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd, path) = at(k, c, 0, 1)?;
    let t = k.vfs.resolve(&cwd, &path, true)?;
    chmod(k, t, c.a[2] as u32)
}

pub fn fchmod(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let t = match &f.file.borrow().kind {
        Kind::Dir(t, _) => t.clone(),
        Kind::Mem(i) => Target::Mem(*i),
        Kind::Host(_, p, ro) => Target::Host(p.clone(), *ro),
        _ => return ret(0),
    };
    chmod(k, t, c.a[1] as u32)
}

fn chmod(k: &mut Kernel, t: Target, mode: u32) -> SysResult {
    match t {
        Target::Mem(i) => {
            let ino = &mut k.vfs.inodes[i];
            ino.mode = (ino.mode & vfs::S_IFMT) | (mode & 0o7777);
            ret(0)
        }
        Target::Host(p, ro) => {
            if ro {
                return Err(EROFS.into());
            }
            use crate::os::host::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode & 0o7777))?;
            ret(0)
        }
    }
}
