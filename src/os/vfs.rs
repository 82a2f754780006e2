//! The filesystem garm owns: an in-memory tree of directories, files, symlinks and devices, with
//! host directories mounted into it (`--mount HOSTDIR:GUESTDIR[:ro]`). Guest paths are resolved
//! here, component by component, so neither `..` nor a symlink can leave the tree or a mount.

use super::errno::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub type Ino = usize;

/// Character devices garm provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dev {
    Null,
    Zero,
    Urandom,
    Console,
}

/// The /proc files made when opened (see `kernel::procfs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcFile {
    Cmdline,
    Environ,
    Status,
    Maps,
    Meminfo,
    Uptime,
}

#[derive(Clone, Debug)]
pub enum Node {
    File(Rc<Vec<u8>>),
    Dir(BTreeMap<String, Ino>),
    Symlink(String),
    Dev(Dev),
    /// A /proc file whose bytes are made for the process that opens it.
    Proc(ProcFile),
    /// An AF_UNIX socket bound here: its key in the kernel's table (a key no longer there is a
    /// socket nobody listens on, as a stale socket file on Linux).
    Socket(u64),
    /// A host directory mounted here; `ro` refuses writes with EROFS.
    Mount {
        host: PathBuf,
        ro: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Inode {
    pub node: Node,
    pub mode: u32,
    pub parent: Ino,
    pub mtime: i64,
    /// Names in directories that refer to it.
    pub nlink: u32,
    /// Open file descriptions that refer to it (see [`Vfs::opened`], [`Vfs::closed`]).
    pub opens: u32,
    /// Nothing refers to it any more: its number is on the free list for the next inode.
    pub freed: bool,
}

/// What a guest path names after resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Mem(Ino),
    /// A path inside a mount: the host path and whether the mount is read-only.
    Host(PathBuf, bool),
}

pub struct Vfs {
    pub inodes: Vec<Inode>,
    /// Where resolution starts: the calling process's instance's root, set by the kernel for
    /// each syscall (see [`Vfs::instance_roots`]).
    pub root: Ino,
    /// Bytes of file data held in memory, and the most there may be (`--fs-limit`).
    pub used: u64,
    pub limit: u64,
    /// Inode numbers nothing refers to, reused before the table grows (a guest that creates and
    /// removes names forever keeps the table bounded).
    free: Vec<Ino>,
    /// `/proc/self/exe`: the program garm was started with (readlink gives each process's own).
    pub exe_ino: Ino,
}

pub const S_IFMT: u32 = 0o170000;
pub const S_IFREG: u32 = 0o100000;
pub const S_IFDIR: u32 = 0o040000;
pub const S_IFLNK: u32 = 0o120000;
pub const S_IFCHR: u32 = 0o020000;
pub const S_IFIFO: u32 = 0o010000;
pub const S_IFSOCK: u32 = 0o140000;

/// Largest file garm keeps in memory (a guest cannot make the host allocate without bound).
pub const MAX_FILE: u64 = 256 << 20;

/// The default `--fs-limit`: a quarter of the host's memory, between 256 MiB and 8 GiB (1 GiB
/// when the host does not say).
pub fn default_fs_limit() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let l = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kib| kib * 1024);
    match total {
        Some(t) => (t / 4).clamp(256 << 20, 8 << 30),
        None => 1 << 30,
    }
}

fn now() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Default for Vfs {
    fn default() -> Self {
        Self::new()
    }
}

/// Why a `--mount` cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum MountError {
    #[error("--mount {}: {source}", path.display())]
    Host {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("--mount {}: not a directory", .0.display())]
    NotDir(std::path::PathBuf),
    #[error("--mount: the guest directory cannot be /")]
    Root,
    #[error("--mount: guest path '{0}' goes through something that is not a plain directory")]
    GuestPath(String),
}

