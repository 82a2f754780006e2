//! The table of A64 encodings garm executes: one row per encoding group, each a bit pattern with
//! the Arm manual's field names (see [`super::pattern`]), the ISA.md class it belongs to, and the
//! function that maps its fields to the decoded form. The decoder, the fuzzer and the
//! documentation all walk this one table; a word that matches no row, or that a row rejects as
//! unallocated, decodes to a trap.

use super::form::*;
use super::pattern::fields;

mod simd;

/// The ISA.md Tier-2 classes (FP/SIMD) among the rows' classes.
pub const TIER2_CLASSES: &[&str] = &[
    "LSE atomics",
    "FP/SIMD load/store",
    "SIMD integer",
    "SIMD moves and bit ops",
    "scalar FP",
];

/// One row of the encoding table.
pub struct Encoding {
    /// Mnemonic group, as reports and docs show it.
    pub name: &'static str,
    /// ISA.md Tier-1 class.
    pub class: &'static str,
    /// The row as the manual draws it, bit 31 first: `0`/`1` fixed, `name:width` a field.
    pub pattern: &'static str,
    /// The pattern's fixed bits (a word is this row's when `word & mask == value`).
    pub mask: u32,
    pub value: u32,
    /// Maps a matching word at `pc` to its decoded form; `None` for unallocated field values.
    pub decode: fn(u32, u64) -> Option<Form>,
}

fn sext(v: u64, width: u32) -> i64 {
    ((v << (64 - width)) as i64) >> (64 - width)
}

/// Register 31 as the zero register, as a source.
fn zr(r: u32) -> u32 {
    if r == 31 {
        R_ZR
    } else {
        r
    }
}
/// Register 31 as the zero register, as a destination (writes discarded).
fn zw(r: u32) -> u32 {
    if r == 31 {
        R_SINK
    } else {
        r
    }
}

/// A64 `DecodeBitMasks`: (wmask, tmask) for logical immediates and bitfields; `None` if reserved.
pub fn decode_bit_masks(
    n: u32,
    imms: u32,
    immr: u32,
    immediate: bool,
    datasize: u32,
) -> Option<(u64, u64)> {
    let combined = (n << 6) | (!imms & 0x3f);
    if combined == 0 {
        return None;
    }
    let len = 31 - combined.leading_zeros();
    if len < 1 || (1u32 << len) > datasize {
        return None;
    }
    let levels = (1u32 << len) - 1;
    if immediate && (imms & levels) == levels {
        return None;
    }
    let s = imms & levels;
    let r = immr & levels;
    let diff = s.wrapping_sub(r) & levels;
    let esize = 1u32 << len;
    let d = diff & levels;
    let ones = |k: u32| if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
    let welem = ones(s + 1);
    let telem = ones(d + 1);
    let ror = |x: u64, r: u32| {
        let x = x & ones(esize);
        if r == 0 {
            x
        } else {
            ((x >> r) | (x << (esize - r))) & ones(esize)
        }
    };
    let rep = |x: u64| {
        let mut v = 0u64;
        let mut i = 0;
        while i < datasize {
            v |= x << i;
            i += esize;
        }
        v & ones(datasize)
    };
    Some((rep(ror(welem, r)), rep(telem)))
}

fn alu(opc: u32, w32: bool) -> Form {
    let mut f = Form::new(unit::ALU, opc);
    f.w32 = w32;
    f
}

// ---------------------------------------------------------------- data processing, immediate

fn dec_adr(i: Adr, pc: u64) -> Option<Form> {
    let imm = sext(((i.immhi << 2) | i.immlo) as u64, 21);
    let v = if i.op {
        (pc & !0xfff).wrapping_add((imm << 12) as u64)
    } else {
        pc.wrapping_add(imm as u64)
    };
    let mut f = alu(op::ORR, false);
    f.bsrc = bsrc::IMM;
    f.imm = v;
    f.rd = zw(i.Rd);
    Some(f)
}

fn dec_addsub_imm(i: AddSubImm, _pc: u64) -> Option<Form> {
    let mut f = alu(op::ADD, !i.sf);
    f.setflags = i.S;
    f.bsrc = bsrc::IMM;
    f.imm = (i.imm12 as u64) << if i.sh { 12 } else { 0 };
    addsub(&mut f, i.op);
    f.rn = i.Rn; // 31 is SP
    f.rd = if i.S { zw(i.Rd) } else { i.Rd };
    Some(f)
}

fn dec_logic_imm(i: LogicImm, _pc: u64) -> Option<Form> {
    if !i.sf && i.N {
        return None;
    }
    let size = if i.sf { 64 } else { 32 };
    let (wmask, _) = decode_bit_masks(i.N as u32, i.imms, i.immr, true, size)?;
    let mut f = alu([op::AND, op::ORR, op::EOR, op::AND][i.opc as usize], !i.sf);
    f.setflags = i.opc == 3;
    f.bsrc = bsrc::IMM;
    f.imm = wmask;
    f.rn = zr(i.Rn);
    f.rd = if i.opc == 3 { zw(i.Rd) } else { i.Rd };
    Some(f)
}

fn dec_movewide(i: MoveWide, _pc: u64) -> Option<Form> {
    if i.opc == 1 || (!i.sf && i.hw >= 2) {
        return None;
    }
    let imm16 = i.imm16 as u64;
    let sh = i.hw * 16;
    if i.opc == 3 {
        // MOVK: insert imm16 at sh, keeping the rest of Rd.
        let mut f = Form::new(unit::BFM, 0);
        f.w32 = !i.sf;
        f.bsrc = bsrc::IMM;
        f.imm = imm16;
        f.rd = zw(i.Rd);
        f.rc = zr(i.Rd);
        f.aux = sh << bfm::POS_SHIFT | 16 << bfm::WIDTH_SHIFT | bfm::MODE_INSERT << bfm::MODE_SHIFT;
        return Some(f);
    }
    let v = imm16 << sh;
    let mut f = alu(op::ORR, !i.sf);
    f.bsrc = bsrc::IMM;
    f.imm = if i.opc == 0 { !v } else { v };
    f.rd = zw(i.Rd);
    Some(f)
}

/// The bitfield unit parameters for (S|U)BFM/BFM with immr/imms on `size` bits.
fn bitfield(immr: u32, imms: u32, size: u32, mode: u32) -> u32 {
    let (lsb, pos, width) = if imms >= immr {
        (immr, 0, imms - immr + 1)
    } else {
        (0, size - immr, imms + 1)
    };
    lsb << bfm::LSB_SHIFT
        | pos << bfm::POS_SHIFT
        | width << bfm::WIDTH_SHIFT
        | mode << bfm::MODE_SHIFT
}

fn dec_bitfield(i: Bitfield, _pc: u64) -> Option<Form> {
    if i.opc == 3 || i.N != i.sf || (!i.sf && (i.immr >= 32 || i.imms >= 32)) {
        return None;
    }
    let size = if i.sf { 64 } else { 32 };
    let mode = [bfm::MODE_SIGN, bfm::MODE_INSERT, bfm::MODE_ZERO][i.opc as usize];
    let mut f = Form::new(unit::BFM, 0);
    f.w32 = !i.sf;
    f.rm = zr(i.Rn); // the source rides in operand B; rc holds Rd for BFM's insert
    f.rd = zw(i.Rd);
    f.rc = zr(i.Rd);
    f.aux = bitfield(i.immr, i.imms, size, mode);
    Some(f)
}

fn dec_extr(i: Extr, _pc: u64) -> Option<Form> {
    if i.N != i.sf || (!i.sf && i.imms >= 32) {
        return None;
    }
    let mut f = Form::new(unit::BFM, 0);
    f.w32 = !i.sf;
    f.rn = zr(i.Rn);
    f.rm = zr(i.Rm);
    f.rd = zw(i.Rd);
    f.aux = i.imms << bfm::LSB_SHIFT | bfm::MODE_EXTR << bfm::MODE_SHIFT;
    Some(f)
}

// ---------------------------------------------------------------- branches and system

