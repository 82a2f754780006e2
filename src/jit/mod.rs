//! The native JIT oracle: a guest C program compiled for the host (x86_64, with garm's runtime
//! built for the host), loaded in memory by [`loader`] (or, with the `dlopen` feature, linked as a
//! shared object and `dlopen`ed) and run in a forked child with a time limit, its syscalls
//! answered through a function-pointer table with garm's semantics.
//! Tests and `garm diff` compare the GPU against it (and qemu-aarch64).

#[cfg(feature = "dlopen")]
pub mod dlopen;
pub mod loader;

use crate::toolchain::{host_cflags, io_at, Toolchain, ToolchainError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The runtime's host entry point (guest/rt/crt.c): `int (const table *, long *sp)`.
pub const ENTRY: &str = "__garm_host_entry";

/// How to run a program in the JIT.
#[derive(Clone)]
pub struct JitOptions {
    /// Wall-clock limit; past it the child is killed and the status is 124 (as `garm run
    /// --max-insns` and `timeout` report).
    pub timeout: Duration,
    pub env: Vec<String>,
    /// The guest's standard input, all of it.
    pub stdin: Vec<u8>,
    /// Bytes of brk heap.
    pub heap: u64,
    /// Link a shared object and `dlopen` it instead of loading the objects in memory (needs the
    /// `dlopen` cargo feature). Default: set when the environment has `GARM_JIT=dlopen`.
    pub dlopen: bool,
}

impl Default for JitOptions {
    fn default() -> Self {
        JitOptions {
            timeout: Duration::from_secs(10),
            env: crate::run::default_env(),
            stdin: Vec::new(),
            // garm's default: 8 MiB of memory less the 1 MiB stack reserve and the image.
            heap: 6 << 20,
            dlopen: std::env::var_os("GARM_JIT").is_some_and(|v| v == "dlopen"),
        }
    }
}

/// What a JIT run produced.
#[derive(Debug)]
pub struct JitReport {
    /// Exit status as a shell shows it (128 + signal for a crash, 124 for the time limit).
    pub status: i32,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Time to load the program: relocation in memory, or linking and `dlopen`.
    pub load_time: Duration,
    pub run_time: Duration,
    /// Whether the program ran through the `dlopen` fallback.
    pub dlopen: bool,
}

/// The host build of a program: garm's runtime objects and the program's object.
pub struct HostBuild {
    pub objects: Vec<Vec<u8>>,
    pub compile_time: Duration,
}

/// Why the native oracle could not run a program.
#[derive(Debug, thiserror::Error)]
pub enum JitError {
    #[error(transparent)]
    Toolchain(#[from] ToolchainError),
    /// The in-memory loader refused the objects (it names the object, section or symbol).
    #[error("JIT loader: {0}")]
    Link(String),
    /// The dlopen fallback failed (link, dlopen or the entry symbol; dlerror's words).
    #[error("JIT dlopen: {0}")]
    Dlopen(String),
    #[error("the dlopen JIT path needs garm built with `--features dlopen`")]
    NoDlopen,
    #[error("NUL byte in argument or environment string {0:?}")]
    Nul(String),
    #[error("cannot map the JIT heap")]
    Heap,
    #[error("{what}: {source}")]
    Os {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("the JIT thread panicked")]
    Panicked,
}

/// Compiles `src` for the host through the cache (the runtime once, into the cache too).
pub fn compile(tc: &Toolchain, src: &Path, extra: &[String]) -> Result<HostBuild, JitError> {
    let t0 = Instant::now();
    let rt = tc.host_runtime()?;
    let objdir = rt.join("obj");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&objdir)
        .map_err(io_at(&objdir))?
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    let mut objects = Vec::new();
    for p in paths {
        objects.push(std::fs::read(&p).map_err(io_at(&p))?);
    }
    objects.push(tc.compile(src, &host_cflags(), &rt, extra)?);
    Ok(HostBuild {
        objects,
        compile_time: t0.elapsed(),
    })
}

// Garm's own syscall numbers: the guest keeps the aarch64 ABI on the host too. These errno
// values are the same on x86_64 and aarch64 Linux, so the host's serve.
use crate::os::nr;
const EBADF: i64 = libc::EBADF as i64;
const EFAULT: i64 = libc::EFAULT as i64;
const ENOTTY: i64 = libc::ENOTTY as i64;
const ESPIPE: i64 = libc::ESPIPE as i64;
const ENOSYS: i64 = libc::ENOSYS as i64;

// State of the one guest a child process runs. Set in the child after fork (its own copy),
// so concurrent runs in the parent never share it; atomics only to avoid `static mut`.
static STDIN_PTR: AtomicU64 = AtomicU64::new(0);
static STDIN_LEN: AtomicU64 = AtomicU64::new(0);
static STDIN_POS: AtomicU64 = AtomicU64::new(0);
static BRK_MIN: AtomicU64 = AtomicU64::new(0);
static BRK_MAX: AtomicU64 = AtomicU64::new(0);
static BRK_CUR: AtomicU64 = AtomicU64::new(0);

#[repr(C)]
struct HostTable {
    syscall6: extern "C" fn(i64, i64, i64, i64, i64, i64, i64) -> i64,
}

static TABLE: HostTable = HostTable {
    syscall6: host_syscall6,
};

/// Writes all of `len` bytes at `p` to `fd` (the child's pipes).
fn write_all(fd: i32, mut p: *const u8, mut len: usize) -> bool {
    while len > 0 {
        // SAFETY: the guest passed this buffer; a bad pointer gives EFAULT, not a fault.
        let r = unsafe { libc::write(fd, p as *const libc::c_void, len) };
        if r < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return false;
        }
        // SAFETY: r <= len.
        p = unsafe { p.add(r as usize) };
        len -= r as usize;
    }
    true
}

