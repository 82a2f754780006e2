//! Running a program: load the ELF into every instance, then submit, drain output and answer
//! host work until every instance has exited or faulted.

use crate::gpu::device::Gpu;
use crate::gpu::layout::{self, Stop};
use crate::gpu::machine::{Machine, MachineConfig, MachineStats};
use crate::gpu::shader::Prelude;
use crate::gpu::GpuError;
use crate::guest::{Fault, Guest, MemError, Perm};
use crate::isa;
use crate::loader;
use crate::loader::process::load_process;
use crate::loader::process::LoadError;
use crate::loader::ElfError;
use crate::os::abi::sig::{SIGBUS, SIGILL, SIGKILL, SIGSEGV, SIGTRAP};
use crate::os::kernel::{signal, Kernel, Outcome as SysOutcome, PState, Pid};
use crate::os::vfs::MountError;
use crate::os::{Output, OutputMode};
use std::rc::Rc;
use std::time::Duration;
use web_time::Instant;

/// The default cap on each process's memory (see [`choose_mem`]).
pub const DEFAULT_MEM: u64 = 8 << 20;
/// Exit status garm gives a guest stopped by `--max-insns` (as timeout(1) does).
pub const LIMIT_EXIT: i32 = 124;

/// The guest environment when none is given: small and fixed, so runs are reproducible.
pub const DEFAULT_ENV: &[&str] = &["HOME=/", "LANG=C", "PATH=/usr/local/bin:/usr/bin:/bin"];

/// [`DEFAULT_ENV`] as the strings a process is given.
pub fn default_env() -> Vec<String> {
    DEFAULT_ENV.iter().map(|s| s.to_string()).collect()
}

/// Everything `garm run`'s options set (the library API's [`crate::api::Config`] wraps it).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `--instances`: copies of the program, each its own process tree.
    pub instances: u32,
    /// Process slots in all (each `--instances` copy takes one; forks take the rest).
    pub max_procs: Option<u32>,
    /// `--mem`: the cap on each process's memory in bytes (default 8 MiB).
    pub mem: Option<u64>,
    /// `--pool`: bytes of guest memory frames shared by every process.
    pub pool: Option<u64>,
    /// `--max-insns`: the instruction budget of each instance's process tree.
    pub max_insns: Option<u64>,
    /// `--adapter`: a name (or backend) the adapter's contains, or `#N`.
    pub adapter: Option<String>,
    /// `--prelude`: the shader's 64-bit representation (default: u64 where the adapter has it).
    pub prelude: Option<Prelude>,
    /// `--strace`: host-handled syscalls logged on stderr.
    pub strace: bool,
    /// `--net`: AF_INET/AF_INET6 sockets are host sockets.
    pub net: bool,
    /// The guest environment, `NAME=VALUE` in order (default [`DEFAULT_ENV`]).
    pub env: Vec<String>,
    /// `--mount HOSTDIR:GUESTDIR[:ro]`.
    pub mounts: Vec<String>,
    /// The guests' standard input in full; `None` reads the host's.
    pub stdin: Option<Vec<u8>>,
    /// Build the shader with naga's runtime checks (`--checked`; see MachineConfig::checked).
    pub checked: bool,
    /// Wall-clock limit for the whole run (`--timeout`): unfinished instances end as at the
    /// instruction limit, and everything written so far has been printed.
    pub timeout: Option<Duration>,
    /// `--fs-limit`: bytes of guest file data garm keeps in memory at most.
    pub fs_limit: Option<u64>,
    /// `--shared`: instances share one machine (pids, signals, `/tmp`, the pool of process
    /// slots) instead of each being its own.
    pub shared: bool,
    /// `--trace FILE`: an instruction trace of the first instance, `trace_limit` lines at most.
    pub trace: Option<std::path::PathBuf>,
    /// `--trace-limit`: lines of the trace at most.
    pub trace_limit: u64,
    /// `--tier`: the interpreter only, or hot regions translated too.
    pub tier: crate::tier::Mode,
    /// Address ranges translated before the first dispatch, whatever they hold and whatever
    /// the profile says (the fuzzer's blocks); the profile then chooses nothing.
    pub tier_ranges: Vec<(u64, u64)>,
    /// The sysroot a dynamically linked program's loader and libraries come from (qemu-user's
    /// `-L`); `None`: env GARM_LD_PREFIX, else /usr/aarch64-linux-gnu where installed.
    pub ld_prefix: Option<std::path::PathBuf>,
    /// `-g PORT`: wait for gdb on 127.0.0.1:PORT (0: any free port) before the first
    /// instruction and let it drive the first instance's process; the interpreter only.
    pub gdb: Option<u16>,
    /// `--stats`: the GPU time split between the interpreter and translated code, from
    /// timestamps around each dispatch (each its own pass; off, they share one).
    pub time_tiers: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            instances: 1,
            max_procs: None,
            mem: None,
            pool: None,
            mounts: Vec::new(),
            stdin: None,
            max_insns: None,
            adapter: None,
            prelude: None,
            strace: false,
            net: false,
            checked: std::env::var_os("GARM_CHECKED").is_some_and(|v| !v.is_empty()),
            timeout: None,
            fs_limit: None,
            shared: false,
            trace: None,
            trace_limit: 100_000,
            tier_ranges: Vec::new(),
            ld_prefix: None,
            gdb: None,
            time_tiers: false,
            tier: std::env::var("GARM_TIER")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or_default(),
            env: default_env(),
        }
    }
}

/// Code window bytes beyond `--mem` for a dynamically linked program: its loader and libraries.
const DYNAMIC_WINDOW: u64 = 64 << 20;

/// The sysroot for dynamically linked programs: `-L`, GARM_LD_PREFIX, or the installed cross
/// sysroot.
fn sysroot(opts: &RunOptions) -> Option<std::path::PathBuf> {
    opts.ld_prefix
        .clone()
        .or_else(|| {
            std::env::var_os("GARM_LD_PREFIX")
                .filter(|v| !v.is_empty())
                .map(Into::into)
        })
        .or_else(|| {
            let d = std::path::PathBuf::from("/usr/aarch64-linux-gnu");
            d.join("lib").is_dir().then_some(d)
        })
}

/// `ranges` of the first instance's code as regions (split at page boundaries: a region lies
/// in one page), their pages decoded.
fn regions_at(
    m: &mut Machine,
    ranges: &[(u64, u64)],
) -> Result<Vec<crate::tier::Region>, RunError> {
    let mut regions = Vec::new();
    for &(start, end) in ranges {
        let mut a = start;
        while a < end {
            let page = a & !0xfff;
            let b = end.min(page + 0x1000);
            if m.code_slot(0, page) == layout::NO_CODE {
                m.decode_page_at(0, page)?;
            }
            regions.push(crate::tier::Region {
                start: a,
                end: b,
                samples: 1,
                slot: m.code_slot(0, page),
            });
            a = b;
        }
    }
    Ok(regions)
}

/// GARM_TIER_RANGES=START-END,... (hex): regions forced as the fuzzer forces them, for
/// measuring a choice of regions by hand.
fn env_tier_ranges() -> Vec<(u64, u64)> {
    std::env::var("GARM_TIER_RANGES")
        .unwrap_or_default()
        .split(',')
        .filter_map(|r| {
            let (a, b) = r.split_once('-')?;
            let hex = |x: &str| u64::from_str_radix(x.trim().trim_start_matches("0x"), 16).ok();
            Some((hex(a)?, hex(b)?))
        })
        .collect()
}

