// Part of the CPU shader, assembled by src/gpu/shader.rs (see shaders/cpu/README.md); only in
// the FP variant. Scalar IEEE-754 binary32/binary64 in integer arithmetic (WGSL's f32 is not
// exact and it has no f64): unpack, exact operation with guard bits jammed into the LSB, one
// rounding under FPCR (RMode, FZ, DN), FPSR flags as Arm's FPRound raises them.

// FPSR bits this step raised: IOC 1, DZC 2, OFC 4, UFC 8, IXC 16, IDC 128.
var<private> g_fpx: u32;

// An unpacked operand: class 0 zero, 1 finite non-zero, 2 infinity, 3 quiet NaN, 4 signalling
// NaN; a finite value is m / 2^62 * 2^e with m's top bit at bit 62.
struct FU {
    s: u32,
    cls: u32,
    e: i32,
    m: V,
}

// An operation's result: final bits, or a value still to round (the unit rounds once, so one
// copy of fp_round serves every operation: lavapipe pays for each copy on every step).
struct PR {
    done: bool,
    bits: V,
    s: u32,
    e: i32,
    m: V,
}

fn pr_bits(x: V) -> PR { return PR(true, x, 0u, 0, vz()); }
fn pr_round(s: u32, e: i32, m: V, dbl: bool) -> PR { return PR(false, vz(), s, e, m); }

fn vclz(x: V) -> u32 {
    return select(countLeadingZeros(vhi(x)), 32u + countLeadingZeros(vlo(x)), vhi(x) == 0u);
}

fn fz_on() -> bool { return (g_fpcr & 0x1000000u) != 0u; }

fn fp_unpack(x: V, dbl: bool) -> FU {
    var u: FU;
    u.cls = 1u;
    if dbl {
        let hi = vhi(x);
        u.s = hi >> 31u;
        let be = (hi >> 20u) & 0x7ffu;
        let f = vand(x, vw(~0u, 0xfffffu));
        let fnz = !veq(f, vz());
        u.e = i32(be) - 1023;
        u.m = vshl(vor(f, vw(0u, 0x100000u)), 10u);
        if be == 0x7ffu { u.cls = select(2u, select(4u, 3u, (hi & 0x80000u) != 0u), fnz); }
        if be == 0u {
            if !fnz || fz_on() {
                u.cls = 0u;
                if fnz { g_fpx = g_fpx | 128u; }
            } else {
                let lz = vclz(f);
                u.m = vshl(f, lz - 1u);
                u.e = -1011 - i32(lz);
            }
        }
    } else {
        let w = vlo(x);
        u.s = w >> 31u;
        let be = (w >> 23u) & 0xffu;
        let f = w & 0x7fffffu;
        u.e = i32(be) - 127;
        u.m = vw(0u, (f | 0x800000u) << 7u);
        if be == 0xffu { u.cls = select(2u, select(4u, 3u, (w & 0x400000u) != 0u), f != 0u); }
        if be == 0u {
            if f == 0u || fz_on() {
                u.cls = 0u;
                if f != 0u { g_fpx = g_fpx | 128u; }
            } else {
                let lz = countLeadingZeros(f);
                u.m = vshl(vw(f, 0u), 31u + lz);
                u.e = -118 - i32(lz);
            }
        }
    }
    return u;
}

fn fp_sign(s: u32, dbl: bool) -> V {
    return select(vz(), select(vw(0x80000000u, 0u), vw(0u, 0x80000000u), dbl), s == 1u);
}

fn fp_inf(s: u32, dbl: bool) -> V {
    return vor(fp_sign(s, dbl), select(vw(0x7f800000u, 0u), vw(0u, 0x7ff00000u), dbl));
}

fn fp_default_nan(dbl: bool) -> V {
    return select(vw(0x7fc00000u, 0u), vw(0u, 0x7ff80000u), dbl);
}

fn fp_quiet(x: V, dbl: bool) -> V {
    let r = vor(x, select(vw(0x400000u, 0u), vw(0u, 0x80000u), dbl));
    return select(r, fp_default_nan(dbl), (g_fpcr & 0x2000000u) != 0u);
}

