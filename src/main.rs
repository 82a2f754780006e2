//! The `garm` command line, in qemu-user's manner: `garm run [OPTIONS] PROGRAM [ARGS...]`.

use clap::{Parser, Subcommand};
use garm::error::Error;
use garm::gpu::shader::Prelude;
use garm::run::{self, Outcome, RunOptions};
use garm::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "garm",
    version,
    about = "Run AArch64 programs on a GPU (any adapter wgpu reaches; lavapipe without one)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
struct RunArgs {
    /// Run N copies in one dispatch; each sees GARM_INSTANCE=i and GARM_INSTANCES=N.
    #[arg(long, default_value_t = 1)]
    instances: u32,
    /// The cap on each process's memory (e.g. 8M, 64M): its mappings, and separately its heap
    /// (brk). Default 8M. Pages take memory from the pool only when first touched.
    #[arg(long)]
    mem: Option<String>,
    /// Guest memory frames shared by all processes (e.g. 64M, 1G). Default: room for every
    /// process slot's --mem, within what the adapter binds in one buffer.
    #[arg(long, value_name = "SIZE")]
    pool: Option<String>,
    /// Process slots in all: each instance takes one, forks take the rest (default 16).
    #[arg(long)]
    max_procs: Option<u32>,
    /// Mount a host directory into the guest filesystem: HOSTDIR:GUESTDIR[:ro] (repeatable).
    #[arg(long, value_name = "HOSTDIR:GUESTDIR[:ro]")]
    mount: Vec<String>,
    /// Stop an instance after N instructions, counted over its whole process tree (exit 124).
    #[arg(long)]
    max_insns: Option<u64>,
    /// Write an instruction trace of the first instance to FILE: per retired instruction, pid,
    /// pc, word, its encoding group and the registers it changed (single-stepped: slow).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Wait for gdb on 127.0.0.1:PORT (0: a free port, printed) before the first instruction,
    /// as qemu-user's -g: it drives the first instance's process (also env GARM_GDB=PORT).
    #[arg(short = 'g', value_name = "PORT")]
    gdb: Option<u16>,
    /// Lines of --trace at most; then the run goes on at full speed.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    trace_limit: u64,
    /// Let the instances share one machine: pids and signals, /tmp, and the pool of process
    /// slots. By default each instance is its own machine.
    #[arg(long)]
    shared: bool,
    /// Most bytes of file data the guests may keep in garm's memory (/tmp and the rest of garm's
    /// own tree); beyond it writes fail with ENOSPC. Default: a quarter of the host's memory.
    #[arg(long, value_name = "SIZE")]
    fs_limit: Option<String>,
    /// Stop the run after SECONDS of wall-clock time (exit 124); output written so far is out.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Adapter whose name (or backend) contains NAME; also env GARM_ADAPTER. See `garm info`.
    #[arg(long)]
    adapter: Option<String>,
    /// 64-bit representation in the shader: u64 (needs SHADER_INT64) or vec2.
    #[arg(long)]
    prelude: Option<String>,
    /// Log each host-handled syscall to stderr.
    #[arg(long)]
    strace: bool,
    /// Let guests use the host's network: AF_INET/AF_INET6 TCP and UDP sockets become host
    /// sockets (without it, socket() for them fails with EACCES).
    #[arg(long)]
    net: bool,
    /// Execution tiers: interp (the interpreter only), translate (hot loops and functions
    /// translated to WGSL at once, compiled before the next dispatches) or auto (translated on
    /// a worker thread once a program has run a while). Also env GARM_TIER.
    #[arg(long, value_name = "interp|translate|auto")]
    tier: Option<String>,
    /// Build the shader with naga's runtime bounds checks (slower; also env GARM_CHECKED=1).
    #[arg(long)]
    checked: bool,
    /// Print instructions, dispatches, syscall round trips, time split and MIPS to stderr; with
    /// translated code, its regions and the GPU time in each tier (timestamps around each
    /// dispatch, each then in a pass of its own).
    #[arg(long)]
    stats: bool,
    /// For a .c program: the C library it is built against, garm (the runtime), glibc or musl
    /// (static; FP/SIMD instructions garm does not execute yet trap with pc and word).
    #[arg(long, default_value = "garm")]
    libc: garm::toolchain::Libc,
    /// Set a guest environment variable (repeatable).
    #[arg(short = 'E', value_name = "VAR=VALUE")]
    set_env: Vec<String>,
    /// Remove a guest environment variable (repeatable).
    #[arg(short = 'U', value_name = "VAR")]
    unset_env: Vec<String>,
    /// The sysroot of a dynamically linked program (its loader and libraries, seen read-only at
    /// the guest's /lib, /usr, /etc), as qemu-user's -L. Also env GARM_LD_PREFIX; default
    /// /usr/aarch64-linux-gnu where installed.
    #[arg(short = 'L', value_name = "DIR")]
    ld_prefix: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run an AArch64 ELF, or a C file (compiled first), on the GPU.
    Run {
        #[command(flatten)]
        args: Box<RunArgs>,
        /// The program: an AArch64 ELF (static, or dynamically linked with -L) or a .c file.
        program: PathBuf,
        /// Arguments passed to the guest; for a .c program, cc flags (and more sources or
        /// objects) may come first, ended by `--`: `garm run prog.c -O2 -DN=5 util.c -- ARGS`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        guest_args: Vec<String>,
    },
    /// Compile C files with the guest runtime into a static AArch64 ELF.
    Cc {
        /// Sources (`-` reads standard input), objects (.o, .a) and the usual cc flags: -o FILE,
        /// -c, -O*, -g*, -I, -D, -U, -std=, -W*, -f*, -include, -isystem, -MD/-MMD/-MP/-MF/-MT,
        /// -l, -L, -Wl,...;
        /// garm's own: --libc garm|glibc|musl (static; FP/SIMD allowed: what garm does not
        /// execute yet traps with pc and word), --pie (a static PIE: ET_DYN,
        /// no interpreter), --cflag FLAG (any other clang flag), --compiler garm (garm's own
        /// C compiler, guest/cc/cc.c, runs on garm instead of clang: C sources to an
        /// executable, with -o, -I, -D, -U; -O, -g, -W, -f, -std= change nothing for it).
        #[arg(
            allow_hyphen_values = true,
            trailing_var_arg = true,
            value_name = "ARGS"
        )]
        args: Vec<String>,
    },
    /// Bootstrap garm's own C compiler on the GPU: stage 0 built by clang, stage 1 = stage 0
    /// on garm compiling the compiler and the runtime, stage 2 = stage 1 doing it again; exit 0
    /// when stages 1 and 2 are byte-identical (the fixed point).
    Selfhost {
        #[command(flatten)]
        args: Box<RunArgs>,
        /// Keep stage0.elf, stage1.elf and stage2.elf in DIR (default: a temporary directory,
        /// removed at the end).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// List adapters with backend, type, limits and features.
    Info,
    /// Run a C program on the GPU, in the native JIT and under qemu-aarch64; compare them.
    Diff {
        /// Time limit per engine, in seconds.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// Stop the GPU guest after N instructions.
        #[arg(long)]
        max_insns: Option<u64>,
        #[arg(long)]
        adapter: Option<String>,
        /// Leave qemu-aarch64 out.
        #[arg(long)]
        no_qemu: bool,
        /// Run the JIT by linking a shared object and dlopen-ing it (env GARM_JIT=dlopen too).
        #[cfg(feature = "dlopen")]
        #[arg(long)]
        dlopen: bool,
        /// Extra flags for clang (both builds), repeatable.
        #[arg(long = "cflag", allow_hyphen_values = true)]
        cflags: Vec<String>,
        /// The C library: garm (the runtime; three engines), glibc or musl (static; the GPU
        /// against qemu-aarch64, as the JIT runs garm's runtime only).
        #[arg(long, default_value = "garm")]
        libc: garm::toolchain::Libc,
        /// The C program.
        program: PathBuf,
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        guest_args: Vec<String>,
    },
    /// Compile cache: `stats` (entries, hits and misses), `zero` (reset the counts), `clear`.
    Cache {
        #[arg(value_parser = ["stats", "zero", "clear"])]
        action: String,
    },
    /// Benchmark garm against qemu-aarch64 (SHA-256 and sieve, 1 and 64 instances).
    Bench {
        /// `small` for a quick look, `full` for the sizes the reported figures use.
        #[arg(long, default_value = "full")]
        size: String,
        #[arg(long)]
        adapter: Option<String>,
    },
    /// Print the table of A64 encodings garm executes (Markdown).
    Isa,
    /// Differential fuzzing against qemu-aarch64 (see README "Fuzzing").
    Fuzz {
        /// First seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of seeds (seed, seed+1, ...); one ELF each.
        #[arg(long, default_value_t = 1)]
        seeds: u64,
        /// Guests in parallel on garm.
        #[arg(long, default_value_t = 64)]
        instances: u32,
        /// Blocks per guest in one seed.
        #[arg(long, default_value_t = 16)]
        blocks: u32,
        /// Instructions per block.
        #[arg(long, default_value_t = 32)]
        len: u32,
        /// Run only this block of the seed (to reproduce a divergence).
        #[arg(long)]
        block: Option<u64>,
        /// Keep the generated sources and ELFs in this directory.
        #[arg(long)]
        keep: Option<PathBuf>,
        #[arg(long)]
        adapter: Option<String>,
        /// Draw instructions from the Tier-2 classes only (FP/SIMD), around the helpers they need.
        #[arg(long)]
        tier2: bool,
        /// Run the blocks through the translation tier (each translated before the first
        /// dispatch; what the translator does not take runs interpreted). Keep --instances x
        /// --blocks small (say 8 x 4): every block is a region of one pipeline.
        #[arg(long)]
        translate: bool,
    },
    /// Finish a translation tier compile a run left unfinished (started by garm's exit; see
    /// docs/translation-tier.md).
    #[command(hide = true)]
    TierCompile { job: PathBuf },
    /// Fuzz the host's entry points (ELF loader, decoder, syscall handlers) without a GPU.
    #[command(hide = true)]
    Hostfuzz {
        /// loader, decoder, syscalls or all.
        #[arg(long, default_value = "all")]
        target: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Executions per target.
        #[arg(long, default_value_t = 1_000_000)]
        iters: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match real_main(cli) {
        Ok(code) => code as u8,
        Err(e) => {
            garm::elog!("garm: {e}");
            1
        }
    };
    // A translation still compiling on a worker must not delay the exit, and the C library's
    // exit handlers (Mesa's among them) must not run under it.
    // A compile the run handed on goes on in a process of its own, also where the worker has
    // just finished it (its pipeline not swapped in: the plan names it as compiling).
    garm::tier::deferred::spawn_deferred();
    if garm::gpu::machine::tiered::compiling() {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: _exit ends the process at once; everything garm writes is flushed above.
        unsafe { libc::_exit(code as i32) };
    }
    ExitCode::from(code)
}

fn parse_prelude(s: &str) -> Result<Prelude, Error> {
    match s {
        "u64" => Ok(Prelude::U64),
        "vec2" | "vec2<u32>" => Ok(Prelude::Vec2),
        _ => Err(Error::Usage(format!("unknown prelude '{s}' (u64 or vec2)"))),
    }
}

fn options(a: &RunArgs) -> Result<RunOptions, Error> {
    let mut env = run::default_env();
    for u in &a.unset_env {
        env.retain(|e| e.split('=').next() != Some(u.as_str()));
    }
    for s in &a.set_env {
        let name = s.split('=').next().unwrap_or("");
        if !s.contains('=') || name.is_empty() {
            return Err(Error::Usage(format!("-E expects VAR=VALUE, got '{s}'")));
        }
        env.retain(|e| e.split('=').next() != Some(name));
        env.push(s.clone());
    }
    Ok(RunOptions {
        instances: a.instances.max(1),
        max_procs: a.max_procs,
        mounts: a.mount.clone(),
        stdin: None,
        mem: a.mem.as_deref().map(run::parse_size).transpose()?,
        pool: a.pool.as_deref().map(run::parse_size).transpose()?,
        max_insns: a.max_insns,
        adapter: a.adapter.clone(),
        prelude: a.prelude.as_deref().map(parse_prelude).transpose()?,
        strace: a.strace,
        net: a.net,
        checked: a.checked || RunOptions::default().checked,
        fs_limit: a.fs_limit.as_deref().map(run::parse_size).transpose()?,
        shared: a.shared,
        trace: a.trace.clone(),
        trace_limit: a.trace_limit,
        tier_ranges: Vec::new(),
        ld_prefix: a.ld_prefix.clone(),
        time_tiers: a.stats,
        gdb: match (a.gdb, std::env::var("GARM_GDB")) {
            (Some(p), _) => Some(p),
            (None, Ok(v)) if !v.is_empty() => Some(
                v.parse()
                    .map_err(|_| Error::Usage(format!("GARM_GDB={v}: give a port number")))?,
            ),
            _ => None,
        },
        tier: match a.tier.as_deref() {
            Some(t) => t.parse().map_err(Error::Usage)?,
            None => RunOptions::default().tier,
        },
        timeout: match a.timeout {
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
            Some(t) => return Err(Error::Usage(format!("--timeout {t}: give seconds above 0"))),
            None => None,
        },
        env,
    })
}

/// Compiles a .c program into the cache (by content) and returns the ELF path and compile time.
fn compile_c(src: &Path, libc: garm::toolchain::Libc) -> Result<(PathBuf, Duration), Error> {
    let tc = Toolchain::find()?;
    let out = garm::toolchain::scratch_elf(&src.file_stem().unwrap_or_default().to_string_lossy())?;
    let t = match libc {
        garm::toolchain::Libc::Garm => tc.build(&[src.to_path_buf()], &out, &[])?,
        other => tc.build_libc(&[src.to_path_buf()], &out, &[], other)?,
    };
    Ok((out, t))
}

/// [`compile_c`] with cc's flags, sources and objects as `garm cc` takes them.
fn compile_with(
    src: &Path,
    libc: garm::toolchain::Libc,
    flags: &[String],
) -> Result<(PathBuf, Duration), Error> {
    let out = garm::toolchain::scratch_elf(&src.file_stem().unwrap_or_default().to_string_lossy())?;
    let mut args = vec![src.to_string_lossy().into_owned()];
    args.extend(flags.iter().cloned());
    let mut a = garm::toolchain::driver::parse(&args).map_err(Error::Usage)?;
    if a.compile_only || a.output.is_some() || a.garm_compiler {
        return Err(Error::Usage(
            "garm run prog.c FLAGS -- ARGS: -c, -o and --compiler do not apply to a run".into(),
        ));
    }
    if libc != garm::toolchain::Libc::Garm {
        a.libc = libc;
    }
    a.output = Some(out.clone());
    let t = std::time::Instant::now();
    Toolchain::find()?.drive(&a)?;
    Ok((out, t.elapsed()))
}

fn real_main(cli: Cli) -> Result<i32, Error> {
    match cli.cmd {
        Cmd::Diff {
            timeout,
            max_insns,
            adapter,
            no_qemu,
            #[cfg(feature = "dlopen")]
            dlopen,
            cflags,
            libc,
            program,
            guest_args,
        } => {
            #[cfg(not(feature = "dlopen"))]
            let dlopen = false;
            // Every engine gets the same input: all of stdin, or none from a terminal.
            let mut stdin = Vec::new();
            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut stdin);
            }
            let opts = garm::diff::DiffOptions {
                timeout: Duration::from_secs(timeout),
                max_insns,
                adapter,
                no_qemu,
                dlopen,
                cflags,
                libc,
                stdin,
            };
            let engines = garm::diff::run_all(&program, &guest_args, &opts)?;
            let (text, agree) = garm::diff::report(&engines);
            garm::out!("{text}");
            Ok(if agree { 0 } else { 1 })
        }
        Cmd::Cache { action } => {
            let c = garm::toolchain::cache::Cache::open();
            match action.as_str() {
                "stats" => garm::out!("{}", c.stats()),
                "zero" => c.zero().map_err(Error::io(&c.dir))?,
                _ => c.clear().map_err(Error::io(&c.dir))?,
            }
            Ok(0)
        }
        Cmd::Info => {
            garm::out!("{}", garm::gpu::device::describe_adapters());
            Ok(0)
        }
        Cmd::Bench { size, adapter } => {
            garm::bench::bench(size != "small", adapter)?;
            Ok(0)
        }
        Cmd::TierCompile { job } => {
            garm::tier::deferred::run_job(&job, |j| {
                garm::gpu::machine::tiered::compile_detached(j).map_err(|e| e.to_string())
            })
            .map_err(Error::Usage)?;
            Ok(0)
        }
        Cmd::Hostfuzz {
            target,
            seed,
            iters,
        } => garm::hostfuzz::cli(&target, seed, iters),
        Cmd::Isa => {
            garm::out!("{}", garm::isa::table_markdown());
            Ok(0)
        }
        Cmd::Fuzz {
            seed,
            seeds,
            instances,
            blocks,
            len,
            block,
            keep,
            adapter,
            tier2,
            translate,
        } => {
            let cfg = garm::fuzz::FuzzConfig {
                instances,
                blocks_per_instance: blocks,
                block_len: len,
                keep,
                adapter,
                tier2,
                translate,
            };
            garm::fuzz::fuzz_cli(&cfg, seed, seeds, block)
        }
        Cmd::Cc { args } => {
            let a = garm::toolchain::driver::parse(&args).map_err(Error::Usage)?;
            if a.garm_compiler {
                return garm::selfhost::compile(&a, &RunOptions::default());
            }
            Toolchain::find()?.drive(&a)?;
            Ok(0)
        }
        Cmd::Selfhost { args, out } => selfhost(&options(&args)?, out),
        Cmd::Run {
            args,
            program,
            guest_args,
        } => {
            let opts = options(&args)?;
            let is_c = program.extension().is_some_and(|e| e == "c");
            if !is_c && args.libc != garm::toolchain::Libc::Garm {
                return Err(Error::Usage(
                    "garm run: --libc applies to a .c program (an ELF is already linked)".into(),
                ));
            }
            // `garm run prog.c FLAGS... -- ARGS...`: cc's flags (and more sources or objects)
            // before `--`, the guest's arguments after it; without `--` all are the guest's.
            let mut guest_args = guest_args;
            let mut cc_args = Vec::new();
            if is_c {
                if let Some(i) = guest_args.iter().position(|a| a == "--") {
                    cc_args = guest_args.drain(..=i).collect();
                    cc_args.pop();
                }
            }
            let (elf_path, compile_time) = if !cc_args.is_empty() {
                compile_with(&program, args.libc, &cc_args)?
            } else if is_c {
                compile_c(&program, args.libc)?
            } else {
                (program.clone(), Duration::ZERO)
            };
            let elf = garm::loader::read_program(&elf_path).map_err(|source| Error::ProgramFile {
                path: elf_path.clone(),
                source,
            });
            if is_c {
                let _ = std::fs::remove_file(&elf_path);
            }
            let elf = elf?;
            let mut argv = vec![program.to_string_lossy().into_owned()];
            argv.extend(guest_args);
            let name = program.to_string_lossy();
            let prog = garm::api::Program::from_elf(elf, &name);
            let env_adapter = std::env::var("GARM_ADAPTER").ok().filter(|s| !s.is_empty());
            if let Some(list) = spread_adapters(opts.adapter.as_deref().or(env_adapter.as_deref()))?
            {
                return spread(&prog, &argv, opts, &list, args.stats);
            }
            let specs = run::instance_specs(&argv, &opts);
            let config = garm::api::Config::from_options(opts).stream(true);
            let mut runner = garm::api::Runner::with_specs(&prog, &specs, &config)
                .and_then(|mut r| r.run().map(|()| r))
                .map_err(|e| match e {
                    Error::Run(source) => Error::Program {
                        program: program.clone(),
                        source,
                    },
                    e => e,
                })?;
            let rep = runner.report();
            if rep.outcomes.len() > 1 {
                for (i, o) in rep.outcomes.iter().enumerate() {
                    run::report(o, Some(i));
                }
            }
            if args.stats {
                print_stats(rep, compile_time);
            }
            let status = rep
                .outcomes
                .iter()
                .map(Outcome::exit_status)
                .find(|&s| s != 0)
                .unwrap_or(0);
            Ok(status)
        }
    }
}

