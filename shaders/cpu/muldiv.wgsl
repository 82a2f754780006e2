// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

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

    // Divider and the scan half of the one-source unit (RBIT, CLZ, CLS), each in a loop whose
    // trip count is zero unless this lane needs it: lavapipe then runs the body once under an
    // empty mask, so it costs every step that much. The divider runs one bit per trip: a native
    // 64-bit `/` in one trip, scalarised by LLVM, made every step pay eight divisions (sha256
    // at one instance 7-12% slower, A/B alternated); the scan is one trip of reverseBits and
    // countLeadingZeros (no slower than its old bit-per-trip body, and 63 fewer back-edges).
    // lavapipe's loop limiter may cut a loop short; the trip count is checked so a truncated
    // result is never committed.
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
    // The scan covers the top 32 bits of tb in W form, all 64 otherwise: rb is their reverse
    // (bit k from bit 63 - k), lz the zeros above their first one.
    let nscan = select(0u, 1u, unit == U_ONE && (opn == OP_RBIT || opn >= OP_CLZ));
    var rb = vz();
    var lz = 0u;
    var k = 0u;
    loop {
        if k >= nscan { break; }
        let th = vhi(tb);
        let tl = vlo(tb);
        rb = vw(reverseBits(th), select(reverseBits(tl), 0u, w));
        lz = select(countLeadingZeros(th), 32u + countLeadingZeros(tl), th == 0u && !w);
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

