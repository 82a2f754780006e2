//! The guest toolchain: finds clang and ld.lld, builds the embedded guest runtime once per
//! (runtime, flags, compiler) into the cache, and compiles C programs into static AArch64 ELFs
//! (and host objects for the native JIT oracle), every compile and link through [`cache`].
//!
//! Programs link as static non-PIE executables (ET_EXEC at 0x10000, `linker/garm.ld`) by default,
//! or as static PIEs ([`Toolchain::build_with`] with `pie`, `garm cc --pie`): ET_DYN linked at 0
//! (`linker/garm-pie.ld`) with a `-fPIE` build of the runtime that relocates itself at start-up.

pub mod cache;
pub mod driver;

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));

/// The C dialect both builds of a guest program share, so the GPU and the native JIT oracle
/// compile the same program: freestanding, signed char, and no FP contraction (a*b+c rounds
/// twice on both ISAs, so float programs compute the same bits natively). No SIMD from the
/// autovectoriser: a vector loop brings in garm's VEC unit, which slows every other instruction
/// more than the lanes save (sha256 bench: 3.9 MIPS scalar, 2.1 vectorised). Vector width 1
/// rather than `-fno-vectorize` keeps the loop vectoriser's scalar interleaving, as
/// `-mgeneral-regs-only` did (sieve: 6.58 M instructions both ways, 7.65 M with the pass off).
const DIALECT: &[&str] = &[
    "-ffreestanding",
    "-nostdlib",
    "-O2",
    "-mllvm",
    "-force-vector-width=1",
    "-fno-slp-vectorize",
    "-ffunction-sections",
    "-fdata-sections",
    "-fno-asynchronous-unwind-tables",
    "-fno-unwind-tables",
    "-fsigned-char",
    "-ffp-contract=off",
];
/// The host's own architecture, so the native JIT's objects run on it (the in-memory loader takes
/// x86_64 only; the `dlopen` fallback takes either).
#[cfg(target_arch = "aarch64")]
const HOST_TARGET: &str = "--target=aarch64-unknown-none-elf";
#[cfg(not(target_arch = "aarch64"))]
const HOST_TARGET: &str = "--target=x86_64-unknown-none-elf";

/// Flags for every guest C file (see guest/build.sh): the dialect for bare AArch64.
pub fn cflags() -> Vec<&'static str> {
    std::iter::once("--target=aarch64-none-elf")
        .chain(DIALECT.iter().copied())
        .collect()
}

/// Flags for the host build of a guest program, loaded by the native JIT oracle
/// ([`crate::jit`]): the same dialect for the host, position independent so it runs wherever the
/// loader maps it, and `GARM_HOST` so the runtime routes syscalls through the table the JIT
/// passes in.
pub fn host_cflags() -> Vec<&'static str> {
    [HOST_TARGET, "-fPIE"]
        .into_iter()
        .chain(DIALECT.iter().copied())
        .chain(["-fno-stack-protector", "-fno-ident", "-DGARM_HOST"])
        .collect()
}

/// The runtime files that use floating point (formatting, conversion, libm). The rest of the
/// runtime is built `-mgeneral-regs-only` for AArch64, so an integer program's calls into it
/// (memcpy, malloc, stdio) never bring in garm's FP/SIMD units.
pub const RUNTIME_FP_DIR: &str = "guest/rt/fp/";

/// Whether LLVM IR text has a floating-point or vector type outside its strings, comments and
/// metadata, or defines a variadic function: then the C uses FP/SIMD registers (arguments,
/// arithmetic, intrinsics, the variadic register save area).
fn ir_uses_fp(ir: &str) -> bool {
    const FP_TYPES: &[&str] = &["half", "bfloat", "float", "double", "fp128", "x86_fp80"];
    // A variadic function's prologue must save q0-q7 for the doubles its callers (other files)
    // may pass, so defining one needs FP too.
    if ir.contains("@llvm.va_start") {
        return true;
    }
    ir.lines()
        .filter(|l| !l.starts_with(['!', ';']) && !l.starts_with("attributes"))
        .any(|line| {
            // Drop quoted text ("...", c"..."): names and string constants are not types;
            // and a `;` outside quotes starts a comment.
            let mut code = String::with_capacity(line.len());
            let mut quoted = false;
            for ch in line.chars() {
                match ch {
                    '"' => quoted = !quoted,
                    ';' if !quoted => break,
                    _ if !quoted => code.push(ch),
                    _ => {}
                }
            }
            let fp = code
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .any(|w| FP_TYPES.contains(&w));
            // Vector types are `<N x T>` (arrays, `[N x T]`, are fine).
            let vector = code.split('<').skip(1).any(|rest| {
                let digits =
                    rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                digits > 0 && rest[digits..].starts_with(" x ")
            });
            fp || vector
        })
}

