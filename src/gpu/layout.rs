//! The host-shader contract in one place: per-instance state words, stop reasons, fault kinds,
//! the uniform parameters and the bindings. The WGSL declarations of all of them are generated
//! from here ([`wgsl`]) and prepended to the shader, so Rust and WGSL cannot disagree; the shader
//! files hold no copy (a test checks both the generated module and the files).

/// Defines the state-word offsets once, for Rust constants and the WGSL text.
macro_rules! state_words {
    ($($(#[$doc:meta])* $name:ident = $off:literal x $n:literal,)*) => {
        $($(#[$doc])* pub const $name: usize = $off;)*
        /// Every state word's name and offset, as the shader sees them.
        pub const STATE_OFFSETS: &[(&str, usize)] = &[$((stringify!($name), $off),)*];
        /// Every state field's (offset, words), for the overlap check.
        pub const STATE_SPANS: &[(&str, usize, usize)] = &[$((stringify!($name), $off, $n),)*];
    };
}

/// Words of state per instance.
pub const STATE_WORDS: usize = 142;

state_words! {
    /// x0..x30 and SP, two words each, from word 0.
    S_REGS = 0 x 64,
    S_PC = 64 x 2,
    S_NZCV = 66 x 1,
    S_STATUS = 67 x 1,
    S_TPIDR = 68 x 2,
    S_FPCR = 70 x 1,
    S_FPSR = 71 x 1,
    /// Instructions retired (64-bit).
    S_COUNT = 72 x 2,
    /// `--max-insns`: the count at which the instance stops (64-bit).
    S_LIMIT = 74 x 2,
    /// The micro-step of a two-step instruction (pairs).
    S_USTEP = 76 x 1,
    S_TMP_WB = 78 x 2,
    S_FAULT_ADDR = 80 x 2,
    /// Read or write for a memory fault; the raw word for an illegal instruction.
    S_FAULT_KIND = 82 x 1,
    S_BRK = 83 x 1,
    S_BRK_MIN = 84 x 1,
    S_BRK_MAX = 85 x 1,
    /// Words used in the instance's output ring.
    S_OUT_LEN = 86 x 1,
    /// The exclusive monitor: valid (1 + size, + 8 for a pair) and the address's low word.
    S_EXCL_VALID = 87 x 1,
    S_EXCL_ADDR = 88 x 1,
    S_EXIT_CODE = 90 x 1,
    /// Bit 0: fd 1 writes to the console; bit 1: fd 2 does (the shader's fast write path);
    /// [`FASTFD_HOST_BRK`]: brk goes to the host (the break is one per process, and threads
    /// each have a copy of this word).
    S_FASTFD = 91 x 1,
    /// Translated accesses that failed for their alignment alone since the host last read it,
    /// and the instruction index (from the code map's base) of the last.
    S_UNALIGNED = 92 x 2,
    /// Indirect branches (not returns) that left translated code for interpreted code since
    /// the host last read it (bits 24-31, at most 255) and the last one's target (bits 0-23:
    /// its instruction index from the code map's base, plus one): a function entry no BL names
    /// (glibc's string functions, reached from `.iplt` stubs by BR x17).
    S_INDIRECT = 94 x 1,
    /// Optional units (variant bits) the instance ran since the host last cleared the word.
    S_USED = 95 x 1,
    /// The region cache of address translation: two (tag, last-level table) pairs, a tag
    /// being the 2 MiB region number plus one (zero: empty). Cleared when the tables change.
    S_RC = 96 x 4,
    /// A region walk under way: (region + 1) << 2 | the next level, and the table it reads.
    /// It survives dispatch boundaries (a single-stepped trace runs one step per dispatch).
    S_WALK = 100 x 2,
    /// The first address of a pair's first access (its second is at this + size).
    S_TMP_ADDR = 102 x 2,
    /// An access spanning two pages: the second page's number (low word) and its frame (bit 31:
    /// valid), translated on a step of its own before the access (for that instruction only).
    S_XPAGE = 104 x 2,
    /// This process's root page table (an index into `ptab`).
    S_PTROOT = 106 x 1,
    /// The address of the code map's first page (the process's lowest executable page).
    S_CODE_BASE = 107 x 2,
    /// Threads of one address space take turns, one per dispatch: this thread's turn (high half)
    /// among how many (low half; 0 or 1: no turns), set by the host before each submit.
    S_TURN = 109 x 1,
    /// Dispatches this thread has entered since the host set its turn.
    S_TICK = 110 x 1,
    /// What the load-exclusive read (a pair's two values): the store-exclusive stores only if
    /// memory still holds it, as qemu's cmpxchg does, so a store by another thread in between
    /// fails it.
    S_EXCL_VAL = 111 x 4,
    /// Dispatches this instance has run to their end (the pc samples' count).
    S_SAMPLE_N = 115 x 1,
    /// A ring of [`SAMPLES`] pc samples, one per dispatch end: the pc's instruction index from
    /// the code map's base (u32::MAX outside it). The host reads them at each submit into the
    /// profile of decoded pages (what the translation tier will choose its regions from).
    S_SAMPLES = 116 x 8,
    /// Instructions retired in translated regions since the host last read it (64-bit).
    S_TIERED = 124 x 2,
    /// Per installed region (by the region the lane entered, the last slot for any beyond):
    /// tier dispatches in which the instance ran translated code, and the instructions they
    /// ran, since the host last read them.
    S_TIER_RUNS = 126 x 6,
    S_TIER_INSNS = 132 x 6,
    /// The probe of regions the tier weighs before compiling them ([`crate::isa::form::f::PROBE`]),
    /// since the host last read it: entries into them from other code, steps inside them,
    /// the last entry's instruction index from the code map's base plus one; and whether the
    /// lane is inside them now (kept across dispatches; set by the tier's dispatch).
    S_PROBE = 138 x 4,
}

/// Regions the tier's per-region counters distinguish: the span of `S_TIER_RUNS` (the test
/// below checks `S_TIER_INSNS` has it too).
pub const TIER_SLOTS: usize = S_TIER_INSNS - S_TIER_RUNS;

/// pc samples an instance keeps between two readbacks.
pub const SAMPLES: u32 = 8;

/// The bit of `S_FASTFD` that sends brk to the host.
pub const FASTFD_HOST_BRK: u32 = 4;

/// Defines the stop reasons once: the enum, its word values and the WGSL names.
macro_rules! stops {
    ($($(#[$doc:meta])* $name:ident = $v:literal => $wgsl:literal,)*) => {
        /// Why an instance stopped (the S_STATUS word).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum Stop {
            $($(#[$doc])* $name = $v,)*
        }
        impl Stop {
            pub const ALL: &[Stop] = &[$(Stop::$name,)*];
            /// The stop reason a state word holds; `None` for a value the shader never writes.
            pub fn from_word(w: u32) -> Option<Stop> {
                match w {
                    $($v => Some(Stop::$name),)*
                    _ => None,
                }
            }
            pub fn wgsl_name(self) -> &'static str {
                match self {
                    $(Stop::$name => $wgsl,)*
                }
            }
        }
    };
}

stops! {
    /// Runs (or may run) on the next dispatch.
    Running = 0 => "ST_RUNNING",
    /// exit/exit_group answered by the shader; the code is in S_EXIT_CODE.
    Exited = 1 => "ST_EXITED",
    /// A syscall for the host; pc is past the SVC.
    Syscall = 2 => "ST_SYSCALL",
    MemFault = 3 => "ST_MEMFAULT",
    /// Unallocated or unimplemented instruction; the word is in S_FAULT_KIND.
    Illegal = 4 => "ST_ILLEGAL",
    /// pc is on a page with no decoded code.
    NeedCode = 5 => "ST_NEEDCODE",
    /// A write to a page with decoded code, stopped before it is made (the address is the
    /// page's).
    CodeMod = 6 => "ST_CODEMOD",
    /// `--max-insns` reached.
    Limit = 7 => "ST_LIMIT",
    /// BRK.
    Brk = 8 => "ST_BRK",
    /// A console write waits for the next dispatch to copy it out.
    Write = 9 => "ST_WRITE",
    /// pc is misaligned or outside memory.
    FetchFault = 10 => "ST_FETCHFAULT",
    /// lavapipe's loop limiter cut a bit-serial loop short: the instruction runs again.
    LimitRetry = 11 => "ST_LIMIT_RETRY",
    /// DC ZVA: the host zeroes the block.
    DcZva = 12 => "ST_DCZVA",
    /// The instruction at pc needs a larger shader variant (FP/SIMD; the level is in
    /// S_FAULT_KIND): the host switches and the instruction runs.
    Variant = 13 => "ST_VARIANT",
}

impl Stop {
    pub fn word(self) -> u32 {
        self as u32
    }

    /// Whether the interpreter's entry point runs an instance in this state (main.wgsl's guard:
    /// running, finishing a console write, or retrying after a limit); the lane map lists only
    /// those.
    pub fn dispatched(w: u32) -> bool {
        [Stop::Running, Stop::Write, Stop::LimitRetry]
            .iter()
            .any(|s| s.word() == w)
    }
}

pub const FAULT_READ: u32 = 0;
pub const FAULT_WRITE: u32 = 1;
pub const FAULT_EXEC: u32 = 2;
/// A misaligned atomic access (SIGBUS, as Linux gives for an alignment fault).
pub const FAULT_ALIGN: u32 = 3;

/// Vector registers per instance in the `vreg` buffer: V0-V31 and the scratch registers that
/// multi-step instructions keep their intermediates in ([`VT`]; [`VT2`] gathers the lanes of a
/// vector FP operation while VT holds a lane's divide or square-root state).
pub const VREG_STRIDE: u32 = 38;
pub const VT: u32 = 32;
pub const VT2: u32 = 33;
/// Four scratch registers from here: the chunks of a structure load (LD2-LD4).
pub const VC0: u32 = 34;

/// Code-map entry for a page with no decoded code.
pub const NO_CODE: u32 = u32::MAX;
/// Output ring per instance, in words (records: header `fd << 28 | len`, then the bytes).
pub const OUT_WORDS: u32 = 4096;
/// Steps per invocation per dispatch. Each step spends three of lavapipe's 65 535 loop
/// back-edges per dispatch (the step loop and the two bit-serial loops, which run once even with
/// no trips), so more would only be cut short by the limiter.
pub const ITERS: u32 = 21_000;
/// Invocations per workgroup.
pub const WORKGROUP: u32 = 8;
/// An unused entry of the lane map (the state buffer's tail: which instance each invocation
/// runs).
pub const LANE_NONE: u32 = u32::MAX;

/// Defines the uniform parameters once: the Rust struct (uploaded as bytes) and the WGSL struct.
macro_rules! params {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// The shader's uniform parameters (`P` in WGSL), all u32.
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct Params {
            $($(#[$doc])* pub $name: u32,)*
        }
        const PARAM_NAMES: &[&str] = &[$(stringify!($name),)*];
    };
}

params! {
    n_instances,
    /// Code-map entries per instance.
    map_pages,
    /// Steps per dispatch per invocation.
    iters,
    /// Output ring words per instance.
    out_words,
    /// Always 0, and opaque to the shader compiler: the translation tier's bit-select masks go
    /// through it (docs/translation-tier.md, "An LLVM miscompile").
    zero,
}

/// How the shader uses a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// The bind group: (binding, WGSL name, access, WGSL type).
pub const BINDINGS: &[(u32, &str, Access, &str)] = &[
    (0, "P", Access::Uniform, "Params"),
    (1, "state", Access::ReadWrite, "array<u32>"),
    (2, "mem", Access::ReadWrite, "array<u32>"),
    (3, "codemap", Access::Read, "array<u32>"),
    (4, "dec", Access::Read, "array<vec4<u32>>"),
    (5, "outbuf", Access::ReadWrite, "array<u32>"),
    // V0-V31 (and VT) of every instance, VREG_STRIDE per instance; only the SIMD variant
    // of the shader touches it.
    (6, "vreg", Access::ReadWrite, "array<vec4<u32>>"),
    // The page tables: 512-entry tables of PTE words (docs/virtual-memory.md).
    (7, "ptab", Access::Read, "array<u32>"),
    // One lock word per 64-byte line (hashed by pool word): the ATOMIC unit's steps (LSE and
    // the store-exclusives) hold it, so they are atomic between lanes of one dispatch.
    (8, "locks", Access::ReadWrite, "array<atomic<u32>>"),
];

/// Lock words in `locks` (a power of two).
pub const LOCK_WORDS: u32 = 4096;

/// A page-table entry: the next table's index (levels 0-2) or the frame's page number in `mem`
/// (level 3) in the low bits, and the permission bits. The shader checks present and write;
/// the host keeps the rest for itself (faults, mprotect).
pub const PTE_FRAME: u32 = 0x007f_ffff;
pub const PTE_PRESENT: u32 = 1 << 31;
pub const PTE_WRITE: u32 = 1 << 30;
pub const PTE_EXEC: u32 = 1 << 29;
pub const PTE_READ: u32 = 1 << 28;
/// The page has decoded code: a write to it stops the guest first (CodeMod).
pub const PTE_CODE: u32 = 1 << 24;
/// Entries per table (9 bits of the address per level, four levels, 4 KiB pages).
pub const PT_ENTRIES: u32 = 512;
/// Set in S_XPAGE's frame word while it holds a translation.
pub const XPAGE_VALID: u32 = 1 << 31;
/// What the shader's translation returns while it walks a region's tables (never a word index:
/// `mem` is below 16 GiB).
pub const XLAT_RETRY: u32 = u32::MAX;
/// Translated code's `txlat` with its fill deferred: the lane's page-entry cache lacks the page
/// (its region is cached); the region fills it once and runs the access again.
pub const XLAT_FILL: u32 = u32::MAX - 1;

/// The frame pool's further bindings after `mem` (binding 2): `mem1`, `mem2`, ... from here.
pub const POOL_BINDING0: u32 = 9;

/// Every binding of a shader whose frame pool spans `pool` bindings (BINDINGS and the pool's
/// further ones): (binding, WGSL name, access, WGSL type).
pub fn bindings(pool: u32) -> Vec<(u32, String, Access, &'static str)> {
    let mut v: Vec<_> = BINDINGS
        .iter()
        .map(|(b, n, a, t)| (*b, n.to_string(), *a, *t))
        .collect();
    for k in 1..pool.max(1) {
        v.push((
            POOL_BINDING0 + k - 1,
            format!("mem{k}"),
            Access::ReadWrite,
            "array<u32>",
        ));
    }
    v
}

/// The shader's word access to the frame pool: with one binding, `mem` itself; with more, a
/// word index's top bits name the binding (`frame_shift`: log2 of frames per binding). Every
/// binding costs every access on lavapipe (it runs all arms), so a pool takes more only when
/// asked to.
fn pool_access(pool: u32, frame_shift: u32) -> String {
    if pool <= 1 {
        return "fn mld(i: u32) -> u32 { return mem[i]; }\nfn mst(i: u32, v: u32) { mem[i] = v; }\n"
            .to_string();
    }
    let shift = frame_shift + 10;
    let mut ld = format!(
        "fn mld(i: u32) -> u32 {{\n    let j = i & {mask}u;\n    let b = i >> {shift}u;\n    var v = mem[j];\n",
        mask = (1u64 << shift) - 1
    );
    let mut st = format!(
        "fn mst(i: u32, v: u32) {{\n    let j = i & {mask}u;\n    let b = i >> {shift}u;\n    if b == 0u {{ mem[j] = v; }}\n",
        mask = (1u64 << shift) - 1
    );
    for k in 1..pool {
        ld.push_str(&format!("    if b == {k}u {{ v = mem{k}[j]; }}\n"));
        st.push_str(&format!("    if b == {k}u {{ mem{k}[j] = v; }}\n"));
    }
    ld.push_str("    return v;\n}\n");
    st.push_str("}\n");
    ld + &st
}

/// The translation tier's access to the frame pool by word pairs as well as words (`mld2`,
/// `mst2`: an even word index, two words). lavapipe loads and stores a storage buffer lane by
/// lane, one loop per access whatever its width, so with one binding the tier sees the pool as
/// `array<vec2<u32>>` and a 64-bit access is one loop instead of two; a word is a component of
/// its pair (a store writes that component alone). With more bindings, pairs are two words.
fn pool_pair_access(pool: u32, frame_shift: u32) -> String {
    if pool <= 1 {
        return "fn mld(i: u32) -> u32 { return mem[i >> 1u][i & 1u]; }\n\
                fn mst(i: u32, v: u32) { mem[i >> 1u][i & 1u] = v; }\n\
                fn mld2(i: u32) -> vec2<u32> { return mem[i >> 1u]; }\n\
                fn mst2(i: u32, v: vec2<u32>) { mem[i >> 1u] = v; }\n"
            .to_string();
    }
    pool_access(pool, frame_shift)
        + "fn mld2(i: u32) -> vec2<u32> { return vec2(mld(i), mld(i + 1u)); }\n\
           fn mst2(i: u32, v: vec2<u32>) { mst(i, v.x); mst(i + 1u, v.y); }\n"
}

/// The WGSL declarations of this contract, plus `abi`: named numbers from outside the GPU layer
/// (the syscalls the shader answers), so this module knows nothing of Linux. The frame pool
/// spans `pool` bindings of 2^`frame_shift` frames each.
pub fn wgsl(abi: &[(&str, u64)], pool: u32, frame_shift: u32) -> String {
    contract(abi, pool, frame_shift, false)
}

/// [`wgsl`] for the translation tier's pipeline: the frame pool also by word pairs
/// ([`pool_pair_access`]).
pub fn tier_wgsl(abi: &[(&str, u64)], pool: u32, frame_shift: u32) -> String {
    contract(abi, pool, frame_shift, true)
}

fn contract(abi: &[(&str, u64)], pool: u32, frame_shift: u32, pairs: bool) -> String {
    use std::fmt::Write;
    let mut s = String::from("// Generated from src/gpu/layout.rs: do not edit by hand.\n");
    let mut c = |name: &str, v: u64| writeln!(s, "const {name}: u32 = {v}u;").unwrap();
    c("STATE_WORDS", STATE_WORDS as u64);
    for (n, off) in STATE_OFFSETS {
        c(n, *off as u64);
    }
    for st in Stop::ALL {
        c(st.wgsl_name(), st.word() as u64);
    }
    c("FAULT_READ", FAULT_READ as u64);
    c("FAULT_WRITE", FAULT_WRITE as u64);
    c("FAULT_EXEC", FAULT_EXEC as u64);
    c("FAULT_ALIGN", FAULT_ALIGN as u64);
    c("NO_CODE", NO_CODE as u64);
    c("WORKGROUP", WORKGROUP as u64);
    c("LANE_NONE", LANE_NONE as u64);
    c("VREG_STRIDE", VREG_STRIDE as u64);
    c("VT", VT as u64);
    c("VT2", VT2 as u64);
    c("VC0", VC0 as u64);
    c("PTE_FRAME", PTE_FRAME as u64);
    c("PTE_PRESENT", PTE_PRESENT as u64);
    c("PTE_WRITE", PTE_WRITE as u64);
    c("PTE_CODE", PTE_CODE as u64);
    c("PT_ENTRIES", PT_ENTRIES as u64);
    c("XLAT_RETRY", XLAT_RETRY as u64);
    c("XLAT_FILL", XLAT_FILL as u64);
    c("TIER_SLOTS", TIER_SLOTS as u64);
    c("XPAGE_VALID", XPAGE_VALID as u64);
    c("FASTFD_HOST_BRK", FASTFD_HOST_BRK as u64);
    c("LOCK_WORDS", LOCK_WORDS as u64);
    c("SAMPLES", SAMPLES as u64);
    for (n, v) in abi {
        c(n, *v);
    }
    s.push_str("\nstruct Params {\n");
    for p in PARAM_NAMES {
        writeln!(s, "    {p}: u32,").unwrap();
    }
    s.push_str("}\n\n");
    for (b, name, access, ty) in bindings(pool) {
        let space = match access {
            Access::Uniform => "uniform",
            Access::Read => "storage, read",
            Access::ReadWrite => "storage, read_write",
        };
        let ty = if pairs && pool <= 1 && name == "mem" {
            "array<vec2<u32>>"
        } else {
            ty
        };
        writeln!(s, "@group(0) @binding({b}) var<{space}> {name}: {ty};").unwrap();
    }
    s.push_str(&if pairs {
        pool_pair_access(pool, frame_shift)
    } else {
        pool_access(pool, frame_shift)
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tier_counters_have_a_word_per_slot() {
        for name in ["S_TIER_RUNS", "S_TIER_INSNS"] {
            let span = STATE_SPANS.iter().find(|s| s.0 == name).unwrap();
            assert_eq!(span.2, TIER_SLOTS, "{name}");
        }
    }

    #[test]
    fn state_fields_do_not_overlap_and_fit() {
        let mut used = vec![None; STATE_WORDS];
        for (name, off, n) in STATE_SPANS {
            assert!(off + n <= STATE_WORDS, "{name} is past STATE_WORDS");
            for u in &mut used[*off..off + n] {
                assert_eq!(*u, None, "{name} overlaps {u:?}");
                *u = Some(*name);
            }
        }
    }

    #[test]
    fn stop_words_round_trip() {
        for s in Stop::ALL {
            assert_eq!(Stop::from_word(s.word()), Some(*s));
        }
        assert_eq!(Stop::from_word(999), None);
    }
}
