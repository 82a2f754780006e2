//! The Linux aarch64 user ABI garm speaks: guest structs as `#[repr(C)]` plain data (their sizes
//! are checked against the kernel's in tests), flag bits and signal numbers.

use bytemuck::{Pod, Zeroable};

pub const O_ACCMODE: u64 = 3;
pub const O_WRONLY: u64 = 1;
pub const O_RDWR: u64 = 2;
pub const O_CREAT: u64 = 0o100;
pub const O_EXCL: u64 = 0o200;
pub const O_NOCTTY: u64 = 0o400;
pub const O_TRUNC: u64 = 0o1000;
pub const O_APPEND: u64 = 0o2000;
pub const O_NONBLOCK: u64 = 0o4000;
pub const O_DIRECTORY: u64 = 0o40000;
pub const O_NOFOLLOW: u64 = 0o100000;
pub const O_CLOEXEC: u64 = 0o2000000;
pub const AT_FDCWD: i64 = -100;
pub const AT_SYMLINK_NOFOLLOW: u64 = 0x100;
pub const AT_REMOVEDIR: u64 = 0x200;
pub const AT_EMPTY_PATH: u64 = 0x1000;

pub const F_DUPFD: u64 = 0;
pub const F_GETFD: u64 = 1;
pub const F_SETFD: u64 = 2;
pub const F_GETFL: u64 = 3;
pub const F_SETFL: u64 = 4;
pub const F_DUPFD_CLOEXEC: u64 = 1030;

pub const WNOHANG: u64 = 1;
pub const WNOWAIT: u64 = 0x0100_0000;

pub const CLONE_VM: u64 = 0x100;
pub const CLONE_FS: u64 = 0x200;
pub const CLONE_FILES: u64 = 0x400;
pub const CLONE_SIGHAND: u64 = 0x800;
pub const CLONE_SETTLS: u64 = 0x80000;
pub const CLONE_PARENT_SETTID: u64 = 0x100000;
pub const CLONE_CHILD_CLEARTID: u64 = 0x200000;
pub const CLONE_CHILD_SETTID: u64 = 0x1000000;
pub const CLONE_VFORK: u64 = 0x4000;
pub const CLONE_THREAD: u64 = 0x10000;

pub const MAP_SHARED: u64 = 0x01;
pub const MAP_FIXED: u64 = 0x10;
pub const MAP_ANONYMOUS: u64 = 0x20;
pub const MAP_FIXED_NOREPLACE: u64 = 0x10_0000;
pub const MREMAP_MAYMOVE: u64 = 1;

/// sa_flags bit: restart a blocked syscall after the handler instead of failing it with EINTR.
pub const SA_RESTART: u64 = 0x1000_0000;
pub const SA_RESTORER: u64 = 0x0400_0000;
/// `sa_handler` values that are not addresses.
pub const SIG_DFL: u64 = 0;
pub const SIG_IGN: u64 = 1;
/// rt_sigprocmask: replace the mask.
pub const SIG_SETMASK: u64 = 2;

/// Signal numbers (the one list: the kernel and the run loop both use it).
pub mod sig {
    pub const SIGINT: i32 = 2;
    pub const SIGILL: i32 = 4;
    pub const SIGTRAP: i32 = 5;
    pub const SIGBUS: i32 = 7;
    pub const SIGKILL: i32 = 9;
    pub const SIGUSR1: i32 = 10;
    pub const SIGSEGV: i32 = 11;
    pub const SIGPIPE: i32 = 13;
    pub const SIGTERM: i32 = 15;
    pub const SIGCHLD: i32 = 17;
    pub const SIGCONT: i32 = 18;
    pub const SIGSTOP: i32 = 19;
    pub const SIGURG: i32 = 23;
    pub const SIGWINCH: i32 = 28;
    /// Highest signal number (real-time signals included).
    pub const NSIG: i32 = 64;

    /// Whether the default action of `s` is to ignore it.
    pub fn ignored_by_default(s: i32) -> bool {
        matches!(s, SIGCHLD | SIGCONT | SIGURG | SIGWINCH)
    }
}

/// `struct stat` (asm-generic, 128 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct Stat {
    pub dev: u64,
    pub ino: u64,
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub rdev: u64,
    pub _pad1: u64,
    pub size: i64,
    pub blksize: i32,
    pub _pad2: i32,
    pub blocks: i64,
    pub atime: i64,
    pub atime_nsec: u64,
    pub mtime: i64,
    pub mtime_nsec: u64,
    pub ctime: i64,
    pub ctime_nsec: u64,
    pub _unused: [u32; 2],
}

