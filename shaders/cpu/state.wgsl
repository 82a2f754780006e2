// Part of the CPU shader, assembled by src/gpu/shader.rs (see shaders/cpu/README.md).

// The guest's registers and hot state live in private variables for a whole dispatch: on
// lavapipe every storage access in the step costs a gather on every step, taken or not.
var<private> R: array<V, REGS>;
var<private> g_pc: V;
var<private> g_nzcv: u32;
var<private> g_status: u32;
var<private> g_ustep: u32;
var<private> g_executed: u32;
var<private> g_used: u32;   // optional units this dispatch ran (VAR_* bits), for the host's decay
var<private> g_tpidr: V;
var<private> g_fpcr: u32;
var<private> g_fpsr: u32;
var<private> g_tmp_addr: V;
var<private> g_tmp_wb: V;
var<private> g_excl_valid: u32;
var<private> g_excl_addr: u32;
var<private> g_excl_val: V;
var<private> g_excl_val2: V;
var<private> g_brk: u32;
var<private> g_out_len: u32;
var<private> g_fault_addr: V;
var<private> g_fault_kind: u32;
var<private> g_exit_code: u32;
var<private> g_code_base: V;  // the code map's first page
var<private> g_fastfd: u32;  // bit k-1: fd k (1, 2) writes to the console
var<private> g_count0: V;
var<private> g_base: u32;   // this instance's first state word
// A lane at the entry of a translated region (F_TIER) ends its dispatch there, after at least one
// step of its own (so a region that cannot go on, at a page walk say, never stalls it): the
// translation tier's dispatch that follows runs the region.
var<private> g_fresh: bool;
var<private> g_yield: bool;
// The probe of regions the tier weighs (fetch.wgsl): in one now (kept across dispatches, and
// set by the tier's dispatch: a lane back from translated code is inside the set), entries
// and steps inside this dispatch, and the last entry's pc (from the code base).
var<private> g_pin: bool;
var<private> g_pent: u32;
var<private> g_pins: u32;
var<private> g_plast: u32;
var<private> g_inst: u32;

// Condition codes as 16-bit truth tables over NZCV (bit index N<<3|Z<<2|C<<1|V), two per
// word so the lookup is a shift, not an array (lavapipe would rebuild an array every step).
fn cond_holds(c: u32, nzcv: u32) -> bool {
    let k = c >> 1u;
    // EQ Z, CS C | MI N, VS V | HI C&&!Z, GE N==V | GT !Z&&N==V, AL.
    let j = k >> 1u;
    let word = select(select(0xccccf0f0u, 0xaaaaff00u, j == 1u), select(0xaa550c0cu, 0xffff0a05u, j == 3u), j >= 2u);
    var r = (word >> ((k & 1u) * 16u + nzcv)) & 1u;
    if (c & 1u) == 1u && c != 15u { r = r ^ 1u; }
    return r == 1u;
}

fn top_bit(v: V) -> u32 { return vhi(v) >> 31u; }

// NZ from a result; in W form the low word is moved up so bit 31 is the sign and the test is 32-bit.
fn nz_flags(r: V, w: bool) -> u32 {
    let t = select(r, vshl(r, 32u), w);
    return (top_bit(t) << 3u) | (select(0u, 4u, veq(t, vz())));
}

fn extend(x: V, e: u32) -> V {
    // Shift the field up to bit 63 and back down, logically (UXT*) or arithmetically (SXT*).
    // Field width code: 1 byte, 2 half, 3 word; SXT* are UXT* + 3.
    let kk = select(e, e - 3u, e >= EXT_SXTB && e != EXT_REP32);
    let sh = select(64u - (8u << (kk - 1u)), 0u, e == 0u || e == EXT_REP32);
    let t = vshl(x, sh);
    var r = select(vshr(t, sh), vsar(t, sh), e >= EXT_SXTB);
    if e == EXT_REP32 { r = vw(vlo(x), vlo(x)); }
    return r;
}

fn shift(x: V, kind: u32, amt: u32) -> V {
    // ROR is LSR of the value with its own low bits above it; W forms arrive replicated (REP32).
    let right = select(vshr(x, amt), vsar(x, amt), kind == SHT_ASR);
    let rot = select(vz(), vshl(x, (64u - amt) & 63u), kind == SHT_ROR && amt != 0u);
    return select(vor(right, rot), vshl(x, amt), kind == SHT_LSL);
}

