// Part of the CPU shader, assembled by src/gpu/shader.rs (see shaders/cpu/README.md); only in
// the variants with the VEC or VMEM unit. Their helpers (shaders/cpu/vec.wgsl, vmem.wgsl).

// The permute stage's source bytes: Vn (or Xn), then Vm (or Vn+1..Vn+3 for TBL).
var<private> VS: array<u32, 16>;
// Set by a saturating lane operation that saturated (FPSR.QC).
var<private> g_vsat: bool;

// The compares and min/max as one truth table over (x < y, x == y, sx < sy): bit c of the low
// byte says the predicate for combination c (ult | eq << 1 | slt << 2); bit 8 marks a compare,
// bit 9 a min/max (pick y when true). Uniform over the lanes, so computed once per step.
fn cmp_table(lop: u32) -> u32 {
    var t = 0u;
    if lop == VL_CMEQ { t = 0x1ccu; }
    if lop == VL_CMHS { t = 0x155u; }
    if lop == VL_CMHI { t = 0x111u; }
    if lop == VL_CMGE { t = 0x10fu; }
    if lop == VL_CMGT { t = 0x103u; }
    if lop == VL_CMLE { t = 0x1fcu; }
    if lop == VL_CMLT { t = 0x1f0u; }
    if lop == VL_UMAX { t = 0x2aau; }
    if lop == VL_UMIN { t = 0x211u; }
    if lop == VL_SMAX { t = 0x2f0u; }
    if lop == VL_SMIN { t = 0x203u; }
    return t;
}

// One lane operation on elements of `ew` bits (8, 16, 32), zero-extended in x and y; `tt` is
// cmp_table(lop).
fn elem_op(x: u32, y: u32, ew: u32, lop: u32, tt: u32) -> u32 {
    let s = 32u - ew;
    let sx = i32(x << s) >> s;
    let sy = i32(y << s) >> s;
    let code = select(0u, 1u, x < y) | select(0u, 2u, x == y) | select(0u, 4u, sx < sy);
    let bit = ((tt >> code) & 1u) != 0u;
    var r = x + y;
    if lop == VL_SUB { r = x - y; }
    if (tt & 0x100u) != 0u { r = select(0u, ~0u, bit); }
    if (tt & 0x200u) != 0u { r = select(x, y, bit); }
    if lop == VL_CMTST { r = select(0u, ~0u, (x & y) != 0u); }
    if lop == VL_SHL { r = select(x << (y & 31u), 0u, y >= ew); }
    if lop == VL_USHR { r = select(x >> (y & 31u), 0u, y >= ew); }
    if lop == VL_SSHR { r = u32(sx >> min(y, 31u)); }
    if lop == VL_MUL { r = x * y; }
    if lop == VL_CNT { r = countOneBits(x); }
    if lop == VL_NEG { r = 0u - x; }
    if lop == VL_ABS { r = u32(select(sx, -sx, sx < 0)); }
    if lop == VL_ADDLP {
        // The two halves of a wide element added, sign-extended when y (from B) is non-zero.
        let h = ew >> 1u;
        let hs = 32u - h;
        let lo = select(x & ((1u << h) - 1u), u32(i32(x << hs) >> hs), y != 0u);
        let hi = select(x >> h, u32(i32(x << (hs - h)) >> hs), y != 0u);
        r = lo + hi;
    }
    if lop == VL_URSHR { r = (x >> (y & 31u)) + ((x >> ((y - 1u) & 31u)) & 1u); }
    if lop >= VL_SQXT && lop <= VL_SQXTU {
        // To half the width; the clamp's bounds as signed values.
        let h = ew >> 1u;
        let umax = (1u << h) - 1u;
        var c = clamp(sx, -i32(umax >> 1u) - 1, i32(umax >> 1u));
        if lop == VL_SQXTU { c = clamp(sx, 0, i32(umax)); }
        r = u32(c);
        if lop == VL_UQXT { r = min(x, umax); }
        if r != select(x, u32(sx), lop != VL_UQXT) { g_vsat = true; }
    }
    if lop == VL_USHL || lop == VL_SSHL {
        let sh = i32(y << 24u) >> 24u;
        let rs = u32(-sh);
        r = select(0u, x << (u32(sh) & 31u), u32(sh) < ew);
        if sh < 0 {
            r = select(x >> (rs & 31u), 0u, rs >= ew);
            if lop == VL_SSHL { r = u32(sx >> min(rs, 31u)); }
        }
    }
    return r;
}