/// The guest's syscalls, as garm answers them (src/os and the shader's brk/write/exit): same
/// numbers, same results. Runs in the child only; allocates nothing (the parent may have had
/// other threads at fork).
extern "C" fn host_syscall6(n: i64, a: i64, b: i64, c: i64, _d: i64, _e: i64, _f: i64) -> i64 {
    match n as u64 {
        nr::READ => {
            if a != 0 {
                return -EBADF;
            }
            let len = (c as u64).min(1 << 20);
            let pos = STDIN_POS.load(Relaxed);
            let avail = STDIN_LEN.load(Relaxed) - pos;
            let k = len.min(avail);
            // SAFETY: source is the stdin copy made before fork; destination is the guest's buffer.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (STDIN_PTR.load(Relaxed) + pos) as *const u8,
                    b as *mut u8,
                    k as usize,
                );
            }
            STDIN_POS.store(pos + k, Relaxed);
            k as i64
        }
        nr::WRITE => {
            if a != 1 && a != 2 {
                return -EBADF;
            }
            let len = (c as u64).min(1 << 24) as usize;
            if write_all(a as i32, b as *const u8, len) {
                len as i64
            } else {
                -EFAULT
            }
        }
        nr::BRK => {
            let want = a as u64;
            if want >= BRK_MIN.load(Relaxed) && want <= BRK_MAX.load(Relaxed) {
                BRK_CUR.store(want, Relaxed);
            }
            BRK_CUR.load(Relaxed) as i64
        }
        nr::EXIT | nr::EXIT_GROUP => {
            // Only reached by a raw exit syscall; exit() longjmps back to the entry instead.
            // SAFETY: ends the child process.
            unsafe { libc::_exit(a as i32 & 0xff) }
        }
        nr::IOCTL => -ENOTTY,
        nr::LSEEK => -ESPIPE,
        nr::CLOSE => {
            if (0..=2).contains(&a) {
                0
            } else {
                -EBADF
            }
        }
        nr::GETPID | nr::GETTID | nr::SET_TID_ADDRESS => 1000,
        nr::GETPPID => 1,
        nr::GETUID | nr::GETEUID | nr::GETGID | nr::GETEGID => 0,
        nr::CLOCK_GETTIME => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            // SAFETY: the guest's timespec (two 64-bit words on both architectures).
            unsafe {
                let p = b as *mut u64;
                p.write_unaligned(now.as_secs());
                p.add(1).write_unaligned(now.subsec_nanos() as u64);
            }
            0
        }
        _ => -ENOSYS,
    }
}

