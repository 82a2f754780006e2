//! The native JIT oracle's loader and runner: it refuses bad objects with a clear error, and a
//! guest crash or hang is reported without taking the host down.

mod common;
use common::*;
use garm::jit::{self, JitOptions};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

fn tc() -> garm::toolchain::Toolchain {
    garm::toolchain::Toolchain::find().expect("clang and ld.lld")
}

fn write_src(name: &str, text: &str) -> PathBuf {
    // A stable path, so a second run of the suite hits the compile cache.
    let p = tmp().join(format!("jit-{name}.c"));
    std::fs::write(&p, text).unwrap();
    p
}

fn host_build(name: &str, text: &str) -> Vec<Vec<u8>> {
    jit::compile(&tc(), &write_src(name, text), &[])
        .expect("host build")
        .objects
}

fn load_err(objs: &[Vec<u8>]) -> String {
    let refs: Vec<&[u8]> = objs.iter().map(|o| o.as_slice()).collect();
    match jit::loader::load(&refs, jit::ENTRY) {
        Ok(_) => panic!("the loader accepted a bad object"),
        Err(e) => e,
    }
}

const HELLO: &str = "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 7; }\n";

#[test]
fn runs_and_exits_with_status() {
    let objs = host_build("hello", HELLO);
    let r = jit::run_objects(&objs, &["hello".into()], &JitOptions::default()).unwrap();
    assert_eq!(r.stdout, b"hi\n");
    assert_eq!(r.status, 7);
}

#[test]
fn refuses_truncated_object() {
    let mut objs = host_build("trunc", HELLO);
    let last = objs.last_mut().unwrap();
    last.truncate(last.len() / 2);
    let e = load_err(&objs);
    assert!(e.contains("truncated") || e.contains("malformed"), "{e}");
}

#[test]
fn refuses_wrong_machine() {
    // The same program compiled for the GPU (AArch64) instead of the host.
    let src = write_src("arm", HELLO);
    let t = tc();
    let rt = t.runtime().unwrap();
    let obj = t
        .compile(&src, &garm::toolchain::cflags(), &rt, &[])
        .unwrap();
    let e = load_err(&[obj]);
    assert!(e.contains("wrong machine") && e.contains("Aarch64"), "{e}");
}

#[test]
fn refuses_unsupported_relocation() {
    // A thread-local variable brings a TLS section and TLS relocations: both unsupported.
    let objs = host_build("tls", "__thread int x = 3;\nint main(void) { return x; }\n");
    let e = load_err(&objs);
    assert!(
        e.contains("thread-local") || e.contains("R_X86_64_TPOFF"),
        "{e}"
    );
    // Rewrite the type of the program's first relocation to R_X86_64_GOTTPOFF (22): named.
    let mut objs = host_build("reloc", HELLO);
    let obj = objs.last_mut().unwrap();
    let (off, _) = first_rela(obj);
    obj[off + 8..off + 12].copy_from_slice(&22u32.to_le_bytes());
    let e = load_err(&objs);
    assert!(
        e.contains("unsupported relocation") && e.contains("R_X86_64_GOTTPOFF"),
        "{e}"
    );
}

/// File offset and size of the first entry of the first SHT_RELA section of an ELF64 object.
fn first_rela(o: &[u8]) -> (usize, usize) {
    let u64_at = |p: usize| u64::from_le_bytes(o[p..p + 8].try_into().unwrap()) as usize;
    let u16_at = |p: usize| u16::from_le_bytes(o[p..p + 2].try_into().unwrap()) as usize;
    let u32_at = |p: usize| u32::from_le_bytes(o[p..p + 4].try_into().unwrap());
    let (shoff, shentsize, shnum) = (u64_at(0x28), u16_at(0x3a), u16_at(0x3c));
    for i in 0..shnum {
        let sh = shoff + i * shentsize;
        if u32_at(sh + 4) == 4 && u64_at(sh + 0x20) > 0 {
            return (u64_at(sh + 0x18), u64_at(sh + 0x20));
        }
    }
    panic!("no relocations");
}

#[test]
fn refuses_undefined_symbol() {
    let objs = host_build(
        "undef",
        "extern int host_thing(void);\nint main(void) { return host_thing(); }\n",
    );
    let e = load_err(&objs);
    assert!(e.contains("undefined symbol 'host_thing'"), "{e}");
}

#[test]
fn crash_and_hang_are_reported() {
    let objs = host_build(
        "crash",
        "int main(void) { volatile int *p = (int *)8; return *p; }\n",
    );
    let r = jit::run_objects(&objs, &["crash".into()], &JitOptions::default()).unwrap();
    assert_eq!(r.status, 139, "SIGSEGV as a shell shows it");
    let objs = host_build("hang", "int main(void) { for (;;) {} }\n");
    let opts = JitOptions {
        timeout: Duration::from_millis(300),
        ..Default::default()
    };
    let r = jit::run_objects(&objs, &["hang".into()], &opts).unwrap();
    assert!(r.timed_out);
    assert_eq!(r.status, 124);
}

#[test]
fn stdin_args_env_and_heap() {
    let objs = host_build(
        "io",
        r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    char line[64];
    while (fgets(line, sizeof line, stdin)) printf("got %s", line);
    char *p = malloc(1 << 20);
    memset(p, 1, 1 << 20);
    printf("argc %d %s HOME=%s heap %d\n", argc, argv[1], getenv("HOME"), p[12345]);
    fprintf(stderr, "to stderr\n");
    return 0;
}
"#,
    );
    let opts = JitOptions {
        stdin: b"one\ntwo\n".to_vec(),
        ..Default::default()
    };
    let r = jit::run_objects(&objs, &["io".into(), "arg1".into()], &opts).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "got one\ngot two\nargc 2 arg1 HOME=/ heap 1\n"
    );
    assert_eq!(r.stderr, b"to stderr\n");
}

