//! eventfd and epoll: a counter that wakes its readers, and an interest list waited on with a
//! timeout. Readiness is poll's ([`poll::ready_of`]); a waiting process blocks like a pipe
//! reader (retried after every submit) until something it watches is ready or time is up.

use super::io::Io;
use super::*;
use crate::os::abi::poll as ev;
use std::rc::Weak;

const EFD_SEMAPHORE: u64 = 1;
const EPOLL_CTL_ADD: u64 = 1;
const EPOLL_CTL_DEL: u64 = 2;
const EPOLL_CTL_MOD: u64 = 3;
const EPOLLEXCLUSIVE: u32 = 1 << 28;
const EPOLLONESHOT: u32 = 1 << 30;
const EPOLLET: u32 = 1 << 31;
/// Most events one epoll_wait may ask for (Linux: INT_MAX / sizeof(struct epoll_event)).
const EP_MAX_EVENTS: u64 = (i32::MAX / 16) as u64;

/// One watched file of an epoll instance.
#[derive(Debug)]
pub struct Watch {
    /// The open file description (the entry goes when it does, as on Linux).
    pub file: Weak<RefCell<OpenFile>>,
    pub events: u32,
    pub data: u64,
    /// For EPOLLET: what was ready when last looked at, and the writes its pipe had then (an
    /// edge is a bit newly set, or data that arrived since).
    pub last: i16,
    pub writes: u64,
    /// EPOLLONESHOT reported once: nothing more until EPOLL_CTL_MOD.
    pub disarmed: bool,
}

/// An epoll instance's interest list, by the fd number each file was added as.
#[derive(Debug, Default)]
pub struct Epoll {
    pub watch: BTreeMap<i64, Watch>,
}

/// struct epoll_event as aarch64 lays it out (not packed, unlike x86-64's).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct EpollEvent {
    pub events: u32,
    pub _pad: u32,
    pub data: u64,
}

/// eventfd2(initval, flags).
pub fn eventfd2(k: &mut Kernel, c: &mut Call) -> SysResult {
    let flags = c.a[1];
    if flags & !(EFD_SEMAPHORE | O_NONBLOCK | O_CLOEXEC) != 0 {
        return Err(EINVAL.into());
    }
    let kind = Kind::Event {
        count: c.a[0] & 0xffff_ffff,
        semaphore: flags & EFD_SEMAPHORE != 0,
    };
    let fl = O_RDWR | (flags & (O_NONBLOCK | O_CLOEXEC));
    ret(k.install_fd(c.pid, k.new_fd(kind, fl), 0)?)
}

/// read/write on an eventfd: 8 bytes, the counter taken (or 1 of it, as a semaphore) or added
/// to.
pub(super) fn read_write(c: &mut Call, f: &Fd, io: Io, write: bool) -> SysResult {
    let Io { buf, len, .. } = io;
    let mut of = f.file.borrow_mut();
    let nonblock = of.flags & O_NONBLOCK != 0;
    let Kind::Event { count, semaphore } = &mut of.kind else {
        return Err(EBADF.into());
    };
    let wait = || {
        if nonblock {
            Err(EAGAIN.into())
        } else {
            Ok(Sys::Block)
        }
    };
    if len < 8 {
        return Err(EINVAL.into());
    }
    if write {
        match c.read_obj::<u64>(buf)? {
            u64::MAX => Err(EINVAL.into()),
            v if *count > u64::MAX - 1 - v => wait(),
            v => {
                *count += v;
                ret(8)
            }
        }
    } else if *count == 0 {
        wait()
    } else {
        let v = if *semaphore { 1 } else { *count };
        c.write_obj(buf, &v)?;
        *count -= v;
        ret(8)
    }
}

/// What an eventfd is ready for.
pub fn event_ready(count: u64) -> i16 {
    let mut r = 0;
    if count > 0 {
        r |= ev::IN;
    }
    if count < u64::MAX - 1 {
        r |= ev::OUT;
    }
    r
}

/// epoll_create1(flags).
pub fn epoll_create1(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] & !O_CLOEXEC != 0 {
        return Err(EINVAL.into());
    }
    let kind = Kind::Epoll(Epoll::default());
    ret(k.install_fd(c.pid, k.new_fd(kind, O_RDWR | c.a[0]), 0)?)
}

