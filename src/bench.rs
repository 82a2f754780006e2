//! `garm bench`: garm against qemu-aarch64 on the same ELF, from one run, for one instance and for
//! 64 instances (against 64 qemu processes on all cores). Ratios, not absolute times, are the
//! figures to compare across machines.

use crate::error::Error;
use crate::run::{self, RunOptions};
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One benchmark program and its size argument.
pub struct Case {
    pub name: &'static str,
    pub source: &'static str,
    pub arg: String,
}

pub fn cases(full: bool) -> Vec<Case> {
    vec![
        Case {
            name: "sha256",
            source: "demos/sha256.c",
            arg: if full { "128" } else { "16" }.into(),
        },
        Case {
            name: "sieve",
            source: "demos/primes.c",
            arg: if full { "500000" } else { "60000" }.into(),
        },
        Case {
            name: "queens",
            source: "demos/queens.c",
            arg: if full { "10" } else { "8" }.into(),
        },
    ]
}

fn guest_dir() -> PathBuf {
    let here = PathBuf::from("guest");
    if here.join("demos").is_dir() {
        here
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("guest")
    }
}

fn qemu_wall(elf: &Path, arg: &str, copies: usize) -> Result<f64, Error> {
    let t = Instant::now();
    let mut kids = Vec::new();
    for _ in 0..copies {
        kids.push(
            Command::new("qemu-aarch64")
                .arg(elf)
                .arg(arg)
                .stdout(Stdio::null())
                .spawn()
                .map_err(|_| Error::NoQemu)?,
        );
    }
    for mut k in kids {
        let st = k.wait().map_err(Error::host("qemu-aarch64"))?;
        if !st.success() {
            return Err(Error::EngineFailed {
                engine: "qemu-aarch64",
                program: elf.display().to_string(),
                detail: st.to_string(),
            });
        }
    }
    Ok(t.elapsed().as_secs_f64())
}

/// Run time of `copies` native runs of the program in the JIT oracle, two at a time (the cores).
fn native_wall(objects: &[Vec<u8>], argv: &[String], copies: usize) -> Result<f64, Error> {
    let opts = crate::jit::JitOptions::default();
    let mut total = 0.0;
    for _ in 0..copies.div_ceil(2) {
        let r = crate::jit::run_objects(objects, argv, &opts)?;
        if r.status != 0 {
            return Err(Error::EngineFailed {
                engine: "native JIT",
                program: argv.first().cloned().unwrap_or_default(),
                detail: format!("status {}", r.status),
            });
        }
        total += r.run_time.as_secs_f64();
    }
    Ok(total)
}

