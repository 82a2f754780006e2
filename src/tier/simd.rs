//! The translator's SIMD datapath: a VEC instruction's recipe unrolled at translation time into
//! straight WGSL, its permutes as byte moves and its lane operation written for its element
//! size. It is the interpreter's VEC unit (shaders/cpu/vec.wgsl, simd_fns.wgsl) with every
//! configuration field a constant: the interpreter's general stages, inlined, cost lavapipe
//! ~0.5 s of compile per instruction, these a few vector operations. Both run under the
//! differential fuzzer against qemu-aarch64, so a slip in either shows.

use crate::isa::form::vec;
use std::fmt::Write;

/// A VEC instruction's decoded fields.
pub struct Insn {
    pub opn: u32,
    pub c0: u32,
    pub rd: u32,
    pub rn: u32,
    pub rm: u32,
    /// The permute's two small indices (rc, rc2).
    pub k1: u32,
    pub k2: u32,
    /// The 64-bit immediate (w2, w3).
    pub imm: (u32, u32),
    /// Xn as a WGSL `V`, for the forms whose source is a general register.
    pub xn: String,
}

fn lop_of(c0: u32) -> u32 {
    (c0 >> vec::LOP_SHIFT) & 31 | if c0 & vec::LOP_HI != 0 { 32 } else { 0 }
}

/// Whether the translator takes a VEC instruction of recipe `opn` with configuration `c0`:
/// every recipe but a move to a general register (its own form). TBL/TBX is taken as the
/// plain permute it is decoded as (its byte moves depend on data: `tier_tbl`); a saturating
/// narrowing (SQXTN, UQXTN, SQXTUN) sets FPSR.QC as the interpreter does ([`saturates`]).
pub fn takes(opn: u32, c0: u32, k1: u32) -> bool {
    let kind = (c0 >> vec::PKIND_SHIFT) & 15;
    let uses_perm = opn != vec::R_LANE;
    opn <= vec::R_LONG
        && opn != vec::R_TOGPR
        && !(uses_perm && kind == vec::P_TBL && opn != vec::R_PERM)
        && steps(opn, c0, k1).is_some()
}

/// Whether a VEC instruction's lane operation saturates (and so may set FPSR.QC: its region
/// loads and stores FPSR).
pub fn saturates(c0: u32) -> bool {
    saturating(lop_of(c0))
}

/// The steps of a recipe (as the interpreter sequences them with `g_ustep`, each counted as an
/// instruction).
pub fn steps(opn: u32, c0: u32, k1: u32) -> Option<u32> {
    let mut n = 0;
    loop {
        let (_, to_t) = step_k1(opn, c0, k1, n);
        n += 1;
        if !to_t {
            return Some(n);
        }
        if n > 8 {
            return None;
        }
    }
}

/// Step `s`'s permute index k1 and whether the step writes the intermediate T (else Vd).
fn step_k1(opn: u32, c0: u32, k1: u32, s: u32) -> (u32, bool) {
    let esz = (c0 >> vec::ESZ_SHIFT) & 3;
    let db = if c0 & vec::Q != 0 { 16 } else { 8 };
    let wred = opn == vec::R_REDUCE && lop_of(c0) == vec::L_ADDLP;
    let first = s == 0;
    let k1 = if opn == vec::R_REDUCE {
        db >> if wred { s } else { s + 1 }
    } else {
        k1
    };
    let last_reduce = opn == vec::R_REDUCE && !(wred && first) && k1 == 1 << esz;
    let to_t = (matches!(opn, vec::R_LP | vec::R_PAIR | vec::R_ACC | vec::R_LONG) && first)
        || (opn == vec::R_REDUCE && !last_reduce);
    (k1, to_t)
}

/// The permute's configuration (simd_fns.wgsl's `PCfg`).
struct Perm {
    kind: u32,
    pesz: u32,
    db: u32,
    part: u32,
    k1: u32,
    k2: u32,
    signed: bool,
}