pub const LDFLAGS: &[&str] = &["-static", "-z", "max-page-size=4096", "--gc-sections"];
/// Added to [`cflags`] for a static-PIE build (program and runtime).
pub const PIE_CFLAGS: &[&str] = &["-fPIE"];
/// Linker flags for a static PIE: ET_DYN with no PT_INTERP (nothing but the program itself to
/// load), relocations left in `.rela.dyn` for the runtime to apply. `-z norelro`: garm's script
/// names its segments and has no PT_GNU_RELRO (the runtime writes the GOT after start-up anyway).
pub const PIE_LDFLAGS: &[&str] = &[
    "-static",
    "-pie",
    "--no-dynamic-linker",
    "-z",
    "max-page-size=4096",
    "--gc-sections",
    "-z",
    "norelro",
];

/// Lowercase hex of a SHA-256 digest.
pub fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where garm keeps its caches: `$XDG_CACHE_HOME/garm`, else `~/.cache/garm`.
/// A fresh path for an ELF built only to be run (`garm run prog.c`, the library API's
/// `Program::build_c`): in the cache's `bin`, unique in this process (the caller removes it).
pub fn scratch_elf(stem: &str) -> Result<PathBuf, ToolchainError> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = cache_dir().join("bin");
    std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(dir.join(format!("{stem}-{}-{n}.elf", std::process::id())))
}

pub fn cache_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return PathBuf::from(x).join("garm");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
    PathBuf::from(home).join(".cache").join("garm")
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn find(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|n| on_path(n))
}

/// Why a guest program could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ToolchainError {
    #[error("{tool} not found on PATH: garm needs {tool} to {purpose} (Debian: apt-get install {package})")]
    Missing {
        tool: &'static str,
        purpose: &'static str,
        package: &'static str,
    },
    #[error("cannot run {what}: {source}")]
    Spawn {
        what: String,
        source: std::io::Error,
    },
    /// The compiler or linker ran and refused; `output` is what it said.
    #[error("{what} failed:\n{output}")]
    Failed { what: String, output: String },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: no such file", .0.display())]
    NoSource(PathBuf),
    #[error("cannot install the runtime into {}", .0.display())]
    Install(PathBuf),
}

/// Which C library a guest program is built against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Libc {
    /// garm's own freestanding runtime (the default): integer only, runs on garm today.
    #[default]
    Garm,
    /// AArch64 glibc, static (the cross libraries scripts/deps.sh installs).
    Glibc,
    /// AArch64 musl, static (Debian's musl-dev:arm64, fetched by scripts/sysroot.sh).
    Musl,
}

impl std::str::FromStr for Libc {
    type Err = String;
    fn from_str(s: &str) -> Result<Libc, String> {
        match s {
            "garm" => Ok(Libc::Garm),
            "glibc" => Ok(Libc::Glibc),
            "musl" => Ok(Libc::Musl),
            _ => Err(format!("unknown libc '{s}' (garm, glibc or musl)")),
        }
    }
}

/// The arm64 sysroot scripts/sysroot.sh fills: $GARM_SYSROOT, else the cache's.
pub fn arm64_sysroot() -> PathBuf {
    std::env::var_os("GARM_SYSROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .unwrap_or_else(|| PathBuf::from("/tmp"))
                .join("garm/sysroot-arm64")
        })
}

/// Wraps a host I/O error with the path it concerns.
pub(crate) fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> ToolchainError + '_ {
    move |source| ToolchainError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The located compiler and linker.
pub struct Toolchain {
    pub clang: PathBuf,
    pub lld: PathBuf,
    pub clang_version: String,
}

