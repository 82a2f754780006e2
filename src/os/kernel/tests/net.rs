//! AF_UNIX sockets by path and abstract name, the socket calls' errors, and host sockets
//! under `--net` (on the host's loopback).

use super::*;

const AF_UNIX: u64 = 1;
const STREAM: u64 = 1;
const ADDR: u64 = BUF + 0x800;
const LEN: u64 = BUF + 0xa00;

impl T {
    /// A sockaddr_un for `path` at ADDR; its length.
    fn sun(&mut self, path: &[u8]) -> u64 {
        let mut a = (AF_UNIX as u16).to_le_bytes().to_vec();
        a.extend_from_slice(path);
        a.push(0);
        self.put(ADDR, &a);
        a.len() as u64
    }

    fn unix_socket(&mut self) -> u64 {
        let fd = self.call(nr::SOCKET, &[AF_UNIX, STREAM, 0]);
        assert!(fd >= 0, "socket: {fd}");
        fd as u64
    }

    /// A listener bound to `path`.
    fn listener(&mut self, path: &[u8]) -> u64 {
        let l = self.unix_socket();
        let len = self.sun(path);
        assert_eq!(self.call(nr::BIND, &[l, ADDR, len]), 0);
        assert_eq!(self.call(nr::LISTEN, &[l, 4]), 0);
        l
    }

    /// The address getsockname/getpeername/accept wrote.
    fn name(&mut self, n: u64, fd: u64) -> Result<Vec<u8>, Errno> {
        self.put(LEN, &128u32.to_le_bytes());
        let r = self.call(n, &[fd, ADDR, LEN]);
        if let Some(e) = Errno::from_ret(r) {
            return Err(e);
        }
        let len: u32 = self.get_obj(LEN);
        Ok(self.get(ADDR, len as usize))
    }
}

fn sun_bytes(path: &[u8]) -> Vec<u8> {
    let mut a = vec![1, 0];
    a.extend_from_slice(path);
    if path.first() != Some(&0) {
        a.push(0);
    }
    a
}

#[test]
fn a_unix_socket_by_path_connects_to_its_listener() {
    let mut t = T::new();
    let l = t.listener(b"/tmp/s");
    let c = t.unix_socket();
    let len = t.sun(b"/tmp/s");
    assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), 0);
    assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), EISCONN.ret());
    let s = t.call(nr::ACCEPT4, &[l, 0, 0, O_CLOEXEC]) as u64;
    assert!(s > c, "accepted fd {s}");
    assert_eq!(t.write_fd(c as i64, b"ping"), 4);
    assert_eq!(t.read_fd(s as i64, 16).unwrap(), b"ping");
    assert_eq!(t.write_fd(s as i64, b"pong"), 4);
    assert_eq!(t.read_fd(c as i64, 16).unwrap(), b"pong");
    // Names: the accepted end is the listener's; the client is unnamed.
    assert_eq!(t.name(nr::GETSOCKNAME, s).unwrap(), sun_bytes(b"/tmp/s"));
    assert_eq!(t.name(nr::GETPEERNAME, c).unwrap(), sun_bytes(b"/tmp/s"));
    assert_eq!(t.name(nr::GETPEERNAME, s).unwrap(), vec![1, 0]);
    assert_eq!(t.name(nr::GETSOCKNAME, l).unwrap(), sun_bytes(b"/tmp/s"));
    assert_eq!(t.name(nr::GETPEERNAME, l), Err(ENOTCONN));
    // The socket file is a socket: open refuses it, a second bind finds it in use.
    let mut st = [0u8; 128];
    let p = t.cstr(BUF2 + 0x100, "/tmp/s");
    assert_eq!(
        t.call(nr::NEWFSTATAT, &[AT_FDCWD as u64, p, BUF2 + 0x200, 0]),
        0
    );
    st.copy_from_slice(&t.get(BUF2 + 0x200, 128));
    let mode = u32::from_le_bytes(st[16..20].try_into().unwrap());
    assert_eq!(mode & 0o170000, 0o140000, "S_IFSOCK");
    assert_eq!(t.open("/tmp/s", 0, 0), ENXIO.ret());
    let again = t.unix_socket();
    let len = t.sun(b"/tmp/s");
    assert_eq!(t.call(nr::BIND, &[again, ADDR, len]), EADDRINUSE.ret());
    // Closed: the file stays and refuses; unlinked: gone.
    t.call(nr::CLOSE, &[l]);
    assert_eq!(t.call(nr::CONNECT, &[again, ADDR, len]), ECONNREFUSED.ret());
    assert_eq!(t.call(nr::UNLINKAT, &[AT_FDCWD as u64, p, 0]), 0);
    assert_eq!(t.call(nr::CONNECT, &[again, ADDR, len]), ENOENT.ret());
}