/// Source of output byte `i` (simd_fns.wgsl's `pidx`): 0-63 a byte of the sources, bit 7 the
/// sign of that byte, 64 none (Vd's byte or zero).
fn pidx(i: u32, c: &Perm) -> u32 {
    let es = 1u32 << c.pesz;
    let j = i >> c.pesz;
    let b = i & (es - 1);
    let nel = c.db >> c.pesz;
    match c.kind {
        vec::P_ZIP => ((j >> 1) + c.part * (nel >> 1)) * es + b + (j & 1) * 16,
        vec::P_UZP | vec::P_EXT => {
            let k = if c.kind == vec::P_EXT {
                i + c.k1
            } else {
                (2 * j + c.part) * es + b
            };
            if k < c.db {
                k
            } else {
                (k - c.db).wrapping_add(16)
            }
        }
        vec::P_TRN => ((j & !1) + c.part) * es + b + (j & 1) * 16,
        vec::P_REV => i ^ 1u32.wrapping_shl(c.k1).wrapping_sub(es),
        vec::P_DUP => c.k1 * es + b,
        vec::P_INS if j == c.k1 => c.k2 * es + b,
        vec::P_NARROW | vec::P_NARROWH if (i >> 3) == c.part => {
            let hi = if c.kind == vec::P_NARROWH { es } else { 0 };
            ((i & 7) >> c.pesz) * 2 * es + hi + b
        }
        vec::P_WIDEN => {
            let h = es >> 1;
            let base = c.part * 8 + j * h;
            if b < h {
                base + b
            } else if c.signed {
                (base + h - 1) | 128
            } else {
                64
            }
        }
        _ => 64,
    }
}

/// Mask of `len` bytes from byte `at` of a word.
fn bytes_mask(at: u32, len: u32) -> u32 {
    let m = if len >= 4 {
        !0u32
    } else {
        (1u32 << (8 * len)) - 1
    };
    m << (8 * at)
}

/// The permute's result as a `vec4<u32>` over the sources `src` (two `vec4<u32>` names: bytes
/// 0-15 and 16-31) and Vd (`vd`, for the bytes no source gives when `keep`).
fn permute(c: &Perm, src: [&str; 2], vd: &str, keep: bool) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum B {
        /// Byte `1` of source word `0`.
        Byte(u32, u32),
        Sign(u32, u32),
        Keep,
        Zero,
    }
    let word = |w: u32| format!("{}[{}]", src[(w / 4) as usize & 1], w % 4);
    let mut words = Vec::new();
    for ow in 0..4u32 {
        let bytes: Vec<B> = (0..4)
            .map(|b| {
                let idx = pidx(ow * 4 + b, c);
                let n = idx & 63;
                if idx & 128 != 0 {
                    B::Sign((n >> 2) & 15, n & 3)
                } else if idx & 64 != 0 {
                    if keep {
                        B::Keep
                    } else {
                        B::Zero
                    }
                } else {
                    B::Byte((n >> 2) & 15, n & 3)
                }
            })
            .collect();
        // Runs of bytes that move together: one shift and mask each.
        let mut terms = Vec::new();
        let mut b = 0u32;
        while b < 4 {
            let first = bytes[b as usize];
            let mut len = 1;
            while b + len < 4 {
                let next = bytes[(b + len) as usize];
                let joins = match (first, next) {
                    (B::Byte(w, sb), B::Byte(w2, sb2)) => w2 == w && sb2 == sb + len,
                    (B::Keep, B::Keep) | (B::Zero, B::Zero) => true,
                    _ => false,
                };
                if !joins {
                    break;
                }
                len += 1;
            }
            match first {
                B::Byte(w, sb) => {
                    let mut t = word(w);
                    if sb > 0 {
                        t = format!("({t} >> {}u)", 8 * sb);
                    }
                    if sb + len < 4 {
                        t = format!("({t} & {:#x}u)", bytes_mask(0, len));
                    }
                    if b > 0 {
                        t = format!("({t} << {}u)", 8 * b);
                    }
                    terms.push(t);
                }
                B::Sign(w, sb) => terms.push(format!(
                    "((u32(i32({} << {}u) >> 31u) & 0xffu) << {}u)",
                    word(w),
                    24 - 8 * sb,
                    8 * b
                )),
                B::Keep if len == 4 => terms.push(format!("{vd}[{ow}]")),
                B::Keep => terms.push(format!("({vd}[{ow}] & {:#x}u)", bytes_mask(b, len))),
                B::Zero => {}
            }
            b += len;
        }
        words.push(if terms.is_empty() {
            "0u".to_string()
        } else {
            terms.join(" | ")
        });
    }
    format!("vec4<u32>({})", words.join(", "))
}

