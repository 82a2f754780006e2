//! Processes: exit, fork/vfork (clone), execve, wait4/waitid, process groups and ids.

use super::*;
use crate::guest::Guest;
use crate::loader::{self, process::load_process, process::LoadError};
use crate::os::vfs::Node;

/// exit: this thread ends (the process with its last thread).
pub fn exit(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.exit_thread(c.g, c.pid, ((c.a[0] & 0xff) as i32) << 8);
    Ok(Sys::NoReturn)
}

/// exit_group: every thread of the process ends.
pub fn exit_group(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.exit_proc(c.g, c.pid, ((c.a[0] & 0xff) as i32) << 8);
    Ok(Sys::NoReturn)
}

pub fn getpid(k: &mut Kernel, c: &mut Call) -> SysResult {
    ret(k.tg(c.pid))
}

pub fn gettid(_k: &mut Kernel, c: &mut Call) -> SysResult {
    ret(c.pid)
}

/// set_tid_address: the word zeroed (and woken) when this thread ends.
pub fn set_tid_address(k: &mut Kernel, c: &mut Call) -> SysResult {
    k.proc_mut(c.pid).clear_tid = c.a[0];
    ret(c.pid)
}

pub fn getppid(k: &mut Kernel, c: &mut Call) -> SysResult {
    ret(k.process(c.pid).ppid)
}

pub fn setpgid(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = k.tg(c.pid);
    let target = if c.a[0] == 0 { pid } else { c.i(0) };
    let pg = if c.a[1] == 0 { target } else { c.i(1) };
    if pg < 0 {
        return Err(EINVAL.into());
    }
    let p = k.procs.get(&target).ok_or(ESRCH)?;
    if target != pid && p.ppid != pid {
        return Err(ESRCH.into());
    }
    let target = p.tgid;
    // The group must exist (or be the process's own new one), among the processes it can see.
    if pg != target
        && !k
            .procs
            .values()
            .any(|q| q.pgid == pg && k.visible(pid, q.pid))
    {
        return Err(EPERM.into());
    }
    k.proc_mut(target).pgid = pg;
    ret(0)
}

pub fn getpgid(k: &mut Kernel, c: &mut Call) -> SysResult {
    let target = if c.a[0] == 0 { c.pid } else { c.i(0) };
    if !k.visible(c.pid, target) {
        return Err(ESRCH.into());
    }
    ret(k.process(target).pgid)
}

/// Exited children an instance may leave unwaited before fork fails with EAGAIN.
pub const MAX_ZOMBIES: usize = 4096;