fn branch(opn: u32, target: u64) -> Form {
    let mut f = Form::new(unit::BR, opn);
    // Guest memory lies below 4 GiB; a target past it wraps to an address the fetch rejects.
    f.imm = target as u32 as i32 as i64 as u64;
    f
}

/// `pc` plus a word offset of `bits` bits.
fn rel(pc: u64, words: u32, bits: u32) -> u64 {
    pc.wrapping_add(sext((words as u64) << 2, bits + 2) as u64)
}

fn dec_b(i: BImm, pc: u64) -> Option<Form> {
    let mut f = branch(if i.op { op::BL } else { op::B }, rel(pc, i.imm26, 26));
    if i.op {
        f.rd = 30;
    }
    Some(f)
}

fn dec_bcond(i: BCond, pc: u64) -> Option<Form> {
    let mut f = branch(op::BCOND, rel(pc, i.imm19, 19));
    f.cond = i.cond;
    Some(f)
}

fn dec_cbz(i: Cbz, pc: u64) -> Option<Form> {
    let o = if i.op { op::BNONZERO } else { op::BZERO };
    let mut f = branch(o, rel(pc, i.imm19, 19));
    f.rn = zr(i.Rt);
    f.w32 = !i.sf; // CBZ Wt tests only the low word
    Some(f)
}

fn dec_tbz(i: Tbz, pc: u64) -> Option<Form> {
    let mut f = branch(if i.op { op::BTNZ } else { op::BTZ }, rel(pc, i.imm14, 14));
    f.rn = zr(i.Rt);
    f.shamt = i.b40 | (i.b5 as u32) << 5;
    Some(f)
}

/// BR, BLR (`link`: the return address goes to x30) and RET.
fn branch_reg(rn: u32, link: bool) -> Option<Form> {
    let mut f = Form::new(unit::BR, if link { op::BLREG } else { op::BREG });
    f.rn = zr(rn);
    if link {
        f.rd = 30;
    }
    Some(f)
}
fn dec_br(i: Br, _pc: u64) -> Option<Form> {
    branch_reg(i.Rn, false)
}
fn dec_blr(i: Blr, _pc: u64) -> Option<Form> {
    branch_reg(i.Rn, true)
}
fn dec_ret(i: Ret, _pc: u64) -> Option<Form> {
    branch_reg(i.Rn, false)
}

fn sys(opn: u32) -> Form {
    Form::new(unit::SYS, opn)
}

// The decoders below read no field, so they take any row's.
fn dec_svc<T>(_: T, _pc: u64) -> Option<Form> {
    // The result (x0) of a syscall the shader answers goes through the ordinary write port.
    let mut f = sys(op::SVC);
    f.rd = 0;
    Some(f)
}
fn dec_brk<T>(_: T, _pc: u64) -> Option<Form> {
    Some(sys(op::BRK))
}
fn dec_hlt<T>(_: T, _pc: u64) -> Option<Form> {
    Some(Form::new(unit::TRAP, op::HLT))
}
fn dec_nop<T>(_: T, _pc: u64) -> Option<Form> {
    Some(sys(op::NOP))
}
fn dec_clrex<T>(_: T, _pc: u64) -> Option<Form> {
    Some(sys(op::CLREX))
}

/// op0:op1:CRn:CRm:op2 of a system register as one key, op0 (2 + o0) stored as o0, the way
/// bits 19:5 of MRS/MSR hold it.
const fn sr(op0: u32, op1: u32, crn: u32, crm: u32, op2: u32) -> u32 {
    (op0 - 2) << 14 | op1 << 11 | crn << 7 | crm << 3 | op2
}

fn sysreg_id(key: u32, write: bool) -> Option<u32> {
    let id = match key {
        k if k == sr(3, 3, 4, 2, 0) => sysreg::NZCV,
        k if k == sr(3, 3, 13, 0, 2) => sysreg::TPIDR_EL0,
        k if k == sr(3, 3, 4, 4, 0) => sysreg::FPCR,
        k if k == sr(3, 3, 4, 4, 1) => sysreg::FPSR,
        k if k == sr(3, 3, 14, 0, 2) && !write => sysreg::CNTVCT_EL0,
        k if k == sr(3, 3, 14, 0, 0) && !write => sysreg::CNTFRQ_EL0,
        k if k == sr(3, 3, 0, 0, 1) && !write => sysreg::CTR_EL0,
        k if k == sr(3, 3, 0, 0, 7) && !write => sysreg::DCZID_EL0,
        k if k == sr(3, 3, 13, 0, 3) && !write => sysreg::TPIDRRO_EL0,
        _ => return None,
    };
    Some(id)
}

fn dec_mrs(i: Mrs, _pc: u64) -> Option<Form> {
    if i.o0 && i.op1 == 0 && i.CRn == 0 {
        // An ID register is a constant: decoded as one, it costs the shader nothing.
        let mut f = alu(op::ORR, false);
        f.bsrc = bsrc::IMM;
        f.imm = super::idregs::read(i.CRm, i.op2)?;
        f.rd = zw(i.Rt);
        return Some(f);
    }
    let mut f = sys(op::MRS);
    f.aux = sysreg_id(sr(2 + i.o0 as u32, i.op1, i.CRn, i.CRm, i.op2), false)?;
    f.rd = zw(i.Rt);
    Some(f)
}

fn dec_msr(i: Msr, _pc: u64) -> Option<Form> {
    let mut f = sys(op::MSR);
    f.aux = sysreg_id(sr(2 + i.o0 as u32, i.op1, i.CRn, i.CRm, i.op2), true)?;
    f.rm = zr(i.Rt);
    Some(f)
}

fn dec_dc_zva(i: DcZva, _pc: u64) -> Option<Form> {
    let mut f = sys(op::DCZVA);
    f.rn = zr(i.Rt);
    Some(f)
}

// ---------------------------------------------------------------- data processing, register

/// Operand B as Rm shifted by `imm6`; `None` for the amounts and shift types that are
/// unallocated.
fn shifted_operand(
    f: &mut Form,
    w32: bool,
    logical: bool,
    shift: u32,
    imm6: u32,
    rm: u32,
) -> Option<()> {
    if (w32 && imm6 >= 32) || (!logical && shift == 3) {
        return None;
    }
    f.rm = zr(rm);
    f.sht = shift;
    f.shamt = imm6;
    if w32 {
        // W operands shift the 32-bit value: feed in what the shift brings down from bit 31.
        f.ext = match shift {
            sht::LSR => ext::UXTW,
            sht::ASR => ext::SXTW,
            sht::ROR => ext::REP32,
            _ => ext::NONE,
        };
    }
    Some(())
}

fn dec_logic_reg(i: LogicReg, _pc: u64) -> Option<Form> {
    let mut f = alu([op::AND, op::ORR, op::EOR, op::AND][i.opc as usize], !i.sf);
    shifted_operand(&mut f, !i.sf, true, i.shift, i.imm6, i.Rm)?;
    f.invb = i.N;
    f.setflags = i.opc == 3;
    f.rn = zr(i.Rn);
    f.rd = zw(i.Rd);
    Some(f)
}

fn addsub(f: &mut Form, sub: bool) {
    f.invb = sub;
    f.cin = if sub { cin::ONE } else { cin::ZERO };
}

fn dec_addsub_shift(i: AddSubShift, _pc: u64) -> Option<Form> {
    let mut f = alu(op::ADD, !i.sf);
    shifted_operand(&mut f, !i.sf, false, i.shift, i.imm6, i.Rm)?;
    addsub(&mut f, i.op);
    f.setflags = i.S;
    f.rn = zr(i.Rn);
    f.rd = zw(i.Rd);
    Some(f)
}

fn dec_addsub_ext(i: AddSubExt, _pc: u64) -> Option<Form> {
    if i.imm3 > 4 {
        return None;
    }
    let mut f = alu(op::ADD, !i.sf);
    addsub(&mut f, i.op);
    f.setflags = i.S;
    f.ext = [
        ext::UXTB,
        ext::UXTH,
        ext::UXTW,
        ext::NONE,
        ext::SXTB,
        ext::SXTH,
        ext::SXTW,
        ext::NONE,
    ][i.option as usize];
    f.shamt = i.imm3;
    f.rm = zr(i.Rm);
    f.rn = i.Rn; // SP
    f.rd = if i.S { zw(i.Rd) } else { i.Rd };
    Some(f)
}