impl Vfs {
    /// The initial tree: `/`, `/tmp`, `/dev/{null,zero,urandom,tty}`,
    /// `/proc/self/{exe,cmdline,environ,status,maps}`, `/proc/{cpuinfo,meminfo,uptime}`,
    /// `/sys/devices/system/cpu/{online,possible,present}`, `/etc/{passwd,group,hosts,
    /// resolv.conf}`.
    pub fn new() -> Vfs {
        let mut v = Vfs {
            inodes: vec![Inode {
                node: Node::Dir(BTreeMap::new()),
                mode: S_IFDIR | 0o755,
                parent: 0,
                mtime: now(),
                nlink: 1,
                opens: 0,
                freed: false,
            }],
            root: 0,
            used: 0,
            limit: default_fs_limit(),
            free: Vec::new(),
            exe_ino: 0,
        };
        for d in ["tmp", "dev", "proc", "home", "bin", "usr", "etc"] {
            v.add(0, d, Node::Dir(BTreeMap::new()), S_IFDIR | 0o755);
        }
        let dev = v.child(0, "dev").unwrap();
        for (n, d) in [
            ("null", Dev::Null),
            ("zero", Dev::Zero),
            ("urandom", Dev::Urandom),
            ("random", Dev::Urandom),
            ("tty", Dev::Console),
        ] {
            v.add(dev, n, Node::Dev(d), S_IFCHR | 0o666);
        }
        let proc_ = v.child(0, "proc").unwrap();
        let info = crate::isa::idregs::cpuinfo().into_bytes();
        v.used += info.len() as u64;
        v.add(proc_, "cpuinfo", Node::File(Rc::new(info)), S_IFREG | 0o444);
        // One CPU, as sched_getaffinity says (glibc's sysconf reads `online` first).
        let mut at = 0;
        for d in ["sys", "devices", "system", "cpu"] {
            at = v.add(at, d, Node::Dir(BTreeMap::new()), S_IFDIR | 0o555);
        }
        for f in ["online", "possible", "present"] {
            v.used += 2;
            v.add(at, f, Node::File(Rc::new(b"0\n".to_vec())), S_IFREG | 0o444);
        }
        let this = v.add(proc_, "self", Node::Dir(BTreeMap::new()), S_IFDIR | 0o555);
        v.exe_ino = v.add(this, "exe", Node::File(Default::default()), S_IFREG | 0o755);
        for (dir, name, f) in [
            (this, "cmdline", ProcFile::Cmdline),
            (this, "environ", ProcFile::Environ),
            (this, "status", ProcFile::Status),
            (this, "maps", ProcFile::Maps),
            (proc_, "meminfo", ProcFile::Meminfo),
            (proc_, "uptime", ProcFile::Uptime),
        ] {
            v.add(dir, name, Node::Proc(f), S_IFREG | 0o444);
        }
        // What programs look up in /etc, for a root with no sysroot of its own (a sysroot's
        // /etc, mounted over this one, has its own).
        let etc = v.child(0, "etc").unwrap();
        for (name, text) in [
            ("passwd", "root:x:0:0:root:/root:/bin/sh\n"),
            ("group", "root:x:0:\n"),
            (
                "hosts",
                "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n",
            ),
            ("resolv.conf", "nameserver 127.0.0.1\n"),
        ] {
            v.used += text.len() as u64;
            let data = Node::File(Rc::new(text.as_bytes().to_vec()));
            v.add(etc, name, data, S_IFREG | 0o644);
        }
        v
    }

    /// Replaces the bytes of `/etc/NAME` in garm's tree (the host's resolv.conf under `--net`).
    pub fn set_etc(&mut self, name: &str, bytes: Vec<u8>) {
        let Some(etc) = self.child(0, "etc") else {
            return;
        };
        let ino = match self.child(etc, name) {
            Some(i) => i,
            None => self.add(etc, name, Node::File(Rc::default()), S_IFREG | 0o644),
        };
        if let Node::File(old) = &self.inodes[ino].node {
            self.used = self.used.saturating_sub(old.len() as u64) + bytes.len() as u64;
        }
        self.inodes[ino].node = Node::File(Rc::new(bytes));
    }

