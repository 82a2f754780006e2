//! garm in a browser (scripts/web.sh, web/): Debian's Chromium, headless, with WebGPU on
//! SwiftShader, opens the page served from 127.0.0.1 and runs demo ELFs through its query string
//! (`?run=URL&args=..&instances=N&stdin=..`); what the page writes to the console must equal
//! qemu-aarch64's output for the same ELFs, and native garm's with `--prelude vec2` (the prelude
//! a browser runs, having no 64-bit integers in shaders).

mod common;
use common::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The built page, served by python3's http.server on a free port while the test runs.
struct Site {
    dir: PathBuf,
    port: u16,
    server: Child,
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn serve() -> Site {
    let dir = tmp().join(format!("web-{}", std::process::id()));
    let o = Command::new("bash")
        .arg(root().join("scripts/web.sh"))
        .args(["--build-only", "--out"])
        .arg(&dir)
        .env("GARM_BIN", garm_bin())
        .output()
        .expect("run scripts/web.sh");
    assert!(
        o.status.success(),
        "scripts/web.sh --build-only failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let server = Command::new("python3")
        .args([
            "-m",
            "http.server",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
        ])
        .arg("--directory")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 -m http.server");
    let site = Site { dir, port, server };
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the server never listened"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    site
}

/// The text of one console message in Chromium's stderr log (`--enable-logging=stderr`):
/// `[..:INFO:CONSOLE:LINE] "TEXT", source: URL (LINE)`.
fn console_text(line: &str) -> Option<String> {
    let start = line.find(":CONSOLE:")?;
    let rest = &line[start..];
    let open = rest.find("] \"")? + 3;
    let close = rest.rfind("\", source: ")?;
    (close >= open).then(|| rest[open..close].to_string())
}

/// Opens `query` on the page in headless Chromium and returns the console lines up to and with
/// the run's final `exit STATUS`.
fn browser_run(site: &Site, query: &str) -> Vec<String> {
    let url = format!("http://127.0.0.1:{}/?{query}", site.port);
    let profile = tmp().join(format!("chromium-{}-{}", std::process::id(), site.port));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--enable-unsafe-webgpu",
            "--use-webgpu-adapter=swiftshader",
            "--use-vulkan=swiftshader",
            "--enable-features=Vulkan",
            "--enable-logging=stderr",
            "--v=0",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium (Debian's package: scripts/test.sh installs it)");
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(240);
    let (mut lines, mut log) = (Vec::new(), String::new());
    let finished = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => {
                log.push_str(&l);
                log.push('\n');
                if let Some(t) = console_text(&l) {
                    let end = t.starts_with("exit ");
                    lines.push(t);
                    if end {
                        break true;
                    }
                }
            }
            Err(_) => break false,
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        finished,
        "{url}: no `exit` on the console; Chromium said:\n{log}"
    );
    lines
}

/// One instance's expected console lines: its output lines (`[i] `-prefixed when `n` > 1).
fn prefixed(text: &str, i: usize, n: usize) -> Vec<String> {
    let p = if n > 1 {
        format!("[{i}] ")
    } else {
        String::new()
    };
    text.lines().map(|l| format!("{p}{l}")).collect()
}

fn demo(site: &Site, name: &str) -> PathBuf {
    site.dir.join("demos").join(format!("{name}.elf"))
}

/// The demo run once in the browser, on qemu and natively with `--prelude vec2`: the same
/// lines and exit status.
fn one_instance(site: &Site, name: &str, args: &[&str]) {
    let elf = demo(site, name);
    let q = qemu(&elf, args, &[], b"");
    let mut want = prefixed(&q.out(), 0, 1);
    want.push(format!("exit {}", q.status));
    let query = format!("run=demos/{name}.elf&args={}", args.join(","));
    let got = browser_run(site, &query);
    assert_eq!(got, want, "{name} in the browser vs qemu-aarch64");
    let native = native_vec2(&elf, 1, args);
    assert_eq!(native.out(), q.out(), "{name} natively with --prelude vec2");
    assert_eq!(native.status, q.status);
}

fn native_vec2(elf: &Path, n: usize, args: &[&str]) -> Ran {
    let n = n.to_string();
    let mut a = vec!["--prelude", "vec2", "--tier", "interp", "--instances", &n];
    a.push(elf.to_str().unwrap());
    a.extend_from_slice(args);
    garm(&a, b"")
}

#[test]
fn browser_runs_demos_as_qemu_does() {
    let site = serve();
    one_instance(&site, "hello", &[]);
    one_instance(&site, "sha256", &[]);

    // Eight instances: each sees GARM_INSTANCE/GARM_INSTANCES as with `garm run --instances`,
    // instance 5 exits with 3 (the run's status: the first non-zero).
    let (n, elf) = (8, demo(&site, "instance"));
    let got = browser_run(&site, "run=demos/instance.elf&args=5&instances=8");
    let native = native_vec2(&elf, n, &["5"]);
    let native_out = native.out();
    let native_lines: Vec<&str> = native_out.lines().collect();
    let mut status = 0;
    for i in 0..n {
        let env = [
            ("GARM_INSTANCE", i.to_string()),
            ("GARM_INSTANCES", n.to_string()),
        ];
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let q = qemu(&elf, &["5"], &env, b"");
        let want = prefixed(&q.out(), i, n);
        let mine: Vec<String> = got
            .iter()
            .filter(|l| l.starts_with(&format!("[{i}] ")) && !l.contains("] exit "))
            .cloned()
            .collect();
        assert_eq!(mine, want, "instance {i} in the browser vs qemu-aarch64");
        let theirs: Vec<String> = native_lines
            .iter()
            .filter(|l| l.starts_with(&format!("[{i}] ")))
            .map(|l| l.to_string())
            .collect();
        assert_eq!(theirs, want, "instance {i} natively with --prelude vec2");
        assert!(
            got.contains(&format!("[{i}] exit {}", q.status)),
            "instance {i}'s exit status {} in {got:?}",
            q.status
        );
        if status == 0 {
            status = q.status;
        }
    }
    assert_eq!(got.last(), Some(&format!("exit {status}")));
    assert_eq!(native.status, status);
    drop(site);
}

/// The browser's way to guest memory, natively: with `GARM_DEFERRED_READS=1` the host reads
/// only what was read back since the last submit (a syscall's argument pages first; a miss is
/// retried after one more round trip), as a browser must. Bad pointers, mmap, signal frames
/// (V registers included) and rt_sigreturn, vfork and exec, threads, stdin through read(2) and
/// musl's writev must give qemu-aarch64's output and status.
#[test]
fn deferred_reads_as_in_a_browser_match_qemu() {
    let deferred = [("GARM_DEFERRED_READS", "1")];
    for prog in [
        "tests/os/smallerrs",
        "tests/os/mmaps",
        "tests/os/signals",
        "tests/os/sigframe",
        "tests/os/restart",
        "tests/os/vfork",
        "tests/os/workers",
        "demos/cat",
    ] {
        let elf = build(prog);
        let stdin = b"one line\nand another\n";
        let g = garm_env(&[elf.to_str().unwrap()], &deferred, stdin);
        let q = qemu(&elf, &[], &[], stdin);
        assert_eq!(g.out(), q.out(), "{prog}: garm stderr: {}", g.stderr);
        assert_eq!(g.status, q.status, "{prog}: garm stderr: {}", g.stderr);
    }
    // musl's stdio writes with writev: every buffer is read back before any byte moves (a
    // retry must not write the first buffer twice).
    musl_sysroot();
    let elf = build_with("demos/cat", &["--libc", "musl"]);
    let stdin = b"one\ntwo\n";
    let g = garm_env(&[elf.to_str().unwrap()], &deferred, stdin);
    let q = qemu(&elf, &[], &[], stdin);
    assert_eq!((g.out(), g.status), (q.out(), q.status), "{}", g.stderr);
}

/// What the page offers as downloads: the files the guests made in garm's in-memory
/// filesystem, with the bytes they wrote (`Runner::files_written`, read before the run is
/// reported), one per instance.
#[test]
fn files_the_guests_wrote_are_handed_back() {
    use garm::api::{Config, Instance, Program, Runner};
    let prog = Program::load(&build("tests/web/savefile")).unwrap();
    let instances: Vec<Instance> = (0..2)
        .map(|i| {
            Instance::new(&[
                "savefile",
                "/tmp/out.txt",
                &format!("instance {i} was here"),
            ])
        })
        .collect();
    let mut run = Runner::new(&prog, &instances, &Config::default()).unwrap();
    run.run().unwrap();
    let files = run.files_written();
    let mut got: Vec<String> = files
        .iter()
        .filter(|(p, _)| p.ends_with("/tmp/out.txt"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    got.sort();
    assert_eq!(
        got,
        ["instance 0 was here", "instance 1 was here"],
        "{files:?}"
    );
    for r in run.results() {
        assert_eq!(r.exit_status(), 0);
        assert_eq!(r.stdout, b"wrote 19 bytes to /tmp/out.txt\n");
    }
}
