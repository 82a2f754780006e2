//! A small fuzzing loop on the GPU: each round runs one instance per input (64, or the count
//! given as the first argument), every instance with its own standard input, a mutation of the
//! best input so far; the exit status is the target's progress signal (the number of magic
//! bytes matched), and inputs that crash the target (SIGSEGV) are kept and printed.
//!
//! `cargo run --release --example fuzzloop -- [INSTANCES] [MAGIC] [ROUNDS]`

use garm::api::{Config, Instance, Outcome, Program, Runner};
use std::path::Path;

/// xorshift64*: the mutations are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// A random change to `input`; half of them at `frontier`, the first byte the target did not
/// accept (the exit status says where that is).
fn mutate(input: &[u8], frontier: usize, rng: &mut Rng) -> Vec<u8> {
    let mut v = input.to_vec();
    if rng.next().is_multiple_of(2) {
        v.resize(v.len().max(frontier + 1), b'A');
        v[frontier] = rng.next() as u8;
        return v;
    }
    match rng.next() % 3 {
        0 if !v.is_empty() => {
            let i = (rng.next() % v.len() as u64) as usize;
            v[i] = rng.next() as u8;
        }
        1 if v.len() < 16 => v.push(rng.next() as u8),
        _ => {
            let i = (rng.next() % (v.len() as u64 + 1)) as usize;
            v.insert(i.min(v.len()), rng.next() as u8);
            v.truncate(16);
        }
    }
    v
}

fn main() -> Result<(), garm::api::Error> {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let magic = args.next().unwrap_or_else(|| "GPU!".into());
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/guest/fuzzme.c");
    let prog = Program::build_c(&[&src], &["-O1"])?;
    let config = Config::default()
        .max_procs(count as u32)
        .max_insns(1_000_000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut best: (Vec<u8>, i32) = (b"AAAA".to_vec(), 0);
    let mut crashes: Vec<Vec<u8>> = Vec::new();
    for round in 1..=rounds {
        let inputs: Vec<Vec<u8>> = (0..count)
            .map(|_| mutate(&best.0, best.1 as usize, &mut rng))
            .collect();
        let instances: Vec<Instance> = inputs
            .iter()
            .map(|inp| Instance::new(&["fuzzme", &magic]).stdin(inp.clone()))
            .collect();
        let mut run = Runner::new(&prog, &instances, &config)?;
        run.run()?;
        for (inp, r) in inputs.iter().zip(run.results()) {
            match r.outcome {
                Outcome::Signaled(11, _) if !crashes.contains(inp) => crashes.push(inp.clone()),
                Outcome::Exited(progress) if progress as i32 > best.1 => {
                    best = (inp.clone(), progress as i32);
                }
                _ => {}
            }
        }
        if !crashes.is_empty() {
            println!("round {round}: {} crashing inputs", crashes.len());
            for c in &crashes {
                println!("crash: {:?}", String::from_utf8_lossy(c));
            }
            return Ok(());
        }
    }
    println!(
        "no crash in {rounds} rounds (best: {} bytes matched)",
        best.1
    );
    std::process::exit(1);
}