// The NaN result of a two-operand operation: a signalling operand first, then a quiet one.
fn fp_nan2(a: V, ua: FU, b: V, ub: FU, dbl: bool) -> V {
    var r = select(b, a, ua.cls >= 3u);
    if ub.cls == 4u { r = b; }
    if ua.cls == 4u { r = a; }
    if ua.cls == 4u || ub.cls == 4u { g_fpx = g_fpx | 1u; }
    return fp_quiet(r, dbl);
}

fn fp_invalid(dbl: bool) -> V {
    g_fpx = g_fpx | 1u;
    return fp_default_nan(dbl);
}

// Rounds m / 2^62 * 2^e (m's top bit at 62; bits below the format's precision are guard bits,
// anything lost before jammed into bit 0) to the format (binary16 when `half`: only FCVT, which
// ignores FZ for it; FPCR.AHP's alternative format has no infinity, so it overflows to the
// largest value with Invalid Operation), under FPCR.RMode and FZ.
fn fp_round(s: u32, e_in: i32, m: V, dbl: bool, half: bool) -> V {
    let p = select(select(24u, 53u, dbl), 11u, half);
    let emin = select(select(-126, -1022, dbl), -14, half);
    let maxf = select(select(0xffu, 0x7ffu, dbl), 0x1fu, half);
    let ahp = half && (g_fpcr & 0x4000000u) != 0u;
    let rmode = (g_fpcr >> 22u) & 3u;
    let sgn = select(fp_sign(s, dbl), vw(s << 15u, 0u), half);
    if veq(m, vz()) { return sgn; }
    if e_in < emin && fz_on() && !half {
        g_fpx = g_fpx | 8u;
        return sgn;
    }
    var sh = 63u - p;
    var be = e_in - emin + 1;
    if be < 1 {
        sh = sh + u32(min(1 - be, 64));
        be = 0;
    }
    be = min(be, i32(maxf) + 1);
    var q = vz();
    var rem_nz = true;
    var above = false;
    var half_way = false;
    if sh < 64u {
        q = vshr(m, sh);
        let rem = vand(m, vones(sh));
        let h = vshl(vw(1u, 0u), sh - 1u);
        rem_nz = !veq(rem, vz());
        above = vult(h, rem);
        half_way = veq(rem, h);
    }
    var up = above || (half_way && (vlo(q) & 1u) == 1u);
    if rmode == 1u { up = rem_nz && s == 0u; }
    if rmode == 2u { up = rem_nz && s == 1u; }
    if rmode == 3u { up = false; }
    q = vadd(q, vw(select(0u, 1u, up), 0u));
    if rem_nz {
        g_fpx = g_fpx | 16u;
        if be == 0 { g_fpx = g_fpx | 8u; }
    }
    var bits = vadd(vshl(vw(u32(max(be, 1) - 1), 0u), p - 1u), q);
    if vlo(vshr(bits, p - 1u)) >= select(maxf, maxf + 1u, ahp) {
        g_fpx = g_fpx | 20u;
        let to_inf = rmode == 0u || (rmode == 1u && s == 0u) || (rmode == 2u && s == 1u);
        let inf = vshl(vw(maxf, 0u), p - 1u);
        bits = select(vsub(inf, vw(1u, 0u)), inf, to_inf);
        if ahp {
            g_fpx = (g_fpx & ~28u) | 1u;
            bits = vw(0x7fffu, 0u);
        }
    }
    return vor(bits, sgn);
}

