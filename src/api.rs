//! Embedding garm: load an AArch64 program (an ELF, or C sources built with garm's toolchain),
//! give each instance its own arguments, environment and standard input, run them all on the GPU
//! to the end or for a budget of instructions, and collect each instance's output, exit and
//! instruction count; between steps, registers and memory can be read. `garm run` drives the
//! same [`Runner`].
//!
//! ```no_run
//! use garm::api::{Config, Instance, Program, Runner};
//! let prog = Program::build_c(&["square.c".as_ref()], &[])?;
//! let instances: Vec<Instance> = (0..256)
//!     .map(|i| Instance::new(&["square", &i.to_string()]))
//!     .collect();
//! let mut run = Runner::new(&prog, &instances, &Config::default())?;
//! run.run()?;
//! for (i, r) in run.results().iter().enumerate() {
//!     println!("{i}: exit {} after {} instructions: {}", r.exit_status(), r.instructions,
//!              String::from_utf8_lossy(&r.stdout));
//! }
//! # Ok::<(), garm::api::Error>(())
//! ```
#![deny(missing_docs)]

use crate::guest::Guest;
use crate::run::{InstanceSpec, RunOptions, RunReport, Session};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use crate::run::Outcome;
pub use crate::tier::Mode as Tier;

/// What can go wrong for an embedder: garm's own failures (never a guest's fault, which is an
/// instance's [`Outcome`]).
pub type Error = crate::error::Error;

/// A guest program: the bytes of a static (or, with [`Config::sysroot`], dynamically linked)
/// AArch64 Linux ELF.
#[derive(Clone)]
pub struct Program {
    elf: Rc<Vec<u8>>,
    name: String,
}

impl Program {
    /// The program in `bytes`; `name` is its `argv[0]` where an instance gives none.
    pub fn from_elf(bytes: Vec<u8>, name: &str) -> Program {
        Program {
            elf: Rc::new(bytes),
            name: name.to_string(),
        }
    }

    /// Reads the ELF at `path`.
    pub fn load(path: &Path) -> Result<Program, Error> {
        let elf = crate::loader::read_program(path).map_err(|source| Error::ProgramFile {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Program::from_elf(elf, &path.to_string_lossy()))
    }

    /// Builds C `sources` against garm's runtime (clang and ld.lld, as `garm cc`; `cflags` go
    /// to clang) and loads the result. Builds are cached by content.
    pub fn build_c(sources: &[&Path], cflags: &[&str]) -> Result<Program, Error> {
        let tc = crate::toolchain::Toolchain::find()?;
        let stem = sources
            .first()
            .and_then(|s| s.file_stem())
            .map_or("program".into(), |s| s.to_string_lossy().into_owned());
        let out = crate::toolchain::scratch_elf(&stem)?;
        let srcs: Vec<PathBuf> = sources.iter().map(|s| s.to_path_buf()).collect();
        let flags: Vec<String> = cflags.iter().map(|s| s.to_string()).collect();
        tc.build(&srcs, &out, &flags)?;
        let p = Program::load(&out);
        let _ = std::fs::remove_file(&out);
        Ok(Program { name: stem, ..p? })
    }

    /// The ELF's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.elf
    }
}

/// One instance: its command line, environment and standard input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Instance {
    /// `argv`, the program's name first (empty: the program's name alone).
    pub argv: Vec<String>,
    /// Environment strings `NAME=VALUE`; `None`: garm's default guest environment.
    pub env: Option<Vec<String>>,
    /// Standard input, in full; `None`: empty.
    pub stdin: Option<Vec<u8>>,
}

impl Instance {
    /// An instance running with `argv`.
    pub fn new(argv: &[&str]) -> Instance {
        Instance {
            argv: argv.iter().map(|s| s.to_string()).collect(),
            ..Instance::default()
        }
    }

    /// The same, with `bytes` as its standard input.
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Instance {
        self.stdin = Some(bytes.into());
        self
    }

    /// The same, with the variable `NAME=VALUE` set in its environment.
    pub fn env(mut self, var: &str) -> Instance {
        let name = var.split('=').next().unwrap_or("");
        let mut env = self.env.take().unwrap_or_else(crate::run::default_env);
        env.retain(|e| e.split('=').next() != Some(name));
        env.push(var.to_string());
        self.env = Some(env);
        self
    }
}

/// How the instances run: the machine's memory and limits, tiers, adapter. `Default` is what
/// `garm run` uses without options.
#[derive(Clone, Debug, Default)]
pub struct Config {
    opts: RunOptions,
    stream: bool,
}

impl Config {
    /// The cap on each process's memory in bytes (`--mem`; default 8 MiB).
    pub fn mem(mut self, bytes: u64) -> Config {
        self.opts.mem = Some(bytes);
        self
    }

