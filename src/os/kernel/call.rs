//! One syscall in progress ([`Call`]: the caller, its arguments and guest memory) and how a
//! handler answers ([`Sys`], [`Fail`]); the dispatch loop's view of the answer ([`Outcome`]).

use super::Kernel;
use super::Pid;
use crate::guest::{Guest, MemError};
use crate::os::errno::*;
use crate::os::Output;

/// What the host's answer to a syscall means for the dispatch loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The process runs on (a result is in x0, or exec/sigreturn set it up).
    Resume,
    /// It waits (wait, pipe): the call is retried after the next submit.
    Blocked,
    /// The call ended the process (exit, a fatal signal): progress, but nothing to resume.
    Ended,
}

/// How a syscall ended: a result for x0, a block (retry later), or no result (exit, exec).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sys {
    Ret(i64),
    Block,
    NoReturn,
}

/// Why a handler gave no result: an errno for the guest, or a failure of garm's own.
#[derive(Debug)]
pub enum Fail {
    Errno(Errno),
    Host(MemError),
}

impl From<Errno> for Fail {
    fn from(e: Errno) -> Fail {
        Fail::Errno(e)
    }
}

impl From<MemError> for Fail {
    fn from(e: MemError) -> Fail {
        match e {
            MemError::Fault { .. } => Fail::Errno(EFAULT),
            MemError::NoFrames => Fail::Errno(ENOMEM),
            d => Fail::Host(d),
        }
    }
}

impl From<std::io::Error> for Fail {
    fn from(e: std::io::Error) -> Fail {
        Fail::Errno(Errno::from_io(&e))
    }
}

pub type SysResult = Result<Sys, Fail>;

/// A host handler from the syscall table.
pub type Handler = fn(&mut Kernel, &mut Call) -> SysResult;

/// A result for x0.
pub fn ret(v: impl TryInto<i64>) -> SysResult {
    Ok(Sys::Ret(v.try_into().unwrap_or(i64::MAX)))
}

/// One syscall in progress: the caller, its arguments and the guest it runs in.
pub struct Call<'a> {
    pub g: &'a mut dyn Guest,
    pub out: &'a mut Output,
    pub slot: usize,
    pub pid: Pid,
    pub nr: u64,
    pub a: [u64; 6],
    /// The caller's read-only segments [start, end): a syscall may not write there either
    /// (EFAULT, as Linux's copy_to_user into a read-only mapping). Set by dispatch.
    pub readonly: Vec<(u64, u64)>,
}

impl Call<'_> {
    /// Argument `i` as a signed value (fds, pids, offsets).
    pub fn i(&self, i: usize) -> i64 {
        self.a[i] as i64
    }

    pub fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, Fail> {
        Ok(self.g.read_mem(self.slot, addr, len)?)
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), Fail> {
        self.writable(addr, data.len())?;
        Ok(self.g.write_mem(self.slot, addr, data)?)
    }

    /// Fails with [`MemError::Pending`] (the call is retried) where reads are deferred and
    /// these bytes are not read back yet: checked before data is taken that a retry would lose.
    pub fn ready(&mut self, addr: u64, len: usize) -> Result<(), Fail> {
        if self.g.ready(self.slot, addr, len) {
            Ok(())
        } else {
            Err(Fail::Host(MemError::Pending))
        }
    }

    /// EFAULT when `len` bytes at `addr` touch a read-only segment.
    pub fn writable(&self, addr: u64, len: usize) -> Result<(), Fail> {
        let end = addr.saturating_add(len as u64);
        if len > 0 && self.readonly.iter().any(|&(lo, hi)| addr < hi && end > lo) {
            return Err(EFAULT.into());
        }
        Ok(())
    }

    pub fn read_obj<T: bytemuck::Pod>(&mut self, addr: u64) -> Result<T, Fail> {
        Ok(self.g.read_obj(self.slot, addr)?)
    }

    pub fn write_obj<T: bytemuck::Pod>(&mut self, addr: u64, v: &T) -> Result<(), Fail> {
        self.writable(addr, std::mem::size_of::<T>())?;
        Ok(self.g.write_obj(self.slot, addr, v)?)
    }

    /// A NUL-terminated guest string (ENAMETOOLONG past 4 KiB).
    pub fn cstr(&mut self, addr: u64) -> Result<String, Fail> {
        read_cstr(self.g, self.slot, addr)
    }

    /// A NULL-terminated array of guest pointers (argv, envp); E2BIG past 4096 entries.
    pub fn ptrs(&mut self, addr: u64) -> Result<Vec<u64>, Fail> {
        let mut v = Vec::new();
        if addr == 0 {
            return Ok(v);
        }
        let mut a = addr;
        loop {
            // Within a 256-byte block, so a short array near the end of memory is still read;
            // whole pointers only, whatever the array's alignment.
            let chunk = match (256 - (a & 255) as usize) & !7 {
                0 => 8,
                n => n,
            };
            let b = self.read(a, chunk)?;
            for c in b.chunks_exact(8) {
                let p = u64::from_le_bytes(c.try_into().unwrap());
                if p == 0 {
                    return Ok(v);
                }
                v.push(p);
                if v.len() > 4096 {
                    return Err(E2BIG.into());
                }
            }
            a += chunk as u64;
        }
    }
}

/// A NUL-terminated guest string, read in 256-byte blocks that never cross the end of memory.
pub fn read_cstr(g: &mut dyn Guest, slot: usize, addr: u64) -> Result<String, Fail> {
    let mut out = Vec::new();
    let mut a = addr;
    loop {
        let chunk = 256 - (a & 255) as usize;
        let bytes = g.read_mem(slot, a, chunk)?;
        if let Some(z) = bytes.iter().position(|&b| b == 0) {
            out.extend_from_slice(&bytes[..z]);
            break;
        }
        out.extend_from_slice(&bytes);
        a += chunk as u64;
        if out.len() > 4096 {
            return Err(ENAMETOOLONG.into());
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}