// Elements of 8, 16 or 32 bits within one word.
fn lane32(a: u32, b: u32, esz: u32, lop: u32, tt: u32) -> u32 {
    let ew = 8u << esz;
    let m = select((1u << ew) - 1u, 0xffffffffu, ew == 32u);
    var r = elem_op(a & m, b & m, ew, lop, tt) & m;
    if ew <= 16u { r = r | ((elem_op((a >> 16u) & m, (b >> 16u) & m, ew, lop, tt) & m) << 16u); }
    if ew == 8u {
        r = r | ((elem_op((a >> 8u) & m, (b >> 8u) & m, ew, lop, tt) & m) << 8u);
        r = r | ((elem_op(a >> 24u, b >> 24u, ew, lop, tt) & m) << 24u);
    }
    return r;
}

// One 64-bit element.
fn lane64(x: V, y: V, lop: u32) -> V {
    let flip = vw(0u, 0x80000000u);
    let sx = vxor(x, flip);
    let sy = vxor(y, flip);
    let n = vlo(y);
    let t = vw(~0u, ~0u);
    var r = vadd(x, y);
    if lop == VL_SUB { r = vsub(x, y); }
    if lop == VL_CMEQ { r = select(vz(), t, veq(x, y)); }
    if lop == VL_CMHI { r = select(vz(), t, vult(y, x)); }
    if lop == VL_CMHS { r = select(vz(), t, !vult(x, y)); }
    if lop == VL_CMGT { r = select(vz(), t, vult(sy, sx)); }
    if lop == VL_CMGE { r = select(vz(), t, !vult(sx, sy)); }
    if lop == VL_CMLE { r = select(vz(), t, !vult(sy, sx)); }
    if lop == VL_CMLT { r = select(vz(), t, vult(sx, sy)); }
    if lop == VL_CMTST { r = select(vz(), t, !veq(vand(x, y), vz())); }
    if lop == VL_SHL { r = select(vshl(x, n & 63u), vz(), n >= 64u); }
    if lop == VL_USHR { r = select(vshr(x, n & 63u), vz(), n >= 64u); }
    if lop == VL_SSHR { r = vsar(x, min(n, 63u)); }
    if lop == VL_NEG { r = vneg(x); }
    if lop == VL_ABS { r = select(x, vneg(x), top_bit(x) == 1u); }
    if lop == VL_MUL { r = vmul(x, y); }
    if lop == VL_ADDLP {
        let sg = !veq(y, vz());
        let lo = select(vw(vlo(x), 0u), sext32(vlo(x)), sg);
        let hi = select(vw(vhi(x), 0u), sext32(vhi(x)), sg);
        r = vadd(lo, hi);
    }
    if lop == VL_URSHR { r = vadd(vshr(x, n & 63u), vand(vshr(x, (n - 1u) & 63u), vw(1u, 0u))); }
    if lop >= VL_SQXT && lop <= VL_SQXTU {
        // To 32 bits: in range when the high word is the low word's sign (zero unsigned).
        let neg = top_bit(x) == 1u;
        let sfits = vhi(x) == select(0u, ~0u, (vlo(x) >> 31u) == 1u);
        var v = select(select(0x7fffffffu, 0x80000000u, neg), vlo(x), sfits);
        var fits = sfits;
        if lop == VL_UQXT {
            fits = vhi(x) == 0u;
            v = select(~0u, vlo(x), fits);
        }
        if lop == VL_SQXTU {
            fits = vhi(x) == 0u;
            v = select(select(~0u, 0u, neg), vlo(x), fits);
        }
        if !fits { g_vsat = true; }
        r = vw(v, 0u);
    }
    if lop == VL_USHL || lop == VL_SSHL {
        let sh = i32(vlo(y) << 24u) >> 24u;
        let rs = u32(-sh);
        r = select(vz(), vshl(x, u32(sh) & 63u), u32(sh) < 64u);
        if sh < 0 {
            r = select(vshr(x, rs & 63u), vz(), rs >= 64u);
            if lop == VL_SSHL { r = vsar(x, min(rs, 63u)); }
        }
    }
    return r;
}

// The lane stage: bitwise operations on the whole register, the rest per element.
fn lanes(a: vec4<u32>, b: vec4<u32>, d: vec4<u32>, esz: u32, lop: u32) -> vec4<u32> {
    var r = a & b;
    if lop == VL_BIC { r = a & ~b; }
    if lop == VL_ORR { r = a | b; }
    if lop == VL_ORN { r = a | ~b; }
    if lop == VL_EOR { r = a ^ b; }
    if lop == VL_BSL { r = (d & a) | (~d & b); }
    if lop == VL_BIT { r = (d & ~b) | (a & b); }
    if lop == VL_BIF { r = (d & b) | (a & ~b); }
    if lop == VL_NOT { r = ~a; }
    if lop == VL_MOVB { r = b; }
    let bitwise = (lop >= VL_AND && lop <= VL_BIF) || lop == VL_NOT || lop == VL_MOVB;
    if !bitwise {
        if esz == 3u {
            let lo = lane64(vw(a.x, a.y), vw(b.x, b.y), lop);
            let hi = lane64(vw(a.z, a.w), vw(b.z, b.w), lop);
            r = vec4<u32>(vlo(lo), vhi(lo), vlo(hi), vhi(hi));
        } else {
            let tt = cmp_table(lop);
            r = vec4<u32>(lane32(a.x, b.x, esz, lop, tt), lane32(a.y, b.y, esz, lop, tt),
                          lane32(a.z, b.z, esz, lop, tt), lane32(a.w, b.w, esz, lop, tt));
        }
    }
    return r;
}

