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
const S_FD1: u32 = 91u;
const S_FD2: u32 = 92u;

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

var<private> R: array<V, 34>;
var<private> g_pc: V;
var<private> g_nzcv: u32;
var<private> g_status: u32;
var<private> g_ustep: u32;
var<private> g_base: u32;   // this instance's first state word
var<private> g_mbase: u32;  // this instance's first memory word
var<private> g_inst: u32;

// Condition codes as a 16-bit truth table over NZCV (bit index N<<3|Z<<2|C<<1|V).
fn cond_holds(c: u32, nzcv: u32) -> bool {
    let t = array<u32, 8>(
        0xf0f0u, // EQ: Z
        0xccccu, // CS: C
        0xff00u, // MI: N
        0xaaaau, // VS: V
        0x0c0cu, // HI: C && !Z
        0xaa55u, // GE: N == V
        0x0a05u, // GT: !Z && N == V
        0xffffu, // AL
    );
    var r = (t[c >> 1u] >> nzcv) & 1u;
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
    let sh = array<u32, 8>(0u, 56u, 48u, 32u, 56u, 48u, 32u, 0u)[e];
    let t = vshl(x, sh);
    var r = select(vshr(t, sh), vsar(t, sh), e >= EXT_SXTB);
    if e == EXT_REP32 { r = vw(vlo(x), vlo(x)); }
    return r;
}

fn shift(x: V, kind: u32, amt: u32) -> V {
    var r = vshl(x, amt);
    if kind == SHT_LSR { r = vshr(x, amt); }
    if kind == SHT_ASR { r = vsar(x, amt); }
    if kind == SHT_ROR { r = vor(vshr(x, amt), vshl(x, (64u - amt) & 63u)); }
    return r;
}

fn mem_ok(addr: V, n: u32) -> bool {
    let lo = vlo(addr);
    return vhi(addr) == 0u && lo >= P.lo_bound && lo <= P.mem_bytes - n;
}

fn is_code(addr: u32) -> bool {
    return codemap[g_inst * P.map_pages + (addr >> 12u)] != NO_CODE;
}

// Two adjacent words funnel-shifted right by `sh` bits (0..24, a multiple of 8).
fn funnel(x: u32, y: u32, sh: u32) -> u32 {
    return select((x >> sh) | (y << ((32u - sh) & 31u)), x, sh == 0u);
}

// Reads 8 bytes at a byte address (the caller checked bounds; the buffer has pad words at its end).
fn load8(addr: u32) -> V {
    let i = g_mbase + (addr >> 2u);
    let sh = (addr & 3u) * 8u;
    let w0 = mem[i];
    let w1 = mem[i + 1u];
    let w2 = mem[i + 2u];
    return vw(funnel(w0, w1, sh), funnel(w1, w2, sh));
}

// Writes the low `nbytes` of v at a byte address, touching only the words it covers.
fn store(addr: u32, v: V, nbytes: u32) {
    let i = g_mbase + (addr >> 2u);
    let sh = (addr & 3u) * 8u;
    let m = vones(nbytes * 8u);
    let d = vand(v, m);
    let inv = (32u - sh) & 31u;
    let p0 = vlo(d) << sh;
    let p1 = select((vhi(d) << sh) | (vlo(d) >> inv), vhi(d), sh == 0u);
    let p2 = select(vhi(d) >> inv, 0u, sh == 0u);
    let m0 = vlo(m) << sh;
    let m1 = select((vhi(m) << sh) | (vlo(m) >> inv), vhi(m), sh == 0u);
    let m2 = select(vhi(m) >> inv, 0u, sh == 0u);
    mem[i] = (mem[i] & ~m0) | p0;
    if m1 != 0u { mem[i + 1u] = (mem[i + 1u] & ~m1) | p1; }
    if m2 != 0u { mem[i + 2u] = (mem[i + 2u] & ~m2) | p2; }
}

fn sreg(i: u32) -> u32 { return state[g_base + i]; }
fn sset(i: u32, v: u32) { state[g_base + i] = v; }
fn sreg64(i: u32) -> V { return vw(state[g_base + i], state[g_base + i + 1u]); }
fn sset64(i: u32, v: V) { state[g_base + i] = vlo(v); state[g_base + i + 1u] = vhi(v); }

