//! The one syscall table: number, name, argument formats for `--strace`, and the host handler,
//! in the manner of QEMU's `strace.list`. The kernel dispatches through it, the strace printer
//! formats with it, the JIT oracle and the shader take their numbers from it.
//!
//! Argument formats, one letter per argument: `d` decimal, `x` hex, `o` octal, `s` C string.

use super::kernel::{
    event, fs, fsmeta, futex, io, memory, misc, net, poll, process, signal, Handler,
};

/// One syscall garm knows.
pub struct Syscall {
    pub nr: u64,
    pub name: &'static str,
    pub args: &'static str,
    /// The host handler; `None` where the shader always answers (it never reaches the host).
    pub handler: Option<Handler>,
}

macro_rules! syscalls {
    ($($nr:literal $konst:ident $name:literal $args:literal $h:expr;)*) => {
        /// Linux aarch64 (asm-generic) syscall numbers.
        pub mod nr {
            $(pub const $konst: u64 = $nr;)*
        }
        /// Every syscall garm implements, by number.
        pub static TABLE: &[Syscall] = &[
            $(Syscall { nr: $nr, name: $name, args: $args, handler: $h },)*
        ];
    };
}

syscalls! {
    17 GETCWD "getcwd" "xd" Some(fs::getcwd);
    19 EVENTFD2 "eventfd2" "dx" Some(event::eventfd2);
    20 EPOLL_CREATE1 "epoll_create1" "x" Some(event::epoll_create1);
    21 EPOLL_CTL "epoll_ctl" "dddx" Some(event::epoll_ctl);
    22 EPOLL_PWAIT "epoll_pwait" "dxddxd" Some(event::epoll_pwait);
    23 DUP "dup" "d" Some(io::dup);
    24 DUP3 "dup3" "ddx" Some(io::dup3);
    25 FCNTL "fcntl" "ddx" Some(io::fcntl);
    29 IOCTL "ioctl" "dxx" Some(io::ioctl);
    34 MKDIRAT "mkdirat" "dso" Some(fs::mkdirat);
    35 UNLINKAT "unlinkat" "dsx" Some(fs::unlinkat);
    36 SYMLINKAT "symlinkat" "sds" Some(fs::symlinkat);
    37 LINKAT "linkat" "dsdsx" Some(fs::rename_or_link);
    38 RENAMEAT "renameat" "dsds" Some(fs::rename_or_link);
    43 STATFS "statfs" "sx" Some(fsmeta::statfs);
    44 FSTATFS "fstatfs" "dx" Some(fsmeta::fstatfs);
    46 FTRUNCATE "ftruncate" "dd" Some(io::ftruncate);
    48 FACCESSAT "faccessat" "dsx" Some(fs::faccessat);
    49 CHDIR "chdir" "s" Some(fs::chdir);
    50 FCHDIR "fchdir" "d" Some(fs::fchdir);
    52 FCHMOD "fchmod" "do" Some(fsmeta::fchmod);
    53 FCHMODAT "fchmodat" "dsox" Some(fsmeta::fchmodat);
    56 OPENAT "openat" "dsxo" Some(fs::openat);
    57 CLOSE "close" "d" Some(io::close);
    59 PIPE2 "pipe2" "xx" Some(io::pipe2);
    61 GETDENTS64 "getdents64" "dxd" Some(fs::getdents64);
    62 LSEEK "lseek" "ddd" Some(io::lseek);
    63 READ "read" "dxd" Some(io::read);
    64 WRITE "write" "dxd" Some(io::write);
    65 READV "readv" "dxd" Some(io::readv);
    66 WRITEV "writev" "dxd" Some(io::writev);
    67 PREAD64 "pread64" "dxdd" Some(io::pread64);
    68 PWRITE64 "pwrite64" "dxdd" Some(io::pwrite64);
    72 PSELECT6 "pselect6" "dxxxxx" Some(poll::pselect6);
    73 PPOLL "ppoll" "xdxxd" Some(poll::ppoll);
    78 READLINKAT "readlinkat" "dsxd" Some(fs::readlinkat);
    79 NEWFSTATAT "newfstatat" "dsxx" Some(fs::newfstatat);
    80 FSTAT "fstat" "dx" Some(fs::fstat);
    81 SYNC "sync" "" Some(fsmeta::sync);
    82 FSYNC "fsync" "d" Some(fsmeta::fsync);
    83 FDATASYNC "fdatasync" "d" Some(fsmeta::fsync);
    88 UTIMENSAT "utimensat" "dsxx" Some(fs::utimensat);
    93 EXIT "exit" "d" Some(process::exit);
    94 EXIT_GROUP "exit_group" "d" Some(process::exit_group);
    95 WAITID "waitid" "ddxx" Some(process::waitid);
    96 SET_TID_ADDRESS "set_tid_address" "x" Some(process::set_tid_address);
    98 FUTEX "futex" "xdxxxx" Some(futex::futex);
    99 SET_ROBUST_LIST "set_robust_list" "xd" Some(misc::nothing);
    101 NANOSLEEP "nanosleep" "xx" Some(misc::nanosleep);
    113 CLOCK_GETTIME "clock_gettime" "dx" Some(misc::clock_gettime);
    114 CLOCK_GETRES "clock_getres" "dx" Some(misc::clock_getres);
    115 CLOCK_NANOSLEEP "clock_nanosleep" "ddxx" Some(misc::clock_nanosleep);
    122 SCHED_SETAFFINITY "sched_setaffinity" "ddx" Some(misc::sched_setaffinity);
    123 SCHED_GETAFFINITY "sched_getaffinity" "ddx" Some(misc::sched_getaffinity);
    124 SCHED_YIELD "sched_yield" "" Some(misc::nothing);
    129 KILL "kill" "dd" Some(signal::kill);
    130 TKILL "tkill" "dd" Some(signal::tkill);
    131 TGKILL "tgkill" "ddd" Some(signal::tgkill);
    134 RT_SIGACTION "rt_sigaction" "dxxd" Some(signal::rt_sigaction);
    135 RT_SIGPROCMASK "rt_sigprocmask" "dxxd" Some(signal::rt_sigprocmask);
    139 RT_SIGRETURN "rt_sigreturn" "" Some(signal::rt_sigreturn);
    148 GETRESUID "getresuid" "xxx" Some(misc::getres_ids);
    150 GETRESGID "getresgid" "xxx" Some(misc::getres_ids);
    153 TIMES "times" "x" Some(misc::times);
    154 SETPGID "setpgid" "dd" Some(process::setpgid);
    155 GETPGID "getpgid" "d" Some(process::getpgid);
    156 GETSID "getsid" "d" Some(misc::getsid);
    157 SETSID "setsid" "" Some(misc::setsid);
    160 UNAME "uname" "x" Some(misc::uname);
    163 GETRLIMIT "getrlimit" "dx" Some(misc::getrlimit);
    164 SETRLIMIT "setrlimit" "dx" Some(misc::setrlimit);
    165 GETRUSAGE "getrusage" "dx" Some(misc::getrusage);
    166 UMASK "umask" "o" Some(fs::umask);
    167 PRCTL "prctl" "dxxxx" Some(misc::prctl);
    169 GETTIMEOFDAY "gettimeofday" "xx" Some(misc::gettimeofday);
    172 GETPID "getpid" "" Some(process::getpid);
    173 GETPPID "getppid" "" Some(process::getppid);
    174 GETUID "getuid" "" Some(misc::id_zero);
    175 GETEUID "geteuid" "" Some(misc::id_zero);
    176 GETGID "getgid" "" Some(misc::id_zero);
    177 GETEGID "getegid" "" Some(misc::id_zero);
    178 GETTID "gettid" "" Some(process::gettid);
    179 SYSINFO "sysinfo" "x" Some(misc::sysinfo);
    198 SOCKET "socket" "ddd" Some(net::socket);
    199 SOCKETPAIR "socketpair" "ddxx" Some(net::socketpair);
    200 BIND "bind" "dxd" Some(net::bind);
    201 LISTEN "listen" "dd" Some(net::listen);
    202 ACCEPT "accept" "dxx" Some(net::accept);
    203 CONNECT "connect" "dxd" Some(net::connect);
    204 GETSOCKNAME "getsockname" "dxx" Some(net::getsockname);
    205 GETPEERNAME "getpeername" "dxx" Some(net::getpeername);
    206 SENDTO "sendto" "dxdxxd" Some(net::sendto);
    207 RECVFROM "recvfrom" "dxdxxx" Some(net::recvfrom);
    208 SETSOCKOPT "setsockopt" "dddxd" Some(net::setsockopt);
    209 GETSOCKOPT "getsockopt" "dddxx" Some(net::getsockopt);
    210 SHUTDOWN "shutdown" "dd" Some(net::shutdown);
    211 SENDMSG "sendmsg" "dxx" Some(net::sendmsg);
    212 RECVMSG "recvmsg" "dxx" Some(net::recvmsg);
    214 BRK "brk" "x" Some(memory::brk);
    215 MUNMAP "munmap" "xd" Some(memory::munmap);
    216 MREMAP "mremap" "xddx" Some(memory::mremap);
    220 CLONE "clone" "xxxxx" Some(process::clone);
    221 EXECVE "execve" "sxx" Some(process::execve);
    222 MMAP "mmap" "xdxxdx" Some(memory::mmap);
    226 MPROTECT "mprotect" "xdx" Some(memory::mprotect);
    233 MADVISE "madvise" "xdd" Some(misc::nothing);
    242 ACCEPT4 "accept4" "dxxx" Some(net::accept4);
    260 WAIT4 "wait4" "dxxx" Some(process::wait4);
    261 PRLIMIT64 "prlimit64" "ddxx" Some(misc::prlimit64);
    276 RENAMEAT2 "renameat2" "dsdsx" Some(fs::rename_or_link);
    278 GETRANDOM "getrandom" "xdx" Some(misc::getrandom);
    291 STATX "statx" "dsxxx" Some(fs::statx);
    293 RSEQ "rseq" "xdxx" Some(misc::rseq);
    441 EPOLL_PWAIT2 "epoll_pwait2" "dxdxxd" Some(event::epoll_pwait2);
}

