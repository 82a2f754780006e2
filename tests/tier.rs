//! The translation tier (docs/translation-tier.md): every region of real programs translates to
//! WGSL that validates under both preludes, and programs run with hot code translated
//! (`--tier translate`, compiled before the next submit) give the interpreter's output, exit
//! status and instruction count, and qemu-aarch64's output; code written after it was
//! translated never runs translated.

mod common;
use common::*;
use garm::gpu::shader::{tier_source, validate, Prelude, Tier};
use garm::os::syscalls::SHADER_HANDLED;
use garm::tier::translate::{translate, Source, Target};
use object::{Object, ObjectSegment};

/// Every loop and called function (up to the tier's size limit) of every executable page of
/// `elf`, translated: (page, code, start, end).
fn all_regions(elf: &[u8]) -> Vec<(u64, Vec<garm::isa::Decoded>, u64, u64)> {
    let f = object::File::parse(elf).expect("an ELF");
    let mut pages = Vec::new();
    for seg in f.segments() {
        let object::SegmentFlags::Elf { p_flags, .. } = seg.flags() else {
            continue;
        };
        if p_flags & object::elf::PF_X == object::elf::ProgramFlags(0) {
            continue;
        }
        let data = seg.data().unwrap();
        let base = seg.address();
        let first = base & !0xfff;
        let mut p = first;
        while p < base + data.len() as u64 {
            let mut bytes = vec![0u8; 4096];
            for (k, b) in bytes.iter_mut().enumerate() {
                let a = p + k as u64;
                if a >= base && a < base + data.len() as u64 {
                    *b = data[(a - base) as usize];
                }
            }
            pages.push((p, garm::isa::decode_page(&bytes, p)));
            p += 4096;
        }
    }
    let entries: Vec<u64> = pages
        .iter()
        .flat_map(|(_, c)| garm::tier::calls(c))
        .collect();
    let mut out = Vec::new();
    for (p, code) in &pages {
        let ones = vec![1u32; 1024];
        let mut rs = garm::tier::loops(*p, code, &ones);
        rs.extend(garm::tier::functions(*p, code, &ones, &entries));
        for r in rs {
            if r.instructions() <= garm::tier::MAX_REGION_INSNS {
                out.push((*p, code.clone(), r.start, r.end));
            }
        }
    }
    out
}

#[test]
fn every_region_of_real_programs_translates_to_valid_wgsl() {
    musl_sysroot();
    let elfs = [
        build("demos/sha256"),
        build("tests/corpus/nqueens"),
        build_with("tests/corpus/md5_kat", &["--libc", "musl"]),
    ];
    let mut total = 0;
    for elf in &elfs {
        let bytes = std::fs::read(elf).unwrap();
        let regions = all_regions(&bytes);
        assert!(
            regions.len() > 10,
            "{}: {} regions",
            elf.display(),
            regions.len()
        );
        total += regions.len();
        for p in [Prelude::U64, Prelude::Vec2] {
            let t = Target {
                native64: p == Prelude::U64,
            };
            // A shader of a dozen regions at a time keeps naga's parse fast.
            for (ci, chunk) in regions.chunks(12).enumerate() {
                let translations: Vec<_> = chunk
                    .iter()
                    .enumerate()
                    .map(|(k, (page, code, start, end))| {
                        // Every other chunk with each of its loads taken at any alignment.
                        let all: Vec<u64> = (*start..*end).step_by(4).collect();
                        let src = Source {
                            page: *page,
                            code,
                            slot: k as u32,
                            start: *start,
                            end: *end,
                            unaligned: if ci % 2 == 1 { &all } else { &[] },
                        };
                        translate(k, &src, t)
                    })
                    .collect();
                let functions = translations.iter().map(|t| t.wgsl.clone()).collect();
                // Only the registers the regions use move (a register another region's code
                // names but none of these would fail validation).
                let regs = translations
                    .iter()
                    .flat_map(|t| &t.regs)
                    .fold(0u64, |m, r| m | 1 << r);
                let ranges = chunk.iter().map(|r| (r.2, r.3)).collect();
                // Both forms of txlat's page-table lookup, in turn (each prelude starts with
                // the other, so a program of one chunk checks both).
                let page_cache = (ci + (p == Prelude::Vec2) as usize).is_multiple_of(2);
                let fp = translations.iter().any(|t| t.fp);
                let tier = Tier {
                    functions,
                    ranges,
                    regs,
                    page_cache,
                    fp,
                };
                let s = tier_source(p, &SHADER_HANDLED, 1, 15, &tier);
                validate(&s, p == Prelude::U64).unwrap_or_else(|e| {
                    panic!("{} ({p:?}, page cache {page_cache}): {e}", elf.display());
                });
            }
        }
    }
    assert!(total > 100, "{total} regions");
}

