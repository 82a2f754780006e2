//! The translator: a region of decoded instructions becomes one WGSL function over locals, with
//! the interpreter's own helpers (`extend`, `shift`, `xlat`, `mld`, ...) called with the decoded
//! fields as constants, so the two tiers share their semantics and the compiler folds the rest.
//!
//! A region runs in a loop of guarded blocks (one pass runs every block whose turn it is, in
//! address order, so a forward branch costs nothing and a backward one a trip). It leaves at
//! a precise pc with every register, NZCV and the instruction count as the interpreter would
//! have them: before any instruction it does not take (syscalls, FP/SIMD, exclusives, ...),
//! before a memory access whose translation is not ready (a walk, a fault, a write to code;
//! a pair's two accesses as one), at a branch out of the region, and when the dispatch's
//! budget is spent.

use crate::isa::form::{
    bsrc, cin, ext, f, fp, mem, op, sht, unit, vec, vmem, Decoded, R_SINK, R_SP, R_ZR,
};
use std::fmt::Write;

/// The translator's version: part of every translation's identity.
pub const VERSION: u32 = 17;

/// One translated region.
#[derive(Clone, Debug)]
pub struct Translation {
    pub start: u64,
    pub end: u64,
    /// The decoded slot the region was made from: a lane enters only where its code map names
    /// this slot, so code written since (a new slot) never runs a stale translation.
    pub slot: u32,
    /// `fn region_K(ib: u32)`.
    pub wgsl: String,
    /// Instructions translated (the rest of the region exits to the interpreter).
    pub translated: usize,
    /// Where lanes enter: the block starts the translator takes, with their decoded word 1
    /// (the host marks them [`crate::isa::form::f::TIER`] so the interpreter yields there).
    pub entries: Vec<(u64, u32)>,
    /// It has a loop or calls itself: worth a lane's trip from the interpreter (a region
    /// without runs a few hundred instructions per entry at most, less than the two dispatches
    /// an entry costs; it runs when another region calls it).
    pub loops: bool,
    /// The registers it reads or writes (x0-x30, 31: SP), the only ones it moves to and from
    /// `R`.
    pub regs: Vec<u32>,
    /// It runs FP instructions: its shader needs the soft-float functions and FPCR/FPSR.
    pub fp: bool,
    /// The accesses it takes at any alignment ([`is_site`]), by pc.
    pub sites: Vec<u64>,
}

/// What the translator needs to know of the shader it goes into.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Native 64-bit integers (the u64 prelude): division is then one operation.
    pub native64: bool,
}

fn reg(r: u32) -> String {
    if r == R_ZR || r == R_SINK {
        "vz()".into()
    } else {
        format!("r{r}")
    }
}

/// V register `r` (its low five bits) of the lane's instance, as a WGSL place.
pub(super) fn vreg(r: u32) -> String {
    format!("vreg[g_inst * VREG_STRIDE + {}u]", r & 31)
}

fn wr(s: &mut String, r: u32, e: &str) {
    if r != R_SINK && r != R_ZR {
        let _ = writeln!(s, "r{r} = {e};");
    }
}

fn v64(x: u64) -> String {
    format!("vw({}u, {}u)", x as u32, (x >> 32) as u32)
}

/// Whether the translator takes this instruction (else the region exits before it).
pub fn takes(d: &Decoded, t: Target) -> bool {
    let a = d.aux();
    match d.unit() {
        unit::ALU | unit::CSEL | unit::CCMP | unit::BFM | unit::MUL | unit::BR | unit::ONE => true,
        unit::DIV => t.native64,
        unit::MEM => a & mem::EXCL == 0 && (a & mem::PRFM == 0 || sinks(d)),
        // Whole V registers: one, a pair or LD1/ST1's 1-4 (LDR/STR/LDP/STP of B-Q: variadic
        // functions' saves of q0-q7, block copies; glibc's strlen reads 32 bytes near a page's
        // end with LD1 of two); not lanes or replication.
        unit::VMEM => (a >> vmem::MODE_SHIFT) & 3 == vmem::MODE_WHOLE,
        unit::VEC => vec_form(d).is_some(),
        // All of the FP unit: a form left out would refuse its whole region (FDIV's vector form
        // costs four lanes of 64 bit steps of compile, but interpreted its region ran at 0.5
        // MIPS).
        unit::FP => true,
        unit::SYS => d.op() == op::NOP,
        _ => false,
    }
}

/// The interpreter's steps of an FP instruction (each counts as an instruction).
fn fp_steps(d: &Decoded) -> usize {
    let a = d.aux();
    let sub = match d.op() {
        fp::DIV => fp::DIV_STEPS + 1,
        fp::SQRT => fp::SQRT_STEPS + 1,
        _ => 1,
    };
    if a & fp::VECTOR == 0 {
        return sub as usize;
    }
    (fp_lanes(a) * sub) as usize
}

/// The lanes (steps) of a vector FP form with configuration `a`: an across-lanes form's three
/// pairwise steps, two for widening and narrowing, one for the scalar forms on V registers.
fn fp_lanes(a: u32) -> u32 {
    if a & fp::ACROSS != 0 {
        3
    } else if a & (fp::WIDEN | fp::NARROW) != 0 {
        2
    } else if a & fp::ONE != 0 {
        1
    } else {
        (if a & fp::DBL != 0 { 2 } else { 4 }) >> u32::from(a & fp::Q == 0)
    }
}

/// A translated load or store: it translates its address (`txlat`).
fn accesses(d: &Decoded) -> bool {
    match d.unit() {
        unit::MEM => d.aux() & mem::PRFM == 0,
        unit::VMEM => true,
        _ => false,
    }
}

/// A prefetch writes nothing (its selectors are the sink).
fn sinks(d: &Decoded) -> bool {
    let rd = d.w[1] & 63;
    let rc = d.rc();
    (rd == R_SINK || rd == R_ZR) && (rc == R_SINK || rc == R_ZR)
}

/// The registers (x0-x30, SP) an instruction reads or writes.
fn regs_of(d: &Decoded) -> impl Iterator<Item = u32> {
    let y = d.w[1];
    // A VMEM instruction's rc and rc2 name V registers; a VEC instruction's fields are V
    // registers and element numbers, but for the general register it reads (Xn of DUP and INS)
    // or writes (Xd of UMOV, SMOV and FMOV).
    let fields: &[u32] = match d.unit() {
        unit::VMEM => &[0, 6, 12],
        // Xn of SCVTF/UCVTF, Xd of FCVTZS and the like; the rest name V registers.
        unit::FP => match (d.op(), d.aux() & fp::VECTOR == 0) {
            (fp::CVTF, true) => &[6],
            (fp::CVTI, true) => &[0],
            _ => &[],
        },
        unit::VEC => match (d.op() == vec::R_TOGPR, d.w[0] & vec::GPR != 0) {
            (true, true) => &[0, 6],
            (true, false) => &[0],
            (false, true) => &[6],
            (false, false) => &[],
        },
        _ => &[0, 6, 12, 18, 24],
    };
    fields
        .iter()
        .map(move |s| (y >> s) & 63)
        .filter(|&r| r <= R_SP)
}

struct Fields {
    unit: u32,
    opn: u32,
    w: bool,
    cond: u32,
    imm: u64,
    aux: u32,
    rd: u32,
    rn: u32,
    rm: u32,
    rc: u32,
    rc2: u32,
    c0: u32,
}

fn fields(d: &Decoded) -> Fields {
    let c0 = d.w[0];
    let y = d.w[1];
    Fields {
        unit: d.unit(),
        opn: d.op(),
        w: c0 & f::W != 0,
        cond: (c0 >> f::COND_SHIFT) & 15,
        imm: d.imm(),
        aux: d.aux(),
        rd: y & 63,
        rn: (y >> 6) & 63,
        rm: (y >> 12) & 63,
        rc: (y >> 18) & 63,
        rc2: (y >> 24) & 63,
        c0,
    }
}

/// Operand B through the shared pipeline (source, extension, shift), before inversion, as `b`.
fn operand_b(s: &mut String, x: &Fields) {
    let src = match (x.c0 >> f::BSRC_SHIFT) & 3 {
        bsrc::IMM => v64(x.imm),
        bsrc::RC => reg(x.rc),
        _ => reg(x.rm),
    };
    let e = (x.c0 >> f::EXT_SHIFT) & 7;
    let k = (x.c0 >> f::SHT_SHIFT) & 3;
    let amt = if x.c0 & f::SHVAR != 0 {
        format!("(vlo({}) & {}u)", reg(x.rm), if x.w { 31 } else { 63 })
    } else {
        format!("{}u", (x.c0 >> f::SHAMT_SHIFT) & 63)
    };
    let mut b = src;
    if e != ext::NONE {
        b = format!("extend({b}, {e}u)");
    }
    if !(k == sht::LSL && amt == "0u") {
        b = format!("shift({b}, {k}u, {amt})");
    }
    let _ = writeln!(s, "let b = {b};");
}

/// The adder over `a` (already bound) and `b`: `sum`, with `a2`, `b2` and `s2` (its operands
/// and result, moved up in W form) bound for a flag setter; a carry in is read from `fs`.
fn adder(s: &mut String, x: &Fields, a: &str, fs: &mut Fl) {
    let bi = if x.c0 & f::INVB != 0 { "vnot(b)" } else { "b" };
    let cinm = (x.c0 >> f::CIN_SHIFT) & 3;
    let cinv = match cinm {
        cin::ONE => "1u".to_string(),
        cin::CARRY => carry(s, fs),
        _ => String::new(),
    };
    if x.w {
        let _ = writeln!(s, "let a2 = vshl({a}, 32u);\nlet b2 = vshl({bi}, 32u);");
    } else {
        let _ = writeln!(s, "let a2 = {a};\nlet b2 = {bi};");
    }
    let _ = writeln!(s, "let s1 = vadd(a2, b2);");
    if cinv.is_empty() {
        let _ = writeln!(s, "let s2 = s1;");
    } else if x.w {
        let _ = writeln!(s, "let s2 = vadd(s1, vw(0u, {cinv}));");
    } else {
        let _ = writeln!(s, "let s2 = vadd(s1, vw({cinv}, 0u));");
    }
    if x.w {
        s.push_str("let sum = vshr(s2, 32u);\n");
    } else {
        s.push_str("let sum = s2;\n");
    }
}

