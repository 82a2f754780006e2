//! Time, identity and the machine: clocks, nanosleep, uname, sysinfo, limits, random bytes, and
//! the calls garm accepts without effect.

use super::*;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Calls with nothing to do in garm's model (set_robust_list, sched_yield, madvise, mprotect).
pub fn nothing(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    ret(0)
}

/// getuid and friends: every guest runs as root.
pub fn id_zero(_k: &mut Kernel, _c: &mut Call) -> SysResult {
    ret(0)
}

fn now() -> Duration {
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
    let now = Instant::now();
    match k.proc(c.pid).sleep_until {
        Some(t) if now >= t => {
            k.proc_mut(c.pid).sleep_until = None;
            ret(0)
        }
        Some(_) => Ok(Sys::Block),
        None => {
            let ts: Timespec = c.read_obj(c.a[0])?;
            if !(0..=999_999_999).contains(&ts.nsec) || ts.sec < 0 {
                return Err(EINVAL.into());
            }
            let d = Duration::new((ts.sec as u64).min(1 << 32), ts.nsec as u32);
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

/// prlimit64(pid, resource, new, old): no limits are enforced; every one reads as unlimited.
pub fn prlimit64(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[0] != 0 && !k.visible(c.pid, c.i(0)) {
        return Err(ESRCH.into());
    }
    if c.a[1] > 15 {
        return Err(EINVAL.into());
    }
    if c.a[2] != 0 {
        c.read_obj::<Rlimit>(c.a[2])?;
    }
    if c.a[3] != 0 {
        let unlimited = Rlimit {
            cur: u64::MAX,
            max: u64::MAX,
        };
        c.write_obj(c.a[3], &unlimited)?;
    }
    ret(0)
}

pub fn getrandom(k: &mut Kernel, c: &mut Call) -> SysResult {
    let len = (c.a[1] as usize).min(1 << 16);
    let bytes = pseudo_random(len, c.a[0] ^ k.round_trips);
    c.write(c.a[0], &bytes)?;
    ret(len)
}
