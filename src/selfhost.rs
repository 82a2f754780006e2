//! garm's own C compiler (guest/cc/cc.c) running on garm: `garm selfhost`, the bootstrap to a
//! fixed point, and `garm cc --compiler garm`, programs compiled on the GPU against the runtime
//! (which the compiler builds into a library of its own once, kept in the cache).

use crate::error::Error;
use crate::run::{self, RunOptions};
use crate::toolchain::driver::CcArgs;
use crate::toolchain::{cache, cache_dir, Libc, Toolchain, GARMCC_FILES, RUNTIME_FILES};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The compiler's sources, relative to the staged tree (fold.c holds its floating-point
/// constant arithmetic, so that cc.c is built with general registers only).
pub const COMPILER: &[&str] = &["guest/cc/cc.c", "guest/cc/fold.c"];

/// The floating-point runtime files the compiler takes: all but complex.c (it has no
/// `_Complex`).
const FP_FILES_IT_TAKES: &[&str] = &[
    "guest/rt/fp/fenv.c",
    "guest/rt/fp/math.c",
    "guest/rt/fp/round.c",
    "guest/rt/fp/strtod.c",
];

/// Guest memory per compiler process when the caller gives no `--mem`: the compiler keeps
/// every token and tree of its input (compiling itself and the runtime peaks near 21 MiB).
const COMPILER_MEM: u64 = 128 << 20;

/// The runtime sources the compiler builds, in a fixed order (the bootstrap's output depends
/// on it).
pub fn runtime_sources() -> Vec<&'static str> {
    RUNTIME_FILES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.starts_with("guest/rt/") && n.ends_with(".c"))
        .filter(|n| {
            !n.starts_with(crate::toolchain::RUNTIME_FP_DIR) || FP_FILES_IT_TAKES.contains(n)
        })
        .collect()
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The compiler, its headers and the runtime written out once under the cache, in a directory
/// named by their digest (so a changed compiler or runtime gets a fresh one, and its library).
pub fn tree() -> Result<PathBuf, Error> {
    let mut all = Vec::new();
    for (name, data) in GARMCC_FILES.iter().chain(RUNTIME_FILES) {
        all.extend_from_slice(name.as_bytes());
        all.extend_from_slice(&(data.len() as u64).to_le_bytes());
        all.extend_from_slice(data);
    }
    let dir = cache_dir().join("garmcc").join(&cache::sha(&all)[..24]);
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    let tmp = dir.with_extension(format!("tmp{}", std::process::id()));
    for (name, data) in GARMCC_FILES.iter().chain(RUNTIME_FILES) {
        let p = tmp.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).map_err(io(&p))?;
        std::fs::write(&p, data).map_err(io(&p))?;
    }
    std::fs::write(tmp.join(".complete"), b"").map_err(io(&tmp))?;
    // Another garm may have finished the same tree meanwhile: its copy is as good.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join(".complete").is_file() {
            return Err(Error::Io {
                path: dir,
                source: std::io::Error::other("cannot install the compiler's tree"),
            });
        }
    }
    Ok(dir)
}

/// `-I` flags for the compiler in `tree`: its own headers first, then the runtime's.
pub fn includes(tree: &Path) -> Vec<String> {
    vec![
        "-I".into(),
        tree.join("guest/cc/include").display().to_string(),
        "-I".into(),
        tree.join("guest/include").display().to_string(),
    ]
}

/// The compiler's command line: `lead` options, the -I list, the tree's `sources` and then the
/// runtime's, `-o out`.
fn compile_args(tree: &Path, lead: &[&str], sources: &[&str], out: &Path) -> Vec<String> {
    let mut args: Vec<String> = lead.iter().map(|s| s.to_string()).collect();
    args.extend(includes(tree));
    let files = sources.iter().copied().chain(runtime_sources());
    args.extend(files.map(|s| tree.join(s).display().to_string()));
    args.push("-o".into());
    args.push(out.display().to_string());
    args
}

/// What one stage of the bootstrap made and cost.
pub struct Stage {
    pub name: &'static str,
    /// What ran the compiler: "clang (host)" or "stage N on garm".
    pub by: String,
    /// Instructions the compiler retired on garm (`None` for clang).
    pub instructions: Option<u64>,
    pub wall: Duration,
    pub round_trips: Option<u64>,
    pub sha256: String,
    pub bytes: usize,
}

