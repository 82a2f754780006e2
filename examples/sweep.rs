//! A parameter sweep: one guest program, 256 instances (or the count given as the first
//! argument), each computing the Collatz chain from its own starting value, all on the GPU in
//! one run; prints the longest chain and each instance's instruction count summary.
//!
//! `cargo run --release --example sweep -- [INSTANCES]`

use garm::api::{Config, Instance, Outcome, Program, Runner};
use std::path::Path;

fn main() -> Result<(), garm::api::Error> {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(256);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/guest/collatz.c");
    let prog = Program::build_c(&[&src], &["-O2"])?;
    // Starting values 1..=count, one per instance.
    let instances: Vec<Instance> = (1..=count)
        .map(|n| Instance::new(&["collatz", &n.to_string()]))
        .collect();
    let config = Config::default().max_procs(count as u32);
    let mut run = Runner::new(&prog, &instances, &config)?;
    run.run()?;
    let mut best = (0u64, 0u64);
    let mut total = 0u64;
    for (i, r) in run.results().iter().enumerate() {
        assert_eq!(r.outcome, Outcome::Exited(0), "instance {i}");
        let line = String::from_utf8_lossy(&r.stdout).into_owned();
        let f: Vec<u64> = line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        let [n, steps, _peak] = f[..] else {
            panic!("instance {i} printed {line:?}");
        };
        if steps > best.1 {
            best = (n, steps);
        }
        total += r.instructions;
    }
    println!("instances {count}");
    println!("longest chain: n={} steps={}", best.0, best.1);
    println!("instructions retired: {total}");
    Ok(())
}