/// The instruction count of a `--stats` run.
fn retired(stderr: &str) -> u64 {
    let l = stderr
        .lines()
        .find(|l| l.contains("instructions retired"))
        .unwrap_or_else(|| panic!("no count in {stderr}"));
    l.split_whitespace()
        .find_map(|w| w.parse().ok())
        .expect("a number")
}

/// Instructions run in translated code, from the `--stats` tier line.
fn translated(stderr: &str) -> u64 {
    stderr
        .lines()
        .find(|l| l.contains("translation tier:"))
        .and_then(|l| l.split("; ").find(|p| p.contains("in translated code")))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Runs `elf` with the tier forced and with the interpreter alone: equal output, status and
/// instruction count, and the output is qemu-aarch64's. Returns the instructions translated.
fn tiers_agree(elf: &std::path::Path, opts: &[&str], args: &[&str]) -> u64 {
    tiers_agree_env(elf, opts, args, &[])
}

/// [`tiers_agree`] with more environment for the translated run.
fn tiers_agree_env(
    elf: &std::path::Path,
    opts: &[&str],
    args: &[&str],
    env: &[(&str, &str)],
) -> u64 {
    let run = |tier: &str| {
        let mut a: Vec<String> = vec!["--stats".into(), "--tier".into(), tier.into()];
        a.extend(opts.iter().map(|s| s.to_string()));
        a.push(elf.to_string_lossy().into_owned());
        a.extend(args.iter().map(|s| s.to_string()));
        // From this run's own profile, not a plan another test's run saved.
        let mut e = vec![("GARM_TIER_PLANS", "0")];
        if tier != "interp" {
            e.extend_from_slice(env);
        }
        garm_env(&a, &e, b"")
    };
    let i = run("interp");
    let t = run("translate");
    let q = qemu(elf, args, &[], b"");
    let name = elf.display();
    // With several instances each line carries its "[i] " and instances interleave as they
    // run: compare each instance's own lines.
    let per = |out: &str, k: usize| -> String {
        let tag = format!("[{k}] ");
        let mine: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix(&tag)).collect();
        if mine.is_empty() {
            out.to_string()
        } else {
            mine.join("\n") + "\n"
        }
    };
    let n: usize = opts
        .iter()
        .position(|o| *o == "--instances")
        .map_or(1, |k| opts[k + 1].parse().unwrap());
    for k in 0..n {
        assert_eq!(
            per(&t.out(), k),
            per(&i.out(), k),
            "{name}: stdout differs between the tiers"
        );
        assert_eq!(
            per(&t.out(), k),
            q.out(),
            "{name}: stdout differs from qemu"
        );
    }
    assert_eq!(t.status, i.status, "{name}: {}", t.stderr);
    assert_eq!(
        retired(&t.stderr),
        retired(&i.stderr),
        "{name}: instruction counts differ\n{}",
        t.stderr
    );
    let n = translated(&t.stderr);
    // `--stats` splits the GPU time by timestamps (lavapipe has them): translated code that
    // ran took some of it.
    if n > 0 {
        let secs = t
            .stderr
            .split("GPU time ")
            .nth(1)
            .and_then(|r| r.split(" s in translated code").next())
            .and_then(|r| r.rsplit(' ').next())
            .and_then(|x| x.parse::<f64>().ok());
        assert!(
            secs.is_some_and(|x| x > 0.0),
            "{name}: no GPU time in translated code\n{}",
            t.stderr
        );
    }
    n
}

