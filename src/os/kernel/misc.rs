//! Time, identity and the machine: clocks, nanosleep, uname, sysinfo, limits, random bytes, and
//! the calls garm accepts without effect.

use super::*;
use crate::guest::Guest;
use std::time::Duration;
use web_time::{Instant, SystemTime, UNIX_EPOCH};

/// Calls with nothing to do in garm's model (set_robust_list, sched_yield, madvise).
pub fn nothing(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    ret(0)
}

/// getuid and friends: every guest runs as root.
pub fn id_zero(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    ret(0)
}

pub fn now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

pub fn clock_gettime(_k: &mut Kernel, c: &mut Call) -> SysResult {
    // CLOCK_REALTIME..CLOCK_BOOTTIME (0..=7, as Linux numbers them); garm reads the wall clock.
    if c.a[0] > 11 {
        return Err(EINVAL.into());
    }
    let t = now();
    let ts = Timespec {
        sec: t.as_secs() as i64,
        nsec: t.subsec_nanos() as i64,
    };
    c.write_obj(c.a[1], &ts)?;
    ret(0)
}

pub fn gettimeofday(_k: &mut Kernel, c: &mut Call) -> SysResult {
    let t = now();
    let tv = Timeval {
        sec: t.as_secs() as i64,
        usec: t.subsec_micros() as i64,
    };
    if c.a[0] != 0 {
        c.write_obj(c.a[0], &tv)?;
    }
    ret(0)
}

/// A sleeping process blocks like a waiting one; the others keep running.
pub fn nanosleep(k: &mut Kernel, c: &mut Call) -> SysResult {
    sleep_on(k, c, c.a[0], false)
}

/// The wait a guest timespec at `addr` asks for: EINVAL unless well-formed; `absolute`: an
/// instant of the clock (garm's clocks all read the wall clock), else a duration.
pub fn read_timeout(c: &mut Call, addr: u64, absolute: bool) -> Result<Duration, Fail> {
    let ts: Timespec = c.read_obj(addr)?;
    if !(0..=999_999_999).contains(&ts.nsec) || ts.sec < 0 {
        return Err(EINVAL.into());
    }
    let want = Duration::new((ts.sec as u64).min(1 << 32), ts.nsec as u32);
    Ok(if absolute {
        want.saturating_sub(now())
    } else {
        want
    })
}

/// The sleep both nanosleeps share: the first call reads the request at `req` and blocks until
/// it is due, the retry then returns 0. `absolute`: the request is a realtime-clock instant.
fn sleep_on(k: &mut Kernel, c: &mut Call, req: u64, absolute: bool) -> SysResult {
    let now = Instant::now();
    match k.proc(c.pid).sleep_until {
        Some(t) if now >= t => {
            k.proc_mut(c.pid).sleep_until = None;
            ret(0)
        }
        Some(_) => Ok(Sys::Block),
        None => {
            let d = read_timeout(c, req, absolute)?;
            if d.is_zero() {
                return ret(0);
            }
            k.proc_mut(c.pid).sleep_until = Some(now + d);
            Ok(Sys::Block)
        }
    }
}

pub fn uname(_k: &mut Kernel, c: &mut Call) -> SysResult {
    let u = Utsname::new([
        "Linux",
        "garm",
        "6.1.0-garm",
        "#1 SMP garm",
        "aarch64",
        "(none)",
    ]);
    c.write_obj(c.a[0], &u)?;
    ret(0)
}

pub fn sysinfo(k: &mut Kernel, c: &mut Call) -> SysResult {
    let info = Sysinfo {
        uptime: 1,
        totalram: c.g.mem_bytes() * k.slots.len() as u64,
        procs: k
            .procs
            .keys()
            .filter(|&&p| k.visible(c.pid, p))
            .count()
            .min(u16::MAX as usize) as u16,
        mem_unit: 1,
        ..Default::default()
    };
    c.write_obj(c.a[0], &info)?;
    ret(0)
}

