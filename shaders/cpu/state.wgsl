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
var<private> g_tmp_addr: u32;
var<private> g_tmp_wb: V;
var<private> g_excl_valid: u32;
var<private> g_excl_addr: u32;
var<private> g_brk: u32;
var<private> g_out_len: u32;
var<private> g_fault_addr: V;
var<private> g_fault_kind: u32;
var<private> g_exit_code: u32;
var<private> g_code_lo: u32;
var<private> g_code_hi: u32;
var<private> g_guard_lo: u32;  // the guard gap below the stack: no access in [lo, hi)
var<private> g_guard_hi: u32;
var<private> g_fastfd: u32;  // bit k-1: fd k (1, 2) writes to the console
var<private> g_count0: V;
var<private> g_base: u32;   // this instance's first state word
var<private> g_mbase: u32;  // this instance's first memory word
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

fn mem_ok(addr: V, n: u32) -> bool {
    let lo = vlo(addr);
    // n <= mem_bytes first, so the subtraction cannot wrap (the shader runs without naga's checks).
    // lo + n cannot wrap once lo <= mem_bytes - n.
    return vhi(addr) == 0u && lo >= P.lo_bound && n <= P.mem_bytes && lo <= P.mem_bytes - n
        && (lo + n <= g_guard_lo || lo >= g_guard_hi);
}

// Address translation (docs/virtual-memory.md): four-level tables in `ptab`; a region cache of
// two 2 MiB regions (tag = region + 1, and the region's last-level table) so an access costs a
// compare and one table load. The host maps each window 1:1 for now, so the words after
// `xlat(al, ..)` in a window are consecutive even across a page.
var<private> g_rct0: u32;
var<private> g_rcb0: u32;
var<private> g_rct1: u32;
var<private> g_rcb1: u32;

// A region miss walks one level per step (lavapipe runs the walk's code on every step, so the
// walk and the access share one table load): root, level 1, level 2, then the region is cached.
// g_walk is (region + 1) << 2 | the next level, so a walk left by another access restarts.
// Only the access's first byte is translated: the windows are mapped 1:1, so its other words
// follow in `mem` (step 3 adds page crossing).
var<private> g_walk: u32;
var<private> g_wptr: u32;
var<private> g_ptroot: u32;  // this instance's root table

// The memory word of byte address `al` (checked by mem_ok), or XLAT_RETRY while a region walk
// is under way (the caller returns, and the instruction repeats with its effects not yet
// made). A step that touches no memory (`touch` false) gets an in-bounds word it must not use.
fn xlat(al: u32, touch: bool) -> u32 {
    let r = (al >> 21u) + 1u;
    let h0 = r == g_rct0;
    let hit = h0 || r == g_rct1 || !touch;
    let lvl = select(0u, g_walk & 3u, (g_walk >> 2u) == r);
    let wk = select(select((al >> 21u) & 511u, al >> 30u, lvl == 1u), 0u, lvl == 0u);
    let at = select(select(g_wptr, g_ptroot, lvl == 0u) * PT_ENTRIES + wk,
                    select(g_rcb1, g_rcb0, h0) * PT_ENTRIES + ((al >> 12u) & 511u), hit);
    let e = ptab[at] & PTE_FRAME;
    if hit {
        return select(g_mbase, (e << 10u) + ((al & 4095u) >> 2u), touch);
    }
    if lvl < 2u {
        g_wptr = e;
        g_walk = (r << 2u) | (lvl + 1u);
        return XLAT_RETRY;
    }
    // The region replaces the older entry.
    g_walk = 0u;
    g_rct1 = g_rct0;
    g_rcb1 = g_rcb0;
    g_rct0 = r;
    g_rcb0 = e;
    return XLAT_RETRY;
}

// Two adjacent words funnel-shifted right by `sh` bits (0..24, a multiple of 8).
fn funnel(x: u32, y: u32, sh: u32) -> u32 {
    return select((x >> sh) | (y << ((32u - sh) & 31u)), x, sh == 0u);
}

// Reads 8 bytes at a byte address (the caller checked bounds; the buffer has pad words at its end).
fn load8(addr: u32) -> V {
    // The shader's console write copies a whole buffer; with the windows mapped 1:1 it reads
    // them flat (translating it is step 3 of docs/virtual-memory.md).
    let i = g_mbase + (addr >> 2u);
    let sh = (addr & 3u) * 8u;
    let w1 = mem[i + 1u];
    return vw(funnel(mem[i], w1, sh), funnel(w1, mem[i + 2u], sh));
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

