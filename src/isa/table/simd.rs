//! Decoders of the FP/SIMD rows (Tier 2): loads and stores into the VMEM unit, data processing
//! into the VEC unit's recipes (see [`crate::isa::form::vec`] and shaders/cpu/vec.wgsl).

use super::*;
use crate::isa::form::vec::*;
use crate::isa::form::{fp, vstruct};

fn vmemf(rn: u32, vt: u32, log: u32, flags: u32, idx: u32) -> Form {
    let mut f = Form::new(unit::VMEM, 0);
    f.rn = rn;
    f.rc = vt;
    f.aux = log | flags | idx << vmem::IDX_SHIFT;
    f.bsrc = bsrc::IMM;
    f
}

/// log2 of the access size of a single-register FP/SIMD load or store; `None` if unallocated.
fn fp_log(size: u32, opc: u32) -> Option<u32> {
    if opc & 2 != 0 {
        (size == 0).then_some(4)
    } else {
        Some(size)
    }
}

fn store_flag(load: bool) -> u32 {
    if load {
        0
    } else {
        vmem::STORE
    }
}

pub(super) fn dec_fp_ldst_uimm(i: FpLdstUimm, _pc: u64) -> Option<Form> {
    let log = fp_log(i.size, i.opc)?;
    let mut f = vmemf(i.Rn, i.Rt, log, store_flag(i.opc & 1 == 1), mem::IDX_OFFSET);
    f.imm = (i.imm12 as u64) << log;
    Some(f)
}

pub(super) fn dec_fp_ldst_imm9(i: FpLdstImm9, _pc: u64) -> Option<Form> {
    let log = fp_log(i.size, i.opc)?;
    if i.op4 == 2 {
        return None; // no unprivileged FP/SIMD forms
    }
    let idx = index_mode(i.op4);
    let mut f = vmemf(i.Rn, i.Rt, log, store_flag(i.opc & 1 == 1), idx);
    f.imm = sext(i.imm9 as u64, 9) as u64;
    if idx != mem::IDX_OFFSET {
        f.rd = i.Rn;
    }
    Some(f)
}

pub(super) fn dec_fp_ldst_reg(i: FpLdstReg, _pc: u64) -> Option<Form> {
    let log = fp_log(i.size, i.opc)?;
    let e = match i.option {
        2 => ext::UXTW,
        3 | 7 => ext::NONE,
        6 => ext::SXTW,
        _ => return None,
    };
    let mut f = vmemf(i.Rn, i.Rt, log, store_flag(i.opc & 1 == 1), mem::IDX_OFFSET);
    f.bsrc = bsrc::RM;
    f.rm = zr(i.Rm);
    f.ext = e;
    f.shamt = if i.S { log } else { 0 };
    Some(f)
}

pub(super) fn dec_fp_ld_literal(i: FpLdLiteral, pc: u64) -> Option<Form> {
    let log = match i.opc {
        0 => 2,
        1 => 3,
        2 => 4,
        _ => return None,
    };
    let mut f = vmemf(R_ZR, i.Rt, log, 0, mem::IDX_OFFSET);
    f.imm = rel(pc, i.imm19, 19) as u32 as i32 as i64 as u64;
    Some(f)
}

pub(super) fn dec_fp_ldst_pair(i: FpLdstPair, _pc: u64) -> Option<Form> {
    let log = match i.opc {
        0 => 2,
        1 => 3,
        2 => 4,
        _ => return None,
    };
    let idx = index_mode(i.op2);
    let mut f = vmemf(i.Rn, i.Rt, log, store_flag(i.L) | vmem::PAIR, idx);
    f.rc2 = i.Rt2;
    f.imm = (sext(i.imm7 as u64, 7) << log) as u64;
    if idx != mem::IDX_OFFSET {
        f.rd = i.Rn;
    }
    Some(f)
}

/// LD1/ST1 (multiple structures) of `nregs` registers: one step per register; LD2-LD4/ST2-ST4
/// (interleaved) in the VSTRUCT unit.
fn ldst_multi(q: bool, load: bool, opcode: u32, size: u32, rn: u32, rt: u32) -> Option<Form> {
    let n = match opcode {
        0b1000 => 2,
        0b0100 => 3,
        0b0000 => 4,
        _ => 0,
    };
    if n != 0 {
        if size == 3 && !q {
            return None;
        }
        let mut f = Form::new(unit::VSTRUCT, 0);
        f.rn = rn;
        f.rc = rt;
        f.bsrc = bsrc::IMM;
        f.aux = size
            | (n - 1) << vstruct::N_SHIFT
            | if load { 0 } else { vstruct::STORE }
            | if q { vstruct::Q } else { 0 };
        return Some(f);
    }
    let nregs = match opcode {
        0b0111 => 1,
        0b1010 => 2,
        0b0110 => 3,
        0b0010 => 4,
        _ => return None,
    };
    let log = if q { 4 } else { 3 };
    let flags = store_flag(load) | (nregs - 1) << vmem::NREGS_SHIFT;
    Some(vmemf(rn, rt, log, flags, mem::IDX_OFFSET))
}

/// Post-index writeback by Xm, or by the bytes moved when Rm is 31.
fn post_index(mut f: Form, rm: u32, bytes: u64) -> Form {
    f.aux |= if f.unit == unit::VSTRUCT {
        vstruct::POST
    } else {
        mem::IDX_POST << vmem::IDX_SHIFT
    };
    f.rd = f.rn;
    if rm == 31 {
        f.imm = bytes;
    } else {
        f.bsrc = bsrc::RM;
        f.rm = rm;
    }
    f
}

fn multi_bytes(f: &Form) -> u64 {
    if f.unit == unit::VSTRUCT {
        let n = ((f.aux >> vstruct::N_SHIFT) & 3) + 1;
        return (n * if f.aux & vstruct::Q != 0 { 16 } else { 8 }) as u64;
    }
    let nregs = ((f.aux >> vmem::NREGS_SHIFT) & 3) + 1;
    (nregs << (f.aux & vmem::SIZE_MASK)) as u64
}

pub(super) fn dec_simd_ldst_multi(i: SimdLdstMulti, _pc: u64) -> Option<Form> {
    ldst_multi(i.Q, i.L, i.opcode, i.size, i.Rn, i.Rt)
}

pub(super) fn dec_simd_ldst_multi_post(i: SimdLdstMultiPost, _pc: u64) -> Option<Form> {
    let f = ldst_multi(i.Q, i.L, i.opcode, i.size, i.Rn, i.Rt)?;
    let bytes = multi_bytes(&f);
    Some(post_index(f, i.Rm, bytes))
}

