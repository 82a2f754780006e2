//! Signals: actions, kill, delivery into handlers on the guest stack, rt_sigreturn.

use super::process;
use super::*;
use crate::os::nr;
use bytemuck::Zeroable;

/// The handler `pid` has installed for `s` (SIG_DFL when none, or for a gone process).
pub fn handler(k: &Kernel, pid: Pid, s: i32) -> u64 {
    k.procs
        .get(&k.tg(pid))
        .and_then(|p| p.sigactions.get(&s))
        .map_or(SIG_DFL, |a| a.handler)
}

/// The thread that takes a signal sent to `pid`'s process: the leader while it runs, else
/// another of its live threads.
fn taker(k: &Kernel, pid: Pid) -> Pid {
    let tg = k.tg(pid);
    if k.procs.get(&tg).is_some_and(|p| p.slot.is_some()) {
        return tg;
    }
    k.threads_of(tg).first().copied().unwrap_or(tg)
}

/// Queues `s` for `pid`, sent by `from` (kill's SI_USER siginfo).
fn queue(k: &mut Kernel, pid: Pid, s: i32, from: Pid) {
    let mut info = Siginfo::zeroed();
    info.signo = s;
    info.code = SI_USER;
    info.pid = k.tg(from) as i32;
    let p = k.proc_mut(pid);
    // A standard signal already pending is not queued twice, and keeps its first siginfo
    // (real-time ones, 32 and up, queue each).
    if s >= 32 || !p.pending.contains(&s) {
        p.pending.push(s);
        p.siginfo.insert(s, info);
    }
}

/// A write to a pipe (or console) whose reading end is gone: SIGPIPE, whose default action ends
/// the writer; with the signal caught or ignored the write fails with EPIPE.
pub fn broken_pipe(k: &mut Kernel, g: &mut dyn Guest, pid: Pid) -> SysResult {
    let h = handler(k, pid, sig::SIGPIPE);
    if h > SIG_IGN {
        queue(k, pid, sig::SIGPIPE, pid);
    }
    if h == SIG_DFL {
        k.exit_proc(g, pid, sig::SIGPIPE);
        return Ok(Sys::NoReturn);
    }
    Err(EPIPE.into())
}

pub fn rt_sigaction(k: &mut Kernel, c: &mut Call) -> SysResult {
    let s = c.a[0] as i32;
    // SIGKILL and SIGSTOP may be asked about, never given an action.
    if !(1..=sig::NSIG).contains(&s) || (c.a[1] != 0 && (s == sig::SIGKILL || s == sig::SIGSTOP)) {
        return Err(EINVAL.into());
    }
    if c.a[3] != 8 {
        return Err(EINVAL.into());
    }
    let old = k
        .process(c.pid)
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
        k.process_mut(c.pid).sigactions.insert(s, a);
    }
    ret(0)
}