    /// Bytes of guest memory frames shared by every process (`--pool`).
    pub fn pool(mut self, bytes: u64) -> Config {
        self.opts.pool = Some(bytes);
        self
    }

    /// Process slots in all (`--max-procs`), at least one per instance.
    pub fn max_procs(mut self, slots: u32) -> Config {
        self.opts.max_procs = Some(slots);
        self
    }

    /// Ends an instance's process tree after `n` instructions (`--max-insns`): its outcome is
    /// [`Outcome::Limit`].
    pub fn max_insns(mut self, n: u64) -> Config {
        self.opts.max_insns = Some(n);
        self
    }

    /// Ends the run after this much wall-clock time (`--timeout`).
    pub fn timeout(mut self, t: std::time::Duration) -> Config {
        self.opts.timeout = Some(t);
        self
    }

    /// The adapter whose name or backend contains `name` (`--adapter`).
    pub fn adapter(mut self, name: &str) -> Config {
        self.opts.adapter = Some(name.to_string());
        self
    }

    /// The execution tiers (`--tier`).
    pub fn tier(mut self, t: Tier) -> Config {
        self.opts.tier = t;
        self
    }

    /// Mounts host directory `host` at `guest` in garm's filesystem (`--mount`), read-only if
    /// `ro`.
    pub fn mount(mut self, host: &Path, guest: &str, ro: bool) -> Config {
        let ro = if ro { ":ro" } else { "" };
        self.opts
            .mounts
            .push(format!("{}:{guest}{ro}", host.display()));
        self
    }

    /// Lets the instances share one machine (`--shared`: pids, signals, `/tmp`).
    pub fn shared(mut self, yes: bool) -> Config {
        self.opts.shared = yes;
        self
    }

    /// The sysroot of a dynamically linked program (`-L`).
    pub fn sysroot(mut self, dir: &Path) -> Config {
        self.opts.ld_prefix = Some(dir.to_path_buf());
        self
    }

    /// Logs host-handled syscalls on stderr (`--strace`).
    pub fn strace(mut self, yes: bool) -> Config {
        self.opts.strace = yes;
        self
    }

    /// Sends output to the host's stdout and stderr as it is written (as `garm run` does)
    /// instead of keeping it for [`Runner::results`].
    pub fn stream(mut self, yes: bool) -> Config {
        self.stream = yes;
        self
    }

    /// All of `garm run`'s options at once.
    pub fn from_options(opts: RunOptions) -> Config {
        Config {
            opts,
            stream: false,
        }
    }
}

/// The general registers of an instance's process at a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registers {
    /// x0 to x30.
    pub x: [u64; 31],
    /// The stack pointer.
    pub sp: u64,
    /// The program counter.
    pub pc: u64,
    /// The condition flags N, Z, C, V in bits 3..0.
    pub nzcv: u32,
}

/// What one instance did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceResult {
    /// How it ended.
    pub outcome: Outcome,
    /// Instructions retired by its whole process tree.
    pub instructions: u64,
    /// What it wrote to fd 1 (empty when the run streamed it; at most 64 MiB kept).
    pub stdout: Vec<u8>,
    /// What it wrote to fd 2.
    pub stderr: Vec<u8>,
}

impl InstanceResult {
    /// The exit status a shell would show (128 + signal for a fault, 124 at a limit).
    pub fn exit_status(&self) -> i32 {
        self.outcome.exit_status()
    }
}

/// A run of a program's instances on one GPU.
pub struct Runner {
    /// `None` once the run is ended and reported.
    session: Option<Session>,
    report: Option<RunReport>,
}

impl Runner {
    #[cfg(not(target_arch = "wasm32"))]
    /// Loads `program` once per instance (nothing runs yet).
    pub fn new(
        program: &Program,
        instances: &[Instance],
        config: &Config,
    ) -> Result<Runner, Error> {
        Runner::with_specs(program, &Runner::specs(program, instances, config), config)
    }

    /// [`Runner::new`] on a device opened already: a browser opens one only asynchronously
    /// ([`crate::gpu::device::Gpu::open_async`]).
    pub fn on_gpu(
        gpu: crate::gpu::device::Gpu,
        program: &Program,
        instances: &[Instance],
        config: &Config,
    ) -> Result<Runner, Error> {
        let specs = Runner::specs(program, instances, config);
        Runner::start(Some(gpu), program, &specs, config)
    }

    /// [`Runner::with_specs`] on a device opened already (as [`Runner::on_gpu`]).
    pub fn with_specs_on(
        gpu: crate::gpu::device::Gpu,
        program: &Program,
        specs: &[InstanceSpec],
        config: &Config,
    ) -> Result<Runner, Error> {
        Runner::start(Some(gpu), program, specs, config)
    }