impl Stat {
    pub fn new(ino: u64, mode: u32, size: u64, nlink: u32) -> Stat {
        Stat {
            dev: 1,
            ino,
            mode,
            nlink,
            size: size as i64,
            blksize: 4096,
            // 512-byte units allocated in whole 4 KiB pages, as tmpfs and ext4 count them.
            blocks: (size.div_ceil(4096) * 8) as i64,
            ..Default::default()
        }
    }

    /// A host file's metadata.
    pub fn from_metadata(md: &std::fs::Metadata) -> Stat {
        use crate::os::host::MetadataExt;
        let mut s = Stat::new(md.ino(), md.mode(), md.size(), md.nlink() as u32);
        s.mtime = md.mtime();
        s.blocks = md.blocks() as i64;
        s
    }
}

/// `struct statx_timestamp`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct StatxTimestamp {
    pub sec: i64,
    pub nsec: u32,
    pub _reserved: i32,
}

/// `struct statx` (256 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct Statx {
    pub mask: u32,
    pub blksize: u32,
    pub attributes: u64,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub mode: u16,
    pub _spare0: u16,
    pub ino: u64,
    pub size: u64,
    pub blocks: u64,
    pub attributes_mask: u64,
    pub atime: StatxTimestamp,
    pub btime: StatxTimestamp,
    pub ctime: StatxTimestamp,
    pub mtime: StatxTimestamp,
    pub rdev_major: u32,
    pub rdev_minor: u32,
    pub dev_major: u32,
    pub dev_minor: u32,
    pub _spare: [u64; 14],
}

/// STATX_BASIC_STATS: the fields garm fills.
pub const STATX_BASIC_STATS: u32 = 0x7ff;

impl From<&Stat> for Statx {
    fn from(s: &Stat) -> Statx {
        let mut x = Statx::zeroed();
        x.mask = STATX_BASIC_STATS;
        x.blksize = s.blksize as u32;
        x.nlink = s.nlink;
        x.uid = s.uid;
        x.gid = s.gid;
        x.mode = s.mode as u16;
        x.ino = s.ino;
        x.size = s.size as u64;
        x.blocks = s.blocks as u64;
        x.mtime.sec = s.mtime;
        x
    }
}

/// `struct timespec`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct Timespec {
    pub sec: i64,
    pub nsec: i64,
}

/// `struct timeval`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct Timeval {
    pub sec: i64,
    pub usec: i64,
}

/// The kernel's `struct sigaction` (handler, flags, restorer, mask).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct Sigaction {
    pub handler: u64,
    pub flags: u64,
    pub restorer: u64,
    pub mask: u64,
}

/// `struct iovec`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct Iovec {
    pub base: u64,
    pub len: u64,
}

/// Most entries readv/writev take (UIO_MAXIOV).
pub const UIO_MAXIOV: u64 = 1024;

/// `struct utsname`: six 65-byte strings.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct Utsname {
    pub fields: [[u8; 65]; 6],
}

impl Utsname {
    pub fn new(fields: [&str; 6]) -> Utsname {
        let mut u = Utsname::zeroed();
        for (d, s) in u.fields.iter_mut().zip(fields) {
            let n = s.len().min(64);
            d[..n].copy_from_slice(&s.as_bytes()[..n]);
        }
        u
    }
}

/// `struct sysinfo` (64-bit, 112 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct Sysinfo {
    pub uptime: i64,
    pub loads: [u64; 3],
    pub totalram: u64,
    pub freeram: u64,
    pub sharedram: u64,
    pub bufferram: u64,
    pub totalswap: u64,
    pub freeswap: u64,
    pub procs: u16,
    pub _pad: u16,
    pub _pad2: u32,
    pub totalhigh: u64,
    pub freehigh: u64,
    pub mem_unit: u32,
    pub _f: [u8; 4],
}

/// `siginfo_t` as waitid fills it for SIGCHLD (128 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct SiginfoChld {
    pub signo: i32,
    pub errno: i32,
    pub code: i32,
    pub _pad: i32,
    pub pid: i32,
    pub uid: u32,
    pub status: i32,
    pub _rest: [i32; 25],
}