/// epoll_ctl(epfd, op, fd, event).
pub fn epoll_ctl(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (op, fd) = (c.a[1], c.i(2));
    let ep = k.fd(c.pid, c.i(0))?;
    let target = k.fd(c.pid, fd)?;
    if !matches!(ep.file.borrow().kind, Kind::Epoll(_)) || Rc::ptr_eq(&ep.file, &target.file) {
        return Err(EINVAL.into());
    }
    // Regular files and directories are always ready: Linux refuses to watch them.
    if matches!(
        target.file.borrow().kind,
        Kind::Mem(_) | Kind::Host(..) | Kind::Dir(..)
    ) {
        return Err(EPERM.into());
    }
    let event: Option<EpollEvent> = match op {
        EPOLL_CTL_ADD | EPOLL_CTL_MOD => Some(c.read_obj(c.a[3])?),
        EPOLL_CTL_DEL => None,
        _ => return Err(EINVAL.into()),
    };
    let mut of = ep.file.borrow_mut();
    let Kind::Epoll(e) = &mut of.kind else {
        unreachable!("checked above");
    };
    match (op, event) {
        (EPOLL_CTL_ADD, Some(v)) => {
            if e.watch.get(&fd).is_some_and(|w| w.file.strong_count() > 0) {
                return Err(EEXIST.into());
            }
            e.watch.insert(
                fd,
                Watch {
                    file: Rc::downgrade(&target.file),
                    events: v.events,
                    data: v.data,
                    last: 0,
                    writes: 0,
                    disarmed: false,
                },
            );
        }
        (EPOLL_CTL_MOD, Some(v)) => {
            let w = e.watch.get_mut(&fd).ok_or(ENOENT)?;
            if v.events & EPOLLEXCLUSIVE != 0 {
                return Err(EINVAL.into());
            }
            w.events = v.events;
            w.data = v.data;
            w.last = 0;
            w.disarmed = false;
        }
        _ => {
            e.watch.remove(&fd).ok_or(ENOENT)?;
        }
    }
    ret(0)
}

/// epoll_pwait(epfd, events, maxevents, timeout_ms, sigmask, sigsetsize): level-triggered
/// unless EPOLLET (reported when a readiness bit is newly set), EPOLLONESHOT disarms after one
/// report. Signal masks are not modelled (as ppoll).
pub fn epoll_pwait(k: &mut Kernel, c: &mut Call) -> SysResult {
    let ms = c.a[3] as i32;
    let until = match k.proc(c.pid).sleep_until {
        Some(t) => Some(t),
        None if ms < 0 => None,
        None => Some(web_time::Instant::now() + std::time::Duration::from_millis(ms as u64)),
    };
    wait(k, c, until)
}

/// epoll_pwait2(epfd, events, maxevents, timeout, sigmask, sigsetsize): a timespec timeout
/// (NULL: forever).
pub fn epoll_pwait2(k: &mut Kernel, c: &mut Call) -> SysResult {
    let until = match k.proc(c.pid).sleep_until {
        Some(t) => Some(t),
        None if c.a[3] == 0 => None,
        None => Some(web_time::Instant::now() + misc::read_timeout(c, c.a[3], false)?),
    };
    wait(k, c, until)
}

fn wait(k: &mut Kernel, c: &mut Call, until: Option<web_time::Instant>) -> SysResult {
    let (at, max) = (c.a[1], c.a[2]);
    let ep = k.fd(c.pid, c.i(0))?;
    if max == 0 || max > EP_MAX_EVENTS {
        return Err(EINVAL.into());
    }
    if !matches!(ep.file.borrow().kind, Kind::Epoll(_)) {
        return Err(EINVAL.into());
    }
    let room = (max as usize) * std::mem::size_of::<EpollEvent>();
    if !c.g.in_bounds(c.slot, at, room) {
        return Err(EFAULT.into());
    }
    c.writable(at, room)?;
    let inst = k.proc(c.pid).inst;
    let mut got: Vec<EpollEvent> = Vec::new();
    let mut outside = poll::Outside::default();
    {
        let mut of = ep.file.borrow_mut();
        let Kind::Epoll(e) = &mut of.kind else {
            unreachable!("checked above");
        };
        e.watch.retain(|_, w| w.file.strong_count() > 0);
        for w in e.watch.values_mut() {
            let Some(file) = w.file.upgrade().filter(|_| !w.disarmed) else {
                continue;
            };
            let Ok(f) = file.try_borrow() else {
                continue;
            };
            outside.add_kind(&f.kind, w.events as i16 & ev::IN != 0);
            let now = poll::ready_of(k, inst, &f);
            let mut r = now & (w.events as i16 | ev::ERR | ev::HUP);
            if w.events & EPOLLET != 0 {
                let writes = match f.kind {
                    Kind::PipeR(p) | Kind::Sock(p, _) if p != SHUT => k.pipes[p].writes,
                    _ => 0,
                };
                let fresh = if writes != w.writes { ev::IN } else { 0 };
                if r & (!w.last | fresh) == 0 {
                    r = 0;
                }
                w.last = now;
                w.writes = writes;
            }
            if r == 0 || got.len() as u64 >= max {
                continue;
            }
            got.push(EpollEvent {
                events: r as u16 as u32,
                _pad: 0,
                data: w.data,
            });
            w.disarmed = w.events & EPOLLONESHOT != 0;
        }
    }
    if let Some(r) = poll::block_unless_ready(k, c.pid, got.len() as i64, outside, until) {
        return r;
    }
    c.write(at, bytemuck::cast_slice(&got))?;
    ret(got.len())
}