/// Signal masks are not modelled: every signal is unblocked, and the old mask reads as empty.
/// A SIG_SETMASK, though, is how siglongjmp leaves a handler without returning from it: the
/// process counts as outside its handlers again (garm delivers a signal only there).
pub fn rt_sigprocmask(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.a[3] != 8 {
        return Err(EINVAL.into());
    }
    if c.a[1] != 0 {
        c.read_obj::<u64>(c.a[1])?;
        if c.a[0] > 2 {
            return Err(EINVAL.into());
        }
        if c.a[0] == SIG_SETMASK {
            k.proc_mut(c.pid).in_handler = 0;
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

/// tgkill(tgid, tid, sig): to one thread of a process.
pub fn tgkill(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.i(0) <= 0 || c.i(1) <= 0 {
        return Err(EINVAL.into());
    }
    if k.procs.get(&c.i(1)).is_none_or(|p| p.tgid != c.i(0)) {
        return Err(ESRCH.into());
    }
    to_thread(k, c, c.i(1), c.a[2] as i32)
}

/// tkill(tid, sig).
pub fn tkill(k: &mut Kernel, c: &mut Call) -> SysResult {
    if c.i(0) <= 0 {
        return Err(EINVAL.into());
    }
    to_thread(k, c, c.i(0), c.a[1] as i32)
}

/// A signal for one thread: its handler runs on that thread; a default action that kills ends
/// the whole process.
fn to_thread(k: &mut Kernel, c: &mut Call, tid: Pid, s: i32) -> SysResult {
    if !(0..=sig::NSIG).contains(&s) {
        return Err(EINVAL.into());
    }
    if !k.visible(c.pid, tid) || k.procs[&tid].slot.is_none() {
        return Err(ESRCH.into());
    }
    act(k, c, vec![tid], s)
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
        // Every process the caller may signal except itself and its pid namespace's first
        // process (init: with instances apart, each instance's root; else pid 1), as Linux.
        let init = if k.shared {
            1
        } else {
            let inst = k.proc(pid).inst;
            k.root_of(inst).map_or(1, |p| p.pid)
        };
        let me = k.tg(pid);
        let all: Vec<Pid> = k
            .procs
            .values()
            .filter(|p| p.pid == p.tgid)
            .map(|p| p.pid)
            .filter(|&p| p != me && p != init && k.visible(pid, p))
            .collect();
        if all.is_empty() {
            return Err(ESRCH.into());
        }
        all
    } else {
        let pg = if target == 0 {
            k.process(pid).pgid
        } else {
            target.checked_neg().ok_or(ESRCH)?
        };
        k.procs
            .values()
            .filter(|p| p.pid == p.tgid && p.pgid == pg && k.visible(pid, p.pid))
            .map(|p| p.pid)
            .collect()
    };
    if targets.is_empty() || !k.procs.contains_key(&targets[0]) {
        return Err(ESRCH.into());
    }
    let takers = targets.into_iter().map(|t| taker(k, t)).collect();
    act(k, c, takers, s)
}

/// Signal `s` reaches each of the threads `targets`: ignored, queued for the handler, or its
/// default action ends the thread's process. NoReturn when that was the caller's own.
fn act(k: &mut Kernel, c: &mut Call, targets: Vec<Pid>, s: i32) -> SysResult {
    let pid = c.pid;
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
            queue(k, t, s, pid);
            continue;
        }
        self_killed |= k.tg(t) == k.tg(pid);
        k.exit_proc(c.g, t, s);
    }
    if self_killed {
        Ok(Sys::NoReturn)
    } else {
        ret(0)
    }
}