    /// `/proc/self/exe`: the program's bytes, shared with the caller, not copied (a write
    /// would copy them first).
    pub fn set_exe(&mut self, bytes: Rc<Vec<u8>>) {
        let ino = self.exe_ino;
        self.used -= self.file_len(ino);
        self.used += bytes.len() as u64;
        self.inodes[ino].node = Node::File(bytes);
    }

    fn file_len(&self, ino: Ino) -> u64 {
        match &self.inodes[ino].node {
            Node::File(d) => d.len() as u64,
            _ => 0,
        }
    }

    /// Resizes file `ino` to `len` bytes (zero-filled), within the per-file cap (EFBIG) and the
    /// filesystem's budget (ENOSPC).
    pub fn resize_file(&mut self, ino: Ino, len: u64) -> Result<(), Errno> {
        if len > MAX_FILE {
            return Err(EFBIG);
        }
        let old = self.file_len(ino);
        if len > old && self.used + (len - old) > self.limit {
            return Err(ENOSPC);
        }
        if let Node::File(d) = &mut self.inodes[ino].node {
            let d = Rc::make_mut(d);
            d.resize(len as usize, 0);
            if len < old {
                d.shrink_to(len as usize);
            }
            self.used = self.used + len - old;
        }
        Ok(())
    }

    /// Writes `data` into file `ino` at `start` (growing it as needed); returns the end offset.
    pub fn write_file(&mut self, ino: Ino, start: u64, data: &[u8]) -> Result<u64, Errno> {
        let end = start.checked_add(data.len() as u64).ok_or(EFBIG)?;
        if end > self.file_len(ino) {
            self.resize_file(ino, end)?;
        }
        if let Node::File(d) = &mut self.inodes[ino].node {
            Rc::make_mut(d)[start as usize..end as usize].copy_from_slice(data);
        }
        Ok(end)
    }

    /// An open file description of `ino` was made.
    pub fn opened(&mut self, ino: Ino) {
        self.inodes[ino].opens += 1;
    }

    /// An open file description of `ino` went away: an unlinked file's data goes with the last.
    pub fn closed(&mut self, ino: Ino) {
        let i = &mut self.inodes[ino];
        i.opens = i.opens.saturating_sub(1);
        self.release(ino);
    }

    /// Frees the data of a file nobody can reach any more (no name, no open description).
    fn release(&mut self, ino: Ino) {
        let i = &self.inodes[ino];
        // Roots are their own parents and never go; the program's /proc/self/exe neither.
        if i.nlink == 0 && i.opens == 0 && !i.freed && ino != self.exe_ino && i.parent != ino {
            self.used -= self.file_len(ino);
            let i = &mut self.inodes[ino];
            i.node = Node::File(Rc::default());
            i.freed = true;
            self.free.push(ino);
        }
    }

    /// Adds a name for an existing inode (a hard link).
    pub fn link(&mut self, dir: Ino, name: &str, ino: Ino) {
        if let Node::Dir(m) = &mut self.inodes[dir].node {
            let old = m.insert(name.to_string(), ino);
            self.inodes[ino].nlink += 1;
            if let Some(old) = old {
                self.unlinked(old);
            }
        }
    }

    fn unlinked(&mut self, ino: Ino) {
        let i = &mut self.inodes[ino];
        i.nlink = i.nlink.saturating_sub(1);
        self.release(ino);
    }