fn sext32(x: u32) -> V { return vw(x, u32(i32(x) >> 31u)); }

// Address translation (docs/virtual-memory.md): 48-bit addresses through four-level tables in
// `ptab`; a region cache of two 2 MiB regions (tag = region + 1, and the region's last-level
// table) so an access costs a compare and one table load.
var<private> g_rct0: u32;
var<private> g_rcb0: u32;
var<private> g_rct1: u32;
var<private> g_rcb1: u32;

// A region miss walks one level per step (lavapipe runs the walk's code on every step, so the
// walk and the access share one table load): root, level 1, level 2, then the region is cached.
// g_walk is (region + 1) << 2 | the next level, so a walk left by another access restarts.
var<private> g_walk: u32;
var<private> g_wptr: u32;
var<private> g_ptroot: u32;  // this process's root table

// An access spanning two pages translates the second page first, on a step of its own (one
// table load per step still), and keeps its frame here: g_xtag is that page's number (low
// word), g_xf its frame with bit 31 set while valid. A completed step clears it, so it serves
// one access.
var<private> g_xtag: u32;
var<private> g_xf: u32;

// The memory word of the first byte of an `n`-byte access at `addr`, or XLAT_RETRY when the
// step must return with no effect made: a region walk or the second page's translation under way
// (the instruction repeats), or a fault raised (unmapped, beyond 48 bits, or a write to a page
// without write permission). A step that touches no memory (`touch` false) gets word 0, which
// it must not use.
fn xlat(addr: V, n: u32, touch: bool, write: bool) -> u32 {
    let al = vlo(addr);
    let ah = vhi(addr);
    // The next page: its number's low word is the stash tag.
    let npl = (al & 0xfffff000u) + 4096u;
    let nph = ah + select(0u, 1u, npl == 0u);
    let xt = (nph << 20u) | (npl >> 12u);
    let second = touch && (al & 4095u) + n > 4096u && !(g_xf >= XPAGE_VALID && g_xtag == xt);
    let tl = select(al, npl, second);
    let th = select(ah, nph, second);
    let r = ((th << 11u) | (tl >> 21u)) + 1u;
    let h0 = r == g_rct0;
    let hit = h0 || r == g_rct1 || !touch;
    let lvl = select(0u, g_walk & 3u, (g_walk >> 2u) == r);
    let k1 = ((th & 127u) << 2u) | (tl >> 30u);
    let wk = select(select((tl >> 21u) & 511u, k1, lvl == 1u), (th >> 7u) & 511u, lvl == 0u);
    let at = select(select(g_wptr, g_ptroot, lvl == 0u) * PT_ENTRIES + wk,
                    select(g_rcb1, g_rcb0, h0) * PT_ENTRIES + ((tl >> 12u) & 511u), hit);
    let e = ptab[at];
    if !touch { return 0u; }
    let f = e & PTE_FRAME;
    if th > 0xffffu || (e & PTE_PRESENT) == 0u || (hit && write && (e & PTE_WRITE) == 0u) {
        g_walk = 0u;
        fault(ST_MEMFAULT, select(addr, vw(tl, th), second), select(FAULT_READ, FAULT_WRITE, write));
        return XLAT_RETRY;
    }
    // A write to a page with decoded code stops before it is made: the host drops that page's
    // decode (and the mark), and the store runs again.
    if hit && write && (e & PTE_CODE) != 0u {
        fault(ST_CODEMOD, vw(tl, th), FAULT_WRITE);
        return XLAT_RETRY;
    }
    if hit {
        if second {
            g_xtag = xt;
            g_xf = f | XPAGE_VALID;
            return XLAT_RETRY;
        }
        return (f << 10u) + ((al & 4095u) >> 2u);
    }
    if lvl < 2u {
        g_wptr = f;
        g_walk = (r << 2u) | (lvl + 1u);
        return XLAT_RETRY;
    }
    // The region replaces the older entry.
    g_walk = 0u;
    g_rct1 = g_rct0;
    g_rcb1 = g_rcb0;
    g_rct0 = r;
    g_rcb0 = f;
    return XLAT_RETRY;
}