/// A 64-bit element's lane operation (simd_fns.wgsl's `lane64`) over the `V`s `x` and `y`.
fn elem64(s: &mut String, o: &str, x: &str, y: &str, lop: u32) {
    if saturating(lop) {
        // To 32 bits: in range when the high word is the low word's sign (zero unsigned).
        let _ = writeln!(
            s,
            "let {o}n = top_bit({x}) == 1u;\n\
             let {o}s = vhi({x}) == select(0u, ~0u, (vlo({x}) >> 31u) == 1u);\n\
             let {o}u = vhi({x}) == 0u;"
        );
        let (v, fits) = match lop {
            vec::L_UQXT => (format!("select(~0u, vlo({x}), {o}u)"), format!("{o}u")),
            vec::L_SQXTU => (
                format!("select(select(~0u, 0u, {o}n), vlo({x}), {o}u)"),
                format!("{o}u"),
            ),
            _ => (
                format!("select(select(0x7fffffffu, 0x80000000u, {o}n), vlo({x}), {o}s)"),
                format!("{o}s"),
            ),
        };
        let _ = writeln!(s, "let {o} = vw({v}, 0u);\nlet {o}q = !{fits};");
        return;
    }
    let t = "vw(~0u, ~0u)";
    let sx = format!("vxor({x}, vw(0u, 0x80000000u))");
    let sy = format!("vxor({y}, vw(0u, 0x80000000u))");
    let n = format!("vlo({y})");
    let cmp = |c: String| format!("select(vz(), {t}, {c})");
    let r = match lop {
        vec::L_SUB => format!("vsub({x}, {y})"),
        vec::L_CMEQ => cmp(format!("veq({x}, {y})")),
        vec::L_CMHI => cmp(format!("vult({y}, {x})")),
        vec::L_CMHS => cmp(format!("!vult({x}, {y})")),
        vec::L_CMGT => cmp(format!("vult({sy}, {sx})")),
        vec::L_CMGE => cmp(format!("!vult({sx}, {sy})")),
        vec::L_CMLE => cmp(format!("!vult({sy}, {sx})")),
        vec::L_CMLT => cmp(format!("vult({sx}, {sy})")),
        vec::L_CMTST => cmp(format!("!veq(vand({x}, {y}), vz())")),
        vec::L_SHL => format!("select(vshl({x}, {n} & 63u), vz(), {n} >= 64u)"),
        vec::L_USHR => format!("select(vshr({x}, {n} & 63u), vz(), {n} >= 64u)"),
        vec::L_SSHR => format!("vsar({x}, min({n}, 63u))"),
        vec::L_NEG => format!("vneg({x})"),
        vec::L_ABS => format!("select({x}, vneg({x}), top_bit({x}) == 1u)"),
        vec::L_MUL => format!("vmul({x}, {y})"),
        vec::L_ADDLP => {
            let sg = format!("!veq({y}, vz())");
            format!(
                "vadd(select(vw(vlo({x}), 0u), sext32(vlo({x})), {sg}), \
                 select(vw(vhi({x}), 0u), sext32(vhi({x})), {sg}))"
            )
        }
        vec::L_URSHR => {
            format!("vadd(vshr({x}, {n} & 63u), vand(vshr({x}, ({n} - 1u) & 63u), vw(1u, 0u)))")
        }
        vec::L_USHL | vec::L_SSHL => {
            let _ = writeln!(
                s,
                "let {o}h = i32(vlo({y}) << 24u) >> 24u;\nlet {o}s = u32(-{o}h);"
            );
            let neg = if lop == vec::L_SSHL {
                format!("vsar({x}, min({o}s, 63u))")
            } else {
                format!("select(vshr({x}, {o}s & 63u), vz(), {o}s >= 64u)")
            };
            format!(
                "select(select(vz(), vshl({x}, u32({o}h) & 63u), u32({o}h) < 64u), {neg}, {o}h < 0)"
            )
        }
        // The interpreter's default (ADD, and what has no 64-bit form).
        _ => format!("vadd({x}, {y})"),
    };
    let _ = writeln!(s, "let {o} = {r};");
}