/// Runs the benchmark and prints its table; `full` picks the sizes used for reported figures.
pub fn bench(full: bool, adapter: Option<String>) -> Result<(), Error> {
    let tc = Toolchain::find()?;
    let dir = std::env::temp_dir().join(format!("garm-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(Error::io(&dir))?;
    crate::out_ln!(
        "{:<8} {:>9} {:<9} {:>13} {:>9} {:>8} {:>10} {:>10} {:>10} {:>11} {:>8}   where garm's time goes",
        "program",
        "instances",
        "tier",
        "instructions",
        "garm MIPS",
        "garm s",
        "qemu s",
        "native s",
        "garm/qemu",
        "garm/native",
        "pipeline"
    );
    for case in cases(full) {
        let elf = dir.join(format!("{}.elf", case.name));
        tc.build(&[guest_dir().join(case.source)], &elf, &[])?;
        let bytes = std::fs::read(&elf).map_err(Error::io(&elf))?;
        let host = crate::jit::compile(&tc, &guest_dir().join(case.source), &[])?;
        // The tiers alternate within each size, next to one qemu and one native measurement.
        for (n, tier) in [1u32, 64]
            .into_iter()
            .flat_map(|n| [crate::tier::Mode::Interp, crate::tier::Mode::Auto].map(|t| (n, t)))
        {
            let opts = RunOptions {
                instances: n,
                adapter: adapter.clone(),
                tier,
                ..Default::default()
            };
            let argv = vec![case.name.to_string(), case.arg.clone()];
            let t = Instant::now();
            let rep = run::run(&bytes, &argv, &opts, false)?;
            let garm_wall = t.elapsed().as_secs_f64();
            // A set still compiling on the worker when the run ended finishes before the next
            // measurement (it would take a core from it), outside every figure.
            let after = crate::gpu::machine::tiered::settle(std::time::Duration::from_secs(120));
            if let Some(bad) = rep.outcomes.iter().find(|o| o.exit_status() != 0) {
                return Err(Error::EngineFailed {
                    engine: "garm",
                    program: case.name.to_string(),
                    detail: format!("{bad:?}"),
                });
            }
            let qemu = qemu_wall(&elf, &case.arg, n as usize)?;
            let native = native_wall(&host.objects, &argv, n as usize)?;
            let insns: u64 = rep.instructions.iter().sum();
            let exec = rep.exec_time.as_secs_f64();
            let s = &rep.stats;
            crate::out_ln!(
                "{:<8} {:>9} {:<9} {:>13} {:>9.2} {:>8.2} {:>10.3} {:>10.4} {:>10.1} {:>11.0} {:>7.2}s   gpu {:.0}%, readback {:.1}%, host {:.1}% ({} syscalls, {} submits, {} dispatches){}",
                case.name,
                n,
                match tier {
                    crate::tier::Mode::Interp => "interp",
                    crate::tier::Mode::Translate => "translate",
                    crate::tier::Mode::Auto => "auto",
                },
                insns,
                insns as f64 / exec / 1e6,
                garm_wall,
                qemu,
                native,
                garm_wall / qemu,
                garm_wall / native,
                s.pipeline_time.as_secs_f64(),
                100.0 * s.gpu_time.as_secs_f64() / exec,
                100.0 * s.readback_time.as_secs_f64() / exec,
                100.0 * (exec - s.gpu_time.as_secs_f64() - s.readback_time.as_secs_f64()).max(0.0) / exec,
                rep.host_syscalls,
                s.submits,
                s.dispatches,
                if s.tier_insns > 0 {
                    format!(
                        "; {:.1}% translated, the first at {:.2} s, tier compile {:.2} s (+{:.2} s after the run)",
                        100.0 * s.tier_insns as f64 / insns.max(1) as f64,
                        rep.stats.tier_first.map_or(0.0, |d| d.as_secs_f64()),
                        s.tier_compile.as_secs_f64(),
                        after.as_secs_f64()
                    )
                } else {
                    String::new()
                },
            );
        }
    }
    host_costs(&tc, &dir, adapter)?;
    let _ = std::fs::remove_dir_all(&dir);
    crate::out_ln!("garm s: wall time of the whole run (pipeline creation included); qemu s: 1 or 64 qemu-aarch64 processes started together; native s: the same C in garm's native JIT (x86-64), run time of 1 or 64 copies, 2 at a time.");
    Ok(())
}

/// Cost of one host-handled syscall round trip and of one fork (+ wait), from the difference
/// between two runs of `syscost` that differ only in the count.
fn host_costs(tc: &Toolchain, dir: &Path, adapter: Option<String>) -> Result<(), Error> {
    let elf = dir.join("syscost.elf");
    tc.build(&[guest_dir().join("tests/os/syscost.c")], &elf, &[])?;
    let bytes = std::fs::read(&elf).map_err(Error::io(&elf))?;
    let time = |calls: u32, forks: u32| -> Result<f64, Error> {
        let opts = RunOptions {
            adapter: adapter.clone(),
            ..Default::default()
        };
        let argv = vec!["syscost".to_string(), calls.to_string(), forks.to_string()];
        let rep = run::run(&bytes, &argv, &opts, false)?;
        Ok(rep.exec_time.as_secs_f64())
    };
    let base = time(0, 0)?;
    let calls = time(200, 0)?;
    let forks = time(0, 20)?;
    crate::out_ln!(
        "host syscall round trip (getppid): {:.2} ms each; fork + exit + wait: {:.2} ms each (lavapipe: submit + readback per round trip)",
        (calls - base) * 1e3 / 200.0,
        (forks - base) * 1e3 / 20.0
    );
    Ok(())
}