/// The result written to rd, truncated in W form as the interpreter's commit does.
fn commit(s: &mut String, x: &Fields, res: &str) {
    if x.w {
        wr(s, x.rd, &format!("vw(vlo({res}), 0u)"));
    } else {
        wr(s, x.rd, res);
    }
}

/// What the translator knows of NZCV at a point of a block. A setter leaves its operands and
/// result in `fa`, `fb`, `fs` (with `fl` set) and NZCV is made only where it is read: by a
/// reader whose setter it does not see, and once at the region's exit.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Fl {
    /// A block's start: `nz` holds them where `fl` is false, else `fa`/`fb`/`fs`.
    Unknown,
    /// `fa`/`fb`/`fs` hold them.
    Lazy,
    /// `nz` holds them.
    Made,
}

/// Makes `nz` hold the flags where the translator does not know which form holds them.
fn made(s: &mut String, fs: &mut Fl) {
    if *fs == Fl::Unknown {
        s.push_str("nz = select(nz, flags3(fa, fb, fs), fl);\nfl = false;\n");
        *fs = Fl::Made;
    }
}

/// The carry flag as 0 or 1.
fn carry(s: &mut String, fs: &mut Fl) -> String {
    made(s, fs);
    match fs {
        Fl::Lazy => format!("select(0u, 1u, {})", LAZY_C),
        _ => "((nz >> 1u) & 1u)".into(),
    }
}

/// C of the setter whose operands and result `fa`, `fb`, `fs` hold (shaders/cpu/tier_main.wgsl).
const LAZY_C: &str = "lazy_c(fa, fb, fs)";

/// Condition `c` (A64's encoding) over the flags, as a WGSL bool.
fn cond(s: &mut String, c: u32, fs: &mut Fl) -> String {
    made(s, fs);
    if *fs == Fl::Made {
        return format!("cond_holds({c}u, nz)");
    }
    let z = "veq(fs, vz())";
    let n = "(top_bit(fs) == 1u)";
    let v = "lazy_v(fa, fb, fs)";
    let e = match c >> 1 {
        0 => z.to_string(),
        1 => LAZY_C.to_string(),
        2 => n.to_string(),
        3 => v.to_string(),
        4 => format!("({LAZY_C} && !{z})"),
        5 => format!("({n} == {v})"),
        6 => format!("(!{z} && {n} == {v})"),
        _ => return "true".into(),
    };
    if c & 1 == 1 {
        format!("!{e}")
    } else {
        e
    }
}

/// The adder's flags, left for a later reader.
fn set_lazy(s: &mut String, a: &str, b: &str, r: &str, fs: &mut Fl) {
    let _ = writeln!(s, "fa = {a};\nfb = {b};\nfs = {r};\nfl = true;");
    *fs = Fl::Lazy;
}

/// WGSL for one data-processing instruction (no control flow, no memory).
fn data(s: &mut String, x: &Fields, t: Target, fs: &mut Fl) {
    let setflags = x.c0 & f::S != 0;
    match x.unit {
        unit::ALU | unit::CSEL | unit::CCMP => {
            let _ = writeln!(s, "let a = {};", reg(x.rn));
            operand_b(s, x);
            let logic = x.unit == unit::ALU && x.opn != op::ADD;
            if logic {
                let bi = if x.c0 & f::INVB != 0 { "vnot(b)" } else { "b" };
                let o = match x.opn {
                    op::ORR => "vor",
                    op::EOR => "vxor",
                    _ => "vand",
                };
                let _ = writeln!(s, "let res = {o}(a, {bi});");
                if setflags {
                    // NZ from the result (its low word moved up in W form), C and V clear:
                    // a = s, b = 0 makes both formulas 0.
                    let t = if x.w { "vshl(res, 32u)" } else { "res" };
                    let _ = writeln!(s, "let t = {t};");
                    set_lazy(s, "t", "vz()", "t", fs);
                }
                commit(s, x, "res");
                return;
            }
            let aa = if x.unit == unit::CSEL { "vz()" } else { "a" };
            // The condition is read before the instruction's own flags are set.
            let c = matches!(x.unit, unit::CSEL | unit::CCMP).then(|| cond(s, x.cond, fs));
            adder(s, x, aa, fs);
            match x.unit {
                unit::CSEL => {
                    let c = c.unwrap_or_default();
                    let _ = writeln!(s, "let res = select(sum, a, {c});");
                    if setflags {
                        set_lazy(s, "a2", "b2", "s2", fs);
                    }
                    commit(s, x, "res");
                }
                unit::CCMP => {
                    if setflags {
                        let c = c.unwrap_or_default();
                        let _ = writeln!(
                            s,
                            "nz = select({}u, flags3(a2, b2, s2), {c});\nfl = false;",
                            x.aux & 15
                        );
                        *fs = Fl::Made;
                    }
                    commit(s, x, "sum");
                }
                _ => {
                    if setflags {
                        set_lazy(s, "a2", "b2", "s2", fs);
                    }
                    commit(s, x, "sum");
                }
            }
        }
        unit::BFM => {
            let _ = writeln!(s, "let a = {};\nlet bm = {};", reg(x.rn), reg(x.rm));
            operand_b(s, x);
            let lsb = x.aux & 63;
            let pos = (x.aux >> crate::isa::form::bfm::POS_SHIFT) & 63;
            let width = (x.aux >> crate::isa::form::bfm::WIDTH_SHIFT) & 127;
            let mode = (x.aux >> crate::isa::form::bfm::MODE_SHIFT) & 3;
            use crate::isa::form::bfm as bf;
            match mode {
                bf::MODE_INSERT => {
                    // A bit select under a divergent branch with a constant operand is
                    // miscompiled by LLVM 15's AVX-512 back end (a merge-masked ternary-logic
                    // instruction with a folded constant gets the wrong truth table,
                    // llvm/llvm-project#157929): the mask and the source (MOVK's is a constant)
                    // come through the opaque zero, so its operands are registers. (width is
                    // 1..=64.)
                    let ones = u64::MAX >> (64 - width);
                    let _ = writeln!(
                        s,
                        "let m = vxor({}, kz);\n\
                         let v = vor(vand({}, vnot(m)), vand(vshl(vshr(vxor(b, kz), {lsb}u), {pos}u), m));",
                        v64(ones << pos),
                        reg(x.rc)
                    );
                }
                bf::MODE_SIGN => {
                    // Shifts, not a mask and an OR of the sign bits: the latter is a bit
                    // select with constant masks where lsb is 0 (SXTW x0, w0).
                    let _ = writeln!(
                        s,
                        "let v = vshl(vsar(vshl(b, {}u), {}u), {pos}u);",
                        64u32.wrapping_sub(lsb + width) & 63,
                        (64 - width) & 63
                    );
                }
                bf::MODE_EXTR => {
                    let hi = if x.w { "vshl(a, 32u)" } else { "a" };
                    let lo = if x.w {
                        "vand(bm, vw(0xffffffffu, 0u))"
                    } else {
                        "bm"
                    };
                    let _ = writeln!(s, "let hi = {hi};\nlet lo = {lo};");
                    if x.w {
                        let _ = writeln!(s, "let v = vshr(vor(hi, lo), {lsb}u);");
                    } else if lsb == 0 {
                        s.push_str("let v = lo;\n");
                    } else {
                        let _ =
                            writeln!(s, "let v = vor(vshr(lo, {lsb}u), vshl(hi, {}u));", 64 - lsb);
                    }
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "let v = vshl(vand(vshr(b, {lsb}u), vones({width}u)), {pos}u);"
                    );
                }
            }
            commit(s, x, "v");
        }
        unit::MUL => {
            let (a, bm) = (reg(x.rn), reg(x.rm));
            let res = if x.opn >= op::SMULH {
                if x.opn == op::SMULH {
                    format!(
                        "vsub(vsub(vmulhu({a}, {bm}), vand(vsar({a}, 63u), {bm})), vand(vsar({bm}, 63u), {a}))"
                    )
                } else {
                    format!("vmulhu({a}, {bm})")
                }
            } else {
                let e = match x.opn {
                    op::UMADDL => ext::UXTW,
                    op::SMADDL => ext::SXTW,
                    _ => 0,
                };
                let p = if e == 0 {
                    format!("vmul({a}, {bm})")
                } else {
                    format!("vmul(extend({a}, {e}u), extend({bm}, {e}u))")
                };
                let o = if x.c0 & f::INVB != 0 { "vsub" } else { "vadd" };
                format!("{o}({}, {p})", reg(x.rc))
            };
            let _ = writeln!(s, "let res = {res};");
            commit(s, x, "res");
        }
        unit::DIV if t.native64 => {
            let sgn = x.opn == op::SDIV;
            let (a, bm) = (reg(x.rn), reg(x.rm));
            let ext = |v: &str| {
                if !x.w {
                    v.to_string()
                } else if sgn {
                    format!("sext32(vlo({v}))")
                } else {
                    format!("vand({v}, vw(0xffffffffu, 0u))")
                }
            };
            let _ = writeln!(s, "let xd = {};\nlet yd = {};", ext(&a), ext(&bm));
            if sgn {
                s.push_str(
                    "let nx = top_bit(xd) == 1u;\nlet ny = top_bit(yd) == 1u;\n\
                     let ux = select(xd, vneg(xd), nx);\nlet uy = select(yd, vneg(yd), ny);\n",
                );
            } else {
                s.push_str("let nx = false;\nlet ny = false;\nlet ux = xd;\nlet uy = yd;\n");
            }
            s.push_str(
                "var q = ux / select(uy, vw(1u, 0u), veq(uy, vz()));\n\
                 if nx != ny { q = vneg(q); }\nlet res = select(q, vz(), veq(yd, vz()));\n",
            );
            commit(s, x, "res");
        }
        unit::ONE => {
            let a = reg(x.rn);
            let _ = writeln!(s, "let a = {a};\nlet lo = vlo(a);\nlet hi = vhi(a);");
            let res = match (x.opn, x.w) {
                (op::RBIT, false) => "vw(reverseBits(hi), reverseBits(lo))".to_string(),
                (op::RBIT, true) => "vw(reverseBits(lo), 0u)".to_string(),
                (op::REV16, _) => "vw(((lo >> 8u) & 0x00ff00ffu) | ((lo << 8u) & 0xff00ff00u), \
                                   ((hi >> 8u) & 0x00ff00ffu) | ((hi << 8u) & 0xff00ff00u))"
                    .to_string(),
                (op::REV32, _) => "vw(bswap(lo), bswap(hi))".to_string(),
                (op::REV64, _) => "vw(bswap(hi), bswap(lo))".to_string(),
                (op::CLZ, true) => "vw(countLeadingZeros(lo), 0u)".to_string(),
                (op::CLZ, false) => "vw(select(countLeadingZeros(hi), 32u + countLeadingZeros(lo), \
                                     hi == 0u), 0u)"
                    .to_string(),
                (op::CLS, true) => {
                    "vw(countLeadingZeros(lo ^ u32(i32(lo) >> 1u)) - 1u, 0u)".to_string()
                }
                _ => "vw(select(countLeadingZeros(vhi(vxor(a, vsar(a, 1u)))), 32u + \
                      countLeadingZeros(vlo(vxor(a, vsar(a, 1u)))), vhi(vxor(a, vsar(a, 1u))) == 0u) - 1u, 0u)"
                    .to_string(),
            };
            let _ = writeln!(s, "let res = {res};");
            commit(s, x, "res");
        }
        unit::SYS => {}
        _ => unreachable!("the translator takes no unit {}", x.unit),
    }
}