fn stop(reason: u32) { g_status = reason; }
fn fault(reason: u32, addr: V, kind: u32) {
    g_status = reason;
    sset64(S_FAULT_ADDR, addr);
    sset(S_FAULT_KIND, kind);
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
        stop(ST_NEEDCODE);
        return;
    }
    let di = (slot * 1024u + ((pcl & 4095u) >> 2u)) * 2u;
    let d0 = dec[di];
    let d1 = dec[di + 1u];
    let c0 = d0.x;
    let unit = c0 & 15u;
    let opn = (c0 >> F_OP_SHIFT) & 15u;
    let w = (c0 & F_W) != 0u;
    let setflags = (c0 & F_S) != 0u;
    let cond = (c0 >> F_COND_SHIFT) & 15u;
    let imm = vw(d0.z, d0.w);
    let aux = d1.x;
    let rd = d0.y & 63u;
    let rn = (d0.y >> 6u) & 63u;
    let rm = (d0.y >> 12u) & 63u;
    let pair = unit == U_MEM && (aux & M_PAIR) != 0u;
    let second = pair && g_ustep == 1u;
    let rt = select((d0.y >> 18u) & 63u, (d0.y >> 24u) & 63u, second);

    let a = R[rn];
    let bm = R[rm];
    let c = R[rt];
    let holds = cond_holds(cond, g_nzcv);

    // Operand B: source, extension, shift, inversion.
    let bs = (c0 >> F_BSRC_SHIFT) & 3u;
    var b = select(bm, imm, bs == BSRC_IMM);
    if bs == BSRC_RC { b = c; }
    let amt = select((c0 >> F_SHAMT_SHIFT) & 63u, vlo(bm) & select(63u, 31u, w), (c0 & F_SHVAR) != 0u);
    b = shift(extend(b, (c0 >> F_EXT_SHIFT) & 7u), (c0 >> F_SHT_SHIFT) & 3u, amt);
    let bsrc_val = b;
    if (c0 & F_INVB) != 0u { b = vnot(b); }

    // The adder (ALU add/sub, CSEL's alternative, CCMP, address generation). In W form both
    // operands move to the high word so carry and overflow come out of bit 63.
    let cinm = (c0 >> F_CIN_SHIFT) & 3u;
    let cin = select(select(0u, 1u, cinm == CIN_ONE), (g_nzcv >> 1u) & 1u, cinm == CIN_CARRY);
    let aa = select(a, vz(), unit == U_CSEL);
    let wa = w && unit != U_MEM;
    let a2 = select(aa, vshl(aa, 32u), wa);
    let b2 = select(b, vshl(b, 32u), wa);
    let c2 = select(vw(cin, 0u), vw(0u, cin), wa);
    let s1 = vadd(a2, b2);
    let s2 = vadd(s1, c2);
    let carry = vult(s1, a2) || vult(s2, s1);
    let ovf = top_bit(vand(vxor(a2, s2), vxor(b2, s2)));
    let add_flags = (top_bit(s2) << 3u) | select(0u, 4u, veq(s2, vz())) | select(0u, 2u, carry) | ovf;
    let sum = select(s2, vshr(s2, 32u), wa);

    var res = sum;
    var flags = add_flags;
    var next = vadd(pc, vw(4u, 0u));
    var wi2 = R_SINK;   // second register write (memory writeback / store status)
    var r2 = vz();
    var ustep_next = 0u;

    switch unit {
        case 1u: { // U_ALU
            if opn != OP_ADD {
                var l = vand(a, b);
                if opn == OP_ORR { l = vor(a, b); }
                if opn == OP_EOR { l = vxor(a, b); }
                res = l;
                flags = nz_flags(l, w);
            }
        }
        case 2u: { // U_CSEL: Rn if the condition holds, else Rm (+1, inverted, negated)
            if holds { res = a; }
        }
        case 3u: { // U_CCMP
            flags = select(aux & 15u, add_flags, holds);
        }
        case 4u: { // U_BFM
            let lsb = aux & 63u;
            let pos = (aux >> BF_POS_SHIFT) & 63u;
            let width = (aux >> BF_WIDTH_SHIFT) & 127u;
            let mode = (aux >> BF_MODE_SHIFT) & 3u;
            let ones = vones(width);
            var v = vshl(vand(vshr(bsrc_val, lsb), ones), pos);
            if mode == BF_INSERT { v = vor(vand(c, vnot(vshl(ones, pos))), v); }
            let topb = pos + width;
            if mode == BF_SIGN && topb < 64u && vlo(vand(vshr(v, topb - 1u), vw(1u, 0u))) == 1u {
                v = vor(v, vnot(vones(topb)));
            }
            if mode == BF_EXTR {
                if w {
                    v = vshr(vor(vshl(a, 32u), vand(bm, vw(0xffffffffu, 0u))), lsb);
                } else {
                    v = select(vor(vshr(bm, lsb), vshl(a, 64u - lsb)), bm, lsb == 0u);
                }
            }
            res = v;
        }
        case 5u: { // U_MUL
            var x = a;
            var y = bm;
            if opn == OP_SMADDL { x = extend(a, EXT_SXTW); y = extend(bm, EXT_SXTW); }
            if opn == OP_UMADDL { x = extend(a, EXT_UXTW); y = extend(bm, EXT_UXTW); }
            let p = vmul(x, y);
            res = select(vadd(c, p), vsub(c, p), (c0 & F_INVB) != 0u);
            if opn >= OP_SMULH {
                var h = vmulhu(a, bm);
                if opn == OP_SMULH {
                    h = vsub(h, vand(b_sign_mask(a), bm));
                    h = vsub(h, vand(b_sign_mask(bm), a));
                }
                res = h;
            }
        }
        case 6u: { // U_DIV: x/0 = 0, INT_MIN/-1 = INT_MIN by wrapping
            let sgn = opn == OP_SDIV;
            var x = a;
            var y = bm;
            if w {
                x = extend(a, select(EXT_UXTW, EXT_SXTW, sgn));
                y = extend(bm, select(EXT_UXTW, EXT_SXTW, sgn));
            }
            let nx = sgn && top_bit(x) == 1u;
            let ny = sgn && top_bit(y) == 1u;
            let ux = select(x, vneg(x), nx);
            let uy = select(y, vneg(y), ny);
            var q = vdivu(ux, uy);
            if nx != ny { q = vneg(q); }
            res = select(q, vz(), veq(y, vz()));
        }
        case 7u: { // U_ONE
            let lo = vlo(a);
            let hi = vhi(a);
            var v = vw(reverseBits(hi), reverseBits(lo));
            if w { v = vw(reverseBits(lo), 0u); }
            if opn == OP_REV16 {
                v = vw(((lo >> 8u) & 0x00ff00ffu) | ((lo << 8u) & 0xff00ff00u),
                       ((hi >> 8u) & 0x00ff00ffu) | ((hi << 8u) & 0xff00ff00u));
            }
            if opn == OP_REV32 { v = vw(bswap(lo), bswap(hi)); }
            if opn == OP_REV64 { v = vw(bswap(hi), bswap(lo)); }
            if opn >= OP_CLZ {
                // W form: the low word moves to the top so the count runs over 32 bits.
                // CLS counts leading copies of the sign bit: CLZ of x ^ (x >> 1), minus one.
                let t0 = select(a, vshl(a, 32u), w);
                let t = select(t0, vxor(t0, vsar(t0, 1u)), opn == OP_CLS);
                var z = select(countLeadingZeros(vhi(t)), 32u + countLeadingZeros(vlo(t)), vhi(t) == 0u);
                if w { z = min(z, 32u); }
                if opn == OP_CLS { z = z - 1u; }
                v = vw(z, 0u);
            }
            res = v;
        }
        case 8u: { // U_MEM
            let size = aux & 3u;
            let nb = 1u << size;
            let idx = (aux >> M_IDX_SHIFT) & 3u;
            var addr = select(sum, a, idx == M_IDX_POST);
            var wb = sum;
            if second {
                addr = vw(sreg(S_TMP_ADDR) + nb, 0u);
                wb = sreg64(S_TMP_WB);
            }
            if (aux & M_PRFM) != 0u {
                res = c;
            } else if !mem_ok(addr, nb) {
                fault(ST_MEMFAULT, addr, select(FAULT_READ, FAULT_WRITE, (aux & M_STORE) != 0u));
                return;
            } else {
                let al = vlo(addr);
                let excl = (aux & M_EXCL) != 0u;
                if (aux & M_STORE) != 0u {
                    var ok = true;
                    if excl {
                        ok = sreg(S_EXCL_VALID) == 1u && sreg(S_EXCL_ADDR) == al;
                        sset(S_EXCL_VALID, 0u);
                        r2 = vw(select(1u, 0u, ok), 0u);
                    }
                    if ok {
                        store(al, c, nb);
                        if is_code(al) || is_code(al + nb - 1u) { fault(ST_CODEMOD, addr, FAULT_WRITE); }
                    }
                    res = c;
                } else {
                    var v = vand(load8(al), vones(nb * 8u));
                    let sb = 64u - nb * 8u;
                    if (aux & M_SX64) != 0u { v = vsar(vshl(v, sb), sb); }
                    if (aux & M_SX32) != 0u { v = vw(vlo(vsar(vshl(v, sb), sb)), 0u); }
                    if excl { sset(S_EXCL_VALID, 1u); sset(S_EXCL_ADDR, al); }
                    res = v;
                }
                if !excl && idx != 0u { r2 = wb; }
                if pair && !second {
                    sset(S_TMP_ADDR, al);
                    sset64(S_TMP_WB, wb);
                    ustep_next = 1u;
                    next = pc;
                    r2 = vz();
                }
            }
            wi2 = select(rd, R_SINK, pair && !second);
        }
        case 9u: { // U_BR
            let dest = vw(aux, 0u);
            var taken = opn <= OP_BL || (opn == OP_BCOND && holds);
            let tested = veq(vand(a, imm), vz());
            if opn == OP_BZERO { taken = tested; }
            if opn == OP_BNONZERO { taken = !tested; }
            res = next;
            if taken { next = dest; }
            if opn >= OP_BREG { next = a; }
        }
        case 10u: { // U_SYS
            if opn == OP_SVC {
                res = syscall();
                if g_status == ST_WRITE { next = pc; }
            }
            if opn == OP_MRS {
                var v = vz();
                switch aux {
                    case 0u: { v = vw(g_nzcv << 28u, 0u); }
                    case 1u: { v = sreg64(S_TPIDR); }
                    case 2u: { v = vw(sreg(S_FPCR), 0u); }
                    case 3u: { v = vw(sreg(S_FPSR), 0u); }
                    case 4u: { v = vadd(sreg64(S_COUNT), vw(g_executed, 0u)); }
                    case 5u: { v = vw(CNTFRQ_EL0_VALUE, 0u); }
                    case 6u: { v = vw(CTR_EL0_VALUE, 0u); }
                    case 7u: { v = vw(DCZID_EL0_VALUE, 0u); }
                    default: {}
                }
                res = v;
            }
            if opn == OP_MSR {
                switch aux {
                    case 0u: { g_nzcv = (vlo(bm) >> 28u) & 15u; }
                    case 1u: { sset64(S_TPIDR, bm); }
                    case 2u: { sset(S_FPCR, vlo(bm)); }
                    case 3u: { sset(S_FPSR, vlo(bm)); }
                    default: {}
                }
            }
            if opn == OP_BRK {
                fault(ST_BRK, pc, FAULT_EXEC);
                return;
            }
            if opn == OP_CLREX { sset(S_EXCL_VALID, 0u); }
            if opn == OP_DCZVA {
                // Rare, and sixteen stores would cost every step on lavapipe: the host zeroes it.
                fault(ST_DCZVA, vand(a, vnot(vw(63u, 0u))), FAULT_WRITE);
            }
        }
        default: { // U_TRAP: unallocated, HLT, UDF
            fault(ST_ILLEGAL, pc, FAULT_EXEC);
            sset(S_FAULT_KIND, d1.w);
            return;
        }
    }
    if unit == U_DIV && !vdiv_ok() {
        // The loop limiter cut the divider short: leave the instruction for the next dispatch.
        g_status = ST_LIMIT_RETRY;
        return;
    }

    if w && unit != U_MEM && unit != U_BR && unit != U_SYS { res = vw(vlo(res), 0u); }
    let wi1 = select(rd, rt, unit == U_MEM && (aux & M_STORE) == 0u);
    if setflags { g_nzcv = flags; }
    R[wi1] = res;
    R[wi2] = r2;
    R[R_ZR] = vz();
    g_ustep = ustep_next;
    g_pc = next;
    g_executed = g_executed + 1u;
}