/// Translates the plan saved under the first of `keys` that has one, synchronously where its
/// pipeline was compiled; returns the plan and whether it was the first key's (this run's own).
fn install_saved_plan(
    m: &mut Machine,
    keys: &[String],
) -> Result<(crate::tier::saved::Plan, bool), RunError> {
    // This instance count's plan, else the one any count of this program saved last (then
    // not this count's own: the run's end saves it under this count's key).
    let plans: Vec<crate::tier::saved::Plan> =
        keys.iter().map(|k| crate::tier::saved::load(k)).collect();
    let (mut own, mut saved) = plans
        .iter()
        .enumerate()
        // (This count's plan with no set but its drops is its own: another count's set, run
        // after run, would be installed and dropped again here.)
        .find(|(i, p)| !p.ranges.is_empty() || (*i == 0 && !p.dropped.is_empty()))
        .map_or((false, Default::default()), |(i, p)| (i == 0, p.clone()));
    // This count's set still compiling when its runs ended, where another count compiled the
    // same set: that pipeline (with its page cache) is Mesa's already. (sha256's set compiles
    // for longer than a 1-instance run lasts: it never landed at 1 instance.)
    if let Some(other) = plans.iter().skip(1).find(|p| {
        own && !saved.compiled && p.compiled && p.ranges == saved.ranges && p.sites == saved.sites
    }) {
        saved = crate::tier::saved::Plan {
            compiled: true,
            fallback: Vec::new(),
            page_cache: other.page_cache,
            ..saved
        };
        own = false;
    }
    // A range the program does not map (any more) is left out: the plan is only a hint.
    let mapped = |m: &mut Machine, ranges: &[(u64, u64)]| -> Vec<crate::tier::Region> {
        ranges
            .iter()
            .filter_map(|&r| regions_at(m, &[r]).ok())
            .flatten()
            .collect()
    };
    for r in mapped(m, &saved.dropped) {
        m.tier.earlier_drops.push((r.start, r.end, r.slot));
    }
    if crate::tier::debug() {
        let r: Vec<String> = saved
            .ranges
            .iter()
            .map(|(a, b)| format!("{a:#x}..{b:#x}"))
            .collect();
        eprintln!(
            "garm: tier: saved plan {} ({}{}, {} dropped, {})",
            r.join(" "),
            if saved.compiled {
                "compiled"
            } else {
                "compiling"
            },
            if saved.page_cache {
                " with the page cache"
            } else {
                ""
            },
            saved.dropped.len(),
            if own {
                "this count's"
            } else {
                "another count's"
            }
        );
    }
    let regions = mapped(m, &saved.ranges);
    // The page cache this instance count's batches want ([`crate::gpu::shader::Tier`]). A set
    // compiled with the other (another count's, or one this count took from another's) runs
    // from the first dispatch while the worker compiles it with this count's: the sieve's
    // 64-instance plan, inherited from its 1-instance one, kept it off (1.0-1.05 G/s, 1.3
    // with it).
    let cache = m.wanted_page_cache();
    let recompile = saved.compiled && saved.page_cache != cache;
    // A plan still compiling when its run ended: its fallback runs from the first dispatch
    // while the worker compiles it.
    let fallback = if recompile {
        regions.clone()
    } else if saved.compiled {
        Vec::new()
    } else {
        mapped(m, &saved.fallback)
    };
    // A compiled set with the page cache it was compiled with; a set to compile as the
    // instance count has it.
    // Each set with the loads it was compiled to take at any alignment: the same shader text.
    if !fallback.is_empty() {
        let sync = std::mem::replace(&mut m.tier.sync, true);
        m.tier.page_cache = Some(saved.page_cache);
        m.tier.sites = if recompile {
            saved.sites.clone()
        } else {
            saved.fallback_sites.clone()
        };
        m.translate_regions(&fallback)?;
        m.tier.sync = sync;
    }
    m.tier.sites = saved.sites.clone();
    if !regions.is_empty() {
        let compiled = saved.compiled && !recompile;
        let sync = std::mem::replace(&mut m.tier.sync, compiled);
        m.tier.page_cache = Some(if compiled { saved.page_cache } else { cache });
        m.translate_regions(&regions)?;
        m.tier.sync = sync;
        m.stats.tier_saved = regions.len() as u64;
    }
    m.tier.page_cache = None;
    Ok((saved, own))
}

/// Translates `ranges` of the first instance's code now, whatever they hold, compiling before
/// the first dispatch.
fn force_regions(m: &mut Machine, ranges: &[(u64, u64)]) -> Result<(), RunError> {
    let regions = regions_at(m, ranges)?;
    m.tier.sync = true;
    m.tier.force = true;
    m.translate_regions(&regions)?;
    Ok(())
}

/// How one instance ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its first process exited with this status.
    Exited(u8),
    /// Killed by a fault: the signal number and the one-line report.
    Signaled(i32, String),
    /// Stopped by `--max-insns`.
    Limit(String),
}

impl Outcome {
    /// The status a shell would show.
    pub fn exit_status(&self) -> i32 {
        match self {
            Outcome::Exited(c) => *c as i32,
            Outcome::Signaled(sig, _) => 128 + sig,
            Outcome::Limit(_) => LIMIT_EXIT,
        }
    }
}

/// What a run did: per instance, and the machine's figures (`--stats`).
pub struct RunReport {
    /// How each instance ended.
    pub outcomes: Vec<Outcome>,
    /// Instructions each instance's process tree retired.
    pub instructions: Vec<u64>,
    /// The output kept per instance (nothing when it was streamed).
    pub output: Output,
    /// The machine's counters and times.
    pub stats: MachineStats,
    /// Syscalls the host answered (round trips between dispatches).
    pub host_syscalls: u64,
    /// Wall-clock time from the first submit to the end.
    pub exec_time: Duration,
    /// The adapter's name and backend.
    pub adapter: String,
    /// The shader's 64-bit representation.
    pub prelude: Prelude,
    /// The cap on each process's memory.
    pub mem: u64,
    /// Processes forked.
    pub forks: u64,
    /// Threads made by clone.
    pub threads: u64,
    /// Time spent copying address spaces for forks.
    pub fork_time: Duration,
    /// Guest file data in garm's memory at the end.
    pub fs_used: u64,
    /// The limit on guest file data (`--fs-limit`).
    pub fs_limit: u64,
}