fn fp_add(a: V, b: V, dbl: bool, sub: bool) -> PR {
    var x = fp_unpack(a, dbl);
    var y = fp_unpack(b, dbl);
    if x.cls >= 3u || y.cls >= 3u { return pr_bits(fp_nan2(a, x, b, y, dbl)); }
    if sub { y.s = y.s ^ 1u; }
    let rm_down = ((g_fpcr >> 22u) & 3u) == 2u;
    if x.cls == 2u && y.cls == 2u && x.s != y.s { return pr_bits(fp_invalid(dbl)); }
    if x.cls == 2u { return pr_bits(fp_inf(x.s, dbl)); }
    if y.cls == 2u { return pr_bits(fp_inf(y.s, dbl)); }
    if x.cls == 0u && y.cls == 0u {
        return pr_bits(fp_sign(select(select(0u, 1u, rm_down), x.s, x.s == y.s), dbl));
    }
    if x.cls == 0u { x.e = y.e; x.m = vz(); }
    if y.cls == 0u { y.e = x.e; y.m = vz(); }
    if y.e > x.e || (y.e == x.e && vult(x.m, y.m)) {
        let t = x;
        x = y;
        y = t;
    }
    let d = u32(min(x.e - y.e, 64));
    var ym = y.m;
    if d >= 64u {
        ym = vw(select(0u, 1u, !veq(ym, vz())), 0u);
    } else if d > 0u {
        let lost = !veq(vand(ym, vones(d)), vz());
        ym = vor(vshr(ym, d), vw(select(0u, 1u, lost), 0u));
    }
    var e = x.e;
    var m = vz();
    if x.s == y.s {
        m = vadd(x.m, ym);
        if top_bit(m) == 1u {
            m = vor(vshr(m, 1u), vand(m, vw(1u, 0u)));
            e = e + 1;
        }
    } else {
        m = vsub(x.m, ym);
        if veq(m, vz()) { return pr_bits(fp_sign(select(0u, 1u, rm_down), dbl)); }
        let lz = vclz(m);
        m = vshl(m, lz - 1u);
        e = e - i32(lz) + 1;
    }
    return pr_round(x.s, e, m, dbl);
}

fn fp_mul(a: V, b: V, dbl: bool) -> PR {
    let x = fp_unpack(a, dbl);
    let y = fp_unpack(b, dbl);
    if x.cls >= 3u || y.cls >= 3u { return pr_bits(fp_nan2(a, x, b, y, dbl)); }
    let s = x.s ^ y.s;
    if (x.cls == 2u && y.cls == 0u) || (x.cls == 0u && y.cls == 2u) { return pr_bits(fp_invalid(dbl)); }
    if x.cls == 2u || y.cls == 2u { return pr_bits(fp_inf(s, dbl)); }
    if x.cls == 0u || y.cls == 0u { return pr_bits(fp_sign(s, dbl)); }
    let m1 = vshr(x.m, 10u);
    let m2 = vshr(y.m, 10u);
    let lo = vmul(m1, m2);
    let hi = vmulhu(m1, m2);
    // The product's top bit is bit 104 or 105: bring it to bit 62.
    let big = ((vhi(hi) >> 9u) & 1u) == 1u;
    let sh = select(42u, 43u, big);
    var m = vor(vshl(hi, 64u - sh), vshr(lo, sh));
    let lost = !veq(vand(lo, vones(sh)), vz());
    m = vor(m, vw(select(0u, 1u, lost), 0u));
    return pr_round(s, x.e + y.e + select(0, 1, big), m, dbl);
}

// A 32- or 64-bit integer (signed or not) to binary32/64.
fn fp_from_int(v: V, signed: bool, i64: bool, dbl: bool, fbits: u32) -> PR {
    var x = v;
    if !i64 { x = select(vw(vlo(v), 0u), sext32(vlo(v)), signed); }
    var s = 0u;
    if signed && top_bit(x) == 1u {
        s = 1u;
        x = vneg(x);
    }
    if veq(x, vz()) { return pr_bits(vz()); }
    let lz = vclz(x);
    var m = vshl(x, max(lz, 1u) - 1u);
    if lz == 0u { m = vor(vshr(x, 1u), vand(x, vw(1u, 0u))); }
    return pr_round(s, 63 - i32(lz) - i32(fbits), m, dbl);
}