/// LD1-LD4/ST1-ST4 (single structure) and LD1R-LD4R: (log2 element bytes, flags). Structure
/// element k goes to (or comes from) register t+k at address + k * element: one VMEM step each.
fn ldst_single(
    q: bool,
    load: bool,
    r: bool,
    opcode: u32,
    s: bool,
    size: u32,
) -> Option<(u32, u32)> {
    let selem = ((opcode & 1) << 1 | r as u32) + 1;
    let nregs = (selem - 1) << vmem::NREGS_SHIFT;
    let qs = (q as u32) << 1 | s as u32;
    let (log, lane) = match opcode & 0b110 {
        0b000 => (0, qs << 2 | size),
        0b010 if size & 1 == 0 => (1, qs << 1 | size >> 1),
        0b100 if size == 0 => (2, qs),
        0b100 if size == 1 && !s => (3, q as u32),
        0b110 if load && !s => {
            let fl = vmem::MODE_REPL << vmem::MODE_SHIFT | if q { vmem::Q } else { 0 };
            return Some((size, fl | nregs));
        }
        _ => return None,
    };
    let fl = vmem::MODE_LANE << vmem::MODE_SHIFT | lane << vmem::LANE_SHIFT | store_flag(load);
    Some((log, fl | nregs))
}

pub(super) fn dec_simd_ldst_single(i: SimdLdstSingle, _pc: u64) -> Option<Form> {
    let (log, fl) = ldst_single(i.Q, i.L, i.R, i.opcode, i.S, i.size)?;
    Some(vmemf(i.Rn, i.Rt, log, fl, mem::IDX_OFFSET))
}

pub(super) fn dec_simd_ldst_single_post(i: SimdLdstSinglePost, _pc: u64) -> Option<Form> {
    let (log, fl) = ldst_single(i.Q, i.L, i.R, i.opcode, i.S, i.size)?;
    let f = vmemf(i.Rn, i.Rt, log, fl, mem::IDX_OFFSET);
    let selem = ((fl >> vmem::NREGS_SHIFT) & 3) + 1;
    Some(post_index(f, i.Rm, (selem << log) as u64))
}

// ---------------------------------------------------------------- data processing

/// A VEC or FP form on registers rd, rn, rm; rc and rc2 (the permute's indices, FMA's Va) zero
/// unless set.
fn regs_form(unit: u32, op: u32, rd: u32, rn: u32, rm: u32) -> Form {
    let mut f = Form::new(unit, op);
    f.rd = rd;
    f.rn = rn;
    f.rm = rm;
    f.rc = 0;
    f.rc2 = 0;
    f
}

fn vf(recipe: u32, cfg: u32, rd: u32, rn: u32, rm: u32) -> Form {
    let mut f = regs_form(unit::VEC, recipe, rd, rn, rm);
    f.vcfg = cfg;
    f
}

/// `v` replicated into every element of `esz` in 64 bits.
fn replicate(v: u64, esz: u32) -> u64 {
    let bits = 8u32 << esz;
    if bits == 64 {
        return v;
    }
    let v = v & ((1u64 << bits) - 1);
    (0..64 / bits).fold(0, |acc, k| acc | v << (k * bits))
}

/// The FP unit's vector flags for a vector FP form: binary64 (sz) and Q; `None` for .1D.
fn fp_vec(q: bool, sz: u32) -> Option<u32> {
    if sz == 1 && !q {
        return None;
    }
    let d = if sz == 1 { fp::DBL } else { 0 };
    Some(d | fp::VECTOR | if q { fp::Q } else { 0 })
}

/// Three same, FP (opcode 11xxx; size<1> selects the operation, size<0> binary64).
fn fp_3same(i: &Simd3Same) -> Option<Form> {
    let v = fp_vec(i.Q, i.size & 1)?;
    let cmp = |c: u32| (fp::VCMP, c << fp::RM_SHIFT);
    let (op, extra) = match (i.U, i.size >> 1, i.opcode) {
        (false, 0, 0b11010) => (fp::ADD, 0),
        (false, 1, 0b11010) => (fp::SUB, 0),
        (true, 0, 0b11011) => (fp::MUL, 0),
        (true, 0, 0b11111) => (fp::DIV, 0),
        (false, 0, 0b11110) => (fp::MINMAX, fp::MAX),
        (false, 1, 0b11110) => (fp::MINMAX, 0),
        (false, 0, 0b11000) => (fp::MINMAX, fp::MAX | fp::NM),
        (false, 1, 0b11000) => (fp::MINMAX, fp::NM),
        (false, 0, 0b11001) => (fp::FMA, 0),
        (false, 1, 0b11001) => (fp::FMA, fp::NEG),
        (false, 0, 0b11100) => cmp(0),
        (true, 0, 0b11100) => cmp(1),
        (true, 1, 0b11100) => cmp(2),
        (true, 1, 0b11010) => (fp::SUB, fp::ABS),
        (true, 0, 0b11010) => (fp::ADD, fp::PAIRW),
        (true, 0, 0b11110) => (fp::MINMAX, fp::MAX | fp::PAIRW),
        (true, 1, 0b11110) => (fp::MINMAX, fp::PAIRW),
        (true, 0, 0b11000) => (fp::MINMAX, fp::MAX | fp::NM | fp::PAIRW),
        (true, 1, 0b11000) => (fp::MINMAX, fp::NM | fp::PAIRW),
        _ => return None, // FRECPS, FMULX...: not yet
    };
    Some(fpf(op, v | extra, i.Rd, i.Rn, i.Rm))
}

