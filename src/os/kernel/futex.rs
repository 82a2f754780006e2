//! futex(2): waits and wakes between threads (and between processes through MAP_SHARED memory).
//! A waiter is a blocked syscall like a pipe read, costing no GPU time; its queue entry lives in
//! its thread ([`FutexWait`]), so a wake is a scan of the kernel's threads, in queue order.

use super::*;
use crate::gpu::space::PTE_SHARED;
use web_time::Instant;

pub const FUTEX_WAIT: u64 = 0;
pub const FUTEX_WAKE: u64 = 1;
pub const FUTEX_REQUEUE: u64 = 3;
pub const FUTEX_CMP_REQUEUE: u64 = 4;
pub const FUTEX_WAKE_OP: u64 = 5;
pub const FUTEX_WAIT_BITSET: u64 = 9;
pub const FUTEX_WAKE_BITSET: u64 = 10;
pub const FUTEX_PRIVATE_FLAG: u64 = 128;
pub const FUTEX_CLOCK_REALTIME: u64 = 256;

/// Where the futex word at `addr` of `slot`'s address space lives: a shared futex on a
/// MAP_SHARED page is keyed by its frame (so processes meet there); everything else by address
/// space and address. `None` if the word is not mapped.
pub fn key(g: &dyn Guest, slot: usize, addr: u64, private: bool) -> Option<FutexKey> {
    let sp = g.spaces();
    sp.perm(slot, addr)?;
    if !private {
        let e = sp.pte(slot, addr);
        if let (Some(Some(f)), true) = (sp.frame(slot, addr), e & PTE_SHARED != 0) {
            return Some(FutexKey::Frame(f, (addr & 4095) as u32));
        }
    }
    Some(FutexKey::Space(sp.root(slot), addr))
}

/// The threads waiting on `key` (not yet woken) whose bitset meets `bitset`, oldest first.
fn waiters(k: &Kernel, key: FutexKey, bitset: u32) -> Vec<Pid> {
    let mut w: Vec<(u64, Pid)> = k
        .procs
        .values()
        .filter_map(|p| match &p.futex {
            Some(w) if !w.woken && w.key == key && w.bitset & bitset != 0 => Some((w.seq, p.pid)),
            _ => None,
        })
        .collect();
    w.sort_unstable();
    w.into_iter().map(|(_, p)| p).collect()
}

/// Applies `f` to up to `n` of `key`'s waiters (bitset meeting `bitset`), oldest first;
/// returns how many.
fn each_waiter(
    k: &mut Kernel,
    key: FutexKey,
    bitset: u32,
    n: u64,
    f: impl Fn(&mut FutexWait),
) -> u64 {
    let chosen = waiters(k, key, bitset);
    let n = chosen.len().min(n.min(usize::MAX as u64) as usize);
    for pid in &chosen[..n] {
        if let Some(w) = k.proc_mut(*pid).futex.as_mut() {
            f(w);
        }
    }
    n as u64
}

/// Wakes up to `n` waiters on `key` whose bitset meets `bitset`, oldest first; returns how many.
pub fn wake(k: &mut Kernel, key: FutexKey, n: u64, bitset: u32) -> u64 {
    each_waiter(k, key, bitset, n, |w| w.woken = true)
}

/// Moves up to `n` waiters from `from` to `to` (after the wake of a requeue); returns how many.
fn requeue(k: &mut Kernel, from: FutexKey, to: FutexKey, n: u64) -> u64 {
    each_waiter(k, from, u32::MAX, n, |w| w.key = to)
}

/// Whether a thread waits on a futex with a deadline (time will wake it: not a deadlock).
pub fn timed_waiter(p: &Proc) -> bool {
    p.futex.as_ref().is_some_and(|w| w.deadline.is_some())
}

/// The bitset of a WAIT/WAKE (val3 for the _BITSET forms, else all), checking it and the word's
/// alignment (EINVAL).
fn bitset_of(c: &Call, bitset_op: bool) -> Result<u32, Fail> {
    let bitset = if bitset_op { c.a[5] as u32 } else { u32::MAX };
    if c.a[0] & 3 != 0 || bitset == 0 {
        return Err(EINVAL.into());
    }
    Ok(bitset)
}