pub fn clone(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (pid, slot, flags) = (c.pid, c.slot, c.a[0]);
    let thread = flags & CLONE_THREAD != 0;
    // Linux's own rules: a thread shares the actions, which need the shared memory.
    if (thread && flags & CLONE_SIGHAND == 0)
        || (flags & CLONE_SIGHAND != 0 && flags & CLONE_VM == 0)
    {
        return Err(EINVAL.into());
    }
    if thread && flags & (CLONE_FILES | CLONE_FS) != CLONE_FILES | CLONE_FS {
        // A thread with its own fd table or cwd: not modelled (no libc asks for it).
        return Err(EINVAL.into());
    }
    if !thread && flags & CLONE_VM != 0 && flags & CLONE_VFORK == 0 {
        // A process sharing its parent's memory without being a thread: not modelled.
        return Err(ENOSYS.into());
    }
    let inst = k.proc(pid).inst;
    // Zombies nobody waits for yet cost host memory: past a bound, fork fails as at
    // RLIMIT_NPROC.
    let zombies = k
        .procs
        .values()
        .filter(|p| p.inst == inst && p.slot.is_none())
        .count();
    if zombies >= MAX_ZOMBIES {
        return Err(EAGAIN.into());
    }
    let held = k
        .procs
        .values()
        .filter(|p| p.inst == inst && p.slot.is_some())
        .count();
    if !k.shared && k.quota < k.slots.len() && held >= k.quota {
        if !k.limit_note {
            crate::elog!(
                "garm: an instance holds its share of {} process slots: fork and clone (pthread_create) return EAGAIN (raise --max-procs)",
                k.quota
            );
            k.limit_note = true;
        }
        return Err(EAGAIN.into());
    }
    let Some(cslot) = k.slots.iter().position(|s| s.is_none()) else {
        if !k.limit_note {
            crate::elog!(
                "garm: process limit of {} reached: fork and clone (pthread_create) return EAGAIN (raise --max-procs)",
                k.slots.len()
            );
            k.limit_note = true;
        }
        return Err(EAGAIN.into());
    };
    let t = web_time::Instant::now();
    let cpid = k.alloc_pid();
    if thread {
        c.g.share_slot(slot, cslot)?;
    } else {
        c.g.copy_slot(slot, cslot)?;
    }
    let tg = k.tg(pid);
    let parent = k.process(pid);
    let vfork = flags & CLONE_VFORK != 0;
    let child = Proc {
        pid: cpid,
        tgid: if thread { tg } else { cpid },
        clear_tid: if flags & CLONE_CHILD_CLEARTID != 0 {
            c.a[4]
        } else {
            0
        },
        futex: None,
        ppid: if thread { parent.ppid } else { tg },
        pgid: parent.pgid,
        slot: Some(cslot),
        inst: parent.inst,
        // A forked child shares the parent's open file descriptions (and so its pipe ends); a
        // thread uses its leader's table itself.
        fds: if thread {
            Vec::new()
        } else {
            parent.fds.clone()
        },
        cwd: parent.cwd.clone(),
        state: PState::Running,
        image: parent.image.clone(),
        exe_path: parent.exe_path.clone(),
        cmdline: parent.cmdline.clone(),
        environ: parent.environ.clone(),
        umask: parent.umask,
        mmap_low: parent.mmap_low,
        sigactions: parent.sigactions.clone(),
        pending: Vec::new(),
        siginfo: BTreeMap::new(),
        in_handler: 0,
        vfork_parent: vfork.then_some(pid),
        vfork_child: None,
        root: false,
        sleep_until: None,
        input_wait: false,
        net_wait: false,
        counted: c.g.word64(slot, layout::S_COUNT),
        comm: k.proc(pid).comm,
        rlimits: parent.rlimits.clone(),
        threaded: false,
        forked: false,
        shares_memory: parent.shares_memory,
    };
    k.procs.insert(cpid, child);
    if !thread {
        k.proc_mut(tg).forked = true;
    }
    k.slots[cslot] = Some(cpid);
    c.g.set_reg(cslot, 0, 0);
    if c.a[1] != 0 {
        c.g.set_reg(cslot, 31, c.a[1]);
    }
    // The child runs at once, outside any turns until the host gives it its place.
    c.g.st_mut(cslot)[layout::S_TURN] = 0;
    if flags & CLONE_SETTLS != 0 {
        c.g.set_word64(cslot, layout::S_TPIDR, c.a[3]);
    }
    // The tid words: written before either side runs (a failed write is ignored, as Linux's
    // put_user here is).
    let tid = (cpid as u32).to_le_bytes();
    if flags & CLONE_PARENT_SETTID != 0 {
        let _ = c.g.write_mem(slot, c.a[2], &tid);
    }
    if flags & CLONE_CHILD_SETTID != 0 {
        let _ = c.g.write_mem(cslot, c.a[4], &tid);
    }
    c.g.set_status(cslot, Stop::Running);
    if thread {
        // The break is one per process from now on: the shader leaves brk to the host.
        k.proc_mut(tg).threaded = true;
        for t in k.threads_of(tg) {
            if let Some(s) = k.procs[&t].slot {
                c.g.st_mut(s)[layout::S_FASTFD] |= layout::FASTFD_HOST_BRK;
            }
        }
        k.threads += 1;
        return ret(cpid);
    }
    k.forks += 1;
    k.fork_time += t.elapsed();
    if vfork {
        // The parent sleeps until the child execs or exits; its result is the child's pid.
        c.g.set_reg(slot, 0, cpid as u64);
        let p = k.proc_mut(pid);
        p.state = PState::Blocked;
        p.vfork_child = Some(cpid);
        return Ok(Sys::Block);
    }
    ret(cpid)
}