pub(super) fn dec_simd_3same(i: Simd3Same, _pc: u64) -> Option<Form> {
    if i.opcode >> 3 == 0b11 {
        return fp_3same(&i);
    }
    let (q, sz) = (i.Q, i.size);
    if i.opcode == 0b00011 {
        let lop = match (i.U, sz) {
            (false, 0) => L_AND,
            (false, 1) => L_BIC,
            (false, 2) => L_ORR,
            (false, _) => L_ORN,
            (true, 0) => L_EOR,
            (true, 1) => L_BSL,
            (true, 2) => L_BIT,
            (true, _) => L_BIF,
        };
        return Some(vf(R_LANE, cfg(3, q, 0, 0, lop, B_VM), i.Rd, i.Rn, i.Rm));
    }
    let (lop, recipe, any64) = match (i.opcode, i.U) {
        (op, u) if add_cmp_lop(op, u).is_some() => (add_cmp_lop(op, u)?, R_LANE, true),
        (0b01100, false) => (L_SMAX, R_LANE, false),
        (0b01100, true) => (L_UMAX, R_LANE, false),
        (0b01101, false) => (L_SMIN, R_LANE, false),
        (0b01101, true) => (L_UMIN, R_LANE, false),
        (0b10100, false) => (L_SMAX, R_PAIR, false),
        (0b10100, true) => (L_UMAX, R_PAIR, false),
        (0b10101, false) => (L_SMIN, R_PAIR, false),
        (0b10101, true) => (L_UMIN, R_PAIR, false),
        (0b10111, false) => (L_ADD, R_PAIR, true),
        (0b10011, false) => (L_MUL, R_LANE, false),
        (0b10010, _) => return mla(&i),
        _ => return None,
    };
    if sz == 3 && (!any64 || !q) {
        return None;
    }
    Some(vf(
        recipe,
        cfg(sz, q, P_UZP, sz, lop, B_VM),
        i.Rd,
        i.Rn,
        i.Rm,
    ))
}

/// The three-same operations with a scalar (D) form too: ADD, SUB, the register compares and
/// the shifts by register (SSHL, USHL).
fn add_cmp_lop(opcode: u32, u: bool) -> Option<u32> {
    Some(match (opcode, u) {
        (0b10000, false) => L_ADD,
        (0b10000, true) => L_SUB,
        (0b10001, false) => L_CMTST,
        (0b10001, true) => L_CMEQ,
        (0b00110, false) => L_CMGT,
        (0b00110, true) => L_CMHI,
        (0b00111, false) => L_CMGE,
        (0b00111, true) => L_CMHS,
        (0b01000, false) => L_SSHL,
        (0b01000, true) => L_USHL,
        _ => return None,
    })
}

/// MLA/MLS (three same, opcode 10010): Vd +/- Vn * Vm in two steps.
fn mla(i: &Simd3Same) -> Option<Form> {
    if i.size == 3 {
        return None;
    }
    let part = if i.U { PART } else { 0 };
    let c = cfg(i.size, i.Q, 0, 0, L_MUL, B_VM) | part;
    Some(vf(R_ACC, c, i.Rd, i.Rn, i.Rm))
}

/// Scalar three same, FP (FABD, FCMEQ, FCMGE, FCMGT with S or D operands): one lane through the
/// FP unit's vector path.
fn fp_scalar_3same(i: &SimdScalar3Same) -> Option<Form> {
    let d = if i.size & 1 == 1 { fp::DBL } else { 0 };
    let cmp = |c: u32| (fp::VCMP, c << fp::RM_SHIFT);
    let (op, extra) = match (i.U, i.size >> 1, i.opcode) {
        (true, 1, 0b11010) => (fp::SUB, fp::ABS),
        (false, 0, 0b11100) => cmp(0),
        (true, 0, 0b11100) => cmp(1),
        (true, 1, 0b11100) => cmp(2),
        _ => return None,
    };
    Some(fpf(op, d | fp::VECTOR | fp::ONE | extra, i.Rd, i.Rn, i.Rm))
}

pub(super) fn dec_simd_scalar_3same(i: SimdScalar3Same, _pc: u64) -> Option<Form> {
    if i.opcode >> 3 == 0b11 {
        return fp_scalar_3same(&i);
    }
    let lop = add_cmp_lop(i.opcode, i.U)?;
    if i.size != 3 {
        return None;
    }
    Some(vf(R_LANE, cfg(3, false, 0, 0, lop, B_VM), i.Rd, i.Rn, i.Rm))
}

/// The two-register-misc operations shared by the vector and scalar forms: (lop, B source).
fn misc_lane(opcode: u32, u: bool) -> Option<(u32, u32)> {
    Some(match (opcode, u) {
        (0b01001, false) => (L_CMEQ, B_ZERO),
        (0b01001, true) => (L_CMLE, B_ZERO),
        (0b01000, false) => (L_CMGT, B_ZERO),
        (0b01000, true) => (L_CMGE, B_ZERO),
        (0b01010, false) => (L_CMLT, B_ZERO),
        (0b01011, false) => (L_ABS, B_ZERO),
        (0b01011, true) => (L_NEG, B_ZERO),
        _ => return None,
    })
}

/// Two-register misc, FP (size<1> selects the operation, size<0> binary64).
fn fp_2misc(i: &Simd2Misc) -> Option<Form> {
    let (d, n) = (i.Rd, i.Rn);
    let hi = i.size >> 1;
    if (i.U, hi, i.opcode) == (false, 0, 0b10110) {
        // FCVTN{2}: binary64 lanes to binary32 (into the high half with Q); sz must be 1.
        if i.size & 1 == 0 {
            return None;
        }
        let q = if i.Q { fp::Q } else { 0 };
        return Some(fpf(fp::CVT, fp::DBL | fp::VECTOR | fp::NARROW | q, d, n, 0));
    }
    if (i.U, hi, i.opcode) == (false, 0, 0b10111) {
        // FCVTL{2}: binary32 lanes (the upper half with Q) to binary64; sz must be 1.
        if i.size & 1 == 0 {
            return None;
        }
        let q = if i.Q { fp::Q } else { 0 };
        return Some(fpf(fp::CVT, fp::VECTOR | fp::WIDEN | q, d, n, 0));
    }
    let v = fp_vec(i.Q, i.size & 1)?;
    if i.opcode == 0b01111 && hi == 1 {
        // FABS/FNEG: the sign bits, as bit operations.
        let esz = 2 + (i.size & 1);
        let lop = if i.U { L_EOR } else { L_BIC };
        let mut f = vf(R_LANE, cfg(esz, i.Q, 0, 0, lop, B_IMM), d, n, 0);
        f.imm = replicate(1 << ((8 << esz) - 1), esz);
        return Some(f);
    }
    if let Some((op, extra)) = fp_misc_shared(i.U, hi, i.opcode, i.size & 1) {
        return Some(fpf(op, v | extra, d, n, 0));
    }
    let rm = |k: u32| k << fp::RM_SHIFT;
    let (op, extra) = match (i.U, hi, i.opcode) {
        (true, 1, 0b11111) => (fp::SQRT, 0),
        (false, 0, 0b11000) => (fp::RINT, rm(0)),
        (false, 1, 0b11000) => (fp::RINT, rm(1)),
        (false, 0, 0b11001) => (fp::RINT, rm(2)),
        (false, 1, 0b11001) => (fp::RINT, rm(3)),
        (true, 0, 0b11000) => (fp::RINT, rm(4)),
        (true, 0, 0b11001) => (fp::RINT, rm(7) | fp::EXACT),
        (true, 1, 0b11001) => (fp::RINT, rm(7)),
        _ => return None,
    };
    Some(fpf(op, v | extra, d, n, 0))
}