/// Runs the compiler ELF at `compiler` on garm with `args`, the directories in `mounts` seen at
/// their own paths, its output streaming through. Returns its exit status, the run's report and
/// the wall time.
fn run_compiler(
    compiler: &Path,
    args: &[String],
    mounts: &[(PathBuf, bool)],
    base: &RunOptions,
) -> Result<(i32, run::RunReport, Duration), Error> {
    let elf = std::fs::read(compiler).map_err(io(compiler))?;
    let mut opts = base.clone();
    opts.mem = opts.mem.or(Some(COMPILER_MEM));
    for (dir, writable) in mounts {
        let d = dir.display();
        opts.mounts.push(if *writable {
            format!("{d}:{d}")
        } else {
            format!("{d}:{d}:ro")
        });
    }
    let mut argv = vec!["cc".to_string()];
    argv.extend_from_slice(args);
    let t0 = Instant::now();
    let rep =
        run::run_shared(Rc::new(elf), &argv, &opts, true).map_err(|source| Error::Program {
            program: compiler.to_path_buf(),
            source,
        })?;
    let wall = t0.elapsed();
    let status = rep.outcomes.first().map_or(1, run::Outcome::exit_status);
    Ok((status, rep, wall))
}

/// An error unless the compiler at `compiler` exited 0 doing `what`.
fn succeeded(status: i32, compiler: &Path, what: &str) -> Result<(), Error> {
    if status == 0 {
        return Ok(());
    }
    Err(Error::EngineFailed {
        engine: "garm",
        program: compiler.display().to_string(),
        detail: format!("the compiler exited with status {status} {what}"),
    })
}

/// Stage 0: the compiler built by clang (through the compile cache) into `out`.
fn stage0(tree: &Path, out: &Path) -> Result<Duration, Error> {
    let tc = Toolchain::find()?;
    let sources: Vec<PathBuf> = COMPILER.iter().map(|s| tree.join(s)).collect();
    Ok(tc.build(&sources, out, &[])?)
}

fn describe(
    name: &'static str,
    by: String,
    out: &Path,
    run: Option<(&run::RunReport, Duration)>,
    wall: Duration,
) -> Result<Stage, Error> {
    let bytes = std::fs::read(out).map_err(io(out))?;
    Ok(Stage {
        name,
        by,
        instructions: run.map(|(r, _)| r.instructions.iter().sum()),
        wall: run.map_or(wall, |(_, w)| w),
        round_trips: run.map(|(r, _)| r.host_syscalls),
        sha256: cache::sha(&bytes),
        bytes: bytes.len(),
    })
}

/// The tree's stage 0, built when missing.
fn stage0_in(tree: &Path) -> Result<PathBuf, Error> {
    let s0 = tree.join("stage0.elf");
    if !s0.is_file() {
        stage0(tree, &s0)?;
    }
    Ok(s0)
}

/// Compiles the compiler's own source and the runtime with the compiler at `compiler` on garm,
/// writing `out`.
fn compile_itself(
    tree: &Path,
    compiler: &Path,
    out: &Path,
    opts: &RunOptions,
) -> Result<(run::RunReport, Duration), Error> {
    let args = compile_args(tree, &[], COMPILER, out);
    let dir = out.parent().unwrap().to_path_buf();
    let (status, rep, wall) = run_compiler(
        compiler,
        &args,
        &[(tree.to_path_buf(), false), (dir, true)],
        opts,
    )?;
    succeeded(status, compiler, "compiling itself")?;
    Ok((rep, wall))
}

/// The bootstrap: stage 0 (clang), stage 1 (stage 0 on garm compiling the compiler and the
/// runtime), stage 2 (stage 1 on garm doing the same). Writes the three executables into
/// `out_dir` and returns the stages; the fixed point holds when stages 1 and 2 are equal.
pub fn bootstrap(
    out_dir: &Path,
    opts: &RunOptions,
    mut on_stage: impl FnMut(&Stage),
) -> Result<Vec<Stage>, Error> {
    let tree = tree()?;
    std::fs::create_dir_all(out_dir).map_err(io(out_dir))?;
    let out_dir = out_dir.canonicalize().map_err(io(out_dir))?;
    let s0 = out_dir.join("stage0.elf");
    let t0 = Instant::now();
    stage0(&tree, &s0)?;
    let mut stages = vec![describe(
        "stage 0",
        "clang (host)".into(),
        &s0,
        None,
        t0.elapsed(),
    )?];
    on_stage(&stages[0]);
    let mut prev = s0;
    for (name, by) in [
        ("stage 1", "stage 0 on garm"),
        ("stage 2", "stage 1 on garm"),
    ] {
        let out = out_dir.join(format!("stage{}.elf", stages.len()));
        let (rep, wall) = compile_itself(&tree, &prev, &out, opts)?;
        let st = describe(name, by.into(), &out, Some((&rep, wall)), wall)?;
        on_stage(&st);
        stages.push(st);
        prev = out;
    }
    Ok(stages)
}