pub fn execve(k: &mut Kernel, c: &mut Call) -> SysResult {
    let pid = c.pid;
    let path = c.cstr(c.a[0])?;
    let mut argv = Vec::new();
    for p in c.ptrs(c.a[1])? {
        argv.push(c.cstr(p)?);
    }
    let mut envp = Vec::new();
    for p in c.ptrs(c.a[2])? {
        envp.push(c.cstr(p)?);
    }
    let cwd = k.process(pid).cwd.clone();
    let bytes = program_bytes(k, &cwd, &path)?;
    let mem = c.g.mem_bytes();
    // A dynamically linked program's loader comes from the guest's own file system (the
    // sysroot's /lib); it must fit the code window the run started with (a run started with a
    // static program has no room for one: ENOEXEC).
    let window = c.g.code_window();
    let image = loader::load_dynamic(&bytes, mem, window, &mut |p| {
        program_bytes(k, "/", p).ok().map(|b| b.to_vec())
    });
    let image = Rc::new(image.map_err(|_| ENOEXEC)?);
    if loader::process::check_fits(&image, mem, &argv, &envp).is_err() {
        return Err(E2BIG.into());
    }
    let mmap_low = match load_process(c.g, c.slot, &image, &argv, &envp) {
        Ok(low) => low,
        Err(LoadError::Fit(_)) => return Err(E2BIG.into()),
        // Past the point of no return (the old image is gone): the process ends, the run and
        // the other instances go on, as when Linux cannot finish an exec.
        Err(LoadError::Mem(MemError::Device(e @ crate::gpu::GpuError::CodeFull(_)))) => {
            crate::elog!("garm: pid {pid}: execve: {e}");
            k.exit_proc(c.g, pid, sig::SIGKILL);
            return Ok(Sys::NoReturn);
        }
        Err(LoadError::Mem(e)) => return Err(e.into()),
    };
    // The other threads end; the one that exec'd goes on as the process (with its pid).
    let tg = k.tg(pid);
    for t in k.threads_of(pid) {
        if t != pid {
            k.end_thread(c.g, t, false);
        }
    }
    if pid != tg {
        k.procs.remove(&pid);
        k.slots[c.slot] = Some(tg);
        k.proc_mut(tg).slot = Some(c.slot);
    }
    let pid = tg;
    let p = k.proc_mut(pid);
    p.threaded = false;
    p.shares_memory = false;
    p.image = image;
    p.exe_path = normalize(&cwd, &path);
    p.comm = comm_of(&p.exe_path);
    p.cmdline = nul_joined(&argv);
    p.environ = nul_joined(&envp);
    p.mmap_low = mmap_low;
    p.sigactions.retain(|_, a| a.handler == SIG_IGN);
    p.pending.clear();
    p.siginfo.clear();
    p.in_handler = 0;
    for f in p.fds.iter_mut() {
        if f.as_ref().is_some_and(|f| f.cloexec) {
            *f = None;
        }
    }
    p.state = PState::Running;
    if let Some(vp) = p.vfork_parent.take() {
        k.wake(c.g, vp);
    }
    Ok(Sys::NoReturn)
}

/// The bytes of the program file at `path` in the guest's file system.
fn program_bytes(k: &Kernel, cwd: &str, path: &str) -> Result<Rc<Vec<u8>>, Errno> {
    Ok(match k.vfs.resolve(cwd, path, true)? {
        Target::Mem(i) => match &k.vfs.inodes[i].node {
            Node::File(d) => d.clone(),
            _ => return Err(EACCES),
        },
        Target::Host(p, _) => Rc::new(loader::read_program(&p).map_err(|e| match e {
            loader::ProgramFileError::Io(e) => Errno::from_io(&e),
            loader::ProgramFileError::NotRegular => EACCES,
            loader::ProgramFileError::TooBig(_) => ENOMEM,
        })?),
    })
}