pub(super) fn dec_simd_2misc(i: Simd2Misc, _pc: u64) -> Option<Form> {
    if let Some(f) = fp_2misc(&i) {
        return Some(f);
    }
    let (q, sz) = (i.Q, i.size);
    let (d, n) = (i.Rd, i.Rn);
    if let Some((lop, b)) = misc_lane(i.opcode, i.U) {
        if sz == 3 && !q {
            return None;
        }
        return Some(vf(R_LANE, cfg(sz, q, 0, 0, lop, b), d, n, 0));
    }
    let rev = |log_cs: u32| {
        let mut f = vf(R_PERM, cfg(0, q, P_REV, sz, 0, 0), d, n, 0);
        f.rc = log_cs;
        f
    };
    Some(match (i.opcode, i.U, sz) {
        (0b00010, u, s) if s < 3 => {
            // SADDLP/UADDLP: B's non-zero elements ask for the signed halves.
            let mut f = vf(R_LANE, cfg(s + 1, q, 0, 0, L_ADDLP, B_IMM), d, n, 0);
            f.imm = if u { 0 } else { u64::MAX };
            f
        }
        (0b00101, false, 0) => vf(R_LANE, cfg(0, q, 0, 0, L_CNT, 0), d, n, 0),
        (0b00101, true, 0) => vf(R_LANE, cfg(0, q, 0, 0, L_NOT, 0), d, n, 0),
        (0b00000, false, s) if s < 3 => rev(3),
        (0b00000, true, s) if s < 2 => rev(2),
        (0b00001, false, 0) => rev(1),
        (0b10010, false, s) if s < 3 => {
            // XTN writes the low half and zeroes the rest; XTN2 writes the high half, keeps the low.
            let keep = if q { KEEP | PART } else { 0 };
            vf(R_PERM, cfg(0, q, P_NARROW, s, 0, 0) | keep, d, n, 0)
        }
        (op, u, s) if s < 3 && saturating_narrow(op, u).is_some() => {
            // SQXTN, UQXTN, SQXTUN{2}: saturate the wide elements, then narrow as XTN does.
            let lop = saturating_narrow(op, u)?;
            let keep = if q { KEEP | PART } else { 0 };
            vf(
                R_LP,
                cfg(s + 1, q, P_NARROW, s, lop, B_ZERO) | keep,
                d,
                n,
                0,
            )
        }
        _ => return None,
    })
}

/// The saturating narrowing's lane operation for a two-register-misc (opcode, U), vector or
/// scalar: SQXTN, UQXTN, SQXTUN.
fn saturating_narrow(opcode: u32, u: bool) -> Option<u32> {
    match (opcode, u) {
        (0b10100, false) => Some(L_SQXT),
        (0b10100, true) => Some(L_UQXT),
        (0b10010, true) => Some(L_SQXTU),
        _ => None,
    }
}

/// The FP two-register-misc operations with both vector and scalar forms: SCVTF/UCVTF,
/// FCVTZS/FCVTZU and the compares against zero, as (op, flags) for (U, size<1>, opcode) with
/// `sz` (size<0>) selecting binary64.
fn fp_misc_shared(u: bool, hi: u32, opcode: u32, sz: u32) -> Option<(u32, u32)> {
    let i64 = if sz == 1 { fp::I64 } else { 0 };
    let rm = |k: u32| k << fp::RM_SHIFT;
    Some(match (u, hi, opcode) {
        (false, 0, 0b11101) => (fp::CVTF, fp::SIGNED | i64),
        (true, 0, 0b11101) => (fp::CVTF, i64),
        (false, 1, 0b11011) => (fp::CVTI, fp::SIGNED | i64 | rm(3)),
        (true, 1, 0b11011) => (fp::CVTI, i64 | rm(3)),
        (false, 1, 0b01101) => (fp::VCMP, fp::ZERO | rm(0)),
        (true, 1, 0b01100) => (fp::VCMP, fp::ZERO | rm(1)),
        (false, 1, 0b01100) => (fp::VCMP, fp::ZERO | rm(2)),
        (false, 1, 0b01110) => (fp::VCMP, fp::ZERO | rm(3)),
        (true, 1, 0b01101) => (fp::VCMP, fp::ZERO | rm(4)),
        _ => return None,
    })
}

/// Scalar two-register misc, FP: the shared operations with S or D operands in V registers
/// (one lane through the FP unit's vector path).
fn fp_scalar_2misc(i: &SimdScalar2Misc) -> Option<Form> {
    let d = if i.size & 1 == 1 { fp::DBL } else { 0 };
    let (op, extra) = fp_misc_shared(i.U, i.size >> 1, i.opcode, i.size & 1)?;
    Some(fpf(op, d | fp::VECTOR | fp::ONE | extra, i.Rd, i.Rn, 0))
}

pub(super) fn dec_simd_scalar_2misc(i: SimdScalar2Misc, _pc: u64) -> Option<Form> {
    if let Some(f) = fp_scalar_2misc(&i) {
        return Some(f);
    }
    if let Some(lop) = saturating_narrow(i.opcode, i.U) {
        // SQXTN, UQXTN, SQXTUN (scalar): as the 64-bit vector form over element 0 alone (the
        // shader masks the wide source to it, so only it can set FPSR.QC), the rest zeroed.
        if i.size == 3 {
            return None;
        }
        return Some(vf(
            R_LP,
            cfg(i.size + 1, false, P_NARROW, i.size, lop, B_ZERO) | SCALAR,
            i.Rd,
            i.Rn,
            0,
        ));
    }
    let (lop, b) = misc_lane(i.opcode, i.U)?;
    if i.size != 3 {
        return None;
    }
    Some(vf(R_LANE, cfg(3, false, 0, 0, lop, b), i.Rd, i.Rn, 0))
}