/// Starts the handler of one pending signal in every process that can take it now, as Linux
/// does: a frame record and an `rt_sigframe` (siginfo, ucontext with the registers and an
/// `fpsimd_context`) go on the guest stack, and the guest continues in the handler with x0 = the
/// signal (x1 = &siginfo, x2 = &ucontext with SA_SIGINFO), x29 = the frame record, x30 = the
/// restorer it registered. A process blocked in a syscall is interrupted with EINTR first (or
/// restarted: SA_RESTART).
pub fn deliver_pending(k: &mut Kernel, g: &mut dyn Guest) {
    // A process whose leader thread has ended takes its signals on another thread.
    let orphaned: Vec<Pid> = k
        .procs
        .values()
        .filter(|p| matches!(p.state, PState::ThreadExited(_)) && !p.pending.is_empty())
        .map(|p| p.pid)
        .collect();
    for pid in orphaned {
        let t = taker(k, pid);
        if t != pid {
            let p = k.proc_mut(pid);
            let (pending, info) = (
                std::mem::take(&mut p.pending),
                std::mem::take(&mut p.siginfo),
            );
            let q = k.proc_mut(t);
            for s in pending {
                if s >= 32 || !q.pending.contains(&s) {
                    q.pending.push(s);
                }
            }
            for (s, i) in info {
                q.siginfo.entry(s).or_insert(i);
            }
        }
    }
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
        let info = k.proc_mut(pid).siginfo.remove(&s);
        // The action may have changed since the signal was queued.
        let act = k
            .process(pid)
            .sigactions
            .get(&s)
            .copied()
            .unwrap_or_default();
        if act.handler == SIG_IGN || (act.handler == SIG_DFL && sig::ignored_by_default(s)) {
            continue;
        }
        if act.handler == SIG_DFL {
            k.exit_proc(g, pid, s);
            continue;
        }
        let waiting = g.reg(slot, 8);
        if blocked
            && matches!(waiting, nr::WAIT4 | nr::WAITID)
            && process::wait_would_finish(k, g, slot, pid)
        {
            // The wait can finish now: let it (the next retry returns the child), then run the
            // handler, as Linux does; the signal stays pending.
            let p = k.proc_mut(pid);
            p.pending.insert(0, s);
            if let Some(i) = info {
                p.siginfo.insert(s, i);
            }
            continue;
        }
        if !g.vregs_ready(slot) {
            // The frame holds the V registers: delivered once they are read back.
            let p = k.proc_mut(pid);
            p.pending.insert(0, s);
            if let Some(i) = info {
                p.siginfo.insert(s, i);
            }
            continue;
        }
        // Linux never restarts these after a handler: they fail with EINTR.
        let restartable = !matches!(
            waiting,
            nr::PPOLL | nr::PSELECT6 | nr::NANOSLEEP | nr::CLOCK_NANOSLEEP
        );
        if blocked {
            // SA_RESTART: the handler returns to the SVC again (x0 still holds the first
            // argument while a call is blocked); otherwise the call fails with EINTR.
            if act.flags & SA_RESTART != 0 && restartable {
                let pc = g.pc(slot);
                g.set_pc(slot, pc - 4);
            } else {
                g.set_reg(slot, 0, EINTR.ret() as u64);
            }
            let p = k.proc_mut(pid);
            p.state = PState::Running;
            p.sleep_until = None;
            p.input_wait = false;
            p.net_wait = false;
            p.futex = None;
        }
        let info = info.unwrap_or_else(|| {
            let mut i = Siginfo::zeroed();
            i.signo = s;
            i
        });
        match push_frame(g, slot, s, &info, &act) {
            Ok(()) => {
                g.set_status(slot, Stop::Running);
                k.proc_mut(pid).in_handler += 1;
            }
            Err(MemError::Fault { .. }) => k.exit_proc(g, pid, sig::SIGSEGV),
            // The device failed, no frame was left for the frame, or (in a browser) the stack is
            // not read back: the process cannot go on.
            Err(MemError::Device(_) | MemError::NoFrames | MemError::Pending) => {
                k.exit_proc(g, pid, sig::SIGKILL)
            }
        }
    }
}

/// Where a handler registered without SA_RESTORER returns (glibc registers none on arm64: Linux
/// returns through its vDSO's sigreturn trampoline). Outside every guest's memory, so the return
/// stops the guest with a fetch fault at exactly this address, which the run loop answers with
/// rt_sigreturn.
pub const SIGRETURN_PC: u64 = 0xffff_ffff_ffff_f000;

