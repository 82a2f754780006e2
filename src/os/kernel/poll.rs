//! Waiting on many fds: ppoll and pselect6 over pipes, sockets, files, the console and stdin. A process
//! with nothing ready blocks like a pipe reader (the others run on) until something is or its
//! timeout passes.

use super::*;
use crate::os::abi::poll as ev;
use web_time::Instant;

/// What a pipe's reading end is ready for: data to read, and HUP once no writer is left.
fn pipe_in(p: &Pipe) -> i16 {
    let mut r = 0;
    if !p.buf.is_empty() {
        r |= ev::IN;
    }
    if p.writers == 0 {
        r |= ev::HUP;
    }
    r
}

/// What a pipe's writing end is ready for: room to write, or an error once no reader is left.
fn pipe_out(p: &Pipe) -> i16 {
    if p.readers == 0 {
        ev::OUT | ev::ERR
    } else if p.buf.len() < PIPE_CAP {
        ev::OUT
    } else {
        0
    }
}

/// What `fd` of `pid` is ready for now (POLLIN/POLLOUT/POLLHUP/POLLERR), or POLLNVAL; what
/// waiting on it would wait for outside garm goes into `outside`.
fn readiness(k: &mut Kernel, pid: Pid, fd: i64, outside: &mut Outside, reading: bool) -> i16 {
    let Ok(f) = k.fd(pid, fd) else {
        return ev::NVAL;
    };
    let inst = k.procs[&pid].inst;
    let of = f.file.borrow();
    outside.add_kind(&of.kind, reading);
    ready_of(k, inst, &of)
}

/// What an open file of instance `inst` is ready for now.
pub(super) fn ready_of(k: &mut Kernel, inst: usize, of: &OpenFile) -> i16 {
    match &of.kind {
        // Standard input is readable once the host has sent something (or closed it).
        Kind::Stdin | Kind::Dev(Dev::Console) if of.flags & O_ACCMODE != O_WRONLY => {
            let mut r = 0;
            if matches!(of.kind, Kind::Dev(_)) {
                r |= ev::OUT;
            }
            if k.stdin.ready(inst) {
                r |= ev::IN;
            }
            if k.stdin.hung_up() {
                r |= ev::HUP;
            }
            r
        }
        Kind::PipeR(p) => pipe_in(&k.pipes[*p]),
        Kind::PipeW(p) => pipe_out(&k.pipes[*p]),
        // A socket reads end of file (readable) once its peer stopped writing or its own
        // reading side was shut; a shut writing side is an error.
        Kind::Sock(rx, tx) => {
            let r = k.pipes.get(*rx).map_or(ev::IN, |p| match pipe_in(p) {
                r if r & ev::HUP != 0 => r | ev::IN,
                r => r,
            });
            r | k.pipes.get(*tx).map_or(ev::OUT | ev::ERR, pipe_out)
        }
        Kind::Unix(key) => net::unix_ready(k, *key),
        Kind::Net(h) => net::host_ready(crate::os::host::fd::AsRawFd::as_raw_fd(&h.fd)),
        Kind::Event { count, .. } => event::event_ready(*count),
        // An epoll instance is readable when something it watches is (one level deep: a
        // watched epoll is not looked into).
        Kind::Epoll(e) => {
            let ready = e.watch.values().any(|w| {
                w.file.upgrade().is_some_and(|f| {
                    f.try_borrow().is_ok_and(|f| {
                        !matches!(f.kind, Kind::Epoll(_))
                            && ready_of(k, inst, &f) & (w.events as i16 | ev::ERR | ev::HUP) != 0
                    })
                })
            });
            if ready {
                ev::IN
            } else {
                0
            }
        }
        // Regular files, directories and the other devices never make a reader wait.
        _ => {
            let mut r = ev::OUT;
            if of.flags & O_ACCMODE != O_WRONLY {
                r |= ev::IN;
            }
            r
        }
    }
}

/// What waiting on `fd` waits for outside garm: the host's standard input, the network.
#[derive(Clone, Copy, Default)]
pub(super) struct Outside {
    stdin: bool,
    net: bool,
}

impl Outside {
    pub(super) fn add_kind(&mut self, kind: &Kind, reading: bool) {
        match kind {
            Kind::Stdin | Kind::Dev(Dev::Console) => self.stdin |= reading,
            Kind::Net(_) => self.net = true,
            _ => {}
        }
    }
}

/// The deadline a timeout pointer names: `None` to wait forever (NULL), else now + timeout.
fn deadline(k: &mut Kernel, c: &mut Call, tmo: u64) -> Result<Option<Instant>, Fail> {
    if let Some(t) = k.proc(c.pid).sleep_until {
        return Ok(Some(t));
    }
    if tmo == 0 {
        return Ok(None);
    }
    Ok(Some(Instant::now() + misc::read_timeout(c, tmo, false)?))
}