pub(super) fn dec_simd_across(i: SimdAcross, _pc: u64) -> Option<Form> {
    if i.U && matches!(i.opcode, 0b01100 | 0b01111) {
        // FMAXNMV, FMINNMV, FMAXV, FMINV over 4S (the U=0 forms are FP16).
        if !i.Q || i.size & 1 == 1 {
            return None;
        }
        let max = if i.size >> 1 == 0 { fp::MAX } else { 0 };
        let nm = if i.opcode == 0b01100 { fp::NM } else { 0 };
        let aux = fp::VECTOR | fp::Q | fp::PAIRW | fp::ACROSS | max | nm;
        return Some(fpf(fp::MINMAX, aux, i.Rd, i.Rn, i.Rn));
    }
    if i.opcode == 0b00011 {
        // SADDLV/UADDLV: pairs into wide elements first, then the fold at the wide size.
        if i.size == 3 || (i.size == 2 && !i.Q) {
            return None;
        }
        let c = cfg(i.size + 1, i.Q, P_EXT, 0, L_ADDLP, B_IMM) | SCALAR;
        let mut f = vf(R_REDUCE, c, i.Rd, i.Rn, 0);
        f.imm = if i.U { 0 } else { u64::MAX };
        return Some(f);
    }
    let lop = match (i.opcode, i.U) {
        (0b11011, false) => L_ADD,
        (0b01010, false) => L_SMAX,
        (0b01010, true) => L_UMAX,
        (0b11010, false) => L_SMIN,
        (0b11010, true) => L_UMIN,
        _ => return None,
    };
    if i.size == 3 || (i.size == 2 && !i.Q) {
        return None;
    }
    let c = cfg(i.size, i.Q, P_EXT, 0, lop, 0) | SCALAR;
    Some(vf(R_REDUCE, c, i.Rd, i.Rn, 0))
}

pub(super) fn dec_simd_copy(i: SimdCopy, _pc: u64) -> Option<Form> {
    let size = i.imm5.trailing_zeros();
    if size > 3 {
        return None;
    }
    let index = i.imm5 >> (size + 1);
    let q = i.Q;
    let mut f = match (i.op, i.imm4) {
        (false, 0b0000) if size < 3 || q => {
            let mut f = vf(R_PERM, cfg(0, q, P_DUP, size, 0, 0), i.Rd, i.Rn, 0);
            f.rc = index;
            f
        }
        (false, 0b0001) if size < 3 || q => vf(
            R_PERM,
            cfg(0, q, P_DUP, size, 0, 0) | GPR,
            i.Rd,
            zr(i.Rn),
            0,
        ),
        (false, 0b0101) if size < 2 || (q && size == 2) => {
            // SMOV: sign-extended to 32 bits (W) or 64 (X).
            let mut f = vf(
                R_TOGPR,
                cfg(0, q, P_DUP, size, 0, 0) | SIGNED,
                zw(i.Rd),
                i.Rn,
                0,
            );
            f.w32 = !q;
            f.rc = index;
            f
        }
        (false, 0b0111) if (!q && size < 3) || (q && size == 3) => {
            let mut f = vf(R_TOGPR, cfg(0, q, P_DUP, size, 0, 0), zw(i.Rd), i.Rn, 0);
            f.rc = index;
            f
        }
        (false, 0b0011) if q => {
            let mut f = vf(
                R_PERM,
                cfg(0, true, P_INS, size, 0, 0) | GPR | KEEP,
                i.Rd,
                zr(i.Rn),
                0,
            );
            f.rc = index;
            f
        }
        (true, imm4) if q => {
            let mut f = vf(
                R_PERM,
                cfg(0, true, P_INS, size, 0, 0) | KEEP,
                i.Rd,
                i.Rn,
                0,
            );
            f.rc = index;
            f.rc2 = imm4 >> size;
            f
        }
        _ => return None,
    };
    f.setflags = false;
    Some(f)
}

pub(super) fn dec_simd_perm(i: SimdPerm, _pc: u64) -> Option<Form> {
    if i.size == 3 && !i.Q {
        return None;
    }
    let (kind, part) = match i.opcode {
        0b001 => (P_UZP, 0),
        0b010 => (P_TRN, 0),
        0b011 => (P_ZIP, 0),
        0b101 => (P_UZP, PART),
        0b110 => (P_TRN, PART),
        0b111 => (P_ZIP, PART),
        _ => return None,
    };
    let c = cfg(0, i.Q, kind, i.size, 0, 0) | part;
    Some(vf(R_PERM, c, i.Rd, i.Rn, i.Rm))
}

pub(super) fn dec_simd_ext(i: SimdExt, _pc: u64) -> Option<Form> {
    if i.op2 != 0 || (!i.Q && i.imm4 >= 8) {
        return None;
    }
    let mut f = vf(R_PERM, cfg(0, i.Q, P_EXT, 0, 0, 0), i.Rd, i.Rn, i.Rm);
    f.rc = i.imm4;
    Some(f)
}

pub(super) fn dec_simd_tbl(i: SimdTbl, _pc: u64) -> Option<Form> {
    if i.op2 != 0 {
        return None;
    }
    let keep = if i.op { KEEP } else { 0 };
    let mut f = vf(R_PERM, cfg(0, i.Q, P_TBL, 0, 0, 0) | keep, i.Rd, i.Rn, i.Rm);
    f.rc2 = i.len;
    Some(f)
}

/// VFPExpandImm: the 8-bit FP immediate as a binary32 (`double` false) or binary64.
pub fn vfp_expand_imm(imm8: u32, double: bool) -> u64 {
    let a = (imm8 >> 7) as u64;
    let b = ((imm8 >> 6) & 1) as u64;
    let cdefgh = (imm8 & 0x3f) as u64;
    if double {
        let exp = (b ^ 1) << 10 | if b == 1 { 0xff << 2 } else { 0 } | (cdefgh >> 4);
        a << 63 | exp << 52 | (cdefgh & 0xf) << 48
    } else {
        let exp = (b ^ 1) << 7 | if b == 1 { 0x1f << 2 } else { 0 } | (cdefgh >> 4);
        a << 31 | exp << 23 | (cdefgh & 0xf) << 19
    }
}

/// AdvSIMDExpandImm: the 64-bit value of a modified immediate; `None` if unallocated.
pub fn simd_expand_imm(op: bool, cmode: u32, imm8: u32) -> Option<u64> {
    let i = imm8 as u64;
    Some(match cmode >> 1 {
        0..=3 => replicate(i << (8 * (cmode >> 1)), 2),
        4 | 5 => replicate(i << (8 * ((cmode >> 1) & 1)), 1),
        6 => {
            if cmode & 1 == 0 {
                replicate(i << 8 | 0xff, 2)
            } else {
                replicate(i << 16 | 0xffff, 2)
            }
        }
        _ => match (cmode & 1, op) {
            (0, false) => replicate(i, 0),
            (0, true) => (0..8).fold(0, |v, k| {
                v | if i >> k & 1 == 1 { 0xff << (8 * k) } else { 0 }
            }),
            (_, false) => replicate(vfp_expand_imm(imm8, false), 2),
            (_, true) => vfp_expand_imm(imm8, true),
        },
    })
}

