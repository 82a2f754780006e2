//! Sockets: socketpair and AF_UNIX stream sockets by path or abstract name (between guests, in
//! garm's filesystem), AF_INET/AF_INET6 TCP and UDP on host sockets under `--net`, and the
//! calls on them: bind, listen, accept4, connect, send*/recv*, shutdown, names and options.
//!
//! A connected AF_UNIX stream is two pipes, one per direction ([`Kind::Sock`]); a host socket
//! is non-blocking on the host, and a guest call that would block waits like a pipe reader
//! (retried after the next submit; the run loop idles instead of calling it a deadlock).

use super::io::{fresh_pipe, install_pair, pipe_room, Io};
use super::*;
use crate::os::host::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use crate::os::host::libc;
use crate::os::vfs::{self, Node};

pub const AF_UNIX: u64 = 1;
pub const AF_INET: u64 = 2;
pub const AF_INET6: u64 = 10;
const SOCK_STREAM: u64 = 1;
const SOCK_DGRAM: u64 = 2;
/// The type bits of socket()'s type argument (the others are SOCK_NONBLOCK and SOCK_CLOEXEC).
const SOCK_TYPE: u64 = 0xf;
const IPPROTO_TCP: u64 = 6;
const IPPROTO_UDP: u64 = 17;
/// sizeof(struct sockaddr_un) and sizeof(struct sockaddr_storage).
const SUN_LEN: usize = 110;
const SOCKADDR_MAX: usize = 128;
/// Most bytes one send or receive moves (a larger request comes back short, as for pipes).
const IO_MAX: usize = 1 << 20;
/// The most connections a listener queues (Linux's default somaxconn).
const SOMAXCONN: usize = 4096;

const MSG_OOB: u64 = 0x1;
const MSG_PEEK: u64 = 0x2;
const MSG_DONTROUTE: u64 = 0x4;
const MSG_TRUNC: u64 = 0x20;
const MSG_DONTWAIT: u64 = 0x40;
const MSG_WAITALL: u64 = 0x100;
const MSG_NOSIGNAL: u64 = 0x4000;
const MSG_MORE: u64 = 0x8000;
/// Flags a host socket is given as the guest gave them (same values on every Linux).
const HOST_MSG: u64 = MSG_OOB | MSG_PEEK | MSG_DONTROUTE | MSG_TRUNC | MSG_WAITALL | MSG_MORE;

/// A host socket a guest opened under `--net`.
#[derive(Debug)]
pub struct HostSock {
    pub fd: OwnedFd,
    /// A blocking connect is in progress: the retried call waits for it to finish.
    pub connecting: bool,
}

/// What a socket fd is, with what the calls need of it (the description stays borrowed by
/// nobody while a handler works).
#[derive(Clone, Copy)]
enum S {
    /// A connected AF_UNIX stream: the pipes it reads and writes.
    Pair(usize, usize),
    /// An AF_UNIX stream that is not connected.
    Unix(u64),
    /// A host socket (the description keeps it open while the call holds its [`Fd`]).
    Net(RawFd),
}

/// The socket open as `fd` (EBADF for no fd, ENOTSOCK for another kind of file), its
/// description, and whether it does not block.
fn sock(k: &Kernel, c: &Call, fd: i64) -> Result<(Fd, S, bool), Errno> {
    let f = k.fd(c.pid, fd)?;
    let of = f.file.borrow();
    let s = match &of.kind {
        Kind::Sock(rx, tx) => S::Pair(*rx, *tx),
        Kind::Unix(key) => S::Unix(*key),
        Kind::Net(h) => S::Net(h.fd.as_raw_fd()),
        _ => return Err(ENOTSOCK),
    };
    let nonblock = of.flags & O_NONBLOCK != 0;
    drop(of);
    Ok((f, s, nonblock))
}

/// The result of a host call that returns -1 and sets errno.
fn host(r: isize) -> Result<usize, Errno> {
    if r < 0 {
        Err(Errno::from_io(&std::io::Error::last_os_error()))
    } else {
        Ok(r as usize)
    }
}

/// Says why under `--strace` (once per call and reason) and fails with `e`: what garm does not
/// do is never silent.
fn refuse(k: &mut Kernel, c: &Call, what: u64, e: Errno, why: &str) -> SysResult {
    let name = crate::os::syscalls::name(c.nr);
    k.note_once(c.nr << 32 | what.min(0xffff_ffff), || {
        format!("{name}: {why}: -{}", e.name())
    });
    Err(e.into())
}

/// A would-be-blocking call on a host socket: EAGAIN when it may not block, else a wait on the
/// outside world.
fn wait_net(k: &mut Kernel, c: &Call, nonblock: bool) -> SysResult {
    if nonblock {
        return Err(EAGAIN.into());
    }
    k.proc_mut(c.pid).net_wait = true;
    Ok(Sys::Block)
}

/// A would-be-blocking call on a garm socket: EAGAIN, or a wait for another guest.
fn wait_local(nonblock: bool) -> SysResult {
    if nonblock {
        Err(EAGAIN.into())
    } else {
        Ok(Sys::Block)
    }
}