    fn specs(program: &Program, instances: &[Instance], config: &Config) -> Vec<InstanceSpec> {
        instances
            .iter()
            .map(|i| InstanceSpec {
                argv: if i.argv.is_empty() {
                    vec![program.name.clone()]
                } else {
                    i.argv.clone()
                },
                env: i.env.clone().unwrap_or_else(|| config.opts.env.clone()),
                stdin: i.stdin.clone(),
            })
            .collect()
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// [`Runner::new`] from the run loop's own instance records.
    pub fn with_specs(
        program: &Program,
        specs: &[InstanceSpec],
        config: &Config,
    ) -> Result<Runner, Error> {
        Runner::start(None, program, specs, config)
    }

    fn start(
        gpu: Option<crate::gpu::device::Gpu>,
        program: &Program,
        specs: &[InstanceSpec],
        config: &Config,
    ) -> Result<Runner, Error> {
        if specs.is_empty() {
            return Err(Error::Usage("a run needs at least one instance".into()));
        }
        let (elf, opts) = (program.elf.clone(), &config.opts);
        let session = match gpu {
            Some(gpu) => Session::start_on(gpu, elf, specs, opts, config.stream)?,
            #[cfg(not(target_arch = "wasm32"))]
            None => Session::start(elf, specs, opts, config.stream)?,
            #[cfg(target_arch = "wasm32")]
            None => unreachable!("a browser opens its device first (Runner::on_gpu)"),
        };
        Ok(Runner {
            session: Some(session),
            report: None,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Runs every instance to its end.
    pub fn run(&mut self) -> Result<(), Error> {
        while !self.step()? {}
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// One submit to the GPU and the host work it leaves. True when every instance has ended.
    pub fn step(&mut self) -> Result<bool, Error> {
        match self.session.as_mut() {
            Some(s) => Ok(s.step()?),
            None => Ok(true),
        }
    }

    /// [`Runner::step`] where the device cannot be waited for (a browser): await it.
    pub async fn step_async(&mut self) -> Result<bool, Error> {
        match self.session.as_mut() {
            Some(s) => Ok(s.step_async().await?),
            None => Ok(true),
        }
    }

    /// How instance `i` ended, once it has (while the run goes on for others).
    pub fn outcome(&self, i: usize) -> Option<Outcome> {
        self.session.as_ref()?.outcome(i).cloned()
    }

    /// Instance `i`'s output so far, as (fd, bytes) chunks from the `from`-th on (with
    /// [`Config::stream`] off): a caller showing output as it arrives counts what it has shown.
    /// Empty once the run is reported.
    pub fn output_chunks(&self, i: usize, from: usize) -> &[(u32, Vec<u8>)] {
        match &self.session {
            Some(s) => s.out.chunks(i, from),
            None => &[],
        }
    }

    /// The regular files the guests made in garm's in-memory filesystem (path, bytes), while
    /// the run is not yet reported: what an embedder without host mounts (a web page) hands
    /// back to its user.
    pub fn files_written(&self) -> Vec<(String, Vec<u8>)> {
        let Some(s) = &self.session else {
            return Vec::new();
        };
        let v = &s.k.vfs;
        (s.first_guest_ino..v.inodes.len())
            .filter_map(|i| match &v.inodes[i].node {
                crate::os::vfs::Node::File(b) if !v.inodes[i].freed => {
                    Some((v.path_of(i), b.to_vec()))
                }
                _ => None,
            })
            .collect()
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Runs until the instances together have retired at least `n` more instructions (checked
    /// between submits, so it overshoots by up to one submit's work) or all have ended. True when
    /// all have ended.
    pub fn run_for(&mut self, n: u64) -> Result<bool, Error> {
        let target = self.retired().saturating_add(n);
        loop {
            if self.step()? {
                return Ok(true);
            }
            if self.retired() >= target {
                return Ok(false);
            }
        }
    }

    /// Whether every instance has ended.
    pub fn finished(&self) -> bool {
        self.session.as_ref().is_none_or(|s| s.finished())
    }

    /// Instructions retired so far by all instances.
    pub fn retired(&self) -> u64 {
        match (&self.session, &self.report) {
            (Some(s), _) => s.k.executed.iter().sum(),
            (None, Some(r)) => r.instructions.iter().sum(),
            (None, None) => 0,
        }
    }

    /// Instructions retired so far by instance `i`'s process tree.
    pub fn instructions(&self, i: usize) -> u64 {
        match (&self.session, &self.report) {
            (Some(s), _) => s.k.executed.get(i).copied().unwrap_or(0),
            (None, Some(r)) => r.instructions.get(i).copied().unwrap_or(0),
            (None, None) => 0,
        }
    }

    /// The registers of instance `i`'s first process: live between steps, and as it left them
    /// once it has ended (at a fault: the faulting instruction's pc); `None` after
    /// [`Runner::results`].
    pub fn registers(&self, i: usize) -> Option<Registers> {
        let s = self.session.as_ref()?;
        let m = &s.m;
        let slot = s.root_slot(i)?;
        Some(Registers {
            x: std::array::from_fn(|r| m.reg(slot, r)),
            sp: m.reg(slot, 31),
            pc: m.pc(slot),
            nzcv: m.st(slot)[crate::gpu::layout::S_NZCV],
        })
    }

    /// `len` bytes at `addr` in instance `i`'s first process, while it lives.
    pub fn read_memory(&mut self, i: usize, addr: u64, len: usize) -> Option<Vec<u8>> {
        let s = self.session.as_mut()?;
        let slot = s.live_root_slot(i)?;
        let m = &mut s.m;
        if !m.in_bounds(slot, addr, len) {
            return None;
        }
        Guest::read_mem(m, slot, addr, len).ok()
    }

    /// Ends the run (what still runs is stopped) and gives each instance's result.
    pub fn results(&mut self) -> Vec<InstanceResult> {
        let rep = self.report();
        rep.outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| InstanceResult {
                outcome: o.clone(),
                instructions: rep.instructions.get(i).copied().unwrap_or(0),
                stdout: rep.output.bytes(i, 1),
                stderr: rep.output.bytes(i, 2),
            })
            .collect()
    }

    /// The whole report (`--stats`' figures); ends the run as [`Runner::results`] does.
    pub fn report(&mut self) -> &RunReport {
        if let Some(mut s) = self.session.take() {
            s.stop_all();
            self.report = Some(s.finish());
        }
        self.report.as_ref().expect("a session or its report")
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Adapter selectors for [`Config::adapter`] and [`run_spread`], one per adapter garm sees, in
/// `garm info`'s order: `#0`, `#1`, ...
pub fn adapters() -> Vec<String> {
    (0..crate::gpu::device::adapter_count())
        .map(|i| format!("#{i}"))
        .collect()
}

/// One adapter's part of a [`run_spread`].
#[derive(Clone, Debug)]
pub struct SpreadRun {
    /// The adapter's name and backend, as the run opened it.
    pub adapter: String,
    /// The instances it ran (their places in the whole list).
    pub instances: std::ops::Range<usize>,
    /// The wall-clock time of its run.
    pub wall: std::time::Duration,
}

#[cfg(not(target_arch = "wasm32"))]
/// Runs `instances` spread over `adapters` (contiguous blocks, one run per adapter on a thread
/// of its own, all at once) and gives the results in instance order, with what each adapter
/// ran. Each run's instances are numbered as in one run of them all (GARM_INSTANCE is the
/// instance's place in `instances` when the specs come from [`crate::run::instance_specs`]).
/// Output is kept, not streamed.
pub fn run_spread(
    program: &Program,
    instances: &[InstanceSpec],
    config: &Config,
    adapters: &[String],
) -> Result<(Vec<InstanceResult>, Vec<SpreadRun>), Error> {
    let parts = adapters.len().clamp(1, instances.len().max(1));
    let n = instances.len();
    let ranges: Vec<std::ops::Range<usize>> = (0..parts)
        .map(|j| j * n / parts..(j + 1) * n / parts)
        .collect();
    let bytes = program.elf.as_ref().clone();
    let name = program.name.clone();
    type Part = Result<(Vec<InstanceResult>, SpreadRun), String>;
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .iter()
            .zip(adapters)
            .map(|(range, adapter)| {
                let block = &instances[range.clone()];
                let mut config = config.clone().stream(false);
                config.opts.adapter = Some(adapter.clone());
                // The runs share out the process slots asked for, at least one per instance.
                config.opts.max_procs = config
                    .opts
                    .max_procs
                    .map(|p| (p as usize * block.len() / n.max(1)).max(block.len()) as u32);
                let (bytes, name) = (bytes.clone(), name.clone());
                scope.spawn(move || {
                    let t = web_time::Instant::now();
                    let prog = Program::from_elf(bytes, &name);
                    let fail = |e: Error| format!("adapter {adapter}: {e}");
                    let mut r = Runner::with_specs(&prog, block, &config).map_err(fail)?;
                    r.run().map_err(fail)?;
                    let results = r.results();
                    let rep = r.report();
                    let run = SpreadRun {
                        adapter: format!("{}, prelude {}", rep.adapter, rep.prelude.name()),
                        instances: range.clone(),
                        wall: t.elapsed(),
                    };
                    Ok((results, run))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a run's thread panicked".into()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(n);
    let mut runs = Vec::new();
    for p in parts {
        let (results, run) = p.map_err(|detail| Error::EngineFailed {
            engine: "garm",
            program: name.clone(),
            detail,
        })?;
        all.extend(results);
        runs.push(run);
    }
    Ok((all, runs))
}
