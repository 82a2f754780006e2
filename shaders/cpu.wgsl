// The A64 CPU: one guest per invocation, executing the decoded form (src/isa/form.rs).
//
// Each step fetches a decoded instruction and drives one shared datapath: an operand-B
// extender/shifter, one adder with carry-in, a logic unit, a bitfield unit, a multiplier, a
// divider, a one-source unit, one memory path and a branch/condition unit. lavapipe runs every arm
// of every branch on every step, so the units are kept few and small.
//
// Preceded by a prelude (the 64-bit API `V`) and the generated constants.

struct Params {
    n_instances: u32,
    mem_bytes: u32,     // guest memory per instance
    mem_words: u32,
    lo_bound: u32,      // accesses below this address fault (null guard)
    map_pages: u32,     // code-map entries per instance
    iters: u32,         // steps per dispatch per invocation
    out_words: u32,     // output ring words per instance
    _pad: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<storage, read_write> mem: array<u32>;
@group(0) @binding(3) var<storage, read> codemap: array<u32>;
@group(0) @binding(4) var<storage, read> dec: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> outbuf: array<u32>;

// Per-instance state words (mirrored in src/gpu/layout.rs).
const STATE_WORDS: u32 = 96u;
const S_PC: u32 = 64u;
const S_NZCV: u32 = 66u;
const S_STATUS: u32 = 67u;
const S_TPIDR: u32 = 68u;
const S_FPCR: u32 = 70u;
const S_FPSR: u32 = 71u;
const S_COUNT: u32 = 72u;
const S_LIMIT: u32 = 74u;
const S_USTEP: u32 = 76u;
const S_TMP_ADDR: u32 = 77u;
const S_TMP_WB: u32 = 78u;
const S_FAULT_ADDR: u32 = 80u;
const S_FAULT_KIND: u32 = 82u;
const S_BRK: u32 = 83u;
const S_BRK_MIN: u32 = 84u;
const S_BRK_MAX: u32 = 85u;
const S_OUT_LEN: u32 = 86u;
const S_EXCL_VALID: u32 = 87u;
const S_EXCL_ADDR: u32 = 88u;
const S_EXIT_CODE: u32 = 90u;
const S_FASTFD: u32 = 91u;
const S_CODE_LO: u32 = 93u;
const S_CODE_HI: u32 = 94u;

// Stop reasons (S_STATUS).
const ST_RUNNING: u32 = 0u;
const ST_EXITED: u32 = 1u;
const ST_SYSCALL: u32 = 2u;
const ST_MEMFAULT: u32 = 3u;
const ST_ILLEGAL: u32 = 4u;
const ST_NEEDCODE: u32 = 5u;
const ST_CODEMOD: u32 = 6u;
const ST_LIMIT: u32 = 7u;
const ST_BRK: u32 = 8u;
const ST_WRITE: u32 = 9u;
const ST_FETCHFAULT: u32 = 10u;
const ST_LIMIT_RETRY: u32 = 11u;
const ST_DCZVA: u32 = 12u;

const FAULT_READ: u32 = 0u;
const FAULT_WRITE: u32 = 1u;
const FAULT_EXEC: u32 = 2u;
const NO_CODE: u32 = 0xffffffffu;

// The guest's registers and hot state live in private variables for a whole dispatch: on
// lavapipe every storage access in the step costs a gather on every step, taken or not.
var<private> R: array<V, 34>;
var<private> g_pc: V;
var<private> g_nzcv: u32;
var<private> g_status: u32;
var<private> g_ustep: u32;
var<private> g_executed: u32;
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
    return vhi(addr) == 0u && lo >= P.lo_bound && n <= P.mem_bytes && lo <= P.mem_bytes - n;
}

// Two adjacent words funnel-shifted right by `sh` bits (0..24, a multiple of 8).
fn funnel(x: u32, y: u32, sh: u32) -> u32 {
    return select((x >> sh) | (y << ((32u - sh) & 31u)), x, sh == 0u);
}