/// Modified immediate (the shift-by-immediate space with immh 0): `0 Q op 0111100000 abc cmode
/// o2 1 defgh Rd`.
fn dec_simd_modimm(
    q: bool,
    op: bool,
    abc: u32,
    cmode: u32,
    o2: bool,
    defgh: u32,
    rd: u32,
) -> Option<Form> {
    if o2 {
        return None; // FMOV (half precision): FEAT_FP16
    }
    let cm = cmode;
    if cm == 0b1111 && op && !q {
        return None;
    }
    let imm = simd_expand_imm(op, cm, abc << 5 | defgh)?;
    // op selects MVNI/BIC for the 32- and 16-bit shifted forms and for the shifting-ones form.
    let invert = op && cm < 0b1110;
    let orr_bic = cm < 0b1100 && cm & 1 == 1;
    let mut f = if orr_bic {
        let lop = if op { L_BIC } else { L_ORR };
        vf(R_LANE, cfg(3, q, 0, 0, lop, B_IMM), rd, rd, 0)
    } else {
        vf(R_LANE, cfg(3, q, 0, 0, L_MOVB, B_IMM), rd, 0, 0)
    };
    f.imm = if invert && !orr_bic { !imm } else { imm };
    Some(f)
}

/// Shift amount and element size of a shift-by-immediate: (esz, right shift, left shift).
fn shift_imm(immh: u32, immb: u32) -> Option<(u32, u32, u32)> {
    if immh == 0 {
        return None;
    }
    let esz = 31 - immh.leading_zeros();
    let esize = 8 << esz;
    let v = immh << 3 | immb;
    Some((esz, 2 * esize - v, v - esize))
}

pub(super) fn dec_simd_shift_imm(i: SimdShiftImm, _pc: u64) -> Option<Form> {
    if i.immh == 0 {
        let (cmode, o2) = (i.opcode >> 1, i.opcode & 1 == 1);
        return dec_simd_modimm(i.Q, i.U, i.immb, cmode, o2, i.Rn, i.Rd);
    }
    let (esz, right, left) = shift_imm(i.immh, i.immb)?;
    let q = i.Q;
    let (d, n) = (i.Rd, i.Rn);
    let mut f = match (i.opcode, i.U) {
        (0b00000, u) if esz < 3 || q => {
            let lop = if u { L_USHR } else { L_SSHR };
            let mut f = vf(R_LANE, cfg(esz, q, 0, 0, lop, B_IMM), d, n, 0);
            f.imm = replicate(right as u64, esz);
            f
        }
        (0b00010, u) if esz < 3 || q => {
            // SSRA/USRA: the shift, then Vd + it.
            let lop = if u { L_USHR } else { L_SSHR };
            let mut f = vf(R_ACC, cfg(esz, q, 0, 0, lop, B_IMM), d, n, 0);
            f.imm = replicate(right as u64, esz);
            f
        }
        (0b01010, false) if esz < 3 || q => {
            let mut f = vf(R_LANE, cfg(esz, q, 0, 0, L_SHL, B_IMM), d, n, 0);
            f.imm = replicate(left as u64, esz);
            f
        }
        (0b10100, u) if esz < 3 => {
            // SSHLL/USHLL{2}: widen the low (high) half, then shift left.
            let sign = if u { 0 } else { SIGNED };
            let part = if q { PART } else { 0 };
            let c = cfg(esz + 1, true, P_WIDEN, esz + 1, L_SHL, B_IMM) | sign | part;
            let mut f = vf(R_PL, c, d, n, 0);
            f.imm = replicate(left as u64, esz + 1);
            f
        }
        (0b10000 | 0b10001, false) if esz < 3 => {
            // SHRN{2}, RSHRN{2}: shift the wide elements right (rounding), then narrow into the
            // low (high) half.
            let keep = if q { KEEP | PART } else { 0 };
            let lop = if i.opcode == 0b10001 { L_URSHR } else { L_USHR };
            let c = cfg(esz + 1, q, P_NARROW, esz, lop, B_IMM) | keep;
            let mut f = vf(R_LP, c, d, n, 0);
            f.imm = replicate(right as u64, esz + 1);
            f
        }
        _ => return None,
    };
    f.setflags = false;
    Some(f)
}

pub(super) fn dec_simd_scalar_shift_imm(i: SimdScalarShiftImm, _pc: u64) -> Option<Form> {
    let (esz, right, left) = shift_imm(i.immh, i.immb)?;
    if esz != 3 {
        return None;
    }
    let (lop, amt) = match (i.opcode, i.U) {
        (0b00000, false) => (L_SSHR, right),
        (0b00000, true) => (L_USHR, right),
        (0b01010, false) => (L_SHL, left),
        _ => return None,
    };
    let mut f = vf(R_LANE, cfg(3, false, 0, 0, lop, B_IMM), i.Rd, i.Rn, 0);
    f.imm = amt as u64;
    Some(f)
}

pub(super) fn dec_fp_int_conv(i: FpIntConv, _pc: u64) -> Option<Form> {
    if i.S {
        return None;
    }
    if i.ftype < 2 && (i.opcode < 2 || (i.opcode & 6) == 2 || (i.opcode & 6) == 4) {
        return fp_int_convert(i);
    }
    // FMOV between general and FP/SIMD registers.
    let (esz, index) = match (i.sf, i.ftype, i.rmode) {
        (false, 0, 0) => (2, 0),
        (true, 1, 0) => (3, 0),
        (true, 2, 1) => (3, 1),
        _ => return None,
    };
    let mut f = match i.opcode {
        0b110 => vf(R_TOGPR, cfg(0, false, P_DUP, esz, 0, 0), zw(i.Rd), i.Rn, 0),
        0b111 => {
            // To element 0 (the rest zeroed) or to D[1] (the rest kept).
            let keep = if index == 1 { KEEP } else { 0 };
            vf(
                R_PERM,
                cfg(0, index == 1, P_INS, esz, 0, 0) | GPR | keep,
                i.Rd,
                zr(i.Rn),
                0,
            )
        }
        _ => return None,
    };
    f.rc = index;
    Some(f)
}

fn fpf(op: u32, aux: u32, rd: u32, rn: u32, rm: u32) -> Form {
    let mut f = regs_form(unit::FP, op, rd, rn, rm);
    f.aux = aux;
    f
}

fn dbl(ftype: u32) -> Option<u32> {
    match ftype {
        0 => Some(0),
        1 => Some(fp::DBL),
        _ => None, // half precision: FEAT_FP16
    }
}