// ---- addresses ----

/// A socket address from the guest (at most sockaddr_storage's size).
fn read_addr(c: &mut Call, at: u64, len: u64) -> Result<Vec<u8>, Fail> {
    if len as usize > SOCKADDR_MAX || (len as i32) < 0 {
        return Err(EINVAL.into());
    }
    c.read(at, len as usize)
}

fn family(b: &[u8]) -> u64 {
    b.get(..2)
        .map_or(u64::MAX, |f| u16::from_le_bytes([f[0], f[1]]) as u64)
}

/// Writes `addr` to the guest as accept, getsockname and recvfrom do: at most the room
/// `*len_at` gives, and the full length back in `*len_at`. A NULL `at` asks for nothing.
fn put_addr(c: &mut Call, at: u64, len_at: u64, addr: &[u8]) -> Result<(), Fail> {
    if at == 0 {
        return Ok(());
    }
    let room: i32 = c.read_obj(len_at)?;
    if room < 0 {
        return Err(EINVAL.into());
    }
    let n = (room as usize).min(addr.len());
    c.write(at, &addr[..n])?;
    c.write_obj(len_at, &(addr.len() as u32))
}

/// The sockaddr_un of `name`: a path (with its NUL), an abstract name (from its leading NUL),
/// or just the family for an unnamed socket.
fn unix_addr(name: &[u8]) -> Vec<u8> {
    let mut v = (AF_UNIX as u16).to_le_bytes().to_vec();
    v.extend_from_slice(name);
    if name.first().is_some_and(|&b| b != 0) {
        v.push(0);
    }
    v
}

/// The name a guest's sockaddr_un gives: a path up to its NUL, or every byte of an abstract
/// name; empty for none.
fn unix_name(b: &[u8]) -> Result<Vec<u8>, Errno> {
    if b.len() < 2 || b.len() > SUN_LEN || family(b) != AF_UNIX {
        return Err(EINVAL);
    }
    let p = &b[2..];
    Ok(match p.first() {
        Some(0) => p.to_vec(),
        _ => p[..p.iter().position(|&x| x == 0).unwrap_or(p.len())].to_vec(),
    })
}

/// The listener `name` refers to (ECONNREFUSED when nothing listens there).
fn find_listener(k: &Kernel, c: &Call, name: &[u8]) -> Result<u64, Errno> {
    let key = if name[0] == 0 {
        *k.abstract_names
            .get(&(k.vfs.root, name.to_vec()))
            .ok_or(ECONNREFUSED)?
    } else {
        let path = std::str::from_utf8(name).map_err(|_| ENOENT)?;
        match k.vfs.resolve(&k.process(c.pid).cwd, path, true)? {
            Target::Mem(i) => match k.vfs.inodes[i].node {
                Node::Socket(key) => key,
                _ => return Err(ECONNREFUSED),
            },
            Target::Host(..) => return Err(ECONNREFUSED),
        }
    };
    match k.unix.get(&key) {
        Some(u) if u.backlog.is_some() => Ok(key),
        _ => Err(ECONNREFUSED),
    }
}

// ---- the calls ----

/// socket(domain, type, protocol): AF_UNIX streams always; AF_INET/AF_INET6 TCP and UDP as host
/// sockets under `--net` (EACCES without it); the rest refused with a `--strace` note.
pub fn socket(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (domain, ty, proto) = (c.a[0], c.a[1], c.a[2]);
    if ty & !(SOCK_TYPE | O_NONBLOCK | O_CLOEXEC) != 0 {
        return Err(EINVAL.into());
    }
    let fl = (ty & (O_NONBLOCK | O_CLOEXEC)) | O_RDWR;
    let t = ty & SOCK_TYPE;
    let kind = match domain {
        AF_UNIX if t != SOCK_STREAM => {
            return refuse(k, c, t, ESOCKTNOSUPPORT, "AF_UNIX sockets are streams only");
        }
        AF_UNIX if proto != 0 => return Err(EPROTONOSUPPORT.into()),
        AF_UNIX => {
            k.unix_seq += 1;
            k.unix.insert(k.unix_seq, UnixSock::default());
            Kind::Unix(k.unix_seq)
        }
        AF_INET | AF_INET6 if !k.net => {
            return refuse(k, c, domain, EACCES, "the network is off (run with --net)");
        }
        AF_INET | AF_INET6 => {
            let ok = matches!(
                (t, proto),
                (SOCK_STREAM, 0 | IPPROTO_TCP) | (SOCK_DGRAM, 0 | IPPROTO_UDP)
            );
            if !ok {
                return refuse(k, c, t, ESOCKTNOSUPPORT, "only TCP and UDP sockets");
            }
            let flags = t as i32 | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
            // SAFETY: a plain syscall; the fd it returns is owned from here on.
            let raw = unsafe { libc::socket(domain as i32, flags, proto as i32) };
            host(raw as isize)?;
            Kind::Net(HostSock {
                fd: unsafe { OwnedFd::from_raw_fd(raw) },
                connecting: false,
            })
        }
        _ => {
            return refuse(
                k,
                c,
                domain,
                EAFNOSUPPORT,
                "only AF_UNIX, AF_INET, AF_INET6",
            );
        }
    };
    ret(k.install_fd(c.pid, k.new_fd(kind, fl), 0)?)
}

