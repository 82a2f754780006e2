//! Signals: actions, kill, delivery into handlers on the guest stack, rt_sigreturn.

use super::*;

/// The handler `pid` has installed for `s` (SIG_DFL when none, or for a gone process).
pub fn handler(k: &Kernel, pid: Pid, s: i32) -> u64 {
    k.procs
        .get(&pid)
        .and_then(|p| p.sigactions.get(&s))
        .map_or(SIG_DFL, |a| a.handler)
}

/// A write to a pipe (or console) whose reading end is gone: SIGPIPE, whose default action ends
/// the writer; with the signal caught or ignored the write fails with EPIPE.
pub fn broken_pipe(k: &mut Kernel, g: &mut dyn Guest, pid: Pid) -> SysResult {
    let h = handler(k, pid, sig::SIGPIPE);
    if h > SIG_IGN {
        k.proc_mut(pid).pending.push(sig::SIGPIPE);
    }
    if h == SIG_DFL {
        k.exit_proc(g, pid, sig::SIGPIPE);
        return Ok(Sys::NoReturn);
    }
    Err(EPIPE.into())
}

pub fn rt_sigaction(k: &mut Kernel, c: &mut Call) -> SysResult {
    let s = c.a[0] as i32;
    if s == sig::SIGKILL || s == sig::SIGSTOP || !(1..=sig::NSIG).contains(&s) {
        return Err(EINVAL.into());
    }
    if c.a[3] != 8 {
        return Err(EINVAL.into());
    }
    let old = k
        .proc(c.pid)
        .sigactions
        .get(&s)
        .copied()
        .unwrap_or_default();
    let new = if c.a[1] != 0 {
        Some(c.read_obj::<Sigaction>(c.a[1])?)
    } else {
        None
    };
    if c.a[2] != 0 {
        c.write_obj(c.a[2], &old)?;
    }
    if let Some(mut a) = new {
        a.mask = 0;
        k.proc_mut(c.pid).sigactions.insert(s, a);
    }
    ret(0)
}

/// Signal masks are not modelled: every signal is unblocked, and the old mask reads as empty.
pub fn rt_sigprocmask(_k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[3] != 8 {
        return Err(EINVAL.into());
    }
    if c.a[1] != 0 {
        c.read_obj::<u64>(c.a[1])?;
        if c.a[0] > 2 {
            return Err(EINVAL.into());
        }
    }
    if c.a[2] != 0 {
        c.write_obj(c.a[2], &0u64)?;
    }
    ret(0)
}

pub fn kill(k: &mut Kernel, c: &mut Call) -> SysResult {
    send(k, c, c.i(0), c.a[1] as i32)
}

pub fn tgkill(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.i(0) <= 0 || c.i(1) <= 0 {
        return Err(EINVAL.into());
    }
    send(k, c, c.i(1), c.a[2] as i32)
}

fn send(k: &mut Kernel, c: &mut Call, target: Pid, s: i32) -> SysResult {
    let pid = c.pid;
    if !(0..=sig::NSIG).contains(&s) {
        return Err(EINVAL.into());
    }
    let targets: Vec<Pid> = if target > 0 {
        // Another instance's process is not there for this one (unless they share a machine).
        if k.visible(pid, target) {
            vec![target]
        } else {
            Vec::new()
        }
    } else if target == -1 {
        // Every process the caller may signal: all but itself are listed first.
        let mut all: Vec<Pid> = k
            .procs
            .keys()
            .copied()
            .filter(|&p| p != pid && k.visible(pid, p))
            .collect();
        all.push(pid);
        all
    } else {
        let pg = if target == 0 {
            k.proc(pid).pgid
        } else {
            target.checked_neg().ok_or(ESRCH)?
        };
        k.procs
            .values()
            .filter(|p| p.pgid == pg && k.visible(pid, p.pid))
            .map(|p| p.pid)
            .collect()
    };
    if targets.is_empty() || !k.procs.contains_key(&targets[0]) {
        return Err(ESRCH.into());
    }
    if s == 0 || s == sig::SIGSTOP {
        // Stopping is not modelled: SIGSTOP is accepted and has no effect.
        return ret(0);
    }
    let mut self_killed = false;
    for t in targets {
        let Some(p) = k.procs.get(&t) else {
            continue;
        };
        if matches!(p.state, PState::Zombie(_)) {
            continue;
        }
        let h = handler(k, t, s);
        if s != sig::SIGKILL && (h == SIG_IGN || (h == SIG_DFL && sig::ignored_by_default(s))) {
            continue;
        }
        if h > SIG_IGN && s != sig::SIGKILL {
            // Run by deliver_pending once the process is between instructions.
            k.proc_mut(t).pending.push(s);
            continue;
        }
        k.exit_proc(c.g, t, s);
        self_killed |= t == pid;
    }
    if self_killed {
        Ok(Sys::NoReturn)
    } else {
        ret(0)
    }
}