/// The limit `res` has for `pid`: what it set, else garm's real bounds (the stack reserve, the fd
/// table, the largest file) or unlimited.
pub fn rlimit_of(k: &Kernel, g: &dyn Guest, pid: Pid, res: u32) -> Rlimit {
    if let Some(l) = k.process(pid).rlimits.get(&res) {
        return *l;
    }
    let fixed = |v: u64| Rlimit { cur: v, max: v };
    match res {
        rlimit::STACK => fixed(crate::loader::process::stack_reserve(g.mem_bytes())),
        rlimit::NOFILE => fixed(MAX_FDS as u64),
        rlimit::FSIZE => fixed(MAX_FILE),
        _ => fixed(rlimit::INFINITY),
    }
}

/// Sets `res` for `pid`: cur above max is EINVAL; a hard limit above garm's own bound is EPERM.
fn set_rlimit(k: &mut Kernel, g: &dyn Guest, pid: Pid, res: u32, new: Rlimit) -> Result<(), Errno> {
    if new.cur > new.max {
        return Err(EINVAL);
    }
    let bound = match res {
        rlimit::STACK => crate::loader::process::stack_reserve(g.mem_bytes()),
        rlimit::NOFILE => MAX_FDS as u64,
        rlimit::FSIZE => MAX_FILE,
        _ => rlimit::INFINITY,
    };
    if new.max > bound && new.max > rlimit_of(k, g, pid, res).max {
        return Err(EPERM);
    }
    k.process_mut(pid).rlimits.insert(res, new);
    Ok(())
}

/// prlimit64(pid, resource, new, old).
pub fn prlimit64(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = if c.a[0] == 0 { c.pid } else { c.i(0) };
    if !k.visible(c.pid, pid) {
        return Err(ESRCH.into());
    }
    let res = u32::try_from(c.a[1])
        .ok()
        .filter(|&r| r < rlimit::COUNT)
        .ok_or(EINVAL)?;
    let new = if c.a[2] != 0 {
        Some(c.read_obj::<Rlimit>(c.a[2])?)
    } else {
        None
    };
    let old = rlimit_of(k, c.g, pid, res);
    if let Some(n) = new {
        set_rlimit(k, c.g, pid, res, n)?;
    }
    if c.a[3] != 0 {
        c.write_obj(c.a[3], &old)?;
    }
    ret(0)
}

pub fn getrlimit(k: &mut Kernel, c: &mut Call) -> SysResult {
    let res = u32::try_from(c.a[0])
        .ok()
        .filter(|&r| r < rlimit::COUNT)
        .ok_or(EINVAL)?;
    let l = rlimit_of(k, c.g, c.pid, res);
    c.write_obj(c.a[1], &l)?;
    ret(0)
}

pub fn setrlimit(k: &mut Kernel, c: &mut Call) -> SysResult {
    let res = u32::try_from(c.a[0])
        .ok()
        .filter(|&r| r < rlimit::COUNT)
        .ok_or(EINVAL)?;
    let new: Rlimit = c.read_obj(c.a[1])?;
    set_rlimit(k, c.g, c.pid, res, new)?;
    ret(0)
}

/// prctl: the thread name; every other option is EINVAL (as for an option Linux lacks).
pub fn prctl(k: &mut Kernel, c: &mut Call) -> SysResult {
    match c.a[0] {
        PR_SET_NAME => {
            // At most 15 bytes are read (as strncpy_from_user with the comm's size).
            let mut comm = [0u8; 16];
            for (at, slot) in (c.a[1]..).zip(comm.iter_mut().take(15)) {
                let b = c.read(at, 1)?[0];
                if b == 0 {
                    break;
                }
                *slot = b;
            }
            k.proc_mut(c.pid).comm = comm;
            ret(0)
        }
        PR_GET_NAME => {
            let comm = k.proc(c.pid).comm;
            c.write(c.a[1], &comm)?;
            ret(0)
        }
        _ => Err(EINVAL.into()),
    }
}