/// One access of `nb` bytes at `addr` through word index `i` (from xlat): a load into register
/// `rt`, or the store of it; then the step's end (the crossing stash serves one access).
/// `unal`: at any alignment inside its page ([`is_site`]).
fn access(s: &mut String, x: &Fields, tag: &str, i: &str, addr: &str, rt: u32, unal: bool) {
    access_words(s, x, tag, i, addr, &reg(rt), unal);
    if x.aux & mem::STORE == 0 {
        // The interpreter's commit truncates a W-form result.
        let v = if x.w {
            format!("vw(vlo(v{tag}), 0u)")
        } else {
            format!("v{tag}")
        };
        wr(s, rt, &v);
    }
}

/// Stores the low `nb` (1-8) bytes of the `V` `val` `k` bytes past address `addr` (at word `i`
/// of the pool) at any alignment inside its page.
fn store_any(s: &mut String, nb: u32, i: &str, addr: &str, k: u32, val: &str) {
    let _ = writeln!(s, "mstu({i}, vlo({addr}), {k}u, {nb}u, {val});");
}

// txlat admits only accesses aligned to their size inside one page: a word, a pair of words
// (one access of the tier's pool view), and a halfword or byte never straddles a word.

/// `nb` (1-8) bytes at word `i` of the pool (address `addr`), zero-extended to a `V`.
fn load_bytes(nb: u32, i: &str, addr: &str) -> String {
    match nb {
        8 => format!("mld64({i})"),
        4 => format!("vw(mld({i}), 0u)"),
        _ => format!(
            "vw((mld({i}) >> ((vlo({addr}) & 3u) * 8u)) & {}u, 0u)",
            if nb == 2 { 0xffff } else { 0xff }
        ),
    }
}

/// `nb` (1-8) bytes from `k` bytes past address `addr` (at word `i` of the pool) at any
/// alignment inside its page, zero-extended to a `V`.
fn load_any(nb: u32, i: &str, addr: &str, k: u32) -> String {
    format!("mldu({i}, vlo({addr}), {k}u, {nb}u)")
}

/// Stores the low `nb` (1-8) bytes of the `V` `val` at word `i` of the pool (address `addr`);
/// `tag` names its locals.
fn store_bytes(s: &mut String, nb: u32, tag: &str, i: &str, addr: &str, val: &str) {
    match nb {
        8 => {
            let _ = writeln!(s, "mst2({i}, vec2(vlo({val}), vhi({val})));");
        }
        4 => {
            let _ = writeln!(s, "mst({i}, vlo({val}));");
        }
        _ => {
            let m = if nb == 2 { 0xffff } else { 0xff };
            let _ = writeln!(
                s,
                "let sh{tag} = ((vlo({addr}) & 3u) * 8u);\n\
                 mst({i}, (mld({i}) & ~({m}u << sh{tag})) | ((vlo({val}) & {m}u) << sh{tag}));"
            );
        }
    }
}

fn access_words(s: &mut String, x: &Fields, tag: &str, i: &str, addr: &str, val: &str, unal: bool) {
    let nb = 1u32 << (x.aux & 3);
    let store = x.aux & mem::STORE != 0;
    if !store {
        let loaded = if unal {
            load_any(nb, i, addr, 0)
        } else {
            load_bytes(nb, i, addr)
        };
        let sb = 64 - nb * 8;
        let v = if x.aux & mem::SX64 != 0 {
            format!("vsar(vshl({loaded}, {sb}u), {sb}u)")
        } else if x.aux & mem::SX32 != 0 {
            format!("vw(vlo(vsar(vshl({loaded}, {sb}u), {sb}u)), 0u)")
        } else {
            loaded
        };
        let _ = writeln!(s, "let v{tag} = {v};");
        return;
    }
    if unal {
        store_any(s, nb, i, addr, 0, val);
    } else {
        store_bytes(s, nb, tag, i, addr, val);
    }
}

/// Instruction `i`'s address `ad{i}` and writeback value `wb{i}` from its base `a{i}`: the
/// integer memory unit's address generation, which the VMEM unit shares (`idx`: its indexing).
fn address(s: &mut String, x: &Fields, i: usize, idx: u32) {
    let _ = writeln!(s, "let a{i} = {};", reg(x.rn));
    let _ = writeln!(s, "var ad{i} = vz();\nvar wb{i} = vz();\n{{");
    operand_b(s, x);
    adder(s, x, &format!("a{i}"), &mut Fl::Made);
    let addr = if idx == mem::IDX_POST {
        format!("a{i}")
    } else {
        "sum".into()
    };
    let _ = writeln!(s, "ad{i} = {addr};\nwb{i} = sum;\n}}");
}

/// One V register `vt` loaded from or stored to `nb` bytes at word `i` of the pool (address
/// `addr`, aligned to its size up to 8; `tag` names its locals): the VMEM unit's whole-register
/// mode (a load zeroes the bytes above). Up to 8 bytes as the integer unit's accesses.
#[allow(clippy::too_many_arguments)]
fn vaccess(
    s: &mut String,
    nb: u32,
    store: bool,
    tag: &str,
    i: &str,
    addr: &str,
    vt: u32,
    unal: bool,
) {
    let v = vreg(vt);
    match (nb, store) {
        (16, false) if unal => {
            let _ = writeln!(
                s,
                "let l{tag} = {};\nlet h{tag} = {};\n{v} = vec4<u32>(vlo(l{tag}), vhi(l{tag}), vlo(h{tag}), vhi(h{tag}));",
                load_any(8, i, addr, 0),
                load_any(8, i, addr, 8)
            );
        }
        (_, false) if unal => {
            let _ = writeln!(
                s,
                "let l{tag} = {};\n{v} = vec4<u32>(vlo(l{tag}), vhi(l{tag}), 0u, 0u);",
                load_any(nb, i, addr, 0)
            );
        }
        (16, true) if unal => {
            let _ = writeln!(s, "let vv{tag} = {v};");
            store_any(s, 8, i, addr, 0, &format!("vw(vv{tag}.x, vv{tag}.y)"));
            store_any(s, 8, i, addr, 8, &format!("vw(vv{tag}.z, vv{tag}.w)"));
        }
        (_, true) if unal => {
            let _ = writeln!(s, "let vv{tag} = {v};");
            store_any(s, nb, i, addr, 0, &format!("vw(vv{tag}.x, vv{tag}.y)"));
        }
        (16, false) => {
            let _ = writeln!(s, "{v} = vec4<u32>(mld2({i}), mld2({i} + 2u));");
        }
        (16, true) => {
            let _ = writeln!(
                s,
                "let vv{tag} = {v};\nmst2({i}, vv{tag}.xy);\nmst2({i} + 2u, vv{tag}.zw);"
            );
        }
        (_, false) => {
            let _ = writeln!(
                s,
                "let l{tag} = {};\n{v} = vec4<u32>(vlo(l{tag}), vhi(l{tag}), 0u, 0u);",
                load_bytes(nb, i, addr)
            );
        }
        (_, true) => {
            let _ = writeln!(s, "let vv{tag} = {v};");
            store_bytes(s, nb, tag, i, addr, &format!("vw(vv{tag}.x, vv{tag}.y)"));
        }
    }
}

/// A memory access's writeback of its address to `rd` (pre- and post-index; `rd` is the sink
/// otherwise).
fn writeback(s: &mut String, x: &Fields, i: usize, idx: u32) {
    let wbv = if idx != 0 {
        format!("wb{i}")
    } else {
        "vz()".into()
    };
    wr(s, x.rd, &wbv);
}

/// The VEC forms the translator takes: each compiles to a few word moves (the interpreter's
/// general permute and lane stages, inlined with constants, cost lavapipe ~0.5 s of compile per
/// instruction).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VecForm {
    /// MOVI, MVNI (`L_MOVB`), and ORR and BIC (vector, immediate).
    Imm(u32),
    /// DUP (element, vector) and DUP (general).
    Dup,
    /// UMOV, SMOV, FMOV to a general register.
    ToGpr,
    /// INS (element and general), FMOV from a general register.
    Ins,
    /// The rest of the VEC unit's recipes (compares, arithmetic, pairwise and across-lanes
    /// operations, narrowing and widening, permutes): [`super::simd`].
    General,
}

