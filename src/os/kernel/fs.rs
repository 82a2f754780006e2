//! Paths and the filesystem: open, stat, directories, links, renames, the working directory.

use super::*;
use crate::os::host::libc;
use crate::os::vfs::{self, Node};

fn is_dir(k: &Kernel, t: &Target) -> bool {
    match t {
        Target::Mem(i) => matches!(k.vfs.inodes[*i].node, Node::Dir(_) | Node::Mount { .. }),
        Target::Host(p, _) => std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()),
    }
}

pub fn getcwd(k: &mut Kernel, c: &mut Call) -> SysResult {
    let mut cwd = k.process(c.pid).cwd.clone().into_bytes();
    cwd.push(0);
    if cwd.len() > c.a[1] as usize {
        return Err(ERANGE.into());
    }
    c.write(c.a[0], &cwd)?;
    ret(cwd.len())
}

pub fn chdir(k: &mut Kernel, c: &mut Call) -> SysResult {
    let path = c.cstr(c.a[0])?;
    set_cwd(k, c.pid, &path)
}

pub fn fchdir(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.i(0) == AT_FDCWD {
        return Err(EBADF.into());
    }
    let path = k.cwd_for(c.pid, c.i(0))?;
    set_cwd(k, c.pid, &path)
}

fn set_cwd(k: &mut Kernel, pid: Pid, path: &str) -> SysResult {
    let cwd = k.process(pid).cwd.clone();
    let t = k.vfs.resolve(&cwd, path, true)?;
    if !is_dir(k, &t) {
        return Err(ENOTDIR.into());
    }
    k.process_mut(pid).cwd = normalize(&cwd, path);
    ret(0)
}

pub fn umask(k: &mut Kernel, c: &mut Call) -> SysResult {
    let p = k.process_mut(c.pid);
    let old = p.umask;
    p.umask = c.a[0] as u32 & 0o777;
    ret(old)
}

pub fn openat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let path = c.cstr(c.a[1])?;
    // The flags are a C int, and Linux keeps only the bits it defines (VALID_OPEN_FLAGS, all
    // below bit 23), so F_GETFL never reads back a stray high bit.
    let (pid, flags, mode) = (c.pid, c.a[2] & 0x7f_ffff, c.a[3] as u32);
    let cwd = k.cwd_for(pid, c.i(0))?;
    let umask = k.process(pid).umask;
    let follow = flags & O_NOFOLLOW == 0;
    let wr = flags & O_ACCMODE != 0 || flags & (O_TRUNC | O_CREAT) != 0;
    let target = match k.vfs.resolve(&cwd, &path, follow) {
        Ok(t) => {
            if flags & O_CREAT != 0 && flags & O_EXCL != 0 {
                return Err(EEXIST.into());
            }
            t
        }
        Err(ENOENT) if flags & O_CREAT != 0 => {
            let (parent, name) = k.vfs.resolve_parent(&cwd, &path)?;
            match parent {
                Target::Mem(dir) => Target::Mem(k.vfs.create_file(dir, &name, mode & !umask)?),
                Target::Host(p, ro) => {
                    if ro {
                        return Err(EROFS.into());
                    }
                    Target::Host(p.join(name), ro)
                }
            }
        }
        Err(e) => return Err(e.into()),
    };
    if let Target::Mem(i) = target {
        if let Node::Symlink(_) = k.vfs.inodes[i].node {
            return Err(ELOOP.into());
        }
    }
    let dir = is_dir(k, &target);
    if flags & O_DIRECTORY != 0 && !dir {
        return Err(ENOTDIR.into());
    }
    let kind = if dir {
        if flags & O_ACCMODE != 0 {
            return Err(EISDIR.into());
        }
        if let Target::Mem(i) = target {
            k.vfs.opened(i);
        }
        Kind::Dir(target, normalize(&cwd, &path))
    } else {
        match target {
            Target::Mem(i) => {
                match &k.vfs.inodes[i].node {
                    Node::File(_) if flags & O_TRUNC != 0 && flags & O_ACCMODE != 0 => {
                        k.vfs.resize_file(i, 0)?
                    }
                    // Sockets are reached with connect, not open (as Linux).
                    Node::Socket(_) => return Err(ENXIO.into()),
                    Node::Proc(pf) => {
                        if flags & O_ACCMODE != 0 {
                            return Err(EACCES.into());
                        }
                        let bytes = procfs::generate(k, c.g, pid, c.slot, *pf);
                        let f = k.new_fd(Kind::Bytes(Rc::from(bytes)), flags & O_CLOEXEC);
                        return ret(k.install_fd(pid, f, 0)?);
                    }
                    Node::Dev(d) => {
                        let f = k.new_fd(
                            Kind::Dev(*d),
                            flags & !(O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY),
                        );
                        return ret(k.install_fd(pid, f, 0)?);
                    }
                    _ => {}
                }
                k.vfs.opened(i);
                Kind::Mem(i)
            }
            Target::Host(p, ro) => {
                if ro && wr {
                    return Err(EROFS.into());
                }
                let mut o = std::fs::OpenOptions::new();
                o.read(flags & O_ACCMODE != O_WRONLY)
                    .write(flags & O_ACCMODE != 0)
                    .create(flags & O_CREAT != 0)
                    .truncate(flags & O_TRUNC != 0 && flags & O_ACCMODE != 0);
                if flags & O_CREAT != 0 && flags & O_ACCMODE == 0 {
                    o.write(true);
                }
                // Resolution already followed every link it allows; a symlink the host would
                // follow here could point outside the mount, so refuse it (ELOOP). O_NONBLOCK
                // keeps a host FIFO from stalling every guest.
                use crate::os::host::OpenOptionsExt;
                o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
                Kind::Host(o.open(&p)?, p, ro)
            }
        }
    };
    // The creation flags act once, at open: F_GETFL does not show them (as Linux).
    let kept = flags & !(O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY);
    ret(k.install_fd(pid, k.new_fd(kind, kept), 0)?)
}