/// Serialises pipe creation and fork, so no other JIT child inherits this run's pipes.
static FORK_LOCK: Mutex<()> = Mutex::new(());

/// Loads `objects` and runs the program in a child process; `argv[0]` is the program name. The
/// in-memory loader is used unless `opts.dlopen` asks for the `dlopen` fallback, or the loader
/// cannot work on this host and the fallback is compiled in.
pub fn run_objects(
    objects: &[Vec<u8>],
    argv: &[String],
    opts: &JitOptions,
) -> Result<JitReport, JitError> {
    let t0 = Instant::now();
    let use_dlopen = opts.dlopen || (!loader::SUPPORTED && cfg!(feature = "dlopen"));
    if use_dlopen {
        #[cfg(feature = "dlopen")]
        {
            // The library stays open (and mapped) until the child has finished.
            let lib = dlopen::load(objects, ENTRY)?;
            return run_entry(lib.entry, t0.elapsed(), true, argv, opts);
        }
        #[cfg(not(feature = "dlopen"))]
        return Err(JitError::NoDlopen);
    }
    let refs: Vec<&[u8]> = objects.iter().map(|o| o.as_slice()).collect();
    let image = loader::load(&refs, ENTRY).map_err(JitError::Link)?;
    let r = run_entry(image.entry, t0.elapsed(), false, argv, opts);
    drop(image);
    r
}

/// Calls the loaded `entry` (`__garm_host_entry`, still mapped until this returns) in a forked
/// child with the program's stack block, heap arena, stdin and time limit: shared by both loaders.
fn run_entry(
    entry: u64,
    load_time: Duration,
    dlopen: bool,
    argv: &[String],
    opts: &JitOptions,
) -> Result<JitReport, JitError> {
    // The initial stack block, laid out as Linux gives it to _start: argc, argv, envp, auxv.
    let cstr = |s: &String| -> Result<std::ffi::CString, JitError> {
        std::ffi::CString::new(s.as_bytes()).map_err(|_| JitError::Nul(s.clone()))
    };
    let args: Vec<std::ffi::CString> = argv.iter().map(cstr).collect::<Result<_, _>>()?;
    let envs: Vec<std::ffi::CString> = opts.env.iter().map(cstr).collect::<Result<_, _>>()?;
    let mut block: Vec<u64> = vec![args.len() as u64];
    block.extend(args.iter().map(|a| a.as_ptr() as u64));
    block.push(0);
    block.extend(envs.iter().map(|e| e.as_ptr() as u64));
    block.extend([0, 0, 0]); // envp terminator, AT_NULL
    let heap = opts.heap.max(4096);
    // SAFETY: a fresh private mapping for the brk arena, unmapped below.
    let arena = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            heap as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if arena == libc::MAP_FAILED {
        return Err(JitError::Heap);
    }
    let sp = block.as_mut_ptr() as u64;
    let stdin = (opts.stdin.as_ptr() as u64, opts.stdin.len() as u64);
    let timeout = opts.timeout;
    let arena_addr = arena as u64;
    // The child runs the guest on this thread's stack, so give it room for deep recursion.
    let result = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || fork_and_wait(entry, sp, stdin, (arena_addr, heap), timeout))
        .map_err(|source| JitError::Os {
            what: "cannot start the JIT thread",
            source,
        })?
        .join()
        .map_err(|_| JitError::Panicked);
    // SAFETY: our mapping; the child had its own copy.
    unsafe {
        libc::munmap(arena, heap as usize);
    }
    let (status, timed_out, stdout, stderr, run_time) = result??;
    Ok(JitReport {
        status,
        timed_out,
        stdout,
        stderr,
        load_time,
        run_time,
        dlopen,
    })
}

type ChildResult = (i32, bool, Vec<u8>, Vec<u8>, Duration);

