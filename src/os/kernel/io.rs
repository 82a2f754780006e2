//! File descriptors and data: read/write and their vector and positioned forms, pipes, dup,
//! fcntl, lseek, ftruncate, close (sockets: [`super::net`]).

use super::*;
use crate::os::vfs::Node;
use std::io::{Read, Seek, SeekFrom, Write};

/// One read or write request: fd, guest buffer, length, and the offset for pread/pwrite.
#[derive(Clone, Copy)]
pub(super) struct Io {
    pub fd: i64,
    pub buf: u64,
    pub len: usize,
    pub at: Option<u64>,
}

impl Io {
    fn of(c: &Call, at: Option<u64>) -> Io {
        Io {
            fd: c.i(0),
            buf: c.a[1],
            len: c.a[2] as usize,
            at,
        }
    }
}

pub fn read(k: &mut Kernel, c: &mut Call) -> SysResult {
    do_read(k, c, Io::of(c, None))
}

pub fn pread64(k: &mut Kernel, c: &mut Call) -> SysResult {
    do_read(k, c, Io::of(c, Some(c.a[3])))
}

pub fn write(k: &mut Kernel, c: &mut Call) -> SysResult {
    do_write(k, c, Io::of(c, None))
}

pub fn pwrite64(k: &mut Kernel, c: &mut Call) -> SysResult {
    do_write(k, c, Io::of(c, Some(c.a[3])))
}

pub fn readv(k: &mut Kernel, c: &mut Call) -> SysResult {
    vectored(k, c, do_read)
}

pub fn writev(k: &mut Kernel, c: &mut Call) -> SysResult {
    vectored(k, c, do_write)
}

/// readv/writev: the entries in order until one comes up short; an error after some bytes
/// moved reports the bytes.
fn vectored(
    k: &mut Kernel,
    c: &mut Call,
    each: fn(&mut Kernel, &mut Call, Io) -> SysResult,
) -> SysResult {
    if c.a[2] > UIO_MAXIOV {
        return Err(EINVAL.into());
    }
    let iov: Vec<Iovec> = c.g.read_objs(c.slot, c.a[1], c.a[2] as usize)?;
    // Every buffer before the first byte moves: a retry must not write or take data twice.
    for v in &iov {
        if c.g.in_bounds(c.slot, v.base, v.len as usize) {
            c.ready(v.base, v.len as usize)?;
        }
    }
    let mut total = 0i64;
    for v in iov {
        if v.len == 0 {
            continue;
        }
        let io = Io {
            fd: c.i(0),
            buf: v.base,
            len: v.len as usize,
            at: None,
        };
        match each(k, c, io) {
            Ok(Sys::Ret(n)) => {
                total += n;
                if (n as u64) < v.len {
                    break;
                }
            }
            Err(Fail::Errno(e)) if total == 0 => return Err(e.into()),
            Ok(other) if total == 0 => return Ok(other),
            Err(Fail::Host(e)) => return Err(Fail::Host(e)),
            _ => break,
        }
    }
    ret(total)
}

/// read/write on what is not a byte stream of garm's own: host sockets, unconnected sockets,
/// eventfds (`None`: an ordinary file, pipe or device, which the caller reads or writes).
fn special_rw(k: &mut Kernel, c: &mut Call, f: &Fd, io: Io, write: bool) -> Option<SysResult> {
    let (socket, event) = {
        let of = f.file.borrow();
        (
            matches!(of.kind, Kind::Net(_) | Kind::Unix(_)),
            matches!(of.kind, Kind::Event { .. }),
        )
    };
    if socket {
        Some(net::read_write(k, c, io, write))
    } else if event {
        Some(event::read_write(c, f, io, write))
    } else {
        None
    }
}