// binary32/64 to a 32- or 64-bit integer, rounding by rm (0 nearest-even, 1 +inf, 2 -inf,
// 3 zero, 4 nearest-away), saturating with IOC as Arm's FPToFixed.
fn fp_to_int(v: V, dbl: bool, rm: u32, signed: bool, i64: bool, fbits: u32) -> V {
    var u = fp_unpack(v, dbl);
    u.e = u.e + i32(fbits);
    let maxu = select(vw(~0u, 0u), vw(~0u, ~0u), i64);
    let maxs = select(vw(0x7fffffffu, 0u), vw(~0u, 0x7fffffffu), i64);
    let mins = select(vw(0x80000000u, ~0u), vw(0u, 0x80000000u), i64);
    let sat = select(select(maxu, vz(), u.s == 1u), select(maxs, mins, u.s == 1u), signed);
    if u.cls >= 3u {
        g_fpx = g_fpx | 1u;
        return vz();
    }
    if u.cls == 2u || u.e > 63 {
        g_fpx = g_fpx | 1u;
        return sat;
    }
    if u.cls == 0u { return vz(); }
    var ip = vz();
    var rem_nz = true;
    var above = false;
    var half = false;
    if u.e == 63 {
        ip = vshl(u.m, 1u);
        rem_nz = false;
    } else if u.e >= -1 {
        let sh = u32(62 - u.e);
        ip = vshr(u.m, sh);
        let rem = vand(u.m, vones(sh));
        let h = vshl(vw(1u, 0u), sh - 1u);
        rem_nz = !veq(rem, vz());
        above = vult(h, rem);
        half = veq(rem, h);
    }
    var up = above || (half && (vlo(ip) & 1u) == 1u);
    if rm == 1u { up = rem_nz && u.s == 0u; }
    if rm == 2u { up = rem_nz && u.s == 1u; }
    if rm == 3u { up = false; }
    if rm == 4u { up = above || half; }
    let ip2 = vadd(ip, vw(select(0u, 1u, up), 0u));
    let wrapped = up && veq(ip2, vz());
    var over = wrapped;
    var r = ip2;
    if signed {
        // The magnitude may reach 2^63 (2^31) only when negative.
        let lim = vadd(maxs, vw(select(0u, 1u, u.s == 1u), 0u));
        over = over || vult(lim, ip2);
        r = select(ip2, vneg(ip2), u.s == 1u);
    } else {
        over = over || vult(maxu, ip2) || (u.s == 1u && !veq(ip2, vz()));
    }
    if over {
        g_fpx = g_fpx | 1u;
        return sat;
    }
    if rem_nz { g_fpx = g_fpx | 16u; }
    return r;
}

// binary32 <-> binary64.
fn fp_convert(v: V, from_dbl: bool) -> PR {
    let u = fp_unpack(v, from_dbl);
    let to = !from_dbl;
    if u.cls >= 3u {
        if u.cls == 4u { g_fpx = g_fpx | 1u; }
        var r = vz();
        if from_dbl {
            r = vw((vhi(v) & 0x80000000u) | 0x7fc00000u | ((vhi(v) & 0x7ffffu) << 3u) | (vlo(v) >> 29u), 0u);
        } else {
            let w = vlo(v);
            r = vw(w << 29u, (w & 0x80000000u) | 0x7ff80000u | ((w >> 3u) & 0x7ffffu));
        }
        return pr_bits(select(r, fp_default_nan(to), (g_fpcr & 0x2000000u) != 0u));
    }
    if u.cls == 2u { return pr_bits(fp_inf(u.s, to)); }
    if u.cls == 0u { return pr_bits(fp_sign(u.s, to)); }
    return pr_round(u.s, u.e, u.m, to);
}

// binary16 -> binary32/64, exact (FPCR.AHP: exponent 31 is finite, no infinity or NaN).
fn fp_from_half(h: u32, to_dbl: bool) -> PR {
    let s = (h >> 15u) & 1u;
    let be = (h >> 10u) & 31u;
    let f = h & 0x3ffu;
    if be == 31u && (g_fpcr & 0x4000000u) == 0u {
        if f == 0u { return pr_bits(fp_inf(s, to_dbl)); }
        if (f & 0x200u) == 0u { g_fpx = g_fpx | 1u; }
        let q = f | 0x200u;
        let r = select(vw((s << 31u) | 0x7f800000u | (q << 13u), 0u),
                       vw(0u, (s << 31u) | 0x7ff00000u | (q << 10u)), to_dbl);
        return pr_bits(select(r, fp_default_nan(to_dbl), (g_fpcr & 0x2000000u) != 0u));
    }
    if be == 0u && f == 0u { return pr_bits(fp_sign(s, to_dbl)); }
    // The significand's leading bit to bit 62 (subnormals normalised).
    var m = vshl(vw(f | select(0x400u, 0u, be == 0u), 0u), 52u);
    var e = i32(be) - 15;
    if be == 0u {
        let lz = countLeadingZeros(f) - 21u;
        m = vshl(m, lz);
        e = -14 - i32(lz);
    }
    return pr_round(s, e, m, to_dbl);
}