fn pipe() -> Result<[i32; 2], JitError> {
    let mut fds = [0i32; 2];
    // SAFETY: fds has room for two descriptors. CLOEXEC keeps them out of processes that exec.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(JitError::Os {
            what: "pipe",
            source: std::io::Error::last_os_error(),
        });
    }
    Ok(fds)
}

fn fork_and_wait(
    entry: u64,
    sp: u64,
    stdin: (u64, u64),
    arena: (u64, u64),
    timeout: Duration,
) -> Result<ChildResult, JitError> {
    let t0 = Instant::now();
    let lock = FORK_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let out = pipe()?;
    let err = pipe()?;
    // SAFETY: the child below calls only async-signal-safe functions and guest code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(JitError::Os {
            what: "fork",
            source: std::io::Error::last_os_error(),
        });
    }
    if pid == 0 {
        // Child: no allocation, no locks from here on.
        STDIN_PTR.store(stdin.0, Relaxed);
        STDIN_LEN.store(stdin.1, Relaxed);
        STDIN_POS.store(0, Relaxed);
        BRK_MIN.store(arena.0, Relaxed);
        BRK_MAX.store(arena.0 + arena.1, Relaxed);
        BRK_CUR.store(arena.0, Relaxed);
        // SAFETY: plain descriptor and signal calls in the child.
        unsafe {
            libc::dup2(out[1], 1);
            libc::dup2(err[1], 2);
            // Nothing else of the parent's stays open in the guest's process.
            libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32);
            libc::alarm(timeout.as_secs() as u32 + 1);
            let f: extern "C" fn(*const HostTable, *mut u64) -> i32 = std::mem::transmute(entry);
            let status = f(&TABLE, sp as *mut u64);
            libc::_exit(status & 0xff);
        }
    }
    // SAFETY: closing our copies of the write ends, so EOF comes when the child ends.
    unsafe {
        libc::close(out[1]);
        libc::close(err[1]);
    }
    drop(lock);
    let mut bufs = [Vec::new(), Vec::new()];
    let mut open = [true, true];
    let fds = [out[0], err[0]];
    let deadline = t0 + timeout;
    let mut timed_out = false;
    while open[0] || open[1] {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() && !timed_out {
            timed_out = true;
            // SAFETY: our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        let mut pfd: Vec<libc::pollfd> = (0..2)
            .filter(|&i| open[i])
            .map(|i| libc::pollfd {
                fd: fds[i],
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        let ms = if timed_out {
            1000
        } else {
            left.as_millis().min(1000) as i32 + 1
        };
        // SAFETY: pfd is a valid array of pollfd.
        let r = unsafe { libc::poll(pfd.as_mut_ptr(), pfd.len() as libc::nfds_t, ms) };
        if r < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            break;
        }
        for p in &pfd {
            if p.revents == 0 {
                continue;
            }
            let i = if p.fd == fds[0] { 0 } else { 1 };
            let mut chunk = [0u8; 65536];
            // SAFETY: reading into a local buffer.
            let n =
                unsafe { libc::read(p.fd, chunk.as_mut_ptr() as *mut libc::c_void, chunk.len()) };
            if n <= 0 {
                open[i] = false;
            } else {
                bufs[i].extend_from_slice(&chunk[..n as usize]);
            }
        }
    }
    let mut ws = 0i32;
    // SAFETY: reaping our own child; closing our read ends.
    unsafe {
        libc::waitpid(pid, &mut ws, 0);
        libc::close(out[0]);
        libc::close(err[0]);
    }
    let run_time = t0.elapsed();
    let status = if libc::WIFEXITED(ws) {
        libc::WEXITSTATUS(ws)
    } else if libc::WIFSIGNALED(ws) {
        let sig = libc::WTERMSIG(ws);
        if sig == libc::SIGALRM || (timed_out && sig == libc::SIGKILL) {
            timed_out = true;
            crate::run::LIMIT_EXIT
        } else {
            128 + sig
        }
    } else {
        -1
    };
    let [stdout, stderr] = bufs;
    Ok((status, timed_out, stdout, stderr, run_time))
}