fn vec_form(d: &Decoded) -> Option<VecForm> {
    let c0 = d.w[0];
    let kind = (c0 >> vec::PKIND_SHIFT) & 15;
    let lop = (c0 >> vec::LOP_SHIFT) & 31 | if c0 & vec::LOP_HI != 0 { 32 } else { 0 };
    let bsel = (c0 >> vec::BSEL_SHIFT) & 3;
    let esz = (c0 >> vec::ESZ_SHIFT) & 3;
    let general = || super::simd::takes(d.op(), c0, d.rc()).then_some(VecForm::General);
    if c0 & (vec::SCALAR | vec::PART) != 0 {
        return general();
    }
    match d.op() {
        vec::R_LANE
            if bsel == vec::B_IMM
                && esz == 3
                && matches!(lop, vec::L_MOVB | vec::L_ORR | vec::L_BIC) =>
        {
            Some(VecForm::Imm(lop))
        }
        vec::R_PERM if kind == vec::P_DUP && c0 & vec::KEEP == 0 => Some(VecForm::Dup),
        vec::R_PERM if kind == vec::P_INS => Some(VecForm::Ins),
        vec::R_TOGPR if kind == vec::P_DUP => Some(VecForm::ToGpr),
        _ => general(),
    }
}

/// Element `k` of `2^pesz` bytes of the `vec4<u32>` `v`, zero-extended to a `V`.
fn element(v: &str, k: u32, pesz: u32) -> String {
    match pesz {
        3 => format!("vw({v}[{}], {v}[{}])", 2 * k, 2 * k + 1),
        2 => format!("vw({v}[{k}], 0u)"),
        1 => format!("vw(({v}[{}] >> {}u) & 0xffffu, 0u)", k / 2, 16 * (k % 2)),
        _ => format!("vw(({v}[{}] >> {}u) & 0xffu, 0u)", k / 4, 8 * (k % 4)),
    }
}

/// One VEC instruction of a [`VecForm`] (`x`: its fields, `w`: its decoded words).
fn vec_insn(s: &mut String, x: &Fields, w: &[u32], form: VecForm, i: usize) {
    if form == VecForm::General {
        let insn = super::simd::Insn {
            opn: x.opn,
            c0: x.c0,
            rd: x.rd,
            rn: x.rn,
            rm: x.rm,
            k1: x.rc & 63,
            k2: x.rc2 & 63,
            imm: (w[2], w[3]),
            xn: reg(x.rn),
        };
        super::simd::emit(s, &insn, i);
        return;
    }
    let c0 = x.c0;
    let q = c0 & vec::Q != 0;
    let pesz = (c0 >> vec::PESZ_SHIFT) & 3;
    let k1 = x.rc & 63;
    let k2 = x.rc2 & 63;
    let gpr = c0 & vec::GPR != 0;
    // Vn, where the form reads it (not from a general register, nor MOVI's constant).
    let reads_vn = match form {
        VecForm::Imm(lop) => lop != vec::L_MOVB,
        VecForm::ToGpr => true,
        VecForm::Dup | VecForm::Ins => !gpr,
        VecForm::General => unreachable!("emitted above"),
    };
    s.push_str("{\n");
    if reads_vn {
        let _ = writeln!(s, "let vn{i} = {};", vreg(x.rn));
    }
    // The source element as a V: Xn's low element, or element `k` of Vn.
    let src = |k: u32| {
        if gpr {
            reg(x.rn)
        } else {
            element(&format!("vn{i}"), k, pesz)
        }
    };
    let out = match form {
        VecForm::ToGpr => {
            let bits = 8u32 << pesz;
            let e = element(&format!("vn{i}"), k1, pesz);
            let e = if c0 & vec::SIGNED != 0 && bits < 64 {
                format!("vsar(vshl({e}, {}u), {}u)", 64 - bits, 64 - bits)
            } else {
                e
            };
            let e = if x.w { format!("vw(vlo({e}), 0u)") } else { e };
            wr(s, x.rd, &e);
            s.push_str("}\n");
            return;
        }
        VecForm::Imm(lop) => {
            let (lo, hi) = (w[2], w[3]);
            let b = format!("vec4<u32>({lo}u, {hi}u, {lo}u, {hi}u)");
            match lop {
                vec::L_ORR => format!("vn{i} | {b}"),
                vec::L_BIC => format!("vn{i} & ~{b}"),
                _ => b,
            }
        }
        VecForm::Dup => {
            let _ = writeln!(s, "let e{i} = {};", src(k1));
            match pesz {
                3 => format!("vec4<u32>(vlo(e{i}), vhi(e{i}), vlo(e{i}), vhi(e{i}))"),
                2 => format!("vec4<u32>(vlo(e{i}))"),
                1 => format!("vec4<u32>((vlo(e{i}) & 0xffffu) * 0x10001u)"),
                _ => format!("vec4<u32>((vlo(e{i}) & 0xffu) * 0x01010101u)"),
            }
        }
        VecForm::Ins => {
            let base = if c0 & vec::KEEP != 0 {
                vreg(x.rd)
            } else {
                "vec4<u32>(0u)".into()
            };
            let _ = writeln!(s, "let e{i} = {};\nvar o{i} = {base};", src(k2));
            match pesz {
                3 => {
                    let _ = writeln!(
                        s,
                        "o{i}[{}] = vlo(e{i});\no{i}[{}] = vhi(e{i});",
                        2 * k1,
                        2 * k1 + 1
                    );
                }
                2 => {
                    let _ = writeln!(s, "o{i}[{k1}] = vlo(e{i});");
                }
                _ => {
                    let (m, per) = if pesz == 1 { (0xffffu32, 2) } else { (0xff, 4) };
                    let (wd, sh) = (k1 / per, (k1 % per) * (32 / per));
                    let _ = writeln!(
                        s,
                        "o{i}[{wd}] = (o{i}[{wd}] & ~({m}u << {sh}u)) | ((vlo(e{i}) & {m}u) << {sh}u);"
                    );
                }
            }
            format!("o{i}")
        }
        VecForm::General => unreachable!("emitted above"),
    };
    // A 64-bit vector's upper half is zeroed.
    let out = if q {
        out
    } else {
        format!("({out}) & vec4<u32>(~0u, ~0u, 0u, 0u)")
    };
    let _ = writeln!(s, "{} = {out};\n}}", vreg(x.rd));
}

/// A region to translate: its page's decoded instructions and where it lies.
pub struct Source<'a> {
    pub page: u64,
    pub code: &'a [Decoded],
    pub slot: u32,
    pub start: u64,
    pub end: u64,
    /// Loads and stores seen to leave translated code for being misaligned (their pcs,
    /// sorted): those in the region access any alignment inside a page ([`is_site`]).
    pub unaligned: &'a [u64],
}

/// Whether instruction `k` of the region (`code`) is a load or store the host saw leave
/// translated code misaligned (`Source::unaligned`): it then accesses any alignment inside a
/// page, through the pool's doublewords around it (`mldu`, `mstu`: two accesses where an
/// aligned one makes one, so only where misaligned addresses were seen: at every load, glibc's
/// hot set took 70% longer to compile).
fn is_site(src: &Source, code: &[Decoded], k: usize) -> bool {
    accesses_any(&code[k])
        && src
            .unaligned
            .binary_search(&(src.start + 4 * k as u64))
            .is_ok()
}

/// The accesses to take at any alignment once the one at `pc` was seen failing for its
/// alignment in the region `[start, end)` of the page at `page` (`code`): it, the other
/// accesses of the innermost loop around it, and those through the same base register. A
/// failing access leaves the region, so the next one of the same pass is only seen after a
/// recompile
/// (unaligned.c's five loads of one trip took five; glibc's strlen loads two doubleword pairs
/// through x0, outside any loop).
pub fn siblings(page: u64, code: &[Decoded], start: u64, end: u64, pc: u64) -> Vec<u64> {
    let at = |q: u64| &code[((q - page) / 4) as usize];
    if pc < start || pc >= end || !accesses_any(at(pc)) {
        return Vec::new();
    }
    let base = fields(at(pc)).rn;
    let (a, b) = super::loops(page, code, &[])
        .into_iter()
        .filter(|l| l.start <= pc && pc < l.end)
        .min_by_key(|l| l.end - l.start)
        .map_or((pc, pc + 4), |l| (l.start, l.end));
    (start..end)
        .step_by(4)
        .filter(|&q| accesses_any(at(q)) && ((a <= q && q < b) || fields(at(q)).rn == base))
        .collect()
}

/// Whether `d` is a load or store the translator can take at any alignment (as a site), and
/// one that can be misaligned at all (more than a byte).
pub fn accesses_any(d: &Decoded) -> bool {
    let a = d.aux();
    match d.unit() {
        unit::MEM => a & (mem::PRFM | mem::EXCL) == 0 && (a & 3 != 0 || a & mem::PAIR != 0),
        unit::VMEM => true,
        _ => false,
    }
}