// binary32/64 -> binary16 (rounded by fp_round). Under FPCR.AHP a NaN becomes a zero and an
// infinity the largest value, both signed, both Invalid Operation.
fn fp_to_half(v: V, from_dbl: bool) -> PR {
    let u = fp_unpack(v, from_dbl);
    let ahp = (g_fpcr & 0x4000000u) != 0u;
    let sg = u.s << 15u;
    if u.cls >= 3u {
        g_fpx = g_fpx | select(0u, 1u, ahp || u.cls == 4u);
        let top = select((vlo(v) >> 13u) & 0x1ffu, (vhi(v) >> 10u) & 0x1ffu, from_dbl);
        let r = select(vw(sg | 0x7e00u | top, 0u), vw(0x7e00u, 0u), (g_fpcr & 0x2000000u) != 0u);
        return pr_bits(select(r, vw(sg, 0u), ahp));
    }
    if u.cls == 2u {
        g_fpx = g_fpx | select(0u, 1u, ahp);
        return pr_bits(vw(sg | select(0x7c00u, 0x7fffu, ahp), 0u));
    }
    if u.cls == 0u { return pr_bits(vw(sg, 0u)); }
    return pr_round(u.s, u.e, u.m, false);
}

// FCMP: NZCV of a against b; E signals on quiet NaNs too.
fn fp_compare(a: V, b: V, dbl: bool, e: bool) -> u32 {
    let x = fp_unpack(a, dbl);
    let y = fp_unpack(b, dbl);
    if x.cls >= 3u || y.cls >= 3u {
        if e || x.cls == 4u || y.cls == 4u { g_fpx = g_fpx | 1u; }
        return 3u;
    }
    let sm = select(vw(0x7fffffffu, 0u), vw(~0u, 0x7fffffffu), dbl);
    let ma = select(vand(a, sm), vz(), x.cls == 0u);
    let mb = select(vand(b, sm), vz(), y.cls == 0u);
    let za = veq(ma, vz());
    let zb = veq(mb, vz());
    let eq = veq(ma, mb) && (x.s == y.s || za);
    var lt = false;
    if x.s != y.s {
        lt = x.s == 1u && !(za && zb);
    } else {
        lt = select(vult(ma, mb), vult(mb, ma), x.s == 1u);
    }
    return select(select(2u, 8u, lt), 6u, eq);
}

// 128-bit helpers for the fused multiply-add: (h, l).
fn w_shr_jam(h: V, l: V, n: u32) -> array<V, 2> {
    if n == 0u { return array<V, 2>(h, l); }
    if n >= 128u {
        return array<V, 2>(vz(), vw(select(0u, 1u, !veq(vor(h, l), vz())), 0u));
    }
    if n >= 64u {
        let k = n - 64u;
        let lost = !veq(l, vz()) || !veq(vand(h, vones(k)), vz());
        return array<V, 2>(vz(), vor(vshr(h, k), vw(select(0u, 1u, lost), 0u)));
    }
    let lost = !veq(vand(l, vones(n)), vz());
    let nl = vor(vor(vshr(l, n), vshl(h, 64u - n)), vw(select(0u, 1u, lost), 0u));
    return array<V, 2>(vshr(h, n), nl);
}

