//! `garm diff`: one C program run three ways (garm on the GPU, the native JIT oracle, and
//! qemu-aarch64 when installed), with one line per engine and the first differing output line.

use crate::error::Error;
use crate::jit::{self, JitOptions};
use crate::run::{self, RunOptions};
use crate::toolchain::{cache_dir, Libc, Toolchain};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One engine's result.
pub struct Engine {
    pub name: &'static str,
    pub status: i32,
    pub stdout: Vec<u8>,
    /// Instructions retired or time taken, for the report line.
    pub note: String,
}

/// How `garm diff` runs a program.
#[derive(Clone)]
pub struct DiffOptions {
    /// Time limit per engine (the GPU gets it as an instruction budget at ~3 MIPS as well).
    pub timeout: Duration,
    pub max_insns: Option<u64>,
    pub adapter: Option<String>,
    /// Skip qemu-aarch64 even when installed.
    pub no_qemu: bool,
    /// Run the JIT through its `dlopen` fallback ([`JitOptions::dlopen`]).
    pub dlopen: bool,
    pub cflags: Vec<String>,
    /// The C library: with glibc or musl the JIT (which runs garm's runtime) sits out, so the
    /// comparison is the GPU against qemu-aarch64.
    pub libc: Libc,
    /// Standard input, the same bytes for every engine.
    pub stdin: Vec<u8>,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            timeout: Duration::from_secs(60),
            max_insns: None,
            adapter: None,
            no_qemu: false,
            dlopen: false,
            cflags: Vec::new(),
            libc: Libc::Garm,
            stdin: Vec::new(),
        }
    }
}

fn digest(b: &[u8]) -> String {
    crate::toolchain::hex(&Sha256::digest(b))[..16].to_string()
}

fn qemu_available() -> bool {
    Command::new("qemu-aarch64")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn status_of(s: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0))
}

