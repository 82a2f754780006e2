//! garm's own C compiler (guest/cc/cc.c): built by clang (stage 0), run on garm (the
//! GPU, or lavapipe) to compile each program of guest/cc/tests; what it writes runs under
//! qemu-aarch64 and garm and must equal the clang build of the same source under qemu (stdout
//! and exit status). Bad sources get a `file:line:col: error:` and exit 1, never a crash.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Stage 0: the compiler (guest/cc/cc.c and fold.c) built by clang, once per test process.
fn stage0() -> PathBuf {
    static S0: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    S0.get_or_init(|| {
        let out = tmp().join(format!("selfcc-stage0-{}.elf", std::process::id()));
        let o = Command::new(garm_bin())
            .arg("cc")
            .args(garm::selfhost::COMPILER.iter().map(|s| root().join(s)))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    })
    .clone()
}

/// A fresh directory for one test's sources and outputs.
fn workdir(name: &str) -> PathBuf {
    let d = tmp().join(format!("selfcc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every source of guest/cc/tests with its headers into `dir` (macros.c includes macros.h from
/// its own directory).
fn copy_tests(dir: &Path) {
    for e in std::fs::read_dir(root().join("guest/cc/tests")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
}

/// Runs stage 0 (the compiler clang built) on garm: `cc /w/NAME.c -o /w/NAME.elf` with `dir`
/// mounted at /w.
fn garm_cc(cc: &Path, dir: &Path, name: &str) -> Ran {
    let mount = format!("{}:/w", dir.display());
    let src = format!("/w/{name}.c");
    let out = format!("/w/{name}.elf");
    garm(
        &[
            "--timeout",
            "300",
            "--mount",
            &mount,
            cc.to_str().unwrap(),
            &src,
            "-o",
            &out,
        ],
        b"",
    )
}

/// The clang build of a test program (one source text each file): `__syscall` through the
/// garm runtime's `__syscall6`.
fn clang_build(dir: &Path, name: &str, texts: &[&str]) -> PathBuf {
    let shim = "#include <garm.h>\n#define __syscall(n, a, b, c) \
                __syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)\n";
    let out = dir.join(format!("{name}-clang.elf"));
    let mut cmd = Command::new(garm_bin());
    cmd.arg("cc");
    for (i, text) in texts.iter().enumerate() {
        let src = dir.join(format!("{name}-clang{i}.c"));
        std::fs::write(&src, format!("{shim}{text}")).unwrap();
        cmd.arg(src);
    }
    let o = cmd.arg("-o").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn stage0_on_the_gpu_compiles_programs_that_equal_their_clang_builds() {
    let cc = stage0();
    let dir = workdir("progs");
    copy_tests(&dir);
    for name in [
        "basics", "sieve", "types", "init", "macros", "funcs", "structs", "varargs",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.c"))).unwrap();
        let r = garm_cc(&cc, &dir, name);
        assert_eq!(r.status, 0, "cc {name}: {}", r.stderr);
        let elf = dir.join(format!("{name}.elf"));
        let oracle = qemu(
            &clang_build(&dir, name, &[&text]),
            &["one", "two"],
            &[],
            b"",
        );
        let q = qemu(&elf, &["one", "two"], &[], b"");
        assert_eq!(
            (q.out(), q.status),
            (oracle.out(), oracle.status),
            "{name} under qemu"
        );
        let g = garm(&[elf.to_str().unwrap(), "one", "two"], b"");
        assert_eq!(
            (g.out(), g.status),
            (oracle.out(), oracle.status),
            "{name} on garm"
        );
    }
}

#[test]
fn several_files_make_one_program() {
    // multi_main.c and multi_lib.c share a header, a struct type, a global and functions, and
    // each has a static function of the same name; the oracle is clang's build of the two.
    let cc = stage0();
    let dir = workdir("multi");
    copy_tests(&dir);
    let mount = format!("{}:/w", dir.display());
    let r = garm(
        &[
            "--timeout",
            "300",
            "--mount",
            &mount,
            cc.to_str().unwrap(),
            "/w/multi_main.c",
            "/w/multi_lib.c",
            "-o",
            "/w/multi.elf",
        ],
        b"",
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let (main, lib) = (read("multi_main.c"), read("multi_lib.c"));
    let oracle = qemu(&clang_build(&dir, "multi", &[&main, &lib]), &[], &[], b"");
    let elf = dir.join("multi.elf");
    let g = garm(&[elf.to_str().unwrap()], b"");
    assert_eq!((g.out(), g.status), (oracle.out(), oracle.status));
    assert_eq!(g.out(), "35\n25\n12\n1015\n");
}

#[test]
fn bad_sources_get_a_diagnostic_with_line_and_column() {
    let cc = stage0();
    let dir = workdir("errors");
    let cases = [
        (
            "float",
            "int main() {\n  long double d;\n  return d;\n}\n",
            "float.c: error: long double values (not yet)",
        ),
        (
            "twice",
            "int f() { return 1; }\nint f() { return 2; }\nint main() { return f(); }\n",
            "twice.c:2:5: error: a function defined twice",
        ),
        (
            "hasherror",
            "#if 1 + 1 == 2\n#error stop here\n#endif\n",
            "hasherror.c:2:2: error: #error",
        ),
        (
            "noendif",
            "#ifdef X\nint main() { return 0; }\n",
            "noendif.c:3:1: error: #if without #endif",
        ),
        (
            "noinclude",
            "#include \"nothere.h\"\n",
            "noinclude.c:1:10: error: included file not found",
        ),
        (
            "macroargs",
            "#define F(a, b) a\nint main() { return F(1); }\n",
            "macroargs.c:2:21: error: wrong number of macro arguments",
        ),
        (
            "undeclared",
            "int main() {\n  return x;\n}\n",
            "undeclared.c:2:10: error: undeclared identifier",
        ),
        (
            "syntax",
            "int main() {\n  int a = ;\n}\n",
            "syntax.c:2:11: error: expected an expression",
        ),
        (
            "brace",
            "int main() {\n  return 0;\n",
            "brace.c:3:1: error: expected '}'",
        ),
        (
            "deref",
            "int main() {\n  int a;\n  return *a;\n}\n",
            "deref.c:3:10: error: dereferencing a value that is not a pointer",
        ),
        (
            "nofunc",
            "int main() { return f(1); }\n",
            "nofunc.c:1:21: error: call to an undefined function",
        ),
        (
            "string",
            "int main() { char *s = \"abc; }\n",
            "string.c:1:24: error: unterminated string",
        ),
        (
            "lvalue",
            "int main() { 3 = 4; }\n",
            "lvalue.c:1:14: error: not an lvalue",
        ),
        (
            "break",
            "int main() { break; }\n",
            "break.c:1:14: error: break or continue outside a loop",
        ),
    ];
    for (name, text, want) in cases {
        std::fs::write(dir.join(format!("{name}.c")), text).unwrap();
        let r = garm_cc(&cc, &dir, name);
        assert_eq!(r.status, 1, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("/w/{want}")),
            "{name}: want {want:?}, got {:?}",
            r.stderr
        );
    }
}

/// The compiler's tree (its source and headers, the runtime), stage 1 built by stage 0 on garm,
/// and the runtime as a library of the compiler; made once per test process.
struct Boot {
    dir: PathBuf,
    stage1: PathBuf,
    lib: PathBuf,
}

/// The runtime sources the compiler takes (garm selfhost's list).
fn runtime_sources() -> Vec<&'static str> {
    garm::selfhost::runtime_sources()
}

fn includes(dir: &Path) -> Vec<String> {
    garm::selfhost::includes(dir)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let t = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

fn boot() -> &'static Boot {
    static BOOT: std::sync::OnceLock<Boot> = std::sync::OnceLock::new();
    BOOT.get_or_init(|| {
        let stage0 = stage0();
        let dir = workdir("boot");
        std::fs::create_dir_all(dir.join("guest/cc")).unwrap();
        for f in garm::selfhost::COMPILER {
            std::fs::copy(root().join(f), dir.join(f)).unwrap();
        }
        for d in ["guest/cc/include", "guest/include", "guest/rt"] {
            copy_tree(&root().join(d), &dir.join(d));
        }
        // Stage 1: stage 0 on garm compiling the compiler and the runtime.
        let stage1 = dir.join("stage1.elf");
        let mount = format!("{}:{}", dir.display(), dir.display());
        let mut args: Vec<String> = ["--timeout", "600", "--mem", "128M", "--mount", &mount]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.push(stage0.display().to_string());
        args.extend(includes(&dir));
        args.extend(
            garm::selfhost::COMPILER
                .iter()
                .map(|f| dir.join(f).display().to_string()),
        );
        args.extend(
            runtime_sources()
                .iter()
                .map(|s| dir.join(s).display().to_string()),
        );
        args.extend(["-o".into(), stage1.display().to_string()]);
        let r = garm(&args, b"");
        assert_eq!(r.status, 0, "stage 1: {}", r.stderr);
        // The runtime as the compiler's library: made by stage 1 itself (under qemu, for time;
        // the same compiler makes the same bytes anywhere, as the fixed point shows).
        let lib = dir.join("runtime.lib");
        let mut cmd = Command::new("qemu-aarch64");
        cmd.arg(&stage1).arg("--library").args(includes(&dir));
        cmd.args(runtime_sources().iter().map(|s| dir.join(s)));
        let o = cmd.arg("-o").arg(&lib).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Boot { dir, stage1, lib }
    })
}

#[test]
fn stage1_built_on_the_gpu_compiles_itself_to_the_same_bytes() {
    // The fixed point: stage 1 (built on garm by the clang-built compiler) compiling the
    // compiler and the runtime again writes itself. `garm selfhost` runs stage 2 on garm too
    // (a benchmark: ~3 minutes on lavapipe).
    let b = boot();
    let stage2 = b.dir.join("stage2.elf");
    let mut cmd = Command::new("qemu-aarch64");
    cmd.arg(&b.stage1).args(includes(&b.dir));
    cmd.args(garm::selfhost::COMPILER.iter().map(|f| b.dir.join(f)));
    cmd.args(runtime_sources().iter().map(|s| b.dir.join(s)));
    let o = cmd.arg("-o").arg(&stage2).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read(&b.stage1).unwrap() == std::fs::read(&stage2).unwrap(),
        "stage 1 and stage 2 differ"
    );
}

/// What the clang build of `src` prints under qemu (output and errors, then its status), the
/// same text batch.c records for garm's build.
fn clang_oracle(src: &Path, dir: &Path) -> String {
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    let elf = dir.join(format!("{name}.clang.elf"));
    let o = Command::new(garm_bin())
        .arg("cc")
        .arg(src)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "clang {name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    as_seen(&qemu(&elf, &[], &[], b""))
}

/// A run's output and errors, then its status: the text batch.c records for a run on garm.
fn as_seen(r: &Ran) -> String {
    format!("{}{}\nstatus {}", r.out(), r.stderr, r.status)
}

/// What stage 1 under qemu-aarch64 makes of `src` (`cc [-I DIR]... FILE LIB -o OUT`, as batch.c
/// runs it): the compiler's exit status and diagnostics, and, when it compiled, what its ELF
/// prints under qemu in clang_oracle's form.
fn stage1_under_qemu(b: &Boot, src: &Path, out: &Path) -> (i32, String, Option<String>) {
    let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
    let elf = out.join(format!("{stem}.qemu.elf"));
    let o = Command::new("qemu-aarch64")
        .arg(&b.stage1)
        .args(includes(&b.dir))
        .arg(src)
        .arg(&b.lib)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    let mut err = String::from_utf8_lossy(&o.stdout).into_owned();
    err.push_str(&String::from_utf8_lossy(&o.stderr));
    let status = o.status.code().unwrap_or(-1);
    if status != 0 {
        return (status, err, None);
    }
    (0, err, Some(as_seen(&qemu(&elf, &[], &[], b""))))
}

/// Every program of `src_dir` compiled by stage 1 must run as its clang build does (both under
/// qemu-aarch64), and those `on_garm` picks (by index and name) also compiled and run on garm,
/// many compilers at once
/// (guest/cc/batch.c over up to 32 instances): garm's compile must write the very bytes qemu's
/// did and its run print the same. (All 260 programs on lavapipe took over 20 minutes: garm
/// running the compiler is what the sample checks; the compiler itself is checked on all.)
/// `gaps`: programs the compiler must refuse with a diagnostic.
fn stage1_on_the_gpu(
    name: &str,
    src_dir: &Path,
    gaps: &[&str],
    on_garm: impl Fn(usize, &str) -> bool,
) {
    let b = boot();
    let batch = build("cc/batch");
    let out = workdir(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(src_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let stem = |f: &Path| f.file_stem().unwrap().to_string_lossy().into_owned();
    let sample: Vec<&PathBuf> = (files.iter().enumerate())
        .filter(|(i, f)| on_garm(*i, &stem(f)))
        .map(|(_, f)| f)
        .collect();
    let instances = sample.len().min(32).to_string();
    let mut args: Vec<String> = [
        "--timeout",
        "1200",
        "--instances",
        &instances,
        "--max-procs",
        "64",
        "--mem",
        "32M",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for d in [&b.dir, &out, &src_dir.to_path_buf()] {
        args.extend(["--mount".into(), format!("{}:{}", d.display(), d.display())]);
    }
    args.push(batch.display().to_string());
    args.push(b.stage1.display().to_string());
    args.push(out.display().to_string());
    args.push(b.lib.display().to_string());
    args.extend(includes(&b.dir));
    args.push("--".into());
    args.extend(sample.iter().map(|f| f.display().to_string()));
    let r = garm(&args, b"");
    assert_eq!(r.status, 0, "batch: {}", r.stderr);
    // The oracles and stage 1 under qemu, two threads.
    type Seen = (PathBuf, String, (i32, String, Option<String>));
    let seen: Vec<Seen> = std::thread::scope(|s| {
        let halves: Vec<_> = files
            .chunks(files.len().div_ceil(2))
            .map(|chunk| {
                let out = &out;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|f| {
                            (
                                f.clone(),
                                clang_oracle(f, out),
                                stage1_under_qemu(b, f, out),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut bad = Vec::new();
    for (f, want, (cc, cc_err, ran)) in seen {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let read = |ext: &str| std::fs::read_to_string(out.join(format!("{stem}.{ext}")));
        let on_garm = sample.contains(&&f);
        let status = read("status").unwrap_or_else(|_| format!("{stem}: no status"));
        if gaps.contains(&stem.as_str()) {
            assert!(
                cc == 1 && cc_err.contains(": error: "),
                "{stem} should be refused with a diagnostic: {cc} {cc_err}"
            );
            if on_garm {
                let err = read("err").unwrap_or_default();
                assert!(
                    status.starts_with("cc 1 ") && err == cc_err,
                    "{stem} on garm: {status} {err}, under qemu: {cc_err}"
                );
            }
            continue;
        }
        match ran {
            None => bad.push(format!("{stem}: stage 1 under qemu: {cc} {cc_err}")),
            Some(got) if got != want => bad.push(format!(
                "{stem}: stage 1's build under qemu gave\n{got}\nclang's\n{want}"
            )),
            Some(_) => {}
        }
        if !on_garm {
            continue;
        }
        if !status.starts_with("cc 0 ") {
            bad.push(format!(
                "{stem} on garm: {status} {}",
                read("err").unwrap_or_default()
            ));
            continue;
        }
        let elf = |tag: &str| std::fs::read(out.join(format!("{stem}{tag}.elf"))).ok();
        if elf("").is_none() || elf("") != elf(".qemu") {
            bad.push(format!(
                "{stem}: stage 1 wrote other bytes on garm than under qemu"
            ));
        }
        let run: i32 = status.trim().rsplit(' ').next().unwrap().parse().unwrap();
        let got = format!("{}\nstatus {run}", read("out").unwrap_or_default());
        if got != want {
            bad.push(format!(
                "{stem}: garm's build on garm gave\n{got}\nclang's\n{want}"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        files.len(),
        bad.join("\n")
    );
}

#[test]
fn conformance_programs_compiled_by_stage1_on_the_gpu_equal_their_clang_builds() {
    // 260 programs of one form each (guest/cc/conformance); every 8th on garm.
    stage1_on_the_gpu(
        "conformance",
        &root().join("guest/cc/conformance"),
        &[],
        |i, _| i % 8 == 0,
    );
}

#[test]
fn corpus_programs_compiled_by_stage1_on_the_gpu_equal_their_clang_builds() {
    // The integer corpus (guest/tests/corpus), __int128 programs too.
    // On garm, programs that run for well under a second there (__int128, varargs, bit-fields,
    // switch tables, printf): the others take up to 15 s each.
    let quick = [
        "bitfields",
        "funcptr_callbacks",
        "int128_mul",
        "printf_formats",
        "structs_pack",
        "switch_sparse",
        "unions",
        "varargs_own",
    ];
    stage1_on_the_gpu("corpus", &root().join("guest/tests/corpus"), &[], |_, n| {
        quick.contains(&n)
    });
}

#[test]
fn float_programs_compiled_by_stage1_on_the_gpu_equal_their_clang_builds() {
    // guest/tests/float (libm, printf/scanf of floats, float and double arithmetic); the FFT
    // uses _Complex, which the compiler refuses.
    // On garm, the quick ones: the shader's soft-float runs 0.2-0.3 M instructions/s on
    // lavapipe, and integrate alone took 70 s there.
    let quick = ["classify", "complex_fft", "matinv", "trig_float"];
    stage1_on_the_gpu(
        "float",
        &root().join("guest/tests/float"),
        &["complex_fft"],
        |_, n| quick.contains(&n),
    );
}

#[test]
fn garm_cc_compiles_with_the_garm_compiler_on_the_gpu() {
    // `garm cc --compiler garm`: its stage 0 on garm against its runtime library (built on
    // garm once, cached); the program equals its clang build under qemu.
    let dir = workdir("driver");
    let src = root().join("guest/tests/corpus/wordcount_hash.c");
    let elf = dir.join("wc.elf");
    let o = Command::new(garm_bin())
        .args(["cc", "--compiler", "garm", "-O2", "-DUNUSED=1"])
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = clang_oracle(&src, &dir);
    let g = garm(&[elf.to_str().unwrap()], b"");
    assert_eq!(as_seen(&g), want);
    // What it cannot do is said, not done.
    let o = Command::new(garm_bin())
        .args(["cc", "--compiler", "garm", "-c"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no -c"));
}