fn stat_mem(k: &Kernel, i: Ino) -> Stat {
    let ino = &k.vfs.inodes[i];
    let size = match &ino.node {
        Node::File(d) => d.len() as u64,
        Node::Symlink(s) => s.len() as u64,
        Node::Dir(_) => 4096,
        _ => 0,
    };
    let mut s = Stat::new(i as u64 + 1, ino.mode, size, 1);
    s.mtime = ino.mtime;
    s
}

fn stat_target(k: &Kernel, t: &Target) -> Result<Stat, Errno> {
    match t {
        Target::Mem(i) => Ok(stat_mem(k, *i)),
        // Never follows a host link: resolution already followed the ones it allows, so a link
        // left at the end of the path is to be described, not crossed.
        Target::Host(p, _) => Ok(Stat::from_metadata(&std::fs::symlink_metadata(p)?)),
    }
}

fn stat_of_file(k: &Kernel, of: &OpenFile) -> Stat {
    match &of.kind {
        Kind::Mem(i) => stat_mem(k, *i),
        Kind::Host(file, ..) => file
            .metadata()
            .map(|md| Stat::from_metadata(&md))
            .unwrap_or_else(|_| Stat::new(0, vfs::S_IFREG | 0o644, 0, 1)),
        Kind::Dir(t, _) => {
            stat_target(k, t).unwrap_or_else(|_| Stat::new(0, vfs::S_IFDIR | 0o755, 0, 1))
        }
        Kind::PipeR(p) | Kind::PipeW(p) => Stat::new(1000 + *p as u64, vfs::S_IFIFO | 0o600, 0, 1),
        Kind::Sock(rx, _) => Stat::new(1_000_000 + *rx as u64, vfs::S_IFSOCK | 0o777, 0, 1),
        Kind::Unix(key) => Stat::new(2_000_000 + *key, vfs::S_IFSOCK | 0o777, 0, 1),
        Kind::Net(_) => Stat::new(3, vfs::S_IFSOCK | 0o777, 0, 1),
        // /proc files say size 0, as Linux's (readers read to end of file).
        Kind::Bytes(_) => Stat::new(4, vfs::S_IFREG | 0o444, 0, 1),
        _ => Stat::new(2, vfs::S_IFCHR | 0o620, 0, 1),
    }
}