fn dec_adc(i: Adc, _pc: u64) -> Option<Form> {
    let mut f = alu(op::ADD, !i.sf);
    f.invb = i.op;
    f.cin = cin::CARRY;
    f.setflags = i.S;
    f.rm = zr(i.Rm);
    f.rn = zr(i.Rn);
    f.rd = zw(i.Rd);
    Some(f)
}

/// CCMN/CCMP less operand B.
fn ccmp(sf: bool, sub: bool, cond: u32, rn: u32, nzcv: u32) -> Form {
    let mut f = Form::new(unit::CCMP, 0);
    f.w32 = !sf;
    addsub(&mut f, sub);
    f.cond = cond;
    f.rn = zr(rn);
    f.aux = nzcv;
    f.setflags = true;
    f
}

fn dec_ccmp_reg(i: CcmpReg, _pc: u64) -> Option<Form> {
    let mut f = ccmp(i.sf, i.op, i.cond, i.Rn, i.nzcv);
    f.rm = zr(i.Rm);
    Some(f)
}

fn dec_ccmp_imm(i: CcmpImm, _pc: u64) -> Option<Form> {
    let mut f = ccmp(i.sf, i.op, i.cond, i.Rn, i.nzcv);
    f.bsrc = bsrc::IMM;
    f.imm = i.imm5 as u64;
    Some(f)
}

fn dec_csel(i: Csel, _pc: u64) -> Option<Form> {
    let mut f = Form::new(unit::CSEL, 0);
    f.w32 = !i.sf;
    f.cond = i.cond;
    f.invb = i.op;
    f.cin = if i.o2 { cin::ONE } else { cin::ZERO };
    f.rn = zr(i.Rn);
    f.rm = zr(i.Rm);
    f.rd = zw(i.Rd);
    Some(f)
}

fn dec_dp2(i: Dp2, _pc: u64) -> Option<Form> {
    let mut f = match i.opcode {
        2 => Form::new(unit::DIV, op::UDIV),
        3 => Form::new(unit::DIV, op::SDIV),
        8..=11 => {
            // Variable shift: operand B is Rn (via rc) shifted by Rm, then ORR with zero.
            let mut f = alu(op::ORR, !i.sf);
            f.bsrc = bsrc::RC;
            f.rc = zr(i.Rn);
            f.shvar = true;
            f.sht = i.opcode - 8;
            if !i.sf {
                f.ext = [ext::NONE, ext::UXTW, ext::SXTW, ext::REP32][(i.opcode - 8) as usize];
            }
            f
        }
        _ => return None,
    };
    f.w32 = !i.sf;
    if f.unit == unit::DIV {
        f.rn = zr(i.Rn);
    }
    f.rm = zr(i.Rm);
    f.rd = zw(i.Rd);
    Some(f)
}

fn dec_dp1(i: Dp1, _pc: u64) -> Option<Form> {
    let o = match (i.opcode, i.sf) {
        (0, _) => op::RBIT,
        (1, _) => op::REV16,
        (2, _) => op::REV32, // REV Wd is REV32 of the low word
        (3, true) => op::REV64,
        (4, _) => op::CLZ,
        (5, _) => op::CLS,
        _ => return None,
    };
    let mut f = Form::new(unit::ONE, o);
    f.w32 = !i.sf;
    f.rn = zr(i.Rn);
    f.rd = zw(i.Rd);
    Some(f)
}

fn dec_dp3(i: Dp3, _pc: u64) -> Option<Form> {
    if i.op54 != 0 {
        return None;
    }
    let o = match (i.op31, i.o0, i.sf) {
        (0, _, _) => op::MADD,
        (1, _, true) => op::SMADDL,
        (5, _, true) => op::UMADDL,
        (2, false, true) => op::SMULH,
        (6, false, true) => op::UMULH,
        _ => return None,
    };
    let high = o == op::SMULH || o == op::UMULH;
    let mut f = Form::new(unit::MUL, o);
    f.w32 = !i.sf;
    f.invb = i.o0 && !high;
    f.rn = zr(i.Rn);
    f.rm = zr(i.Rm);
    f.rc = if high { R_ZR } else { zr(i.Ra) };
    f.rd = zw(i.Rd);
    Some(f)
}

// ---------------------------------------------------------------- loads and stores

/// Memory form: `size` log2 bytes, Rt in rc, Rn base (SP) in rn. Loads name XZR as the sink, so
/// the zero register is never written; stores read it as zero.
fn memf(rn: u32, rt: u32, size: u32, flags: u32, idx: u32) -> Form {
    let mut f = Form::new(unit::MEM, 0);
    f.rn = rn;
    let load = flags & mem::STORE == 0;
    f.rc = if flags & mem::PRFM != 0 {
        R_SINK
    } else if load {
        zw(rt)
    } else {
        zr(rt)
    };
    f.aux = size | flags | idx << mem::IDX_SHIFT;
    f
}

/// size/opc of the single-register forms: (flags, valid). `prfm` true when it is a prefetch.
fn ldst_kind(size: u32, opc: u32) -> Option<(u32, bool)> {
    Some(match (size, opc) {
        (_, 0) => (mem::STORE, false),
        (_, 1) => (0, false),
        (3, 2) => (mem::PRFM, true),
        (_, 2) => (mem::SX64, false),
        (2, 3) | (3, 3) => return None,
        (_, 3) => (mem::SX32, false),
        _ => return None,
    })
}

fn dec_ld_literal(i: LdLiteral, pc: u64) -> Option<Form> {
    let (size, flags) = match i.opc {
        0 => (2, 0),
        1 => (3, 0),
        2 => (2, mem::SX64),
        _ => (3, mem::PRFM),
    };
    let mut f = memf(R_ZR, i.Rt, size, flags, mem::IDX_OFFSET);
    f.bsrc = bsrc::IMM;
    // The address rides in the 32-bit immediate, as a branch target does (see `branch`).
    f.imm = rel(pc, i.imm19, 19) as u32 as i32 as i64 as u64;
    Some(f)
}

/// Addressing mode of a pair's op2 or a single register's op4: 1 post-index, 3 pre-index, else
/// at the offset (no-allocate, unscaled and unprivileged differ only in hints and privilege).
fn index_mode(op: u32) -> u32 {
    match op {
        0 | 2 => mem::IDX_OFFSET,
        1 => mem::IDX_POST,
        _ => mem::IDX_PRE,
    }
}

fn dec_ldst_imm9(i: LdstImm9, _pc: u64) -> Option<Form> {
    let (flags, prfm) = ldst_kind(i.size, i.opc)?;
    let idx = index_mode(i.op4);
    // Prefetch exists only as PRFUM (unscaled): no writeback and no unprivileged (LDTR-form)
    // variant; those words are unallocated (found by the fuzzer: 0xf88a98b3).
    if prfm && i.op4 != 0 {
        return None;
    }
    let mut f = memf(i.Rn, i.Rt, i.size, flags, idx);
    f.bsrc = bsrc::IMM;
    f.imm = sext(i.imm9 as u64, 9) as u64;
    if idx != mem::IDX_OFFSET {
        f.rd = i.Rn;
    }
    Some(f)
}

fn dec_ldst_uimm(i: LdstUimm, _pc: u64) -> Option<Form> {
    let (flags, _) = ldst_kind(i.size, i.opc)?;
    let mut f = memf(i.Rn, i.Rt, i.size, flags, mem::IDX_OFFSET);
    f.bsrc = bsrc::IMM;
    f.imm = (i.imm12 as u64) << i.size;
    Some(f)
}