/// Writes the frame record and the `rt_sigframe` below the guest's sp and points the registers
/// at the handler.
fn push_frame(
    g: &mut dyn Guest,
    slot: usize,
    s: i32,
    info: &Siginfo,
    act: &Sigaction,
) -> Result<(), MemError> {
    let sp = g.reg(slot, 31);
    let record_at = sp.wrapping_sub(std::mem::size_of::<FrameRecord>() as u64) & !15;
    let frame_at = record_at.wrapping_sub(std::mem::size_of::<RtSigframe>() as u64) & !15;
    let mut frame = RtSigframe::zeroed();
    frame.info = *info;
    frame.uc.ss_flags = SS_DISABLE;
    let mc = &mut frame.uc.mcontext;
    for (r, v) in mc.regs.iter_mut().enumerate() {
        *v = g.reg(slot, r);
    }
    mc.sp = sp;
    mc.pc = g.pc(slot);
    mc.pstate = (g.st(slot)[layout::S_NZCV] as u64 & 15) << 28;
    let fp = FpsimdContext {
        magic: FPSIMD_MAGIC,
        size: std::mem::size_of::<FpsimdContext>() as u32,
        fpsr: g.st(slot)[layout::S_FPSR],
        fpcr: g.st(slot)[layout::S_FPCR],
        vregs: g.vregs(slot)?,
    };
    // The FP/SIMD record, then a zero terminator (the rest of the area is already zero).
    mc.reserved[..std::mem::size_of::<FpsimdContext>()].copy_from_slice(bytemuck::bytes_of(&fp));
    let record = FrameRecord {
        fp: g.reg(slot, 29),
        lr: g.reg(slot, 30),
    };
    g.write_obj(slot, record_at, &record)?;
    g.write_obj(slot, frame_at, &frame)?;
    g.set_reg(slot, 0, s as u64);
    if act.flags & SA_SIGINFO != 0 {
        g.set_reg(slot, 1, frame_at);
        g.set_reg(
            slot,
            2,
            frame_at + std::mem::offset_of!(RtSigframe, uc) as u64,
        );
    }
    g.set_reg(slot, 29, record_at);
    let ret = if act.flags & SA_RESTORER != 0 {
        act.restorer
    } else {
        SIGRETURN_PC
    };
    g.set_reg(slot, 30, ret);
    g.set_reg(slot, 31, frame_at);
    g.set_pc(slot, act.handler);
    Ok(())
}

/// rt_sigreturn: restores the registers from the `rt_sigframe` at sp, as the handler may have
/// changed them; a misaligned sp or a frame without its FP/SIMD record kills the process with
/// SIGSEGV, as Linux does.
pub fn rt_sigreturn(k: &mut Kernel, c: &mut Call) -> SysResult {
    let sp = c.g.reg(c.slot, 31);
    let frame = if sp & 15 != 0 {
        None
    } else {
        match c.g.read_obj::<RtSigframe>(c.slot, sp) {
            Ok(f) => Some(f),
            Err(MemError::Fault { .. }) => None,
            Err(e) => return Err(Fail::Host(e)),
        }
    };
    let fp: Option<FpsimdContext> = frame.as_ref().and_then(|f| {
        let r = &f.uc.mcontext.reserved;
        let fp: FpsimdContext =
            bytemuck::pod_read_unaligned(&r[..std::mem::size_of::<FpsimdContext>()]);
        (fp.magic == FPSIMD_MAGIC && fp.size as usize == std::mem::size_of::<FpsimdContext>())
            .then_some(fp)
    });
    let (Some(frame), Some(fp)) = (frame, fp) else {
        k.exit_proc(c.g, c.pid, sig::SIGSEGV);
        return Ok(Sys::NoReturn);
    };
    let mc = &frame.uc.mcontext;
    for (r, v) in mc.regs.iter().enumerate() {
        c.g.set_reg(c.slot, r, *v);
    }
    c.g.set_reg(c.slot, 31, mc.sp);
    c.g.set_pc(c.slot, mc.pc);
    let st = c.g.st_mut(c.slot);
    st[layout::S_NZCV] = (mc.pstate >> 28) as u32 & 15;
    st[layout::S_FPSR] = fp.fpsr & crate::isa::form::FPSR_MASK;
    st[layout::S_FPCR] = fp.fpcr & crate::isa::form::FPCR_MASK;
    c.g.set_vregs(c.slot, &fp.vregs)?;
    let p = k.proc_mut(c.pid);
    p.in_handler = p.in_handler.saturating_sub(1);
    Ok(Sys::NoReturn)
}