/// Translates a region into `fn region_{k}(ib: u32)`: entered where the lane's pc is a block
/// start of the region (and its code map names the region's slot), it runs until it leaves,
/// `ib` instructions of the dispatch are spent, or the loop limiter's budget is.
pub fn translate(k: usize, src: &Source, t: Target) -> Translation {
    let first = ((src.start - src.page) / 4) as usize;
    let len = ((src.end - src.start) / 4) as usize;
    let code = &src.code[first..first + len];
    // Block leaders: the entry, the targets of direct branches inside, and whatever follows a
    // branch or an instruction the interpreter runs (where a lane comes back to the region).
    let mut leader = vec![false; len + 1];
    leader[0] = true;
    leader[len] = true;
    let mut regs = std::collections::BTreeSet::new();
    let mut translated = 0;
    for (j, d) in code.iter().enumerate() {
        let x = fields(d);
        if !takes(d, t) {
            leader[j + 1] = true;
            continue;
        }
        translated += 1;
        regs.extend(regs_of(d));
        if let Some(body) = leaf(src, d, t) {
            regs.extend(body.iter().flat_map(regs_of));
        }
        if x.unit == unit::BR {
            leader[j + 1] = true;
            if let Some(tj) = inside(src, x.imm, x.opn) {
                leader[tj] = true;
            }
        }
    }
    // Natural loops inside (a taken backward branch and its target), properly nested, become
    // loops of their own: a trip of an inner loop then runs only its blocks (lavapipe runs
    // every block of a loop's body on each trip, under a mask).
    let mut inner: Vec<(usize, usize)> = Vec::new();
    // Whether the region can run long per entry: a loop, or a call to itself (recursion).
    let mut loops = false;
    // The region is one loop (its last instruction branches back to its first).
    let mut whole = false;
    for (i, d) in code.iter().enumerate() {
        let x = fields(d);
        if x.unit == unit::BR && takes(d, t) {
            if let Some(tj) = inside(src, x.imm, x.opn) {
                loops |= tj <= i;
                whole |= tj == 0 && i + 1 == len && x.opn != op::BL;
                if tj <= i && x.opn != op::BL && (tj, i + 1) != (0, len) {
                    inner.push((tj, i + 1));
                }
            }
        }
    }
    inner.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    inner.dedup();
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for l in inner {
        let fits = kept
            .iter()
            .all(|k| l.1 <= k.0 || k.1 <= l.0 || (k.0 <= l.0 && l.1 <= k.1));
        if fits {
            kept.push(l);
        }
    }
    // Accesses that defer a missing page entry (`txlat`'s XLAT_FILL) to their loop: those of
    // tight loops (innermost, with direct branches only), where a load of the entry inline
    // costs every trip a lane-by-lane loop on lavapipe; the loop's wrapper loads it once per
    // miss and per entry instead. Elsewhere, where the loop is entered as often as it turns
    // (calls and returns run through its wrapper), the access loads it inline. Each runs again
    // from its own start, so each starts a block: all but a group's later members (their
    // head makes the translation).
    // A region that is one tight loop defers too, its wrapper around the region's own loop.
    let mut tight = kept.clone();
    if whole && kept.is_empty() {
        tight.push((0, len));
    }
    let solo: Vec<bool> = (0..len).map(|k| is_site(src, code, k)).collect();
    let defer = deferring(code, &leader, &tight, &solo, t);
    let wrap = whole && kept.is_empty() && defer.iter().any(|&d| d);
    for (i, &d) in defer.iter().enumerate() {
        leader[i] |= d;
    }
    let mut body = String::new();
    blocks(&mut body, src, code, &leader, &defer, &kept, (0, len), 0, t);
    let mut s = String::new();
    let (lo, hi) = (src.start as u32, (src.start >> 32) as u32);
    let _ = writeln!(s, "fn region_{k}(ib: u32) {{");
    let _ = writeln!(
        s,
        "let rel = vsub(g_pc, vw({lo}u, {hi}u));\n\
         if vhi(rel) != 0u || vlo(rel) >= {}u || (vlo(rel) & 3u) != 0u \
         || g_status != ST_RUNNING || g_executed >= ib {{ return; }}\n\
         let cm = vsub(g_pc, g_code_base);\n\
         if vhi(cm) != 0u || (vlo(cm) >> 12u) >= P.map_pages \
         || codemap[g_inst * P.map_pages + (vlo(cm) >> 12u)] != {}u {{ return; }}",
        4 * len,
        src.slot
    );
    for r in &regs {
        let _ = writeln!(s, "var r{r} = R[{r}];");
    }
    s.push_str(&format!(
        "var nz = g_nzcv;\nvar fl = false;\nvar fa = vz();\nvar fb = vz();\nvar fs = vz();\nvar o = vlo(rel) >> 2u;\nvar n = 0u;\nlet cap = ib - g_executed;\n\
         let kz = vw(P.zero, P.zero);\nvar live = true;\nvar out = false;\nvar pcx = vz();\nvar fill = false;\n\
         {}loop {{\nif !live || g_ticks >= TICK_MAX {{ break; }}\ng_ticks = g_ticks + 1u;\nvar moved0 = false;\n",
        if wrap { "loop {\n" } else { "" }
    ));
    s.push_str(&body);
    s.push_str("if !moved0 { live = false; }\n}\n");
    if wrap {
        s.push_str(FILL);
    }
    let _ = writeln!(
        s,
        "g_executed = g_executed + n;\ng_tier_n = g_tier_n + n;\nif !out {{ pcx = vadd(vw({lo}u, {hi}u), vw(o << 2u, 0u)); }}\n\
         g_pc = pcx;\ng_nzcv = select(nz, flags3(fa, fb, fs), fl);"
    );
    for r in &regs {
        let _ = writeln!(s, "R[{r}] = r{r};");
    }
    s.push_str("}\n");
    let entries = (0..len)
        .filter(|&j| leader[j] && takes(&code[j], t))
        .map(|j| (src.start + 4 * j as u64, code[j].w[1]))
        .collect();
    Translation {
        start: src.start,
        end: src.end,
        slot: src.slot,
        wgsl: s,
        translated,
        entries,
        loops,
        regs: regs.into_iter().collect(),
        // (A saturating SIMD operation sets FPSR.QC.)
        fp: code.iter().any(|d| {
            d.unit() == unit::FP || (d.unit() == unit::VEC && super::simd::saturates(d.w[0]))
        }),
        sites: (0..len)
            .filter(|&k| is_site(src, code, k))
            .map(|k| src.start + 4 * k as u64)
            .collect(),
    }
}

/// The start of access `i`'s translated part (`done` steps into its block): where `x{i}`, its
/// translation, failed, the lane leaves the region before it (the interpreter runs it) or, for
/// a deferred page entry, leaves the loop for its wrapper to load the entry.
fn leave(defer: bool, done: usize, i: usize) -> String {
    if defer {
        format!(
            "if x{i} == XLAT_FILL {{ {} }} else if x{i} == XLAT_RETRY {{ n = n + {done}u; o = {i}u; live = false; }} else {{",
            again(done, i)
        )
    } else {
        format!("if x{i} == XLAT_RETRY {{ n = n + {done}u; o = {i}u; live = false; }} else {{")
    }
}

/// Leaves the loop to run access `i` again once its wrapper has loaded the page entry.
fn again(done: usize, i: usize) -> String {
    format!("n = n + {done}u; o = {i}u; live = false; fill = true;")
}

/// Per instruction: an access that defers a missing page entry to its loop (see `translate`).
fn deferring(
    code: &[Decoded],
    leader: &[bool],
    loops: &[(usize, usize)],
    solo: &[bool],
    t: Target,
) -> Vec<bool> {
    let mut defer = vec![false; code.len()];
    for &(a, b) in loops {
        let leaf = !loops.iter().any(|l| *l != (a, b) && a <= l.0 && l.1 <= b);
        let direct = code[a..b].iter().all(|d| {
            d.unit() != unit::BR
                || matches!(
                    d.op(),
                    op::B | op::BCOND | op::BZERO | op::BNONZERO | op::BTZ | op::BTNZ
                )
        });
        if !leaf || !direct {
            continue;
        }
        // The loop's blocks by the leaders so far: a group's members after its head share the
        // head's translation.
        let mut j = a;
        while j < b {
            let mut e = j + 1;
            while e < b && !leader[e] {
                e += 1;
            }
            let (gs, group_of) = groups(code, j, e, solo, t);
            for i in j..e {
                defer[i] = accesses(&code[i]) && takes(&code[i], t) && group_of[i].is_none();
            }
            for g in gs {
                defer[g.head] = true;
            }
            j = e;
        }
    }
    defer
}

/// The end of the wrapper of a loop whose accesses defer: one that deferred its page entry
/// (`txlat`'s XLAT_FILL) left the loop with `fill`; the entry is loaded here, off the loop's
/// trips, and the loop goes on at that access.
const FILL: &str = "if !fill { break; }\nfill = false;\nlive = true;\ntier_fill();\n}\n";

/// The instruction index of a direct branch's target inside the region, if it is one.
fn inside(src: &Source, imm: u64, opn: u32) -> Option<usize> {
    if !matches!(
        opn,
        op::B | op::BL | op::BCOND | op::BZERO | op::BNONZERO | op::BTZ | op::BTNZ
    ) {
        return None;
    }
    // The interpreter branches to the immediate's low word (shaders/cpu/branch.wgsl).
    let t = imm & 0xffff_ffff;
    (t >= src.start && t < src.end && t & 3 == 0).then(|| ((t - src.start) / 4) as usize)
}

/// Instructions a callee inlined at a call may hold at most.
const LEAF_MAX: usize = 12;

/// The body of the callee of `d` where it can run inline at the call: a BL to code of the same
/// page outside the region that is straight-line register arithmetic the translator takes (no
/// memory access, branch or FP/SIMD: nothing in it leaves the region) ending in a return
/// through an x30 it never writes. A call into another region leaves the caller's loop and
/// comes back through its whole loop of blocks, each block under a mask on lavapipe: glibc's
/// string test calls a 5-instruction `mix` from loops of a 182-instruction `main` and ran
/// 0.9 M instructions/s translated. (Same page: the region's slot check covers the callee's
/// bytes too.)
fn leaf<'a>(src: &Source<'a>, d: &Decoded, t: Target) -> Option<&'a [Decoded]> {
    let x = fields(d);
    if x.unit != unit::BR || x.opn != op::BL || inside(src, x.imm, x.opn).is_some() {
        return None;
    }
    let target = x.imm & 0xffff_ffff;
    if target & 3 != 0 || target < src.page || target - src.page >= 4 * src.code.len() as u64 {
        return None;
    }
    let first = ((target - src.page) / 4) as usize;
    for (k, c) in src.code[first..].iter().enumerate().take(LEAF_MAX + 1) {
        let cx = fields(c);
        if cx.unit == unit::BR {
            let ret = cx.opn == op::BREG && cx.rn == 30 && cx.rd != 30;
            return ret.then(|| &src.code[first..first + k]);
        }
        if !takes(c, t)
            || matches!(cx.unit, unit::MEM | unit::VMEM | unit::VEC | unit::FP)
            || writes(c).any(|r| r == 30)
        {
            return None;
        }
    }
    None
}

/// Steps an instruction counts as: the interpreter counts each micro-step, so a pair is two,
/// and a VEC recipe its steps (ADDP, UMAXP: two; ADDV of 16 bytes: four).
fn weight(d: &Decoded) -> usize {
    let pair = match d.unit() {
        unit::MEM => d.aux() & mem::PAIR != 0,
        unit::VMEM => return vmem_regs(d.aux()) as usize,
        unit::VEC => return super::simd::steps(d.op(), d.w[0], d.rc()).unwrap_or(1) as usize,
        // FDIV and FSQRT: their bit steps, then the rounding step; a vector form a step per
        // lane.
        unit::FP => return fp_steps(d),
        _ => false,
    };
    if pair {
        2
    } else {
        1
    }
}