/// Builds `src` for the GPU and the host and runs it on every engine, all with the same stdin.
pub fn run_all(src: &Path, args: &[String], opts: &DiffOptions) -> Result<Vec<Engine>, Error> {
    let tc = Toolchain::find()?;
    let dir = cache_dir().join("bin");
    std::fs::create_dir_all(&dir).map_err(Error::io(&dir))?;
    let stem = src.file_stem().unwrap_or_default().to_string_lossy();
    let elf_path = dir.join(format!(
        "diff-{stem}-{}-{:?}.elf",
        std::process::id(),
        std::thread::current().id()
    ));
    let hosted = opts.libc != Libc::Garm;
    if hosted && (opts.no_qemu || !qemu_available()) {
        return Err(Error::Usage(format!(
            "garm diff --libc {} compares with qemu-aarch64 (the JIT runs garm's runtime only)",
            format!("{:?}", opts.libc).to_lowercase()
        )));
    }
    if hosted {
        tc.build_libc(&[src.to_path_buf()], &elf_path, &opts.cflags, opts.libc)?;
    } else {
        tc.build(&[src.to_path_buf()], &elf_path, &opts.cflags)?;
    }
    let elf = std::fs::read(&elf_path).map_err(Error::io(&elf_path));
    let host = (!hosted).then(|| jit::compile(&tc, src, &opts.cflags));
    let mut argv = vec![src.to_string_lossy().into_owned()];
    argv.extend(args.iter().cloned());
    let mut engines = Vec::new();

    let elf = elf?;
    let ro = RunOptions {
        max_insns: opts.max_insns,
        adapter: opts.adapter.clone(),
        stdin: Some(opts.stdin.clone()),
        ..Default::default()
    };
    let rep = run::run(&elf, &argv, &ro, false)?;
    engines.push(Engine {
        name: "gpu",
        status: rep.outcomes[0].exit_status(),
        stdout: rep.output.bytes(0, 1),
        note: format!(
            "{} instructions, {:.3} s{}",
            rep.instructions[0],
            rep.exec_time.as_secs_f64(),
            if rep.output.truncated[0] {
                " (output beyond 64 MiB dropped)"
            } else {
                ""
            }
        ),
    });

    if let Some(host) = host {
        push_jit(&mut engines, host?, &argv, opts)?;
    }
    if !opts.no_qemu && qemu_available() {
        let t0 = Instant::now();
        let mut cmd = Command::new("qemu-aarch64");
        cmd.env_clear();
        for e in run::DEFAULT_ENV {
            let (k, v) = e.split_once('=').unwrap_or((e, ""));
            cmd.env(k, v);
        }
        // `-0` gives the guest the same argv[0] as on the other engines.
        let mut child = cmd
            .arg("-0")
            .arg(&argv[0])
            .arg(&elf_path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(Error::host("cannot run qemu-aarch64"))?;
        {
            use std::io::Write;
            let mut si = child.stdin.take().unwrap();
            let _ = si.write_all(&opts.stdin);
        }
        let o = child
            .wait_with_output()
            .map_err(Error::host("qemu-aarch64"))?;
        engines.push(Engine {
            name: "qemu",
            status: status_of(o.status),
            stdout: o.stdout,
            note: format!("{:.3} s", t0.elapsed().as_secs_f64()),
        });
    }
    let _ = std::fs::remove_file(&elf_path);
    Ok(engines)
}

/// Runs the host build in the JIT, the third engine.
fn push_jit(
    engines: &mut Vec<Engine>,
    host: jit::HostBuild,
    argv: &[String],
    opts: &DiffOptions,
) -> Result<(), Error> {
    let mut jo = JitOptions {
        timeout: opts.timeout,
        stdin: opts.stdin.clone(),
        ..Default::default()
    };
    // Either asks for it: the option or GARM_JIT=dlopen (the default's).
    jo.dlopen |= opts.dlopen;
    let r = jit::run_objects(&host.objects, argv, &jo)?;
    engines.push(Engine {
        name: "jit",
        status: r.status,
        stdout: r.stdout,
        note: format!(
            "compile {:.3} s, {} {:.2} ms, run {:.3} s",
            host.compile_time.as_secs_f64(),
            if r.dlopen { "link+dlopen" } else { "load" },
            r.load_time.as_secs_f64() * 1e3,
            r.run_time.as_secs_f64()
        ),
    });
    Ok(())
}

/// The first line where `b` differs from `a`: (1-based line number, a's line, b's line).
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<(usize, String, String)> {
    if a == b {
        return None;
    }
    let la: Vec<&[u8]> = a.split_inclusive(|&c| c == b'\n').collect();
    let lb: Vec<&[u8]> = b.split_inclusive(|&c| c == b'\n').collect();
    let show = |l: Option<&&[u8]>| match l {
        Some(l) => format!("{:?}", String::from_utf8_lossy(l)),
        None => "<end of output>".to_string(),
    };
    (0..la.len().max(lb.len()))
        .find(|&i| la.get(i) != lb.get(i))
        .map(|i| (i + 1, show(la.get(i)), show(lb.get(i))))
}

/// The report: one line per engine, then the disagreements; true when all agree.
pub fn report(engines: &[Engine]) -> (String, bool) {
    let mut s = String::new();
    for e in engines {
        s += &format!(
            "{:<5} exit {:<3} stdout {} ({} bytes)  {}\n",
            e.name,
            e.status,
            digest(&e.stdout),
            e.stdout.len(),
            e.note
        );
    }
    let mut agree = true;
    if let Some(base) = engines.first() {
        for e in &engines[1..] {
            if e.status != base.status {
                agree = false;
                s += &format!(
                    "DIFFER: exit status {} {} vs {} {}\n",
                    base.name, base.status, e.name, e.status
                );
            }
            if let Some((line, a, b)) = first_difference(&base.stdout, &e.stdout) {
                agree = false;
                s += &format!(
                    "DIFFER: stdout line {line}:\n  {:<5} {a}\n  {:<5} {b}\n",
                    base.name, e.name
                );
            }
        }
    }
    if agree {
        s += "agree\n";
    }
    (s, agree)
}