fn dec_ldst_reg(i: LdstReg, _pc: u64) -> Option<Form> {
    let (flags, _) = ldst_kind(i.size, i.opc)?;
    let e = match i.option {
        2 => ext::UXTW,
        3 | 7 => ext::NONE,
        6 => ext::SXTW,
        _ => return None,
    };
    let mut f = memf(i.Rn, i.Rt, i.size, flags, mem::IDX_OFFSET);
    f.rm = zr(i.Rm);
    f.ext = e;
    f.shamt = if i.S { i.size } else { 0 };
    Some(f)
}

fn dec_ldst_pair(i: LdstPair, _pc: u64) -> Option<Form> {
    let (size, flags) = match (i.opc, i.L) {
        (0, _) => (2, 0),
        (1, true) if i.op2 != 0 => (2, mem::SX64),
        (2, _) => (3, 0),
        _ => return None,
    };
    let idx = index_mode(i.op2);
    let store = if i.L { 0 } else { mem::STORE };
    let mut f = memf(i.Rn, i.Rt, size, flags | mem::PAIR | store, idx);
    f.rc2 = if i.L { zw(i.Rt2) } else { zr(i.Rt2) };
    if i.L && i.Rt2 == i.Rt {
        // LDP Rt == Rt2 is constrained unpredictable; qemu (the reference) keeps the first
        // value, so the second load is discarded (found by the semantics test).
        f.rc2 = R_SINK;
    }
    f.bsrc = bsrc::IMM;
    f.imm = (sext(i.imm7 as u64, 7) << size) as u64;
    if idx != mem::IDX_OFFSET {
        f.rd = i.Rn;
    }
    Some(f)
}

fn dec_ldst_excl(i: LdstExcl, _pc: u64) -> Option<Form> {
    let load = i.L;
    // acquire/release (o0) is moot: an atomic step is whole (the ATOMIC unit's line lock), and a
    // dispatch boundary orders everything
    let pair = i.o1 && !i.o2;
    if i.o1 && i.o2 {
        // CAS{A,L,AL}{B,H}: compare Xs with memory, store Xt if equal, Xs = the old value.
        if i.Rt2 != 31 {
            return None;
        }
        let mut f = Form::new(unit::ATOMIC, 0);
        f.rn = i.Rn;
        f.rm = zr(i.Rs);
        f.rc = zr(i.Rt);
        f.rd = zw(i.Rs);
        f.w32 = i.size < 3;
        f.aux = i.size | atomic::CAS << atomic::OP_SHIFT;
        return Some(f);
    }
    if i.o1 && i.size < 2 {
        // CASP{A,L,AL}: Rs and Rt even, the pair compared and stored as one access.
        if i.Rt2 != 31 || i.Rs & 1 == 1 || i.Rt & 1 == 1 {
            return None;
        }
        let mut f = Form::new(unit::ATOMIC, 0);
        f.rn = i.Rn;
        f.rm = i.Rs;
        f.rc = i.Rt;
        f.w32 = i.size == 0;
        f.aux = (2 + i.size) | atomic::CASP << atomic::OP_SHIFT;
        return Some(f);
    }
    let status = !i.o2 && !load;
    if (!pair && i.Rt2 != 31) || (!status && i.Rs != 31) {
        return None;
    }
    if status {
        // STXR/STXP: one step of the ATOMIC unit, which takes the line's lock, checks the
        // monitor and the value the load-exclusive saw, and stores.
        let mut f = Form::new(unit::ATOMIC, 0);
        f.rn = i.Rn;
        f.rc = zr(i.Rt);
        f.rm = if pair { zr(i.Rt2) } else { R_ZR };
        f.rd = zw(i.Rs);
        f.w32 = true;
        f.aux = if pair {
            (i.size & 1 | 2) | atomic::STXP << atomic::OP_SHIFT
        } else {
            i.size | atomic::STX << atomic::OP_SHIFT
        };
        return Some(f);
    }
    let store = if load { 0 } else { mem::STORE };
    let mut f = if i.o2 {
        // LDAR/STLR (and the LORegion forms LDLAR/STLLR): plain ordered accesses.
        memf(i.Rn, i.Rt, i.size, store, mem::IDX_OFFSET)
    } else {
        // LDXR (B, H, W, X) and, as two micro-steps like LDP, LDXP (W, X pairs: size 2 or 3
        // means each register's size, 32 or 64 bits): they set the monitor and record what
        // they read.
        let (esize, pflag) = if pair {
            (i.size & 1 | 2, mem::PAIR)
        } else {
            (i.size, 0)
        };
        let mut f = memf(i.Rn, i.Rt, esize, mem::EXCL | pflag, mem::IDX_OFFSET);
        if pair {
            f.rc2 = zw(i.Rt2);
        }
        f
    };
    f.bsrc = bsrc::IMM;
    f.imm = 0;
    Some(f)
}

/// LSE atomic memory operations (LDADD, LDCLR, LDEOR, LDSET, LD{S,U}{MAX,MIN}, SWP in every size
/// and ordering; ordering is moot with one thread per address space) and LDAPR, which shares
/// their encoding space.
fn dec_atomic(i: Atomic, _pc: u64) -> Option<Form> {
    let op = match (i.o3, i.opc) {
        (false, k) => k,
        (true, 0) => atomic::SWP,
        (true, 4) if i.A && !i.R && i.Rs == 31 => {
            let mut f = memf(i.Rn, i.Rt, i.size, 0, mem::IDX_OFFSET);
            f.bsrc = bsrc::IMM;
            return Some(f);
        }
        _ => return None,
    };
    let mut f = Form::new(unit::ATOMIC, 0);
    f.rn = i.Rn;
    f.rm = zr(i.Rs);
    f.rc = zw(i.Rt);
    f.w32 = i.size < 3;
    f.aux = i.size | op << atomic::OP_SHIFT;
    Some(f)
}

/// Rows are written `Type: [pattern] "name", "class" => decoder;`. `Type` is the struct of the
/// pattern's fields (see `pattern::fields!`) and the decoder takes it, so a decoder reads only
/// fields its row has, at the widths the row gives them.
macro_rules! encodings {
    ($($ty:ident: [$($pat:tt)*] $name:literal, $class:literal => $dec:path;)*) => {
        $(fields!($ty [$($pat)*]);)*

        /// The table. Order matters only where patterns nest (a more specific row comes first).
        pub static ENCODINGS: &[Encoding] = &[$(Encoding {
            name: $name,
            class: $class,
            pattern: $ty::PATTERN,
            mask: $ty::FIXED.mask,
            value: $ty::FIXED.value,
            decode: |w, pc| $dec($ty::new(w), pc),
        },)*];
    };
}