/// An element operation on elements of `ew` (8, 16, 32) bits, zero-extended in the
/// `vec4<u32>`s `x` and `y` (`sx`, `sy`: sign-extended, `vec4<i32>`) (simd_fns.wgsl's
/// `elem_op`); bits above the element are masked off after.
fn elem32(s: &mut String, o: &str, v: [&str; 4], ew: u32, lop: u32) {
    let [x, y, sx, sy] = v;
    let z = "vec4<u32>(0u)";
    let cmp = |c: String| format!("select({z}, vec4<u32>(~0u), {c})");
    let ewv = format!("vec4<u32>({ew}u)");
    let u = |e: String| format!("bitcast<vec4<u32>>({e})");
    if saturating(lop) {
        // To half the width (simd_fns.wgsl's elem_op), and whether any element saturated.
        let umax = (1u32 << (ew / 2)) - 1;
        let smax = (umax >> 1) as i32;
        let (r, before) = match lop {
            vec::L_UQXT => (format!("min({x}, vec4<u32>({umax}u))"), x.to_string()),
            vec::L_SQXTU => (
                u(format!("clamp({sx}, vec4<i32>(0), vec4<i32>({umax}))")),
                u(sx.to_string()),
            ),
            _ => (
                u(format!(
                    "clamp({sx}, vec4<i32>({}), vec4<i32>({smax}))",
                    -smax - 1
                )),
                u(sx.to_string()),
            ),
        };
        let _ = writeln!(s, "let {o} = {r};\nlet {o}q = any({o} != {before});");
        return;
    }
    let r = match lop {
        vec::L_SUB => format!("{x} - {y}"),
        vec::L_CMEQ => cmp(format!("{x} == {y}")),
        vec::L_CMHI => cmp(format!("{x} > {y}")),
        vec::L_CMHS => cmp(format!("{x} >= {y}")),
        vec::L_CMGT => cmp(format!("{sx} > {sy}")),
        vec::L_CMGE => cmp(format!("{sx} >= {sy}")),
        vec::L_CMLE => cmp(format!("{sx} <= {sy}")),
        vec::L_CMLT => cmp(format!("{sx} < {sy}")),
        vec::L_CMTST => cmp(format!("({x} & {y}) != {z}")),
        vec::L_UMAX => format!("max({x}, {y})"),
        vec::L_UMIN => format!("min({x}, {y})"),
        vec::L_SMAX => format!("select({x}, {y}, {sx} < {sy})"),
        vec::L_SMIN => format!("select({x}, {y}, {sx} > {sy})"),
        vec::L_SHL => format!("select({x} << ({y} & vec4<u32>(31u)), {z}, {y} >= {ewv})"),
        vec::L_USHR => format!("select({x} >> ({y} & vec4<u32>(31u)), {z}, {y} >= {ewv})"),
        vec::L_SSHR => u(format!("{sx} >> min({y}, vec4<u32>(31u))")),
        vec::L_MUL => format!("{x} * {y}"),
        vec::L_CNT => format!("countOneBits({x})"),
        vec::L_NEG => format!("{z} - {x}"),
        vec::L_ABS => format!("select({x}, {z} - {x}, {sx} < vec4<i32>(0))"),
        vec::L_ADDLP => {
            let h = ew / 2;
            let hs = 32 - h;
            let sg = format!("{y} != {z}");
            let lo = format!(
                "select({x} & vec4<u32>({}u), {}, {sg})",
                (1u32 << h) - 1,
                u(format!(
                    "bitcast<vec4<i32>>({x} << vec4<u32>({hs}u)) >> vec4<u32>({hs}u)"
                ))
            );
            let hi = format!(
                "select({x} >> vec4<u32>({h}u), {}, {sg})",
                u(format!(
                    "bitcast<vec4<i32>>({x} << vec4<u32>({}u)) >> vec4<u32>({hs}u)",
                    hs - h
                ))
            );
            format!("{lo} + {hi}")
        }
        vec::L_URSHR => format!(
            "({x} >> ({y} & vec4<u32>(31u))) + (({x} >> (({y} - vec4<u32>(1u)) & vec4<u32>(31u))) & vec4<u32>(1u))"
        ),
        vec::L_USHL | vec::L_SSHL => {
            let _ = writeln!(
                s,
                "let {o}h = bitcast<vec4<i32>>({y} << vec4<u32>(24u)) >> vec4<u32>(24u);\n\
                 let {o}s = bitcast<vec4<u32>>(-{o}h);\nlet {o}p = bitcast<vec4<u32>>({o}h);"
            );
            let neg = if lop == vec::L_SSHL {
                u(format!("{sx} >> min({o}s, vec4<u32>(31u))"))
            } else {
                format!("select({x} >> ({o}s & vec4<u32>(31u)), {z}, {o}s >= {ewv})")
            };
            format!(
                "select(select({z}, {x} << ({o}p & vec4<u32>(31u)), {o}p < {ewv}), {neg}, {o}h < vec4<i32>(0))"
            )
        }
        _ => format!("{x} + {y}"),
    };
    let _ = writeln!(s, "let {o} = {r};");
}