// Word k of the window that starts at word `i` (an access's first word, from xlat): past the end
// of the page, the same offset in the next page's frame (stashed by xlat when the access spans
// two pages; otherwise the word is read but not used, and any frame is in bounds).
fn wix(i: u32, k: u32) -> u32 {
    let off = (i & 1023u) + k;
    return select(i + k, ((g_xf & PTE_FRAME) << 10u) + (off & 1023u), off >= 1024u);
}

// The word of byte address `va` by a whole walk without the region cache, or XLAT_RETRY where it
// is unmapped (the console write, once per dispatch). Entries that are not present name table 0,
// so every load stays in bounds.
fn xlat_walk(va: V) -> u32 {
    let tl = vlo(va);
    let th = vhi(va);
    let e0 = ptab[g_ptroot * PT_ENTRIES + ((th >> 7u) & 511u)];
    let e1 = ptab[(e0 & PTE_FRAME) * PT_ENTRIES + (((th & 127u) << 2u) | (tl >> 30u))];
    let e2 = ptab[(e1 & PTE_FRAME) * PT_ENTRIES + ((tl >> 21u) & 511u)];
    let e3 = ptab[(e2 & PTE_FRAME) * PT_ENTRIES + ((tl >> 12u) & 511u)];
    if th > 0xffffu || (e0 & e1 & e2 & e3 & PTE_PRESENT) == 0u { return XLAT_RETRY; }
    return ((e3 & PTE_FRAME) << 10u) + ((tl & 4095u) >> 2u);
}

// Two adjacent words funnel-shifted right by `sh` bits (0..24, a multiple of 8).
fn funnel(x: u32, y: u32, sh: u32) -> u32 {
    return select((x >> sh) | (y << ((32u - sh) & 31u)), x, sh == 0u);
}

// Both entry points begin here: this invocation's instance and its stop word.
// The instance invocation `lane` runs: the lane map after every instance's state words (the
// host lists the running instances there, so a dispatch covers only them).
fn lane_instance(lane: u32) -> u32 {
    return state[P.n_instances * STATE_WORDS + lane];
}

fn enter(inst: u32) {
    g_inst = inst;
    g_base = inst * STATE_WORDS;
    g_status = sreg(S_STATUS);
}

// The translation state a dispatch keeps in private variables (both pipelines carry it).
fn load_xlat() {
    g_rct0 = sreg(S_RC);
    g_rcb0 = sreg(S_RC + 1u);
    g_rct1 = sreg(S_RC + 2u);
    g_rcb1 = sreg(S_RC + 3u);
    g_walk = sreg(S_WALK);
    g_wptr = sreg(S_WALK + 1u);
    g_ptroot = sreg(S_PTROOT);
    g_xtag = sreg(S_XPAGE);
    g_xf = sreg(S_XPAGE + 1u);
}

fn store_xlat() {
    sset(S_RC, g_rct0);
    sset(S_RC + 1u, g_rcb0);
    sset(S_RC + 2u, g_rct1);
    sset(S_RC + 3u, g_rcb1);
    sset(S_WALK, g_walk);
    sset(S_WALK + 1u, g_wptr);
    sset(S_XPAGE, g_xtag);
    sset(S_XPAGE + 1u, g_xf);
}

// One pc sample into the ring the host reads (the instruction index from the code map's base).
fn take_sample(ns: u32, pc: V) {
    let rel = vsub(pc, g_code_base);
    sset(S_SAMPLES + ns % SAMPLES, select(~0u, vlo(rel) >> 2u, vhi(rel) == 0u));
    sset(S_SAMPLE_N, ns + 1u);
}

fn sreg(i: u32) -> u32 { return state[g_base + i]; }
fn sset(i: u32, v: u32) { state[g_base + i] = v; }
fn sreg64(i: u32) -> V { return vw(state[g_base + i], state[g_base + i + 1u]); }
fn sset64(i: u32, v: V) { state[g_base + i] = vlo(v); state[g_base + i + 1u] = vhi(v); }

fn fault(reason: u32, addr: V, kind: u32) {
    g_status = reason;
    g_fault_addr = addr;
    g_fault_kind = kind;
}

fn bswap(x: u32) -> u32 {
    return (x >> 24u) | ((x >> 8u) & 0xff00u) | ((x << 8u) & 0xff0000u) | (x << 24u);
}

