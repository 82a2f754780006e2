//! Unit tests of the syscall handlers on an in-memory guest ([`MemGuest`]): no GPU, no clang,
//! milliseconds each. Answers are Linux's (man pages and the kernel's code), not garm's own.

mod fs;
mod io;
mod misc;
mod names;
mod net;
mod poll;
mod process;
mod signal;
mod thread;

use super::*;
use crate::guest::{MemGuest, Perm};
use crate::loader::{Image, Segment};
use crate::os::nr;

/// Where tests put guest data: above the null guard, below the stack.
pub const BUF: u64 = 0x40000;
pub const BUF2: u64 = 0x48000;
pub const MEM: usize = 1 << 20;

/// A kernel with one root process (pid 1) in slot 0 of a 4-slot in-memory guest.
pub struct T {
    pub k: Kernel,
    pub g: MemGuest,
    pub out: Output,
    pub pid: Pid,
}

pub fn image() -> Rc<Image> {
    Rc::new(Image {
        entry: 0x10000,
        start: 0x10000,
        base: 0,
        segments: vec![Segment {
            vaddr: 0x10000,
            memsz: 0x1000,
            data: vec![0; 16],
            exec: true,
            write: false,
        }],
        phdr_addr: 0x10040,
        phnum: 1,
        brk_start: 0x11000,
    })
}

impl T {
    pub fn new() -> T {
        let mut g = MemGuest::new(4, MEM);
        let mut k = Kernel::new(4, 1, false);
        g.set_status(0, Stop::Running);
        g.st_mut(0)[layout::S_BRK] = 0x11000;
        // Each slot's memory: zero pages from above the null guard to 1 MiB.
        for s in 0..4 {
            g.map(s, 0x10000, MEM as u64 - 0x10000, Perm::RW, false)
                .unwrap();
        }
        let pid = k.spawn_root(0, image(), "/prog", 0xc0000);
        T {
            k,
            g,
            out: Output::new(1, crate::os::OutputMode::Keep),
            pid,
        }
    }

    /// Runs syscall `n` as process `pid` (in its slot) and returns how it ended.
    pub fn sys_as(&mut self, pid: Pid, n: u64, args: &[u64]) -> Sys {
        let mut a = [0u64; 6];
        a[..args.len()].copy_from_slice(args);
        let slot = self.k.proc(pid).slot.expect("a live process");
        self.k
            .call_as(&mut self.g, &mut self.out, slot, pid, n, a)
            .expect("no device error")
    }

    pub fn sys(&mut self, n: u64, args: &[u64]) -> Sys {
        self.sys_as(self.pid, n, args)
    }

    /// The x0 result of a call that must not block.
    pub fn call(&mut self, n: u64, args: &[u64]) -> i64 {
        match self.sys(n, args) {
            Sys::Ret(v) => v,
            other => panic!("syscall {n} did not return: {other:?}"),
        }
    }

    pub fn call_as(&mut self, pid: Pid, n: u64, args: &[u64]) -> i64 {
        match self.sys_as(pid, n, args) {
            Sys::Ret(v) => v,
            other => panic!("syscall {n} did not return: {other:?}"),
        }
    }

    /// Puts a NUL-terminated string at `addr`; returns `addr`.
    pub fn cstr(&mut self, addr: u64, s: &str) -> u64 {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        self.g.write_mem(0, addr, &b).unwrap();
        addr
    }

    pub fn put(&mut self, addr: u64, b: &[u8]) {
        self.g.write_mem(0, addr, b).unwrap();
    }

    pub fn get(&mut self, addr: u64, len: usize) -> Vec<u8> {
        self.g.read_mem(0, addr, len).unwrap()
    }

    pub fn get_obj<P: bytemuck::Pod>(&mut self, addr: u64) -> P {
        (&mut self.g as &mut dyn Guest).read_obj(0, addr).unwrap()
    }

    /// openat(AT_FDCWD, path, flags, mode).
    pub fn open(&mut self, path: &str, flags: u64, mode: u64) -> i64 {
        let p = self.cstr(BUF2 + 0x3000, path);
        self.call(nr::OPENAT, &[AT_FDCWD as u64, p, flags, mode])
    }

    /// write(fd, data) through guest memory.
    pub fn write_fd(&mut self, fd: i64, data: &[u8]) -> i64 {
        self.put(BUF2, data);
        self.call(nr::WRITE, &[fd as u64, BUF2, data.len() as u64])
    }

    /// read(fd, len) into guest memory; the bytes read (or the errno).
    pub fn read_fd(&mut self, fd: i64, len: usize) -> Result<Vec<u8>, Errno> {
        let n = self.call(nr::READ, &[fd as u64, BUF2, len as u64]);
        match Errno::from_ret(n) {
            Some(e) => Err(e),
            None => Ok(self.get(BUF2, n as usize)),
        }
    }

    /// A file in garm's filesystem with these bytes.
    pub fn put_file(&mut self, path: &str, bytes: &[u8]) {
        let fd = self.open(path, O_RDWR | O_CREAT | O_TRUNC, 0o755);
        assert_eq!(self.write_fd(fd, bytes), bytes.len() as i64);
        self.call(nr::CLOSE, &[fd as u64]);
    }

    /// fork(): the child's pid.
    pub fn fork(&mut self) -> Pid {
        self.call(nr::CLONE, &[17, 0])
    }
}

/// An address guests can never touch (below the null guard).
pub const BAD: u64 = 8;

/// A minimal static AArch64 ELF: `mov x0, #0; mov x8, #93; svc #0` at 0x10078.
pub fn tiny_elf() -> Vec<u8> {
    crate::hostfuzz::tiny_elf()
}

#[test]
fn tiny_elf_loads() {
    let img = crate::loader::load_elf(&tiny_elf(), MEM as u64).unwrap();
    assert_eq!(img.entry, 0x10078);
}

#[test]
fn unknown_syscall_is_enosys() {
    let mut t = T::new();
    assert_eq!(t.call(999, &[]), ENOSYS.ret());
}