/// The lane stage (simd_fns.wgsl's `lanes`) over the `vec4<u32>`s `a`, `b` and `d`, bound as
/// `o`.
fn lanes(s: &mut String, o: &str, [a, b, d]: [&str; 3], esz: u32, lop: u32) {
    let bitwise = match lop {
        vec::L_AND => Some(format!("{a} & {b}")),
        vec::L_BIC => Some(format!("{a} & ~{b}")),
        vec::L_ORR => Some(format!("{a} | {b}")),
        vec::L_ORN => Some(format!("{a} | ~{b}")),
        vec::L_EOR => Some(format!("{a} ^ {b}")),
        vec::L_BSL => Some(format!("({d} & {a}) | (~{d} & {b})")),
        vec::L_BIT => Some(format!("({d} & ~{b}) | ({a} & {b})")),
        vec::L_BIF => Some(format!("({d} & {b}) | ({a} & ~{b})")),
        vec::L_NOT => Some(format!("~{a}")),
        vec::L_MOVB => Some(b.to_string()),
        _ => None,
    };
    if let Some(e) = bitwise {
        let _ = writeln!(s, "let {o} = {e};");
        return;
    }
    if esz == 3 {
        for (h, (p, q)) in [("x", "y"), ("z", "w")].iter().enumerate() {
            let (x, y) = (format!("{o}x{h}"), format!("{o}y{h}"));
            let _ = writeln!(
                s,
                "let {x} = vw({a}.{p}, {a}.{q});\nlet {y} = vw({b}.{p}, {b}.{q});"
            );
            elem64(s, &format!("{o}r{h}"), &x, &y, lop);
        }
        let _ = writeln!(
            s,
            "let {o} = vec4<u32>(vlo({o}r0), vhi({o}r0), vlo({o}r1), vhi({o}r1));"
        );
        if saturating(lop) {
            let _ = writeln!(s, "let {o}sat = {o}r0q || {o}r1q;");
        }
        return;
    }
    let ew = 8u32 << esz;
    if let Some(e) = swar(s, o, a, b, ew, lop) {
        let _ = writeln!(s, "let {o} = {e};");
        return;
    }
    let m = if ew == 32 { !0u32 } else { (1 << ew) - 1 };
    let mut parts = Vec::new();
    for p in 0..32 / ew {
        let sh = p * ew;
        let field = |v: &str| {
            let mut e = v.to_string();
            if sh > 0 {
                e = format!("({e} >> vec4<u32>({sh}u))");
            }
            if sh + ew < 32 {
                e = format!("({e} & vec4<u32>({m:#x}u))");
            }
            e
        };
        let signed = |v: &str| {
            format!(
                "(bitcast<vec4<i32>>({v} << vec4<u32>({}u)) >> vec4<u32>({}u))",
                32 - sh - ew,
                32 - ew
            )
        };
        let n = |k: &str| format!("{o}{k}{p}");
        let _ = writeln!(
            s,
            "let {} = {};\nlet {} = {};",
            n("x"),
            field(a),
            n("y"),
            field(b)
        );
        let r = n("r");
        let mut op = String::new();
        elem32(&mut op, &r, [&n("x"), &n("y"), &n("sx"), &n("sy")], ew, lop);
        // Only the signed operations read the sign-extended elements.
        if op.contains(&n("sx")) || op.contains(&n("sy")) {
            let _ = writeln!(
                s,
                "let {} = {};\nlet {} = {};",
                n("sx"),
                signed(a),
                n("sy"),
                signed(b)
            );
        }
        s.push_str(&op);
        let mut t = r;
        if ew < 32 {
            t = format!("({t} & vec4<u32>({m:#x}u))");
        }
        if sh > 0 {
            t = format!("({t} << vec4<u32>({sh}u))");
        }
        parts.push(t);
    }
    let _ = writeln!(s, "let {o} = {};", parts.join(" | "));
    if saturating(lop) {
        let q: Vec<String> = (0..32 / ew).map(|p| format!("{o}r{p}q")).collect();
        let _ = writeln!(s, "let {o}sat = {};", q.join(" || "));
    }
}