/// socketpair(AF_UNIX, SOCK_STREAM[|SOCK_NONBLOCK|SOCK_CLOEXEC], 0, sv): two connected ends,
/// each reading the pipe the other writes.
pub fn socketpair(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (domain, ty, proto) = (c.a[0], c.a[1], c.a[2]);
    if domain != AF_UNIX {
        return Err(EAFNOSUPPORT.into());
    }
    if ty & !(SOCK_TYPE | O_NONBLOCK | O_CLOEXEC) != 0 {
        return Err(EINVAL.into());
    }
    // Datagram and sequenced-packet pairs keep message boundaries: not yet.
    if ty & SOCK_TYPE != SOCK_STREAM {
        return refuse(k, c, ty & SOCK_TYPE, EOPNOTSUPP, "stream pairs only");
    }
    if proto != 0 {
        return Err(EPROTONOSUPPORT.into());
    }
    let (a, b) = (fresh_pipe(k), fresh_pipe(k));
    let fl = (ty & (O_NONBLOCK | O_CLOEXEC)) | O_RDWR;
    install_pair(k, c, c.a[3], (Kind::Sock(a, b), fl), (Kind::Sock(b, a), fl))
}

/// bind(fd, addr, len): an AF_UNIX socket gets a socket file in garm's tree (EADDRINUSE where
/// a name exists) or an abstract name; a host socket binds on the host.
pub fn bind(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (_, s, _) = sock(k, c, c.i(0))?;
    let addr = read_addr(c, c.a[1], c.a[2])?;
    match s {
        S::Net(raw) => net_addr_call(raw, &addr, libc::bind),
        S::Pair(..) => Err(EINVAL.into()),
        S::Unix(key) => {
            let mut name = unix_name(&addr)?;
            if !k.unix[&key].name.is_empty() {
                return Err(EINVAL.into());
            }
            if name.is_empty() {
                // Autobind: an abstract name of Linux's form.
                name = format!("\0{:05x}", key & 0xfffff).into_bytes();
            }
            if name[0] == 0 {
                let at = (k.vfs.root, name.clone());
                if k.abstract_names.contains_key(&at) {
                    return Err(EADDRINUSE.into());
                }
                k.abstract_names.insert(at, key);
            } else {
                let path = String::from_utf8(name.clone()).map_err(|_| EINVAL)?;
                let p = k.process(c.pid);
                let (cwd, umask) = (p.cwd.clone(), p.umask);
                match k.vfs.resolve_parent(&cwd, &path)? {
                    (Target::Mem(dir), last) => {
                        if !matches!(k.vfs.inodes[dir].node, Node::Dir(_)) {
                            return Err(ENOTDIR.into());
                        }
                        if k.vfs.child(dir, &last).is_some() {
                            return Err(EADDRINUSE.into());
                        }
                        let mode = vfs::S_IFSOCK | (0o777 & !umask);
                        k.vfs.add(dir, &last, Node::Socket(key), mode);
                    }
                    (Target::Host(_, true), _) => return Err(EROFS.into()),
                    (Target::Host(..), _) => {
                        return refuse(k, c, 0, EACCES, "sockets live in garm's tree, not mounts");
                    }
                }
            }
            k.unix.get_mut(&key).expect("open socket").name = name;
            ret(0)
        }
    }
}

/// bind or connect on a host socket with the guest's address.
fn net_addr_call(
    raw: RawFd,
    addr: &[u8],
    f: unsafe extern "C" fn(i32, *const libc::sockaddr, libc::socklen_t) -> i32,
) -> SysResult {
    let mut st = [0u8; SOCKADDR_MAX];
    st[..addr.len()].copy_from_slice(addr);
    // SAFETY: the address buffer is ours, sockaddr_storage-sized, with its length.
    let r = unsafe { f(raw, st.as_ptr().cast(), addr.len() as u32) };
    host(r as isize)?;
    ret(0)
}

/// listen(fd, backlog).
pub fn listen(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (_, s, _) = sock(k, c, c.i(0))?;
    let backlog = match c.a[1] as i32 {
        b if b < 0 => SOMAXCONN,
        b => (b as usize).min(SOMAXCONN),
    };
    match s {
        S::Net(raw) => {
            // SAFETY: a plain syscall on an fd the description owns.
            host(unsafe { libc::listen(raw, backlog as i32) } as isize)?;
            ret(0)
        }
        S::Pair(..) => Err(EINVAL.into()),
        S::Unix(key) => {
            let u = k.unix.get_mut(&key).expect("open socket");
            if u.name.is_empty() {
                return Err(EINVAL.into());
            }
            u.backlog = Some(backlog);
            ret(0)
        }
    }
}