#[test]
fn translated_hot_code_equals_the_interpreter_on_the_bench_programs() {
    // 128 KiB, as the bench: the plan is made at submit boundaries, whose spacing follows the
    // machine's load, and 64 KiB left a late plan too little to translate once in a loaded
    // suite run.
    let n = tiers_agree(&build("demos/sha256"), &[], &["128"]);
    assert!(n > 1_000_000, "sha256: only {n} instructions translated");
    let n = tiers_agree(&build("demos/primes"), &[], &["30000"]);
    assert!(n > 100_000, "primes: only {n} instructions translated");
}

#[test]
fn translated_hot_code_equals_the_interpreter_on_corpus_programs() {
    for p in ["nqueens", "bytecode_vm", "md5_kat", "merge_sort", "bst"] {
        tiers_agree(&build(&format!("tests/corpus/{p}")), &[], &[]);
    }
}

#[test]
fn translated_hot_code_equals_the_interpreter_with_real_libcs() {
    musl_sysroot();
    for (p, libc) in [("crc32_kat", "musl"), ("heap_pq", "glibc")] {
        let mem = if libc == "glibc" { "256M" } else { "64M" };
        let elf = build_with(&format!("tests/corpus/{p}"), &["--libc", libc, "-lm"]);
        tiers_agree(&elf, &["--mem", mem], &[]);
    }
    // glibc's sha256 reads its constants from .rodata, its frame from the stack and its input
    // from an mmap'd buffer: three 2 MiB regions in one loop, past the interpreter's two
    // region-cache entries into the tier's own two.
    let elf = build_with("demos/sha256", &["--libc", "glibc"]);
    let n = tiers_agree(&elf, &["--mem", "256M"], &["192"]);
    assert!(
        n > 1_000_000,
        "glibc sha256: only {n} instructions translated"
    );
}

#[test]
fn translated_hot_code_equals_the_interpreter_over_instances() {
    let elf = build("demos/sha256");
    tiers_agree(&elf, &["--instances", "8"], &["16"]);
    // Without `--stats` the dispatches of a submit share one compute pass (with it, each has
    // its own, timestamped): that path's output is qemu's for every instance too.
    let t = garm_env(
        &[
            "--tier",
            "translate",
            "--instances",
            "8",
            &elf.to_string_lossy(),
            "16",
        ],
        &[("GARM_TIER_PLANS", "0")],
        b"",
    );
    let q = qemu(&elf, &["16"], &[], b"");
    assert_eq!(t.status, q.status, "{}", t.stderr);
    let out = t.out();
    for k in 0..8 {
        let tag = format!("[{k}] ");
        let mine: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix(tag.as_str()))
            .collect();
        assert_eq!(
            mine.join("\n") + "\n",
            q.out(),
            "instance {k} differs from qemu"
        );
    }
}

#[test]
fn strided_stores_over_many_pages_equal_the_interpreter_over_instances() {
    // Eight lanes fill a SIMD batch, so the sieve's tight loops take their page entries from
    // the lanes' caches: its strided stores meet a page the cache lacks every few trips (49
    // pages of array per instance), and each runs again after its loop's wrapper loads it.
    let n = tiers_agree(&build("demos/primes"), &["--instances", "8"], &["200000"]);
    assert!(n > 8_000_000, "primes: only {n} instructions translated");
}