fn do_read(k: &mut Kernel, c: &mut Call, io: Io) -> SysResult {
    let Io { fd, buf, len, at } = io;
    let f = k.fd(c.pid, fd)?;
    if let Some(r) = special_rw(k, c, &f, io, false) {
        return r;
    }
    let len = len.min(1 << 20);
    let mut of = f.file.borrow_mut();
    if of.flags & O_ACCMODE == O_WRONLY {
        return Err(EBADF.into());
    }
    let off = at.unwrap_or(of.offset);
    let data: Vec<u8> = match &mut of.kind {
        Kind::Mem(ino) => match &k.vfs.inodes[*ino].node {
            Node::File(d) => d
                .get(off as usize..)
                .map(|s| s[..s.len().min(len)].to_vec())
                .unwrap_or_default(),
            _ => return Err(EISDIR.into()),
        },
        Kind::Host(file, ..) => {
            let mut b = vec![0u8; len];
            if file.seek(SeekFrom::Start(off)).is_err() {
                return Err(ESPIPE.into());
            }
            let n = file.read(&mut b)?;
            b.truncate(n);
            b
        }
        Kind::Bytes(d) => d
            .get(off as usize..)
            .map(|s| s[..s.len().min(len)].to_vec())
            .unwrap_or_default(),
        Kind::Dir(..) => return Err(EISDIR.into()),
        // A socket whose reading side was shut down reads end of file.
        Kind::Sock(SHUT, _) => Vec::new(),
        Kind::PipeR(p) | Kind::Sock(p, _) => {
            let pipe = &mut k.pipes[*p];
            if pipe.buf.is_empty() {
                if pipe.writers == 0 {
                    Vec::new()
                } else if of.flags & O_NONBLOCK != 0 {
                    return Err(EAGAIN.into());
                } else {
                    return Ok(Sys::Block);
                }
            } else {
                let n = len.min(pipe.buf.len());
                // A bad buffer fails before anything leaves the pipe, as on Linux.
                if !c.g.in_bounds(c.slot, buf, n) || c.writable(buf, n).is_err() {
                    return Err(EFAULT.into());
                }
                c.ready(buf, n)?;
                pipe.buf.drain(..n).collect()
            }
        }
        Kind::PipeW(_) | Kind::Out(..) => return Err(EBADF.into()),
        // Handled by special_rw.
        Kind::Unix(_) | Kind::Net(_) => return Err(ENOTCONN.into()),
        Kind::Event { .. } | Kind::Epoll(_) => return Err(EINVAL.into()),
        Kind::Dev(d) => match d {
            Dev::Null => Vec::new(),
            Dev::Zero => vec![0; len],
            Dev::Urandom => pseudo_random(len, buf ^ off),
            Dev::Console => match read_stdin(k, c, buf, len)? {
                Some(d) => d,
                None if of.flags & O_NONBLOCK != 0 => return Err(EAGAIN.into()),
                None => return Ok(Sys::Block),
            },
        },
        Kind::Stdin => match read_stdin(k, c, buf, len)? {
            Some(d) => d,
            None if of.flags & O_NONBLOCK != 0 => return Err(EAGAIN.into()),
            None => return Ok(Sys::Block),
        },
    };
    // The bytes reach the guest before the offset moves: a bad buffer consumes nothing.
    c.write(buf, &data)?;
    if at.is_none() && matches!(of.kind, Kind::Mem(_) | Kind::Host(..) | Kind::Bytes(_)) {
        of.offset += data.len() as u64;
    }
    ret(data.len())
}

/// Standard input for `c`'s instance (`None`: nothing yet, the reader waits); a bad buffer fails
/// before anything is read.
fn read_stdin(k: &mut Kernel, c: &mut Call, buf: u64, len: usize) -> Result<Option<Vec<u8>>, Fail> {
    if !c.g.in_bounds(c.slot, buf, len) || c.writable(buf, len).is_err() {
        return Err(EFAULT.into());
    }
    c.ready(buf, len)?;
    let inst = k.procs[&c.pid].inst;
    let r = k.stdin.read(inst, len);
    // Waiting for the host is not a deadlock: the run loop idles instead of giving up (the
    // flag goes with any answer that is not a wait; see Kernel::syscall).
    if r.is_none() {
        k.proc_mut(c.pid).input_wait = true;
    }
    Ok(r)
}