/// The V registers a VMEM access moves, a step each in the interpreter: two for a pair, 1-4
/// for LD1/ST1 (multiple structures, consecutive registers at consecutive addresses).
fn vmem_regs(aux: u32) -> u32 {
    if aux & vmem::PAIR != 0 {
        2
    } else {
        ((aux >> vmem::NREGS_SHIFT) & 3) + 1
    }
}

/// An FP instruction: the interpreter's FP unit (shaders/cpu/fp.wgsl) with its configuration
/// as constants, through the same soft-float functions (fp_fns.wgsl, in the tier's shader where
/// a region has one), so results and FPSR's flags are the interpreter's. A vector form runs its
/// lanes one after the other as the unit's steps do, gathering them in `acc` (the unit's
/// scratch register VT2) until the last writes Vd.
fn fp_insn(s: &mut String, x: &Fields, fs: &mut Fl) {
    let a = x.aux;
    let dbl = a & fp::DBL != 0;
    let widen = a & fp::WIDEN != 0;
    let narrow = a & fp::NARROW != 0;
    // Element `k` of a V register's words `v`, as the unit reads its operands.
    let elem = |v: &str, k: u32| {
        if dbl {
            format!("vw({v}[{}u], {v}[{}u])", (2 * k) & 3, (2 * k + 1) & 3)
        } else {
            format!("vw({v}[{}u], 0u)", k & 3)
        }
    };
    // The condition of FCCMP and FCSEL is read before FCCMP sets the flags.
    let c = matches!(x.opn, fp::CCMP | fp::CSEL).then(|| cond(s, x.cond, fs));
    s.push_str("{\n");
    let two = matches!(
        x.opn,
        fp::ADD
            | fp::SUB
            | fp::MUL
            | fp::CMP
            | fp::CCMP
            | fp::CSEL
            | fp::MINMAX
            | fp::FMA
            | fp::DIV
    );
    if a & fp::VECTOR == 0 {
        if x.opn != fp::CVTF {
            let _ = writeln!(s, "let vn = {};", vreg(x.rn));
            let _ = writeln!(s, "let xa = {};", elem("vn", 0));
        }
        if two {
            let xb = if a & fp::ZERO != 0 {
                "vz()".to_string()
            } else {
                let _ = writeln!(s, "let vm = {};", vreg(x.rm));
                elem("vm", 0)
            };
            let _ = writeln!(s, "let xb = {xb};");
        }
        if x.opn == fp::FMA {
            let _ = writeln!(s, "let vc = {};\nlet xc = {};", vreg(x.rc), elem("vc", 0));
        }
        s.push_str("g_fpx = 0u;\n");
        let out = fp_op(s, x, c.as_deref(), false);
        match x.opn {
            fp::CMP | fp::CCMP => {
                if x.c0 & f::S != 0 {
                    let _ = writeln!(s, "nz = {out};\nfl = false;");
                    *fs = Fl::Made;
                }
            }
            fp::CVTI => commit(s, x, "r"),
            _ => {
                let hi = if fp_out_dbl(x) { "vhi(r)" } else { "0u" };
                let _ = writeln!(s, "{} = vec4<u32>(vlo(r), {hi}, 0u, 0u);", vreg(x.rd));
            }
        }
        s.push_str("g_fpsr = g_fpsr | g_fpx;\n}\n");
        return;
    }
    let q = a & fp::Q != 0;
    let one = a & fp::ONE != 0;
    let across = a & fp::ACROSS != 0;
    let pairw = a & fp::PAIRW != 0;
    let nlanes = fp_lanes(a);
    let _ = writeln!(
        s,
        "let vn = {};\nlet vm = {};\nlet vc = {};",
        vreg(x.rn),
        vreg(x.rm),
        vreg(x.rd)
    );
    // FCVTN2 keeps Vd's low half and fills the high one.
    let keep_lo = narrow && q;
    if keep_lo {
        s.push_str("var acc = vec4<u32>(vc.x, vc.y, 0u, 0u);\n");
    } else {
        s.push_str("var acc = vec4<u32>(0u);\n");
    }
    for lane in 0..nlanes {
        s.push_str("{\n");
        // FCVTL2 reads the upper two binary32 lanes.
        let al = if widen && q { lane + 2 } else { lane };
        let ml = if a & fp::BYELEM != 0 {
            (a >> fp::ELEM_SHIFT) & 3
        } else {
            lane
        };
        let (xa, xm) = if across && lane == 2 {
            // The pair of the two pairwise lanes gathered so far.
            ("vw(acc.x, 0u)".to_string(), "vw(acc.y, 0u)".to_string())
        } else if pairw {
            // Elements 2l and 2l+1 of Vn:Vm (of Vn alone for the scalar form).
            let per = if one {
                2
            } else if across {
                4
            } else {
                nlanes
            };
            let pick = |k: u32| {
                if k < per {
                    elem("vn", k)
                } else {
                    elem("vm", k - per)
                }
            };
            (pick(2 * lane), pick(2 * lane + 1))
        } else {
            (elem("vn", al), elem("vm", ml))
        };
        let xb = if a & fp::ZERO != 0 {
            "vz()".to_string()
        } else {
            xm
        };
        let _ = writeln!(
            s,
            "let xa = {xa};\nlet xb = {xb};\nlet xc = {};\ng_fpx = 0u;",
            elem("vc", lane)
        );
        fp_op(s, x, None, true);
        if narrow {
            let k = lane + if keep_lo { 2 } else { 0 };
            let _ = writeln!(s, "acc[{}u] = vlo(r);", k & 3);
        } else if dbl || widen {
            let _ = writeln!(
                s,
                "acc[{}u] = vlo(r);\nacc[{}u] = vhi(r);",
                (2 * lane) & 3,
                (2 * lane + 1) & 3
            );
        } else {
            let _ = writeln!(s, "acc[{}u] = vlo(r);", lane & 3);
        }
        if across && lane == 2 {
            s.push_str("acc = vec4<u32>(vlo(r), 0u, 0u, 0u);\n");
        }
        s.push_str("g_fpsr = g_fpsr | g_fpx;\n}\n");
    }
    let _ = writeln!(s, "{} = acc;\n}}", vreg(x.rd));
}

/// Whether an FP instruction's result is a binary64 (else binary32 or binary16).
fn fp_out_dbl(x: &Fields) -> bool {
    let a = x.aux;
    let dbl = a & fp::DBL != 0;
    if a & fp::HALF != 0 {
        dbl && a & fp::WIDEN != 0
    } else {
        dbl != (x.opn == fp::CVT)
    }
}

/// The operation of an FP instruction on `xa`, `xb` and `xc` (declared by the caller; `c` the
/// condition of FCCMP and FCSEL): leaves its result in `r`, or returns the NZCV of a compare.
/// `vecm`: a vector lane (conversions to integers stay in the lane; FCMEQ and the like).
fn fp_op(s: &mut String, x: &Fields, c: Option<&str>, vecm: bool) -> String {
    let a = x.aux;
    let dbl = a & fp::DBL != 0;
    let half = a & fp::HALF != 0;
    let widen = a & fp::WIDEN != 0;
    let narrow = a & fp::NARROW != 0;
    let signed = a & fp::SIGNED != 0;
    let i64 = a & fp::I64 != 0;
    let fbits = (a >> fp::FBITS_SHIFT) & 127;
    let rm = (a >> fp::RM_SHIFT) & 7;
    // The call whose result is rounded, where the operation rounds.
    let mut pr: Option<String> = None;
    let mut flags = String::new();
    match x.opn {
        fp::ADD | fp::SUB => pr = Some(format!("fp_add(xa, xb, {dbl}, {})", x.opn == fp::SUB)),
        fp::MUL => pr = Some(format!("fp_mul(xa, xb, {dbl})")),
        fp::CMP | fp::CCMP => {
            let _ = writeln!(s, "let f = fp_compare(xa, xb, {dbl}, {});", a & fp::E != 0);
            flags = match c {
                Some(c) => {
                    let _ = writeln!(s, "if !{c} {{ g_fpx = 0u; }}");
                    format!("select({}u, f, {c})", x.imm & 15)
                }
                None => "f".into(),
            };
        }
        fp::VCMP => {
            // FCMEQ (quiet), FCMGE, FCMGT, FCMLT, FCMLE (signalling): a lane of ones or zeros.
            let t = match rm {
                0 => "f == 6u",
                1 => "f == 2u || f == 6u",
                2 => "f == 2u",
                3 => "f == 8u",
                _ => "f == 8u || f == 6u",
            };
            let ones = if dbl { "vw(~0u, ~0u)" } else { "vw(~0u, 0u)" };
            let _ = writeln!(
                s,
                "let f = fp_compare(xa, xb, {dbl}, {});\nvar r = select(vz(), {ones}, {t});",
                rm != 0
            );
        }
        fp::CSEL => {
            let _ = writeln!(s, "var r = select(xb, xa, {});", c.unwrap_or("true"));
        }
        fp::CVTF => {
            let src = if vecm { "xa".to_string() } else { reg(x.rn) };
            pr = Some(format!(
                "fp_from_int({src}, {signed}, {i64}, {dbl}, {fbits}u)"
            ))
        }
        fp::CVTI => {
            let _ = writeln!(
                s,
                "var r = fp_to_int(xa, {dbl}, {rm}u, {signed}, {i64}, {fbits}u);"
            );
        }
        fp::CVT => {
            pr = Some(if !half {
                format!("fp_convert(xa, {dbl})")
            } else if widen {
                format!("fp_from_half(vlo(xa) & 0xffffu, {dbl})")
            } else {
                format!("fp_to_half(xa, {dbl})")
            })
        }
        fp::MINMAX => {
            pr = Some(format!(
                "fp_minmax(xa, xb, {dbl}, {}, {})",
                a & fp::MAX != 0,
                a & fp::NM != 0
            ))
        }
        fp::RINT => {
            let mode = if rm == 7 {
                "((g_fpcr >> 22u) & 3u)".to_string()
            } else {
                format!("{rm}u")
            };
            pr = Some(format!(
                "fp_rint(xa, {dbl}, {mode}, {})",
                a & fp::EXACT != 0
            ))
        }
        // The interpreter's steps one after the other, its scratch register VT a local.
        fp::DIV => {
            let _ = writeln!(
                s,
                "let ua = fp_unpack(xa, {dbl});\nlet ub = fp_unpack(xb, {dbl});\nvar st = array<V, 2>(vz(), vz());"
            );
            for k in 0..fp::DIV_STEPS {
                let _ = writeln!(
                    s,
                    "st = fp_div_bits({k}u, vshr(ua.m, 10u), vshr(ub.m, 10u), st);"
                );
            }
            pr = Some(format!("fp_div_final(xa, ua, xb, ub, st, {dbl})"));
        }
        fp::SQRT => {
            let _ = writeln!(
                s,
                "let ua = fp_unpack(xa, {dbl});\nvar st = array<V, 2>(vz(), vz());"
            );
            for k in 0..fp::SQRT_STEPS {
                let _ = writeln!(s, "st = fp_sqrt_bits({k}u, fp_sqrt_m(ua), st);");
            }
            pr = Some(format!("fp_sqrt_final(xa, ua, st, {dbl})"));
        }
        fp::FMA => {
            pr = Some(format!(
                "fp_fma(xa, xb, xc, {dbl}, {}, {})",
                a & fp::NEG != 0,
                a & fp::NEG_C != 0
            ))
        }
        _ => unreachable!("the FP unit has no other operation"),
    }
    if let Some(call) = pr {
        // Rounded only where the operation did not finish it (a NaN, an infinity): fp_round
        // raises FPSR's flags.
        let _ = writeln!(
            s,
            "let pr = {call};\nvar r = pr.bits;\nif !pr.done {{ r = fp_round(pr.s, pr.e, pr.m, {}, {}); }}",
            fp_out_dbl(x),
            half && narrow
        );
    }
    // FNMUL negates the rounded product; FABD clears the difference's sign.
    if x.opn == fp::MUL && a & fp::NEG != 0 {
        let _ = writeln!(s, "r = vxor(r, fp_sign(1u, {dbl}));");
    }
    // (Not into NZCV, nor into the general register a scalar conversion already took.)
    let to_gpr = x.opn == fp::CVTI && !vecm;
    if a & fp::ABS != 0 && !matches!(x.opn, fp::CMP | fp::CCMP) && !to_gpr {
        let _ = writeln!(s, "r = vand(r, vnot(fp_sign(1u, {dbl})));");
    }
    flags
}

