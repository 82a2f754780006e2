//! The library API's two examples (examples/sweep.rs, examples/fuzzloop.rs), run at small sizes
//! against known answers: the longest Collatz chain below 28 starts at 27 (111 steps), and the
//! fuzzing loop finds the input that crashes its target.

use std::path::PathBuf;
use std::process::Command;

/// The example's binary, as `cargo test` builds it beside the tests (built here when a filtered
/// `cargo test` left it out).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let bin = dir.join("examples").join(name);
    if !bin.exists() {
        let release = dir.file_name().is_some_and(|d| d == "release");
        let mut c = Command::new(env!("CARGO"));
        c.args(["build", "--example", name]);
        if release {
            c.arg("--release");
        }
        assert!(
            c.status().unwrap().success(),
            "cargo build --example {name}"
        );
    }
    bin
}

fn run(name: &str, args: &[&str]) -> String {
    let o = Command::new(example(name)).args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{name} {args:?}: {}\n{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn sweep_finds_the_longest_collatz_chain() {
    let out = run("sweep", &["27"]);
    assert!(out.contains("instances 27"), "{out}");
    assert!(out.contains("longest chain: n=27 steps=111"), "{out}");
}

#[test]
fn the_fuzzing_loop_finds_the_crash() {
    let out = run("fuzzloop", &["64", "GP", "100"]);
    assert!(out.contains("crash: \"GP"), "{out}");
}
