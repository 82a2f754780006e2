//! Assembles the CPU shader from a 64-bit prelude, the generated constants (the decoded form and
//! the host-shader contract, [`super::layout`]) and the unit files in `shaders/cpu/` (see its
//! README for the order), and validates it offline with naga.

use super::layout;
use crate::isa::form::{wgsl_constants, REGS};

pub const PRELUDE_U64: &str = include_str!("../../shaders/prelude_u64.wgsl");
pub const PRELUDE_VEC2: &str = include_str!("../../shaders/prelude_vec2.wgsl");

/// The shader's files in assembly order: (name, built-in text, fragment of `fn step()`, the
/// variant bits of which any includes it, 0 for always: see [`crate::isa::form::variant`]).
pub const PARTS: &[(&str, &str, bool, u32)] = &[
    (
        "state.wgsl",
        include_str!("../../shaders/cpu/state.wgsl"),
        false,
        0,
    ),
    (
        "simd_fns.wgsl",
        include_str!("../../shaders/cpu/simd_fns.wgsl"),
        false,
        11,
    ),
    (
        "fp_fns.wgsl",
        include_str!("../../shaders/cpu/fp_fns.wgsl"),
        false,
        4,
    ),
    (
        "fetch.wgsl",
        include_str!("../../shaders/cpu/fetch.wgsl"),
        true,
        0,
    ),
    (
        "alu.wgsl",
        include_str!("../../shaders/cpu/alu.wgsl"),
        true,
        0,
    ),
    (
        "bitfield.wgsl",
        include_str!("../../shaders/cpu/bitfield.wgsl"),
        true,
        0,
    ),
    (
        "muldiv.wgsl",
        include_str!("../../shaders/cpu/muldiv.wgsl"),
        true,
        0,
    ),
    (
        "memory.wgsl",
        include_str!("../../shaders/cpu/memory.wgsl"),
        true,
        0,
    ),
    (
        "branch.wgsl",
        include_str!("../../shaders/cpu/branch.wgsl"),
        true,
        0,
    ),
    (
        "system.wgsl",
        include_str!("../../shaders/cpu/system.wgsl"),
        true,
        0,
    ),
    (
        "vec.wgsl",
        include_str!("../../shaders/cpu/vec.wgsl"),
        true,
        2,
    ),
    (
        "vmem.wgsl",
        include_str!("../../shaders/cpu/vmem.wgsl"),
        true,
        1,
    ),
    (
        "vstruct.wgsl",
        include_str!("../../shaders/cpu/vstruct.wgsl"),
        true,
        8,
    ),
    (
        "atomic.wgsl",
        include_str!("../../shaders/cpu/atomic.wgsl"),
        true,
        16,
    ),
    (
        "fp.wgsl",
        include_str!("../../shaders/cpu/fp.wgsl"),
        true,
        4,
    ),
    (
        "commit.wgsl",
        include_str!("../../shaders/cpu/commit.wgsl"),
        true,
        0,
    ),
    (
        "syscall.wgsl",
        include_str!("../../shaders/cpu/syscall.wgsl"),
        false,
        0,
    ),
    (
        "main.wgsl",
        include_str!("../../shaders/cpu/main.wgsl"),
        false,
        0,
    ),
];

/// Which 64-bit representation the shader uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prelude {
    /// Native `u64` (needs SHADER_INT64).
    U64,
    /// `vec2<u32>`, core WGSL only.
    Vec2,
}

impl Prelude {
    pub fn name(self) -> &'static str {
        match self {
            Prelude::U64 => "u64",
            Prelude::Vec2 => "vec2<u32>",
        }
    }
}

/// The register file's load from and store to the state words, unrolled: once lavapipe's loop
/// limiter is spent, a loop here would exit at once and lose registers.
/// The moves between the state buffer and `R` of the registers in `mask` (bit r: x`r`, bit
/// 31: SP), and the zeroing of the sink registers.
fn register_moves(mask: u64) -> (String, String) {
    let mut load = String::new();
    let mut store = String::new();
    for r in (0..32).filter(|r| mask >> r & 1 != 0) {
        let w = layout::S_REGS + 2 * r;
        load.push_str(&format!("    R[{r}] = sreg64({w}u);\n"));
        store.push_str(&format!("    sset64({w}u, R[{r}]);\n"));
    }
    for r in 32..REGS {
        load.push_str(&format!("    R[{r}] = vz();\n"));
    }
    (load, store)
}

