//! The bounded differential fuzz: random blocks from every class of the encoding table (Tier 1
//! and the FP/SIMD classes of Tier 2), run on garm (64 guests) and on qemu-aarch64, must leave
//! identical states (registers, V registers, NZCV, FPSR/FPCR, memory). `garm fuzz` runs the
//! same generator for as long as asked (README "Fuzzing").

use garm::fuzz::{fuzz_classes, fuzz_seed, FuzzConfig};

#[test]
fn bounded_fuzz_matches_qemu_in_every_class() {
    let cfg = FuzzConfig {
        instances: 64,
        blocks_per_instance: 12,
        block_len: 32,
        ..FuzzConfig::default()
    };
    let mut insns = 0;
    let mut classes = std::collections::BTreeMap::new();
    for seed in [1, 2] {
        let r = fuzz_seed(&cfg, seed, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if let Some(d) = r.divergence {
            panic!("garm diverges from qemu-aarch64:\n{d}");
        }
        insns += r.instructions;
        for (c, n) in r.classes {
            *classes.entry(c).or_insert(0u64) += n;
        }
    }
    assert!(insns >= 20_000, "only {insns} instructions fuzzed");
    for c in fuzz_classes() {
        let n = classes.get(c).copied().unwrap_or(0);
        assert!(n >= 200, "class {c} fuzzed only {n} times");
    }
}

/// The same blocks through the translation tier (`garm fuzz --translate`): every block is a
/// region translated before the first dispatch, so what the translator takes runs translated
/// and is compared with qemu-aarch64 (the rest runs interpreted around it).
#[test]
fn bounded_fuzz_through_the_translator_matches_qemu() {
    let cfg = FuzzConfig {
        instances: 8,
        blocks_per_instance: 4,
        block_len: 32,
        translate: true,
        ..FuzzConfig::default()
    };
    let (mut insns, mut translated) = (0, 0);
    // Seed 313's BFXIL under a divergent branch was miscompiled by lavapipe's LLVM on AVX-512
    // hosts (docs/translation-tier.md, "An LLVM miscompile").
    for seed in [11, 12, 13, 313] {
        let r = fuzz_seed(&cfg, seed, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if let Some(d) = r.divergence {
            panic!("translated code diverges from qemu-aarch64:\n{d}");
        }
        insns += r.instructions;
        translated += r.translated;
    }
    assert!(insns >= 2_000, "only {insns} instructions fuzzed");
    // Each block runs once per instance it belongs to; the translator takes most of them.
    assert!(
        translated * 2 >= insns,
        "only {translated} of {insns} ran translated"
    );
}

/// Tier-2 blocks through the translation tier: its V-register loads and stores, SIMD integer
/// recipes and FP run translated between the interpreted rest, against qemu-aarch64.
#[test]
fn bounded_tier2_fuzz_through_the_translator_matches_qemu() {
    let cfg = FuzzConfig {
        instances: 8,
        blocks_per_instance: 4,
        block_len: 32,
        translate: true,
        tier2: true,
        ..FuzzConfig::default()
    };
    let r = fuzz_seed(&cfg, 3, None).unwrap_or_else(|e| panic!("{e}"));
    if let Some(d) = r.divergence {
        panic!("translated code diverges from qemu-aarch64:\n{d}");
    }
    let loads = r.classes.get("FP/SIMD load/store").copied().unwrap_or(0);
    assert!(loads >= 100, "only {loads} FP/SIMD loads and stores fuzzed");
    let simd = r.classes.get("SIMD integer").copied().unwrap_or(0);
    assert!(simd >= 100, "only {simd} SIMD integer instructions fuzzed");
    let fp = r.classes.get("scalar FP").copied().unwrap_or(0);
    assert!(fp >= 100, "only {fp} scalar FP instructions fuzzed");
    // The VEC recipes (src/tier/simd.rs) and the FP unit translate, and regions are entered at
    // them: TBL and the saturating operations are what stays interpreted (917 of 1034 steps;
    // 830 with vector FP interpreted, 745 with all FP, 447 translating only the loads, stores
    // and moves).
    assert!(
        r.translated * 3 >= r.instructions * 2,
        "only {} of {} ran translated",
        r.translated,
        r.instructions
    );
}

/// Tier 2 alone (`garm fuzz --tier2`): FP/SIMD rows with special FP operands and random FPCR
/// modes, so the soft-float and SIMD units see far more than in the mixed run.
#[test]
fn bounded_tier2_fuzz_matches_qemu() {
    let cfg = FuzzConfig {
        instances: 64,
        blocks_per_instance: 8,
        block_len: 32,
        tier2: true,
        ..FuzzConfig::default()
    };
    let r = fuzz_seed(&cfg, 7, None).unwrap_or_else(|e| panic!("{e}"));
    if let Some(d) = r.divergence {
        panic!("garm diverges from qemu-aarch64:\n{d}");
    }
    for c in garm::isa::table::TIER2_CLASSES {
        let n = r.classes.get(c).copied().unwrap_or(0);
        assert!(n >= 500, "class {c} fuzzed only {n} times");
    }
}

/// The oracle has teeth: a shader with one wrong unit (REV16 of W registers left unswapped) is
/// caught, and the report names the instruction.
#[test]
fn a_broken_shader_is_caught_and_named() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("broken-shader");
    std::fs::create_dir_all(&dir).unwrap();
    // GARM_SHADER_DIR: files found there replace the built-in ones; only one unit changes.
    let src = std::fs::read_to_string(format!(
        "{}/shaders/cpu/muldiv.wgsl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert!(src.contains("if opn == OP_REV16 {"));
    let src = src.replace("if opn == OP_REV16 {", "if opn == OP_REV16 && !w {");
    std::fs::write(dir.join("muldiv.wgsl"), src).unwrap();
    // In a child process: the environment variable must not reach the other test's runs.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_garm"))
        .args([
            "fuzz",
            "--seed",
            "10",
            "--instances",
            "64",
            "--blocks",
            "16",
        ])
        .env("GARM_SHADER_DIR", &dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("DIVERGENCE") && out.contains("rev16 w"),
        "{out}"
    );
}

/// `garm fuzz --block K --keep DIR` writes the block's traces: garm's (`--trace`'s format) and
/// qemu-aarch64's `-d exec,cpu` log, executing the same pcs in the same order, so a divergence
/// reads side by side.
#[test]
fn kept_block_traces_line_up_with_qemus_log() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fuzz-keep-{}", std::process::id()));
    let cfg = FuzzConfig {
        keep: Some(dir.clone()),
        ..FuzzConfig::default()
    };
    let r = fuzz_seed(&cfg, 5, Some(3)).unwrap();
    assert!(r.divergence.is_none(), "{:?}", r.divergence);
    let (g, q) = r.traces.expect("traces kept");
    let garm_pcs: Vec<u64> = std::fs::read_to_string(&g)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| u64::from_str_radix(&l.split(' ').nth(1).unwrap()[2..], 16).unwrap())
        .collect();
    let qemu_pcs: Vec<u64> = std::fs::read_to_string(&q)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("Trace"))
        .map(|l| {
            let inner = l.split('[').nth(1).unwrap();
            u64::from_str_radix(inner.split('/').nth(1).unwrap(), 16).unwrap()
        })
        .collect();
    assert!(garm_pcs.len() > 100, "{} lines", garm_pcs.len());
    assert_eq!(garm_pcs, qemu_pcs);
    let _ = std::fs::remove_dir_all(&dir);
}