/// SCVTF/UCVTF and FCVT{N,P,M,Z,A}{S,U} between W/X and S/D.
fn fp_int_convert(i: FpIntConv) -> Option<Form> {
    let d = dbl(i.ftype)?;
    let signed = if i.opcode & 1 == 0 { fp::SIGNED } else { 0 };
    let i64 = if i.sf { fp::I64 } else { 0 };
    Some(match (i.rmode, i.opcode >> 1) {
        (0, 1) => fpf(fp::CVTF, d | signed | i64, i.Rd, zr(i.Rn), 0),
        (r, 0) | (r @ 0, 2) => {
            let rm = if i.opcode >> 1 == 2 {
                4
            } else {
                [0, 1, 2, 3][r as usize]
            };
            let mut f = fpf(
                fp::CVTI,
                d | signed | i64 | rm << fp::RM_SHIFT,
                zw(i.Rd),
                i.Rn,
                0,
            );
            f.w32 = !i.sf;
            f
        }
        _ => return None,
    })
}

pub(super) fn dec_fp_fixed_conv(i: FpFixedConv, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    if i.S || (!i.sf && i.scale < 32) {
        return None;
    }
    let fb = (64 - i.scale) << fp::FBITS_SHIFT;
    let signed = if i.opcode & 1 == 0 { fp::SIGNED } else { 0 };
    let i64 = if i.sf { fp::I64 } else { 0 };
    Some(match (i.rmode, i.opcode) {
        (0, 2 | 3) => fpf(fp::CVTF, d | signed | i64 | fb, i.Rd, zr(i.Rn), 0),
        (3, 0 | 1) => {
            let rz = 3 << fp::RM_SHIFT;
            let mut f = fpf(fp::CVTI, d | signed | i64 | fb | rz, zw(i.Rd), i.Rn, 0);
            f.w32 = !i.sf;
            f
        }
        _ => return None,
    })
}

pub(super) fn dec_fp_dp2(i: FpDp2, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    let (op, neg) = match i.opcode {
        0b0000 => (fp::MUL, 0),
        0b0001 => (fp::DIV, 0),
        0b0010 => (fp::ADD, 0),
        0b0011 => (fp::SUB, 0),
        0b0100 => (fp::MINMAX, fp::MAX),
        0b0101 => (fp::MINMAX, 0),
        0b0110 => (fp::MINMAX, fp::MAX | fp::NM),
        0b0111 => (fp::MINMAX, fp::NM),
        0b1000 => (fp::MUL, fp::NEG),
        _ => return None,
    };
    Some(fpf(op, d | neg, i.Rd, i.Rn, i.Rm))
}

pub(super) fn dec_fp_dp3(i: FpDp3, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    // FMADD, FMSUB (-n), FNMADD (-n, -a), FNMSUB (-a), as qemu negates the inputs.
    let neg_c = if i.o1 { fp::NEG_C } else { 0 };
    let neg = if i.o0 != i.o1 { fp::NEG } else { 0 };
    let mut f = fpf(fp::FMA, d | neg | neg_c, i.Rd, i.Rn, i.Rm);
    f.rc = i.Ra;
    Some(f)
}

pub(super) fn dec_fp_cmp(i: FpCmp, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    let zero = i.opc & 8 != 0;
    if i.opc & 7 != 0 || (zero && i.Rm != 0) {
        return None;
    }
    let e = if i.opc & 16 != 0 { fp::E } else { 0 };
    let z = if zero { fp::ZERO } else { 0 };
    let mut f = fpf(fp::CMP, d | e | z, R_SINK, i.Rn, i.Rm);
    f.setflags = true;
    Some(f)
}

pub(super) fn dec_fp_ccmp(i: FpCcmp, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    let e = if i.op { fp::E } else { 0 };
    let mut f = fpf(fp::CCMP, d | e, R_SINK, i.Rn, i.Rm);
    f.setflags = true;
    f.cond = i.cond;
    f.imm = i.nzcv as u64;
    Some(f)
}

pub(super) fn dec_fp_csel(i: FpCsel, _pc: u64) -> Option<Form> {
    let d = dbl(i.ftype)?;
    let mut f = fpf(fp::CSEL, d, i.Rd, i.Rn, i.Rm);
    f.cond = i.cond;
    Some(f)
}

pub(super) fn dec_fp_imm(i: FpImm, _pc: u64) -> Option<Form> {
    if i.imm5 != 0 || i.ftype > 1 {
        return None;
    }
    let double = i.ftype == 1;
    let esz = 2 + i.ftype;
    let mut f = vf(
        R_LANE,
        cfg(esz, false, 0, 0, L_MOVB, B_IMM) | SCALAR,
        i.Rd,
        0,
        0,
    );
    f.imm = vfp_expand_imm(i.imm8, double);
    Some(f)
}

pub(super) fn dec_fp_dp1(i: FpDp1, _pc: u64) -> Option<Form> {
    let (from_h, to_h) = (i.ftype == 3, i.opcode == 0b000111);
    if matches!(i.opcode, 0b000100 | 0b000101 | 0b000111) && (from_h || to_h) {
        // FCVT to or from binary16: DBL names the other side.
        let other = if from_h { i.opcode & 3 } else { i.ftype };
        if from_h == to_h || other > 1 {
            return None;
        }
        let dir = if from_h { fp::WIDEN } else { fp::NARROW };
        let d = if other == 1 { fp::DBL } else { 0 };
        return Some(fpf(fp::CVT, fp::HALF | dir | d, i.Rd, i.Rn, 0));
    }
    if i.ftype > 1 {
        return None;
    }
    let esz = 2 + i.ftype;
    let sign = 1u64 << ((8 << esz) - 1);
    // FMOV, FABS and FNEG move bits: no NaN processing, no exceptions.
    if i.opcode == 0b000011 {
        return Some(fpf(fp::SQRT, dbl(i.ftype)?, i.Rd, i.Rn, 0));
    }
    if i.opcode >> 3 == 0b001 && i.opcode != 0b001101 {
        // FRINTN, P, M, Z, A, (unallocated), X, I.
        let d = dbl(i.ftype)?;
        let (rm, exact) = match i.opcode & 7 {
            k @ 0..=4 => (k, 0),
            6 => (7, fp::EXACT),
            _ => (7, 0),
        };
        return Some(fpf(fp::RINT, d | rm << fp::RM_SHIFT | exact, i.Rd, i.Rn, 0));
    }
    if i.opcode == 0b000100 || i.opcode == 0b000101 {
        // FCVT between single and double.
        if (i.opcode & 1) == i.ftype {
            return None;
        }
        return Some(fpf(fp::CVT, dbl(i.ftype)?, i.Rd, i.Rn, 0));
    }
    let (lop, imm) = match i.opcode {
        // FMOV: Vn with a zero mask cleared (the low element kept, the rest zeroed).
        0b000000 => (L_BIC, 0),
        0b000001 => (L_BIC, sign),
        0b000010 => (L_EOR, sign),
        _ => return None,
    };
    let mut f = vf(
        R_LANE,
        cfg(esz, false, 0, 0, lop, B_IMM) | SCALAR,
        i.Rd,
        i.Rn,
        0,
    );
    f.imm = imm;
    Some(f)
}