#[test]
fn accept_and_a_full_backlog_wait_unless_non_blocking() {
    let mut t = T::new();
    let l = t.listener(b"/tmp/w");
    assert_eq!(t.sys(nr::ACCEPT4, &[l, 0, 0, 0]), Sys::Block);
    assert_eq!(t.call(nr::FCNTL, &[l, F_SETFL, O_NONBLOCK]), 0);
    assert_eq!(t.call(nr::ACCEPT4, &[l, 0, 0, 0]), EAGAIN.ret());
    // Backlog 4: five connections queue (Linux allows backlog + 1), the sixth waits.
    let len = t.sun(b"/tmp/w");
    for _ in 0..5 {
        let c = t.unix_socket();
        assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), 0);
    }
    let c = t.unix_socket();
    assert_eq!(t.sys(nr::CONNECT, &[c, ADDR, len]), Sys::Block);
    let nb = t.call(nr::SOCKET, &[AF_UNIX, STREAM | O_NONBLOCK, 0]) as u64;
    assert_eq!(t.call(nr::CONNECT, &[nb, ADDR, len]), EAGAIN.ret());
    // Poll sees the queue; accepting one makes room.
    t.put(BUF, &[l as u8, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(t.call(nr::PPOLL, &[BUF, 1, 0, 0, 8]), 1);
    assert!(t.call(nr::ACCEPT4, &[l, 0, 0, 0]) >= 0);
    assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), 0);
}

#[test]
fn connections_waiting_when_the_listener_closes_see_their_peer_gone() {
    let mut t = T::new();
    let l = t.listener(b"/tmp/gone");
    let c = t.unix_socket();
    let len = t.sun(b"/tmp/gone");
    assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), 0);
    t.call(nr::CLOSE, &[l]);
    assert_eq!(t.read_fd(c as i64, 8).unwrap(), b"", "end of file");
    t.put(BUF2, b"x");
    let msg_nosignal = 0x4000;
    assert_eq!(
        t.call(nr::SENDTO, &[c, BUF2, 1, msg_nosignal, 0, 0]),
        EPIPE.ret()
    );
    assert!(t.k.unix.is_empty(), "no socket entry is left");
}

#[test]
fn abstract_names_have_no_file_and_go_with_their_socket() {
    let mut t = T::new();
    // Every byte of an abstract name counts (no NUL ends it): bind with the exact length.
    let l = t.unix_socket();
    let len = t.sun(b"\0abs") - 1;
    assert_eq!(t.call(nr::BIND, &[l, ADDR, len]), 0);
    assert_eq!(t.call(nr::LISTEN, &[l, 4]), 0);
    assert_eq!(t.open("/abs", 0, 0), ENOENT.ret());
    let c = t.unix_socket();
    assert_eq!(
        t.call(nr::CONNECT, &[c, ADDR, len + 1]),
        ECONNREFUSED.ret(),
        "another name"
    );
    assert_eq!(t.call(nr::CONNECT, &[c, ADDR, len]), 0);
    assert_eq!(t.name(nr::GETPEERNAME, c).unwrap(), sun_bytes(b"\0abs"));
    let other = t.unix_socket();
    assert_eq!(t.call(nr::BIND, &[other, ADDR, len]), EADDRINUSE.ret());
    t.call(nr::CLOSE, &[l]);
    assert_eq!(
        t.call(nr::BIND, &[other, ADDR, len]),
        0,
        "the name is free again"
    );
    // An empty address autobinds to an abstract name.
    let auto = t.unix_socket();
    assert_eq!(t.call(nr::BIND, &[auto, ADDR, 2]), 0);
    let name = t.name(nr::GETSOCKNAME, auto).unwrap();
    assert_eq!((name.len(), name[2]), (8, 0), "{name:?}");
}