/// Whether the wait4/waitid that `pid` is blocked in (its arguments still in x0, x1) would
/// return a child now.
pub fn wait_would_finish(k: &Kernel, g: &dyn Guest, slot: usize, pid: Pid) -> bool {
    let (a0, a1) = (g.reg(slot, 0), g.reg(slot, 1));
    let want = if g.reg(slot, 8) == crate::os::nr::WAIT4 {
        Want::wait4(k, pid, a0 as i64)
    } else {
        match a0 {
            0 => Want::Any,
            1 => Want::Pid(a1 as i64),
            2 if a1 == 0 => Want::Group(k.process(pid).pgid),
            _ => Want::Group(a1 as i64),
        }
    };
    matches!(waitable(k, pid, want), Ok(Some(_)))
}

/// Which children a wait names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Any,
    Pid(Pid),
    Group(Pid),
}

impl Want {
    /// wait4's encoding: -1 any, >0 a pid, 0 the caller's group, < -1 the group -pid.
    fn wait4(k: &Kernel, caller: Pid, v: i64) -> Want {
        match v {
            -1 => Want::Any,
            0 => Want::Group(k.process(caller).pgid),
            v if v > 0 => Want::Pid(v),
            // i64::MIN has no group: no child is in it (ECHILD).
            v => Want::Group(v.checked_neg().unwrap_or(-1)),
        }
    }
}

/// The children `want` names: ECHILD when there are none, else the first zombie (pid, wait
/// status) if any.
fn waitable(k: &Kernel, pid: Pid, want: Want) -> Result<Option<(Pid, i32)>, Errno> {
    let mut any = false;
    let pid = k.tg(pid);
    for ch in k.procs.values().filter(|ch| {
        ch.ppid == pid
            && ch.pid == ch.tgid
            && match want {
                Want::Any => true,
                Want::Pid(p) => ch.pid == p,
                Want::Group(g) => ch.pgid == g,
            }
    }) {
        any = true;
        if let PState::Zombie(ws) = ch.state {
            return Ok(Some((ch.pid, ws)));
        }
    }
    if any {
        Ok(None)
    } else {
        Err(ECHILD)
    }
}

pub fn wait4(k: &mut Kernel, c: &mut Call) -> SysResult {
    let (status, options) = (c.a[1], c.a[2]);
    if options & !(WNOHANG | 2 | 8 | 0x4000_0000 | 0x8000_0000 | 0x2000_0000) != 0 {
        return Err(EINVAL.into());
    }
    let want = Want::wait4(k, c.pid, c.i(0));
    match waitable(k, c.pid, want)? {
        Some((cpid, ws)) => {
            if status != 0 {
                c.write_obj(status, &ws)?;
            }
            k.procs.remove(&cpid);
            ret(cpid)
        }
        None if options & WNOHANG != 0 => ret(0),
        None => Ok(Sys::Block),
    }
}

/// waitid(idtype, id, siginfo, options): like wait4 (WEXITED implied), through a siginfo_t.
pub fn waitid(k: &mut Kernel, c: &mut Call) -> SysResult {
    // P_ALL 0, P_PID 1, P_PGID 2.
    let want = match c.a[0] {
        0 => Want::Any,
        1 if c.i(1) <= 0 => return Err(EINVAL.into()),
        1 => Want::Pid(c.i(1)),
        2 if c.a[1] == 0 => Want::Group(k.process(c.pid).pgid),
        2 if c.i(1) < 0 => return Err(EINVAL.into()),
        2 => Want::Group(c.i(1)),
        _ => return Err(EINVAL.into()),
    };
    let (info, options) = (c.a[2], c.a[3]);
    let mut si = SiginfoChld::zeroed();
    match waitable(k, c.pid, want)? {
        Some((cpid, ws)) => {
            let (code, status) = if ws & 0x7f == 0 {
                (CLD_EXITED, (ws >> 8) & 0xff)
            } else {
                (CLD_KILLED, ws & 0x7f)
            };
            si.signo = sig::SIGCHLD;
            si.code = code;
            si.pid = cpid as i32;
            si.status = status;
            if info != 0 {
                c.write_obj(info, &si)?;
            }
            if options & WNOWAIT == 0 {
                k.procs.remove(&cpid);
            }
            ret(0)
        }
        None if options & WNOHANG != 0 => {
            if info != 0 {
                c.write_obj(info, &si)?;
            }
            ret(0)
        }
        None => Ok(Sys::Block),
    }
}

use bytemuck::Zeroable;