/// `--adapter all` (every adapter) or a comma-separated list of adapter names or `#N`s: the
/// adapters to spread the instances over; `None` for one adapter.
fn spread_adapters(want: Option<&str>) -> Result<Option<Vec<String>>, Error> {
    let list = match want {
        Some("all") => garm::api::adapters(),
        Some(w) if w.contains(',') => w.split(',').map(|s| s.trim().to_string()).collect(),
        _ => return Ok(None),
    };
    if list.is_empty() {
        return Err(Error::Gpu(garm::gpu::GpuError::NoAdapter));
    }
    Ok(Some(list))
}

/// A run spread over several adapters: each runs its block of instances at the same time, and
/// the output is printed at the end in instance order (`[i] ` before each line).
fn spread(
    prog: &garm::api::Program,
    argv: &[String],
    mut opts: RunOptions,
    adapters: &[String],
    stats: bool,
) -> Result<i32, Error> {
    if opts.gdb.is_some() || opts.trace.is_some() {
        return Err(Error::Usage(
            "-g and --trace follow one process: use them with one adapter, not --adapter all"
                .into(),
        ));
    }
    // All copies read the same standard input: all of it, unless it is a terminal.
    if opts.stdin.is_none() {
        let mut data = Vec::new();
        if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut data);
        }
        opts.stdin = Some(data);
    }
    let specs = run::instance_specs(argv, &opts);
    let config = garm::api::Config::from_options(opts);
    let (results, runs) = garm::api::run_spread(prog, &specs, &config, adapters)?;
    let many = results.len() > 1;
    for (i, r) in results.iter().enumerate() {
        for (bytes, err) in [(&r.stdout, false), (&r.stderr, true)] {
            let mut text = Vec::new();
            for line in bytes.split_inclusive(|&b| b == b'\n') {
                if many {
                    text.extend_from_slice(format!("[{i}] ").as_bytes());
                }
                text.extend_from_slice(line);
            }
            let _ = if err {
                std::io::Write::write_all(&mut std::io::stderr(), &text)
            } else {
                std::io::Write::write_all(&mut std::io::stdout(), &text)
            };
        }
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    for (i, r) in results.iter().enumerate() {
        run::report(&r.outcome, many.then_some(i));
    }
    if stats {
        for r in &runs {
            let insns: u64 = results[r.instances.clone()]
                .iter()
                .map(|x| x.instructions)
                .sum();
            garm::elog!(
                "garm: stats: adapter {}: instances {}..{}, {insns} instructions in {:.3} s",
                r.adapter,
                r.instances.start,
                r.instances.end,
                r.wall.as_secs_f64()
            );
        }
    }
    Ok(results
        .iter()
        .map(|r| r.exit_status())
        .find(|&s| s != 0)
        .unwrap_or(0))
}