#[test]
fn hostile_socket_arguments_get_their_errno() {
    let mut t = T::new();
    let s = t.unix_socket();
    let len = t.sun(b"/tmp/h");
    assert_eq!(t.call(nr::BIND, &[s, ADDR, 200]), EINVAL.ret(), "too long");
    assert_eq!(
        t.call(nr::BIND, &[s, ADDR, u64::MAX]),
        EINVAL.ret(),
        "negative"
    );
    assert_eq!(t.call(nr::BIND, &[s, ADDR, 1]), EINVAL.ret(), "short");
    assert_eq!(t.call(nr::BIND, &[s, 0x8, len]), EFAULT.ret());
    t.put(ADDR, &[2, 0]);
    assert_eq!(
        t.call(nr::BIND, &[s, ADDR, len]),
        EINVAL.ret(),
        "AF_INET address"
    );
    let len = t.sun(b"/nonexistent/x");
    assert_eq!(t.call(nr::BIND, &[s, ADDR, len]), ENOENT.ret());
    assert_eq!(t.call(nr::CONNECT, &[s, ADDR, len]), ENOENT.ret());
    t.put_file("/tmp/plain", b"data");
    let len = t.sun(b"/tmp/plain");
    assert_eq!(t.call(nr::CONNECT, &[s, ADDR, len]), ECONNREFUSED.ret());
    assert_eq!(t.call(nr::CONNECT, &[s, ADDR, 2]), EINVAL.ret());
    assert_eq!(t.call(nr::LISTEN, &[s, 1]), EINVAL.ret(), "unbound");
    assert_eq!(
        t.call(nr::ACCEPT4, &[s, 0, 0, 0]),
        EINVAL.ret(),
        "not listening"
    );
    assert_eq!(
        t.call(nr::ACCEPT4, &[s, 0, 0, 1]),
        EINVAL.ret(),
        "bad flags"
    );
    assert_eq!(t.call(nr::GETSOCKNAME, &[s, 0, LEN]), EFAULT.ret());
    t.put(LEN, &(-1i32).to_le_bytes());
    assert_eq!(t.call(nr::GETSOCKNAME, &[s, ADDR, LEN]), EINVAL.ret());
    assert_eq!(t.call(nr::GETSOCKNAME, &[s, ADDR, 0x8]), EFAULT.ret());
    assert_eq!(t.read_fd(s as i64, 4), Err(ENOTCONN));
    assert_eq!(t.call(nr::SHUTDOWN, &[s, 1]), ENOTCONN.ret());
    for n in [
        nr::BIND,
        nr::LISTEN,
        nr::ACCEPT4,
        nr::CONNECT,
        nr::GETSOCKNAME,
    ] {
        assert_eq!(
            t.call(n, &[1, ADDR, 16, 0]),
            ENOTSOCK.ret(),
            "{n} on the console"
        );
        assert_eq!(t.call(n, &[99, ADDR, 16, 0]), EBADF.ret(), "{n} on no fd");
    }
    // Options: int-sized ones answer, the rest say ENOPROTOOPT; lengths are checked.
    t.put(LEN, &4u32.to_le_bytes());
    assert_eq!(t.call(nr::GETSOCKOPT, &[s, 1, 3, ADDR, LEN]), 0, "SO_TYPE");
    assert_eq!(t.get_obj::<i32>(ADDR), 1);
    assert_eq!(
        t.call(nr::GETSOCKOPT, &[s, 1, 17, ADDR, LEN]),
        ENOPROTOOPT.ret()
    );
    assert_eq!(
        t.call(nr::SETSOCKOPT, &[s, 1, 2, ADDR, 4]),
        0,
        "SO_REUSEADDR"
    );
    assert_eq!(t.call(nr::SETSOCKOPT, &[s, 1, 2, ADDR, 2]), EINVAL.ret());
    assert_eq!(
        t.call(nr::SETSOCKOPT, &[s, 6, 1, ADDR, 4]),
        ENOPROTOOPT.ret()
    );
    // msghdr: a huge iovec count, ancillary data, a bad header.
    let (pa, pb) = {
        assert_eq!(t.call(nr::SOCKETPAIR, &[1, 1, 0, BUF]), 0);
        let [a, b]: [i32; 2] = t.get_obj(BUF);
        (a as u64, b as u64)
    };
    let mut m = [0u64; 7];
    m[2] = BUF2;
    m[3] = 1 << 40;
    t.put(BUF, bytemuck::cast_slice(&m));
    assert_eq!(t.call(nr::SENDMSG, &[pa, BUF, 0]), EMSGSIZE.ret());
    m[3] = 0;
    m[5] = 16;
    t.put(BUF, bytemuck::cast_slice(&m));
    assert_eq!(t.call(nr::SENDMSG, &[pa, BUF, 0]), EOPNOTSUPP.ret());
    assert_eq!(t.call(nr::RECVMSG, &[pb, 0x8, 0]), EFAULT.ret());
    // A gathered send and a scattered receive.
    t.put(BUF2, b"hello world");
    let iov: [u64; 4] = [BUF2, 5, BUF2 + 5, 6];
    t.put(BUF + 0x100, bytemuck::cast_slice(&iov));
    let m = [0, 0, BUF + 0x100, 2, 0, 0, 0u64];
    t.put(BUF, bytemuck::cast_slice(&m));
    assert_eq!(t.call(nr::SENDMSG, &[pa, BUF, 0]), 11);
    let iov: [u64; 4] = [BUF2 + 0x100, 3, BUF2 + 0x200, 100];
    t.put(BUF + 0x100, bytemuck::cast_slice(&iov));
    assert_eq!(t.call(nr::RECVMSG, &[pb, BUF, 0]), 11);
    assert_eq!(t.get(BUF2 + 0x100, 3), b"hel");
    assert_eq!(t.get(BUF2 + 0x200, 8), b"lo world");
}