/// Starts the handler of one pending signal in every process that can take it now: the
/// registers go into a frame on the guest stack ([`SigFrame`], read back by rt_sigreturn), and
/// the guest continues in the handler with x0 = signal and x30 = the restorer it registered. A
/// process blocked in a syscall is interrupted with EINTR first (or restarted: SA_RESTART).
pub fn deliver_pending(k: &mut Kernel, g: &mut dyn Guest) {
    let ready: Vec<(Pid, usize)> = k
        .procs
        .values()
        .filter(|p| !p.pending.is_empty() && p.in_handler == 0 && p.vfork_child.is_none())
        .filter_map(|p| p.slot.map(|s| (p.pid, s)))
        .collect();
    for (pid, slot) in ready {
        let status = g.status(slot);
        let blocked = k.proc(pid).state == PState::Blocked;
        // Mid-instruction states (a pending console write, the second step of a pair) wait.
        if !(blocked || matches!(status, Some(Stop::Running | Stop::LimitRetry)))
            || g.st(slot)[layout::S_USTEP] != 0
        {
            continue;
        }
        let s = k.proc_mut(pid).pending.remove(0);
        // The action may have changed since the signal was queued.
        let act = k.proc(pid).sigactions.get(&s).copied().unwrap_or_default();
        if act.handler == SIG_IGN || (act.handler == SIG_DFL && sig::ignored_by_default(s)) {
            continue;
        }
        if act.handler == SIG_DFL {
            k.exit_proc(g, pid, s);
            continue;
        }
        if blocked {
            // SA_RESTART: the handler returns to the SVC again (x0 still holds the first
            // argument while a call is blocked); otherwise the call fails with EINTR.
            if act.flags & SA_RESTART != 0 {
                let pc = g.pc(slot);
                g.set_pc(slot, pc - 4);
            } else {
                g.set_reg(slot, 0, EINTR.ret() as u64);
            }
            let p = k.proc_mut(pid);
            p.state = PState::Running;
            p.sleep_until = None;
        }
        let frame = SigFrame {
            magic: SIGFRAME_MAGIC,
            sig: s as u64,
            regs: std::array::from_fn(|r| g.reg(slot, r)),
            pc: g.pc(slot),
            nzcv: g.st(slot)[layout::S_NZCV] as u64,
        };
        let sp = g.reg(slot, 31);
        let new_sp = sp.wrapping_sub(std::mem::size_of::<SigFrame>() as u64 + 16) & !15;
        if g.write_obj(slot, new_sp, &frame).is_err() {
            k.exit_proc(g, pid, sig::SIGSEGV);
            continue;
        }
        g.set_reg(slot, 0, s as u64);
        g.set_reg(slot, 30, act.restorer);
        g.set_reg(slot, 31, new_sp);
        g.set_pc(slot, act.handler);
        g.set_status(slot, Stop::Running);
        k.proc_mut(pid).in_handler += 1;
    }
}

/// rt_sigreturn: restores the registers saved by [`deliver_pending`]; a missing or corrupt
/// frame kills the process with SIGSEGV, as Linux does.
pub fn rt_sigreturn(k: &mut Kernel, c: &mut Call) -> SysResult {
    let sp = c.g.reg(c.slot, 31);
    let frame = match c.g.read_obj::<SigFrame>(c.slot, sp) {
        Ok(f) if f.magic == SIGFRAME_MAGIC => f,
        Ok(_) | Err(crate::guest::MemError::Fault { .. }) => {
            k.exit_proc(c.g, c.pid, sig::SIGSEGV);
            return Ok(Sys::NoReturn);
        }
        Err(e) => return Err(Fail::Host(e)),
    };
    for (r, v) in frame.regs.iter().enumerate() {
        c.g.set_reg(c.slot, r, *v);
    }
    c.g.set_pc(c.slot, frame.pc);
    c.g.st_mut(c.slot)[layout::S_NZCV] = frame.nzcv as u32 & 15;
    let p = k.proc_mut(c.pid);
    p.in_handler = p.in_handler.saturating_sub(1);
    Ok(Sys::NoReturn)
}