pub fn accept(k: &mut Kernel, c: &mut Call) -> SysResult {
    c.a[3] = 0;
    accept4(k, c)
}

/// accept4(fd, addr, addrlen, flags): the next queued connection as a new fd.
pub fn accept4(k: &mut Kernel, c: &mut Call) -> SysResult {
    let flags = c.a[3];
    if flags & !(O_NONBLOCK | O_CLOEXEC) != 0 {
        return Err(EINVAL.into());
    }
    let (_, s, nonblock) = sock(k, c, c.i(0))?;
    let fl = O_RDWR | flags;
    let (kind, peer) = match s {
        S::Pair(..) => return Err(EINVAL.into()),
        S::Unix(key) => {
            let u = k.unix.get_mut(&key).expect("open socket");
            if u.backlog.is_none() {
                return Err(EINVAL.into());
            }
            let Some((rx, tx)) = u.queue.pop_front() else {
                return wait_local(nonblock);
            };
            (Kind::Sock(rx, tx), unix_addr(&k.pipes[tx].name))
        }
        S::Net(raw) => {
            let mut st = [0u8; SOCKADDR_MAX];
            let mut len = SOCKADDR_MAX as libc::socklen_t;
            let hfl = libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
            // SAFETY: the address buffer and its length are ours.
            let r = unsafe { libc::accept4(raw, st.as_mut_ptr().cast(), &mut len, hfl) };
            match host(r as isize) {
                Ok(_) => {}
                Err(EAGAIN) => return wait_net(k, c, nonblock),
                Err(e) => return Err(e.into()),
            }
            let fd = unsafe { OwnedFd::from_raw_fd(r) };
            let h = HostSock {
                fd,
                connecting: false,
            };
            (
                Kind::Net(h),
                st[..(len as usize).min(SOCKADDR_MAX)].to_vec(),
            )
        }
    };
    let fd = k.install_fd(c.pid, k.new_fd(kind, fl), 0)?;
    if let Err(e) = put_addr(c, c.a[1], c.a[2], &peer) {
        k.process_mut(c.pid).fds[fd] = None;
        return Err(e);
    }
    ret(fd)
}

/// connect(fd, addr, len): to a listening AF_UNIX socket (queued for its accept at once), or a
/// host socket's connect (a blocking guest waits for it to finish).
pub fn connect(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (f, s, nonblock) = sock(k, c, c.i(0))?;
    let addr = read_addr(c, c.a[1], c.a[2])?;
    match s {
        S::Pair(..) => Err(EISCONN.into()),
        S::Net(raw) => {
            if let Kind::Net(h) = &mut f.file.borrow_mut().kind {
                if h.connecting {
                    if host_ready(raw) & (ev::OUT | ev::ERR | ev::HUP) == 0 {
                        return wait_net(k, c, nonblock);
                    }
                    h.connecting = false;
                    return match so_error(raw) {
                        0 => ret(0),
                        e => Err(Errno(e).into()),
                    };
                }
            }
            match net_addr_call(raw, &addr, libc::connect) {
                Err(Fail::Errno(EINPROGRESS)) if !nonblock => {
                    if let Kind::Net(h) = &mut f.file.borrow_mut().kind {
                        h.connecting = true;
                    }
                    wait_net(k, c, false)
                }
                r => r,
            }
        }
        S::Unix(key) => {
            let name = unix_name(&addr)?;
            if name.is_empty() {
                return Err(EINVAL.into());
            }
            let own = &k.unix[&key];
            if own.backlog.is_some() {
                return Err(EINVAL.into());
            }
            let own_name = own.name.clone();
            let lk = find_listener(k, c, &name)?;
            let l = &k.unix[&lk];
            // Linux lets backlog + 1 connections wait.
            if l.queue.len() > l.backlog.unwrap_or(0) {
                return wait_local(nonblock);
            }
            let lname = l.name.clone();
            // `up` carries the client's bytes to the server, `down` the replies.
            let (up, down) = (fresh_pipe(k), fresh_pipe(k));
            k.pipes[up].name = lname;
            k.pipes[down].name = own_name;
            k.unix
                .get_mut(&lk)
                .expect("listener")
                .queue
                .push_back((up, down));
            forget_unix(k, key);
            f.file.borrow_mut().kind = Kind::Sock(down, up);
            ret(0)
        }
    }
}

/// The pending error of a host socket (SO_ERROR), cleared by reading it.
fn so_error(raw: RawFd) -> i32 {
    let mut v = 0i32;
    let mut len = 4 as libc::socklen_t;
    // SAFETY: an int-sized option into an int.
    unsafe {
        libc::getsockopt(
            raw,
            libc::SOL_SOCKET,
            libc::SO_ERROR,
            (&mut v as *mut i32).cast(),
            &mut len,
        )
    };
    v
}