/// The runtime as a library of garm's compiler (`cc --library`), built once per compiler and
/// runtime by stage 0 on garm; returns its path.
pub fn runtime_library(opts: &RunOptions) -> Result<PathBuf, Error> {
    let tree = tree()?;
    let lib = tree.join("runtime.lib");
    if lib.is_file() {
        return Ok(lib);
    }
    let s0 = stage0_in(&tree)?;
    let tmp = tree.join(format!("runtime.lib.tmp{}", std::process::id()));
    let args = compile_args(&tree, &["--library"], &[], &tmp);
    let (status, _, _) = run_compiler(&s0, &args, &[(tree.clone(), true)], opts)?;
    if status != 0 {
        let _ = std::fs::remove_file(&tmp);
    }
    succeeded(status, &s0, "building the runtime")?;
    std::fs::rename(&tmp, &lib).map_err(io(&lib))?;
    Ok(lib)
}

/// Directories to mount so each path is seen at its own place: one mount per directory not
/// inside another, writable when any path under it must be written.
fn mounts_for(dirs: Vec<(PathBuf, bool)>) -> Vec<(PathBuf, bool)> {
    let mut out: Vec<(PathBuf, bool)> = Vec::new();
    let mut dirs = dirs;
    dirs.sort();
    for (d, w) in dirs {
        if let Some(m) = out.iter_mut().find(|(m, _)| d.starts_with(m)) {
            m.1 |= w;
        } else {
            out.push((d, w));
        }
    }
    out
}

fn absolute(p: &Path) -> Result<PathBuf, Error> {
    p.canonicalize().map_err(io(p))
}

/// `garm cc --compiler garm`: the sources compiled by garm's own compiler running on garm (the
/// clang-built stage 0: the fast one), linked with the runtime library. Takes -o, -I, -D and
/// -U; -O, -g, -W, -f and -std= change nothing for it. Returns the compiler's exit status.
pub fn compile(a: &CcArgs, opts: &RunOptions) -> Result<i32, Error> {
    let refuse = |what: &str| {
        Err(Error::Usage(format!("garm cc --compiler garm: {what} (its compiler writes a linked executable from C sources only)")))
    };
    if a.compile_only {
        return refuse("no -c");
    }
    if !a.objects.is_empty() || !a.ldflags.is_empty() {
        return refuse("no objects, archives, -l or -L");
    }
    if a.pie || a.libc != Libc::Garm || a.deps.system.is_some() {
        return refuse("no --pie, --libc or -MD");
    }
    let mut sources = Vec::new();
    for s in &a.sources {
        if s.as_os_str() == "-" {
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut text).map_err(io(s))?;
            let dir = cache_dir().join("stdin");
            std::fs::create_dir_all(&dir).map_err(io(&dir))?;
            let p = dir.join(format!("{}.c", &cache::sha(&text)[..16]));
            cache::write_atomic(&p, &text).map_err(io(&p))?;
            sources.push(p);
        } else if !s.is_file() {
            return Err(crate::toolchain::ToolchainError::NoSource(s.clone()).into());
        } else {
            sources.push(absolute(s)?);
        }
    }
    let out = a.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    let out_dir = match out.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => absolute(p)?,
        None => absolute(Path::new("."))?,
    };
    let out = out_dir.join(out.file_name().unwrap_or_default());
    let lib = runtime_library(opts)?;
    let tree = tree()?;
    let mut args = includes(&tree);
    let mut dirs = vec![(tree.clone(), false), (out_dir.clone(), true)];
    let mut it = a.cflags.iter();
    while let Some(f) = it.next() {
        let (flag, value) = match f.as_str() {
            "-I" | "-D" | "-U" => (f.as_str(), it.next().cloned().unwrap_or_default()),
            _ if f.starts_with("-I") || f.starts_with("-D") || f.starts_with("-U") => {
                (&f[..2], f[2..].to_string())
            }
            _ => continue,
        };
        if flag == "-I" {
            let d = absolute(Path::new(&value))?;
            args.push(format!("-I{}", d.display()));
            dirs.push((d, false));
        } else {
            args.push(format!("{flag}{value}"));
        }
    }
    for s in &sources {
        dirs.push((s.parent().unwrap().to_path_buf(), false));
        args.push(s.display().to_string());
    }
    args.push(lib.display().to_string());
    args.push("-o".into());
    args.push(out.display().to_string());
    let (status, _, _) = run_compiler(&stage0_in(&tree)?, &args, &mounts_for(dirs), opts)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_sources_are_the_c_files_it_can_compile() {
        let s = runtime_sources();
        assert!(s.contains(&"guest/rt/printf.c") && s.contains(&"guest/rt/fp/fenv.c"));
        assert!(s.contains(&"guest/rt/fp/strtod.c") && s.contains(&"guest/rt/fp/math.c"));
        assert!(!s
            .iter()
            .any(|f| f.ends_with(".S") || f.ends_with("complex.c")));
    }

    #[test]
    fn nested_directories_share_one_mount() {
        let m = mounts_for(vec![
            ("/a/b".into(), true),
            ("/a".into(), false),
            ("/c".into(), false),
            ("/a/b/c".into(), false),
        ]);
        assert_eq!(
            m,
            [(PathBuf::from("/a"), true), (PathBuf::from("/c"), false)]
        );
    }
}
