//! garm's own C compiler (guest/cc/cc.c): built by clang (stage 0), run on garm (the
//! GPU, or lavapipe) to compile each program of guest/cc/tests; what it writes runs under
//! qemu-aarch64 and garm and must equal the clang build of the same source under qemu (stdout
//! and exit status). Bad sources get a `file:line:col: error:` and exit 1, never a crash.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

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
    let cc = build("cc/cc");
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
    let cc = build("cc/cc");
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
    let cc = build("cc/cc");
    let dir = workdir("errors");
    let cases = [
        (
            "float",
            "int main() {\n  double d;\n  return d;\n}\n",
            "float.c: error: floating point values (not yet)",
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
