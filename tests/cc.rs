//! `garm cc` as a compiler driver: the usual cc flags (-I, -D, -O, -g, -Wall, -c, -o, -L, -l,
//! objects, archives, `-` for stdin) build programs whose output equals qemu-aarch64's run of
//! the same ELF and the answer the sources compute; options garm cannot take are refused.

mod common;
use common::*;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn cc_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (bool, String) {
    let mut child = Command::new(garm_bin())
        .current_dir(dir)
        .arg("cc")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn setup(test: &str) -> std::path::PathBuf {
    let dir = tmp().join(format!("cc-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("inc/g.h"), "#define GREET \"hello\"\n").unwrap();
    std::fs::write(
        dir.join("m.c"),
        "#include <stdio.h>\n#include \"g.h\"\nint twice(int);\n\
         int main(void) { printf(\"%s %d %s\\n\", GREET, twice(21), NAME); return 0; }\n",
    )
    .unwrap();
    std::fs::write(dir.join("t.c"), "int twice(int x) { return 2 * x; }\n").unwrap();
    dir
}

fn check(dir: &Path, elf: &str, want: &str) {
    let r = same_as_qemu(&dir.join(elf), &[], &[], b"");
    assert_eq!(r.out(), want);
}

#[test]
fn usual_flags_objects_archives_and_stdin() {
    let dir = setup("flags");
    // -c with -O -g -I -D; the object linked with a second source.
    let (ok, e) = cc_in(&dir, &["-O2", "-g", "-Iinc", "-Wall", "-c", "t.c"], b"");
    assert!(ok, "{e}");
    assert!(dir.join("t.o").is_file());
    let (ok, e) = cc_in(
        &dir,
        &["-I", "inc", "-DNAME=\"obj\"", "m.c", "t.o", "-o", "p1"],
        b"",
    );
    assert!(ok, "{e}");
    check(&dir, "p1", "hello 42 obj\n");
    // An archive through -L/-l, and the default output a.out.
    let ar = Command::new("llvm-ar")
        .current_dir(&dir)
        .args(["rcs", "lib/libtw.a", "t.o"])
        .status()
        .expect("llvm-ar");
    assert!(ar.success());
    let (ok, e) = cc_in(
        &dir,
        &["-Iinc", "-D", "NAME=\"lib\"", "m.c", "-Llib", "-ltw"],
        b"",
    );
    assert!(ok, "{e}");
    check(&dir, "a.out", "hello 42 lib\n");
    // The source on standard input, compiled to an object named by -o.
    let src = std::fs::read(dir.join("t.c")).unwrap();
    let (ok, e) = cc_in(&dir, &["-c", "-", "-o", "s.o"], &src);
    assert!(ok, "{e}");
    let (ok, e) = cc_in(
        &dir,
        &["-Iinc", "-DNAME=\"in\"", "m.c", "s.o", "-op3", "-lm", "-lc"],
        b"",
    );
    assert!(ok, "{e}");
    check(&dir, "p3", "hello 42 in\n");
    // -MMD -MP: a make dependency file beside the object, naming the header.
    let (ok, e) = cc_in(
        &dir,
        &["-Iinc", "-DNAME=\"d\"", "-MMD", "-MP", "-c", "m.c"],
        b"",
    );
    assert!(ok, "{e}");
    let d = std::fs::read_to_string(dir.join("m.d")).unwrap();
    assert!(
        d.starts_with("m.o: m.c") && d.contains("inc/g.h") && d.contains("\ninc/g.h:"),
        "{d}"
    );
    // cc's object name keeps every dot of the source's stem.
    std::fs::copy(dir.join("t.c"), dir.join("t.part.c")).unwrap();
    let (ok, e) = cc_in(&dir, &["-c", "t.part.c"], b"");
    assert!(ok, "{e}");
    assert!(dir.join("t.part.o").is_file());
}

#[test]
fn options_garm_cannot_take_are_refused() {
    let dir = setup("refused");
    for (args, says) in [
        (&["-x", "c", "m.c"][..], "unsupported option -x"),
        (&[][..], "no input files"),
        (&["m.c", "-o"][..], "-o needs a value"),
        (&["nosuch.c"][..], "nosuch.c"),
    ] {
        let (ok, e) = cc_in(&dir, args, b"");
        assert!(!ok, "{args:?} built");
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    // --libc names how to build a .c program; an ELF is already built.
    let r = garm(
        &["--libc", "musl", build("demos/hello").to_str().unwrap()],
        b"",
    );
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("--libc applies to a .c program"),
        "{}",
        r.stderr
    );
}

/// `garm run prog.c FLAGS... -- ARGS...`: cc's flags and a second source before `--`, the
/// guest's arguments after it; the output equals qemu's run of `garm cc`'s build of the same.
#[test]
fn run_takes_cc_flags_before_the_guests_arguments() {
    let dir = setup("runflags");
    let o = Command::new(garm_bin())
        .current_dir(&dir)
        .args([
            "run",
            "m.c",
            "-Iinc",
            "-DNAME=\"run\"",
            "-O1",
            "t.c",
            "--",
            "x",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ok, e) = cc_in(
        &dir,
        &["-Iinc", "-DNAME=\"run\"", "m.c", "t.c", "-o", "p"],
        b"",
    );
    assert!(ok, "{e}");
    let q = qemu(&dir.join("p"), &["x"], &[], b"");
    assert_eq!(String::from_utf8_lossy(&o.stdout), q.out());
    assert_eq!(q.out(), "hello 42 run\n");
}