fn do_write(k: &mut Kernel, c: &mut Call, io: Io) -> SysResult {
    let Io { fd, buf, len, at } = io;
    let pid = c.pid;
    let f = k.fd(pid, fd)?;
    if let Some(r) = special_rw(k, c, &f, io, true) {
        return r;
    }
    let mut of = f.file.borrow_mut();
    if of.flags & O_ACCMODE == 0 && !matches!(of.kind, Kind::Out(..) | Kind::Dev(_)) {
        return Err(EBADF.into());
    }
    // Nothing to write is 0 at once: no SIGPIPE, no file growth (as Linux).
    if len == 0 {
        return ret(0);
    }
    // Pipes block before anything is read from the guest.
    if let Kind::PipeW(p) | Kind::Sock(_, p) = of.kind {
        if p == SHUT {
            drop(of);
            return signal::broken_pipe(k, c.g, pid);
        }
        let pipe = &k.pipes[p];
        if pipe.readers == 0 {
            drop(of);
            return signal::broken_pipe(k, c.g, pid);
        }
        if pipe_room(pipe, len) == 0 {
            return if of.flags & O_NONBLOCK != 0 {
                Err(EAGAIN.into())
            } else {
                Ok(Sys::Block)
            };
        }
    }
    let len = match of.kind {
        Kind::PipeW(p) | Kind::Sock(_, p) => pipe_room(&k.pipes[p], len),
        _ => len.min(1 << 24),
    };
    let data = c.read(buf, len)?;
    let append = of.flags & O_APPEND != 0;
    let off = at.unwrap_or(of.offset);
    match &mut of.kind {
        Kind::Mem(ino) => {
            let ino = *ino;
            if let Node::File(d) = &k.vfs.inodes[ino].node {
                let start = if append { d.len() as u64 } else { off };
                let end = k.vfs.write_file(ino, start, &data)?;
                if at.is_none() {
                    of.offset = end;
                }
            }
        }
        Kind::Host(file, ..) => {
            let pos = if append {
                SeekFrom::End(0)
            } else {
                SeekFrom::Start(off)
            };
            let p = file.seek(pos)?;
            file.write_all(&data)?;
            if at.is_none() {
                of.offset = p + data.len() as u64;
            }
        }
        Kind::PipeW(p) | Kind::Sock(_, p) => k.pipes[*p].push(&data),
        Kind::Out(inst, hfd) => {
            if c.out.emit(*inst, *hfd, &data).is_err() {
                drop(of);
                return signal::broken_pipe(k, c.g, pid);
            }
        }
        Kind::Dev(Dev::Console) => {
            if c.out.emit(k.procs[&pid].inst, 1, &data).is_err() {
                drop(of);
                return signal::broken_pipe(k, c.g, pid);
            }
        }
        Kind::Dev(_) => {}
        _ => return Err(EBADF.into()),
    }
    ret(data.len())
}

pub fn close(k: &mut Kernel, c: &mut Call) -> SysResult {
    let fd = usize::try_from(c.i(0)).map_err(|_| EBADF)?;
    match k.process_mut(c.pid).fds.get_mut(fd) {
        Some(f @ Some(_)) => {
            *f = None;
            ret(0)
        }
        _ => Err(EBADF.into()),
    }
}

pub fn lseek(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let mut of = f.file.borrow_mut();
    let size = match &of.kind {
        Kind::Mem(i) => match &k.vfs.inodes[*i].node {
            Node::File(d) => d.len() as i64,
            _ => 0,
        },
        Kind::Host(file, ..) => file.metadata().map(|m| m.len() as i64).unwrap_or(0),
        Kind::Bytes(d) => d.len() as i64,
        Kind::Dir(..) => 0,
        _ => return Err(ESPIPE.into()),
    };
    let base = match c.a[2] {
        0 => 0,
        1 => of.offset as i64,
        2 => size,
        _ => return Err(EINVAL.into()),
    };
    let n = base.checked_add(c.i(1)).filter(|&n| n >= 0).ok_or(EINVAL)?;
    of.offset = n as u64;
    ret(n)
}

pub fn dup(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let nf = Fd {
        file: f.file,
        cloexec: false,
    };
    ret(k.install_fd(c.pid, nf, 0)?)
}

pub fn dup3(k: &mut Kernel, c: &mut Call) -> SysResult {
    // Linux's order: flags, the same fd, the limit for newfd, then oldfd.
    if c.a[2] & !O_CLOEXEC != 0 || c.a[0] == c.a[1] {
        return Err(EINVAL.into());
    }
    let limit = k
        .process(c.pid)
        .rlimits
        .get(&rlimit::NOFILE)
        .map_or(MAX_FDS, |l| (l.cur as usize).min(MAX_FDS));
    let to = usize::try_from(c.i(1))
        .ok()
        .filter(|&t| t < limit)
        .ok_or(EBADF)?;
    let f = k.fd(c.pid, c.i(0))?;
    let fds = &mut k.process_mut(c.pid).fds;
    if fds.len() <= to {
        fds.resize(to + 1, None);
    }
    fds[to] = Some(Fd {
        file: f.file,
        cloexec: c.a[2] & O_CLOEXEC != 0,
    });
    ret(to)
}