/// futex(uaddr, op, val, timeout or val2, uaddr2, val3).
pub fn futex(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (uaddr, op, val) = (c.a[0], c.a[1], c.a[2] as u32);
    let cmd = op & !(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
    let private = op & FUTEX_PRIVATE_FLAG != 0;
    if op & FUTEX_CLOCK_REALTIME != 0 && !matches!(cmd, FUTEX_WAIT | FUTEX_WAIT_BITSET) {
        return Err(ENOSYS.into());
    }
    match cmd {
        FUTEX_WAIT | FUTEX_WAIT_BITSET => {
            // The retry of a blocked wait: how it ended is in the record.
            if let Some(w) = k.proc(c.pid).futex.clone() {
                if w.woken {
                    k.proc_mut(c.pid).futex = None;
                    return ret(0);
                }
                if w.deadline.is_some_and(|d| Instant::now() >= d) {
                    k.proc_mut(c.pid).futex = None;
                    return Err(ETIMEDOUT.into());
                }
                return Ok(Sys::Block);
            }
            let bitset = bitset_of(c, cmd == FUTEX_WAIT_BITSET)?;
            // FUTEX_WAIT's timeout is relative; FUTEX_WAIT_BITSET's an instant of the clock.
            let deadline = if c.a[3] != 0 {
                Some(Instant::now() + misc::read_timeout(c, c.a[3], cmd == FUTEX_WAIT_BITSET)?)
            } else {
                None
            };
            let cur: u32 = c.read_obj(uaddr)?;
            if cur != val {
                return Err(EAGAIN.into());
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(ETIMEDOUT.into());
            }
            let key = key(c.g, c.slot, uaddr, private).ok_or(EFAULT)?;
            k.futex_seq += 1;
            let seq = k.futex_seq;
            k.proc_mut(c.pid).futex = Some(FutexWait {
                key,
                bitset,
                seq,
                woken: false,
                deadline,
            });
            Ok(Sys::Block)
        }
        FUTEX_WAKE | FUTEX_WAKE_BITSET => {
            let bitset = bitset_of(c, cmd == FUTEX_WAKE_BITSET)?;
            let key = key(c.g, c.slot, uaddr, private).ok_or(EFAULT)?;
            ret(wake(k, key, val as u64, bitset) as i64)
        }
        FUTEX_REQUEUE | FUTEX_CMP_REQUEUE => {
            let (uaddr2, n2) = (c.a[4], c.a[3] as u32 as i32);
            if uaddr & 3 != 0 || uaddr2 & 3 != 0 || (val as i32) < 0 || n2 < 0 {
                return Err(EINVAL.into());
            }
            let from = key(c.g, c.slot, uaddr, private).ok_or(EFAULT)?;
            let to = key(c.g, c.slot, uaddr2, private).ok_or(EFAULT)?;
            if cmd == FUTEX_CMP_REQUEUE {
                let cur: u32 = c.read_obj(uaddr)?;
                if cur != c.a[5] as u32 {
                    return Err(EAGAIN.into());
                }
            }
            let woken = wake(k, from, val as u64, u32::MAX);
            let moved = requeue(k, from, to, n2 as u64);
            // CMP_REQUEUE counts the requeued too; plain REQUEUE only the woken.
            ret(if cmd == FUTEX_CMP_REQUEUE {
                woken + moved
            } else {
                woken
            } as i64)
        }
        FUTEX_WAKE_OP => {
            let (uaddr2, n2, opw) = (c.a[4], c.a[3] as u32, c.a[5] as u32);
            if uaddr & 3 != 0 || uaddr2 & 3 != 0 {
                return Err(EINVAL.into());
            }
            let k1 = key(c.g, c.slot, uaddr, private).ok_or(EFAULT)?;
            let k2 = key(c.g, c.slot, uaddr2, private).ok_or(EFAULT)?;
            let (wop, cmp) = ((opw >> 28) & 15, (opw >> 24) & 15);
            let mut oparg = (opw >> 12) & 0xfff;
            let cmparg = opw & 0xfff;
            // Both arguments are 12-bit signed; FUTEX_OP_OPARG_SHIFT (8 in op) makes 1 << oparg.
            let sx = |v: u32| ((v << 20) as i32 >> 20) as u32;
            oparg = sx(oparg);
            if wop & 8 != 0 {
                oparg = 1u32.checked_shl(oparg).unwrap_or(0);
            }
            let old: u32 = c.read_obj(uaddr2)?;
            let new = match wop & 7 {
                0 => oparg,
                1 => old.wrapping_add(oparg),
                2 => old | oparg,
                3 => old & !oparg,
                4 => old ^ oparg,
                _ => return Err(ENOSYS.into()),
            };
            c.write_obj(uaddr2, &new)?;
            let (o, a) = (old as i32, sx(cmparg) as i32);
            let hit = match cmp {
                0 => o == a,
                1 => o != a,
                2 => o < a,
                3 => o <= a,
                4 => o > a,
                5 => o >= a,
                _ => return Err(ENOSYS.into()),
            };
            let mut n = wake(k, k1, val as u64, u32::MAX);
            if hit {
                n += wake(k, k2, n2 as u64, u32::MAX);
            }
            ret(n as i64)
        }
        // Priority inheritance and the rest: not modelled.
        _ => Err(ENOSYS.into()),
    }
}