// What a permute needs besides the output byte's position.
struct PCfg {
    kind: u32,
    pesz: u32,
    db: u32,     // bytes of the operation's vectors: 8 or 16
    part: u32,
    k1: u32,
    k2: u32,
    signed: bool,
}

// Source byte for output byte i: 0-63 a byte of VS; bit 7 set: the sign of byte (idx & 63);
// 64: no source (Vd's byte or zero).
fn pidx(i: u32, c: PCfg, tbl: u32) -> u32 {
    let es = 1u << c.pesz;
    let j = i >> c.pesz;
    let b = i & (es - 1u);
    let nel = c.db >> c.pesz;
    var idx = 64u;
    if c.kind == VP_ZIP { idx = ((j >> 1u) + c.part * (nel >> 1u)) * es + b + (j & 1u) * 16u; }
    if c.kind == VP_UZP || c.kind == VP_EXT {
        let k = select((2u * j + c.part) * es + b, i + c.k1, c.kind == VP_EXT);
        idx = select(k - c.db + 16u, k, k < c.db);
    }
    if c.kind == VP_TRN { idx = ((j & ~1u) + c.part) * es + b + (j & 1u) * 16u; }
    if c.kind == VP_REV { idx = i ^ ((1u << c.k1) - es); }
    if c.kind == VP_DUP { idx = c.k1 * es + b; }
    if c.kind == VP_INS { idx = select(64u, c.k2 * es + b, j == c.k1); }
    if c.kind == VP_TBL { idx = select(64u, tbl, tbl < 16u * (c.k2 + 1u)); }
    if c.kind == VP_NARROW || c.kind == VP_NARROWH {
        // Elements of es bytes from the low (NARROWH: high) halves of elements of 2*es: part 0
        // fills bytes 0-7.
        let hi = select(0u, es, c.kind == VP_NARROWH);
        idx = select(64u, ((i & 7u) >> c.pesz) * 2u * es + hi + b, (i >> 3u) == c.part);
    }
    if c.kind == VP_WIDEN {
        // Elements of es bytes from elements of es/2 in half `part` of the source.
        let h = es >> 1u;
        let base = c.part * 8u + j * h;
        idx = select(select(64u, (base + h - 1u) | 128u, c.signed), base + b, b < h);
    }
    return idx;
}

fn vbyte(v: vec4<u32>, i: u32) -> u32 {
    return (v[(i >> 2u) & 3u] >> ((i & 3u) * 8u)) & 255u;
}

fn pbyte(i: u32, c: PCfg, tv: vec4<u32>, d: vec4<u32>, keep: bool) -> u32 {
    let idx = pidx(i, c, vbyte(tv, i));
    let v = (VS[(idx >> 2u) & 15u] >> ((idx & 3u) * 8u)) & 255u;
    let sign = select(0u, 255u, (v & 128u) != 0u);
    let none = select(0u, vbyte(d, i), keep);
    return select(select(v, none, (idx & 64u) != 0u), sign, (idx & 128u) != 0u);
}

fn pword(w: u32, c: PCfg, tv: vec4<u32>, d: vec4<u32>, keep: bool) -> u32 {
    let i = w * 4u;
    return pbyte(i, c, tv, d, keep) | (pbyte(i + 1u, c, tv, d, keep) << 8u)
        | (pbyte(i + 2u, c, tv, d, keep) << 16u) | (pbyte(i + 3u, c, tv, d, keep) << 24u);
}

// Mask of the first c bytes of a word (c may exceed 4).
fn wmask(c: u32) -> u32 {
    return select(select((1u << ((c & 3u) * 8u)) - 1u, 0xffffffffu, c >= 4u), 0u, c == 0u);
}

fn bytemask(nb: u32) -> vec4<u32> {
    return vec4<u32>(wmask(nb), wmask(max(nb, 4u) - 4u), wmask(max(nb, 8u) - 8u), wmask(max(nb, 12u) - 12u));
}

