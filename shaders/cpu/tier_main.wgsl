// The translation tier's entry point: a pipeline of its own (src/gpu/shader.rs, tier_source), run
// in the dispatch after each of the interpreter's. A lane whose pc lies in a translated region
// runs regions until it leaves them all, the dispatch's budget is spent or it stops; any other
// lane returns at once, so the interpreter never pays for translated code nor this for the step.
// Threads that take turns stay in the interpreter.

// Translated code's address translation: the region cache's hit path only, for `n` bytes
// inside one page whose address has none of `align`'s bits set (an access aligned to its size,
// to a word for a pair of words), readable, and writable and free of decoded code for a store;
// anything else (a walk, a fault, a crossing, a misaligned access, a write to code) is
// XLAT_RETRY with no effect made, and the interpreter runs the instruction.
// `defer` (a constant at each call) leaves a page the lane's page-entry cache lacks to the
// loop: XLAT_FILL, and `tier_fill` loads it before the access runs again. lavapipe runs a
// load lane by lane whether or not any lane's mask is set, so the load inline costs a loop per
// access on every trip, hit or not; deferred, one per miss and per entry to the loop.
fn txlat(addr: V, n: u32, align: u32, write: bool, defer: bool) -> u32 {
    let al = vlo(addr);
    let ah = vhi(addr);
    let r = ((ah << 11u) | (al >> 21u)) + 1u;
    let h0 = r == g_rct0;
    let h1 = r == g_rct1;
    let h2 = r == g_rct2;
    let hit = h0 || h1 || h2 || r == g_rct3;
    // The last-level table of the region: the interpreter's two entries, then the tier's own.
    let rb = select(select(select(g_rcb3, g_rcb2, h2), g_rcb1, h1), g_rcb0, h0);
    let pg = (al >> 12u) & 511u;
{{PTE}}
    let shape = (al & align) != 0u || (al & 4095u) + n > 4096u || ah > 0xffffu;
    let bad = shape || !hit
        || (e & PTE_PRESENT) == 0u || (write && ((e & PTE_WRITE) == 0u || (e & PTE_CODE) != 0u));
    // A region the cache lacks: the entry loop walks to it and the region runs on (a loop over
    // stack, heap and data would otherwise bounce to the interpreter at every pass).
    if !hit && ah <= 0xffffu { g_twalk = r; }
    // An access that fails for its alignment alone: the host translates it for any alignment.
    if (al & align) != 0u && (al & 4095u) + n <= 4096u { g_tunal = true; }
    let fill = wanted && hit && !shape;
    if fill { g_tfr = r; g_tfp = pg; g_tfb = rb; }
    return select(select(((e & PTE_FRAME) << 10u) + ((al & 4095u) >> 2u), XLAT_RETRY, bad), XLAT_FILL, fill);
}

// The page entry a deferred `txlat` asked for, and the next page's (a loop that walks memory
// upwards meets it next: the sieve's strided stores missed half as often), into the lane's
// cache as its newest.
fn tier_fill() {
    if g_tfp < 511u { tc_push(g_tfr, g_tfp + 1u, ptab[g_tfb * PT_ENTRIES + g_tfp + 1u]); }
    tc_push(g_tfr, g_tfp, ptab[g_tfb * PT_ENTRIES + g_tfp]);
}

// Page entry `e` of page `pg` of region `r` as the cache's newest; the oldest goes.
fn tc_push(r: u32, pg: u32, e: u32) {
    g_tcr3 = g_tcr2;
    g_tcp3 = g_tcp2;
    g_tce3 = g_tce2;
    g_tcr2 = g_tcr1;
    g_tcp2 = g_tcp1;
    g_tce2 = g_tce1;
    g_tcr1 = g_tcr;
    g_tcp1 = g_tcp;
    g_tce1 = g_tce;
    g_tcr = r;
    g_tcp = pg;
    g_tce = e;
}

// A 64-bit value from an even word index: one access of the pool's word pairs.
fn mld64(i: u32) -> V {
    let p = mld2(i);
    return vw(p.x, p.y);
}