// Field names are the Arm ARM's (DDI 0487, "A64 Instruction Set Encoding"); bits a class fixes
// are written as the manual's value for that class.
encodings! {
    Adr: [op:1 immlo:2 10000 immhi:19 Rd:5]
        "ADR/ADRP", "PC-relative" => dec_adr;
    AddSubImm: [sf:1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5]
        "ADD/SUB (immediate)", "add/sub immediate" => dec_addsub_imm;
    LogicImm: [sf:1 opc:2 100100 N:1 immr:6 imms:6 Rn:5 Rd:5]
        "AND/ORR/EOR/ANDS (immediate)", "logical immediate" => dec_logic_imm;
    MoveWide: [sf:1 opc:2 100101 hw:2 imm16:16 Rd:5]
        "MOVN/MOVZ/MOVK", "move wide" => dec_movewide;
    Bitfield: [sf:1 opc:2 100110 N:1 immr:6 imms:6 Rn:5 Rd:5]
        "SBFM/BFM/UBFM", "bitfield" => dec_bitfield;
    Extr: [sf:1 00 100111 N:1 0 Rm:5 imms:6 Rn:5 Rd:5]
        "EXTR", "bitfield" => dec_extr;
    BImm: [op:1 00101 imm26:26]
        "B/BL", "branches" => dec_b;
    BCond: [0101010 0 imm19:19 0 cond:4]
        "B.cond", "branches" => dec_bcond;
    Cbz: [sf:1 011010 op:1 imm19:19 Rt:5]
        "CBZ/CBNZ", "branches" => dec_cbz;
    Tbz: [b5:1 011011 op:1 b40:5 imm14:14 Rt:5]
        "TBZ/TBNZ", "branches" => dec_tbz;
    Br: [1101011 0000 11111 000000 Rn:5 00000]
        "BR", "branches" => dec_br;
    Blr: [1101011 0001 11111 000000 Rn:5 00000]
        "BLR", "branches" => dec_blr;
    Ret: [1101011 0010 11111 000000 Rn:5 00000]
        "RET", "branches" => dec_ret;
    Svc: [11010100 000 imm16:16 000 01]
        "SVC", "system" => dec_svc;
    Brk: [11010100 001 imm16:16 000 00]
        "BRK", "traps" => dec_brk;
    Hlt: [11010100 010 imm16:16 000 00]
        "HLT", "traps" => dec_hlt;
    Hint: [1101010100 0 00 011 0010 CRm:4 op2:3 11111]
        "HINT (NOP, YIELD, ...)", "system" => dec_nop;
    Clrex: [1101010100 0 00 011 0011 CRm:4 010 11111]
        "CLREX", "system" => dec_clrex;
    Dsb: [1101010100 0 00 011 0011 CRm:4 100 11111]
        "DSB", "system" => dec_nop;
    Dmb: [1101010100 0 00 011 0011 CRm:4 101 11111]
        "DMB", "system" => dec_nop;
    Isb: [1101010100 0 00 011 0011 CRm:4 110 11111]
        "ISB", "system" => dec_nop;
    DcZva: [1101010100 0 01 011 0111 0100 001 Rt:5]
        "DC ZVA", "system" => dec_dc_zva;
    DcCvau: [1101010100 0 01 011 0111 1011 001 Rt:5]
        "DC CVAU", "system" => dec_nop;
    DcCivac: [1101010100 0 01 011 0111 1110 001 Rt:5]
        "DC CIVAC", "system" => dec_nop;
    DcCvac: [1101010100 0 01 011 0111 1010 001 Rt:5]
        "DC CVAC", "system" => dec_nop;
    IcIvau: [1101010100 0 01 011 0111 0101 001 Rt:5]
        "IC IVAU", "system" => dec_nop;
    Mrs: [1101010100 1 1 o0:1 op1:3 CRn:4 CRm:4 op2:3 Rt:5]
        "MRS", "system" => dec_mrs;
    Msr: [1101010100 0 1 o0:1 op1:3 CRn:4 CRm:4 op2:3 Rt:5]
        "MSR (register)", "system" => dec_msr;
    LogicReg: [sf:1 opc:2 01010 shift:2 N:1 Rm:5 imm6:6 Rn:5 Rd:5]
        "AND/BIC/ORR/ORN/EOR/EON/ANDS/BICS (shifted register)", "logical register" => dec_logic_reg;
    AddSubShift: [sf:1 op:1 S:1 01011 shift:2 0 Rm:5 imm6:6 Rn:5 Rd:5]
        "ADD/SUB (shifted register)", "add/sub register" => dec_addsub_shift;
    AddSubExt: [sf:1 op:1 S:1 01011 00 1 Rm:5 option:3 imm3:3 Rn:5 Rd:5]
        "ADD/SUB (extended register)", "add/sub register" => dec_addsub_ext;
    Adc: [sf:1 op:1 S:1 11010000 Rm:5 000000 Rn:5 Rd:5]
        "ADC/ADCS/SBC/SBCS", "with carry" => dec_adc;
    CcmpReg: [sf:1 op:1 1 11010010 Rm:5 cond:4 0 0 Rn:5 0 nzcv:4]
        "CCMN/CCMP (register)", "conditional" => dec_ccmp_reg;
    CcmpImm: [sf:1 op:1 1 11010010 imm5:5 cond:4 1 0 Rn:5 0 nzcv:4]
        "CCMN/CCMP (immediate)", "conditional" => dec_ccmp_imm;
    Csel: [sf:1 op:1 0 11010100 Rm:5 cond:4 0 o2:1 Rn:5 Rd:5]
        "CSEL/CSINC/CSINV/CSNEG", "conditional" => dec_csel;
    Dp2: [sf:1 0 0 11010110 Rm:5 opcode:6 Rn:5 Rd:5]
        "UDIV/SDIV/LSLV/LSRV/ASRV/RORV", "shifts/divide" => dec_dp2;
    Dp1: [sf:1 1 0 11010110 00000 opcode:6 Rn:5 Rd:5]
        "RBIT/REV16/REV32/REV/CLZ/CLS", "one source" => dec_dp1;
    Dp3: [sf:1 op54:2 11011 op31:3 Rm:5 o0:1 Ra:5 Rn:5 Rd:5]
        "MADD/MSUB/SMADDL/SMSUBL/UMADDL/UMSUBL/SMULH/UMULH", "multiply" => dec_dp3;
    LdLiteral: [opc:2 011 0 00 imm19:19 Rt:5]
        "LDR/LDRSW/PRFM (literal)", "literal" => dec_ld_literal;
    Atomic: [size:2 111 0 00 A:1 R:1 1 Rs:5 o3:1 opc:3 00 Rn:5 Rt:5]
        "LDADD/LDCLR/LDEOR/LDSET/LD{S,U}{MAX,MIN}/SWP, LDAPR", "LSE atomics" => dec_atomic;
    LdstExcl: [size:2 001000 o2:1 L:1 o1:1 Rs:5 o0:1 Rt2:5 Rn:5 Rt:5]
        "LDXR/STXR/LDAXR/STLXR/LDXP/STXP/LDAXP/STLXP/LDAR/STLR", "exclusive/ordered"
        => dec_ldst_excl;
    LdstPair: [opc:2 101 0 0 op2:2 L:1 imm7:7 Rt2:5 Rn:5 Rt:5]
        "LDP/STP/LDPSW/LDNP/STNP", "pair" => dec_ldst_pair;
    LdstReg: [size:2 111 0 00 opc:2 1 Rm:5 option:3 S:1 10 Rn:5 Rt:5]
        "LDR/STR (register offset)", "load/store single" => dec_ldst_reg;
    LdstImm9: [size:2 111 0 00 opc:2 0 imm9:9 op4:2 Rn:5 Rt:5]
        "LDUR/STUR/LDR/STR (pre/post-index)", "load/store single" => dec_ldst_imm9;
    LdstUimm: [size:2 111 0 01 opc:2 imm12:12 Rn:5 Rt:5]
        "LDR/STR (unsigned offset)", "load/store single" => dec_ldst_uimm;
    FpLdstUimm: [size:2 111 1 01 opc:2 imm12:12 Rn:5 Rt:5]
        "LDR/STR B/H/S/D/Q (unsigned offset)", "FP/SIMD load/store" => simd::dec_fp_ldst_uimm;
    FpLdstImm9: [size:2 111 1 00 opc:2 0 imm9:9 op4:2 Rn:5 Rt:5]
        "LDUR/STUR/LDR/STR B/H/S/D/Q (pre/post-index)", "FP/SIMD load/store"
        => simd::dec_fp_ldst_imm9;
    FpLdstReg: [size:2 111 1 00 opc:2 1 Rm:5 option:3 S:1 10 Rn:5 Rt:5]
        "LDR/STR B/H/S/D/Q (register offset)", "FP/SIMD load/store" => simd::dec_fp_ldst_reg;
    FpLdLiteral: [opc:2 011 1 00 imm19:19 Rt:5]
        "LDR S/D/Q (literal)", "FP/SIMD load/store" => simd::dec_fp_ld_literal;
    FpLdstPair: [opc:2 101 1 0 op2:2 L:1 imm7:7 Rt2:5 Rn:5 Rt:5]
        "LDP/STP/LDNP/STNP S/D/Q", "FP/SIMD load/store" => simd::dec_fp_ldst_pair;
    SimdLdstMulti: [0 Q:1 0011000 L:1 000000 opcode:4 size:2 Rn:5 Rt:5]
        "LD1-LD4/ST1-ST4 (multiple structures)", "FP/SIMD load/store" => simd::dec_simd_ldst_multi;
    SimdLdstMultiPost: [0 Q:1 0011001 L:1 0 Rm:5 opcode:4 size:2 Rn:5 Rt:5]
        "LD1-LD4/ST1-ST4 (multiple structures, post-index)", "FP/SIMD load/store"
        => simd::dec_simd_ldst_multi_post;
    SimdLdstSingle: [0 Q:1 0011010 L:1 R:1 00000 opcode:3 S:1 size:2 Rn:5 Rt:5]
        "LD1-LD4/ST1-ST4 (single structure), LD1R-LD4R", "FP/SIMD load/store" => simd::dec_simd_ldst_single;
    SimdLdstSinglePost: [0 Q:1 0011011 L:1 R:1 Rm:5 opcode:3 S:1 size:2 Rn:5 Rt:5]
        "LD1-LD4/ST1-ST4 (single structure), LD1R-LD4R (post-index)", "FP/SIMD load/store"
        => simd::dec_simd_ldst_single_post;
    Simd3Same: [0 Q:1 U:1 01110 size:2 1 Rm:5 opcode:5 1 Rn:5 Rd:5]
        "SIMD three same (ADD, SUB, CM*, MAX/MIN, pairwise, MUL, MLA, MLS, SSHL/USHL, logic)", "SIMD integer"
        => simd::dec_simd_3same;
    SimdScalar3Same: [01 U:1 11110 size:2 1 Rm:5 opcode:5 1 Rn:5 Rd:5]
        "SIMD scalar three same (ADD, SUB, CM*, SSHL/USHL D)", "SIMD integer" => simd::dec_simd_scalar_3same;
    Simd2Misc: [0 Q:1 U:1 01110 size:2 10000 opcode:5 10 Rn:5 Rd:5]
        "SIMD two-register misc (CM* zero, ABS, NEG, CNT, NOT, REV, XTN, SQXTN/UQXTN/SQXTUN, ADDLP)", "SIMD integer"
        => simd::dec_simd_2misc;
    SimdScalar2Misc: [01 U:1 11110 size:2 10000 opcode:5 10 Rn:5 Rd:5]
        "SIMD scalar two-register misc (CM* zero, ABS, NEG D, SQXTN/UQXTN/SQXTUN)", "SIMD integer"
        => simd::dec_simd_scalar_2misc;
    Simd3Diff: [0 Q:1 U:1 01110 size:2 1 Rm:5 opcode:4 00 Rn:5 Rd:5]
        "SADDL/UADDL/SADDW/UADDW/SSUBL/USUBL/SSUBW/USUBW/SMULL/UMULL/ADDHN/SUBHN{2}", "SIMD integer"
        => simd::dec_simd_3diff;
    SimdScalarPair: [01 U:1 11110 size:2 11000 opcode:5 10 Rn:5 Rd:5]
        "ADDP (scalar)", "SIMD integer" => simd::dec_simd_scalar_pair;
    SimdScalarCopy: [01 op:1 11110000 imm5:5 0 imm4:4 1 Rn:5 Rd:5]
        "DUP (element, scalar)", "SIMD moves and bit ops" => simd::dec_simd_scalar_copy;
    SimdFpElem: [0 Q:1 U:1 0 1111 1 sz:1 L:1 M:1 Rm:4 opcode:4 H:1 0 Rn:5 Rd:5]
        "FMLA/FMLS/FMUL (by element)", "scalar FP" => simd::dec_simd_fp_elem;
    SimdScalarFpElem: [01 U:1 1 1111 1 sz:1 L:1 M:1 Rm:4 opcode:4 H:1 0 Rn:5 Rd:5]
        "FMLA/FMLS/FMUL (by element, scalar)", "scalar FP" => simd::dec_simd_scalar_fp_elem;
    SimdAcross: [0 Q:1 U:1 01110 size:2 11000 opcode:5 10 Rn:5 Rd:5]
        "ADDV/SMAXV/UMAXV/SMINV/UMINV/SADDLV/UADDLV/FMAXV/FMINV/FMAXNMV/FMINNMV", "SIMD integer" => simd::dec_simd_across;
    SimdCopy: [0 Q:1 op:1 01110000 imm5:5 0 imm4:4 1 Rn:5 Rd:5]
        "DUP/INS/UMOV/SMOV", "SIMD moves and bit ops" => simd::dec_simd_copy;
    SimdPerm: [0 Q:1 001110 size:2 0 Rm:5 0 opcode:3 10 Rn:5 Rd:5]
        "ZIP1/ZIP2/UZP1/UZP2/TRN1/TRN2", "SIMD moves and bit ops" => simd::dec_simd_perm;
    SimdExt: [0 Q:1 101110 op2:2 0 Rm:5 0 imm4:4 0 Rn:5 Rd:5]
        "EXT", "SIMD moves and bit ops" => simd::dec_simd_ext;
    SimdTbl: [0 Q:1 001110 op2:2 0 Rm:5 0 len:2 op:1 00 Rn:5 Rd:5]
        "TBL/TBX", "SIMD moves and bit ops" => simd::dec_simd_tbl;
    SimdShiftImm: [0 Q:1 U:1 011110 immh:4 immb:3 opcode:5 1 Rn:5 Rd:5]
        "SHL/USHR/SSHR/USRA/SSRA/SSHLL/USHLL/SHRN/RSHRN; with immh 0: MOVI/MVNI/ORR/BIC/FMOV (vector, immediate)",
        "SIMD integer" => simd::dec_simd_shift_imm;
    SimdScalarShiftImm: [01 U:1 111110 immh:4 immb:3 opcode:5 1 Rn:5 Rd:5]
        "SHL/USHR/SSHR D", "SIMD integer" => simd::dec_simd_scalar_shift_imm;
    FpIntConv: [sf:1 0 S:1 11110 ftype:2 1 rmode:2 opcode:3 000000 Rn:5 Rd:5]
        "FMOV (general), SCVTF/UCVTF, FCVT{N,P,M,Z,A}{S,U} (integer)", "scalar FP"
        => simd::dec_fp_int_conv;
    FpFixedConv: [sf:1 0 S:1 11110 ftype:2 0 rmode:2 opcode:3 scale:6 Rn:5 Rd:5]
        "SCVTF/UCVTF/FCVTZS/FCVTZU (fixed-point)", "scalar FP" => simd::dec_fp_fixed_conv;
    FpDp2: [0 0 0 11110 ftype:2 1 Rm:5 opcode:4 10 Rn:5 Rd:5]
        "FADD/FSUB/FMUL/FDIV/FNMUL/FMAX/FMIN/FMAXNM/FMINNM (scalar)", "scalar FP"
        => simd::dec_fp_dp2;
    FpDp3: [0 0 0 11111 ftype:2 o1:1 Rm:5 o0:1 Ra:5 Rn:5 Rd:5]
        "FMADD/FMSUB/FNMADD/FNMSUB", "scalar FP" => simd::dec_fp_dp3;
    FpCmp: [0 0 0 11110 ftype:2 1 Rm:5 00 1000 Rn:5 opc:5]
        "FCMP/FCMPE", "scalar FP" => simd::dec_fp_cmp;
    FpCcmp: [0 0 0 11110 ftype:2 1 Rm:5 cond:4 01 Rn:5 op:1 nzcv:4]
        "FCCMP/FCCMPE", "scalar FP" => simd::dec_fp_ccmp;
    FpCsel: [0 0 0 11110 ftype:2 1 Rm:5 cond:4 11 Rn:5 Rd:5]
        "FCSEL", "scalar FP" => simd::dec_fp_csel;
    FpImm: [0 0 0 11110 ftype:2 1 imm8:8 100 imm5:5 Rd:5]
        "FMOV (scalar, immediate)", "SIMD moves and bit ops" => simd::dec_fp_imm;
    FpDp1: [0 0 0 11110 ftype:2 1 opcode:6 10000 Rn:5 Rd:5]
        "FMOV/FABS/FNEG/FSQRT/FCVT/FRINT* (scalar)", "scalar FP" => simd::dec_fp_dp1;
}