pub fn fstat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let st = stat_of_file(k, &f.file.borrow());
    c.write_obj(c.a[1], &st)?;
    ret(0)
}

/// The stat of `dirfd`+`path` as newfstatat and statx see it (AT_EMPTY_PATH: the fd itself).
fn stat_at(k: &Kernel, c: &mut Call, flags: u64) -> Result<Stat, Fail> {
    let path = c.cstr(c.a[1])?;
    if path.is_empty() && flags & AT_EMPTY_PATH != 0 {
        let f = k.fd(c.pid, c.i(0))?;
        let b = f.file.borrow();
        return Ok(stat_of_file(k, &b));
    }
    let cwd = k.cwd_for(c.pid, c.i(0))?;
    let t = k
        .vfs
        .resolve(&cwd, &path, flags & AT_SYMLINK_NOFOLLOW == 0)?;
    Ok(stat_target(k, &t)?)
}

pub fn newfstatat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let st = stat_at(k, c, c.a[3])?;
    c.write_obj(c.a[2], &st)?;
    ret(0)
}

pub fn statx(k: &mut Kernel, c: &mut Call) -> SysResult {
    let st = stat_at(k, c, c.a[2])?;
    c.write_obj(c.a[4], &Statx::from(&st))?;
    ret(0)
}

/// The cwd a path call resolves from, and its path.
pub(super) fn at(
    k: &Kernel,
    c: &mut Call,
    dirfd: usize,
    path: usize,
) -> Result<(String, String), Fail> {
    let p = c.cstr(c.a[path])?;
    Ok((k.cwd_for(c.pid, c.i(dirfd))?, p))
}

pub fn faccessat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd, path) = at(k, c, 0, 1)?;
    k.vfs.resolve(&cwd, &path, true)?;
    ret(0)
}

pub fn utimensat(k: &mut Kernel, c: &mut Call) -> SysResult {
    faccessat(k, c)
}

pub fn mkdirat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd, path) = at(k, c, 0, 1)?;
    if k.vfs.resolve(&cwd, &path, false).is_ok() {
        return Err(EEXIST.into());
    }
    match k.vfs.resolve_parent(&cwd, &path)? {
        (Target::Mem(d), name) => {
            if !matches!(k.vfs.inodes[d].node, Node::Dir(_)) {
                return Err(ENOTDIR.into());
            }
            let mode = vfs::S_IFDIR | (c.a[2] as u32 & 0o777 & !k.process(c.pid).umask);
            k.vfs.add(d, &name, Node::Dir(BTreeMap::new()), mode);
            ret(0)
        }
        (Target::Host(p, ro), name) => {
            if ro {
                return Err(EROFS.into());
            }
            std::fs::create_dir(p.join(name))?;
            ret(0)
        }
    }
}

pub fn unlinkat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd, path) = at(k, c, 0, 1)?;
    let rmdir = c.a[2] & AT_REMOVEDIR != 0;
    match k.vfs.resolve_parent(&cwd, &path)? {
        (Target::Mem(d), name) => {
            let ch = k.vfs.child(d, &name).ok_or(ENOENT)?;
            let dir = matches!(k.vfs.inodes[ch].node, Node::Dir(_) | Node::Mount { .. });
            if rmdir && matches!(k.vfs.inodes[ch].node, Node::Mount { .. }) {
                return Err(EBUSY.into());
            }
            if rmdir != dir {
                return Err(if rmdir { ENOTDIR } else { EISDIR }.into());
            }
            if let Node::Dir(mm) = &k.vfs.inodes[ch].node {
                if !mm.is_empty() {
                    return Err(ENOTEMPTY.into());
                }
            }
            k.vfs.remove(d, &name);
            ret(0)
        }
        (Target::Host(p, ro), name) => {
            if ro {
                return Err(EROFS.into());
            }
            let q = p.join(name);
            if rmdir {
                std::fs::remove_dir(q)?
            } else {
                std::fs::remove_file(q)?
            }
            ret(0)
        }
    }
}