/// si_code values for SIGCHLD.
pub const CLD_EXITED: i32 = 1;
pub const CLD_KILLED: i32 = 2;

/// `struct rlimit64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct Rlimit {
    pub cur: u64,
    pub max: u64,
}

/// RLIMIT_* numbers garm answers for.
pub mod rlimit {
    pub const CPU: u32 = 0;
    pub const FSIZE: u32 = 1;
    pub const DATA: u32 = 2;
    pub const STACK: u32 = 3;
    pub const NOFILE: u32 = 7;
    pub const AS: u32 = 9;
    /// RLIM_NLIMITS.
    pub const COUNT: u32 = 16;
    pub const INFINITY: u64 = u64::MAX;
}

/// `struct statfs` (asm-generic 64-bit, 120 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct Statfs {
    pub ty: i64,
    pub bsize: i64,
    pub blocks: u64,
    pub bfree: u64,
    pub bavail: u64,
    pub files: u64,
    pub ffree: u64,
    pub fsid: [i32; 2],
    pub namelen: i64,
    pub frsize: i64,
    pub flags: i64,
    pub spare: [i64; 4],
}

/// f_type of garm's own tree (it is a tmpfs in all but name).
pub const TMPFS_MAGIC: i64 = 0x0102_1994;

/// `struct rusage` (144 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct Rusage {
    pub utime: Timeval,
    pub stime: Timeval,
    /// maxrss (KiB), ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock, msgsnd,
    /// msgrcv, nsignals, nvcsw, nivcsw.
    pub rest: [i64; 14],
}

/// `struct tms`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct Tms {
    pub utime: i64,
    pub stime: i64,
    pub cutime: i64,
    pub cstime: i64,
}

/// `struct pollfd`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq, Eq)]
pub struct PollFd {
    pub fd: i32,
    pub events: i16,
    pub revents: i16,
}

pub mod poll {
    pub const IN: i16 = 0x1;
    pub const PRI: i16 = 0x2;
    pub const OUT: i16 = 0x4;
    pub const ERR: i16 = 0x8;
    pub const HUP: i16 = 0x10;
    pub const NVAL: i16 = 0x20;
}

/// prctl options garm answers.
pub const PR_SET_NAME: u64 = 15;
pub const PR_GET_NAME: u64 = 16;

/// The fixed head of `struct linux_dirent64`; the name follows, NUL-terminated, the record padded
/// to 8 bytes.
#[repr(C, packed)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct Dirent64Head {
    pub ino: u64,
    pub off: i64,
    pub reclen: u16,
    pub ty: u8,
}

/// d_type values.
pub const DT_CHR: u8 = 2;
pub const DT_DIR: u8 = 4;
pub const DT_REG: u8 = 8;
pub const DT_LNK: u8 = 10;
pub const DT_SOCK: u8 = 12;

/// One dirent64 record for `name`.
pub fn dirent64(ino: u64, off: i64, ty: u8, name: &str) -> Vec<u8> {
    let head = std::mem::size_of::<Dirent64Head>();
    let reclen = (head + name.len() + 1).div_ceil(8) * 8;
    let mut rec = vec![0u8; reclen];
    let h = Dirent64Head {
        ino,
        off,
        reclen: reclen as u16,
        ty,
    };
    rec[..head].copy_from_slice(bytemuck::bytes_of(&h));
    rec[head..head + name.len()].copy_from_slice(name.as_bytes());
    rec
}

/// `struct sigcontext` (aarch64): the interrupted registers, then a 4 KiB area of records
/// (garm writes the FP/SIMD one and the terminator).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct Sigcontext {
    pub fault_address: u64,
    pub regs: [u64; 31],
    pub sp: u64,
    pub pc: u64,
    pub pstate: u64,
    pub _align: u64,
    pub reserved: [u8; 4096],
}

/// `struct ucontext` (aarch64).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct Ucontext {
    pub flags: u64,
    pub link: u64,
    pub ss_sp: u64,
    pub ss_flags: i32,
    pub _pad: i32,
    pub ss_size: u64,
    pub sigmask: u64,
    pub _unused: [u8; 120],
    pub _align: u64,
    pub mcontext: Sigcontext,
}

/// The frame Linux pushes for a handler: `struct rt_sigframe` (siginfo, then the ucontext).
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct RtSigframe {
    pub info: Siginfo,
    pub uc: Ucontext,
}