// Reads 8 bytes at a byte address (the caller checked bounds; the buffer has pad words at its end).
fn load8(addr: u32) -> V {
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

fn step() {
    let pc = g_pc;
    let pcl = vlo(pc);
    if vhi(pc) != 0u || (pcl & 3u) != 0u || pcl < P.lo_bound || pcl >= P.mem_bytes {
        fault(ST_FETCHFAULT, pc, FAULT_EXEC);
        return;
    }
    let slot = codemap[g_inst * P.map_pages + (pcl >> 12u)];
    if slot == NO_CODE {
        g_status = ST_NEEDCODE;
        return;
    }
    let d = dec[slot * 1024u + ((pcl & 4095u) >> 2u)];
    let c0 = d.x;
    let unit = c0 & 15u;
    let opn = (c0 >> F_OP_SHIFT) & 15u;
    let w = (c0 & F_W) != 0u;
    let cond = (c0 >> F_COND_SHIFT) & 15u;
    let wide = unit == U_ALU || unit == U_CSEL;
    let imm = select(sext32(d.z), vw(d.z, d.w), wide);
    let aux = select(d.w, 0u, wide);
    let rd = d.y & 63u;
    let rn = (d.y >> 6u) & 63u;
    let rm = (d.y >> 12u) & 63u;
    let is_mem = unit == U_MEM;
    let pair = is_mem && (aux & M_PAIR) != 0u;
    let second = pair && g_ustep == 1u;
    let rt = select((d.y >> 18u) & 63u, (d.y >> 24u) & 63u, second);

    let a = R[rn];
    let bm = R[rm];
    let c = R[rt];
    let holds = cond_holds(cond, g_nzcv);

    // Operand B: source, extension, shift, inversion.
    let bs = (c0 >> F_BSRC_SHIFT) & 3u;
    var b = select(select(bm, imm, bs == BSRC_IMM), c, bs == BSRC_RC);
    let amt = select((c0 >> F_SHAMT_SHIFT) & 63u, vlo(bm) & select(63u, 31u, w), (c0 & F_SHVAR) != 0u);
    b = shift(extend(b, (c0 >> F_EXT_SHIFT) & 7u), (c0 >> F_SHT_SHIFT) & 3u, amt);
    let bsrc_val = b;
    if (c0 & F_INVB) != 0u { b = vnot(b); }

    // The adder (ALU add/sub, CSEL's alternative, CCMP, address generation). In W form both
    // operands move to the high word so carry and overflow come out of bit 63.
    let cinm = (c0 >> F_CIN_SHIFT) & 3u;
    let cin = select(select(0u, 1u, cinm == CIN_ONE), (g_nzcv >> 1u) & 1u, cinm == CIN_CARRY);
    let aa = select(a, vz(), unit == U_CSEL);
    let a2 = select(aa, vshl(aa, 32u), w);
    let b2 = select(b, vshl(b, 32u), w);
    let s1 = vadd(a2, b2);
    let s2 = vadd(s1, select(vw(cin, 0u), vw(0u, cin), w));
    let carry = vult(s1, a2) || vult(s2, s1);
    let ovf = top_bit(vand(vxor(a2, s2), vxor(b2, s2)));
    let add_flags = (top_bit(s2) << 3u) | select(0u, 4u, veq(s2, vz())) | select(0u, 2u, carry) | ovf;
    let sum = select(s2, vshr(s2, 32u), w);

    var res = sum;
    var flags = add_flags;
    var next = vadd(pc, vw(4u, 0u));
    var wi1 = rd;
    var wi2 = R_SINK;   // second register write (memory writeback / store status)
    var r2 = vz();
    var ustep_next = 0u;

    // Logic unit (ALU AND/ORR/EOR).
    if unit == U_ALU && opn != OP_ADD {
        var l = vand(a, b);
        if opn == OP_ORR { l = vor(a, b); }
        if opn == OP_EOR { l = vxor(a, b); }
        res = l;
        flags = nz_flags(l, w);
    }
    // CSEL: Rn if the condition holds, else the adder's Rm (+1, inverted, negated).
    if unit == U_CSEL && holds { res = a; }
    if unit == U_CCMP { flags = select(aux & 15u, add_flags, holds); }

    // Bitfield unit: UBFM/SBFM/BFM as (field >> lsb) << pos, EXTR, MOVK.
    if unit == U_BFM {
        let lsb = aux & 63u;
        let pos = (aux >> BF_POS_SHIFT) & 63u;
        let width = (aux >> BF_WIDTH_SHIFT) & 127u;
        let mode = (aux >> BF_MODE_SHIFT) & 3u;
        let ones = vones(width);
        var v = vshl(vand(vshr(bsrc_val, lsb), ones), pos);
        if mode == BF_INSERT { v = vor(vand(c, vnot(vshl(ones, pos))), v); }
        let topb = pos + width;
        if mode == BF_SIGN && topb < 64u && (vlo(vshr(v, topb - 1u)) & 1u) == 1u {
            v = vor(v, vnot(vones(topb)));
        }
        if mode == BF_EXTR {
            // (Rn:Rm) >> lsb; in W form the two words are packed into one 64-bit value.
            let hi = select(a, vshl(a, 32u), w);
            let lo = select(bm, vand(bm, vw(0xffffffffu, 0u)), w);
            let wide_v = select(vor(vshr(lo, lsb), vshl(hi, 64u - lsb)), lo, lsb == 0u);
            v = select(wide_v, vshr(vor(hi, lo), lsb), w);
        }
        res = v;
    }

    // Multiplier: MADD/MSUB (also widening) and the high halves.
    if unit == U_MUL {
        let e = select(select(0u, EXT_UXTW, opn == OP_UMADDL), EXT_SXTW, opn == OP_SMADDL);
        let p = vmul(extend(a, e), extend(bm, e));
        res = select(vadd(c, p), vsub(c, p), (c0 & F_INVB) != 0u);
        if opn >= OP_SMULH {
            var h = vmulhu(a, bm);
            if opn == OP_SMULH {
                // Signed high half from the unsigned one: subtract the other operand per sign.
                h = vsub(vsub(h, vand(vsar(a, 63u), bm)), vand(vsar(bm, 63u), a));
            }
            res = h;
        }
    }

    // Divider and the bit-serial half of the one-source unit (RBIT, CLZ, CLS). Both run one bit
    // per trip of a loop whose trip count is zero unless this lane needs it: lavapipe then runs
    // the body once under an empty mask, far cheaper than a scalarised 64-bit `/` or a vector
    // bit-reverse and count-leading-zeros paid on every step. lavapipe's loop limiter may cut a
    // loop short; the trip count is checked so a truncated result is never committed.
    let sgn = opn == OP_SDIV;
    let xd = select(a, select(vand(a, vw(0xffffffffu, 0u)), sext32(vlo(a)), sgn), w);
    let yd = select(bm, select(vand(bm, vw(0xffffffffu, 0u)), sext32(vlo(bm)), sgn), w);
    let nx = sgn && top_bit(xd) == 1u;
    let ny = sgn && top_bit(yd) == 1u;
    let ux = select(xd, vneg(xd), nx);
    let uy = select(yd, vneg(yd), ny);
    let ndiv = select(0u, select(64u, 32u, w), unit == U_DIV);
    var q = vz();
    var rem = vz();
    var i = 0u;
    loop {
        if i >= ndiv { break; }
        let bitpos = ndiv - 1u - i;
        rem = vor(vshl(rem, 1u), vand(vshr(ux, bitpos), vw(1u, 0u)));
        let ge = !vult(rem, uy);
        rem = select(rem, vsub(rem, uy), ge);
        q = select(q, vor(q, vshl(vw(1u, 0u), bitpos)), ge);
        i = i + 1u;
    }
    var short_loop = i != ndiv;
    if unit == U_DIV {
        if nx != ny { q = vneg(q); }
        res = select(q, vz(), veq(yd, vz()));
    }

    // One-source unit. In W form the low word moves to the top so scans run over 32 bits; CLS
    // counts leading copies of the sign bit: CLZ of x ^ (x >> 1), minus one.
    let t0 = select(a, vshl(a, 32u), w);
    let tb = select(t0, vxor(t0, vsar(t0, 1u)), opn == OP_CLS);
    let nscan = select(0u, select(64u, 32u, w), unit == U_ONE && (opn == OP_RBIT || opn >= OP_CLZ));
    var rb = vz();
    var lz = 0u;
    var seen = false;
    var k = 0u;
    loop {
        if k >= nscan { break; }
        let bitv = vlo(vshr(tb, 63u - k)) & 1u;
        seen = seen || bitv == 1u;
        lz = lz + select(1u, 0u, seen);
        rb = vor(rb, vshl(vw(bitv, 0u), k));
        k = k + 1u;
    }
    short_loop = short_loop || k != nscan;
    if unit == U_ONE {
        let lo = vlo(a);
        let hi = vhi(a);
        var v = rb;
        if opn == OP_REV16 {
            v = vw(((lo >> 8u) & 0x00ff00ffu) | ((lo << 8u) & 0xff00ff00u),
                   ((hi >> 8u) & 0x00ff00ffu) | ((hi << 8u) & 0xff00ff00u));
        }
        if opn == OP_REV32 { v = vw(bswap(lo), bswap(hi)); }
        if opn == OP_REV64 { v = vw(bswap(hi), bswap(lo)); }
        if opn >= OP_CLZ { v = vw(select(lz, lz - 1u, opn == OP_CLS), 0u); }
        res = v;
    }

    // Memory unit: one access of 1-8 bytes per step through a three-word window; pairs take two
    // steps (ustep), the second at the saved address + size.
    if is_mem {
        let size = aux & 3u;
        let nb = 1u << size;
        let idx = (aux >> M_IDX_SHIFT) & 3u;
        let store = (aux & M_STORE) != 0u;
        let excl = (aux & M_EXCL) != 0u;
        var addr = select(sum, a, idx == M_IDX_POST);
        var wb = sum;
        if second {
            addr = vw(g_tmp_addr + nb, 0u);
            wb = g_tmp_wb;
        }
        let prfm = (aux & M_PRFM) != 0u;
        if !prfm && !mem_ok(addr, nb) {
            fault(ST_MEMFAULT, addr, select(FAULT_READ, FAULT_WRITE, store));
            return;
        }
        let al = select(vlo(addr), P.lo_bound, prfm);
        let i = g_mbase + (al >> 2u);
        let sh = (al & 3u) * 8u;
        let m0w = mem[i];
        let m1w = mem[i + 1u];
        let m2w = mem[i + 2u];
        let loaded = vand(vw(funnel(m0w, m1w, sh), funnel(m1w, m2w, sh)), vones(nb * 8u));
        let sb = 64u - nb * 8u;
        var v = loaded;
        if (aux & M_SX64) != 0u { v = vsar(vshl(loaded, sb), sb); }
        if (aux & M_SX32) != 0u { v = vw(vlo(vsar(vshl(loaded, sb), sb)), 0u); }
        res = v;
        wi1 = rt;
        // Exclusive pairs check and set the monitor on their first step only; a failed STXP
        // skips its second step.
        // The monitor remembers the access size and pairing too: a store-exclusive of another
        // size is CONSTRAINED UNPREDICTABLE, and failing it is what qemu does.
        let excl_tag = 1u + size + select(0u, 8u, pair);
        if excl && !store && !second { g_excl_valid = excl_tag; g_excl_addr = al; }
        let ok = !store || !excl || second || (g_excl_valid == excl_tag && g_excl_addr == al);
        if store {
            if excl { g_excl_valid = 0u; r2 = vw(select(1u, 0u, ok), 0u); }
            wi1 = R_SINK;
            if ok {
                // Spread value and byte mask over the window as a 96-bit shift left by sh.
                let m = vones(nb * 8u);
                let dv = vand(c, m);
                let inv = (32u - sh) & 31u;
                let z = sh == 0u;
                mem[i] = (m0w & ~(vlo(m) << sh)) | (vlo(dv) << sh);
                let m1 = select((vhi(m) << sh) | (vlo(m) >> inv), vhi(m), z);
                let m2 = select(vhi(m) >> inv, 0u, z);
                if m1 != 0u { mem[i + 1u] = (m1w & ~m1) | select((vhi(dv) << sh) | (vlo(dv) >> inv), vhi(dv), z); }
                if m2 != 0u { mem[i + 2u] = (m2w & ~m2) | select(vhi(dv) >> inv, 0u, z); }
                // A store near decoded code stops the guest so the host can re-decode.
                if al < g_code_hi && al + nb > g_code_lo { fault(ST_CODEMOD, addr, FAULT_WRITE); }
            }
        }
        if !excl && idx != 0u { r2 = wb; }
        wi2 = rd;
        if pair && !second && ok {
            g_tmp_addr = al;
            g_tmp_wb = wb;
            ustep_next = 1u;
            next = pc;
            wi2 = R_SINK;
        }
    }

    // Branch unit: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR, BLR, RET.
    if unit == U_BR {
        let mask = select(select(vnot(vz()), vw(0xffffffffu, 0u), w), vshl(vw(1u, 0u), (c0 >> F_SHAMT_SHIFT) & 63u), opn >= OP_BTZ);
        let zero = veq(vand(a, mask), vz());
        var taken = opn <= OP_BL || (opn == OP_BCOND && holds);
        if opn == OP_BZERO || opn == OP_BTZ { taken = zero; }
        if opn == OP_BNONZERO || opn == OP_BTNZ { taken = !zero; }
        res = next;
        if taken { next = vw(vlo(imm), 0u); }
        if opn == OP_BREG || opn == OP_BLREG { next = a; }
    }

    // System unit: SVC, MRS/MSR, BRK, CLREX, DC ZVA; hints and barriers do nothing.
    if unit == U_SYS {
        if opn == OP_SVC {
            res = syscall();
            if g_status == ST_WRITE { next = pc; }
        }
        if opn == OP_MRS {
            var v = vw(g_nzcv << 28u, 0u);
            if aux == SR_TPIDR_EL0 { v = g_tpidr; }
            if aux == SR_FPCR { v = vw(g_fpcr, 0u); }
            if aux == SR_FPSR { v = vw(g_fpsr, 0u); }
            if aux == SR_CNTVCT_EL0 { v = vadd(g_count0, vw(g_executed, 0u)); }
            if aux == SR_CNTFRQ_EL0 { v = vw(CNTFRQ_EL0_VALUE, 0u); }
            if aux == SR_CTR_EL0 { v = vw(CTR_EL0_VALUE, 0u); }
            if aux == SR_DCZID_EL0 { v = vw(DCZID_EL0_VALUE, 0u); }
            if aux == SR_TPIDRRO_EL0 { v = vz(); }
            res = v;
        }
        if opn == OP_MSR {
            if aux == SR_NZCV { g_nzcv = (vlo(bm) >> 28u) & 15u; }
            if aux == SR_TPIDR_EL0 { g_tpidr = bm; }
            if aux == SR_FPCR { g_fpcr = vlo(bm) & FPCR_MASK; }
            if aux == SR_FPSR { g_fpsr = vlo(bm) & FPSR_MASK; }
        }
        if opn == OP_BRK {
            fault(ST_BRK, pc, FAULT_EXEC);
            return;
        }
        if opn == OP_CLREX { g_excl_valid = 0u; }
        // Rare, and sixteen stores would cost every step on lavapipe: the host zeroes the block.
        if opn == OP_DCZVA {
            let blk = vand(a, vnot(vw(63u, 0u)));
            if !mem_ok(blk, 64u) {
                fault(ST_MEMFAULT, blk, FAULT_WRITE);
                return;
            }
            fault(ST_DCZVA, blk, FAULT_WRITE);
        }
    }

    if unit == U_TRAP {
        // Unallocated, HLT, UDF: the raw word rides in the immediate.
        fault(ST_ILLEGAL, pc, d.z);
        return;
    }
    if short_loop {
        // The loop limiter cut a bit-serial loop short: run the instruction again next dispatch.
        g_status = ST_LIMIT_RETRY;
        return;
    }

    if w && unit != U_BR { res = vw(vlo(res), 0u); }
    if (c0 & F_S) != 0u { g_nzcv = flags; }
    R[wi1] = res;
    R[wi2] = r2;
    g_ustep = ustep_next;
    g_pc = next;
    g_executed = g_executed + 1u;
}

fn bswap(x: u32) -> u32 {
    return (x >> 24u) | ((x >> 8u) & 0xff00u) | ((x << 8u) & 0xff0000u) | (x << 24u);
}

// Syscalls the shader answers itself: exit, exit_group, brk, and write to fds 1 and 2 while the
// output ring has room (ST_WRITE: the copy happens at the start of the next dispatch). Anything
// else stops the guest for the host (ST_SYSCALL) with pc past the SVC.
fn syscall() -> V {
    let nr = vlo(R[8]);
    let x0 = R[0];
    var r = x0;
    g_status = ST_SYSCALL;
    if nr == 93u || nr == 94u {
        g_exit_code = vlo(x0) & 255u;
        g_status = ST_EXITED;
    }
    if nr == 214u {
        if vhi(x0) == 0u && vlo(x0) >= sreg(S_BRK_MIN) && vlo(x0) <= sreg(S_BRK_MAX) { g_brk = vlo(x0); }
        r = vw(g_brk, 0u);
        g_status = ST_RUNNING;
    }
    if nr == 64u && vhi(x0) == 0u && (vlo(x0) == 1u || vlo(x0) == 2u) && ((g_fastfd >> (vlo(x0) - 1u)) & 1u) == 1u {
        let len = R[2];
        let room = (P.out_words - g_out_len) * 4u;
        // Written as `l <= room - 4` so a length near 2^32 cannot wrap past the check.
        let l = vlo(len);
        if vhi(len) == 0u && room >= 4u && l <= room - 4u && mem_ok(R[1], l) {
            g_status = select(ST_WRITE, ST_RUNNING, vlo(len) == 0u);
            r = select(x0, vz(), vlo(len) == 0u);
        }
    }
    return r;
}

// Copies a pending write (fd x0, buffer x1, length x2) into this instance's output ring as one
// record: a header word (fd << 28 | length) and the bytes. Commits only if the copy finished.
fn finish_write() {
    let fd = vlo(R[0]);
    let src = vlo(R[1]);
    let len = vlo(R[2]);
    let pos = g_out_len;
    let ob = g_inst * P.out_words;
    let n = (len + 3u) / 4u;
    var k = 0u;
    loop {
        if k >= n { break; }
        outbuf[ob + pos + 1u + k] = vlo(load8(src + k * 4u));
        k = k + 1u;
    }
    if k != n { return; }
    outbuf[ob + pos] = (fd << 28u) | len;
    g_out_len = pos + 1u + n;
    R[0] = vw(len, 0u);
    g_pc = vadd(g_pc, vw(4u, 0u));
    g_status = ST_RUNNING;
}

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let inst = gid.x;
    if inst >= P.n_instances { return; }
    g_inst = inst;
    g_base = inst * STATE_WORDS;
    g_mbase = inst * P.mem_words;
    g_status = sreg(S_STATUS);
    if g_status == ST_LIMIT_RETRY { g_status = ST_RUNNING; }
    if g_status != ST_RUNNING && g_status != ST_WRITE { return; }
    // Unrolled: once lavapipe's loop limiter is spent, every later loop would exit at once.
    R[0] = sreg64(0u);
    R[1] = sreg64(2u);
    R[2] = sreg64(4u);
    R[3] = sreg64(6u);
    R[4] = sreg64(8u);
    R[5] = sreg64(10u);
    R[6] = sreg64(12u);
    R[7] = sreg64(14u);
    R[8] = sreg64(16u);
    R[9] = sreg64(18u);
    R[10] = sreg64(20u);
    R[11] = sreg64(22u);
    R[12] = sreg64(24u);
    R[13] = sreg64(26u);
    R[14] = sreg64(28u);
    R[15] = sreg64(30u);
    R[16] = sreg64(32u);
    R[17] = sreg64(34u);
    R[18] = sreg64(36u);
    R[19] = sreg64(38u);
    R[20] = sreg64(40u);
    R[21] = sreg64(42u);
    R[22] = sreg64(44u);
    R[23] = sreg64(46u);
    R[24] = sreg64(48u);
    R[25] = sreg64(50u);
    R[26] = sreg64(52u);
    R[27] = sreg64(54u);
    R[28] = sreg64(56u);
    R[29] = sreg64(58u);
    R[30] = sreg64(60u);
    R[31] = sreg64(62u);
    R[32] = vz();
    R[33] = vz();
    g_pc = sreg64(S_PC);
    g_nzcv = sreg(S_NZCV);
    g_ustep = sreg(S_USTEP);
    g_tpidr = sreg64(S_TPIDR);
    g_fpcr = sreg(S_FPCR);
    g_fpsr = sreg(S_FPSR);
    g_tmp_addr = sreg(S_TMP_ADDR);
    g_tmp_wb = sreg64(S_TMP_WB);
    g_excl_valid = sreg(S_EXCL_VALID);
    g_excl_addr = sreg(S_EXCL_ADDR);
    g_brk = sreg(S_BRK);
    g_out_len = sreg(S_OUT_LEN);
    g_code_lo = sreg(S_CODE_LO);
    g_code_hi = sreg(S_CODE_HI);
    g_fastfd = sreg(S_FASTFD);
    g_count0 = sreg64(S_COUNT);
    g_executed = 0u;
    if g_status == ST_WRITE { finish_write(); }

    let limit = sreg64(S_LIMIT);
    var budget = P.iters;
    if vult(vsub(limit, g_count0), vw(budget, 0u)) { budget = vlo(vsub(limit, g_count0)); }
    for (var i = 0u; i < budget; i = i + 1u) {
        if g_status != ST_RUNNING { break; }
        step();
    }
    let total = vadd(g_count0, vw(g_executed, 0u));
    if g_status == ST_RUNNING && !vult(total, limit) { g_status = ST_LIMIT; }

    // Unrolled, like the load: the main loop may have spent the loop limiter's budget.
    sset64(0u, R[0]);
    sset64(2u, R[1]);
    sset64(4u, R[2]);
    sset64(6u, R[3]);
    sset64(8u, R[4]);
    sset64(10u, R[5]);
    sset64(12u, R[6]);
    sset64(14u, R[7]);
    sset64(16u, R[8]);
    sset64(18u, R[9]);
    sset64(20u, R[10]);
    sset64(22u, R[11]);
    sset64(24u, R[12]);
    sset64(26u, R[13]);
    sset64(28u, R[14]);
    sset64(30u, R[15]);
    sset64(32u, R[16]);
    sset64(34u, R[17]);
    sset64(36u, R[18]);
    sset64(38u, R[19]);
    sset64(40u, R[20]);
    sset64(42u, R[21]);
    sset64(44u, R[22]);
    sset64(46u, R[23]);
    sset64(48u, R[24]);
    sset64(50u, R[25]);
    sset64(52u, R[26]);
    sset64(54u, R[27]);
    sset64(56u, R[28]);
    sset64(58u, R[29]);
    sset64(60u, R[30]);
    sset64(62u, R[31]);
    sset64(S_PC, g_pc);
    sset(S_NZCV, g_nzcv);
    sset(S_USTEP, g_ustep);
    sset(S_STATUS, g_status);
    sset64(S_COUNT, total);
    sset64(S_TPIDR, g_tpidr);
    sset(S_FPCR, g_fpcr);
    sset(S_FPSR, g_fpsr);
    sset(S_TMP_ADDR, g_tmp_addr);
    sset64(S_TMP_WB, g_tmp_wb);
    sset(S_EXCL_VALID, g_excl_valid);
    sset(S_EXCL_ADDR, g_excl_addr);
    sset(S_BRK, g_brk);
    sset(S_OUT_LEN, g_out_len);
    sset(S_EXIT_CODE, g_exit_code);
    if g_status == ST_MEMFAULT || g_status == ST_FETCHFAULT || g_status == ST_ILLEGAL || g_status == ST_BRK
        || g_status == ST_CODEMOD || g_status == ST_DCZVA {
        sset64(S_FAULT_ADDR, g_fault_addr);
        sset(S_FAULT_KIND, g_fault_kind);
    }
}