impl Toolchain {
    /// Finds clang and ld.lld on PATH, or says which is missing and how to get it.
    pub fn find() -> Result<Toolchain, ToolchainError> {
        let clang = find(&[
            "clang", "clang-19", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14",
        ])
        .ok_or(ToolchainError::Missing {
            tool: "clang",
            purpose: "build guest programs",
            package: "clang lld",
        })?;
        let lld = find(&[
            "ld.lld",
            "ld.lld-19",
            "ld.lld-18",
            "ld.lld-17",
            "ld.lld-16",
            "ld.lld-15",
            "ld.lld-14",
        ])
        .ok_or(ToolchainError::Missing {
            tool: "ld.lld",
            purpose: "link guest programs",
            package: "lld",
        })?;
        let out = Command::new(&clang)
            .arg("--version")
            .output()
            .map_err(|source| ToolchainError::Spawn {
                what: clang.display().to_string(),
                source,
            })?;
        let clang_version = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        Ok(Toolchain {
            clang,
            lld,
            clang_version,
        })
    }

    fn run(&self, cmd: &mut Command, what: &str) -> Result<(), ToolchainError> {
        let out = cmd.output().map_err(|source| ToolchainError::Spawn {
            what: what.to_string(),
            source,
        })?;
        if !out.status.success() {
            return Err(ToolchainError::Failed {
                what: what.to_string(),
                output: format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            });
        }
        Ok(())
    }

    /// Key of everything that shapes the runtime objects.
    fn runtime_key_for(&self, flags: &[&str]) -> String {
        let mut h = Sha256::new();
        for (name, data) in RUNTIME_FILES {
            h.update(name.as_bytes());
            h.update((data.len() as u64).to_le_bytes());
            h.update(data);
        }
        h.update(flags.join(" ").as_bytes());
        // The per-file rule (outside RUNTIME_FP_DIR: general registers only) shapes them too.
        h.update(format!("general-regs-only outside {RUNTIME_FP_DIR}").as_bytes());
        h.update(self.clang_version.as_bytes());
        hex(&h.finalize())[..24].to_string()
    }

    /// Builds the runtime into the cache once; returns its directory.
    pub fn runtime(&self) -> Result<PathBuf, ToolchainError> {
        self.runtime_for(&cflags())
    }

    /// Builds the runtime for the native JIT (the host's architecture, [`host_cflags`]; no start.S:
    /// the JIT enters at `__garm_host_entry`) once; returns its directory.
    pub fn host_runtime(&self) -> Result<PathBuf, ToolchainError> {
        self.runtime_for(&host_cflags())
    }

    /// Builds the runtime for static-PIE programs ([`cflags`] plus [`PIE_CFLAGS`]) once; returns
    /// its directory.
    pub fn pie_runtime(&self) -> Result<PathBuf, ToolchainError> {
        self.runtime_for(&pie_cflags())
    }

    fn runtime_for(&self, flags: &[&str]) -> Result<PathBuf, ToolchainError> {
        let host = flags == host_cflags();
        let tag = if host {
            "host-"
        } else if flags == pie_cflags() {
            "pie-"
        } else {
            ""
        };
        let dir = cache_dir().join(format!("runtime-{tag}{}", self.runtime_key_for(flags)));
        if dir.join("done").is_file() {
            return Ok(dir);
        }
        let parent = cache_dir();
        std::fs::create_dir_all(&parent).map_err(io_at(&parent))?;
        let tmp = parent.join(format!(
            ".runtime-tmp-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&tmp);
        for (name, data) in RUNTIME_FILES {
            let p = tmp.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).map_err(io_at(&p))?;
            std::fs::write(&p, data).map_err(io_at(&p))?;
        }
        let inc = tmp.join("guest/include");
        let objdir = tmp.join("obj");
        std::fs::create_dir_all(&objdir).map_err(io_at(&objdir))?;
        for (name, _) in RUNTIME_FILES {
            let p = Path::new(name);
            if !name.starts_with("guest/rt/") {
                continue;
            }
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "c" && (ext != "S" || host) {
                continue;
            }
            // Named by the whole path: guest/rt/fp/x.c and guest/rt/x.c must not collide.
            let obj = objdir.join(format!("{}.o", name.replace('/', "_")));
            let mut cmd = Command::new(&self.clang);
            cmd.args(flags);
            if !host && !name.starts_with(RUNTIME_FP_DIR) {
                cmd.arg("-mgeneral-regs-only");
            }
            cmd.arg("-I")
                .arg(&inc)
                .arg("-c")
                .arg(tmp.join(name))
                .arg("-o")
                .arg(&obj);
            self.run(&mut cmd, &format!("clang (runtime {name})"))?;
        }
        std::fs::write(tmp.join("done"), b"").map_err(io_at(&tmp))?;
        // Another process may have won the race; either copy is complete, so keep theirs.
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
            if !dir.join("done").is_file() {
                return Err(ToolchainError::Install(dir));
            }
        }
        Ok(dir)
    }