/// Retired instructions a tier dispatch may run per `P.iters`: translated code runs many
/// instructions per trip of a loop.
pub const TIER_MUL: u32 = 32;
/// Loop back-edges a tier dispatch spends at most (lavapipe's limiter stops every loop of an
/// invocation after 65 535).
pub const TICK_MAX: u32 = 63_000;

/// The translated regions of a tier pipeline: their WGSL functions, in call order, and the
/// address ranges they cover.
#[derive(Clone, Debug, Default)]
pub struct Tier {
    pub functions: Vec<String>,
    pub ranges: Vec<(u64, u64)>,
    /// The registers the regions read or write (bit r: x`r`, bit 31: SP); the tier's entry
    /// and exit move only these between the state buffer and `R`.
    pub regs: u64,
    /// Tight loops' accesses read their page-table entries from the lane's last four, kept in
    /// registers, and a page they lack is loaded by the loop's wrapper (`txlat`'s `defer`);
    /// other accesses load theirs inline. lavapipe runs a storage load as a loop over the
    /// lanes, mask set or not: with full SIMD batches, a loop fewer per access and trip (the
    /// 64-instance sieve 7% faster, sha256 6%, queens 12%, against keeping every access's
    /// entry in the cache and loading it inline on a miss). One lane in a batch pays the
    /// compares and the wrappers for loops that cost little (one guest: 5% slower), so only
    /// batches that fill take it.
    pub page_cache: bool,
    /// A region runs FP instructions: the shader has the soft-float functions (fp_fns.wgsl)
    /// and moves FPCR and FPSR between the state and `g_fpcr`/`g_fpsr`.
    pub fp: bool,
}

/// The complete WGSL source of the CPU shader. `abi` names the syscall numbers the shader answers
/// (see [`layout::wgsl`]). `variant` is a set of optional units ([`crate::isa::form::variant`]):
/// lavapipe runs every arm of every step, so code runs in the smallest variant that holds the
/// units it executes.
///
/// The frame pool spans `pool` bindings of 2^`frame_shift` frames each (1 and anything for one).
pub fn source(
    prelude: Prelude,
    abi: &[(&str, u64)],
    variant: u32,
    pool: u32,
    frame_shift: u32,
) -> String {
    // GARM_SHADER_DIR reads the shader files from disk instead, for iterating on the shader
    // without a rebuild.
    let dir = std::env::var_os("GARM_SHADER_DIR").map(std::path::PathBuf::from);
    let read = |name: &str, builtin: &'static str| -> String {
        match &dir {
            Some(d) => std::fs::read_to_string(d.join(name))
                .or_else(|_| std::fs::read_to_string(d.join("cpu").join(name)))
                .unwrap_or_else(|_| builtin.to_string()),
            None => builtin.to_string(),
        }
    };
    let mut s = match prelude {
        Prelude::U64 => read("prelude_u64.wgsl", PRELUDE_U64),
        Prelude::Vec2 => read("prelude_vec2.wgsl", PRELUDE_VEC2),
    };
    s.push('\n');
    s.push_str(&wgsl_constants());
    s.push('\n');
    s.push_str(&layout::wgsl(abi, pool, frame_shift));
    use crate::isa::form::variant as var;
    s.push_str(&format!(
        "const HAS_VMEM: bool = {};\nconst HAS_VEC: bool = {};\nconst HAS_FP: bool = {};\n\
         const HAS_VSTRUCT: bool = {};\nconst HAS_ATOMIC: bool = {};\n",
        variant & var::VMEM != 0,
        variant & var::VEC != 0,
        variant & var::FP != 0,
        variant & var::VSTRUCT != 0,
        variant & var::ATOMIC != 0
    ));
    let (load, store) = register_moves(u64::MAX);
    let mut in_step = false;
    for (name, builtin, fragment, bits) in PARTS {
        if *bits != 0 && bits & variant == 0 {
            continue;
        }
        if *fragment && !in_step {
            s.push_str("\nfn step() {\n");
            in_step = true;
        }
        if !*fragment && in_step {
            s.push_str("}\n");
            in_step = false;
        }
        let text = read(name, builtin)
            .replace("{{LOAD_REGS}}", load.trim_end_matches('\n'))
            .replace("{{STORE_REGS}}", store.trim_end_matches('\n'));
        s.push('\n');
        s.push_str(&text);
    }
    s
}