// All ones if v is negative.
fn b_sign_mask(v: V) -> V { return vsar(v, 63u); }

fn bswap(x: u32) -> u32 {
    return (x >> 24u) | ((x >> 8u) & 0xff00u) | ((x << 8u) & 0xff0000u) | (x << 24u);
}

var<private> g_executed: u32;

// Syscalls the shader answers itself: exit, exit_group, brk, and write to fds 1 and 2 while the
// output ring has room (ST_WRITE: the copy happens at the start of the next dispatch). Anything
// else stops the guest for the host (ST_SYSCALL) with pc past the SVC.
fn syscall() -> V {
    let nr = vlo(R[8]);
    let x0 = R[0];
    if nr == 93u || nr == 94u {
        sset(S_EXIT_CODE, vlo(x0) & 255u);
        g_status = ST_EXITED;
        return x0;
    }
    if nr == 214u {
        let want = vlo(x0);
        if vhi(x0) == 0u && want >= sreg(S_BRK_MIN) && want <= sreg(S_BRK_MAX) {
            sset(S_BRK, want);
        }
        return vw(sreg(S_BRK), 0u);
    }
    if nr == 64u && vhi(x0) == 0u && (vlo(x0) == 1u || vlo(x0) == 2u) {
        let len = R[2];
        let room = (P.out_words - sreg(S_OUT_LEN)) * 4u;
        if vhi(len) == 0u && vlo(len) + 4u <= room && mem_ok(R[1], vlo(len)) {
            if vlo(len) == 0u { return vz(); }
            g_status = ST_WRITE;
            return x0;
        }
    }
    g_status = ST_SYSCALL;
    return x0;
}