// `n` (1-8) bytes at any alignment, from `k` bytes past the address whose low word is `al` and
// whose word in the pool is `i` (its page holds them all), zero-extended: the aligned
// doubleword holding the first byte, and the next where they run into it.
fn mldu(i: u32, al: u32, k: u32, n: u32) -> V {
    let b0 = (i & 1u) * 4u + (al & 3u) + k;
    let q = (i & ~1u) + ((b0 >> 3u) << 1u);
    let b = b0 & 7u;
    let lo = mld64(q);
    let hi = mld64(q + select(0u, 2u, b + n > 8u));
    let v = select(vor(vshr(lo, b * 8u), vshl(hi, 64u - b * 8u)), lo, b == 0u);
    return select(vand(v, vones(n * 8u)), v, n >= 8u);
}

// Stores the low `n` (1-8) bytes of `v` at any alignment, `k` bytes past the address whose low
// word is `al` and whose word in the pool is `i` (its page holds them all): the aligned
// doubleword holding the first byte, and the next where they run into it, each read, merged
// and written back.
fn mstu(i: u32, al: u32, k: u32, n: u32, v: V) {
    let b0 = (i & 1u) * 4u + (al & 3u) + k;
    let q = (i & ~1u) + ((b0 >> 3u) << 1u);
    let b = b0 & 7u;
    let m = vones(n * 8u);
    let x = vand(v, m);
    let lo = vor(vand(mld64(q), vnot(vshl(m, b * 8u))), vshl(x, b * 8u));
    mst2(q, vec2<u32>(vlo(lo), vhi(lo)));
    if b + n > 8u {
        let s = 64u - b * 8u;
        let hi = vor(vand(mld64(q + 2u), vnot(vshr(m, s))), vshr(x, s));
        mst2(q + 2u, vec2<u32>(vlo(hi), vhi(hi)));
    }
}

// The last four pages translated code reached in this dispatch (Tier::page_cache): region
// (number + 1; 0: none), page in the region and entry, the newer first. Four: a loop that
// streams through two places of an array, or a loop over its stack, constants and data, keeps
// its pages while each fill costs its loop a trip. The host changes no table while a
// dispatch runs, and translated code writes none.
var<private> g_tcr: u32;
var<private> g_tcp: u32;
var<private> g_tce: u32;
var<private> g_tcr1: u32;
var<private> g_tcp1: u32;
var<private> g_tce1: u32;
var<private> g_tcr2: u32;
var<private> g_tcp2: u32;
var<private> g_tce2: u32;
var<private> g_tcr3: u32;
var<private> g_tcp3: u32;
var<private> g_tce3: u32;
// The page a deferred `txlat` missed: region (number + 1), page in it, the region's table.
var<private> g_tfr: u32;
var<private> g_tfp: u32;
var<private> g_tfb: u32;

// The 2 MiB region a translated access missed (its number + 1; 0: none).
var<private> g_twalk: u32;
// An access failed for its alignment alone in this dispatch (see `txlat`).
var<private> g_tunal: bool;
// Where the last indirect branch (not a return) out of a region went (zero: none).
var<private> g_tind: V;

// Two more region-cache entries for translated code, behind the interpreter's two (which the
// state keeps): a loop over constants, its stack and a mapped buffer (glibc's sha256: its K
// table in .rodata, the frame, the input from mmap) touches three regions, and with two it
// left its region at every other access to walk (14x slower than with two regions). Dropped
// at the dispatch's end.
var<private> g_rct2: u32;
var<private> g_rcb2: u32;
var<private> g_rct3: u32;
var<private> g_rcb3: u32;