#[test]
fn host_sockets_under_net_connect_on_the_loopback() {
    let mut t = T::new();
    t.k.net = true;
    let l = t.call(nr::SOCKET, &[2, 1 | O_CLOEXEC, 0]);
    assert!(l >= 0, "{l}");
    let l = l as u64;
    // sockaddr_in 127.0.0.1:0
    let sin = [2u8, 0, 0, 0, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
    t.put(ADDR, &sin);
    assert_eq!(t.call(nr::BIND, &[l, ADDR, 16]), 0);
    assert_eq!(t.call(nr::LISTEN, &[l, 4]), 0);
    let me = t.name(nr::GETSOCKNAME, l).unwrap();
    assert_eq!((me.len(), me[0], &me[4..8]), (16, 2, &[127, 0, 0, 1][..]));
    assert_ne!(&me[2..4], &[0, 0], "a port was given");
    // Nothing to accept yet: a blocking accept waits on the outside world.
    assert_eq!(t.sys(nr::ACCEPT4, &[l, 0, 0, 0]), Sys::Block);
    assert!(t.k.proc(1).net_wait);
    let c = t.call(nr::SOCKET, &[2, 1, 6]) as u64;
    t.put(ADDR, &me);
    // A blocking connect finishes (at once, or on a retry once the host says so).
    let mut r = t.sys(nr::CONNECT, &[c, ADDR, 16]);
    for _ in 0..1000 {
        if r != Sys::Block {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
        r = t.sys(nr::CONNECT, &[c, ADDR, 16]);
    }
    assert_eq!(r, Sys::Ret(0));
    let s = t.call(nr::ACCEPT4, &[l, ADDR, LEN, 0]);
    assert!(s >= 0, "{s}");
    assert_eq!(t.write_fd(c as i64, b"over the loopback"), 17);
    let mut got = Err(EAGAIN);
    for _ in 0..1000 {
        match t.sys(nr::READ, &[s as u64, BUF2 + 0x100, 64]) {
            Sys::Ret(n) => {
                got = Ok(t.get(BUF2 + 0x100, n as usize));
                break;
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(1)),
        }
    }
    assert_eq!(got.unwrap(), b"over the loopback");
    assert_eq!(t.call(nr::SHUTDOWN, &[c, 1]), 0);
    t.put(BUF, &[s as u8, 0, 0, 0, 1, 0, 0, 0]);
    let mut ready = 0;
    for _ in 0..1000 {
        if let Sys::Ret(n) = t.sys(nr::PPOLL, &[BUF, 1, 0, 0, 8]) {
            ready = n;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(ready, 1);
    assert_eq!(t.read_fd(s, 8).unwrap(), b"", "end of file after SHUT_WR");
    // UDP: a datagram to ourselves, with its sender's address.
    let u = t.call(nr::SOCKET, &[2, 2, 0]) as u64;
    t.put(ADDR, &sin);
    assert_eq!(t.call(nr::BIND, &[u, ADDR, 16]), 0);
    let ua = t.name(nr::GETSOCKNAME, u).unwrap();
    t.put(ADDR, &ua);
    t.put(BUF2, b"dgram");
    assert_eq!(t.call(nr::SENDTO, &[u, BUF2, 5, 0, ADDR, 16]), 5);
    t.put(LEN, &16u32.to_le_bytes());
    let mut n = Sys::Block;
    for _ in 0..1000 {
        n = t.sys(nr::RECVFROM, &[u, BUF2 + 0x100, 64, 0, ADDR + 0x40, LEN]);
        if n != Sys::Block {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(n, Sys::Ret(5));
    assert_eq!(t.get(ADDR + 0x40, 16), ua, "the sender is itself");
    assert_eq!(t.call(nr::SOCKET, &[2, 3, 0]), ESOCKTNOSUPPORT.ret(), "raw");
}

#[test]
fn an_eventfd_counts_and_wakes_its_reader() {
    let mut t = T::new();
    let e = t.call(nr::EVENTFD2, &[2, 0]);
    assert!(e >= 0);
    t.put(BUF2, &5u64.to_le_bytes());
    assert_eq!(t.call(nr::WRITE, &[e as u64, BUF2, 8]), 8);
    assert_eq!(t.call(nr::READ, &[e as u64, BUF2, 8]), 8);
    assert_eq!(t.get_obj::<u64>(BUF2), 7);
    assert_eq!(t.sys(nr::READ, &[e as u64, BUF2, 8]), Sys::Block, "empty");
    assert_eq!(
        t.call(nr::READ, &[e as u64, BUF2, 7]),
        EINVAL.ret(),
        "short"
    );
    assert_eq!(t.call(nr::WRITE, &[e as u64, BAD, 8]), EFAULT.ret());
    t.put(BUF2, &u64::MAX.to_le_bytes());
    assert_eq!(t.call(nr::WRITE, &[e as u64, BUF2, 8]), EINVAL.ret());
    t.put(BUF2, &(u64::MAX - 1).to_le_bytes());
    assert_eq!(t.call(nr::WRITE, &[e as u64, BUF2, 8]), 8);
    t.put(BUF2, &1u64.to_le_bytes());
    assert_eq!(t.sys(nr::WRITE, &[e as u64, BUF2, 8]), Sys::Block, "full");
    assert_eq!(t.call(nr::EVENTFD2, &[0, 2]), EINVAL.ret(), "bad flags");
    // A semaphore gives one at a time.
    let s = t.call(nr::EVENTFD2, &[2, 1 | O_NONBLOCK]) as u64;
    for want in [8, 8] {
        assert_eq!(t.call(nr::READ, &[s, BUF2, 8]), want);
        assert_eq!(t.get_obj::<u64>(BUF2), 1);
    }
    assert_eq!(t.call(nr::READ, &[s, BUF2, 8]), EAGAIN.ret());
}

#[test]
fn epoll_waits_until_a_watched_pipe_is_ready_or_time_is_up() {
    let mut t = T::new();
    let ep = t.call(nr::EPOLL_CREATE1, &[O_CLOEXEC]) as u64;
    t.call(nr::PIPE2, &[BUF, 0]);
    let [r, w]: [i32; 2] = t.get_obj(BUF);
    // struct epoll_event { u32 events; u32 pad; u64 data } on aarch64.
    let ev = |events: u32, data: u64| {
        let mut b = events.to_le_bytes().to_vec();
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&data.to_le_bytes());
        b
    };
    t.put(BUF, &ev(1, 42));
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 1, r as u64, BUF]), 0);
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 1, r as u64, BUF]), EEXIST.ret());
    assert_eq!(
        t.sys(nr::EPOLL_PWAIT, &[ep, BUF2, 4, -1i64 as u64, 0, 8]),
        Sys::Block
    );
    assert_eq!(
        t.call(nr::EPOLL_PWAIT, &[ep, BUF2, 4, 0, 0, 8]),
        0,
        "no wait"
    );
    t.write_fd(w as i64, b"x");
    assert_eq!(t.call(nr::EPOLL_PWAIT, &[ep, BUF2, 4, 0, 0, 8]), 1);
    assert_eq!(t.get(BUF2, 16), ev(1, 42));
    // Closing the watched pipe end's last fd takes it off the list.
    t.call(nr::CLOSE, &[r as u64]);
    assert_eq!(t.call(nr::EPOLL_PWAIT, &[ep, BUF2, 4, 0, 0, 8]), 0);
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 2, r as u64, 0]), EBADF.ret());
    // Errors: a bad op, maxevents, the events buffer, a regular file, epoll on itself.
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 9, w as u64, BUF]), EINVAL.ret());
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 1, ep, BUF]), EINVAL.ret());
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 1, w as u64, BAD]), EFAULT.ret());
    assert_eq!(
        t.call(nr::EPOLL_PWAIT, &[ep, BUF2, 0, 0, 0, 8]),
        EINVAL.ret()
    );
    assert_eq!(
        t.call(nr::EPOLL_PWAIT, &[ep, BAD, 4, 0, 0, 8]),
        EFAULT.ret()
    );
    assert_eq!(
        t.call(nr::EPOLL_PWAIT, &[w as u64, BUF2, 4, 0, 0, 8]),
        EINVAL.ret()
    );
    t.put_file("/tmp/f", b"data");
    let f = t.open("/tmp/f", 0, 0) as u64;
    assert_eq!(t.call(nr::EPOLL_CTL, &[ep, 1, f, BUF]), EPERM.ret());
    assert_eq!(t.call(nr::EPOLL_CREATE1, &[1]), EINVAL.ret());
}