/// `garm selfhost`: the bootstrap, a line per stage as it ends, then the verdict.
fn selfhost(opts: &RunOptions, keep: Option<PathBuf>) -> Result<i32, Error> {
    let dir = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("garm-selfhost-{}", std::process::id()))
    });
    garm::elog!(
        "garm selfhost: {} and {} runtime files, tier {:?}",
        garm::selfhost::COMPILER.join(" + "),
        garm::selfhost::runtime_sources().len(),
        opts.tier
    );
    garm::elog!(
        "{:<8} {:<16} {:>14} {:>10} {:>12}  sha256 (bytes)",
        "stage",
        "built by",
        "instructions",
        "wall",
        "round trips"
    );
    let stages = garm::selfhost::bootstrap(&dir, opts, |s| {
        let dash = || "-".to_string();
        garm::elog!(
            "{:<8} {:<16} {:>14} {:>9.2}s {:>12}  {} ({})",
            s.name,
            s.by,
            s.instructions.map_or_else(dash, |n| n.to_string()),
            s.wall.as_secs_f64(),
            s.round_trips.map_or_else(dash, |n| n.to_string()),
            s.sha256,
            s.bytes
        );
    });
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let stages = stages?;
    if stages[1].sha256 == stages[2].sha256 {
        garm::elog!("garm selfhost: fixed point: stage 1 and stage 2 are byte-identical");
        Ok(0)
    } else {
        garm::elog!("garm selfhost: no fixed point: stage 1 and stage 2 differ");
        Ok(1)
    }
}