// Walks the tables to region `r` (number + 1) and caches its last-level table as the
// interpreter's walk would (the older entry goes); false where a level is missing (the
// interpreter then raises the fault).
fn tier_walk(r: u32) -> bool {
    let th = (r - 1u) >> 11u;
    let tl = (r - 1u) << 21u;
    let e0 = ptab[g_ptroot * PT_ENTRIES + ((th >> 7u) & 511u)];
    let e1 = ptab[(e0 & PTE_FRAME) * PT_ENTRIES + (((th & 127u) << 2u) | (tl >> 30u))];
    let e2 = ptab[(e1 & PTE_FRAME) * PT_ENTRIES + ((tl >> 21u) & 511u)];
    if (e0 & e1 & e2 & PTE_PRESENT) == 0u { return false; }
    g_walk = 0u;
    g_rct3 = g_rct2;
    g_rcb3 = g_rcb2;
    g_rct2 = g_rct1;
    g_rcb2 = g_rcb1;
    g_rct1 = g_rct0;
    g_rcb1 = g_rcb0;
    g_rct0 = r;
    g_rcb0 = e2 & PTE_FRAME;
    return true;
}

// TBL/TBX: each byte of index word `ix` names a byte of the table t0..t3 (16 bytes each, `n`
// in all); one past it takes that byte of `none` (TBX: Vd's, TBL: zero). The index is data, so
// this is the one permute the translator cannot resolve to byte moves. Written out byte by
// byte, not as a loop: a loop's back-edges would count against lavapipe's loop limiter
// outside the tier's own count (g_ticks).
fn tier_tbl(ix: u32, t0: vec4<u32>, t1: vec4<u32>, t2: vec4<u32>, t3: vec4<u32>, n: u32, none: u32) -> u32 {
    return tier_tbl_byte(ix, 0u, t0, t1, t2, t3, n, none) | tier_tbl_byte(ix, 8u, t0, t1, t2, t3, n, none)
        | tier_tbl_byte(ix, 16u, t0, t1, t2, t3, n, none) | tier_tbl_byte(ix, 24u, t0, t1, t2, t3, n, none);
}

// The byte at bit `sh` of tier_tbl's result.
fn tier_tbl_byte(ix: u32, sh: u32, t0: vec4<u32>, t1: vec4<u32>, t2: vec4<u32>, t3: vec4<u32>, n: u32, none: u32) -> u32 {
    let i = (ix >> sh) & 255u;
    let q = i >> 4u;
    let v = select(select(select(t0, t1, q == 1u), t2, q == 2u), t3, q == 3u);
    let x = (v[(i >> 2u) & 3u] >> ((i & 3u) * 8u)) & 255u;
    return select((none >> sh) & 255u, x, i < n) << sh;
}

// The flags of a setter from its operands and result (moved up in W form), as translated code
// leaves them (src/tier/translate.rs reads them through these). C: the carry out of bit 63 is
// the majority of the operands' top bits and the carry into it, whatever the carry in was.
fn lazy_c(a: V, b: V, s: V) -> bool { return top_bit(vor(vand(a, b), vand(vor(a, b), vnot(s)))) == 1u; }

// V: the result's sign differs from both operands'.
fn lazy_v(a: V, b: V, s: V) -> bool { return top_bit(vand(vxor(a, s), vxor(b, s))) == 1u; }

// All four, as NZCV.
fn flags3(a: V, b: V, s: V) -> u32 {
    return (top_bit(s) << 3u) | select(0u, 4u, veq(s, vz())) | select(0u, 2u, lazy_c(a, b, s))
        | select(0u, 1u, lazy_v(a, b, s));
}