/// Decodes one word at `pc`: the first matching row whose decoder accepts it, else a trap.
pub fn decode(word: u32, pc: u64) -> Decoded {
    match lookup(word, pc) {
        Some((_, f)) => f.build(word),
        None => illegal(word),
    }
}

/// The row that accepts `word`, with its form.
pub fn lookup(word: u32, pc: u64) -> Option<(&'static Encoding, Form)> {
    ENCODINGS
        .iter()
        .filter(|e| word & e.mask == e.value)
        .find_map(|e| (e.decode)(word, pc).map(|f| (e, f)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(word: u32) -> Decoded {
        decode(word, 0x10000)
    }

    /// One known word per row (assembled with llvm-mc; comments give the assembly).
    const SAMPLES: &[(u32, &str)] = &[
        (0x1000_0020, "ADR/ADRP"),                     // adr x0, .+4
        (0x9100_0420, "ADD/SUB (immediate)"),          // add x0, x1, #1
        (0x9240_1c20, "AND/ORR/EOR/ANDS (immediate)"), // and x0, x1, #0xff
        (0xd280_0540, "MOVN/MOVZ/MOVK"),               // mov x0, #42
        (0xd344_fc20, "SBFM/BFM/UBFM"),                // lsr x0, x1, #4
        (0x1381_1c20, "EXTR"),                         // extr w0, w1, w1, #7
        (0x1400_0002, "B/BL"),                         // b .+8
        (0x5400_0040, "B.cond"),                       // b.eq .+8
        (0xb400_0040, "CBZ/CBNZ"),                     // cbz x0, .+8
        (0x3600_0040, "TBZ/TBNZ"),                     // tbz w0, #0, .+8
        (0xd61f_0200, "BR"),                           // br x16
        (0xd63f_0200, "BLR"),                          // blr x16
        (0xd65f_03c0, "RET"),                          // ret
        (0xd400_0001, "SVC"),                          // svc #0
        (0xd420_0000, "BRK"),                          // brk #0
        (0xd440_0000, "HLT"),                          // hlt #0
        (0xd503_201f, "HINT (NOP, YIELD, ...)"),       // nop
        (0xd503_3f5f, "CLREX"),                        // clrex
        (0xd503_3b9f, "DSB"),                          // dsb ish
        (0xd503_3bbf, "DMB"),                          // dmb ish
        (0xd503_3fdf, "ISB"),                          // isb
        (0xd50b_7420, "DC ZVA"),                       // dc zva, x0
        (0xd50b_7b20, "DC CVAU"),                      // dc cvau, x0
        (0xd50b_7e20, "DC CIVAC"),                     // dc civac, x0
        (0xd50b_7a20, "DC CVAC"),                      // dc cvac, x0
        (0xd50b_7520, "IC IVAU"),                      // ic ivau, x0
        (0xd53b_d040, "MRS"),                          // mrs x0, tpidr_el0
        (0xd51b_d040, "MSR (register)"),               // msr tpidr_el0, x0
        (
            0x8a02_0020,
            "AND/BIC/ORR/ORN/EOR/EON/ANDS/BICS (shifted register)",
        ), // and x0, x1, x2
        (0x8b02_0020, "ADD/SUB (shifted register)"),   // add x0, x1, x2
        (0x8b22_4020, "ADD/SUB (extended register)"),  // add x0, x1, w2, uxtw
        (0x9a02_0020, "ADC/ADCS/SBC/SBCS"),            // adc x0, x1, x2
        (0xfa42_0020, "CCMN/CCMP (register)"),         // ccmp x1, x2, #0, eq
        (0xfa41_0820, "CCMN/CCMP (immediate)"),        // ccmp x1, #1, #0, eq
        (0x9a82_0020, "CSEL/CSINC/CSINV/CSNEG"),       // csel x0, x1, x2, eq
        (0x9ac2_0820, "UDIV/SDIV/LSLV/LSRV/ASRV/RORV"), // udiv x0, x1, x2
        (0xdac0_1020, "RBIT/REV16/REV32/REV/CLZ/CLS"), // clz x0, x1
        (
            0x9b02_0c20,
            "MADD/MSUB/SMADDL/SMSUBL/UMADDL/UMSUBL/SMULH/UMULH",
        ), // madd x0, x1, x2, x3
        (0x5800_0040, "LDR/LDRSW/PRFM (literal)"),     // ldr x0, .+8
        (
            0xf8bf_c020,
            "LDADD/LDCLR/LDEOR/LDSET/LD{S,U}{MAX,MIN}/SWP, LDAPR",
        ), // ldapr x0, [x1]
        (
            0xc85f_7c20,
            "LDXR/STXR/LDAXR/STLXR/LDXP/STXP/LDAXP/STLXP/LDAR/STLR",
        ), // ldxr x0, [x1]
        (0xa9bf_7bfd, "LDP/STP/LDPSW/LDNP/STNP"),      // stp x29, x30, [sp, #-16]!
        (0xf862_6820, "LDR/STR (register offset)"),    // ldr x0, [x1, x2]
        (0xf840_8420, "LDUR/STUR/LDR/STR (pre/post-index)"), // ldr x0, [x1], #8
        (0xf940_0420, "LDR/STR (unsigned offset)"),    // ldr x0, [x1, #8]
        (0x3dc0_0420, "LDR/STR B/H/S/D/Q (unsigned offset)"), // ldr q0, [x1, #16]
        (0x3cc1_0420, "LDUR/STUR/LDR/STR B/H/S/D/Q (pre/post-index)"), // ldr q0, [x1], #16
        (0x3ce2_6820, "LDR/STR B/H/S/D/Q (register offset)"), // ldr q0, [x1, x2]
        (0x9c00_0040, "LDR S/D/Q (literal)"),          // ldr q0, .+8
        (0xad40_0420, "LDP/STP/LDNP/STNP S/D/Q"),      // ldp q0, q1, [x1]
        (0x4c40_7020, "LD1-LD4/ST1-ST4 (multiple structures)"), // ld1 {v0.16b}, [x1]
        (
            0x4cdf_7020,
            "LD1-LD4/ST1-ST4 (multiple structures, post-index)",
        ), // ld1 {v0.16b}, [x1], #16
        (0x0d40_9020, "LD1-LD4/ST1-ST4 (single structure), LD1R-LD4R"), // ld1 {v0.s}[1], [x1]
        (0x4ddf_c820, "LD1-LD4/ST1-ST4 (single structure), LD1R-LD4R (post-index)"), // ld1r {v0.4s}, [x1], #4
        (
            0x4e22_8420,
            "SIMD three same (ADD, SUB, CM*, MAX/MIN, pairwise, MUL, MLA, MLS, SSHL/USHL, logic)",
        ), // add v0.16b, v1.16b, v2.16b
        (0x5ee2_8420, "SIMD scalar three same (ADD, SUB, CM*, SSHL/USHL D)"), // add d0, d1, d2
        (
            0x4e20_9820,
            "SIMD two-register misc (CM* zero, ABS, NEG, CNT, NOT, REV, XTN, SQXTN/UQXTN/SQXTUN, ADDLP)",
        ), // cmeq v0.16b, v1.16b, #0
        (
            0x5ee0_9820,
            "SIMD scalar two-register misc (CM* zero, ABS, NEG D, SQXTN/UQXTN/SQXTUN)",
        ), // cmeq d0, d1, #0
        (0x6e31_a820, "ADDV/SMAXV/UMAXV/SMINV/UMINV/SADDLV/UADDLV/FMAXV/FMINV/FMAXNMV/FMINNMV"), // uminv b0, v1.16b
        (
            0x0ea2_1000,
            "SADDL/UADDL/SADDW/UADDW/SSUBL/USUBL/SSUBW/USUBW/SMULL/UMULL/ADDHN/SUBHN{2}",
        ), // saddw v0.2d, v0.2d, v2.2s
        (0x5ef1_b841, "ADDP (scalar)"),                // addp d1, v2.2d
        (0x5e18_0401, "DUP (element, scalar)"),        // mov d1, v0.d[1]
        (0x4fc0_5022, "FMLA/FMLS/FMUL (by element)"),  // fmls v2.2d, v1.2d, v0.d[0]
        (0x5fc0_1020, "FMLA/FMLS/FMUL (by element, scalar)"), // fmla d0, d1, v0.d[0]
        (0x4e01_0c20, "DUP/INS/UMOV/SMOV"),            // dup v0.16b, w1
        (0x4e02_3820, "ZIP1/ZIP2/UZP1/UZP2/TRN1/TRN2"), // zip1 v0.16b, v1.16b, v2.16b
        (0x6e02_1820, "EXT"),                          // ext v0.16b, v1.16b, v2.16b, #3
        (0x4e02_0020, "TBL/TBX"),                      // tbl v0.16b, {v1.16b}, v2.16b
        (
            0x0f0c_8420,
            "SHL/USHR/SSHR/USRA/SSRA/SSHLL/USHLL/SHRN/RSHRN; with immh 0: MOVI/MVNI/ORR/BIC/FMOV (vector, immediate)",
        ), // shrn v0.8b, v1.8h, #4
        (0x7f7d_0420, "SHL/USHR/SSHR D"),              // ushr d0, d1, #3
        (
            0x9e66_0020,
            "FMOV (general), SCVTF/UCVTF, FCVT{N,P,M,Z,A}{S,U} (integer)",
        ), // fmov x0, d1
        (
            0x1e62_2820,
            "FADD/FSUB/FMUL/FDIV/FNMUL/FMAX/FMIN/FMAXNM/FMINNM (scalar)",
        ), // fadd d0, d1, d2
        (0x1e62_2020, "FCMP/FCMPE"),                   // fcmp d1, d2
        (0x1e42_f800, "SCVTF/UCVTF/FCVTZS/FCVTZU (fixed-point)"), // scvtf d0, w0, #2
        (0x1f42_0c20, "FMADD/FMSUB/FNMADD/FNMSUB"),    // fmadd d0, d1, d2, d3
        (0x1e62_0420, "FCCMP/FCCMPE"),                 // fccmp d1, d2, #0, eq
        (0x1e62_0c20, "FCSEL"),                        // fcsel d0, d1, d2, eq
        (0x1e6e_1000, "FMOV (scalar, immediate)"),     // fmov d0, #1.0
        (0x1e60_c020, "FMOV/FABS/FNEG/FSQRT/FCVT/FRINT* (scalar)"), // fabs d0, d1
    ];

    #[test]
    fn every_row_has_a_sample_that_decodes_through_it() {
        for e in ENCODINGS {
            let (w, _) = SAMPLES
                .iter()
                .find(|(_, n)| *n == e.name)
                .unwrap_or_else(|| panic!("no sample for row {}", e.name));
            let (row, _) =
                lookup(*w, 0x10000).unwrap_or_else(|| panic!("{:#010x} ({}) traps", w, e.name));
            assert_eq!(row.name, e.name, "{w:#010x}");
        }
    }

    #[test]
    fn docs_follow_the_table() {
        let doc = include_str!("../../docs/encodings.md");
        assert_eq!(
            doc,
            crate::isa::table_markdown(),
            "docs/encodings.md is stale: regenerate with `garm isa > docs/encodings.md`"
        );
    }

    #[test]
    fn no_two_rows_overlap() {
        for (i, a) in ENCODINGS.iter().enumerate() {
            for b in &ENCODINGS[i + 1..] {
                let common = a.mask & b.mask;
                assert!(
                    (a.value ^ b.value) & common != 0,
                    "rows {} and {} both match some word",
                    a.name,
                    b.name
                );
            }
        }
    }

    #[test]
    fn words_outside_the_table_trap() {
        for w in [
            0x0000_0000u32,          // udf #0
            0x1e22_0820 | 0x9 << 12, // opcode 1001 in FP data-processing (2 source): unallocated
            0x4e22_0c20,             // sqadd v0.16b, v1.16b, v2.16b (SIMD, Tier 3)
            0x487f_0820,             // ldxp with size 01: unallocated (CASP space)
            0xf88a_98b3,             // prfm, unprivileged form: unallocated (found by fuzzing)
            0x4820_7c84 | 1 << 16,   // casp with an odd Rs: unallocated
            0xd503_40df,             // msr daifset, #0 (not at EL0)
            0x9ac2_4020,             // crc32x w0, w1, x2 (Tier 3)
            0x9280_0000 | (1 << 29), // opc=01 in move wide: unallocated
            0x1340_0000,             // sbfm w0 with N=1: unallocated
        ] {
            let dd = d(w);
            assert!(
                dd.is_trap(),
                "{w:#010x} must trap, decoded as {:?}",
                lookup(w, 0).map(|x| x.0.name)
            );
            assert_eq!(dd.w[2], w, "a trap keeps its raw word for the report");
        }
    }

    #[test]
    fn decoding_never_panics_and_matches_at_most_one_row() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x as u32;
            let _ = decode(w, 0x10000);
            let n = ENCODINGS.iter().filter(|e| w & e.mask == e.value).count();
            assert!(n <= 1, "{w:#010x} matches {n} rows");
        }
    }

    #[test]
    fn literal_load_above_2g_keeps_a_32_bit_immediate() {
        // Found by `garm hostfuzz`: with --mem up to 3G code can sit above 2 GiB, where the
        // literal's address did not fit the 32-bit immediate (a debug-build panic in `build`).
        let w = 0x5800_0040; // ldr x0, .+8
        for pc in [0x1_0000u64, 0x7fff_fffc, 0x8000_0000, 0xbfff_f000] {
            let (_, f) = lookup(w, pc).unwrap();
            assert!(f.fits(), "pc {pc:#x}");
            assert_eq!(d(w).imm(), 0x1_0008);
            assert_eq!(decode(w, pc).imm() as u32, (pc + 8) as u32);
        }
    }

    #[test]
    fn fields_of_known_words() {
        // add x0, x1, #1
        let a = d(0x9100_0420);
        assert_eq!((a.unit(), a.op(), a.imm()), (unit::ALU, op::ADD, 1));
        assert_eq!(a.w[1] & 63, 0);
        assert_eq!((a.w[1] >> 6) & 63, 1);
        // mov x0, sp is add x0, sp, #0: rn is the stack pointer, not XZR
        let m = d(0x9100_03e0);
        assert_eq!((m.w[1] >> 6) & 63, R_SP);
        // cmp x1, #1 is subs xzr, x1, #1: the destination is the sink
        let c = d(0xf100_043f);
        assert_eq!(c.w[1] & 63, R_SINK);
        assert_ne!(c.w[0] & f::S, 0);
        // and x0, x1, #0xff
        assert_eq!(d(0x9240_1c20).imm(), 0xff);
        // movn w0, #0 -> all ones (W truncation happens in the shader)
        assert_eq!(d(0x1280_0000).imm(), u64::MAX);
        // b .+8 from 0x10000
        assert_eq!(d(0x1400_0002).imm() as u32, 0x10008);
        // ldr x0, [x1, #8]: 8-byte access, offset 8
        let l = d(0xf940_0420);
        assert_eq!((l.unit(), l.imm(), l.aux() & 3), (unit::MEM, 8, 3));
        // ldr xzr-like load destinations never write the zero register
        let z = d(0xf940_043f); // ldr xzr, [x1, #8]
        assert_eq!((z.w[1] >> 18) & 63, R_SINK);
    }

    #[test]
    fn bit_masks_follow_the_arm_pseudocode() {
        assert_eq!(decode_bit_masks(1, 0, 0, true, 64).unwrap().0, 1);
        assert_eq!(
            decode_bit_masks(0, 0b111100, 0, true, 32).unwrap().0,
            0x5555_5555
        );
        assert_eq!(decode_bit_masks(1, 7, 0, true, 64).unwrap().0, 0xff);
        assert_eq!(
            decode_bit_masks(1, 7, 8, true, 64).unwrap().0,
            0xff00_0000_0000_0000
        );
        assert!(
            decode_bit_masks(1, 63, 0, true, 64).is_none(),
            "all ones is reserved"
        );
        assert!(decode_bit_masks(0, 0b111111, 0, true, 32).is_none());
    }
}