/// A saturating lane operation: its lane stage also binds `{o}sat`, whether any element
/// saturated.
fn saturating(lop: u32) -> bool {
    (vec::L_SQXT..=vec::L_SQXTU).contains(&lop)
}

/// The common operations on 8- and 16-bit elements on whole words at once (SIMD within a
/// register: the carries and borrows kept inside each element by its top bit), else None.
/// Each element apart is ~7 operations on every word: a CMEQ of bytes, 28, costs lavapipe's
/// compile as much as several integer instructions; these take 4-12.
fn swar(s: &mut String, o: &str, a: &str, b: &str, ew: u32, lop: u32) -> Option<String> {
    if ew > 16 {
        return None;
    }
    let (h, l, ones) = if ew == 8 {
        ("0x80808080u", "0x7f7f7f7fu", "0xffu")
    } else {
        ("0x80008000u", "0x7fff7fffu", "0xffffu")
    };
    let (h, l, ones) = (
        format!("vec4<u32>({h})"),
        format!("vec4<u32>({l})"),
        format!("vec4<u32>({ones})"),
    );
    // Each element's top bit, set where its test holds, widened to the whole element.
    let expand = |g: &str| format!("(({g} >> vec4<u32>({}u)) * {ones})", ew - 1);
    // Top bits set where x >= y (unsigned): the low bits' difference with the top bit as a
    // guard, then the top bits decide where they differ.
    let mut ge = |x: &str, y: &str, tag: &str| {
        let _ = writeln!(
            s,
            "let {o}{tag}d = ({x} | {h}) - ({y} & {l});
             let {o}{tag} = (({x} & ~{y}) | (~({x} ^ {y}) & {o}{tag}d)) & {h};"
        );
        format!("{o}{tag}")
    };
    let biased = |v: &str| format!("({v} ^ {h})");
    let r = match lop {
        vec::L_ADD => format!("(({a} & {l}) + ({b} & {l})) ^ (({a} ^ {b}) & {h})"),
        vec::L_SUB => format!("(({a} | {h}) - ({b} & {l})) ^ (({a} ^ ~{b}) & {h})"),
        vec::L_NEG => format!("({h} - ({a} & {l})) ^ (~{a} & {h})"),
        vec::L_CMEQ | vec::L_CMTST => {
            let t = if lop == vec::L_CMEQ {
                format!("{a} ^ {b}")
            } else {
                format!("{a} & {b}")
            };
            // Top bits set where the element is non-zero.
            let _ = writeln!(
                s,
                "let {o}t = {t};
let {o}nz = ((({o}t & {l}) + {l}) | {o}t) & {h};"
            );
            if lop == vec::L_CMEQ {
                expand(&format!("({o}nz ^ {h})"))
            } else {
                expand(&format!("{o}nz"))
            }
        }
        vec::L_CMHS => expand(&ge(a, b, "g")),
        vec::L_CMHI => expand(&format!("({} ^ {h})", ge(b, a, "g"))),
        vec::L_CMGE => expand(&ge(&biased(a), &biased(b), "g")),
        vec::L_CMGT => expand(&format!("({} ^ {h})", ge(&biased(b), &biased(a), "g"))),
        vec::L_CMLE => expand(&ge(&biased(b), &biased(a), "g")),
        vec::L_CMLT => expand(&format!("({} ^ {h})", ge(&biased(a), &biased(b), "g"))),
        vec::L_UMAX | vec::L_UMIN | vec::L_SMAX | vec::L_SMIN => {
            let g = if matches!(lop, vec::L_UMAX | vec::L_UMIN) {
                ge(a, b, "g")
            } else {
                ge(&biased(a), &biased(b), "g")
            };
            let _ = writeln!(s, "let {o}m = {};", expand(&g));
            if matches!(lop, vec::L_UMAX | vec::L_SMAX) {
                format!("({a} & {o}m) | ({b} & ~{o}m)")
            } else {
                format!("({b} & {o}m) | ({a} & ~{o}m)")
            }
        }
        _ => return None,
    };
    Some(r)
}