fn print_stats(rep: &run::RunReport, compile: Duration) {
    let insns: u64 = rep.instructions.iter().sum();
    let exec = rep.exec_time.as_secs_f64();
    let s = &rep.stats;
    garm::elog!(
        "garm: stats: adapter {}, prelude {}, {} instance(s), {} KiB each",
        rep.adapter,
        rep.prelude.name(),
        rep.outcomes.len(),
        rep.mem >> 10
    );
    garm::elog!(
        "garm: stats: {insns} instructions retired, {} dispatches in {} submits, {} host syscall round trips, {} stops for code not decoded yet ({} pages decoded)",
        s.dispatches, s.submits, rep.host_syscalls, s.code_stops, s.pages_decoded
    );
    let host = exec - s.gpu_time.as_secs_f64() - s.readback_time.as_secs_f64();
    garm::elog!(
        "garm: stats: time compile {:.3} s, pipeline {:.3} s, execution {:.3} s (gpu wait {:.3} s, readback {:.3} s, host {:.3} s)",
        compile.as_secs_f64(),
        s.pipeline_time.as_secs_f64(),
        exec,
        s.gpu_time.as_secs_f64(),
        s.readback_time.as_secs_f64(),
        host.max(0.0)
    );
    garm::elog!(
        "garm: stats: {:.2} guest MIPS",
        insns as f64 / exec.max(1e-9) / 1e6
    );
    garm::elog!(
        "garm: stats: guest memory frames (4 KiB): {} in use at the peak, of a pool of {}; {} shared at the end, {} copied on write; {} zero-page faults",
        s.frames_peak,
        s.frames_total,
        s.frames_shared,
        s.cow_copies,
        s.zero_faults
    );
    if rep.forks > 0 {
        garm::elog!(
            "garm: stats: {} forks in {:.3} ms",
            rep.forks,
            rep.fork_time.as_secs_f64() * 1e3
        );
    }
    if rep.threads > 0 {
        garm::elog!("garm: stats: {} threads created", rep.threads);
    }
    if s.samples > 0 {
        let hot: Vec<String> = s
            .hot
            .iter()
            .map(|(a, n)| format!("{a:#x} {:.0}%", *n as f64 * 100.0 / s.weight.max(1) as f64))
            .collect();
        garm::elog!(
            "garm: stats: hottest code (64-byte windows, by {} pc samples at dispatch ends): {}",
            s.samples,
            hot.join(", ")
        );
        let regions: Vec<String> = s
            .regions
            .iter()
            .map(|r| {
                format!(
                    "{:#x}..{:#x} ({} instructions) {:.0}%",
                    r.start,
                    r.end,
                    r.instructions(),
                    r.samples as f64 * 100.0 / s.weight.max(1) as f64
                )
            })
            .collect();
        if !regions.is_empty() {
            garm::elog!(
                "garm: stats: hottest regions (loops and functions, for the translation tier): {}",
                regions.join(", ")
            );
        }
    }
    if s.tier_translated > 0 || s.tier_failed > 0 || s.tier_refused > 0 {
        let total = insns;
        let running: Vec<String> = s
            .tier_regions
            .iter()
            .map(|(a, b, n)| format!("{a:#x}..{b:#x} ({n} of {} translated)", (b - a) / 4))
            .collect();
        garm::elog!(
            "garm: stats: translation tier: {} regions translated ({}{} refused: an instruction left to the interpreter), {} pipelines swapped in{}, {} failed to compile{}; compile {:.3} s {}; {} instructions ({:.1}%) in translated code{}; running at the end: {}",
            s.tier_translated,
            if s.tier_saved > 0 {
                format!("{} from the plan an earlier run saved, ", s.tier_saved)
            } else {
                String::new()
            },
            s.tier_refused,
            s.tier_swaps,
            s.tier_first
                .map(|d| format!(" (the first {:.2} s after the start)", d.as_secs_f64()))
                .unwrap_or_default(),
            s.tier_failed,
            [
                (s.tier_dropped, "dropped"),
                (s.tier_weighed_out, "weighed in the interpreter and not compiled")
            ]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!(
                ", {n} {what} (too few instructions per entry to pay for its dispatches)"
            ))
            .collect::<String>(),
            s.tier_compile.as_secs_f64(),
            if s.tier_sync {
                "(with each set's first submit, the guests waiting: translate mode)"
            } else {
                "on the worker"
            },
            s.tier_insns,
            100.0 * s.tier_insns as f64 / total.max(1) as f64,
            if s.timed {
                // The timed submits' split, applied to the whole run's GPU time.
                let (i, t) = (s.interp_gpu.as_secs_f64(), s.tier_gpu.as_secs_f64());
                let share = t / (i + t).max(1e-9);
                let all = s.gpu_time.as_secs_f64();
                format!(
                    "; GPU time {:.3} s in the interpreter, {:.3} s in translated code (split as in the submits timed, one in {})",
                    all * (1.0 - share),
                    all * share,
                    garm::gpu::machine::TIMING_EVERY
                )
            } else {
                String::new()
            },
            if running.is_empty() { "none".to_string() } else { running.join(", ") }
        );
    }
    // The peak of garm's own resident memory (the whole process: GPU driver included).
    if let Some(hwm) = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|st| {
            let l = st.lines().find(|l| l.starts_with("VmHWM:"))?;
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
    {
        garm::elog!(
            "garm: stats: peak host memory {} MiB, guest files {} MiB of --fs-limit {} MiB",
            hwm >> 10,
            rep.fs_used >> 20,
            rep.fs_limit >> 20
        );
    }
}