/// rseq: garm has no restartable sequences; a kernel without them answers ENOSYS, and libcs
/// go on without.
pub fn rseq(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    Err(ENOSYS.into())
}

/// garm is one CPU to each process: the mask has bit 0 alone.
pub fn sched_getaffinity(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = if c.a[0] == 0 { c.pid } else { c.i(0) };
    if !k.visible(c.pid, pid) {
        return Err(ESRCH.into());
    }
    if c.a[1] < 8 || !c.a[1].is_multiple_of(8) {
        return Err(EINVAL.into());
    }
    c.write_obj(c.a[2], &1u64)?;
    ret(8)
}

pub fn sched_setaffinity(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = if c.a[0] == 0 { c.pid } else { c.i(0) };
    if !k.visible(c.pid, pid) {
        return Err(ESRCH.into());
    }
    if c.a[1] < 8 {
        return Err(EINVAL.into());
    }
    let mask: u64 = c.read_obj(c.a[2])?;
    if mask & 1 == 0 {
        return Err(EINVAL.into());
    }
    ret(0)
}

/// getrusage: who is RUSAGE_SELF (0), RUSAGE_CHILDREN (-1) or RUSAGE_THREAD (1). garm keeps no
/// CPU time per process: the times read 0, maxrss the process's memory.
pub fn getrusage(_k: &mut Kernel, c: &mut Call) -> SysResult {
    if !(-1..=1).contains(&c.i(0)) {
        return Err(EINVAL.into());
    }
    let mut r = Rusage::default();
    r.rest[0] = (c.g.mem_bytes() >> 10) as i64;
    c.write_obj(c.a[1], &r)?;
    ret(0)
}

/// times: clock ticks (100 a second) since garm started; the process times read 0.
pub fn times(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] != 0 {
        c.write_obj(c.a[0], &Tms::default())?;
    }
    ret((k.started.elapsed().as_millis() / 10) as i64)
}

pub fn clock_getres(_k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] > 11 {
        return Err(EINVAL.into());
    }
    if c.a[1] != 0 {
        c.write_obj(c.a[1], &Timespec { sec: 0, nsec: 1 })?;
    }
    ret(0)
}

/// clock_nanosleep(clock, flags, request, remain): nanosleep on a clock; TIMER_ABSTIME (1)
/// sleeps until the request, read on the realtime clock.
pub fn clock_nanosleep(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] > 11 {
        return Err(EINVAL.into());
    }
    sleep_on(k, c, c.a[2], c.a[1] & 1 != 0)
}

/// Every guest runs as root: getresuid/getresgid write three zeros.
pub fn getres_ids(_k: &mut Kernel, c: &mut Call) -> SysResult {
    for i in 0..3 {
        c.write_obj(c.a[i], &0u32)?;
    }
    ret(0)
}

/// Sessions are not modelled apart from process groups: a process's session is its instance's
/// root.
pub fn getsid(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = if c.a[0] == 0 { c.pid } else { c.i(0) };
    if !k.visible(c.pid, pid) {
        return Err(ESRCH.into());
    }
    let inst = k.proc(pid).inst;
    ret(k.root_of(inst).map_or(1, |p| p.pid))
}

/// setsid: a group leader may not (EPERM); any other process leads a new group.
pub fn setsid(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = k.tg(c.pid);
    if k.procs.values().any(|p| p.pgid == pid) {
        return Err(EPERM.into());
    }
    k.proc_mut(pid).pgid = pid;
    ret(pid)
}

pub fn getrandom(k: &mut Kernel, c: &mut Call) -> SysResult {
    let len = (c.a[1] as usize).min(1 << 16);
    let bytes = pseudo_random(len, c.a[0] ^ k.round_trips);
    c.write(c.a[0], &bytes)?;
    ret(len)
}