// Copies a pending write (fd x0, buffer x1, length x2) into this instance's output ring as one
// record: a header word (fd << 28 | length) and the bytes. Commits only if the copy finished.
fn finish_write() {
    let fd = vlo(R[0]);
    let src = vlo(R[1]);
    let len = vlo(R[2]);
    let pos = sreg(S_OUT_LEN);
    let ob = g_inst * P.out_words;
    let n = (len + 3u) / 4u;
    var k = 0u;
    loop {
        if k >= n { break; }
        let v = load8(src + k * 4u);
        outbuf[ob + pos + 1u + k] = vlo(v);
        k = k + 1u;
    }
    if k != n { return; }
    outbuf[ob + pos] = (fd << 28u) | len;
    sset(S_OUT_LEN, pos + 1u + n);
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
    for (var r = 0u; r < 32u; r = r + 1u) { R[r] = sreg64(r * 2u); }
    R[32] = vz();
    R[33] = vz();
    g_pc = sreg64(S_PC);
    g_nzcv = sreg(S_NZCV);
    g_ustep = sreg(S_USTEP);
    g_executed = 0u;
    if g_status == ST_WRITE { finish_write(); }

    let count = sreg64(S_COUNT);
    let limit = sreg64(S_LIMIT);
    var budget = P.iters;
    if vult(vsub(limit, count), vw(budget, 0u)) { budget = vlo(vsub(limit, count)); }
    for (var i = 0u; i < budget; i = i + 1u) {
        if g_status != ST_RUNNING { break; }
        step();
    }
    let total = vadd(count, vw(g_executed, 0u));
    if g_status == ST_RUNNING && !vult(total, limit) { g_status = ST_LIMIT; }

    for (var r = 0u; r < 32u; r = r + 1u) { sset64(r * 2u, R[r]); }
    sset64(S_PC, g_pc);
    sset(S_NZCV, g_nzcv);
    sset(S_USTEP, g_ustep);
    sset(S_STATUS, g_status);
    sset64(S_COUNT, total);
}