/// The blocks of `[lo, hi)`, at loop depth `depth`, with the inner loops (`loops`, nested or
/// disjoint) inside it as loops of their own.
#[allow(clippy::too_many_arguments)]
fn blocks(
    s: &mut String,
    src: &Source,
    code: &[Decoded],
    leader: &[bool],
    defer: &[bool],
    loops: &[(usize, usize)],
    (lo, hi): (usize, usize),
    depth: usize,
    t: Target,
) {
    let mut j = lo;
    while j < hi {
        // The outermost inner loop starting here (the list is sorted by start, longest first).
        if let Some(&(a, b)) = loops
            .iter()
            .find(|l| l.0 == j && l.1 <= hi && (l.0, l.1) != (lo, hi))
        {
            let d = depth + 1;
            let sub: Vec<(usize, usize)> = loops
                .iter()
                .copied()
                .filter(|l| l.0 >= a && l.1 <= b && *l != (a, b))
                .collect();
            // Only tight loops defer, and those hold no loop: an outer loop's wrapper would
            // cost every entry (a call and its return each pass one) and never fill.
            let wrap = sub.is_empty() && defer[a..b].iter().any(|&x| x);
            let _ = writeln!(
                s,
                "if live && o >= {a}u && o < {b}u {{\nmoved{depth} = true;\n{}loop {{\n\
                 if !live || g_ticks >= TICK_MAX {{ break; }}\ng_ticks = g_ticks + 1u;\n\
                 var moved{d} = false;",
                if wrap { "loop {\n" } else { "" }
            );
            blocks(s, src, code, leader, defer, &sub, (a, b), d, t);
            let _ = writeln!(
                s,
                "if !moved{d} {{ live = false; }}\nif o < {a}u || o >= {b}u {{ break; }}\n}}\n{}}}",
                if wrap { FILL } else { "" }
            );
            j = b;
            continue;
        }
        let mut e = j + 1;
        while !leader[e] {
            e += 1;
        }
        block(s, src, code, defer, j, e, depth, t);
        j = e;
    }
}

/// The registers an instruction writes (x0-x30, SP): its destination, and a load's targets.
fn writes(d: &Decoded) -> impl Iterator<Item = u32> {
    let x = fields(d);
    let load = x.unit == unit::MEM && x.aux & (mem::STORE | mem::PRFM) == 0;
    let pair = x.aux & mem::PAIR != 0;
    [
        Some(x.rd),
        load.then_some(x.rc),
        (load && pair).then_some(x.rc2),
    ]
    .into_iter()
    .flatten()
    .filter(|&r| r <= R_SP)
}

/// A base-plus-immediate access of words or doublewords (or pairs of them) without writeback:
/// its byte offset.
fn plain_offset(x: &Fields) -> Option<i64> {
    let simple = x.unit == unit::MEM
        && x.aux & (mem::PRFM | mem::EXCL) == 0
        && (x.aux >> mem::IDX_SHIFT) & 3 == mem::IDX_OFFSET
        && x.aux & mem::SIZE_MASK >= 2
        && !x.w
        && (x.c0 >> f::BSRC_SHIFT) & 3 == bsrc::IMM
        && (x.c0 >> f::EXT_SHIFT) & 7 == ext::NONE
        && (x.c0 >> f::SHT_SHIFT) & 3 == sht::LSL
        && (x.c0 >> f::SHAMT_SHIFT) & 63 == 0
        && x.c0 & (f::INVB | f::SHVAR) == 0
        && (x.c0 >> f::CIN_SHIFT) & 3 == cin::ZERO
        && x.rn <= R_SP;
    simple.then_some(x.imm as i64)
}

/// Accesses of one block through one base register that one translation serves: the stack
/// frame's saves and restores, a structure's fields.
struct Group {
    /// The first member's instruction, where the shared translation is made.
    head: usize,
    /// The lowest offset, the bytes from it to the end of the highest access, the alignment
    /// all need of the lowest address, and whether any member stores.
    lo: i64,
    span: u32,
    align: u32,
    store: bool,
}

/// The groups of `[j, e)`'s plain accesses (at least two each) that share a base register
/// not written between them, each member's offset from its group's lowest a multiple of its
/// own alignment; per instruction, its group's index. A load at any alignment (`solo`) makes
/// its own translation.
fn groups(
    code: &[Decoded],
    j: usize,
    e: usize,
    solo: &[bool],
    t: Target,
) -> (Vec<Group>, Vec<Option<usize>>) {
    let mut gs = Vec::new();
    let mut of = vec![None; code.len()];
    // A member's (offset, bytes, alignment).
    let access = |k: usize| {
        let x = fields(&code[k]);
        let nb = 1u32 << (x.aux & 3);
        let n = if x.aux & mem::PAIR != 0 { 2 * nb } else { nb };
        (plain_offset(&x).unwrap_or(0), n, nb - 1)
    };
    // The lowest offset and the end of the highest access.
    let bounds = |ms: &[usize]| {
        let lo = ms.iter().map(|&m| access(m).0).min().unwrap_or(0);
        let hi = ms
            .iter()
            .map(|&m| access(m).0 + access(m).1 as i64)
            .max()
            .unwrap_or(0);
        (lo, hi)
    };
    for head in j..e {
        if of[head].is_some() || !takes(&code[head], t) {
            continue;
        }
        let hx = fields(&code[head]);
        if plain_offset(&hx).is_none() || solo[head] {
            continue;
        }
        let base = hx.rn;
        // The members: plain accesses through `base` until an instruction writes it (a member
        // that loads into it is the last) or the block's translated part ends.
        let mut members = Vec::new();
        for k in head..e {
            let d = &code[k];
            if !takes(d, t) {
                break;
            }
            let x = fields(d);
            if of[k].is_none() && x.rn == base && plain_offset(&x).is_some() && !solo[k] {
                members.push(k);
            }
            if writes(d).any(|r| r == base) {
                break;
            }
        }
        // Kept while the span stays small and every offset keeps its alignment (and a whole
        // word) from the lowest.
        let mut kept: Vec<usize> = Vec::new();
        for k in members {
            let mut trial = kept.clone();
            trial.push(k);
            let (lo, hi) = bounds(&trial);
            let fits = hi - lo <= 512
                && trial
                    .iter()
                    .all(|&m| (access(m).0 - lo) & (3 | access(m).2 as i64) == 0);
            if fits {
                kept = trial;
            }
        }
        if kept.len() < 2 {
            continue;
        }
        let (lo, hi) = bounds(&kept);
        for &k in &kept {
            of[k] = Some(gs.len());
        }
        gs.push(Group {
            head,
            lo,
            span: (hi - lo) as u32,
            align: kept.iter().fold(3, |a, &m| a | access(m).2),
            store: kept.iter().any(|&m| code[m].aux() & mem::STORE != 0),
        });
    }
    (gs, of)
}