/// The frame record above a signal frame (x29 points at it, as at a call).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct FrameRecord {
    pub fp: u64,
    pub lr: u64,
}

/// The FP/SIMD record in `sigcontext.__reserved`: `struct fpsimd_context`.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct FpsimdContext {
    pub magic: u32,
    pub size: u32,
    pub fpsr: u32,
    pub fpcr: u32,
    pub vregs: [u128; 32],
}

pub const FPSIMD_MAGIC: u32 = 0x4650_8001;
/// `ss_flags` of a process without an alternate signal stack.
pub const SS_DISABLE: i32 = 2;
/// si_code of a signal sent by kill/tgkill.
pub const SI_USER: i32 = 0;
/// sa_flags bit: the handler takes (sig, siginfo *, ucontext *).
pub const SA_SIGINFO: u64 = 4;

/// `siginfo_t` (128 bytes) as garm fills it.
pub type Siginfo = SiginfoChld;

/// si_code of SIGSEGV: nothing mapped there, or mapped without the right.
pub const SEGV_MAPERR: i32 = 1;
pub const SEGV_ACCERR: i32 = 2;
/// si_code of SIGBUS for a misaligned access.
pub const BUS_ADRALN: i32 = 1;

impl SiginfoChld {
    /// The siginfo of a memory fault: si_addr lies where SIGCHLD's si_pid and si_uid do.
    pub fn fault(signo: i32, code: i32, addr: u64) -> Siginfo {
        let mut i = Siginfo::zeroed();
        i.signo = signo;
        i.code = code;
        i.pid = addr as u32 as i32;
        i.uid = (addr >> 32) as u32;
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn struct_sizes_match_linux_aarch64() {
        assert_eq!(size_of::<Stat>(), 128);
        assert_eq!(size_of::<Statx>(), 256);
        assert_eq!(std::mem::offset_of!(Statx, mtime), 112);
        assert_eq!(std::mem::offset_of!(Statx, ino), 32);
        assert_eq!(std::mem::offset_of!(Stat, size), 48);
        assert_eq!(std::mem::offset_of!(Stat, mtime), 88);
        assert_eq!(size_of::<Timespec>(), 16);
        assert_eq!(size_of::<Sigaction>(), 32);
        assert_eq!(size_of::<Utsname>(), 390);
        assert_eq!(size_of::<Sysinfo>(), 112);
        assert_eq!(std::mem::offset_of!(Sysinfo, procs), 80);
        assert_eq!(std::mem::offset_of!(Sysinfo, mem_unit), 104);
        assert_eq!(size_of::<SiginfoChld>(), 128);
        assert_eq!(std::mem::offset_of!(SiginfoChld, status), 24);
        assert_eq!(size_of::<Dirent64Head>(), 19);
        assert_eq!(size_of::<Sigcontext>(), 4384);
        assert_eq!(std::mem::offset_of!(Sigcontext, reserved), 288);
        assert_eq!(std::mem::offset_of!(Ucontext, mcontext), 176);
        assert_eq!(size_of::<Ucontext>(), 4560);
        assert_eq!(std::mem::offset_of!(RtSigframe, uc), 128);
        assert_eq!(size_of::<FpsimdContext>(), 528);
        assert_eq!(size_of::<Statfs>(), 120);
        assert_eq!(size_of::<Rusage>(), 144);
        assert_eq!(size_of::<Tms>(), 32);
        assert_eq!(size_of::<PollFd>(), 8);
    }

    #[test]
    fn dirent_records_are_padded_to_eight() {
        let r = dirent64(5, 1, DT_REG, "abcde");
        assert_eq!(r.len(), 32);
        assert_eq!(u16::from_le_bytes([r[16], r[17]]), 32);
        assert_eq!(&r[19..25], b"abcde\0");
        assert_eq!(dirent64(1, 1, DT_DIR, ".").len(), 24);
    }

    #[test]
    fn statx_carries_stat_fields() {
        let mut s = Stat::new(7, 0o100644, 1000, 2);
        s.mtime = 1234;
        let x = Statx::from(&s);
        assert_eq!(
            (x.ino, x.size, x.nlink, x.mode, x.blocks),
            (7, 1000, 2, 0o100644, 8)
        );
        assert_eq!(x.mtime.sec, 1234);
        assert_eq!(x.mask, STATX_BASIC_STATS);
    }
}