/// Drops an AF_UNIX socket's entry (it closed, or it connected and is a pair now): its
/// abstract name goes, queued connections see their peer gone, a socket file stays (connect
/// then answers ECONNREFUSED, as to a stale socket file on Linux).
pub(super) fn forget_unix(k: &mut Kernel, key: u64) {
    let Some(u) = k.unix.remove(&key) else {
        return;
    };
    k.abstract_names.retain(|_, v| *v != key);
    let mut q = k.closes.borrow_mut();
    for (rx, tx) in u.queue {
        q.push(Closed::PipeReader(rx));
        q.push(Closed::PipeWriter(tx));
    }
}

/// getsockname(fd, addr, len) and getpeername.
pub fn getsockname(k: &mut Kernel, c: &mut Call) -> SysResult {
    name_of(k, c, false)
}

pub fn getpeername(k: &mut Kernel, c: &mut Call) -> SysResult {
    name_of(k, c, true)
}

fn name_of(k: &mut Kernel, c: &mut Call, peer: bool) -> SysResult {
    let (_, s, _) = sock(k, c, c.i(0))?;
    if c.a[1] == 0 {
        return Err(EFAULT.into());
    }
    let addr = match s {
        S::Pair(rx, tx) => {
            let p = if peer { tx } else { rx };
            unix_addr(k.pipes.get(p).map_or(&[][..], |p| &p.name))
        }
        S::Unix(_) if peer => return Err(ENOTCONN.into()),
        S::Unix(key) => unix_addr(&k.unix[&key].name),
        S::Net(raw) => {
            let mut st = [0u8; SOCKADDR_MAX];
            let mut len = SOCKADDR_MAX as libc::socklen_t;
            let f = if peer {
                libc::getpeername
            } else {
                libc::getsockname
            };
            // SAFETY: the address buffer and its length are ours.
            host(unsafe { f(raw, st.as_mut_ptr().cast(), &mut len) } as isize)?;
            st[..(len as usize).min(SOCKADDR_MAX)].to_vec()
        }
    };
    put_addr(c, c.a[1], c.a[2], &addr)?;
    ret(0)
}

/// shutdown(fd, SHUT_RD|SHUT_WR|SHUT_RDWR): the peer reads end of file once this end stops
/// writing; this end reads end of file once it stops reading.
pub fn shutdown(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (f, s, _) = sock(k, c, c.i(0))?;
    let how = c.a[1];
    if how > 2 {
        return Err(EINVAL.into());
    }
    match s {
        S::Unix(_) => Err(ENOTCONN.into()),
        S::Net(raw) => {
            // SAFETY: a plain syscall on an fd the description owns.
            host(unsafe { libc::shutdown(raw, how as i32) } as isize)?;
            ret(0)
        }
        S::Pair(rx, tx) => {
            let (mut rx2, mut tx2) = (rx, tx);
            if how != 1 && rx != SHUT {
                k.pipes[rx].readers = k.pipes[rx].readers.saturating_sub(1);
                rx2 = SHUT;
            }
            if how != 0 && tx != SHUT {
                k.pipes[tx].writers = k.pipes[tx].writers.saturating_sub(1);
                tx2 = SHUT;
            }
            f.file.borrow_mut().kind = Kind::Sock(rx2, tx2);
            ret(0)
        }
    }
}

// ---- moving bytes ----

/// Guest buffers of one send or receive: (address, length), in order.
type Bufs = Vec<(u64, usize)>;

/// Sends from `bufs` with `flags` (to `dest` for an unconnected datagram socket): what write,
/// sendto and sendmsg do on a socket.
fn send_from(
    k: &mut Kernel,
    c: &mut Call,
    fd: i64,
    bufs: &Bufs,
    flags: u64,
    dest: &[u8],
) -> SysResult {
    let (_, s, nonblock) = sock(k, c, fd)?;
    let nonblock = nonblock || flags & MSG_DONTWAIT != 0;
    if flags & !(HOST_MSG | MSG_DONTWAIT | MSG_NOSIGNAL) != 0 {
        return Err(EOPNOTSUPP.into());
    }
    let total: usize = bufs.iter().map(|b| b.1).sum();
    let pipe = |k: &mut Kernel, c: &mut Call| -> SysResult {
        if flags & MSG_NOSIGNAL != 0 {
            Err(EPIPE.into())
        } else {
            signal::broken_pipe(k, c.g, c.pid)
        }
    };
    match s {
        S::Unix(_) if dest.is_empty() => Err(ENOTCONN.into()),
        S::Unix(_) => Err(EOPNOTSUPP.into()),
        S::Pair(..) if !dest.is_empty() => Err(EISCONN.into()),
        S::Pair(_, tx) => {
            if tx == SHUT || k.pipes[tx].readers == 0 {
                return pipe(k, c);
            }
            if total == 0 {
                return ret(0);
            }
            let room = pipe_room(&k.pipes[tx], total);
            if room == 0 {
                return wait_local(nonblock);
            }
            let data = gather(c, bufs, room)?;
            k.pipes[tx].push(&data);
            ret(data.len())
        }
        S::Net(raw) => {
            let data = gather(c, bufs, IO_MAX)?;
            let mut st = [0u8; SOCKADDR_MAX];
            st[..dest.len()].copy_from_slice(dest);
            let to = if dest.is_empty() {
                std::ptr::null()
            } else {
                st.as_ptr().cast()
            };
            let hfl = (flags & HOST_MSG) as i32 | libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL;
            // SAFETY: our buffers, with their lengths.
            let r = unsafe {
                libc::sendto(
                    raw,
                    data.as_ptr().cast(),
                    data.len(),
                    hfl,
                    to,
                    dest.len() as u32,
                )
            };
            match host(r) {
                Ok(n) => ret(n),
                Err(EAGAIN) => wait_net(k, c, nonblock),
                Err(EPIPE) => pipe(k, c),
                Err(e) => Err(e.into()),
            }
        }
    }
}