/// One block: instructions `[j, e)` of the region.
#[allow(clippy::too_many_arguments)]
fn block(
    s: &mut String,
    src: &Source,
    code: &[Decoded],
    defer: &[bool],
    j: usize,
    e: usize,
    depth: usize,
    t: Target,
) {
    let steps = block_steps(src, code, j, e, t);
    let _ = writeln!(
        s,
        "if live && o == {j}u {{\nif n + {steps}u > cap {{ live = false; }} else {{\nmoved{depth} = true;"
    );
    // Braces the memory accesses open (their `else`), closed at the block's end.
    let mut open = 0;
    let solo: Vec<bool> = (0..code.len()).map(|k| is_site(src, code, k)).collect();
    let (gs, group_of) = groups(code, j, e, &solo, t);
    let mut fs = Fl::Unknown;
    let mut ended = false;
    for i in j..e {
        let d = &code[i];
        let done: usize = code[j..i].iter().map(weight).sum();
        if !takes(d, t) {
            let _ = writeln!(s, "n = n + {done}u; o = {i}u; live = false;");
            ended = true;
            break;
        }
        let x = fields(d);
        let _ = writeln!(s, "// {:#x}", src.start + 4 * i as u64);
        match x.unit {
            unit::MEM => {
                let prfm = x.aux & mem::PRFM != 0;
                if prfm {
                    continue;
                }
                let nb = 1u32 << (x.aux & 3);
                let idx = (x.aux >> mem::IDX_SHIFT) & 3;
                let store = x.aux & mem::STORE != 0;
                let pair = x.aux & mem::PAIR != 0;
                address(s, &x, i, idx);
                // A pair is translated as one access of both halves: its two can then fail
                // only together (a pair that crosses a page, or meets a walk or a fault, is
                // the interpreter's, from its first micro-step), and one translation serves
                // both words.
                let span = if pair { 2 * nb } else { nb };
                // Aligned to the access's size: a 64-bit one is then one access of the pool's
                // word pairs (and a pair of words one access of two words). (Loads at any
                // alignment inside a page, reading the words they touch, nearly doubled the
                // cold compile of glibc's hot set: 5.2-5.6 -> 8.8-9.5 s.)
                let align = if solo[i] { 0 } else { nb - 1 };
                let own = format!("txlat(ad{i}, {span}u, {align}u, {store}, false)");
                // Only a block's first instruction runs again after a fill.
                let defer = i == j && defer[i];
                match group_of[i].map(|g| (g, &gs[g])) {
                    // A group's members share its translation, made at its first: one
                    // page-table lookup for a frame's saves instead of one each. Where it
                    // fails (the span crosses a page, say) each makes its own.
                    Some((g, grp)) => {
                        if grp.head == i {
                            let _ = writeln!(
                                s,
                                "let g{g} = txlat(vadd(a{i}, {}), {}u, {}u, {}, {defer});",
                                v64(grp.lo as u64),
                                grp.span,
                                grp.align,
                                grp.store
                            );
                            if defer {
                                let _ = writeln!(
                                    s,
                                    "if g{g} == XLAT_FILL {{ {} }} else {{",
                                    again(done, i)
                                );
                                open += 1;
                            }
                        }
                        let delta = (plain_offset(&x).unwrap_or(0) - grp.lo) / 4;
                        let _ = writeln!(
                            s,
                            "var x{i} = g{g} + {delta}u;\nif g{g} == XLAT_RETRY {{ x{i} = {own}; }}"
                        );
                    }
                    None => {
                        let _ = writeln!(
                            s,
                            "let x{i} = txlat(ad{i}, {span}u, {align}u, {store}, {defer});"
                        );
                    }
                }
                let _ = writeln!(s, "{}", leave(defer, done, i));
                open += 1;
                access(
                    s,
                    &x,
                    &format!("{i}a"),
                    &format!("x{i}"),
                    &format!("ad{i}"),
                    x.rc,
                    solo[i],
                );
                if pair {
                    let _ = writeln!(s, "let y{i} = x{i} + {}u;", nb / 4);
                    access(
                        s,
                        &x,
                        &format!("{i}b"),
                        &format!("y{i}"),
                        &format!("vadd(ad{i}, vw({nb}u, 0u))"),
                        x.rc2,
                        solo[i],
                    );
                }
                writeback(s, &x, i, idx);
            }
            unit::VMEM => {
                let nb = 1u32 << (x.aux & vmem::SIZE_MASK);
                // Indexing's values are the integer unit's, at the VMEM word's own shift.
                let idx = (x.aux >> vmem::IDX_SHIFT) & 3;
                let store = x.aux & vmem::STORE != 0;
                let pair = x.aux & vmem::PAIR != 0;
                address(s, &x, i, idx);
                // As an integer pair: one translation of both registers (or of LD1/ST1's
                // consecutive registers), whole or not at all. 16 bytes are two doubleword
                // accesses of the pool.
                let regs = vmem_regs(x.aux);
                let span = regs * nb;
                let defer = i == j && defer[i];
                let _ = writeln!(
                    s,
                    "let x{i} = txlat(ad{i}, {span}u, {}u, {store}, {defer});\n{}",
                    if solo[i] { 0 } else { nb.min(8) - 1 },
                    leave(defer, done, i)
                );
                open += 1;
                let ad = format!("ad{i}");
                vaccess(
                    s,
                    nb,
                    store,
                    &format!("{i}a"),
                    &format!("x{i}"),
                    &ad,
                    x.rc & 31,
                    solo[i],
                );
                for k in 1..regs {
                    let y = format!("(x{i} + {}u)", k * nb / 4);
                    let vt = if pair { x.rc2 } else { x.rc + k };
                    vaccess(s, nb, store, &format!("{i}r{k}"), &y, &ad, vt & 31, solo[i]);
                }
                writeback(s, &x, i, idx);
            }
            unit::VEC => {
                if let Some(form) = vec_form(d) {
                    vec_insn(s, &x, &d.w, form, i);
                }
            }
            unit::FP => fp_insn(s, &x, &mut fs),
            unit::BR => {
                let next = src.start + 4 * (i as u64 + 1);
                let count = format!("n = n + {}u;", done + 1);
                let a = reg(x.rn);
                let link = |s: &mut String| wr(s, x.rd, &v64(next));
                let leave_to = |s: &mut String, target: String| {
                    let _ = writeln!(s, "pcx = {target}; out = true; live = false;");
                };
                let taken = match x.opn {
                    op::B | op::BL | op::BREG | op::BLREG => None,
                    op::BCOND => Some(cond(s, x.cond, &mut fs)),
                    _ => {
                        let mask = if x.opn >= op::BTZ {
                            format!("vshl(vw(1u, 0u), {}u)", (x.c0 >> f::SHAMT_SHIFT) & 63)
                        } else if x.w {
                            "vw(0xffffffffu, 0u)".into()
                        } else {
                            "vnot(vz())".into()
                        };
                        let z = format!("veq(vand({a}, {mask}), vz())");
                        Some(if matches!(x.opn, op::BZERO | op::BTZ) {
                            z
                        } else {
                            format!("!{z}")
                        })
                    }
                };
                if let Some(body) = leaf(src, d, t) {
                    // The callee inline: the link, its body, and its return to the next
                    // instruction (a block start).
                    link(s);
                    for c in body {
                        s.push_str("{\n");
                        data(s, &fields(c), t, &mut fs);
                        s.push_str("}\n");
                    }
                    let _ = writeln!(s, "n = n + {}u;\no = {}u;", done + body.len() + 2, i + 1);
                    ended = true;
                    continue;
                }
                s.push_str(&count);
                s.push('\n');
                if matches!(x.opn, op::BREG | op::BLREG) {
                    // A return (or any indirect branch) into the region stays in it: a
                    // recursive function's returns land after its own calls. A target inside
                    // a block matches no block and leaves at that pc.
                    let (lo, hi) = (src.start as u32, (src.start >> 32) as u32);
                    let _ = writeln!(
                        s,
                        "let t{i} = {a};\nlet q{i} = vsub(t{i}, vw({lo}u, {hi}u));"
                    );
                    link(s);
                    let _ = writeln!(
                        s,
                        "if vhi(q{i}) == 0u && vlo(q{i}) < {}u && (vlo(q{i}) & 3u) == 0u {{ \
                         o = vlo(q{i}) >> 2u; }} else {{",
                        4 * code.len()
                    );
                    leave_to(s, format!("t{i}"));
                    if x.rn != 30 {
                        // Not a return: its target may be a function no BL names.
                        let _ = writeln!(s, "g_tind = t{i};");
                    }
                    s.push_str("}\n");
                } else {
                    let go = |s: &mut String| match inside(src, x.imm, x.opn) {
                        Some(tj) => {
                            let _ = writeln!(s, "o = {tj}u;");
                        }
                        None => leave_to(s, v64(x.imm & 0xffff_ffff)),
                    };
                    match taken {
                        None => {
                            link(s);
                            go(s);
                        }
                        Some(c) => {
                            let _ = writeln!(s, "if {c} {{");
                            go(s);
                            let _ = writeln!(s, "}} else {{ o = {}u; }}", i + 1);
                        }
                    }
                }
                ended = true;
            }
            _ => {
                s.push_str("{\n");
                data(s, &x, t, &mut fs);
                s.push_str("}\n");
            }
        }
    }
    if !ended {
        let _ = writeln!(s, "n = n + {steps}u; o = {e}u;");
    }
    for _ in 0..open {
        s.push_str("}\n");
    }
    s.push_str("}\n}\n");
}

/// The instructions block `[j, e)` retires: a call inlined at its end counts its callee and
/// the return too.
fn block_steps(src: &Source, code: &[Decoded], j: usize, e: usize, t: Target) -> usize {
    let inlined = e
        .checked_sub(1)
        .filter(|&l| l >= j)
        .and_then(|l| leaf(src, &code[l], t));
    code[j..e].iter().map(weight).sum::<usize>() + inlined.map_or(0, |b| b.len() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_fp_instruction_counts_the_steps_the_interpreter_takes() {
        // (word, steps): a step per lane of a vector form, DIV_STEPS or SQRT_STEPS more
        // per FDIV or FSQRT lane, an across-lanes form's three pairwise steps.
        let cases = [
            (0x4e21_d404, 4),  // fadd v4.4s, v0.4s, v1.4s
            (0x2e23_dc06, 2),  // fmul v6.2s, v0.2s, v3.2s
            (0x6e67_fc81, 18), // fdiv v1.2d, v4.2d, v7.2d
            (0x1e61_c062, 8),  // fsqrt d2, d3
            (0x1e24_1862, 9),  // fdiv s2, s3, s4
            (0x6e30_ca34, 3),  // fmaxnmv s20, v17.4s
            (0x0e61_780a, 2),  // fcvtl v10.2d, v0.2s
            (0x7e70_d8b2, 1),  // faddp d18, v5.2d
            (0x1f42_0c20, 1),  // fmadd d0, d1, d2, d3
        ];
        for (w, n) in cases {
            let d = crate::isa::decode(w, 0x1000);
            assert_eq!(d.unit(), unit::FP, "{w:#010x}");
            assert!(takes(&d, Target { native64: true }), "{w:#010x}");
            assert_eq!(weight(&d), n, "{w:#010x}");
        }
    }
}