/// Why a run could not start or go on: garm's own failures (a guest's faults are [`Outcome`]s).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The adapter or device failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Guest memory could not be set up or read.
    #[error(transparent)]
    Mem(#[from] MemError),
    /// The program is not one garm can run (malformed, foreign, dynamically linked, too big).
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// The program's process could not be set up (arguments, stack, memory).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A `--mount` could not be made.
    #[error(transparent)]
    Mount(#[from] MountError),
    /// A size option garm cannot read.
    #[error("bad size '{0}' (use e.g. 8M, 512K)")]
    BadSize(String),
    /// `--mem` below 256 KiB.
    #[error("guest memory {0} bytes is too small (at least 256K)")]
    MemTooSmall(u64),
    /// `--mem` above 3 GiB.
    #[error("guest memory above 3G is not supported")]
    MemTooLarge,
    /// A `--mount` that is not `HOSTDIR:GUESTDIR[:ro]`.
    #[error("--mount expects HOSTDIR:GUESTDIR[:ro], got '{0}'")]
    MountSyntax(String),
    /// `-g PORT`: the stub could not listen or talk to gdb.
    #[error("gdb stub on 127.0.0.1:{port}: {source}")]
    Gdb {
        /// The port asked for.
        port: u16,
        /// What failed.
        source: std::io::Error,
    },
    /// `--trace FILE` could not be written.
    #[error("--trace {}: {source}", path.display())]
    Trace {
        /// The trace file.
        path: std::path::PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// Parses sizes such as `8M`, `512K`, `1G` or plain bytes.
pub fn parse_size(s: &str) -> Result<u64, RunError> {
    let t = s.trim();
    let (num, mul) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(RunError::BadSize(s.to_string())),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .ok_or_else(|| RunError::BadSize(s.to_string()))
}

/// The cap on each process's memory: the request, else 8 MiB.
pub fn choose_mem(requested: Option<u64>) -> Result<u64, RunError> {
    let m = requested.unwrap_or(DEFAULT_MEM);
    if m < 256 << 10 {
        return Err(RunError::MemTooSmall(m));
    }
    if m > 3 << 30 {
        return Err(RunError::MemTooLarge);
    }
    Ok(m & !0xfff)
}

/// The frame pool in bytes: `--pool`, or room for every slot's cap within what the adapter binds
/// in one buffer (`one`; frames are taken on first touch, so most processes use far less than
/// their cap). A larger `--pool` spans several bindings, and every access pays for each on
/// lavapipe.
pub fn choose_pool(requested: Option<u64>, slots: u32, mem: u64, one: u64) -> u64 {
    // A request past any adapter is kept (and refused by the machine with a clear message), but
    // within frame numbers' range.
    let p = requested.map_or((slots as u64 * mem).min(one), |r| r.min(1 << 44));
    p.max(1 << 20) & !0xfff
}

/// Process slots when `--max-procs` is not given: room for some forks beside the instances.
pub const DEFAULT_PROCS: u32 = 16;

#[cfg(not(target_arch = "wasm32"))]
/// Runs `elf` with `argv` on the GPU. `stream` sends a single instance's output straight to the
/// host's stdout/stderr; otherwise output is kept per instance in the report.
pub fn run(
    elf: &[u8],
    argv: &[String],
    opts: &RunOptions,
    stream: bool,
) -> Result<RunReport, RunError> {
    run_shared(Rc::new(elf.to_vec()), argv, opts, stream)
}

/// One instance's command line, environment and standard input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstanceSpec {
    /// `argv`, the program's name first.
    pub argv: Vec<String>,
    /// `NAME=VALUE` strings, in order.
    pub env: Vec<String>,
    /// This instance's standard input in full; `None`: the run's (`RunOptions::stdin`, else the
    /// host's), or nothing when another instance has input of its own.
    pub stdin: Option<Vec<u8>>,
}

/// The instances of a run of `argv` with `opts`: each gets `opts.env`, and with several,
/// GARM_INSTANCE and GARM_INSTANCES.
pub fn instance_specs(argv: &[String], opts: &RunOptions) -> Vec<InstanceSpec> {
    let n = opts.instances.max(1);
    (0..n)
        .map(|i| {
            let mut env = opts.env.clone();
            if n > 1 {
                env.push(format!("GARM_INSTANCE={i}"));
                env.push(format!("GARM_INSTANCES={n}"));
            }
            InstanceSpec {
                argv: argv.to_vec(),
                env,
                stdin: None,
            }
        })
        .collect()
}

#[cfg(not(target_arch = "wasm32"))]
/// [`run`] on program bytes the caller hands over: garm keeps this one copy (it is also the
/// guest's `/proc/self/exe`), so a large program is not held twice.
pub fn run_shared(
    elf: Rc<Vec<u8>>,
    argv: &[String],
    opts: &RunOptions,
    stream: bool,
) -> Result<RunReport, RunError> {
    let mut s = Session::start(elf, &instance_specs(argv, opts), opts, stream)?;
    while !s.step()? {}
    Ok(s.finish())
}

/// A run under way: the machine, the guest OS and the output, advanced one submit at a time by
/// [`Session::step`] (the command line loops to the end; an embedder may stop between steps
/// and look at registers and memory).
pub struct Session {
    /// The GPU machine: state words, memory, code.
    pub m: Machine,
    /// The guest OS: processes, files, signals.
    pub k: Kernel,
    pub(crate) out: Output,
    outcomes: Vec<Option<Outcome>>,
    opts: RunOptions,
    slots: u32,
    mode: OutputMode,
    t0: Instant,
    batch: u32,
    round: usize,
    tracer: Option<crate::trace::Tracer>,
    progress: Option<crate::progress::Progress>,
    tiering: crate::tier::Policy,
    /// The plan's cache keys: this instance count's, then any count's.
    plan_key: Option<[String; 2]>,
    saved: crate::tier::saved::Plan,
    /// `saved` is this instance count's own plan (not one another count left).
    saved_own: bool,
    adapter_name: String,
    prelude: Prelude,
    mem: u64,
    /// `-g PORT`: gdb's remote stub, following the first instance's process.
    debugger: Option<crate::gdb::Stub>,
    finished: bool,
    /// The first inode a guest made (the setup's come before it).
    pub(crate) first_guest_ino: usize,
}

impl Session {
    #[cfg(not(target_arch = "wasm32"))]
    /// Loads the program into one process per spec and prepares the run (nothing runs yet).
    pub fn start(
        elf: Rc<Vec<u8>>,
        specs: &[InstanceSpec],
        opts: &RunOptions,
        stream: bool,
    ) -> Result<Session, RunError> {
        let gpu = Gpu::open(
            Self::adapter_wanted(opts).as_deref(),
            opts.prelude != Some(Prelude::Vec2),
        )?;
        Self::start_on(gpu, elf, specs, opts, stream)
    }

    /// The adapter a run asks for: `--adapter`, else `GARM_ADAPTER`.
    pub fn adapter_wanted(opts: &RunOptions) -> Option<String> {
        opts.adapter
            .clone()
            .or_else(|| std::env::var("GARM_ADAPTER").ok().filter(|s| !s.is_empty()))
    }

    /// [`Session::start`] on a device opened already (a browser opens it asynchronously).
    pub fn start_on(
        gpu: Gpu,
        elf: Rc<Vec<u8>>,
        specs: &[InstanceSpec],
        opts: &RunOptions,
        stream: bool,
    ) -> Result<Session, RunError> {
        let n = specs.len().max(1) as u32;
        let mut opts = opts.clone();
        opts.instances = n;
        if opts.gdb.is_some() {
            // gdb sees every instruction where it is: translated regions would run past
            // breakpoints set in their code.
            opts.tier = crate::tier::Mode::Interp;
            opts.tier_ranges.clear();
        }
        let opts = &opts;
        let slots = opts.max_procs.unwrap_or(DEFAULT_PROCS).max(n);
        let want_prelude = opts.prelude;
        let prelude = want_prelude.unwrap_or(if gpu.int64 {
            Prelude::U64
        } else {
            Prelude::Vec2
        });
        let mem = choose_mem(opts.mem)?;
        let pool = choose_pool(
            opts.pool,
            slots,
            mem,
            crate::gpu::machine::pool_limit(&gpu).1,
        );
        // A dynamically linked program: its loader from the sysroot, and a code window wide enough
        // for the libraries it maps (garm's code map covers one window per process).
        let sysroot = sysroot(opts);
        let window = (mem + DYNAMIC_WINDOW).min(3 << 30);
        let image = Rc::new(loader::load_dynamic(&elf, mem, window, &mut |p| {
            let root = sysroot.as_ref()?;
            crate::loader::read_program(&root.join(p.trim_start_matches('/'))).ok()
        })?);
        let dynamic = image.base != 0;
        let adapter_name = format!("{} ({:?})", gpu.info.name, gpu.info.backend);
        let mut m = Machine::new(
            gpu,
            MachineConfig {
                instances: slots,
                mem_bytes: mem,
                code_bytes: if dynamic { window } else { mem.min(1 << 30) } as u32,
                pool_frames: (pool / 4096) as u32,
                prelude,
                abi: &crate::os::syscalls::SHADER_HANDLED,
                checked: opts.checked,
            },
        )?;
        if opts.time_tiers {
            m.time_tiers();
        }
        let mut k = Kernel::new(slots as usize, n as usize, opts.strace);
        k.net = opts.net;
        if opts.net {
            // Names resolve as on the host (its resolver's address, search domains).
            if let Ok(conf) = std::fs::read("/etc/resolv.conf") {
                k.vfs.set_etc("resolv.conf", conf);
            }
        }
        if specs.iter().any(|s| s.stdin.is_some()) {
            let each = specs
                .iter()
                .map(|s| s.stdin.clone().unwrap_or_default())
                .collect();
            k.stdin = crate::os::Stdin::each(each);
        } else if let Some(data) = &opts.stdin {
            k.stdin = crate::os::Stdin::fixed(n as usize, data.clone());
        }
        if let Some(l) = opts.fs_limit {
            k.vfs.limit = l;
        }
        // The program's digest keys the plan of regions its runs save (before garm's one copy goes
        // to the guest's /proc/self/exe).
        let elf_sha = crate::toolchain::cache::sha(&elf);
        k.vfs.set_exe(elf);
        // The sysroot's directories appear at the guest's root, read-only (the loader finds the
        // libraries in /lib and /usr/lib), under the user's mounts.
        if let (true, Some(root)) = (dynamic, &sysroot) {
            for dir in ["lib", "lib64", "usr", "etc"] {
                let host = root.join(dir);
                if host.is_dir() {
                    k.vfs.mount(&host, &format!("/{dir}"), true)?;
                }
            }
        }
        for spec in &opts.mounts {
            let parts: Vec<&str> = spec.split(':').collect();
            let (host, guest, ro) = match parts.as_slice() {
                [h, g] => (*h, *g, false),
                [h, g, "ro"] => (*h, *g, true),
                _ => return Err(RunError::MountSyntax(spec.clone())),
            };
            k.vfs.mount(std::path::Path::new(host), guest, ro)?;
        }
        if opts.shared {
            k.share();
        } else {
            k.isolate();
        }
        k.host_console = opts.gdb.is_some();
        for (i, spec) in specs.iter().enumerate() {
            let exe_path = spec.argv.first().cloned().unwrap_or_default();
            let mmap_low = load_process(&mut m, i, &image, &spec.argv, &spec.env)?;
            m.set_word64(i, layout::S_LIMIT, opts.max_insns.unwrap_or(u64::MAX));
            let pid = k.spawn_root(i, image.clone(), &exe_path, mmap_low);
            let p = k.proc_mut(pid);
            p.cmdline = crate::os::kernel::nul_joined(&spec.argv);
            p.environ = crate::os::kernel::nul_joined(&spec.env);
            if k.host_console {
                m.st_mut(i)[layout::S_FASTFD] =
                    k.fast_fd_mask(pid, &Output::new(0, OutputMode::Keep));
            }
        }

        let mode = match (stream, n) {
            (false, _) => OutputMode::Keep,
            (true, 1) => OutputMode::Direct,
            (true, _) => OutputMode::Lines,
        };
        let mut tiering = crate::tier::Policy::new(opts.tier);
        m.tier.sync = opts.tier == crate::tier::Mode::Translate;
        m.tier.guests = n as usize;
        // The fuzzer's blocks run once each: recompiles for their misaligned accesses only
        // cost time (its suite went 159 -> 364 s with them).
        m.tier.fixed_sites = !opts.tier_ranges.is_empty();
        let env_ranges = env_tier_ranges();
        let ranges = if opts.tier_ranges.is_empty() {
            &env_ranges
        } else {
            &opts.tier_ranges
        };
        // The plan an earlier run of this program ended with: translated from the first dispatch
        // (compiled on the worker in auto mode), then judged and changed like any other.
        // GARM_TIER_PLANS=0: neither read nor write plans (a run judged from its own profile).
        let plans = std::env::var("GARM_TIER_PLANS").map_or(true, |v| v != "0");
        let plan_key = (ranges.is_empty()
            && plans
            && opts.tier != crate::tier::Mode::Interp
            && opts.trace.is_none())
        .then(|| {
            let gpu = &m.gpu.info;
            // Per instance count too: a set that suits one guest can bounce at 64 (sha256's
            // 1-instance plan, installed at 64 instances, was dropped and recompiled: 915 -> 234
            // MIPS in `garm bench`), and the other way round.
            // A count without a plan of its own starts from the last plan of any count (its
            // regions are in Mesa's cache).
            let target = format!("{} {} {}", m.cfg.prelude.name(), gpu.name, gpu.driver_info);
            [
                crate::tier::saved::key(&elf_sha, &format!("{target} x{n}")),
                crate::tier::saved::key(&elf_sha, &target),
            ]
        });
        if let Some(keys) = &plan_key {
            m.tier.plan_keys = keys.to_vec();
        }
        let (mut saved, mut saved_own) = Default::default();
        if !ranges.is_empty() {
            force_regions(&mut m, ranges)?;
            tiering = crate::tier::Policy::new(crate::tier::Mode::Interp);
        } else if let Some(keys) = &plan_key {
            (saved, saved_own) = install_saved_plan(&mut m, keys)?;
            // A compiled set runs from the first dispatch: judged on what it does from then
            // on, not on the first few samples of start-up (sha256's known-answer checks, at
            // 0.37 s of a 0.45 s run, had their printf helpers replace compress).
            if m.stats.tier_saved > 0 && saved.compiled {
                tiering.restart();
            }
        }
        let out = Output::new(n as usize, mode);
        let tracer = match &opts.trace {
            Some(p) => {
                m.set_iters(1);
                Some(
                    crate::trace::Tracer::create(p, opts.trace_limit).map_err(|source| {
                        RunError::Trace {
                            path: p.clone(),
                            source,
                        }
                    })?,
                )
            }
            None => None,
        };
        // Only the command line's own run draws a progress line (and only on a terminal).
        let progress = stream
            .then(crate::progress::Progress::new)
            .filter(|p| p.enabled);
        let debugger = match opts.gdb {
            Some(port) => Some(
                crate::gdb::Stub::listen(port).map_err(|source| RunError::Gdb { port, source })?,
            ),
            None => None,
        };
        // Inodes from here on are the guests' own (files they made, for an embedder to show).
        let first_guest_ino = k.vfs.inodes.len();
        Ok(Session {
            first_guest_ino,
            m,
            k,
            out,
            outcomes: vec![None; n as usize],
            opts: opts.clone(),
            slots,
            mode,
            t0: Instant::now(),
            batch: 4,
            round: 0,
            tracer,
            progress,
            tiering,
            plan_key,
            saved,
            saved_own,
            adapter_name,
            prelude,
            mem,
            debugger,
            finished: false,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// One submit and the host work it leaves: syscalls, faults, exits, output. True when the
    /// run is over (every instance has an outcome and no process is left).
    pub fn step(&mut self) -> Result<bool, RunError> {
        pollster::block_on(self.step_async())
    }

    /// [`Session::step`] for hosts whose readbacks cannot block (a browser): the same loop,
    /// awaiting the device where a native host waits for it.
    pub async fn step_async(&mut self) -> Result<bool, RunError> {
        if self.finished {
            return Ok(true);
        }
        let done = self.step_inner().await?;
        self.finished = done;
        Ok(done)
    }

    /// Whether every instance has ended.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// How instance `i` ended, once it has.
    pub fn outcome(&self, i: usize) -> Option<&Outcome> {
        self.outcomes.get(i)?.as_ref()
    }

    /// The slot instance `i` started in (its first process's state stays there after it ends,
    /// until a new process takes the slot).
    pub fn root_slot(&self, i: usize) -> Option<usize> {
        if i >= self.opts.instances as usize {
            return None;
        }
        match self.k.root_of(i) {
            Some(p) => p
                .slot
                .or(Some(i))
                .filter(|&s| self.k.pid_of_slot(s).is_none_or(|q| q == p.pid)),
            None => Some(i).filter(|&s| self.k.pid_of_slot(s).is_none()),
        }
    }

    /// Instance `i`'s first process's slot while it lives.
    pub fn live_root_slot(&self, i: usize) -> Option<usize> {
        let p = self.k.root_of(i)?;
        p.slot
    }

    /// Ends what still runs: unfinished instances are killed (outcome: SIGKILL, "stopped").
    pub fn stop_all(&mut self) {
        if self.finished {
            return;
        }
        for i in 0..self.opts.instances as usize {
            if self.outcomes[i].is_none() {
                self.outcomes[i] = Some(Outcome::Signaled(
                    SIGKILL,
                    "stopped before its end".to_string(),
                ));
            }
            self.k.kill_instance(&mut self.m, i, SIGKILL);
        }
        self.finished = true;
    }

    /// The process gdb follows: the first instance's root while it lives.
    fn followed(&self) -> Option<(Pid, usize)> {
        let p = self.k.root_of(0)?;
        Some((p.pid, p.slot?))
    }

    /// gdb's part of a step: a stop waiting to be told (or Ctrl-C while running) is told, and
    /// gdb is served until it resumes. True when gdb killed the run.
    fn debug_turn(&mut self) -> Result<bool, RunError> {
        let Some((pid, slot)) = self.followed() else {
            return Ok(false);
        };
        let port = self.opts.gdb.unwrap_or(0);
        let Some(d) = self.debugger.as_mut() else {
            return Ok(false);
        };
        if d.pending.is_none() {
            let running = d.running;
            match running {
                Some((crate::gdb::Action::Continue, _)) if d.interrupted() => {
                    d.pending = Some(crate::gdb::StopWhy {
                        signal: crate::os::abi::sig::SIGINT,
                        breakpoint: false,
                    });
                }
                Some((crate::gdb::Action::Step, _)) => {
                    self.batch = 1;
                    return Ok(false);
                }
                _ => return Ok(false),
            }
        }
        let why = d.pending.unwrap_or(crate::gdb::StopWhy {
            signal: SIGTRAP,
            breakpoint: false,
        });
        let k = &self.k;
        let maps = |g: &dyn Guest| crate::os::kernel::procfs::maps(k, g, pid, slot);
        let mut view = crate::gdb::View {
            guest: &mut self.m,
            slot,
            tid: pid as u32,
            maps: &maps,
        };
        let action = d
            .serve(&mut view)
            .map_err(|source| RunError::Gdb { port, source })?;
        let stopped_at_fault = Guest::status(&self.m, slot).is_some_and(|s| {
            !matches!(
                s,
                Stop::Running | Stop::Write | Stop::LimitRetry | Stop::Syscall
            )
        });
        if why.breakpoint {
            // gdb has put the instruction back: it runs from here.
            self.m.set_status(slot, Stop::Running);
        } else if stopped_at_fault {
            // The fault was told; the next sight of it ends the process as without gdb.
            d.fault_told = true;
        }
        let iters = if self.tracer.is_some() {
            1
        } else {
            layout::ITERS
        };
        match action {
            crate::gdb::Action::Continue => self.m.set_iters(iters),
            crate::gdb::Action::Step => {
                self.m.set_iters(1);
                self.batch = 1;
            }
            crate::gdb::Action::Detach => {
                d.clear_breakpoints(&mut self.m, slot);
                self.debugger = None;
                self.m.set_iters(iters);
            }
            crate::gdb::Action::Kill => {
                self.debugger = None;
                for i in 0..self.opts.instances as usize {
                    if self.outcomes[i].is_none() {
                        self.outcomes[i] =
                            Some(Outcome::Signaled(SIGKILL, "killed by gdb".to_string()));
                    }
                    self.k.kill_instance(&mut self.m, i, SIGKILL);
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether gdb takes this stop of `slot` (a breakpoint, or a fault it has not yet been told
    /// of): the process then waits for gdb instead of taking it.
    fn debug_takes(
        debugger: &mut Option<crate::gdb::Stub>,
        k: &Kernel,
        m: &Machine,
        slot: usize,
        signal: i32,
    ) -> bool {
        let Some(d) = debugger.as_mut().filter(|d| d.attached()) else {
            return false;
        };
        if k.root_of(0).and_then(|p| p.slot) != Some(slot) {
            return false;
        }
        let breakpoint = signal == SIGTRAP && d.is_breakpoint(m.pc(slot));
        if std::mem::take(&mut d.fault_told) && !breakpoint {
            return false;
        }
        d.pending = Some(crate::gdb::StopWhy { signal, breakpoint });
        true
    }

    async fn step_inner(&mut self) -> Result<bool, RunError> {
        if self.debugger.is_some() && self.debug_turn()? {
            return Ok(true);
        }
        let (n, slots, mode, t0) = (self.opts.instances, self.slots, self.mode, self.t0);
        let streaming = mode != OutputMode::Keep;
        let Session {
            m,
            k,
            out,
            outcomes,
            opts,
            batch,
            round,
            tracer,
            progress,
            tiering,
            debugger,
            ..
        } = self;
        let opts = &*opts;
        if let Some(p) = progress.as_mut() {
            if k.awaiting_input() {
                crate::progress::clear_line();
            } else {
                let done = outcomes.iter().filter(|o| o.is_some()).count();
                p.tick(done, n as usize, k.executed.iter().sum());
            }
        }
        if let Some(t) = tracer.as_mut() {
            if t.done() {
                m.set_iters(layout::ITERS);
                *tracer = None;
            } else {
                *batch = 1;
                t.before(k, m);
            }
        }
        let turns = assign_turns(k, m, round);
        let ts = Instant::now();
        let refetch = m.wants_frames();
        let rings = if refetch {
            // A host access found guest memory not read back (in a browser): read it, then
            // answer the stops again without running anything, as after a submit where
            // nothing ran.
            m.fetch_wanted().await?;
            vec![Vec::new(); m.instances()]
        } else {
            let rings = m.submit_async(*batch, false).await?;
            if m.deferred_reads {
                want_stop_memory(m);
                m.fetch_wanted().await?;
            }
            rings
        };
        // A traced run steps one instruction per dispatch in the interpreter.
        if std::mem::take(&mut m.tier.dropped) {
            m.profile.decay();
            m.profile.decay();
            tiering.soon(m.profile.samples);
        }
        let tier_ok = !m.tier.failed && !m.tier.busy() && !m.tier.probing();
        // (The sum over processes only where a plan is due.)
        let wanted = || {
            let insns = k.executed.iter().sum();
            tiering.wanted(insns, m.stats.tier_insns, m.stats.dispatches)
        };
        if tracer.is_none() && tier_ok && tiering.due(m.profile.samples) && wanted() {
            let hot = m.hot_regions(3 * crate::tier::MAX_REGIONS);
            if crate::tier::debug() {
                let list: Vec<String> = hot
                    .iter()
                    .map(|r| format!("{:#x}..{:#x}:{}", r.start, r.end, r.samples))
                    .collect();
                eprintln!(
                    "garm: tier: plan at {} samples, {:.2} s: {}",
                    m.profile.samples,
                    crate::tier::elapsed(),
                    list.join(" ")
                );
            }
            let picked = tiering.pick(
                m.profile.samples,
                m.profile.weight(),
                hot,
                &m.tier.regions(),
            );
            m.profile.decay();
            if let Some(r) = picked {
                m.weigh_regions(&r)?;
            }
        }
        if let Some(t) = tracer.as_mut() {
            let path = opts.trace.clone().unwrap_or_default();
            t.after(k, m)
                .map_err(|source| RunError::Trace { path, source })?;
        }
        let submit_time = ts.elapsed();
        let mut host_work = false;
        let mut live = false;
        // Whether some process ran past its first dispatch: if none did, the rest of the batch
        // found them all stopped (each empty dispatch still costs lavapipe ~0.2 ms).
        let ran_long = k.account(m) >= m.iters() as u64;
        for (slot, words) in rings.iter().enumerate() {
            if let Some(pid) = k.pid_of_slot(slot).filter(|_| !words.is_empty()) {
                if out.drain_ring(k.procs[&pid].inst, words).is_err() {
                    // The host's end of the console is closed: the writer gets SIGPIPE, and no
                    // process writes to it through the shader's fast path any more.
                    let _ = signal::broken_pipe(k, m, pid);
                    for p in k.procs.values().filter_map(|p| p.slot.map(|s| (p.pid, s))) {
                        let mask = k.fast_fd_mask(p.0, out);
                        m.st_mut(p.1)[layout::S_FASTFD] = mask;
                    }
                    host_work = true;
                }
            }
        }
        if streaming {
            out.flush();
        }
        if let Some(limit) = opts.max_insns {
            host_work |= tree_budgets(k, m, limit, outcomes, n);
        }
        if opts.timeout.is_some_and(|t| t0.elapsed() >= t) {
            let secs = opts.timeout.unwrap_or_default().as_secs_f64();
            for (i, slot_outcome) in outcomes.iter_mut().enumerate() {
                if slot_outcome.is_none() {
                    let o = Outcome::Limit(format!("wall-clock timeout of {secs} s reached"));
                    if n == 1 {
                        report(&o, None);
                    }
                    *slot_outcome = Some(o);
                }
                k.kill_instance(m, i, SIGKILL);
            }
            return Ok(true);
        }
        for slot in 0..slots as usize {
            let Some(pid) = k.pid_of_slot(slot) else {
                continue;
            };
            let Some(stop) = Guest::status(m, slot) else {
                let word = m.st(slot)[layout::S_STATUS];
                let msg = format!("internal error: the shader wrote stop word {word}");
                kill(k, m, pid, SIGILL, msg, outcomes, n);
                host_work = true;
                continue;
            };
            // Each stop goes to its owner: the kernel (exit, syscalls), the machine's code cache
            // (decode, self-modifying stores, DC ZVA), or the fault report.
            match stop {
                Stop::Running | Stop::Write | Stop::LimitRetry => live = true,
                Stop::Exited => {
                    // The shader answers exit and exit_group alike; x8 still says which.
                    let code = m.st(slot)[layout::S_EXIT_CODE] as i32;
                    if m.reg(slot, 8) == crate::os::nr::EXIT {
                        k.exit_thread(m, pid, code << 8);
                    } else {
                        k.exit_proc(m, pid, code << 8);
                    }
                    host_work = true;
                }
                Stop::Syscall => {
                    if k.in_vfork(pid) {
                        continue;
                    }
                    // A blocked call (wait, pipe) is retried here after every submit; only a call
                    // that completes counts as progress.
                    match k.syscall(m, slot, out)? {
                        SysOutcome::Resume => {
                            if k.pid_of_slot(slot) == Some(pid)
                                && Guest::status(m, slot) == Some(Stop::Syscall)
                            {
                                m.set_status(slot, Stop::Running);
                            }
                            live = true;
                            host_work = true;
                        }
                        SysOutcome::Ended => host_work = true,
                        SysOutcome::Blocked => {}
                    }
                }
                Stop::NeedCode => {
                    let pc = m.pc(slot);
                    if m.perm(slot, pc).is_some_and(|p| p.has(Perm::X)) {
                        match m.decode_page_at(slot, pc) {
                            Ok(()) => live = true,
                            // Only this process ends: the others (and their output) go on.
                            Err(MemError::Device(e @ GpuError::CodeFull(_))) => {
                                kill(k, m, pid, SIGKILL, e.to_string(), outcomes, n)
                            }
                            // Deferred reads: decoded after the next read-back.
                            Err(MemError::Pending) => {}
                            Err(e) => return Err(e.into()),
                        }
                    } else {
                        let msg =
                            format!("guest memory fault: execute at address {pc:#x} (pc {pc:#x})");
                        kill(k, m, pid, SIGSEGV, msg, outcomes, n);
                    }
                    host_work = true;
                }
                Stop::Variant => {
                    m.add_units(m.st(slot)[layout::S_FAULT_KIND])?;
                    m.set_status(slot, Stop::Running);
                    live = true;
                    host_work = true;
                }
                Stop::CodeMod | Stop::DcZva => {
                    // A write to a page with decoded code (stopped before it: the decode goes
                    // and the write runs), or DC ZVA (the host zeroes the block, which must be
                    // writable).
                    let addr = m.word64(slot, layout::S_FAULT_ADDR);
                    if m.perm(slot, addr).is_some_and(|p| p.has(Perm::W)) {
                        if stop == Stop::DcZva {
                            m.zero_block(slot, addr)?;
                        } else {
                            m.forget_code_at(slot, addr);
                        }
                        live = true;
                    } else {
                        // The store has retired: the pc is past it, unless it was a pair's half.
                        let pc = m.pc(slot)
                            - if m.st(slot)[layout::S_USTEP] == 0 {
                                4
                            } else {
                                0
                            };
                        let msg = format!("guest memory fault: write at address {addr:#x} (pc {pc:#x}): read-only segment");
                        kill(k, m, pid, SIGSEGV, msg, outcomes, n);
                    }
                    host_work = true;
                }
                Stop::Limit => {
                    // This process spent its share of the tree's budget (tree_budgets ends the
                    // tree once the whole budget is spent, and hands out new shares meanwhile).
                    let inst = k.procs[&pid].inst;
                    let limit = opts.max_insns.unwrap_or(u64::MAX);
                    if opts.max_insns.is_none() {
                        // No budget at all (a stop point left at 0): run on without one.
                        m.set_word64(slot, layout::S_LIMIT, u64::MAX);
                        m.set_status(slot, Stop::Running);
                        live = true;
                    } else if k.executed[inst] >= limit {
                        let msg = limit_message(k, inst, limit);
                        end_tree(k, m, inst, msg, outcomes, n);
                    } else {
                        m.set_status(slot, Stop::Running);
                        live = true;
                    }
                    host_work = true;
                }
                Stop::FetchFault
                    if m.word64(slot, layout::S_FAULT_ADDR) == signal::SIGRETURN_PC =>
                {
                    // A handler without SA_RESTORER returned: what Linux's vDSO trampoline does.
                    m.set_reg(slot, 8, crate::os::nr::RT_SIGRETURN);
                    m.set_status(slot, Stop::Syscall);
                    host_work = true;
                }
                Stop::MemFault => {
                    match memory_fault(k, m, pid, slot)? {
                        None => live = true,
                        // gdb sees the fault first; the process waits for it.
                        Some((sig, _)) if Self::debug_takes(debugger, k, m, slot, sig) => {}
                        Some((sig, msg)) => kill(k, m, pid, sig, msg, outcomes, n),
                    }
                    host_work = true;
                }
                Stop::Illegal | Stop::FetchFault | Stop::Brk => {
                    let (sig, msg) = match fault_outcome(m, slot, stop, opts.max_insns) {
                        Outcome::Signaled(s, msg) => (s, msg),
                        Outcome::Limit(msg) => (-1, msg),
                        Outcome::Exited(_) => unreachable!("faults never exit normally"),
                    };
                    if !Self::debug_takes(debugger, k, m, slot, sig) {
                        kill(k, m, pid, sig, msg, outcomes, n);
                    }
                    host_work = true;
                }
            }
        }
        signal::deliver_pending(k, m);
        // A call or a delivery waiting for memory to be read back goes on at the next step.
        host_work |= m.wants_frames();
        if let Some(d) = debugger.as_mut() {
            debug_after(d, k, m);
            if !d.attached() {
                *debugger = None;
                m.set_iters(if tracer.is_some() { 1 } else { layout::ITERS });
            }
        }
        // Roots that exited (by exit, a signal or a fault) give garm its outcome.
        for (i, slot_outcome) in outcomes.iter_mut().enumerate() {
            if slot_outcome.is_none() {
                if let Some(p) = k.root_of(i) {
                    if let PState::Zombie(ws) = p.state {
                        let o = if ws & 0x7f == 0 {
                            Outcome::Exited((ws >> 8) as u8)
                        } else {
                            Outcome::Signaled(ws & 0x7f, format!("killed by signal {}", ws & 0x7f))
                        };
                        if mode == OutputMode::Direct && ws & 0x7f != crate::os::abi::sig::SIGPIPE {
                            report(&o, None);
                        }
                        *slot_outcome = Some(o);
                    }
                }
            }
        }
        // Orphans run on after their root exits, as under Linux: the run ends when every root
        // has an outcome and no process is left.
        let anyone = k.procs.values().any(|p| p.slot.is_some());
        if outcomes.iter().all(|o| o.is_some()) && !anyone {
            return Ok(true);
        }
        if !live && !host_work && k.sleeping() {
            // Only sleepers are left: wait a little instead of spinning on the GPU (a browser
            // cannot block; its event loop runs between steps).
            #[cfg(not(target_arch = "wasm32"))]
            std::thread::sleep(Duration::from_millis(1));
            return Ok(false);
        }
        if !live && !host_work {
            let blocked: Vec<Pid> = k
                .procs
                .values()
                .filter(|p| p.state == PState::Blocked)
                .map(|p| p.pid)
                .collect();
            for o in outcomes.iter_mut().filter(|o| o.is_none()) {
                let d = Outcome::Signaled(
                    SIGKILL,
                    format!("deadlock: every process is blocked (pids {blocked:?})"),
                );
                if mode == OutputMode::Direct {
                    report(&d, None);
                }
                *o = Some(d);
            }
            return Ok(true);
        }
        // Grow the batch while nothing needs the host, keeping one submit near 100 ms so output
        // stays timely and a real GPU's watchdog never sees a long submit.
        if host_work {
            // Threads taking turns run one per dispatch: they need the whole batch to rotate.
            *batch = if ran_long || turns { 4 } else { 1 };
        } else if submit_time < Duration::from_millis(50) {
            *batch = (*batch * 2).min(1024);
        } else if submit_time > Duration::from_millis(200) && *batch > 1 {
            *batch /= 2;
        }
        Ok(false)
    }

    /// Ends the run: the output's last lines, the plan of regions saved, the report.
    pub fn finish(self) -> RunReport {
        let Session {
            mut m,
            mut k,
            mut out,
            outcomes,
            t0,
            plan_key,
            tiering,
            saved,
            saved_own,
            adapter_name,
            prelude,
            mem,
            progress,
            ..
        } = self;
        drop(progress);
        out.finish();
        let exec_time = t0.elapsed();
        k.account(&m);
        crate::tier::deferred::defer(None);
        // A set whose compile ended since the last submit is the set the run ends with (left
        // pending, it was saved as compiling and its job handed on to no one: the exit starts
        // that process only while a worker compiles).
        let swapped_at_end = m.poll_tier();
        // Loops this run ran interpreted that a plan would have taken had one come (the run
        // ended first): the next run's plan, compiled from now on.
        if plan_key.is_some() {
            let hot = m.hot_regions(3 * crate::tier::MAX_REGIONS);
            let from_plan = m.stats.tier_saved > 0;
            // Shares of all the run's samples, not of the decayed profile: that holds mostly
            // the run's last phase after a drop (it decays twice), and sha256 at 64 instances
            // added one of printf's helpers per run (each dropped in the next as bouncing,
            // and a compile after the run).
            let extra = tiering.at_end(
                exec_time,
                from_plan,
                m.profile.samples,
                &hot,
                &m.tier.regions(),
            );
            if crate::tier::debug() {
                let l: Vec<String> = hot
                    .iter()
                    .take(6)
                    .map(|r| format!("{:#x}:{}", r.start, r.samples))
                    .collect();
                eprintln!(
                    "garm: tier: at the end, {} samples: {}",
                    m.profile.samples,
                    l.join(" ")
                );
            }
            if !extra.is_empty()
                && m.translate_more(&extra).unwrap_or(false)
                && crate::tier::debug()
            {
                let r: Vec<String> = extra
                    .iter()
                    .map(|r| format!("{:#x}..{:#x}", r.start, r.end))
                    .collect();
                eprintln!(
                    "garm: tier: at the run's end, the next plan adds {}",
                    r.join(" ")
                );
            }
        }
        // The regions this run ended with (or was compiling) are the next run's start.
        if let Some([key, any]) = &plan_key {
            // Earlier runs' drops stay remembered, less those of code that held a quarter of
            // this run's profile (tried again: see Machine::forgiven).
            let mut dropped: Vec<(u64, u64)> = saved
                .dropped
                .iter()
                .filter(|&&(a, b)| {
                    !m.tier
                        .earlier_drops
                        .iter()
                        .any(|&(s, e, slot)| (s, e) == (a, b) && m.forgiven(s, e, slot))
                })
                .copied()
                .collect();
            for r in &m.tier.dropped_ranges {
                if !dropped.contains(r) {
                    dropped.push(*r);
                }
            }
            let keep_from = dropped
                .len()
                .saturating_sub(crate::tier::saved::MAX_DROPPED);
            dropped.drain(..keep_from);
            // The installed regions less those dropped are a set of their own, not compiled
            // yet: saved as compiled, the next run paid their cold compile before its first
            // dispatch (sha256 x1: 3.7 MIPS).
            let whole = m.tier.pipeline_ranges();
            let compiled = !m.tier.busy() && whole == m.tier.installed_ranges();
            // While a set compiles, the pipeline that ran (if it ran well) or the last one
            // compiled.
            let installed = whole;
            // And the page cache that set was compiled with.
            let here = m.tier.installed_page_cache().unwrap_or(false);
            let (fallback, fallback_sites, page_cache) = if compiled {
                (Vec::new(), Vec::new(), here)
            } else if !installed.is_empty() && m.stats.tier_insns > 0 && !m.tier.bouncing() {
                (installed, m.tier.installed_sites(), here)
            } else {
                (
                    saved.compiled_set().to_vec(),
                    saved.compiled_sites().to_vec(),
                    saved.page_cache,
                )
            };
            let now = crate::tier::saved::Plan {
                ranges: m.tier.ranges(),
                compiled,
                dropped,
                fallback,
                page_cache,
                sites: m.tier.current_sites(),
                fallback_sites,
            };
            // A compiled set that never ran (a short run's late pick) is no plan to start from.
            // Nor is one whose regions bounce (a set that suited one instance count may not
            // suit another).
            // (One swapped in only now had no chance to run: a pick that ran its course, as one
            // still compiling.)
            let ran =
                !now.compiled || swapped_at_end || (m.stats.tier_insns > 0 && !m.tier.bouncing());
            // The saved set itself, now compiled (Mesa's cache has it): the next run installs
            // it before its first dispatch rather than compiling it on the worker again, which
            // a set that bounces at this instance count would otherwise do at every run.
            let now_compiled = now.compiled && !saved.compiled && now.ranges == saved.ranges;
            // Or only what was dropped grew: worth saving whatever else holds.
            let learnt = now.dropped != saved.dropped;
            // A late pick still compiling at the end replaces the compiled set this run started
            // from only if it keeps all of it (it adds regions: calloc's memset to the sieve's
            // main); one that leaves some out was made while those were being judged, and the
            // next run would pay a cold compile to find that out again.
            let installed = m.stats.tier_saved > 0 && saved.compiled;
            // (Less what this run dropped: judged, not left out.)
            let superset = saved
                .ranges
                .iter()
                .all(|r| now.ranges.contains(r) || m.tier.dropped_ranges.contains(r));
            // Or the set this run started from ran poorly ([`crate::tier::ran_well`]) and the
            // pick leaves out only what lanes hardly ran in (an eighth of the run between
            // them): sha256's saved set of printf's helpers and compress, made at 0.3 s of a
            // run, kept main's loop out of every later plan (87% translated, 18 MIPS, not
            // 100). A set that ran well stays: picks from the few samples of a short run
            // swapped one helper for another at every run (each a 3-4 s compile after it).
            let insns: u64 = k.executed.iter().sum();
            let poor = !crate::tier::ran_well(insns, m.stats.tier_insns, m.stats.dispatches);
            let idle = poor && m.tier.entered_outside(&now.ranges) * 8 < insns;
            let keeps = now.compiled || !installed || superset || idle;
            let changed = now != saved || !saved_own;
            // Or regions of the saved set were dropped in this run: the next starts without.
            let shed = saved
                .ranges
                .iter()
                .any(|r| m.tier.dropped_ranges.contains(r));
            if crate::tier::debug() {
                eprintln!(
                    "garm: tier: at the end: {} ranges ({}), ran {ran}, changed {changed}, keeps {keeps}, learnt {learnt}",
                    now.ranges.len(),
                    if now.compiled { "compiled" } else { "compiling" },
                );
            }
            if !now.ranges.is_empty() && (ran || now_compiled) && changed && keeps {
                crate::tier::saved::store(key, &now);
                crate::tier::saved::store(any, &now);
            } else if learnt || shed {
                let kept = crate::tier::saved::Plan {
                    dropped: now.dropped.clone(),
                    ..saved.clone()
                }
                .without(&m.tier.dropped_ranges);
                crate::tier::saved::store(key, &kept);
            }
            // A set still compiling that the plan names: the command line's exit hands its
            // compile to a process of its own (else a run shorter than its compile never gets
            // it).
            if let Some(job) = m.pending_job() {
                let p = crate::tier::saved::load(key);
                if !p.compiled && p.ranges == job.ranges {
                    crate::tier::deferred::defer(Some(crate::tier::deferred::Job {
                        keys: vec![key.clone(), any.clone()],
                        ..job
                    }));
                }
            }
        }
        let instructions = k.executed.clone();
        RunReport {
            outcomes: outcomes
                .into_iter()
                .map(|o| o.expect("finish after the last step"))
                .collect(),
            instructions,
            output: out,
            stats: MachineStats {
                frames_total: m.spaces().frame_counts().0,
                frames_peak: m.spaces().frame_counts().2,
                cow_copies: m.spaces().cow_copies,
                zero_faults: m.spaces().zero_faults,
                frames_shared: m.spaces().shared_frames(),
                samples: m.profile.samples,
                weight: m.profile.weight(),
                hot: m.hot_code(5),
                regions: m.hot_regions(3),
                tier_first: m
                    .stats
                    .tier_first_at
                    .map(|at| at.saturating_duration_since(t0)),
                ..m.stats.clone()
            },
            host_syscalls: k.round_trips,
            exec_time,
            adapter: adapter_name,
            prelude,
            mem,
            forks: k.forks,
            threads: k.threads,
            fork_time: k.fork_time,
            fs_used: k.vfs.used,
            fs_limit: k.vfs.limit,
        }
    }
}

/// After a step's host work: a single step gdb asked for that has retired its instruction
/// stops, and the followed process's end is told (gdb then goes).
fn debug_after(d: &mut crate::gdb::Stub, k: &Kernel, m: &Machine) {
    let root = k.root_of(0);
    match root {
        Some(p) if p.slot.is_some() => {
            let s = p.slot.unwrap_or_default();
            if let (Some((crate::gdb::Action::Step, from)), None) = (d.running, d.pending) {
                let retired = m.word64(s, layout::S_COUNT) != from && m.st(s)[layout::S_USTEP] == 0;
                if retired && Guest::status(m, s) == Some(Stop::Running) {
                    d.pending = Some(crate::gdb::StopWhy {
                        signal: SIGTRAP,
                        breakpoint: false,
                    });
                }
            }
        }
        Some(p) => {
            if let PState::Zombie(ws) = p.state {
                d.ended(ws);
            }
        }
        None => d.ended(0),
    }
}

/// With deferred reads (a browser, whose readbacks cannot block): the memory the stops will
/// read, fetched in one round trip before the host looks: a code stop's decode block, and what
/// a stopped syscall's arguments point at (a page per mapped address, or the buffer of the
/// length that follows it in the (buffer, length) calls).
fn want_stop_memory(m: &mut Machine) {
    const MAX: u64 = 1 << 20;
    use crate::os::nr;
    for slot in 0..m.instances() {
        if Guest::status(m, slot) == Some(Stop::NeedCode) {
            // The block of pages a code stop decodes at once.
            let block = crate::gpu::machine::DECODE_AHEAD * 4096;
            let lo = m.pc(slot) & !(block - 1);
            let ranges: Vec<(u64, u64)> = (0..crate::gpu::machine::DECODE_AHEAD)
                .map(|k| (lo + k * 4096, 4096))
                .filter(|&(p, _)| Guest::in_bounds(m, slot, p, 1))
                .collect();
            m.want_ranges(slot, &ranges);
            continue;
        }
        if Guest::status(m, slot) != Some(Stop::Syscall) {
            continue;
        }
        let a: [u64; 6] = std::array::from_fn(|i| m.reg(slot, i));
        // The calls whose argument i points at a buffer of argument i + 1's length; elsewhere
        // a pointer gets its page (a flag word is no length: openat's O_CLOEXEC is 512 KiB).
        let sized = match m.reg(slot, 8) {
            nr::READ | nr::WRITE | nr::PREAD64 | nr::PWRITE64 | nr::GETDENTS64 => Some(1),
            nr::RECVFROM | nr::SENDTO => Some(1),
            nr::READLINKAT => Some(2),
            nr::GETRANDOM | nr::GETCWD => Some(0),
            _ => None,
        };
        let mut ranges = Vec::new();
        for i in 0..6 {
            let len = a
                .get(i + 1)
                .copied()
                .filter(|&n| sized == Some(i) && n <= MAX)
                .unwrap_or(0);
            let first = a[i] & !0xfff;
            let pages = (a[i] % 4096 + len.max(4096)).div_ceil(4096);
            for k in 0..pages {
                let page = first.wrapping_add(k * 4096);
                if page >= first && Guest::in_bounds(m, slot, page, 1) {
                    ranges.push((page, 4096));
                }
            }
        }
        m.want_ranges(slot, &ranges);
    }
}

/// Threads of one address space take turns, one per dispatch (`S_TURN`): before each submit
/// the runnable threads of every process that has more than one get their places, rotated at
/// each submit so that every thread leads in turn. Processes that share MAP_SHARED memory are
/// one such group per instance (a plain store in one must not race an atomic step in another
/// within a dispatch: docs/virtual-memory.md, step 6). Returns whether any group takes turns.
fn assign_turns(k: &Kernel, m: &mut Machine, round: &mut usize) -> bool {
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Group {
        Threads(Pid),
        SharedMemory(usize),
    }
    let mut groups: std::collections::BTreeMap<Group, Vec<usize>> = Default::default();
    for p in k.procs.values() {
        let Some(s) = p.slot else { continue };
        // A process's first thread carries the flags itself (no lookup for the common case).
        let process = if p.tgid == p.pid { p } else { k.process(p.pid) };
        let group = if process.shares_memory {
            Group::SharedMemory(p.inst)
        } else if process.threaded {
            Group::Threads(p.tgid)
        } else {
            continue;
        };
        let runnable = matches!(
            Guest::status(m, s),
            Some(Stop::Running | Stop::Write | Stop::LimitRetry)
        );
        // Another member may have run since this one's load-exclusive (in the previous submit):
        // a context switch clears the monitor, so a store-exclusive fails even where the value
        // was changed and changed back (ABA), as on hardware.
        m.st_mut(s)[layout::S_EXCL_VALID] = 0;
        let g = groups.entry(group).or_default();
        if runnable {
            g.push(s);
        } else {
            m.st_mut(s)[layout::S_TURN] = 0;
        }
    }
    if groups.is_empty() {
        return false;
    }
    *round += 1;
    let mut turns = false;
    for slots in groups.values() {
        let n = slots.len();
        turns |= n > 1;
        for (i, &s) in slots.iter().enumerate() {
            let turn = if n > 1 {
                (((i + *round) % n) << 16 | n) as u32
            } else {
                0
            };
            let st = m.st_mut(s);
            st[layout::S_TURN] = turn;
            st[layout::S_TICK] = 0;
        }
    }
    turns
}

/// `--max-insns` as one budget for each instance's whole process tree: a tree that spent it
/// ends (the root's outcome is the limit); every other live process may run at most what its
/// tree has left before the shader stops it. Returns whether a tree ended.
fn tree_budgets(
    k: &mut Kernel,
    m: &mut Machine,
    limit: u64,
    outcomes: &mut [Option<Outcome>],
    n: u32,
) -> bool {
    let mut ended = false;
    let live_by = k.live_by_instance(n as usize);
    for (inst, live) in live_by.into_iter().enumerate() {
        if live.is_empty() {
            continue;
        }
        let used = k.executed[inst];
        if used >= limit {
            let msg = limit_message(k, inst, limit);
            end_tree(k, m, inst, msg, outcomes, n);
            ended = true;
            continue;
        }
        // Each live process may spend an equal share of what is left before the next check, so
        // the tree overshoots its budget by at most what children forked within one submit run
        // (they start from their parent's stop point).
        let share = ((limit - used) / live.len() as u64).max(1);
        for pid in live {
            if let Some(s) = k.procs.get(&pid).and_then(|p| p.slot) {
                let stop_at = m.word64(s, layout::S_COUNT).saturating_add(share);
                m.set_word64(s, layout::S_LIMIT, stop_at);
            }
        }
    }
    ended
}

fn limit_message(k: &Kernel, inst: usize, limit: u64) -> String {
    format!(
        "instruction limit reached: {} instructions retired by the process tree (limit {limit}); raise --max-insns",
        k.executed[inst]
    )
}

/// Ends instance `inst`'s whole process tree at its instruction budget.
fn end_tree(
    k: &mut Kernel,
    m: &mut Machine,
    inst: usize,
    msg: String,
    outcomes: &mut [Option<Outcome>],
    n: u32,
) {
    if outcomes[inst].is_none() {
        let o = Outcome::Limit(msg);
        if n == 1 {
            report(&o, None);
        }
        outcomes[inst] = Some(o);
    } else {
        let prefix = if n > 1 {
            format!("[{inst}] ")
        } else {
            String::new()
        };
        crate::elog!("{prefix}garm: {msg}");
    }
    k.kill_instance(m, inst, SIGKILL);
}

/// Ends a process for a fault, reporting it on stderr.
fn kill(
    k: &mut Kernel,
    m: &mut Machine,
    pid: Pid,
    sig: i32,
    msg: String,
    outcomes: &mut [Option<Outcome>],
    n: u32,
) {
    // A thread's fault ends its process, whose leader is the instance's root.
    let p = k.process(pid);
    let root = p.root;
    let inst = p.inst;
    if root && (inst as u32) < n {
        outcomes[inst] = Some(if sig < 0 {
            Outcome::Limit(msg.clone())
        } else {
            Outcome::Signaled(sig, msg.clone())
        });
        if n == 1 {
            report(outcomes[inst].as_ref().unwrap(), None);
        }
    } else {
        let prefix = if n > 1 {
            format!("[{inst}] ")
        } else {
            String::new()
        };
        crate::elog!("{prefix}garm: pid {pid}: {msg}");
    }
    k.exit_proc(m, pid, if sig < 0 { SIGKILL } else { sig });
}

/// Prints an outcome's report line to stderr (nothing for a normal exit).
pub fn report(o: &Outcome, inst: Option<usize>) {
    let prefix = inst.map(|i| format!("[{i}] ")).unwrap_or_default();
    match o {
        Outcome::Exited(_) => {}
        Outcome::Signaled(_, msg) | Outcome::Limit(msg) => crate::elog!("{prefix}garm: {msg}"),
    }
}

/// What a memory-fault stop comes to: `None` when the slot runs again (a zero page got its
/// frame and the access repeats, or the guest's handler takes the signal, see [`to_handler`]),
/// else the signal and report the process ends with.
fn memory_fault(
    k: &mut Kernel,
    m: &mut Machine,
    pid: Pid,
    slot: usize,
) -> Result<Option<(i32, String)>, RunError> {
    let addr = m.word64(slot, layout::S_FAULT_ADDR);
    let kind = m.st(slot)[layout::S_FAULT_KIND];
    if kind != layout::FAULT_ALIGN {
        match m.fault_in(slot, addr, kind == layout::FAULT_WRITE)? {
            Fault::Fixed => {
                m.set_status(slot, Stop::Running);
                return Ok(None);
            }
            Fault::NoFrames => {
                let pc = m.pc(slot);
                let frames = m.spaces().frame_counts().0;
                return Ok(Some((
                    SIGKILL,
                    format!("the guest memory pool ({frames} frames of 4 KiB) is spent: no frame for address {addr:#x} (pc {pc:#x}); raise --pool"),
                )));
            }
            Fault::Unmapped | Fault::Denied => {}
        }
    }
    if to_handler(k, m, pid, slot) {
        return Ok(None);
    }
    match fault_outcome(m, slot, Stop::MemFault, None) {
        Outcome::Signaled(sig, msg) => Ok(Some((sig, msg))),
        other => unreachable!("a memory fault ends with a signal, not {other:?}"),
    }
}

/// Queues a memory fault's signal (SIGSEGV with SEGV_MAPERR or SEGV_ACCERR, SIGBUS for a
/// misaligned atomic) for the process's handler, when it has one and is not in a handler
/// already (Linux kills a process whose fault signal is ignored or blocked). True when queued.
fn to_handler(k: &mut Kernel, m: &mut Machine, pid: Pid, slot: usize) -> bool {
    use crate::os::abi::{Siginfo, BUS_ADRALN, SEGV_ACCERR, SEGV_MAPERR, SIG_IGN};
    let addr = m.word64(slot, layout::S_FAULT_ADDR);
    let (sig, code) = match m.st(slot)[layout::S_FAULT_KIND] {
        layout::FAULT_ALIGN => (SIGBUS, BUS_ADRALN),
        _ if m.perm(slot, addr).is_some() => (SIGSEGV, SEGV_ACCERR),
        _ => (SIGSEGV, SEGV_MAPERR),
    };
    if signal::handler(k, pid, sig) <= SIG_IGN || k.procs[&pid].in_handler != 0 {
        return false;
    }
    // A pair whose second access faulted runs again whole after the handler.
    m.st_mut(slot)[layout::S_USTEP] = 0;
    m.set_status(slot, Stop::Running);
    let p = k.proc_mut(pid);
    p.pending.retain(|&s| s != sig);
    p.pending.insert(0, sig);
    p.siginfo.insert(sig, Siginfo::fault(sig, code, addr));
    true
}

/// The report of a fault stop (or the instruction limit).
fn fault_outcome(m: &Machine, i: usize, stop: Stop, limit: Option<u64>) -> Outcome {
    let s = m.st(i);
    let pc = m.word64(i, layout::S_PC);
    let addr = m.word64(i, layout::S_FAULT_ADDR);
    match stop {
        Stop::MemFault if s[layout::S_FAULT_KIND] == layout::FAULT_ALIGN => Outcome::Signaled(
            SIGBUS,
            format!("misaligned atomic access at address {addr:#x} (pc {pc:#x}): bus error"),
        ),
        Stop::MemFault => {
            let kind = if s[layout::S_FAULT_KIND] == layout::FAULT_WRITE {
                "write"
            } else {
                "read"
            };
            let mem = m.cfg.mem_bytes;
            let bottom = loader::process::stack_bottom(mem);
            let guard = bottom - loader::process::stack_guard(mem)..bottom;
            let why = if guard.contains(&addr) {
                ": stack overflow (the guard gap below the stack)"
            } else if m.perm(i, addr).is_some() {
                ": no permission"
            } else {
                ""
            };
            Outcome::Signaled(
                SIGSEGV,
                format!("guest memory fault: {kind} at address {addr:#x} (pc {pc:#x}){why}"),
            )
        }
        Stop::FetchFault if addr & 3 != 0 => {
            Outcome::Signaled(SIGBUS, format!("misaligned pc {addr:#x}: bus error"))
        }
        Stop::FetchFault => Outcome::Signaled(
            SIGSEGV,
            format!("guest memory fault: execute at address {addr:#x} (pc {addr:#x})"),
        ),
        Stop::Illegal => {
            let word = s[layout::S_FAULT_KIND];
            Outcome::Signaled(
                SIGILL,
                format!(
                    "illegal instruction at pc {pc:#x}: word {word:#010x} ({})",
                    isa::describe(word)
                ),
            )
        }
        Stop::Brk => Outcome::Signaled(SIGTRAP, format!("breakpoint (BRK) at pc {pc:#x}")),
        Stop::Limit => Outcome::Limit(format!(
            "instruction limit reached: {} instructions retired (pc {pc:#x}); raise --max-insns",
            limit.unwrap_or(0)
        )),
        other => Outcome::Signaled(
            SIGILL,
            format!("internal error: stop {other:?} is not a fault (pc {pc:#x})"),
        ),
    }
}