/// The bytes of `bufs`, `max` at most.
fn gather(c: &mut Call, bufs: &Bufs, max: usize) -> Result<Vec<u8>, Fail> {
    let mut data = Vec::new();
    for &(at, len) in bufs {
        let n = len.min(max - data.len());
        data.extend(c.read(at, n)?);
        if data.len() == max {
            break;
        }
    }
    Ok(data)
}

/// Spreads `data` over `bufs` in order.
fn scatter(c: &mut Call, bufs: &Bufs, data: &[u8]) -> Result<(), Fail> {
    let mut rest = data;
    for &(at, len) in bufs {
        let n = len.min(rest.len());
        c.write(at, &rest[..n])?;
        rest = &rest[n..];
    }
    Ok(())
}

/// Receives into `bufs` with `flags`; the sender's address (when there is one) for `from`:
/// what read, recvfrom and recvmsg do on a socket. Answers the byte count and the address.
fn recv_into(
    k: &mut Kernel,
    c: &mut Call,
    fd: i64,
    bufs: &Bufs,
    flags: u64,
) -> Result<Result<(usize, Vec<u8>), Sys>, Fail> {
    let (_, s, nonblock) = sock(k, c, fd)?;
    let nonblock = nonblock || flags & MSG_DONTWAIT != 0;
    if flags & !(HOST_MSG | MSG_DONTWAIT | MSG_NOSIGNAL) != 0 {
        return Err(EOPNOTSUPP.into());
    }
    let total: usize = bufs.iter().map(|b| b.1).sum::<usize>().min(IO_MAX);
    // A bad buffer fails before anything is taken, as on Linux.
    for &(at, len) in bufs {
        if !c.g.in_bounds(c.slot, at, len) {
            return Err(EFAULT.into());
        }
        c.writable(at, len)?;
        c.ready(at, len)?;
    }
    let blocked = |r: SysResult| -> Result<Result<(usize, Vec<u8>), Sys>, Fail> { r.map(Err) };
    match s {
        S::Unix(_) => Err(ENOTCONN.into()),
        // A socket whose reading side was shut down reads end of file.
        S::Pair(SHUT, _) => Ok(Ok((0, Vec::new()))),
        S::Pair(rx, _) => {
            let p = &mut k.pipes[rx];
            if total > 0 && p.writers > 0 {
                if p.buf.is_empty() {
                    return blocked(wait_local(nonblock));
                }
                // MSG_WAITALL waits for all of it unless it may not wait.
                if flags & MSG_WAITALL != 0 && p.buf.len() < total && !nonblock {
                    return blocked(wait_local(false));
                }
            }
            let n = total.min(p.buf.len());
            let data: Vec<u8> = if flags & MSG_PEEK != 0 {
                p.buf.iter().take(n).copied().collect()
            } else {
                p.buf.drain(..n).collect()
            };
            scatter(c, bufs, &data)?;
            Ok(Ok((n, Vec::new())))
        }
        S::Net(raw) => {
            let mut data = vec![0u8; total];
            let mut st = [0u8; SOCKADDR_MAX];
            let mut len = SOCKADDR_MAX as libc::socklen_t;
            let hfl = (flags & HOST_MSG & !MSG_WAITALL) as i32 | libc::MSG_DONTWAIT;
            if flags & MSG_WAITALL != 0 && !nonblock {
                // Wait until all of it is there (or the peer is done).
                let pk = libc::MSG_PEEK | libc::MSG_DONTWAIT;
                // SAFETY: our buffer with its length.
                let r = unsafe { libc::recv(raw, data.as_mut_ptr().cast(), total, pk) };
                match host(r) {
                    Ok(n) if n < total && n > 0 => return blocked(wait_net(k, c, false)),
                    Err(EAGAIN) => return blocked(wait_net(k, c, false)),
                    _ => {}
                }
            }
            // SAFETY: our buffers with their lengths.
            let r = unsafe {
                libc::recvfrom(
                    raw,
                    data.as_mut_ptr().cast(),
                    total,
                    hfl,
                    st.as_mut_ptr().cast(),
                    &mut len,
                )
            };
            let n = match host(r) {
                Ok(n) => n,
                Err(EAGAIN) => return blocked(wait_net(k, c, nonblock)),
                Err(e) => return Err(e.into()),
            };
            // MSG_TRUNC on a datagram answers its full length, beyond what was copied.
            scatter(c, bufs, &data[..n.min(total)])?;
            Ok(Ok((n, st[..(len as usize).min(SOCKADDR_MAX)].to_vec())))
        }
    }
}