pub fn fcntl(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (pid, arg) = (c.pid, c.a[2]);
    let f = k.fd(pid, c.i(0))?;
    match c.a[1] {
        F_DUPFD | F_DUPFD_CLOEXEC => {
            let nf = Fd {
                file: f.file.clone(),
                cloexec: c.a[1] == F_DUPFD_CLOEXEC,
            };
            let min = usize::try_from(arg).map_err(|_| EINVAL)?;
            ret(k.install_fd(pid, nf, min)?)
        }
        F_GETFD => ret(f.cloexec as i64),
        F_SETFD => {
            if let Some(Some(fd)) = k.process_mut(pid).fds.get_mut(c.a[0] as usize) {
                fd.cloexec = arg & 1 != 0;
            }
            ret(0)
        }
        F_GETFL => ret(f.file.borrow().flags as i64),
        F_SETFL => {
            let mut of = f.file.borrow_mut();
            let keep = O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_DIRECTORY;
            of.flags = (of.flags & keep) | (arg & (O_APPEND | O_NONBLOCK));
            ret(0)
        }
        _ => Err(EINVAL.into()),
    }
}

pub fn ioctl(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.fd(c.pid, c.i(0))?;
    Err(ENOTTY.into())
}

/// How many of `len` bytes a write puts in pipe `p` now (0: it waits, or EAGAIN). Up to
/// PIPE_BUF bytes go in at once or not at all (POSIX's atomic pipe writes: a blocking writer
/// waits for room for all of them); a larger write takes what room there is (Linux would go on
/// blocking for the rest: this write comes back short instead).
pub(super) fn pipe_room(p: &Pipe, len: usize) -> usize {
    let room = PIPE_CAP.saturating_sub(p.buf.len());
    if len <= PIPE_BUF && room < len {
        0
    } else {
        len.min(room)
    }
}

/// A new pipe with one reader and one writer; a pipe both of whose ends are closed is free for
/// reuse (nothing refers to its number).
pub(super) fn fresh_pipe(k: &mut Kernel) -> usize {
    let fresh = Pipe {
        readers: 1,
        writers: 1,
        ..Pipe::default()
    };
    match k
        .pipes
        .iter()
        .position(|p| p.readers == 0 && p.writers == 0)
    {
        Some(i) => {
            k.pipes[i] = fresh;
            i
        }
        None => {
            k.pipes.push(fresh);
            k.pipes.len() - 1
        }
    }
}

pub fn pipe2(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[1] & !(O_CLOEXEC | O_NONBLOCK) != 0 {
        return Err(EINVAL.into());
    }
    let id = fresh_pipe(k);
    let fl = c.a[1];
    let (r, w) = (Kind::PipeR(id), Kind::PipeW(id));
    install_pair(k, c, c.a[0], (r, fl), (w, fl | O_WRONLY))
}

/// Installs two new descriptions and writes their fds as two ints at `at` (pipe2, socketpair);
/// neither stays open when either cannot be had or written.
pub(super) fn install_pair(
    k: &mut Kernel,
    c: &mut Call,
    at: u64,
    (ka, fa): (Kind, u64),
    (kb, fb): (Kind, u64),
) -> SysResult {
    let r = k.install_fd(c.pid, k.new_fd(ka, fa), 0);
    let w = k.install_fd(c.pid, k.new_fd(kb, fb), 0);
    let (r, w) = match (r, w) {
        (Ok(r), Ok(w)) => (r, w),
        (r, w) => {
            // Neither end stays open when one cannot be had.
            for i in [r, w].into_iter().flatten() {
                k.process_mut(c.pid).fds[i] = None;
            }
            return Err(EMFILE.into());
        }
    };
    let fds = [r as i32, w as i32];
    if let Err(e) = c.write_obj(at, &fds) {
        for i in [r, w] {
            k.process_mut(c.pid).fds[i] = None;
        }
        return Err(e);
    }
    ret(0)
}

pub fn ftruncate(k: &mut Kernel, c: &mut Call) -> SysResult {
    let f = k.fd(c.pid, c.i(0))?;
    let len = c.a[1];
    if (len as i64) < 0 {
        return Err(EINVAL.into());
    }
    let of = f.file.borrow();
    if of.flags & O_ACCMODE == 0 {
        return Err(EINVAL.into());
    }
    match &of.kind {
        Kind::Mem(i) => {
            if let Node::File(_) = &k.vfs.inodes[*i].node {
                k.vfs.resize_file(*i, len)?;
            }
            ret(0)
        }
        Kind::Host(file, ..) => {
            file.set_len(len)?;
            ret(0)
        }
        _ => Err(EINVAL.into()),
    }
}