// A 128-bit value shifted left (toward higher bytes) by n bytes.
fn shl_bytes(v: vec4<u32>, n: u32) -> vec4<u32> {
    var w = v;
    if (n & 4u) != 0u { w = vec4<u32>(0u, w.x, w.y, w.z); }
    if (n & 8u) != 0u { w = vec4<u32>(0u, 0u, w.x, w.y); }
    let sh = (n & 3u) * 8u;
    let carry = select(vec4<u32>(0u, w.x, w.y, w.z) >> vec4<u32>((32u - sh) & 31u), vec4<u32>(0u), sh == 0u);
    return (w << vec4<u32>(sh)) | carry;
}

// A 128-bit value shifted right by n bytes.
fn shr_bytes(v: vec4<u32>, n: u32) -> vec4<u32> {
    var w = v;
    if (n & 4u) != 0u { w = vec4<u32>(w.y, w.z, w.w, 0u); }
    if (n & 8u) != 0u { w = vec4<u32>(w.z, w.w, 0u, 0u); }
    let sh = (n & 3u) * 8u;
    let carry = select(vec4<u32>(w.y, w.z, w.w, 0u) << vec4<u32>((32u - sh) & 31u), vec4<u32>(0u), sh == 0u);
    return (w >> vec4<u32>(sh)) | carry;
}

// One byte of a structure load or store's gather from VS. Stores: byte b of memory chunk `chunk`
// (element E = g / es of the interleaved stream: register E % n, element E / n). Loads: byte b
// of register r (element j at stream position (j * n + r) * es, in chunk g / db).
fn vs_byte(b: u32, store: bool, chunk: u32, r: u32, n: u32, log: u32, db: u32) -> u32 {
    let es = 1u << log;
    var idx = 0u;
    if store {
        let g = chunk * db + b;
        let e = g >> log;
        idx = (e % n) * 16u + (e / n) * es + (g & (es - 1u));
    } else {
        let g = ((b >> log) * n + r) * es + (b & (es - 1u));
        idx = (g / db) * 16u + (g % db);
    }
    return (VS[(idx >> 2u) & 15u] >> ((idx & 3u) * 8u)) & 255u;
}

fn vs_word(w: u32, store: bool, chunk: u32, r: u32, n: u32, log: u32, db: u32) -> u32 {
    let b = w * 4u;
    return vs_byte(b, store, chunk, r, n, log, db) | (vs_byte(b + 1u, store, chunk, r, n, log, db) << 8u)
        | (vs_byte(b + 2u, store, chunk, r, n, log, db) << 16u) | (vs_byte(b + 3u, store, chunk, r, n, log, db) << 24u);
}

// The 16 bytes at a byte offset sh/8 into the five-word window from word i (translated by
// xlat; `wix` finds the words past the page's end).
fn load_window(i: u32, sh: u32) -> vec4<u32> {
    let m0 = mld(i);
    let m1 = mld(wix(i, 1u));
    let m2 = mld(wix(i, 2u));
    let m3 = mld(wix(i, 3u));
    let m4 = mld(wix(i, 4u));
    return vec4<u32>(funnel(m0, m1, sh), funnel(m1, m2, sh), funnel(m2, m3, sh), funnel(m3, m4, sh));
}

// Stores the bytes of dv that bmk selects at a byte offset sh/8 into the five-word window from
// word i, writing only the words it touches.
fn store_window(i: u32, sh: u32, dv: vec4<u32>, bmk: vec4<u32>) {
    let i1 = wix(i, 1u);
    let i2 = wix(i, 2u);
    let i3 = wix(i, 3u);
    let i4 = wix(i, 4u);
    let m0 = mld(i);
    let m1 = mld(i1);
    let m2 = mld(i2);
    let m3 = mld(i3);
    let m4 = mld(i4);
    let z = sh == 0u;
    let inv = (32u - sh) & 31u;
    let k0 = bmk.x << sh;
    let k1 = (bmk.y << sh) | select(bmk.x >> inv, 0u, z);
    let k2 = (bmk.z << sh) | select(bmk.y >> inv, 0u, z);
    let k3 = (bmk.w << sh) | select(bmk.z >> inv, 0u, z);
    let k4 = select(bmk.w >> inv, 0u, z);
    mst(i, (m0 & ~k0) | (dv.x << sh));
    if k1 != 0u { mst(i1, (m1 & ~k1) | (dv.y << sh) | select(dv.x >> inv, 0u, z)); }
    if k2 != 0u { mst(i2, (m2 & ~k2) | (dv.z << sh) | select(dv.y >> inv, 0u, z)); }
    if k3 != 0u { mst(i3, (m3 & ~k3) | (dv.w << sh) | select(dv.z >> inv, 0u, z)); }
    if k4 != 0u { mst(i4, (m4 & ~k4) | select(dv.w >> inv, 0u, z)); }
}