    /// Compiles one C file with `flags` (and the runtime's headers of `rt`) into object bytes,
    /// through the cache: the key covers the source's path and bytes, the flags, the clang
    /// version and the runtime; the headers clang reports (`-MD`) are checked on every hit.
    pub fn compile(
        &self,
        src: &Path,
        flags: &[&str],
        rt: &Path,
        extra: &[String],
    ) -> Result<Vec<u8>, ToolchainError> {
        self.compile_cached(src, flags, rt, extra, false)
            .map(|o| o.unwrap_or_default())
    }

    /// Compiles a guest program's C file ([`Toolchain::compile`]) without FP/SIMD registers when
    /// its C has no floating point or vectors, else with them. An integer program then never
    /// brings in garm's FP/SIMD units, which clang would otherwise use to zero and copy memory
    /// (`movi` + `stp q`). The question goes to clang's IR (cached like a compile): doubles
    /// passed to printf show there, where `-mgeneral-regs-only` would quietly pass them in
    /// general registers.
    pub fn compile_guest(
        &self,
        src: &Path,
        flags: &[&str],
        rt: &Path,
        extra: &[String],
    ) -> Result<Vec<u8>, ToolchainError> {
        let mut ir_flags = flags.to_vec();
        ir_flags.extend(["-S", "-emit-llvm"]);
        let ir = self.compile(src, &ir_flags, rt, extra)?;
        if !ir_uses_fp(&String::from_utf8_lossy(&ir)) {
            let mut int_flags = flags.to_vec();
            int_flags.push("-mgeneral-regs-only");
            // Inline assembly using FP/SIMD registers fails here: then the FP build.
            if let Some(obj) = self.compile_cached(src, &int_flags, rt, extra, true)? {
                return Ok(obj);
            }
        }
        self.compile(src, flags, rt, extra)
    }