/// Nothing is ready: wait (retried after the next submit) unless the deadline has passed.
fn wait_or_timeout(k: &mut Kernel, pid: Pid, until: Option<Instant>) -> SysResult {
    match until {
        Some(t) if Instant::now() >= t => {
            k.proc_mut(pid).sleep_until = None;
            ret(0)
        }
        Some(t) => {
            k.proc_mut(pid).sleep_until = Some(t);
            Ok(Sys::Block)
        }
        None => Ok(Sys::Block),
    }
}

/// With nothing ready, blocks until the timeout (the retry comes back here); `Some` is the answer
/// to give now. Waiting on the host's stdin or the network is marked, so it is not taken for a
/// deadlock.
pub(super) fn block_unless_ready(
    k: &mut Kernel,
    pid: Pid,
    ready: i64,
    outside: Outside,
    until: Option<Instant>,
) -> Option<SysResult> {
    if ready == 0 {
        let p = k.proc_mut(pid);
        p.input_wait |= outside.stdin;
        p.net_wait |= outside.net;
        if let r @ Ok(Sys::Block) = wait_or_timeout(k, pid, until) {
            return Some(r);
        }
    }
    k.proc_mut(pid).sleep_until = None;
    None
}

/// ppoll(fds, nfds, timeout, sigmask, sigsetsize): signal masks are not modelled (sigmask must
/// be NULL or well-formed and is then ignored, as rt_sigprocmask).
pub fn ppoll(k: &mut Kernel, c: &mut Call) -> SysResult {
    let nfds = c.a[1];
    let limit = k
        .process(c.pid)
        .rlimits
        .get(&rlimit::NOFILE)
        .map_or(MAX_FDS as u64, |l| l.cur.min(MAX_FDS as u64));
    if nfds > limit {
        return Err(EINVAL.into());
    }
    if c.a[3] != 0 && c.a[4] != 8 {
        return Err(EINVAL.into());
    }
    let mut fds: Vec<PollFd> = c.g.read_objs(c.slot, c.a[0], nfds as usize)?;
    let until = deadline(k, c, c.a[2])?;
    let mut ready = 0;
    let mut outside = Outside::default();
    for p in &mut fds {
        p.revents = if p.fd < 0 {
            0
        } else {
            let r = readiness(k, c.pid, p.fd as i64, &mut outside, p.events & ev::IN != 0);
            // HUP, ERR and NVAL are reported whether asked for or not.
            r & (p.events | ev::HUP | ev::ERR | ev::NVAL)
        };
        ready += (p.revents != 0) as i64;
    }
    if let Some(r) = block_unless_ready(k, c.pid, ready, outside, until) {
        return r;
    }
    for (i, p) in fds.iter().enumerate() {
        c.write_obj(c.a[0] + i as u64 * 8, p)?;
    }
    ret(ready)
}

/// pselect6(n, readfds, writefds, exceptfds, timeout, sigmask-and-size).
pub fn pselect6(k: &mut Kernel, c: &mut Call) -> SysResult {
    // An int: negative is EINVAL, beyond the fd table is clamped (as Linux).
    let n = c.a[0] as i32;
    if n < 0 {
        return Err(EINVAL.into());
    }
    let n = (n as u64).min(MAX_FDS as u64);
    let words = n.div_ceil(64) as usize;
    let read_set = |c: &mut Call, at: u64| -> Result<Vec<u64>, Fail> {
        if at == 0 {
            Ok(vec![0; words])
        } else {
            Ok(c.g.read_objs(c.slot, at, words)?)
        }
    };
    let (rd, wr, ex) = (
        read_set(c, c.a[1])?,
        read_set(c, c.a[2])?,
        read_set(c, c.a[3])?,
    );
    let until = deadline(k, c, c.a[4])?;
    let mut out = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
    let mut ready = 0i64;
    let mut outside = Outside::default();
    for fd in 0..n as usize {
        let (w, b) = (fd / 64, 1u64 << (fd % 64));
        if (rd[w] | wr[w] | ex[w]) & b == 0 {
            continue;
        }
        let r = readiness(k, c.pid, fd as i64, &mut outside, rd[w] & b != 0);
        if r & ev::NVAL != 0 {
            return Err(EBADF.into());
        }
        if rd[w] & b != 0 && r & (ev::IN | ev::HUP | ev::ERR) != 0 {
            out.0[w] |= b;
            ready += 1;
        }
        if wr[w] & b != 0 && r & (ev::OUT | ev::ERR) != 0 {
            out.1[w] |= b;
            ready += 1;
        }
    }
    if let Some(r) = block_unless_ready(k, c.pid, ready, outside, until) {
        return r;
    }
    for (at, set) in [(c.a[1], &out.0), (c.a[2], &out.1), (c.a[3], &out.2)] {
        if at != 0 {
            c.write(at, bytemuck::cast_slice(set))?;
        }
    }
    ret(ready)
}