pub fn readlinkat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd, path) = at(k, c, 0, 1)?;
    if (c.a[3] as i64) <= 0 {
        return Err(EINVAL.into());
    }
    let s = match k.vfs.resolve(&cwd, &path, false)? {
        Target::Mem(i) if i == k.vfs.exe_ino => k.process(c.pid).exe_path.clone(),
        Target::Mem(i) => match &k.vfs.inodes[i].node {
            Node::Symlink(s) => s.clone(),
            _ => return Err(EINVAL.into()),
        },
        Target::Host(p, _) => std::fs::read_link(p)?.to_string_lossy().into_owned(),
    };
    let b = &s.as_bytes()[..s.len().min(c.a[3] as usize)];
    c.write(c.a[2], b)?;
    ret(b.len())
}

pub fn symlinkat(k: &mut Kernel, c: &mut Call) -> SysResult {
    let target = c.cstr(c.a[0])?;
    let (cwd, link) = at(k, c, 1, 2)?;
    if k.vfs.resolve(&cwd, &link, false).is_ok() {
        return Err(EEXIST.into());
    }
    match k.vfs.resolve_parent(&cwd, &link)? {
        (Target::Mem(d), name) => {
            k.vfs
                .add(d, &name, Node::Symlink(target), vfs::S_IFLNK | 0o777);
            ret(0)
        }
        (Target::Host(p, ro), name) => {
            if ro {
                return Err(EROFS.into());
            }
            if target.starts_with('/') {
                return Err(EPERM.into());
            }
            crate::os::host::symlink(target, p.join(name))?;
            ret(0)
        }
    }
}

/// renameat, renameat2 (RENAME_NOREPLACE) and linkat.
pub fn rename_or_link(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (cwd1, from) = at(k, c, 0, 1)?;
    let (cwd2, to) = at(k, c, 2, 3)?;
    let link = c.nr == crate::os::nr::LINKAT;
    // renameat2: RENAME_NOREPLACE only (EXCHANGE and WHITEOUT are not implemented: EINVAL).
    if c.nr == crate::os::nr::RENAMEAT2 && c.a[4] & !1 != 0 {
        return Err(EINVAL.into());
    }
    let noreplace = c.nr == crate::os::nr::RENAMEAT2 && c.a[4] & 1 != 0;
    let (p1, n1) = k.vfs.resolve_parent(&cwd1, &from)?;
    let (p2, n2) = k.vfs.resolve_parent(&cwd2, &to)?;
    match (p1, p2) {
        (Target::Mem(d1), Target::Mem(d2)) => {
            let ch = k.vfs.child(d1, &n1).ok_or(ENOENT)?;
            if !matches!(k.vfs.inodes[d2].node, Node::Dir(_)) {
                return Err(ENOTDIR.into());
            }
            let dir = matches!(k.vfs.inodes[ch].node, Node::Dir(_) | Node::Mount { .. });
            if !link && matches!(k.vfs.inodes[ch].node, Node::Mount { .. }) {
                return Err(EBUSY.into());
            }
            // A directory named from several instances' roots is shared: moving it would give it
            // one parent for all (EBUSY, as for a mount point).
            if !link && dir && k.vfs.inodes[ch].nlink > 1 {
                return Err(EBUSY.into());
            }
            // Two names of one file: rename does nothing (RENAME_NOREPLACE: the name exists).
            if !link && k.vfs.child(d2, &n2) == Some(ch) {
                return if noreplace {
                    Err(EEXIST.into())
                } else {
                    ret(0)
                };
            }
            // The tree must stay a tree: no hard links to directories, no directory moved below
            // itself (path_of and resolution walk parents).
            let mut up = d2;
            // Up to the root, which is its own parent (bounded, whatever the tree).
            let mut steps = k.vfs.inodes.len();
            while dir && k.vfs.inodes[up].parent != up && steps > 0 {
                steps -= 1;
                if up == ch {
                    return Err(EINVAL.into());
                }
                up = k.vfs.inodes[up].parent;
            }
            if link {
                if dir {
                    return Err(EPERM.into());
                }
                if k.vfs.child(d2, &n2).is_some() {
                    return Err(EEXIST.into());
                }
                k.vfs.link(d2, &n2, ch);
                return ret(0);
            }
            if let Some(old) = k.vfs.child(d2, &n2).filter(|&o| o != ch) {
                if noreplace {
                    return Err(EEXIST.into());
                }
                // Linux's rules for replacing: same kind, and a directory only when empty.
                match (&k.vfs.inodes[old].node, dir) {
                    (Node::Dir(m), true) if !m.is_empty() => return Err(ENOTEMPTY.into()),
                    (Node::Dir(_) | Node::Mount { .. }, false) => return Err(EISDIR.into()),
                    (Node::Mount { .. }, true) => return Err(EBUSY.into()),
                    (Node::Dir(_), true) => {}
                    (_, true) => return Err(ENOTDIR.into()),
                    _ => {}
                }
            }
            k.vfs.move_entry(d1, &n1, d2, &n2);
            ret(0)
        }
        (Target::Host(h1, ro1), Target::Host(h2, ro2)) => {
            if ro1 || ro2 {
                return Err(EROFS.into());
            }
            if link {
                std::fs::hard_link(h1.join(n1), h2.join(n2))?
            } else if noreplace {
                // The host's own renameat2, so an existing name is never replaced.
                let cs = |p: std::path::PathBuf| {
                    std::ffi::CString::new(p.into_os_string().into_encoded_bytes())
                        .map_err(|_| EINVAL)
                };
                let (from, to) = (cs(h1.join(n1))?, cs(h2.join(n2))?);
                // SAFETY: two NUL-terminated paths.
                let r = unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        from.as_ptr(),
                        libc::AT_FDCWD,
                        to.as_ptr(),
                        libc::RENAME_NOREPLACE,
                    )
                };
                if r != 0 {
                    return Err(Errno::from_io(&std::io::Error::last_os_error()).into());
                }
            } else {
                std::fs::rename(h1.join(n1), h2.join(n2))?
            }
            ret(0)
        }
        _ => Err(EXDEV.into()),
    }
}