// FMADD family: c + a * b with one rounding; `neg_a` and `neg_c` negate before the operation
// (so a NaN operand comes out with its sign flipped, as on Arm).
fn fp_fma(a0: V, b: V, c0: V, dbl: bool, neg_a: bool, neg_c: bool) -> PR {
    let sb = fp_sign(1u, dbl);
    let a = select(a0, vxor(a0, sb), neg_a);
    let c = select(c0, vxor(c0, sb), neg_c);
    let x = fp_unpack(a, dbl);
    let y = fp_unpack(b, dbl);
    let z = fp_unpack(c, dbl);
    let infzero = (x.cls == 2u && y.cls == 0u) || (x.cls == 0u && y.cls == 2u);
    if x.cls >= 3u || y.cls >= 3u || z.cls >= 3u {
        if infzero && z.cls == 3u { return pr_bits(fp_invalid(dbl)); }
        var r = b;
        if x.cls == 3u { r = a; }
        if z.cls == 3u { r = c; }
        if y.cls == 4u { r = b; }
        if x.cls == 4u { r = a; }
        if z.cls == 4u { r = c; }
        if x.cls == 4u || y.cls == 4u || z.cls == 4u { g_fpx = g_fpx | 1u; }
        return pr_bits(fp_quiet(r, dbl));
    }
    let sp = x.s ^ y.s;
    let infp = x.cls == 2u || y.cls == 2u;
    let zerop = x.cls == 0u || y.cls == 0u;
    if infzero || (z.cls == 2u && infp && z.s != sp) { return pr_bits(fp_invalid(dbl)); }
    if z.cls == 2u { return pr_bits(fp_inf(z.s, dbl)); }
    if infp { return pr_bits(fp_inf(sp, dbl)); }
    let rm_down = ((g_fpcr >> 22u) & 3u) == 2u;
    if z.cls == 0u && zerop {
        return pr_bits(fp_sign(select(select(0u, 1u, rm_down), z.s, z.s == sp), dbl));
    }
    // Product P = m1 * m2 << 2 (top bit 106 or 107), addend C = mc << 54 (top bit 106), both
    // in units of 2^(e - 106).
    var ph = vz();
    var pl = vz();
    var pe = 0;
    if !zerop {
        let m1 = vshr(x.m, 10u);
        let m2 = vshr(y.m, 10u);
        // Two bits of headroom below the product's last bit, for the jam of an aligned addend.
        let lo = vmul(m1, m2);
        pl = vshl(lo, 2u);
        ph = vor(vshl(vmulhu(m1, m2), 2u), vshr(lo, 62u));
        pe = x.e + y.e;
    }
    var ch = vz();
    var cl = vz();
    var ce = 0;
    if z.cls != 0u {
        let mc = vshr(z.m, 10u);
        ch = vshr(mc, 10u);
        cl = vshl(mc, 54u);
        ce = z.e;
    }
    if zerop { pe = ce; }
    if z.cls == 0u { ce = pe; }
    // Align to the larger unit exponent.
    var e = pe;
    if ce > pe {
        let t = w_shr_jam(ph, pl, u32(min(ce - pe, 200)));
        ph = t[0];
        pl = t[1];
        e = ce;
    } else if pe > ce {
        let t = w_shr_jam(ch, cl, u32(min(pe - ce, 200)));
        ch = t[0];
        cl = t[1];
    }
    var s = sp;
    var rh = vz();
    var rl = vz();
    if sp == z.s {
        rl = vadd(pl, cl);
        rh = vadd(vadd(ph, ch), vw(select(0u, 1u, vult(rl, pl)), 0u));
    } else {
        let p_lt = vult(ph, ch) || (veq(ph, ch) && vult(pl, cl));
        var gh = ph;
        var gl = pl;
        var kh = ch;
        var kl = cl;
        if p_lt {
            gh = ch;
            gl = cl;
            kh = ph;
            kl = pl;
            s = z.s;
        }
        rl = vsub(gl, kl);
        rh = vsub(vsub(gh, kh), vw(select(0u, 1u, vult(gl, kl)), 0u));
    }
    if veq(vor(rh, rl), vz()) { return pr_bits(fp_sign(select(0u, 1u, rm_down), dbl)); }
    // Top bit k of R; the value is 2^(k - 106 + e) * 1.f: bring it to bit 62 of one word.
    let lz = select(vclz(rh), 64u + vclz(rl), veq(rh, vz()));
    let k = 127u - lz;
    var m = vz();
    if k >= 62u {
        let t = w_shr_jam(rh, rl, k - 62u);
        m = t[1];
    } else {
        m = vshl(rl, 62u - k);
    }
    return pr_round(s, e + i32(k) - 106, m, dbl);
}

// FDIV and FSQRT run as multi-step instructions: eight quotient or root bits per step, the
// partial remainder and result in the scratch register VT (no loop: lavapipe would pay its
// ticks on every step), then a last step that rounds.

// Steps before the rounding step (src/isa/form.rs: fp::DIV_STEPS, translated code runs them too).
fn fp_div_steps() -> u32 { return FP_DIV_STEPS; }
fn fp_sqrt_steps() -> u32 { return FP_SQRT_STEPS; }