/// Syscalls the shader answers itself on its fast path (the WGSL gets their numbers from here):
/// exit and exit_group always, brk always, write to a console fd when the host allows it.
pub const SHADER_HANDLED: [(&str, u64); 4] = [
    ("SYS_EXIT", nr::EXIT),
    ("SYS_EXIT_GROUP", nr::EXIT_GROUP),
    ("SYS_BRK", nr::BRK),
    ("SYS_WRITE", nr::WRITE),
];

/// The table row for `n`.
pub fn lookup(n: u64) -> Option<&'static Syscall> {
    TABLE
        .binary_search_by_key(&n, |s| s.nr)
        .ok()
        .map(|i| &TABLE[i])
}

/// The syscall's name, or `syscall_N` for one garm does not know.
pub fn name(n: u64) -> String {
    lookup(n).map_or_else(|| format!("syscall_{n}"), |s| s.name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_well_formed() {
        for w in TABLE.windows(2) {
            assert!(w[0].nr < w[1].nr, "{} before {}", w[0].name, w[1].name);
        }
        for s in TABLE {
            assert!(s.args.len() <= 6, "{}", s.name);
            assert!(s.args.chars().all(|c| "dxos".contains(c)), "{}", s.name);
            assert_eq!(lookup(s.nr).unwrap().name, s.name);
        }
        assert_eq!(name(63), "read");
        assert_eq!(name(9999), "syscall_9999");
    }

    #[test]
    fn every_syscall_the_shader_leaves_to_the_host_has_a_handler() {
        for s in TABLE {
            let shader = SHADER_HANDLED.iter().any(|(_, n)| *n == s.nr);
            assert!(s.handler.is_some() || shader, "{} has no handler", s.name);
        }
    }
}