/// `garm diff` agrees on a corpus program (exit 0, one line per engine) and reports a planted
/// disagreement (a program whose output depends on the architecture) with exit status 1.
#[test]
fn garm_diff_agrees_and_disagrees() {
    let src = root().join("guest/tests/corpus/crc32_kat.c");
    let o = Command::new(garm_bin())
        .arg("diff")
        .arg(&src)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("gpu ") && out.contains("jit ") && out.contains("agree"),
        "{out}"
    );
    let arch = write_src(
        "arch",
        "#include <stdio.h>\nint main(void) {\n#ifdef __x86_64__\nputs(\"x86\");\n#else\nputs(\"arm\");\n#endif\nreturn 0; }\n",
    );
    let o = Command::new(garm_bin())
        .arg("diff")
        .arg(&arch)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("DIFFER: stdout line 1"), "{out}");
}

#[test]
fn garm_diff_gives_every_engine_the_same_stdin() {
    use std::io::Write;
    let src = root().join("guest/demos/cat.c");
    let mut child = Command::new(garm_bin())
        .arg("diff")
        .arg(&src)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"one\ntwo three\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("agree") && out.contains("(14 bytes)"),
        "{out}"
    );
}

/// Serialises the dlopen tests, so each can check that its temporary directories are gone.
#[cfg(feature = "dlopen")]
static DLOPEN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// No `garm-jit-PID-*` directory of this process is left in the temporary directory.
#[cfg(feature = "dlopen")]
fn no_dlopen_leftovers() {
    let prefix = format!("garm-jit-{}-", std::process::id());
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// The dlopen fallback runs corpus programs (function-pointer tables, so dynamic relocations;
/// big constant tables; malloc) exactly as the in-memory loader and qemu-aarch64 do.
#[cfg(feature = "dlopen")]
#[test]
fn dlopen_agrees_with_loader_and_qemu() {
    let _g = DLOPEN.lock().unwrap_or_else(|e| e.into_inner());
    for name in ["funcptr_callbacks", "sha256_kat", "malloc_stress"] {
        let rel = format!("tests/corpus/{name}");
        let elf = build(&rel);
        let q = qemu(&elf, &[], &[], b"");
        let host = jit::compile(&tc(), &root().join(format!("guest/{rel}.c")), &[]).unwrap();
        let argv = vec![elf.to_string_lossy().into_owned()];
        let run = |dlopen| {
            let opts = JitOptions {
                dlopen,
                ..Default::default()
            };
            jit::run_objects(&host.objects, &argv, &opts).unwrap()
        };
        let (mem, dl) = (run(false), run(true));
        assert!(dl.dlopen && !mem.dlopen);
        assert_eq!(dl.stdout, q.stdout, "{name}: dlopen vs qemu");
        assert_eq!(dl.stdout, mem.stdout, "{name}: dlopen vs in-memory loader");
        assert_eq!((dl.status, mem.status), (q.status, q.status), "{name}");
        eprintln!(
            "{name}: compile {:.1} ms; in-memory load {:.2} ms, run {:.1} ms; \
             link+dlopen {:.2} ms, run {:.1} ms",
            host.compile_time.as_secs_f64() * 1e3,
            mem.load_time.as_secs_f64() * 1e3,
            mem.run_time.as_secs_f64() * 1e3,
            dl.load_time.as_secs_f64() * 1e3,
            dl.run_time.as_secs_f64() * 1e3
        );
    }
    no_dlopen_leftovers();
}

/// Guest constructors and destructors run once, in the child (not in garm at dlopen or dlclose),
/// a crash is reported as with the loader, and `garm diff --dlopen` and `GARM_JIT=dlopen` take
/// the fallback.
#[cfg(feature = "dlopen")]
#[test]
fn dlopen_constructors_crash_and_selection() {
    let _g = DLOPEN.lock().unwrap_or_else(|e| e.into_inner());
    let opts = JitOptions {
        dlopen: true,
        ..Default::default()
    };
    let objs = host_build(
        "ctor",
        "#include <stdio.h>\nvolatile int g = 5;\n\
         __attribute__((constructor)) static void c(void) { puts(\"ctor\"); g = 40; }\n\
         __attribute__((destructor)) static void d(void) { puts(\"dtor\"); }\n\
         int main(void) { printf(\"main %d\\n\", g); return 3; }\n",
    );
    let r = jit::run_objects(&objs, &["ctor".into()], &opts).unwrap();
    assert_eq!(String::from_utf8_lossy(&r.stdout), "ctor\nmain 40\ndtor\n");
    assert_eq!(r.status, 3);
    let objs = host_build(
        "dlcrash",
        "int main(void) { volatile int *p = (int *)8; return *p; }\n",
    );
    let r = jit::run_objects(&objs, &["crash".into()], &opts).unwrap();
    assert_eq!(r.status, 139, "SIGSEGV as a shell shows it");
    no_dlopen_leftovers();

    let src = root().join("guest/tests/corpus/crc32_kat.c");
    let by_flag = Command::new(garm_bin())
        .args(["diff", "--dlopen"])
        .arg(&src)
        .output()
        .unwrap();
    let by_env = Command::new(garm_bin())
        .arg("diff")
        .arg(&src)
        .env("GARM_JIT", "dlopen")
        .output()
        .unwrap();
    for o in [by_flag, by_env] {
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.contains("link+dlopen") && out.contains("agree"),
            "{out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
