//! /proc files made for the process that opens them: its command line, environment, status
//! and memory map, the machine's memory and uptime. Each open takes a snapshot (read like a
//! file, never written).

use super::*;
use crate::gpu::paging::PAGE;
use crate::gpu::space::Perm;
use crate::os::vfs::ProcFile;
use std::fmt::Write;

/// The bytes of /proc file `f` as process `pid` in `slot` sees it now.
pub fn generate(k: &Kernel, g: &dyn Guest, pid: Pid, slot: usize, f: ProcFile) -> Vec<u8> {
    let p = k.process(pid);
    match f {
        ProcFile::Cmdline => p.cmdline.to_vec(),
        ProcFile::Environ => p.environ.to_vec(),
        ProcFile::Status => status(k, g, pid, slot).into_bytes(),
        ProcFile::Maps => maps(k, g, pid, slot).into_bytes(),
        ProcFile::Meminfo => meminfo(k, g).into_bytes(),
        ProcFile::Uptime => {
            let up = k.started.elapsed().as_secs_f64();
            format!("{up:.2} {up:.2}\n").into_bytes()
        }
    }
}

fn status(k: &Kernel, g: &dyn Guest, pid: Pid, slot: usize) -> String {
    let t = k.proc(pid);
    let p = k.process(pid);
    let name =
        String::from_utf8_lossy(&t.comm[..t.comm.iter().position(|&b| b == 0).unwrap_or(16)])
            .into_owned();
    let kb = g.spaces().mapped_bytes(slot) / 1024;
    let mut s = String::new();
    let _ = write!(
        s,
        "Name:\t{name}\nUmask:\t{:04o}\nState:\tR (running)\nTgid:\t{}\nNgid:\t0\nPid:\t{pid}\n\
         PPid:\t{}\nTracerPid:\t0\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t{}\n\
         VmPeak:\t{kb:8} kB\nVmSize:\t{kb:8} kB\nVmRSS:\t{kb:8} kB\nThreads:\t{}\n\
         Cpus_allowed:\t1\nCpus_allowed_list:\t0\n",
        p.umask,
        p.tgid,
        p.ppid,
        p.fds.len().max(1).next_power_of_two().max(64),
        k.threads_of(pid).len().max(1),
    );
    s
}

/// Linux's maps lines: `start-end perms offset dev inode name`, the program's segments named by
/// its path, the break's pages `[heap]`, the top of memory `[stack]`, the rest anonymous (a
/// library's file mappings too: garm keeps no names for mmap'd files).
pub fn maps(k: &Kernel, g: &dyn Guest, pid: Pid, slot: usize) -> String {
    let p = k.process(pid);
    let brk = g.st(slot)[layout::S_BRK] as u64;
    let heap = (p.image.brk_start, brk.max(p.image.brk_start));
    let top = crate::loader::process::STACK_TOP;
    // Linux shows the program's segments and the heap as mappings of their own, even where
    // the pages run on with the same rights.
    let mut cuts: Vec<u64> = p
        .image
        .segments
        .iter()
        .flat_map(|seg| {
            [
                seg.vaddr & !(PAGE - 1),
                (seg.vaddr + seg.memsz).next_multiple_of(PAGE),
            ]
        })
        .chain([heap.0.next_multiple_of(PAGE)])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut pieces = Vec::new();
    for (start, end, perm) in g.spaces().regions(slot) {
        let inner: Vec<u64> = cuts
            .iter()
            .copied()
            .filter(|&c| start < c && c < end)
            .collect();
        let mut from = start;
        for cut in inner.into_iter().chain([end]) {
            pieces.push((from, cut, perm));
            from = cut;
        }
    }
    let mut s = String::new();
    for (start, end, perm) in pieces {
        let in_image = p
            .image
            .segments
            .iter()
            .any(|seg| start < seg.vaddr + seg.memsz && seg.vaddr < end);
        let name = if in_image {
            p.exe_path.as_str()
        } else if start < heap.1.next_multiple_of(PAGE) && heap.0 < end {
            "[heap]"
        } else if end == top {
            "[stack]"
        } else {
            ""
        };
        let r = |b: Perm, c: char| if perm.has(b) { c } else { '-' };
        let _ = writeln!(
            s,
            "{start:08x}-{end:08x} {}{}{}p 00000000 00:00 0{}{name}",
            r(Perm::R, 'r'),
            r(Perm::W, 'w'),
            r(Perm::X, 'x'),
            if name.is_empty() {
                ""
            } else {
                "                          "
            },
        );
    }
    s
}

/// The machine's memory as /proc/meminfo gives it (sysinfo's figures).
fn meminfo(k: &Kernel, g: &dyn Guest) -> String {
    let total = g.mem_bytes() * k.slots.len() as u64 / 1024;
    let used: u64 = k
        .procs
        .values()
        .filter_map(|p| p.slot)
        .map(|s| g.spaces().mapped_bytes(s) / 1024)
        .sum();
    let free = total.saturating_sub(used);
    let mut s = String::new();
    for (name, v) in [
        ("MemTotal", total),
        ("MemFree", free),
        ("MemAvailable", free),
        ("Buffers", 0),
        ("Cached", 0),
        ("SwapCached", 0),
        ("SwapTotal", 0),
        ("SwapFree", 0),
    ] {
        let _ = writeln!(s, "{:<16}{v:>8} kB", format!("{name}:"));
    }
    s
}