/// The translation tier's pipeline (see [`crate::tier`]): the prelude, the contract, the shared
/// state and helpers, the regions and `tier_main.wgsl`, without the interpreter's step.
pub fn tier_source(
    prelude: Prelude,
    abi: &[(&str, u64)],
    pool: u32,
    frame_shift: u32,
    tier: &Tier,
) -> String {
    let mut s = match prelude {
        Prelude::U64 => PRELUDE_U64.to_string(),
        Prelude::Vec2 => PRELUDE_VEC2.to_string(),
    };
    s.push('\n');
    s.push_str(&wgsl_constants());
    s.push('\n');
    s.push_str(&layout::tier_wgsl(abi, pool, frame_shift));
    s.push_str(&format!(
        "const TIER_MUL: u32 = {TIER_MUL}u;\nconst TICK_MAX: u32 = {TICK_MAX}u;\n\
         var<private> g_ticks: u32;\nvar<private> g_tier_n: u32;\n"
    ));
    s.push_str(PARTS[0].1);
    if tier.fp {
        let fns = PARTS
            .iter()
            .find(|p| p.0 == "fp_fns.wgsl")
            .map_or("", |p| p.1);
        s.push('\n');
        s.push_str(fns);
    }
    for f in &tier.functions {
        s.push('\n');
        s.push_str(f);
    }
    // Only the registers some region uses: each move is a storage access per lane per tier
    // dispatch (a lane loop on lavapipe), and 64 of them were most of the pipeline's fixed
    // compile time.
    let (load, store) = register_moves(tier.regs);
    let calls: String = (0..tier.functions.len())
        .map(|k| format!("        region_{k}(ib);\n"))
        .collect();
    // The region a lane enters by (the first whose range holds its pc), ~0u for none.
    let mut entry = "~0u".to_string();
    for (k, (a, b)) in tier.ranges.iter().enumerate().rev() {
        let r = format!("vsub(g_pc, vw({}u, {}u))", *a as u32, (a >> 32) as u32);
        entry = format!(
            "select({entry}, {k}u, vhi({r}) == 0u && vlo({r}) < {}u)",
            b - a
        );
    }
    s.push('\n');
    s.push_str(
        &TIER_MAIN
            .replace("{{LOAD_REGS}}", load.trim_end_matches('\n'))
            .replace("{{STORE_REGS}}", store.trim_end_matches('\n'))
            .replace(
                "{{PTE}}",
                if tier.page_cache {
                    PTE_CACHED
                } else {
                    PTE_LOAD
                },
            )
            .replace(
                "{{FP_LOAD}}",
                if tier.fp {
                    "    g_fpcr = sreg(S_FPCR);\n    g_fpsr = sreg(S_FPSR);"
                } else {
                    ""
                },
            )
            .replace(
                "{{FP_STORE}}",
                if tier.fp {
                    "    sset(S_FPSR, g_fpsr);"
                } else {
                    ""
                },
            )
            .replace("{{ENTRY}}", &entry)
            .replace("{{REGIONS}}", &tier.functions.len().max(1).to_string())
            .replace("{{REGION_CALLS}}", calls.trim_end_matches('\n')),
    );
    s
}

/// `txlat`'s page-table entry `e` for page `pg` of region `r` (`rb`: the region's last-level
/// table, from the region cache), loaded on every access; nothing is deferred (`wanted`).
const PTE_LOAD: &str = "    let e = ptab[rb * PT_ENTRIES + pg];
    let wanted = false;";

/// The same, but a deferring call reads the lane's last four entries instead, and a page they
/// lack is `wanted` (the loop's wrapper loads it).
const PTE_CACHED: &str = "    let t0 = r == g_tcr && pg == g_tcp;
    let t1 = r == g_tcr1 && pg == g_tcp1;
    let t2 = r == g_tcr2 && pg == g_tcp2;
    let t3 = r == g_tcr3 && pg == g_tcp3;
    var e = select(select(select(g_tce3, g_tce2, t2), g_tce1, t1), g_tce, t0);
    let wanted = defer && !(t0 || t1 || t2 || t3);
    if !defer { e = ptab[rb * PT_ENTRIES + pg]; }";

/// The translation tier's entry point.
pub const TIER_MAIN: &str = include_str!("../../shaders/cpu/tier_main.wgsl");

/// Parses and validates WGSL with naga; no GPU needed. The error names the line.
pub fn validate(src: &str, int64: bool) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
    let mut caps = naga::valid::Capabilities::empty();
    if int64 {
        caps |= naga::valid::Capabilities::SHADER_INT64;
    }
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .map_err(|e| e.emit_to_string(src))?;
    Ok(module)
}