#[test]
fn deferred_page_entries_equal_the_interpreter_on_one_instance() {
    // The page cache forced on at one instance: tight loops defer their page entries to their
    // loops' wrappers (resuming at the access), in loops over arrays, frames, lists and
    // buffers, and in glibc's sha256 over three 2 MiB regions.
    let on = [("GARM_TIER_PAGE_CACHE", "1")];
    for p in [
        "bytecode_vm",
        "merge_sort",
        "rle_lz",
        "sieve",
        "malloc_stress",
    ] {
        let n = tiers_agree_env(&build(&format!("tests/corpus/{p}")), &[], &[], &on);
        assert!(n > 100_000, "{p}: only {n} instructions translated");
    }
    let n = tiers_agree_env(&build("tests/tier/frames"), &[], &[], &on);
    assert!(n > 1_000_000, "frames: only {n} instructions translated");
    let elf = build_with("demos/sha256", &["--libc", "glibc"]);
    let n = tiers_agree_env(&elf, &["--mem", "256M"], &["192"], &on);
    assert!(
        n > 1_000_000,
        "glibc sha256: only {n} instructions translated"
    );
}

#[test]
fn code_rewritten_after_translation_never_runs_translated() {
    // Each version of the loop runs hot (and is translated); the next version's bytes differ,
    // so the lanes' code maps name a new decoded slot and the old translation is not entered.
    let n = tiers_agree(&build("tests/tier/jitloop"), &[], &[]);
    assert!(n > 100_000, "jitloop: only {n} instructions translated");
    tiers_agree(&build("demos/selfmod"), &[], &[]);
}

#[test]
fn a_plan_saved_by_one_run_starts_the_next_one_translated() {
    // The first run (compiling before it goes on) saves the regions it ended with under the
    // program's digest; the next run in the default mode takes them before its first dispatch
    // (which regions: whichever run of this program saved last, other tests run it too).
    let elf = build("demos/queens");
    let e = elf.to_string_lossy().into_owned();
    let first = garm(&["--stats", "--tier", "translate", &e, "8"], b"");
    assert!(translated(&first.stderr) > 0, "{}", first.stderr);
    let next = garm(&["--stats", &e, "8"], b"");
    assert!(
        next.stderr.contains("from the plan an earlier run saved"),
        "{}",
        next.stderr
    );
    let q = qemu(&elf, &["8"], &[], b"");
    assert_eq!(next.out(), q.out());
    assert_eq!(next.status, q.status);
}