/// read/write on a socket that is not a plain pair (a host socket, an unconnected AF_UNIX
/// socket): a send or receive without flags.
pub(super) fn read_write(k: &mut Kernel, c: &mut Call, io: Io, write: bool) -> SysResult {
    let bufs = vec![(io.buf, io.len)];
    if write {
        send_from(k, c, io.fd, &bufs, 0, &[])
    } else {
        match recv_into(k, c, io.fd, &bufs, 0)? {
            Ok((n, _)) => ret(n),
            Err(s) => Ok(s),
        }
    }
}

/// sendto(fd, buf, len, flags, dest, destlen).
pub fn sendto(k: &mut Kernel, c: &mut Call) -> SysResult {
    let dest = if c.a[4] != 0 {
        read_addr(c, c.a[4], c.a[5])?
    } else {
        Vec::new()
    };
    let bufs = vec![(c.a[1], c.a[2] as usize)];
    send_from(k, c, c.i(0), &bufs, c.a[3], &dest)
}

/// recvfrom(fd, buf, len, flags, src, srclen).
pub fn recvfrom(k: &mut Kernel, c: &mut Call) -> SysResult {
    let bufs = vec![(c.a[1], c.a[2] as usize)];
    match recv_into(k, c, c.i(0), &bufs, c.a[3])? {
        Ok((n, from)) => {
            if c.a[4] != 0 {
                let from = if from.is_empty() {
                    unix_addr(&[])
                } else {
                    from
                };
                put_addr(c, c.a[4], c.a[5], &from)?;
            }
            ret(n)
        }
        Err(s) => Ok(s),
    }
}

/// struct msghdr (LP64).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct MsgHdr {
    name: u64,
    namelen: u32,
    _pad: u32,
    iov: u64,
    iovlen: u64,
    control: u64,
    controllen: u64,
    flags: i32,
    _pad2: u32,
}

/// The buffers a msghdr's iovec array names.
fn msg_bufs(c: &mut Call, m: &MsgHdr) -> Result<Bufs, Fail> {
    if m.iovlen > UIO_MAXIOV {
        return Err(EMSGSIZE.into());
    }
    let iov: Vec<Iovec> = c.g.read_objs(c.slot, m.iov, m.iovlen as usize)?;
    Ok(iov.iter().map(|v| (v.base, v.len as usize)).collect())
}

/// sendmsg(fd, msg, flags): its iovecs as one send (no ancillary data: file descriptors and
/// credentials do not pass).
pub fn sendmsg(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.fd(c.pid, c.i(0))?;
    let m: MsgHdr = c.read_obj(c.a[1])?;
    if m.controllen != 0 {
        return refuse(
            k,
            c,
            0,
            EOPNOTSUPP,
            "ancillary data (SCM_RIGHTS) is not passed",
        );
    }
    let dest = if m.name != 0 {
        read_addr(c, m.name, m.namelen as u64)?
    } else {
        Vec::new()
    };
    let bufs = msg_bufs(c, &m)?;
    send_from(k, c, c.i(0), &bufs, c.a[2], &dest)
}

/// recvmsg(fd, msg, flags): into its iovecs; the sender's name where asked, no ancillary data.
pub fn recvmsg(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.fd(c.pid, c.i(0))?;
    let mut m: MsgHdr = c.read_obj(c.a[1])?;
    let bufs = msg_bufs(c, &m)?;
    match recv_into(k, c, c.i(0), &bufs, c.a[2])? {
        Ok((n, from)) => {
            if m.name != 0 {
                let from = if from.is_empty() {
                    unix_addr(&[])
                } else {
                    from
                };
                let len = from.len().min(m.namelen as usize);
                c.write(m.name, &from[..len])?;
                m.namelen = from.len() as u32;
            }
            m.controllen = 0;
            m.flags = 0;
            c.write_obj(c.a[1], &m)?;
            ret(n)
        }
        Err(s) => Ok(s),
    }
}

// ---- options ----

const SOL_SOCKET: u64 = 1;
const SO_TYPE: u64 = 3;
const SO_ERROR: u64 = 4;
const SO_SNDBUF: u64 = 7;
const SO_RCVBUF: u64 = 8;
const SO_LINGER: u64 = 13;
const SO_ACCEPTCONN: u64 = 30;
const SO_PROTOCOL: u64 = 38;
const SO_DOMAIN: u64 = 39;