/// TBL/TBX's result: the table is Vn and the next `k2` registers (numbers wrap at 32), the
/// indices Vm's bytes, and `none` gives the bytes an index past the table leaves.
fn table(x: &Insn, vn: &str, vm: &str, none: &str) -> String {
    let regs: Vec<String> = (0..4u32)
        .map(|k| match k {
            0 => vn.to_string(),
            k if k <= x.k2 => super::translate::vreg(x.rn + k),
            _ => "vec4<u32>(0u)".to_string(),
        })
        .collect();
    let n = 16 * (x.k2.min(3) + 1);
    let words: Vec<String> = ["x", "y", "z", "w"]
        .iter()
        .map(|c| format!("tier_tbl({vm}.{c}, {}, {n}u, {none}.{c})", regs.join(", ")))
        .collect();
    format!("vec4<u32>({})", words.join(", "))
}

/// One VEC instruction the translator takes ([`takes`]), `i` its index in the region (its
/// locals' names).
pub fn emit(s: &mut String, x: &Insn, i: usize) {
    let c0 = x.c0;
    let opn = x.opn;
    let esz = (c0 >> vec::ESZ_SHIFT) & 3;
    let q = c0 & vec::Q != 0;
    let lop = lop_of(c0);
    let bsel = (c0 >> vec::BSEL_SHIFT) & 3;
    let keep = c0 & vec::KEEP != 0;
    let db = if q { 16 } else { 8 };
    let mut pc = Perm {
        kind: (c0 >> vec::PKIND_SHIFT) & 15,
        pesz: (c0 >> vec::PESZ_SHIFT) & 3,
        db,
        part: u32::from(c0 & vec::PART != 0),
        k1: x.k1,
        k2: x.k2,
        signed: c0 & vec::SIGNED != 0,
    };
    let wred = opn == vec::R_REDUCE && lop == vec::L_ADDLP;
    let (vn, vm, vd, t) = (
        format!("vn{i}v"),
        format!("vm{i}v"),
        format!("vd{i}v"),
        format!("vt{i}v"),
    );
    let zero = "vec4<u32>(0u)".to_string();
    let vreg = super::translate::vreg;
    let mut body = String::new();
    let n = steps(opn, c0, x.k1).unwrap_or(1);
    for st in 0..n {
        let first = st == 0;
        let (k1, to_t) = step_k1(opn, c0, x.k1, st);
        pc.k1 = k1;
        if opn == vec::R_PAIR {
            pc.part = st;
        }
        let from_t = (opn == vec::R_LP && st == 1) || (opn == vec::R_REDUCE && st != 0);
        let va = if from_t { &t } else { &vn };
        let src_m = opn == vec::R_WADD || (opn == vec::R_LONG && !first);
        let use_p = matches!(opn, vec::R_PERM | vec::R_TOGPR)
            || (opn == vec::R_LP && !first)
            || (matches!(opn, vec::R_PAIR | vec::R_LONG) && first);
        let mut la = va.clone();
        let mut lb = match bsel {
            vec::B_IMM => format!(
                "vec4<u32>({}u, {}u, {}u, {}u)",
                x.imm.0, x.imm.1, x.imm.0, x.imm.1
            ),
            vec::B_ZERO => zero.clone(),
            _ => vm.clone(),
        };
        let mut lop2 = lop;
        let mut needs_p = use_p;
        if opn == vec::R_PL || opn == vec::R_WADD {
            if opn == vec::R_PL {
                la = "pv".into();
            }
            needs_p = true;
        }
        if opn == vec::R_WADD {
            lb = "pv".into();
        }
        if opn == vec::R_LP && first && c0 & vec::SCALAR != 0 {
            la = format!("({la}) & {}", element0(esz));
        }
        if matches!(opn, vec::R_PAIR | vec::R_LONG) && !first {
            la = t.clone();
            lb = "pv".into();
            needs_p = true;
        }
        if opn == vec::R_REDUCE && !(wred && first) {
            lb = "pv".into();
            needs_p = true;
        }
        if wred && !first {
            lop2 = vec::L_ADD;
        }
        if opn == vec::R_ACC && !first {
            la = vd.clone();
            lb = t.clone();
            lop2 = if pc.part == 1 { vec::L_SUB } else { vec::L_ADD };
        }
        body.push_str("{\n");
        if needs_p {
            let s0 = if c0 & vec::GPR != 0 {
                let _ = writeln!(
                    body,
                    "let xs = {};\nlet xsv = vec4<u32>(vlo(xs), vhi(xs), vlo(xs), vhi(xs));",
                    x.xn
                );
                "xsv"
            } else if src_m {
                &vm
            } else {
                va
            };
            let s1 = if opn == vec::R_REDUCE { &zero } else { &vm };
            let pv = if pc.kind == vec::P_TBL {
                table(x, &vn, &vm, if keep { &vd } else { &zero })
            } else {
                permute(&pc, [s0, s1], &vd, keep)
            };
            let _ = writeln!(body, "let pv = {pv};");
        }
        let mut out = if use_p {
            "pv".to_string()
        } else {
            let _ = writeln!(body, "let la = {la};\nlet lb = {lb};");
            lanes(&mut body, "lv", ["la", "lb", &vd], esz, lop2);
            if saturating(lop2) {
                body.push_str("if lvsat { g_fpsr = g_fpsr | FPSR_QC; }\n");
            }
            "lv".to_string()
        };
        if !q && !to_t {
            out = format!("({out}) & vec4<u32>(~0u, ~0u, 0u, 0u)");
        }
        if c0 & vec::SCALAR != 0 && !to_t {
            out = format!("({out}) & {}", element0(esz));
        }
        let dest = if to_t { t.clone() } else { vreg(x.rd) };
        let _ = writeln!(body, "{dest} = {out};\n}}");
    }
    s.push_str("{\n");
    if body.contains(&vn) {
        let _ = writeln!(s, "let {vn} = {};", vreg(x.rn));
    }
    if body.contains(&vm) {
        let _ = writeln!(s, "let {vm} = {};", vreg(x.rm));
    }
    if body.contains(&vd) {
        let _ = writeln!(s, "let {vd} = {};", vreg(x.rd));
    }
    if body.contains(&t) {
        let _ = writeln!(s, "var {t} = vec4<u32>(0u);");
    }
    s.push_str(&body);
    s.push_str("}\n");
}