// One quotient bit j of ma / mb (weighing 2^-j): (rem, q).
fn fp_div_bit(j: u32, mb: V, st: array<V, 2>) -> array<V, 2> {
    let rem = select(st[0], vshl(st[0], 1u), j > 0u);
    let ge = !vult(rem, mb);
    return array<V, 2>(select(rem, vsub(rem, mb), ge),
                       select(st[1], vor(st[1], vshl(vw(1u, 0u), 63u - j)), ge));
}

// Eight bits of ma / mb (53-bit integers), unrolled.
fn fp_div_bits(s: u32, ma: V, mb: V, st0: array<V, 2>) -> array<V, 2> {
    var st = st0;
    if s == 0u { st = array<V, 2>(ma, vz()); }
    let j = s * 8u;
    st = fp_div_bit(j, mb, st);
    st = fp_div_bit(j + 1u, mb, st);
    st = fp_div_bit(j + 2u, mb, st);
    st = fp_div_bit(j + 3u, mb, st);
    st = fp_div_bit(j + 4u, mb, st);
    st = fp_div_bit(j + 5u, mb, st);
    st = fp_div_bit(j + 6u, mb, st);
    return fp_div_bit(j + 7u, mb, st);
}

// One root bit j of m << 58 (m a 53- or 54-bit integer; radicand bits 53-2j and 52-2j of m):
// (rem, root).
fn fp_sqrt_bit(j: u32, m: V, st: array<V, 2>) -> array<V, 2> {
    let two = select(0u, vlo(vshr(m, (52u - 2u * j) & 63u)) & 3u, 2u * j <= 52u);
    let rem = vor(vshl(st[0], 2u), vw(two, 0u));
    let trial = vor(vshl(st[1], 2u), vw(1u, 0u));
    let ge = !vult(rem, trial);
    return array<V, 2>(select(rem, vsub(rem, trial), ge),
                       vor(vshl(st[1], 1u), vw(select(0u, 1u, ge), 0u)));
}

// Eight root bits, unrolled.
fn fp_sqrt_bits(s: u32, m: V, st0: array<V, 2>) -> array<V, 2> {
    var st = st0;
    if s == 0u { st = array<V, 2>(vz(), vz()); }
    let j = s * 8u;
    st = fp_sqrt_bit(j, m, st);
    st = fp_sqrt_bit(j + 1u, m, st);
    st = fp_sqrt_bit(j + 2u, m, st);
    st = fp_sqrt_bit(j + 3u, m, st);
    st = fp_sqrt_bit(j + 4u, m, st);
    st = fp_sqrt_bit(j + 5u, m, st);
    st = fp_sqrt_bit(j + 6u, m, st);
    return fp_sqrt_bit(j + 7u, m, st);
}

// The operand of a rounding-to-integral (FRINT*) or an integer conversion: the integral part
// of a finite non-zero u, rounded by rm (0 nearest-even, 1 +inf, 2 -inf, 3 zero, 4 away), and
// whether anything was dropped. Only for u.e <= 62.
fn fp_round_int(u: FU, rm: u32) -> array<V, 2> {
    var ip = vz();
    var rem_nz = true;
    var above = false;
    var half = false;
    if u.e >= -1 {
        let sh = u32(62 - u.e);
        ip = vshr(u.m, sh);
        let rem = vand(u.m, vones(sh));
        let h = vshl(vw(1u, 0u), (sh + 63u) & 63u);
        rem_nz = !veq(rem, vz());
        above = sh > 0u && vult(h, rem);
        half = sh > 0u && veq(rem, h);
    }
    var up = above || (half && (vlo(ip) & 1u) == 1u);
    if rm == 1u { up = rem_nz && u.s == 0u; }
    if rm == 2u { up = rem_nz && u.s == 1u; }
    if rm == 3u { up = false; }
    if rm == 4u { up = above || half; }
    return array<V, 2>(vadd(ip, vw(select(0u, 1u, up), 0u)), vw(select(0u, 1u, rem_nz), 0u));
}