    pub fn add(&mut self, dir: Ino, name: &str, node: Node, mode: u32) -> Ino {
        let fresh = Inode {
            node,
            mode,
            parent: dir,
            mtime: now(),
            nlink: 0,
            opens: 0,
            freed: false,
        };
        let ino = match self.free.pop() {
            Some(i) => {
                self.inodes[i] = fresh;
                i
            }
            None => {
                self.inodes.push(fresh);
                self.inodes.len() - 1
            }
        };
        if let Node::Dir(m) = &mut self.inodes[dir].node {
            let old = m.insert(name.to_string(), ino);
            self.inodes[ino].nlink = 1;
            if let Some(old) = old {
                self.unlinked(old);
            }
        }
        ino
    }

    pub fn child(&self, dir: Ino, name: &str) -> Option<Ino> {
        match &self.inodes[dir].node {
            Node::Dir(m) => m.get(name).copied(),
            _ => None,
        }
    }

    /// Mounts host directory `host` at guest directory `guest` (created if missing).
    pub fn mount(&mut self, host: &Path, guest: &str, ro: bool) -> Result<(), MountError> {
        let host = host.canonicalize().map_err(|e| MountError::Host {
            path: host.to_path_buf(),
            source: e,
        })?;
        if !host.is_dir() {
            return Err(MountError::NotDir(host));
        }
        let mut dir = 0;
        let parts: Vec<&str> = guest.split('/').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            return Err(MountError::Root);
        }
        for (i, p) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            if *p == "." || *p == ".." || !matches!(self.inodes[dir].node, Node::Dir(_)) {
                return Err(MountError::GuestPath(guest.to_string()));
            }
            dir = match self.child(dir, p) {
                Some(c) if last => {
                    self.inodes[c].node = Node::Mount {
                        host: host.clone(),
                        ro,
                    };
                    self.inodes[c].mode = S_IFDIR | 0o755;
                    c
                }
                Some(c) => c,
                None if last => self.add(
                    dir,
                    p,
                    Node::Mount {
                        host: host.clone(),
                        ro,
                    },
                    S_IFDIR | 0o755,
                ),
                None => self.add(dir, p, Node::Dir(BTreeMap::new()), S_IFDIR | 0o755),
            };
        }
        Ok(())
    }

    /// Gives instances 1.. roots of their own (instance 0 keeps the first): the same tree but a
    /// private `/tmp` (holding the mount points `/tmp` had), so each instance is its own machine.
    /// Returns the root of each instance.
    pub fn instance_roots(&mut self, instances: usize) -> Vec<Ino> {
        let mut roots = vec![0];
        let tmp0 = self.child(0, "tmp");
        for _ in 1..instances {
            let root = self.inodes.len();
            let map = match &self.inodes[0].node {
                Node::Dir(m) => m.clone(),
                _ => BTreeMap::new(),
            };
            // The names the new root shares are names too: what one instance removes stays in
            // the others'.
            for &i in map.values() {
                self.inodes[i].nlink += 1;
            }
            self.inodes.push(Inode {
                node: Node::Dir(map),
                mode: S_IFDIR | 0o755,
                parent: root,
                mtime: now(),
                nlink: 1,
                opens: 0,
                freed: false,
            });
            // A private /tmp, unless /tmp is a mount: then it stays the shared host directory.
            if let Some(t0) = tmp0 {
                if let Node::Dir(m) = &self.inodes[t0].node {
                    let map = m.clone();
                    self.add(root, "tmp", Node::Dir(map), S_IFDIR | 0o1777);
                }
            }
            roots.push(root);
        }
        roots
    }

    /// The absolute guest path of a directory inode.
    pub fn path_of(&self, mut ino: Ino) -> String {
        let mut parts = Vec::new();
        // A root is its own parent; the walk is bounded whatever the tree holds.
        let mut steps = self.inodes.len();
        while self.inodes[ino].parent != ino && steps > 0 {
            steps -= 1;
            let p = self.inodes[ino].parent;
            if let Node::Dir(m) = &self.inodes[p].node {
                if let Some((n, _)) = m.iter().find(|(_, &i)| i == ino) {
                    parts.push(n.clone());
                }
            }
            ino = p;
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }

    /// Resolves `path` relative to directory `cwd` (a guest path). `follow` follows a final
    /// symlink.
    pub fn resolve(&self, cwd: &str, path: &str, follow: bool) -> Result<Target, Errno> {
        self.walk(cwd, path, follow, 0)
    }

    /// Resolves all but the last component: (parent target, last name).
    pub fn resolve_parent(&self, cwd: &str, path: &str) -> Result<(Target, String), Errno> {
        let trimmed = path.trim_end_matches('/');
        let (dir, name) = match trimmed.rfind('/') {
            Some(0) => ("/", &trimmed[1..]),
            Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
            None => (".", trimmed),
        };
        if name.is_empty() || name == "." || name == ".." {
            return Err(if trimmed.is_empty() { EEXIST } else { EINVAL });
        }
        if name.len() > 255 {
            return Err(ENAMETOOLONG);
        }
        Ok((self.resolve(cwd, dir, true)?, name.to_string()))
    }

    fn walk(&self, cwd: &str, path: &str, follow: bool, depth: u32) -> Result<Target, Errno> {
        if depth > 40 {
            return Err(ELOOP);
        }
        if path.is_empty() {
            return Err(ENOENT);
        }
        let full = if path.starts_with('/') {
            path.to_string()
        } else {
            format!("{cwd}/{path}")
        };
        let comps: Vec<&str> = full
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        let mut stack: Vec<Ino> = vec![self.root];
        // Inside a mount: host root and relative components (never above the mount root).
        let mut host: Option<(PathBuf, bool, Vec<String>)> = None;
        for (i, c) in comps.iter().enumerate() {
            let last = i + 1 == comps.len();
            if let Some((root, _ro, rel)) = &mut host {
                if *c == ".." {
                    if rel.is_empty() {
                        // Leaving the mount upwards goes back into garm's tree, never the host's.
                        host = None;
                        stack.pop();
                    } else {
                        rel.pop();
                    }
                    continue;
                }
                rel.push(c.to_string());
                let hp = rel.iter().fold(root.clone(), |p, r| p.join(r));
                if let Ok(md) = std::fs::symlink_metadata(&hp) {
                    if md.file_type().is_symlink() && (!last || follow) {
                        let link = std::fs::read_link(&hp).map_err(|_| EIO)?;
                        let l = link.to_string_lossy().into_owned();
                        if l.starts_with('/') {
                            // An absolute host link would escape the mount: refuse it.
                            return Err(EACCES);
                        }
                        rel.pop();
                        let mount_path = self.path_of(*stack.last().unwrap());
                        let base = format!("{}/{}", mount_path, rel.join("/"));
                        let rest: Vec<&str> = comps[i + 1..].to_vec();
                        let next = if rest.is_empty() {
                            l
                        } else {
                            format!("{l}/{}", rest.join("/"))
                        };
                        return self.walk(&base, &next, follow, depth + 1);
                    }
                } else {
                    // A missing last component is ENOENT too: callers that create (open with
                    // O_CREAT, mkdir, symlink) go through resolve_parent for the new name.
                    return Err(ENOENT);
                }
                continue;
            }
            let cur = *stack.last().unwrap();
            if *c == ".." {
                if stack.len() > 1 {
                    stack.pop();
                }
                continue;
            }
            let child = match &self.inodes[cur].node {
                Node::Dir(m) => *m.get(*c).ok_or(ENOENT)?,
                _ => return Err(ENOTDIR),
            };
            match &self.inodes[child].node {
                Node::Symlink(target) if !last || follow => {
                    let base = self.path_of(cur);
                    let rest: Vec<&str> = comps[i + 1..].to_vec();
                    let next = if rest.is_empty() {
                        target.clone()
                    } else {
                        format!("{target}/{}", rest.join("/"))
                    };
                    return self.walk(&base, &next, follow, depth + 1);
                }
                Node::Mount { host: h, ro } => {
                    stack.push(child);
                    host = Some((h.clone(), *ro, Vec::new()));
                }
                _ => stack.push(child),
            }
        }
        let t = match host {
            Some((root, ro, rel)) => Target::Host(rel.iter().fold(root, |p, r| p.join(r)), ro),
            None => Target::Mem(*stack.last().unwrap()),
        };
        Ok(t)
    }

    /// Creates a regular file (or returns the existing one) in a garm directory.
    pub fn create_file(&mut self, dir: Ino, name: &str, mode: u32) -> Result<Ino, Errno> {
        match &self.inodes[dir].node {
            Node::Dir(m) => {
                if let Some(&i) = m.get(name) {
                    return Ok(i);
                }
            }
            _ => return Err(ENOTDIR),
        }
        Ok(self.add(
            dir,
            name,
            Node::File(Rc::default()),
            S_IFREG | (mode & 0o7777),
        ))
    }

    /// Removes a name (unlink, rmdir); the file's data goes once nothing refers to it.
    pub fn remove(&mut self, dir: Ino, name: &str) -> Option<Ino> {
        let ino = match &mut self.inodes[dir].node {
            Node::Dir(m) => m.remove(name),
            _ => None,
        }?;
        self.unlinked(ino);
        Some(ino)
    }

    /// Moves the entry `d1/n1` to `d2/n2` (rename), replacing and unlinking what was there.
    pub fn move_entry(&mut self, d1: Ino, n1: &str, d2: Ino, n2: &str) {
        let Some(ino) = (match &mut self.inodes[d1].node {
            Node::Dir(m) => m.remove(n1),
            _ => None,
        }) else {
            return;
        };
        let old = match &mut self.inodes[d2].node {
            Node::Dir(m) => m.insert(n2.to_string(), ino),
            _ => None,
        };
        self.inodes[ino].parent = d2;
        if let Some(old) = old.filter(|&o| o != ino) {
            self.unlinked(old);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_directories_files_and_dotdot() {
        let mut v = Vfs::new();
        let tmp = v.child(0, "tmp").unwrap();
        assert_eq!(v.resolve("/", "/tmp", true), Ok(Target::Mem(tmp)));
        assert_eq!(v.resolve("/tmp", "..", true), Ok(Target::Mem(0)));
        assert_eq!(v.resolve("/", "/../../tmp/.", true), Ok(Target::Mem(tmp)));
        let f = v.create_file(tmp, "a", 0o644).unwrap();
        assert_eq!(v.resolve("/tmp", "a", true), Ok(Target::Mem(f)));
        assert_eq!(v.resolve("/", "/tmp/a/b", true), Err(ENOTDIR));
        assert_eq!(v.resolve("/", "/nope", true), Err(ENOENT));
        v.add(tmp, "l", Node::Symlink("a".into()), S_IFLNK | 0o777);
        assert_eq!(v.resolve("/tmp", "l", true), Ok(Target::Mem(f)));
    }

    #[test]
    fn mounts_cannot_be_escaped() {
        let dir = std::env::temp_dir().join(format!("garm-vfs-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("d")).unwrap();
        std::os::unix::fs::symlink("/etc", dir.join("out")).ok();
        let mut v = Vfs::new();
        v.mount(&dir, "/m", true).unwrap();
        let canon = dir.canonicalize().unwrap();
        assert_eq!(
            v.resolve("/", "/m/d", true),
            Ok(Target::Host(canon.join("d"), true))
        );
        // `..` out of the mount lands in garm's tree, not the host's.
        assert_eq!(
            v.resolve("/", "/m/../../tmp", true),
            Ok(Target::Mem(v.child(0, "tmp").unwrap()))
        );
        assert_eq!(
            v.resolve("/", "/m/out/passwd", true),
            Err(EACCES),
            "absolute host links are refused"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