    /// [`Toolchain::compile`]; with `probe`, a failed compile is not an error but `None`, and is
    /// cached as an empty object (never a real one). The key covers the source's bytes, not its
    /// own headers' (clang may write no dependency list when it fails): a stale verdict after a
    /// header edit costs speed (an FP build), never correctness.
    fn compile_cached(
        &self,
        src: &Path,
        flags: &[&str],
        rt: &Path,
        extra: &[String],
        probe: bool,
    ) -> Result<Option<Vec<u8>>, ToolchainError> {
        let source = std::fs::read(src).map_err(io_at(src))?;
        let abs = std::fs::canonicalize(src).unwrap_or_else(|_| src.to_path_buf());
        let inc = rt.join("guest/include");
        let mut h = Sha256::new();
        for part in [
            "compile",
            &self.clang_version,
            &abs.to_string_lossy(),
            &inc.to_string_lossy(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        for f in flags
            .iter()
            .copied()
            .chain(extra.iter().map(|s| s.as_str()))
        {
            h.update((f.len() as u64).to_le_bytes());
            h.update(f.as_bytes());
        }
        h.update(&source);
        let key = hex(&h.finalize());
        let c = cache::Cache::open();
        if let Some(obj) = c.get("compile", &key) {
            return Ok(Some(obj).filter(|o| !(probe && o.is_empty())));
        }

        let dep = c.dir.join("objects").join(format!(
            ".dep-{}-{:?}-{}",
            std::process::id(),
            std::thread::current().id(),
            &key[..16]
        ));
        std::fs::create_dir_all(dep.parent().unwrap()).map_err(io_at(&dep))?;
        // The object comes back on stdout: only the dependency list touches the disk.
        let mut cmd = Command::new(&self.clang);
        cmd.args(flags)
            .args(extra)
            .arg("-I")
            .arg(&inc)
            .arg("-c")
            .arg(&abs)
            .arg("-o")
            .arg("-")
            .arg("-MD")
            .arg("-MF")
            .arg(&dep);
        let out = cmd.output().map_err(|source| ToolchainError::Spawn {
            what: "clang".into(),
            source,
        });
        let deptext = std::fs::read_to_string(&dep).unwrap_or_default();
        let _ = std::fs::remove_file(&dep);
        let out = out?;
        if !out.status.success() && probe {
            c.put(&key, &[], &[]).map_err(io_at(&c.dir))?;
            return Ok(None);
        }
        if !out.status.success() {
            return Err(ToolchainError::Failed {
                what: format!("clang {}", src.display()),
                output: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        let mut deps = Vec::new();
        for p in cache::parse_depfile(&deptext) {
            if p == abs {
                continue;
            }
            let d = std::fs::read(&p).map_err(io_at(&p))?;
            deps.push((cache::sha(&d), p));
        }
        c.put(&key, &deps, &out.stdout).map_err(io_at(&c.dir))?;
        Ok(Some(out.stdout))
    }

    /// Compiles and links C sources with the runtime into a static AArch64 ELF at `out`. Both
    /// steps go through the cache, so an unchanged program runs neither clang nor ld.lld.
    pub fn build(
        &self,
        sources: &[PathBuf],
        out: &Path,
        extra: &[String],
    ) -> Result<Duration, ToolchainError> {
        self.build_with(sources, out, extra, false)
    }

    /// [`Toolchain::build`], as a static PIE when `pie` is set: program and runtime compiled
    /// `-fPIE`, linked with [`PIE_LDFLAGS`] and `linker/garm-pie.ld`.
    pub fn build_with(
        &self,
        sources: &[PathBuf],
        out: &Path,
        extra: &[String],
        pie: bool,
    ) -> Result<Duration, ToolchainError> {
        self.build_linked(sources, &[], &[], out, extra, pie)
    }

    /// [`Toolchain::build_with`] plus objects (`.o` files, whose bytes join the link's cache
    /// key; `.a` archives) and ld.lld arguments (`-l`, `-L`, what `-Wl,` passes). A link that
    /// reads libraries garm does not hash is not cached.
    pub fn build_linked(
        &self,
        sources: &[PathBuf],
        objects: &[PathBuf],
        ld_args: &[String],
        out: &Path,
        extra: &[String],
        pie: bool,
    ) -> Result<Duration, ToolchainError> {
        let t0 = Instant::now();
        let cflags = if pie { pie_cflags() } else { cflags() };
        let ldflags = if pie { PIE_LDFLAGS } else { LDFLAGS };
        let script = if pie {
            "linker/garm-pie.ld"
        } else {
            "linker/garm.ld"
        };
        let rt = self.runtime_for(&cflags)?;
        let mut objs = Vec::new();
        for src in sources {
            if !src.is_file() {
                return Err(ToolchainError::NoSource(src.clone()));
            }
            objs.push(self.compile_guest(src, &cflags, &rt, extra)?);
        }
        let mut archives = Vec::new();
        for o in objects {
            if o.extension().is_some_and(|e| e == "a") {
                archives.push(o.clone());
            } else {
                objs.push(std::fs::read(o).map_err(io_at(o))?);
            }
        }
        let cacheable = archives.is_empty() && ld_args.is_empty();
        let objdir = rt.join("obj");
        let mut rt_objs: Vec<PathBuf> = std::fs::read_dir(&objdir)
            .map_err(io_at(&objdir))?
            .flatten()
            .map(|e| e.path())
            .collect();
        rt_objs.sort();
        // The runtime directory's name is the digest of the runtime, linker script and flags.
        let mut h = Sha256::new();
        h.update(b"link\0");
        h.update(self.lld.to_string_lossy().as_bytes());
        h.update(self.clang_version.as_bytes());
        h.update(ldflags.join(" ").as_bytes());
        h.update(script.as_bytes());
        h.update(rt.to_string_lossy().as_bytes());
        for o in &objs {
            h.update(cache::sha(o).as_bytes());
        }
        let key = hex(&h.finalize());
        let c = cache::Cache::open();
        let elf = match c.get("link", &key).filter(|_| cacheable) {
            Some(elf) => elf,
            None => {
                let mut tail: Vec<String> = archives
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect();
                tail.extend(ld_args.iter().cloned());
                let elf = self.link(&rt, &rt_objs, &objs, script, ldflags, &tail)?;
                if cacheable {
                    c.put(&key, &[], &elf).map_err(io_at(&c.dir))?;
                }
                elf
            }
        };
        cache::write_atomic(out, &elf).map_err(io_at(out))?;
        // As ld.lld would leave it: executable (qemu-user with binfmt runs it directly).
        use crate::os::host::PermissionsExt;
        let _ = std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o755));
        Ok(t0.elapsed())
    }

    /// Builds static AArch64 programs against a real libc (no garm runtime): glibc from the
    /// installed cross libraries, musl from the arm64 sysroot. FP/SIMD is allowed: an FP/SIMD
    /// instruction garm does not execute yet traps with pc and word.
    pub fn build_libc(
        &self,
        sources: &[PathBuf],
        out: &Path,
        extra: &[String],
        libc: Libc,
    ) -> Result<Duration, ToolchainError> {
        let t0 = Instant::now();
        for src in sources {
            if !src.is_file() {
                return Err(ToolchainError::NoSource(src.clone()));
            }
        }
        let mut cmd = Command::new(&self.clang);
        cmd.args(["-static", "-O2", "-fuse-ld=lld"])
            .arg(format!("--ld-path={}", self.lld.display()));
        match libc {
            Libc::Glibc => {
                cmd.arg("--target=aarch64-linux-gnu");
            }
            Libc::Musl => {
                let root = arm64_sysroot();
                let lib = root.join("usr/lib/aarch64-linux-musl");
                if !lib.join("libc.a").is_file() {
                    return Err(ToolchainError::Missing {
                        tool: "musl for arm64",
                        purpose:
                            "build --libc musl programs (run scripts/sysroot.sh musl-dev musl)",
                        package: "musl-dev:arm64",
                    });
                }
                cmd.arg("--target=aarch64-linux-musl")
                    .args(["-nostdinc", "-nostdlib", "-isystem"])
                    .arg(root.join("usr/include/aarch64-linux-musl"));
                if let Some(dir) = self.resource_include() {
                    cmd.arg("-isystem").arg(dir);
                }
                cmd.arg("-L")
                    .arg(&lib)
                    .arg(lib.join("crt1.o"))
                    .arg(lib.join("crti.o"));
            }
            Libc::Garm => return self.build(sources, out, extra),
        }
        cmd.args(extra).args(sources).arg("-o").arg(out);
        if libc == Libc::Musl {
            let lib = arm64_sysroot().join("usr/lib/aarch64-linux-musl");
            // compiler-rt/libgcc builtins for long double and the like, as the glibc link has.
            let rt = Command::new(&self.clang)
                .args(["--target=aarch64-linux-gnu", "-print-libgcc-file-name"])
                .output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .filter(|p| Path::new(p).is_file());
            cmd.arg(lib.join("libc.a"));
            if let Some(rt) = rt {
                cmd.arg(rt);
            }
            cmd.arg(lib.join("crtn.o"));
        }
        self.run(&mut cmd, &format!("clang --libc {libc:?}"))?;
        Ok(t0.elapsed())
    }

    /// `garm cc` as a compiler driver ([`driver`]): objects with `-c`, else one program.
    pub fn drive(&self, a: &driver::CcArgs) -> Result<(), ToolchainError> {
        let mut sources = a.sources.clone();
        if let Some(i) = sources.iter().position(|s| s.as_os_str() == "-") {
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut text)
                .map_err(io_at(Path::new("-")))?;
            // Named by its content, so the compile cache hits when the same text comes again.
            let dir = cache_dir().join("stdin");
            std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
            let p = dir.join(format!("{}.c", &cache::sha(&text)[..16]));
            cache::write_atomic(&p, &text).map_err(io_at(&p))?;
            sources[i] = p;
        }
        self.drive_files(a, &sources)
    }

    fn drive_files(&self, a: &driver::CcArgs, sources: &[PathBuf]) -> Result<(), ToolchainError> {
        for src in sources.iter().chain(&a.objects) {
            if !src.is_file() {
                return Err(ToolchainError::NoSource(src.clone()));
            }
        }
        let object_name = |i: usize| {
            a.output.clone().unwrap_or_else(|| {
                let stem = a.sources[i].file_stem().unwrap_or_default();
                let stem = if stem == "-" { "stdin".as_ref() } else { stem };
                PathBuf::from(format!("{}.o", stem.to_string_lossy()))
            })
        };
        let out = a.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
        if a.libc != Libc::Garm {
            let mut extra = a.cflags.clone();
            if let Some(system) = a.deps.system {
                extra.push(if system { "-MD" } else { "-MMD" }.into());
                if a.deps.phony {
                    extra.push("-MP".into());
                }
                if let Some(f) = &a.deps.file {
                    extra.extend(["-MF".to_string(), f.to_string_lossy().into_owned()]);
                }
                for t in &a.deps.targets {
                    extra.extend(["-MT".to_string(), t.clone()]);
                }
            }
            if a.compile_only {
                for (i, src) in sources.iter().enumerate() {
                    let mut cmd = self.libc_command(a.libc)?;
                    cmd.args(&extra)
                        .arg("-c")
                        .arg(src)
                        .arg("-o")
                        .arg(object_name(i));
                    self.run(&mut cmd, &format!("clang --libc {:?}", a.libc))?;
                }
                return Ok(());
            }
            extra.extend(a.objects.iter().map(|o| o.to_string_lossy().into_owned()));
            extra.extend(a.ldflags.iter().cloned());
            self.build_libc(sources, &out, &extra, a.libc)?;
            return Ok(());
        }
        // The runtime is libc, libm and the rest in one: cc's usual -lc/-lm/-lpthread find it.
        let ld_args: Vec<String> = a
            .ldflags
            .iter()
            .filter(|f| !matches!(f.as_str(), "-lc" | "-lm" | "-lpthread" | "-lrt" | "-ldl"))
            .flat_map(|f| match f.strip_prefix("-Wl,") {
                Some(rest) => rest.split(',').map(String::from).collect(),
                None => vec![f.clone()],
            })
            .collect();
        if a.compile_only {
            let cflags = if a.pie { pie_cflags() } else { cflags() };
            let rt = self.runtime_for(&cflags)?;
            for (i, src) in sources.iter().enumerate() {
                let obj = self.compile_guest(src, &cflags, &rt, &a.cflags)?;
                let o = object_name(i);
                std::fs::write(&o, obj).map_err(io_at(&o))?;
                if let Some(system) = a.deps.system {
                    // The cached compile wrote no .d: clang -M writes it, as -MD would have.
                    let mut cmd = Command::new(&self.clang);
                    cmd.args(&cflags)
                        .args(&a.cflags)
                        .arg("-I")
                        .arg(rt.join("guest/include"))
                        .arg(if system { "-M" } else { "-MM" })
                        .arg("-MF")
                        .arg(a.deps.file.clone().unwrap_or_else(|| o.with_extension("d")));
                    if a.deps.phony {
                        cmd.arg("-MP");
                    }
                    if a.deps.targets.is_empty() {
                        cmd.arg("-MT").arg(&o);
                    }
                    for t in &a.deps.targets {
                        cmd.arg("-MT").arg(t);
                    }
                    cmd.arg(src);
                    self.run(&mut cmd, "clang -M")?;
                }
            }
            return Ok(());
        }
        self.build_linked(sources, &a.objects, &ld_args, &out, &a.cflags, a.pie)?;
        Ok(())
    }

    /// clang's own header directory (`clang -print-resource-dir`/include), looked up once.
    fn resource_include(&self) -> Option<PathBuf> {
        static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
        DIR.get_or_init(|| {
            let o = Command::new(&self.clang)
                .arg("-print-resource-dir")
                .output()
                .ok()?;
            let d = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("include");
            d.is_dir().then_some(d)
        })
        .clone()
    }

    /// A clang command that compiles (`-c`) for a real libc's target and headers.
    fn libc_command(&self, libc: Libc) -> Result<Command, ToolchainError> {
        let mut cmd = Command::new(&self.clang);
        cmd.arg("-O2");
        match libc {
            Libc::Musl => {
                cmd.args(["--target=aarch64-linux-musl", "-nostdinc", "-isystem"])
                    .arg(arm64_sysroot().join("usr/include/aarch64-linux-musl"));
                // -nostdinc drops clang's own headers too (arm_neon.h, stdatomic.h...): after
                // musl's, as the musl-gcc wrappers order them.
                if let Some(dir) = self.resource_include() {
                    cmd.arg("-isystem").arg(dir);
                }
            }
            _ => {
                cmd.arg("--target=aarch64-linux-gnu");
            }
        }
        Ok(cmd)
    }

    fn link(
        &self,
        rt: &Path,
        rt_objs: &[PathBuf],
        objs: &[Vec<u8>],
        script: &str,
        ldflags: &[&str],
        tail: &[String],
    ) -> Result<Vec<u8>, ToolchainError> {
        let work = std::env::temp_dir().join(format!(
            "garm-cc-{}-{:?}-{}",
            std::process::id(),
            std::thread::current().id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos()
        ));
        std::fs::create_dir_all(&work).map_err(io_at(&work))?;
        let result = (|| {
            let mut paths = Vec::new();
            for (i, o) in objs.iter().enumerate() {
                let p = work.join(format!("{i}.o"));
                std::fs::write(&p, o).map_err(io_at(&p))?;
                paths.push(p);
            }
            let elf = work.join("out.elf");
            let mut cmd = Command::new(&self.lld);
            cmd.arg("-T")
                .arg(rt.join(script))
                .args(ldflags)
                .args(rt_objs)
                .args(&paths)
                .args(tail)
                .arg("-o")
                .arg(&elf);
            self.run(&mut cmd, "ld.lld")?;
            std::fs::read(&elf).map_err(io_at(&elf))
        })();
        let _ = std::fs::remove_dir_all(&work);
        result
    }
}

/// [`cflags`] plus [`PIE_CFLAGS`].
fn pie_cflags() -> Vec<&'static str> {
    cflags()
        .into_iter()
        .chain(PIE_CFLAGS.iter().copied())
        .collect()
}

/// Disassembles words with llvm-mc (the LLVM disassembler llvm-objdump uses).
pub fn disassemble(words: &[u32]) -> Vec<String> {
    let input: String = words
        .iter()
        .map(|w| {
            let b = w.to_le_bytes();
            format!("{:#04x} {:#04x} {:#04x} {:#04x}\n", b[0], b[1], b[2], b[3])
        })
        .collect();
    let text = (|| {
        let mut child = Command::new("llvm-mc")
            .args(["--disassemble", "-triple=aarch64", "-mattr=+v8.3a"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        use std::io::Write;
        child.stdin.take()?.write_all(input.as_bytes()).ok()?;
        let o = child.wait_with_output().ok()?;
        Some(String::from_utf8_lossy(&o.stdout).into_owned())
    })()
    .unwrap_or_default();
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('.'))
        .map(|l| l.replace('\t', " "))
        .collect();
    if lines.len() == words.len() {
        lines
    } else if words.len() > 1 {
        // A word llvm-mc rejects shifts every line after it: halve until it is alone.
        let (a, b) = words.split_at(words.len() / 2);
        let mut v = disassemble(a);
        v.extend(disassemble(b));
        v
    } else {
        words.iter().map(|w| format!(".inst {w:#010x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::ir_uses_fp;

    #[test]
    fn fp_in_ir() {
        assert!(!ir_uses_fp(
            "define i32 @double_it(i32 %x) {\n  %r = shl i32 %x, 1\n"
        ));
        assert!(!ir_uses_fp(
            "@.str = private constant [7 x i8] c\"double\\00\", align 1"
        ));
        assert!(!ir_uses_fp("; float in a comment\n!0 = !{!\"float\"}"));
        assert!(ir_uses_fp(
            "  %c = call i32 (ptr, ...) @printf(ptr @.s, double 1.0)"
        ));
        assert!(ir_uses_fp("  %v = add <4 x i32> %a, %b"));
        assert!(ir_uses_fp("define float @f(float %x) {"));
        assert!(ir_uses_fp("  call void @llvm.va_start.p0(ptr %ap)"));
        assert!(ir_uses_fp(
            "  call void @f(ptr @\";x\", double 1.0) ; comment"
        ));
        assert!(!ir_uses_fp("  call void @f(ptr %p) ; double in a comment"));
    }
}