pub fn getdents64(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (buf, len) = (c.a[1], c.a[2] as usize);
    let f = k.fd(c.pid, c.i(0))?;
    let mut of = f.file.borrow_mut();
    let Kind::Dir(t, _) = &of.kind else {
        return Err(ENOTDIR.into());
    };
    let mut entries: Vec<(u64, u8, String)> =
        vec![(1, DT_DIR, ".".into()), (1, DT_DIR, "..".into())];
    match t {
        Target::Mem(i) => {
            if let Node::Dir(mm) = &k.vfs.inodes[*i].node {
                for (name, &ch) in mm {
                    let ty = match k.vfs.inodes[ch].node {
                        Node::Dir(_) | Node::Mount { .. } => DT_DIR,
                        Node::Symlink(_) => DT_LNK,
                        Node::Dev(_) => DT_CHR,
                        Node::Socket(_) => DT_SOCK,
                        Node::Proc(_) => DT_REG,
                        Node::File(_) => DT_REG,
                    };
                    entries.push((ch as u64 + 1, ty, name.clone()));
                }
            }
        }
        Target::Host(p, _) => {
            use crate::os::host::DirEntryExt;
            if let Ok(rd) = std::fs::read_dir(p) {
                let mut v: Vec<_> = rd.flatten().collect();
                v.sort_by_key(|e| e.file_name());
                for e in v {
                    let ty = e
                        .file_type()
                        .map(|t| {
                            if t.is_dir() {
                                DT_DIR
                            } else if t.is_symlink() {
                                DT_LNK
                            } else {
                                DT_REG
                            }
                        })
                        .unwrap_or(0);
                    entries.push((e.ino(), ty, e.file_name().to_string_lossy().into_owned()));
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut idx = of.offset as usize;
    while idx < entries.len() {
        let (ino, ty, name) = &entries[idx];
        let rec = dirent64(*ino, (idx + 1) as i64, *ty, name);
        if out.len() + rec.len() > len {
            break;
        }
        out.extend_from_slice(&rec);
        idx += 1;
    }
    if out.is_empty() && idx < entries.len() {
        return Err(EINVAL.into());
    }
    // The position moves only once the records are in the guest's buffer.
    c.write(buf, &out)?;
    of.offset = idx as u64;
    ret(out.len())
}