/// Three different (widening): {S,U}ADDL, {S,U}ADDW, {S,U}SUBL, {S,U}SUBW, {S,U}MULL and their
/// "2" forms (Q: the upper halves of the narrow operands).
pub(super) fn dec_simd_3diff(i: Simd3Diff, _pc: u64) -> Option<Form> {
    if i.size == 3 {
        return None;
    }
    let (recipe, lop) = match i.opcode {
        0b0000 => (R_LONG, L_ADD),
        0b0001 => (R_WADD, L_ADD),
        0b0010 => (R_LONG, L_SUB),
        0b0011 => (R_WADD, L_SUB),
        0b1100 => (R_LONG, L_MUL),
        0b0100 | 0b0110 if !i.U => {
            // ADDHN, SUBHN{2}: the wide elements added (subtracted), then the high half of each
            // narrowed into the low (high) half of Vd (glibc's string functions test bytes so).
            let lop = if i.opcode == 0b0100 { L_ADD } else { L_SUB };
            let keep = if i.Q { KEEP | PART } else { 0 };
            let c = cfg(i.size + 1, i.Q, P_NARROWH, i.size, lop, B_VM) | keep;
            return Some(vf(R_LP, c, i.Rd, i.Rn, i.Rm));
        }
        _ => return None, // the accumulating, saturating and rounding forms: not yet
    };
    let wide = i.size + 1;
    let sign = if i.U { 0 } else { SIGNED };
    let part = if i.Q { PART } else { 0 };
    let c = cfg(wide, true, P_WIDEN, wide, lop, B_VM) | sign | part;
    Some(vf(recipe, c, i.Rd, i.Rn, i.Rm))
}

/// ADDP (scalar): the two 64-bit elements of Vn added; FADDP/FMAXP/FMINP/FMAXNMP/FMINNMP
/// (scalar): the two FP elements of Vn.
pub(super) fn dec_simd_scalar_pair(i: SimdScalarPair, _pc: u64) -> Option<Form> {
    if i.U {
        let d = if i.size & 1 == 1 { fp::DBL } else { 0 };
        let (op, extra) = match (i.size >> 1, i.opcode) {
            (0, 0b01101) => (fp::ADD, 0),
            (0, 0b01111) => (fp::MINMAX, fp::MAX),
            (1, 0b01111) => (fp::MINMAX, 0),
            (0, 0b01100) => (fp::MINMAX, fp::MAX | fp::NM),
            (1, 0b01100) => (fp::MINMAX, fp::NM),
            _ => return None,
        };
        let aux = d | fp::VECTOR | fp::ONE | fp::PAIRW | extra;
        return Some(fpf(op, aux, i.Rd, i.Rn, i.Rn));
    }
    if i.opcode != 0b11011 || i.size != 3 {
        return None;
    }
    let c = cfg(3, true, P_EXT, 0, L_ADD, 0) | SCALAR;
    Some(vf(R_REDUCE, c, i.Rd, i.Rn, 0))
}

/// DUP (element, scalar), alias MOV: Vd = element index of Vn, the rest zeroed.
pub(super) fn dec_simd_scalar_copy(i: SimdScalarCopy, _pc: u64) -> Option<Form> {
    let size = i.imm5.trailing_zeros();
    if i.op || i.imm4 != 0 || size > 3 {
        return None;
    }
    let mut f = vf(
        R_PERM,
        cfg(size, false, P_DUP, size, 0, 0) | SCALAR,
        i.Rd,
        i.Rn,
        0,
    );
    f.rc = i.imm5 >> (size + 1);
    Some(f)
}

/// FMLA/FMLS/FMUL (by element), vector: Vm's element for every lane.
pub(super) fn dec_simd_fp_elem(i: SimdFpElem, _pc: u64) -> Option<Form> {
    let e = FpElem {
        q: i.Q,
        u: i.U,
        scalar: false,
        dbl: i.sz,
        l: i.L,
        h: i.H,
        rm: (i.M as u32) << 4 | i.Rm,
        opcode: i.opcode,
    };
    fp_elem(e, i.Rd, i.Rn)
}

/// The scalar form: one lane.
pub(super) fn dec_simd_scalar_fp_elem(i: SimdScalarFpElem, _pc: u64) -> Option<Form> {
    let e = FpElem {
        q: true,
        u: i.U,
        scalar: true,
        dbl: i.sz,
        l: i.L,
        h: i.H,
        rm: (i.M as u32) << 4 | i.Rm,
        opcode: i.opcode,
    };
    fp_elem(e, i.Rd, i.Rn)
}

struct FpElem {
    q: bool,
    u: bool,
    scalar: bool,
    dbl: bool,
    l: bool,
    h: bool,
    rm: u32,
    opcode: u32,
}

fn fp_elem(i: FpElem, rd: u32, rn: u32) -> Option<Form> {
    let dbl = i.dbl;
    if dbl && (i.l || (!i.q && !i.scalar)) {
        return None; // the reserved forms (half precision has size<1> clear: another row)
    }
    let index = if dbl {
        i.h as u32
    } else {
        (i.h as u32) << 1 | i.l as u32
    };
    let rm = i.rm;
    let (op, extra) = match (i.u, i.opcode) {
        (false, 0b0001) => (fp::FMA, 0),
        (false, 0b0101) => (fp::FMA, fp::NEG),
        (false, 0b1001) => (fp::MUL, 0),
        _ => return None, // FMULX: not yet
    };
    let d = if dbl { fp::DBL } else { 0 };
    let shape = if i.scalar {
        fp::ONE
    } else if i.q {
        fp::Q
    } else {
        0
    };
    let aux = d | fp::VECTOR | shape | fp::BYELEM | index << fp::ELEM_SHIFT | extra;
    Some(fpf(op, aux, rd, rn, rm))
}
