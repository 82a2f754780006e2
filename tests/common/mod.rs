//! Shared helpers for the integration tests: build guest programs with `garm cc`, run them on
//! garm (lavapipe when there is no GPU) and on qemu-aarch64, the oracle.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

pub fn garm_bin() -> &'static str {
    env!("CARGO_BIN_EXE_garm")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

static BUILD_LOCK: Mutex<()> = Mutex::new(());

/// musl for arm64, as `garm cc --libc musl` needs it (scripts/deps.sh fetches it too); once per
/// test process.
pub fn musl_sysroot() {
    static DONE: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let o = Command::new("bash")
            .arg(root().join("scripts/sysroot.sh"))
            .args(["musl-dev", "musl"])
            .output()
            .expect("sysroot.sh");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    });
}

/// Builds `guest/<rel>.c` into the test tmp dir (once per test process) and returns the ELF.
pub fn build(rel: &str) -> PathBuf {
    build_with(rel, &[])
}

/// The ELFs this test process built.
static BUILT: Mutex<std::collections::BTreeSet<PathBuf>> =
    Mutex::new(std::collections::BTreeSet::new());

/// [`build`] with extra `garm cc` options (e.g. `--pie`), which also name the output.
pub fn build_with(rel: &str, cc_opts: &[&str]) -> PathBuf {
    let _g = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let name = rel.replace('/', "_") + &cc_opts.concat();
    let out = tmp().join(format!("{name}-{}.elf", std::process::id()));
    // Built once per test process: a file of that name from an earlier run (pids come back)
    // may be from an older source.
    let fresh = BUILT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(out.clone());
    if fresh {
        let src = root().join("guest").join(format!("{rel}.c"));
        let o = Command::new(garm_bin())
            .args(["cc"])
            .args(cc_opts)
            .arg(&src)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("run garm cc");
        assert!(
            o.status.success(),
            "garm cc {rel} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    out
}

pub struct Ran {
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Ran {
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

fn status_of(s: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0))
}

fn run_cmd(mut cmd: Command, stdin: &[u8]) -> Ran {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    {
        let mut si = child.stdin.take().unwrap();
        let _ = si.write_all(stdin);
    }
    let o = child.wait_with_output().expect("wait");
    Ran {
        status: status_of(o.status),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Runs garm with `args` (options, program, guest args).
pub fn garm<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: &[u8]) -> Ran {
    garm_env(args, &[], stdin)
}

/// [`garm`] with environment variables set for garm itself.
pub fn garm_env<S: AsRef<std::ffi::OsStr>>(args: &[S], env: &[(&str, &str)], stdin: &[u8]) -> Ran {
    let mut cmd = Command::new(garm_bin());
    cmd.arg("run").args(args).envs(env.iter().copied());
    let r = run_cmd(cmd, stdin);
    assert!(
        !r.stderr.contains("panicked"),
        "garm panicked: {}",
        r.stderr
    );
    r
}

/// Runs the ELF under qemu-aarch64 with garm's default environment plus `env`.
pub fn qemu(elf: &Path, args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Ran {
    let mut cmd = Command::new("qemu-aarch64");
    cmd.env_clear();
    for e in garm::run::DEFAULT_ENV {
        let (k, v) = e.split_once('=').unwrap();
        cmd.env(k, v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.arg(elf).args(args);
    run_cmd(cmd, stdin)
}

/// Runs `elf` on garm (with `opts` before it) and on qemu; asserts equal stdout and status.
pub fn same_as_qemu(elf: &Path, opts: &[&str], args: &[&str], stdin: &[u8]) -> Ran {
    same_as_qemu_env(elf, opts, args, &[], stdin)
}

/// [`same_as_qemu`] with `qemu_env` added to qemu's environment (QEMU_LD_PREFIX, say).
pub fn same_as_qemu_env(
    elf: &Path,
    opts: &[&str],
    args: &[&str],
    qemu_env: &[(&str, &str)],
    stdin: &[u8],
) -> Ran {
    let mut a: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
    a.push(elf.to_string_lossy().into_owned());
    a.extend(args.iter().map(|s| s.to_string()));
    let g = garm(&a, stdin);
    let q = qemu(elf, args, qemu_env, stdin);
    assert_eq!(
        g.out(),
        q.out(),
        "stdout differs from qemu-aarch64 for {} {:?}\ngarm stderr: {}",
        elf.display(),
        args,
        g.stderr
    );
    assert_eq!(
        g.status, q.status,
        "exit status differs from qemu (garm stderr: {})",
        g.stderr
    );
    g
}

/// Output with the `env` lines sorted (and moved last): qemu-user hands the environment over in
/// reverse order, Linux (and garm) in the given order.
pub fn env_sorted(s: &str) -> Vec<String> {
    let mut env: Vec<String> = s
        .lines()
        .filter(|l| l.starts_with("env "))
        .map(String::from)
        .collect();
    env.sort();
    let mut rest: Vec<String> = s
        .lines()
        .filter(|l| !l.starts_with("env "))
        .map(String::from)
        .collect();
    rest.extend(env);
    rest
}

/// Runs guest/tests/os/pipeline's `elf` on garm (its children execve /proc/self/exe) and under
/// qemu with `--no-exec` (qemu-user cannot exec an AArch64 ELF without binfmt, so its children
/// call their role instead); asserts the same output and success.
pub fn pipeline_same_as_qemu(elf: &Path) {
    let g = garm(&[elf.to_str().unwrap()], b"");
    let q = qemu(elf, &["--no-exec"], &[], b"");
    assert_eq!(q.status, 0, "{}", q.stderr);
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert_eq!(g.status, 0);
    assert!(
        g.out().contains("counter: 100 lines, sum 106050"),
        "{}",
        g.out()
    );
}

fn toolchain() -> &'static garm::toolchain::Toolchain {
    static TC: std::sync::OnceLock<garm::toolchain::Toolchain> = std::sync::OnceLock::new();
    TC.get_or_init(|| garm::toolchain::Toolchain::find().expect("clang and ld.lld"))
}

/// `guest/<rel>.c` built against garm's runtime runs three ways: on garm and under qemu-aarch64
/// (the same ELF: stdout and status equal), and in the native JIT oracle (the same C built for
/// the host), which must print the same. Returns garm's run.
pub fn three_way(rel: &str) -> Ran {
    let elf = build(rel);
    let g = same_as_qemu(&elf, &[], &[], b"");
    jit_agrees(rel, &elf, &g);
    g
}

/// The native JIT oracle runs `guest/<rel>.c` (built for the host; `elf` gives argv[0]) and
/// must print what garm's run `g` printed, and exit the same; `g` must have printed something.
pub fn jit_agrees(rel: &str, elf: &Path, g: &Ran) {
    assert!(!g.stdout.is_empty(), "{rel}: printed nothing");
    let src = root().join("guest").join(format!("{rel}.c"));
    let host = garm::jit::compile(toolchain(), &src, &[]).expect("host build");
    let argv = vec![elf.to_string_lossy().into_owned()];
    let j = garm::jit::run_objects(&host.objects, &argv, &garm::jit::JitOptions::default())
        .expect("jit run");
    if let Some((line, a, b)) = garm::diff::first_difference(&g.stdout, &j.stdout) {
        panic!("{rel}: native JIT differs from garm and qemu at stdout line {line}:\n  gpu/qemu {a}\n  jit      {b}");
    }
    assert_eq!(
        j.status,
        g.status,
        "{rel}: native JIT exit status differs (stderr: {})",
        String::from_utf8_lossy(&j.stderr)
    );
}

/// The names (without `.c`) of the C programs in `guest/<rel_dir>`, sorted.
pub fn c_programs(rel_dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("guest").join(rel_dir))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".c").map(String::from))
        .collect();
    names.sort();
    names
}

/// Runs `prog`'s `instances` to their end in one garm run, in this process through `garm::api`;
/// each instance's output and exit status, in order.
pub fn run_instances(
    prog: &garm::api::Program,
    instances: &[garm::api::Instance],
    config: &garm::api::Config,
) -> Vec<Ran> {
    let mut run = garm::api::Runner::new(prog, instances, config).expect("garm starts");
    run.run().expect("garm runs the instances");
    run.results()
        .into_iter()
        .map(|r| Ran {
            status: r.exit_status(),
            stderr: String::from_utf8_lossy(&r.stderr).into_owned(),
            stdout: r.stdout,
        })
        .collect()
}

/// Runs each ELF as one instance of a single garm run: guest/tests/launch.c execs the
/// instance's program (the ELFs' directories are mounted at their own paths, so argv[0] is the
/// path qemu sees too). One run of many programs costs about its slowest program, not the sum
/// of all: the lanes run side by side. Each must agree with qemu-aarch64 (stdout and exit
/// status); every difference is reported, then the test fails. garm's runs, in order.
pub fn batch_same_as_qemu(elfs: &[PathBuf]) -> Vec<Ran> {
    use garm::api::{Config, Instance, Program};
    let mut dirs: Vec<&Path> = elfs.iter().map(|e| e.parent().unwrap()).collect();
    dirs.sort();
    dirs.dedup();
    let mut config = Config::default()
        .max_procs(elfs.len().max(16) as u32)
        .timeout(std::time::Duration::from_secs(900));
    for d in dirs {
        config = config.mount(d, &d.to_string_lossy(), true);
    }
    let instances: Vec<Instance> = elfs
        .iter()
        .map(|e| Instance::new(&["launch", &e.to_string_lossy()]))
        .collect();
    let launch = Program::load(&build("tests/launch")).expect("the launcher loads");
    let ours = run_instances(&launch, &instances, &config);
    let mut bad = Vec::new();
    for (elf, g) in elfs.iter().zip(&ours) {
        let q = qemu(elf, &[], &[], b"");
        if (g.out(), g.status) != (q.out(), q.status) {
            bad.push(format!(
                "{}: garm (status {}) differs from qemu-aarch64 (status {}):\n{}\n-- qemu:\n{}\n-- garm stderr: {}",
                elf.display(),
                g.status,
                q.status,
                g.out(),
                q.out(),
                g.stderr
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    ours
}