// FRINT*: x rounded to an integral value in its own format; `exact` (FRINTX) raises IXC.
fn fp_rint(x: V, dbl: bool, rm: u32, exact: bool) -> PR {
    let u = fp_unpack(x, dbl);
    if u.cls >= 3u {
        if u.cls == 4u { g_fpx = g_fpx | 1u; }
        return pr_bits(fp_quiet(x, dbl));
    }
    if u.cls == 2u { return pr_bits(fp_inf(u.s, dbl)); }
    if u.cls == 0u { return pr_bits(fp_sign(u.s, dbl)); }
    if u.e >= 52 { return pr_bits(x); }
    let r = fp_round_int(u, rm);
    if exact && vlo(r[1]) != 0u { g_fpx = g_fpx | 16u; }
    if veq(r[0], vz()) { return pr_bits(fp_sign(u.s, dbl)); }
    let lz = vclz(r[0]);
    return pr_round(u.s, 63 - i32(lz), vshl(r[0], lz - 1u), dbl);
}

// FMAX/FMIN (NaN operands propagate) and FMAXNM/FMINNM (a single quiet NaN loses).
fn fp_minmax(a0: V, b0: V, dbl: bool, is_max: bool, nm: bool) -> PR {
    let x0 = fp_unpack(a0, dbl);
    let y0 = fp_unpack(b0, dbl);
    var a = a0;
    var b = b0;
    if nm && x0.cls == 3u && y0.cls < 3u { a = b0; }
    if nm && y0.cls == 3u && x0.cls < 3u { b = a0; }
    let x = fp_unpack(a, dbl);
    let y = fp_unpack(b, dbl);
    if x.cls >= 3u || y.cls >= 3u { return pr_bits(fp_nan2(a, x, b, y, dbl)); }
    let c = fp_compare(a, b, dbl, false);
    // c: 6 equal, 8 less, 2 greater (flags already unpacked: IDC is raised once per operand).
    let take_a = select(c == 8u, c == 2u, is_max);
    if x.cls == 0u && y.cls == 0u {
        return pr_bits(fp_sign(select(x.s | y.s, x.s & y.s, is_max), dbl));
    }
    var u = y;
    if take_a || c == 6u { u = x; }
    if u.cls == 2u { return pr_bits(fp_inf(u.s, dbl)); }
    if u.cls == 0u { return pr_bits(fp_sign(u.s, dbl)); }
    return pr_round(u.s, u.e, u.m, dbl);
}

// The radicand's integer (53 or 54 bits) for an exponent made even.
fn fp_sqrt_m(u: FU) -> V {
    return select(vshr(u.m, 10u), vshr(u.m, 9u), (u.e & 1) != 0);
}

fn fp_div_final(a: V, x: FU, b: V, y: FU, st: array<V, 2>, dbl: bool) -> PR {
    if x.cls >= 3u || y.cls >= 3u { return pr_bits(fp_nan2(a, x, b, y, dbl)); }
    let s = x.s ^ y.s;
    if (x.cls == 2u && y.cls == 2u) || (x.cls == 0u && y.cls == 0u) { return pr_bits(fp_invalid(dbl)); }
    if x.cls == 2u { return pr_bits(fp_inf(s, dbl)); }
    if y.cls == 0u {
        g_fpx = g_fpx | 2u;
        return pr_bits(fp_inf(s, dbl));
    }
    if x.cls == 0u || y.cls == 2u { return pr_bits(fp_sign(s, dbl)); }
    let q = st[1];
    let big = top_bit(q) == 1u;
    var m = select(q, vor(vshr(q, 1u), vand(q, vw(1u, 0u))), big);
    m = vor(m, vw(select(0u, 1u, !veq(st[0], vz())), 0u));
    return pr_round(s, x.e - y.e - select(1, 0, big), m, dbl);
}

fn fp_sqrt_final(a: V, x: FU, st: array<V, 2>, dbl: bool) -> PR {
    if x.cls >= 3u {
        if x.cls == 4u { g_fpx = g_fpx | 1u; }
        return pr_bits(fp_quiet(a, dbl));
    }
    if x.cls == 0u { return pr_bits(fp_sign(x.s, dbl)); }
    if x.s == 1u { return pr_bits(fp_invalid(dbl)); }
    if x.cls == 2u { return pr_bits(fp_inf(0u, dbl)); }
    let ev = x.e - 52 - select(0, 1, (x.e & 1) != 0);
    let m = vor(vshl(st[1], 7u), vw(select(0u, 1u, !veq(st[0], vz())), 0u));
    return pr_round(0u, ev / 2 + 26, m, dbl);
}