/// Options a host socket takes as the guest gives them (level, name): int values, and
/// SO_LINGER's two ints (the same on every 64-bit Linux).
const HOST_OPTS: &[(u64, u64)] = &[
    (SOL_SOCKET, 2), // SO_REUSEADDR
    (SOL_SOCKET, SO_TYPE),
    (SOL_SOCKET, SO_ERROR),
    (SOL_SOCKET, 6), // SO_BROADCAST
    (SOL_SOCKET, SO_SNDBUF),
    (SOL_SOCKET, SO_RCVBUF),
    (SOL_SOCKET, 9), // SO_KEEPALIVE
    (SOL_SOCKET, SO_LINGER),
    (SOL_SOCKET, 15), // SO_REUSEPORT
    (SOL_SOCKET, SO_ACCEPTCONN),
    (SOL_SOCKET, SO_PROTOCOL),
    (SOL_SOCKET, SO_DOMAIN),
    (0, 1),           // IP_TOS
    (0, 2),           // IP_TTL
    (IPPROTO_TCP, 1), // TCP_NODELAY
    (IPPROTO_TCP, 4), // TCP_KEEPIDLE
    (IPPROTO_TCP, 5), // TCP_KEEPINTVL
    (IPPROTO_TCP, 6), // TCP_KEEPCNT
    (41, 26),         // IPV6_V6ONLY
];

/// setsockopt(fd, level, name, value, len).
pub fn setsockopt(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (_, s, _) = sock(k, c, c.i(0))?;
    let (level, name, len) = (c.a[1], c.a[2], c.a[4] as usize);
    if (len as i32) < 0 {
        return Err(EINVAL.into());
    }
    let known = HOST_OPTS.contains(&(level, name));
    match s {
        S::Net(raw) if known => {
            let v = c.read(c.a[3], len.min(16))?;
            // SAFETY: our buffer with its length.
            let r = unsafe {
                libc::setsockopt(
                    raw,
                    level as i32,
                    name as i32,
                    v.as_ptr().cast(),
                    v.len() as u32,
                )
            };
            host(r as isize)?;
            ret(0)
        }
        // A garm socket is two pipes: buffer sizes, reuse and keepalive change nothing.
        S::Pair(..) | S::Unix(_) if level == SOL_SOCKET && matches!(name, 2 | 7 | 8 | 9 | 15) => {
            if len < 4 {
                return Err(EINVAL.into());
            }
            c.read(c.a[3], 4)?;
            ret(0)
        }
        _ => unknown_opt(k, c, level, name),
    }
}

/// An option garm does not model: ENOPROTOOPT, said once under `--strace`.
fn unknown_opt(k: &mut Kernel, c: &Call, level: u64, name: u64) -> SysResult {
    let why = format!("option level {level} name {name} is not supported");
    refuse(k, c, level << 16 | name, ENOPROTOOPT, &why)
}

/// getsockopt(fd, level, name, value, len).
pub fn getsockopt(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (_, s, _) = sock(k, c, c.i(0))?;
    let (level, name) = (c.a[1], c.a[2]);
    let room: i32 = c.read_obj(c.a[4])?;
    if room < 0 {
        return Err(EINVAL.into());
    }
    let value: Vec<u8> = match s {
        S::Net(raw) if HOST_OPTS.contains(&(level, name)) => {
            let mut v = [0u8; 16];
            let mut len = 16 as libc::socklen_t;
            // SAFETY: our buffer with its length.
            let r = unsafe {
                libc::getsockopt(
                    raw,
                    level as i32,
                    name as i32,
                    v.as_mut_ptr().cast(),
                    &mut len,
                )
            };
            host(r as isize)?;
            v[..(len as usize).min(16)].to_vec()
        }
        S::Pair(..) | S::Unix(_) if level == SOL_SOCKET => {
            let listening = matches!(s, S::Unix(key) if k.unix[&key].backlog.is_some());
            let v: i32 = match name {
                SO_TYPE => SOCK_STREAM as i32,
                SO_ERROR | SO_PROTOCOL => 0,
                SO_DOMAIN => AF_UNIX as i32,
                SO_SNDBUF | SO_RCVBUF => PIPE_CAP as i32,
                SO_ACCEPTCONN => listening as i32,
                _ => return unknown_opt(k, c, level, name),
            };
            v.to_le_bytes().to_vec()
        }
        _ => return unknown_opt(k, c, level, name),
    };
    let n = (room as usize).min(value.len());
    c.write(c.a[3], &value[..n])?;
    c.write_obj(c.a[4], &(n as u32))?;
    ret(0)
}

// ---- readiness ----

use crate::os::abi::poll as ev;

/// What a host socket is ready for now (POLLIN/POLLOUT/POLLHUP/POLLERR; the same bits on every
/// Linux).
pub fn host_ready(raw: RawFd) -> i16 {
    let mut p = libc::pollfd {
        fd: raw,
        events: libc::POLLIN | libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one pollfd of ours, no waiting.
    unsafe { libc::poll(&mut p, 1, 0) };
    p.revents
}

/// What an unconnected AF_UNIX socket is ready for: a listener with a connection waiting
/// reads; a fresh socket is not ready (Linux says POLLOUT|POLLHUP; nothing would succeed).
pub fn unix_ready(k: &Kernel, key: u64) -> i16 {
    match k.unix.get(&key) {
        Some(u) if !u.queue.is_empty() => ev::IN,
        Some(u) if u.backlog.is_some() => 0,
        _ => ev::OUT | ev::HUP,
    }
}