@compute @workgroup_size(WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= P.n_instances { return; }
    let inst = lane_instance(gid.x);
    if inst == LANE_NONE { return; }
    enter(inst);
    // A lane between a pair's two micro-steps finishes it in the interpreter: translated code
    // runs a pair whole or not at all, so it never leaves one half done.
    if g_status != ST_RUNNING || (sreg(S_TURN) & 0xffffu) > 1u || sreg(S_USTEP) != 0u { return; }
    g_pc = sreg64(S_PC);
    let entry = {{ENTRY}};
    if entry == ~0u { return; }
{{LOAD_REGS}}
    g_nzcv = sreg(S_NZCV);
{{FP_LOAD}}
    g_code_base = sreg64(S_CODE_BASE);
    load_xlat();
    g_rct2 = 0u;
    g_rct3 = 0u;
    g_tcr = 0u;
    g_tcr1 = 0u;
    g_tcr2 = 0u;
    g_tcr3 = 0u;
    g_count0 = sreg64(S_COUNT);
    g_executed = 0u;
    let limit = sreg64(S_LIMIT);
    var ib = P.iters * TIER_MUL;
    if vult(vsub(limit, g_count0), vw(ib, 0u)) { ib = vlo(vsub(limit, g_count0)); }
    g_ticks = 0u;
    g_tier_n = 0u;
    g_tunal = false;
    g_tind = vz();
    loop {
        if g_status != ST_RUNNING || g_executed >= ib || g_ticks >= TICK_MAX { break; }
        // A region's loop costs a back-edge even where this lane does not enter it.
        g_ticks = g_ticks + {{REGIONS}}u;
        let pc0 = g_pc;
        let n0 = g_executed;
        g_twalk = 0u;
{{REGION_CALLS}}
        let walked = g_twalk != 0u && tier_walk(g_twalk);
        if veq(g_pc, pc0) && g_executed == n0 && !walked { break; }
    }
    // An access that left for its alignment stopped the lane at its pc: the host counts the site
    // (before the return below: a loop whose first block holds it makes no progress).
    if g_tunal {
        let rel = vsub(g_pc, g_code_base);
        if vhi(rel) == 0u {
            sset(S_UNALIGNED + 1u, vlo(rel) >> 2u);
            sset(S_UNALIGNED, sreg(S_UNALIGNED) + 1u);
        }
    }
    // An indirect branch that left for code no region starts at: the host takes its target
    // for a function's entry.
    if !veq(g_tind, vz()) && veq(g_pc, g_tind) {
        let rel = vsub(g_pc, g_code_base);
        let k = (vlo(rel) >> 2u) + 1u;
        if vhi(rel) == 0u && k < (1u << 24u) {
            let n = min((sreg(S_INDIRECT) >> 24u) + 1u, 255u);
            sset(S_INDIRECT, (n << 24u) | k);
        }
    }
    if g_executed == 0u && g_status == ST_RUNNING && g_twalk == 0u { return; }
    // Back in the interpreter, the lane is still inside the regions a probe weighs with the set.
    sset(S_PROBE + 3u, 1u);
    let total = vadd(g_count0, vw(g_executed, 0u));
    if g_status == ST_RUNNING && !vult(total, limit) { g_status = ST_LIMIT; }
{{STORE_REGS}}
    sset64(S_PC, g_pc);
    sset(S_NZCV, g_nzcv);
{{FP_STORE}}
    sset(S_STATUS, g_status);
    sset64(S_COUNT, total);
    // The interpreter's commit clears a pair's second page at every completed step; once here,
    // not at each translated access (each write to a private was a select per access).
    if g_executed > 0u { g_xf = 0u; }
    store_xlat();
    if g_status == ST_MEMFAULT || g_status == ST_CODEMOD {
        sset64(S_FAULT_ADDR, g_fault_addr);
        sset(S_FAULT_KIND, g_fault_kind);
    }
    sset64(S_TIERED, vadd(sreg64(S_TIERED), vw(g_tier_n, 0u)));
    // Counted by the region entered, so the host can judge each.
    let slot = min(entry, TIER_SLOTS - 1u);
    sset(S_TIER_RUNS + slot, sreg(S_TIER_RUNS + slot) + 1u);
    sset(S_TIER_INSNS + slot, sreg(S_TIER_INSNS + slot) + g_tier_n);
    // A pc sample with a chance in proportion to the instructions run (one for a full
    // budget), so the profile keeps seeing translated code without drowning the rest.
    let ns = sreg(S_SAMPLE_N);
    if (ns * 2654435761u + inst * 40503u) % ib < g_executed { take_sample(ns, g_pc); }
}