/// The mask of element 0 at element size `esz` (log2 bytes), as a WGSL vector.
fn element0(esz: u32) -> String {
    let eb = 1u32 << esz;
    let lo = if eb >= 4 { !0u32 } else { (1 << (8 * eb)) - 1 };
    let hi = if eb == 8 { !0u32 } else { 0 };
    format!("vec4<u32>({lo:#x}u, {hi:#x}u, 0u, 0u)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutes_move_runs_of_bytes_at_once() {
        // UZP1 of bytes over Vn:Vm, 16 bytes: the even bytes, each alone.
        let uzp = Perm {
            kind: vec::P_UZP,
            pesz: 0,
            db: 16,
            part: 0,
            k1: 0,
            k2: 0,
            signed: false,
        };
        assert_eq!(pidx(0, &uzp), 0);
        assert_eq!(pidx(9, &uzp), 18);
        // EXT #4 over 16 bytes: whole words move.
        let ext = Perm {
            kind: vec::P_EXT,
            k1: 4,
            ..uzp
        };
        let e = permute(&ext, ["a", "b"], "d", false);
        assert_eq!(e, "vec4<u32>(a[1], a[2], a[3], b[0])");
        // XTN of halfwords (part 0): bytes 0-7 from the low bytes, the rest zero.
        let xtn = Perm {
            kind: vec::P_NARROW,
            pesz: 0,
            ..ext
        };
        let e = permute(&xtn, ["a", "b"], "d", false);
        assert!(e.ends_with(", 0u, 0u)"), "{e}");
        // INS keeps Vd's other bytes.
        let ins = Perm {
            kind: vec::P_INS,
            pesz: 2,
            k1: 1,
            k2: 0,
            ..ext
        };
        let e = permute(&ins, ["a", "b"], "d", true);
        assert_eq!(e, "vec4<u32>(d[0], a[0], d[2], d[3])");
    }
}