#[test]
fn a_compile_the_run_left_unfinished_is_finished_for_the_next_run() {
    // sha256 at one instance runs for less time (1.7-3 s) than its hot set compiles (1.8-5 s
    // on lavapipe): the run exits mid-compile, and its exit hands the compile to a process of
    // its own, which marks the plan compiled. The next run installs that set before its first
    // dispatch. (Where the compile lands within the first run, its plan is compiled anyway.)
    // A cache of its own: a plan another test's run saved would decide otherwise.
    let cache = tmp().join("deferred-cache");
    let _ = std::fs::remove_dir_all(&cache);
    let c = cache.to_string_lossy().into_owned();
    let env = [("XDG_CACHE_HOME", c.as_str())];
    let elf = build("demos/sha256");
    let e = elf.to_string_lossy().into_owned();
    let q = qemu(&elf, &["128"], &[], b"");
    let first = garm_env(&["--stats", &e, "128"], &env, b"");
    assert_eq!(first.out(), q.out());
    // The detached compile ends within its time limit (ten minutes); its job file goes then.
    let jobs = cache.join("garm").join("tier-jobs");
    let t0 = std::time::Instant::now();
    while std::fs::read_dir(&jobs).is_ok_and(|mut d| d.next().is_some()) {
        assert!(t0.elapsed().as_secs() < 660, "the job never ended");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let next = garm_env(&["--stats", &e, "128"], &env, b"");
    assert!(
        next.stderr.contains("from the plan an earlier run saved")
            && next.stderr.contains("(the first 0.00 s after the start)"),
        "first run:\n{}\nnext run:\n{}",
        first.stderr,
        next.stderr
    );
    assert!(translated(&next.stderr) > 1_000_000, "{}", next.stderr);
    assert_eq!(next.out(), q.out());
    assert_eq!(next.status, q.status);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn paired_byte_and_halfword_stores_equal_the_interpreter() {
    // Two partial-word stores per trip (each a read-modify-write of its word) at distances of
    // the same byte, the same word, the next word and the next page, with the page cache off
    // (entries loaded inline) and on (a miss leaves the loop and runs the store again).
    let elf = build("tests/tier/bytes");
    let n = tiers_agree(&elf, &[], &[]);
    assert!(n > 1_000_000, "bytes: only {n} instructions translated");
    let on = [("GARM_TIER_PAGE_CACHE", "1")];
    let n = tiers_agree_env(&elf, &[], &[], &on);
    assert!(
        n > 1_000_000,
        "bytes, page cache: only {n} instructions translated"
    );
}

#[test]
fn bit_selects_under_branches_equal_the_interpreter() {
    // BFI, BFXIL, MOVK, SXTW and SBFX writing a register they read, under branches: the
    // translator's shapes that avoid lavapipe's AVX-512 miscompile (tests/fuzz.rs, seed 313).
    let n = tiers_agree(&build("tests/tier/bitsel"), &[], &[]);
    assert!(n > 1_000_000, "bitsel: only {n} instructions translated");
}

#[test]
fn grouped_accesses_equal_the_interpreter_where_they_straddle_pages() {
    // Frames at every 16-byte step and 24-byte nodes at every 8-byte step: some groups of
    // accesses sharing one translation cross a page (each member then translates its own
    // address), and a node's last field loads the pointer the group shares.
    let n = tiers_agree(&build("tests/tier/frames"), &[], &[]);
    assert!(n > 500_000, "frames: only {n} instructions translated");
}

#[test]
fn vector_register_loads_and_stores_equal_the_interpreter() {
    // LDR/STR/LDP/STP of B-Q registers with every addressing mode, at 16-byte steps (run
    // translated) and at odd offsets and across pages (left to the interpreter access by
    // access): the same bytes, count and output as the interpreter and qemu.
    let n = tiers_agree(&build("tests/tier/vregs"), &[], &[]);
    assert!(n > 100_000, "vregs: only {n} instructions translated");
}

#[test]
fn simd_moves_equal_the_interpreter() {
    // DUP, INS, MOVI/MVNI/ORR/BIC immediate, UMOV/SMOV and FMOV to and from general
    // registers: the VEC forms the translator takes, against the interpreter and qemu.
    let n = tiers_agree(&build("tests/tier/vmoves"), &[], &[]);
    assert!(n > 1_000_000, "vmoves: only {n} instructions translated");
}

#[test]
fn simd_integer_arithmetic_equals_the_interpreter() {
    // Three-same arithmetic and compares, pairwise and across-lanes operations, shifts, bit
    // selects, permutes, narrowing, widening and accumulating forms (src/tier/simd.rs),
    // against the interpreter and qemu.
    let n = tiers_agree(&build("tests/tier/vint"), &[], &[]);
    assert!(n > 2_000_000, "vint: only {n} instructions translated");
}

#[test]
fn table_lookups_equal_the_interpreter() {
    // TBL and TBX with tables of one to four registers (numbers wrapping from v31 to v0), 8- and
    // 16-byte forms and indices in and past the table, against the interpreter and qemu.
    let n = tiers_agree(&build("tests/tier/vtbl"), &[], &[]);
    assert!(n > 1_000_000, "vtbl: only {n} instructions translated");
}

#[test]
fn inlined_leaf_calls_and_unaligned_loads_equal_the_interpreter() {
    // A small leaf function called from a hot loop runs inline in its caller's region; 8-, 4-
    // and 2-byte loads at every byte offset (signed and unsigned, pre-indexed, pairs), inside
    // a page, at its last bytes and across its end, leave their regions for the interpreter
    // access by access. Counts and output equal the interpreter's and qemu's.
    let n = tiers_agree(&build("tests/tier/unaligned"), &[], &[]);
    assert!(n > 500_000, "unaligned: only {n} instructions translated");
}

/// The address range of function `name` in `elf`, as GARM_TIER_RANGES takes it.
fn symbol_range(elf: &std::path::Path, name: &str) -> String {
    let bytes = std::fs::read(elf).unwrap();
    let f = object::File::parse(&*bytes).unwrap();
    use object::ObjectSymbol;
    let s = f
        .symbols()
        .find(|s| s.name() == Ok(name))
        .unwrap_or_else(|| panic!("{name}'s symbol"));
    format!("{:x}-{:x}", s.address(), s.address() + s.size())
}

#[test]
fn misaligned_accesses_are_translated_where_seen() {
    // A hot loop (forced to be a region) of loads and stores never aligned to their size but
    // inside their page: 8-, 4- and 2-byte loads and stores, signed loads, doubleword pairs,
    // Q registers and Q pairs, LD1 of three. Each fails its aligned translation at first and
    // leaves for the interpreter; the host counts the failures (S_UNALIGNED) and recompiles
    // the region with them, and the loop's other accesses, taken at any alignment. Output and
    // counts equal the interpreter's and qemu's, and nearly all of the 9.08 M instructions run
    // translated (99.8%, in 28 dispatches; bouncing at each misaligned access, 81.1% did, in
    // 637 960 dispatches).
    let elf = build("tests/tier/misaligned");
    let range = symbol_range(&elf, "walk");
    let n = tiers_agree_env(&elf, &[], &[], &[("GARM_TIER_RANGES", &range)]);
    assert!(
        n > 8_800_000,
        "misaligned: only {n} instructions translated"
    );
}

#[test]
fn saturating_narrowing_equals_the_interpreter() {
    // SQXTN, UQXTN, SQXTUN and their second-half forms at every element size, with inputs that
    // all fit (FPSR.QC stays clear) and that often do not (QC set): results and QC equal the
    // interpreter's and qemu's. The function is forced to be a region from the first dispatch,
    // so every saturation that sets QC happens in translated code.
    let elf = build("tests/tier/vsat");
    let range = symbol_range(&elf, "narrow");
    let n = tiers_agree_env(&elf, &[], &[], &[("GARM_TIER_RANGES", &range)]);
    assert!(n > 1_000_000, "vsat: only {n} instructions translated");
}

#[test]
fn scalar_fp_equals_the_interpreter() {
    // Arithmetic, fused multiply-adds, FDIV and FSQRT (multi-step in the interpreter),
    // compares, selects, conversions and rounding of binary32 and binary64 over special values
    // and two rounding modes (src/tier/translate.rs, fp_insn), against the interpreter (results,
    // FPSR's flags and the instruction count) and qemu.
    let n = tiers_agree(&build("tests/tier/fscalar"), &[], &[]);
    assert!(n > 4_000_000, "fscalar: only {n} instructions translated");
}

#[test]
fn vector_fp_equals_the_interpreter() {
    // The FP unit's lane-per-step forms: arithmetic, multiply-accumulate by vector and by
    // element, pairwise and across-lanes, compares to lanes of ones, conversions, widening and
    // narrowing, rounding, FDIV and FSQRT, against the interpreter and qemu.
    let n = tiers_agree(&build("tests/tier/fvec"), &[], &[]);
    assert!(n > 3_000_000, "fvec: only {n} instructions translated");
}

#[test]
fn a_hot_function_entered_for_a_few_instructions_is_weighed_and_left_interpreted() {
    // `mix` holds most of the samples, but each call runs ~20 instructions from a loop the
    // translator refuses (a load/store-exclusive pair): compiled, every call would cost a
    // dispatch pair. Auto mode weighs it in the interpreter first and compiles nothing.
    let elf = build("tests/tier/shortcalls");
    let e = elf.to_string_lossy().into_owned();
    let q = qemu(&elf, &["200000"], &[], b"");
    let g = garm_env(&["--stats", &e, "200000"], &[("GARM_TIER_PLANS", "0")], b"");
    assert_eq!(g.out(), q.out());
    assert_eq!(g.status, q.status);
    assert!(
        g.stderr
            .contains("weighed in the interpreter and not compiled")
            && g.stderr.contains("0 pipelines swapped in"),
        "{}",
        g.stderr
    );
}
