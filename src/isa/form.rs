//! The decoded form: what the Rust decoder writes and the shader's step executes.
//!
//! Every A64 word decodes to [`Decoded`], four `u32`s (one `vec4<u32>` fetch). The shader never
//! looks at the original encoding (a trap keeps it in word 2 for the report): it reads a unit, a
//! few flags, register selectors and a pre-computed immediate, and drives one shared datapath. The constants
//! here are emitted into the shader source by [`wgsl_constants`], so Rust and WGSL cannot disagree.

/// Register selector for the zero register (reads 0).
pub const R_ZR: u32 = 32;
/// Register selector that discards writes (the zero register as a destination).
pub const R_SINK: u32 = 33;
/// Register selector for the stack pointer.
pub const R_SP: u32 = 31;
/// Register selectors the shader's register file holds (x0..x30, SP, zero, sink): every selector
/// a [`Form`] builds is below this, which is what lets the shader index `R` unchecked.
pub const REGS: u32 = 34;

/// Execution units (w0 bits 0-3).
pub mod unit {
    pub const TRAP: u32 = 0;
    pub const ALU: u32 = 1;
    pub const CSEL: u32 = 2;
    pub const CCMP: u32 = 3;
    pub const BFM: u32 = 4;
    pub const MUL: u32 = 5;
    pub const DIV: u32 = 6;
    pub const ONE: u32 = 7;
    pub const MEM: u32 = 8;
    pub const BR: u32 = 9;
    pub const SYS: u32 = 10;
    /// FP/SIMD data processing (only in the SIMD pipeline variant; see [`super::vec`]).
    pub const VEC: u32 = 11;
    /// FP/SIMD loads and stores (only in the SIMD pipeline variant; see [`super::vmem`]).
    pub const VMEM: u32 = 12;
    /// Scalar IEEE-754 binary32/binary64 (only in the FP pipeline variant; see [`super::fp`]).
    pub const FP: u32 = 13;
    /// LD2-LD4/ST2-ST4 (see [`super::vstruct`]).
    pub const VSTRUCT: u32 = 14;
    /// LSE atomics (see [`super::atomic`]).
    pub const ATOMIC: u32 = 15;
}

/// Shader variants are sets of optional units (a bit each): lavapipe runs every unit of the
/// shader on every step, so a program runs in the smallest variant that holds the units it has
/// executed so far. The integer datapath is in every variant.
pub mod variant {
    /// V registers and the VMEM unit (FP/SIMD loads and stores).
    pub const VMEM: u32 = 1;
    /// The VEC unit (SIMD data processing).
    pub const VEC: u32 = 2;
    /// The soft-float unit.
    pub const FP: u32 = 4;
    /// The structure load/store unit.
    pub const VSTRUCT: u32 = 8;
    /// The LSE atomic unit.
    pub const ATOMIC: u32 = 16;
    /// Every variant.
    pub const ALL: u32 = 31;
}

/// The variant bit a unit needs (0 for the integer units).
pub fn unit_variant(u: u32) -> u32 {
    match u {
        unit::VMEM => variant::VMEM,
        unit::VEC => variant::VEC,
        unit::FP => variant::FP,
        unit::VSTRUCT => variant::VSTRUCT,
        unit::ATOMIC => variant::ATOMIC,
        _ => 0,
    }
}

/// The VSTRUCT unit's word (w3): LDn/STn of n = 2-4 registers, one step per chunk (and for loads
/// one more per register); V register numbers in rc, address generation as the integer unit's.
pub mod vstruct {
    /// log2 of the element bytes.
    pub const LOG_MASK: u32 = 3;
    /// n - 1.
    pub const N_SHIFT: u32 = 2;
    pub const STORE: u32 = 1 << 4;
    pub const Q: u32 = 1 << 5;
    /// Post-index writeback of the base (by the immediate or Xm).
    pub const POST: u32 = 1 << 6;

    pub const WGSL: &[(&str, u32)] = &[
        ("VS_N_SHIFT", N_SHIFT),
        ("VS_STORE", STORE),
        ("VS_Q", Q),
        ("VS_POST", POST),
    ];
}

/// The ATOMIC unit's word (w3): the access size (bits 0-1) and the operation.
pub mod atomic {
    pub const OP_SHIFT: u32 = 4;
    pub const ADD: u32 = 0;
    pub const CLR: u32 = 1;
    pub const EOR: u32 = 2;
    pub const SET: u32 = 3;
    pub const SMAX: u32 = 4;
    pub const SMIN: u32 = 5;
    pub const UMAX: u32 = 6;
    pub const UMIN: u32 = 7;
    pub const SWP: u32 = 8;
    pub const CAS: u32 = 9;
    /// CASP: Xs:Xs+1 (rm) against memory, Xt:Xt+1 (rc) stored; the size is each register's.
    pub const CASP: u32 = 10;
    /// STXR/STLXR: Xt (rc) stored if the monitor holds this address and size and memory still
    /// holds what the load-exclusive read; the status (0 stored, 1 not) to Ws (rd).
    pub const STX: u32 = 11;
    /// STXP/STLXP: Xt (rc) and Xt2 (rm) as one access, checked like STX against both values the
    /// load-exclusive pair read; the size is each register's.
    pub const STXP: u32 = 12;

    pub const WGSL: &[(&str, u32)] = &[
        ("A_OP_SHIFT", OP_SHIFT),
        ("A_CLR", CLR),
        ("A_EOR", EOR),
        ("A_SET", SET),
        ("A_SMAX", SMAX),
        ("A_SMIN", SMIN),
        ("A_UMAX", UMAX),
        ("A_UMIN", UMIN),
        ("A_SWP", SWP),
        ("A_CAS", CAS),
        ("A_CASP", CASP),
        ("A_STX", STX),
        ("A_STXP", STXP),
    ];
}

/// The FP unit: the op selects the operation, w3 (aux) its operand format and options; a
/// conditional compare's NZCV rides in the immediate.
pub mod fp {
    pub const ADD: u32 = 0;
    pub const SUB: u32 = 1;
    pub const MUL: u32 = 2;
    pub const CMP: u32 = 3;
    pub const CCMP: u32 = 4;
    pub const CSEL: u32 = 5;
    /// Integer (Xn/Wn) to FP.
    pub const CVTF: u32 = 6;
    /// FP to integer (Xd/Wd).
    pub const CVTI: u32 = 7;
    /// binary32 <-> binary64 (DBL names the source).
    pub const CVT: u32 = 8;
    /// FMADD family: Va + Vn * Vm (Va in rc), NEG negating Vn, NEG_C Va.
    pub const FMA: u32 = 9;
    /// Multi-step: eight quotient bits per step into VT, then the rounding step.
    pub const DIV: u32 = 10;
    /// Multi-step like DIV.
    pub const SQRT: u32 = 11;
    /// FMAX/FMIN/FMAXNM/FMINNM (MAX, NM).
    pub const MINMAX: u32 = 12;
    /// FRINT*: rounding by RM_SHIFT (7: FPCR's mode); EXACT raises inexact (FRINTX).
    pub const RINT: u32 = 13;
    /// FCMEQ/FCMGE/FCMGT/FCMLT/FCMLE (vector): the condition (0 EQ, 1 GE, 2 GT, 3 LT, 4 LE) in
    /// the RM bits.
    pub const VCMP: u32 = 14;

    /// binary64 (else binary32).
    pub const DBL: u32 = 1;
    /// FCMPE: quiet NaNs signal too.
    pub const E: u32 = 2;
    /// The second operand is +0.0 (FCMP #0.0).
    pub const ZERO: u32 = 4;
    pub const SIGNED: u32 = 8;
    /// The integer is 64 bits (else 32).
    pub const I64: u32 = 16;
    /// Rounding of conversions to integers: 0 nearest-even, 1 +inf, 2 -inf, 3 zero, 4 away.
    pub const RM_SHIFT: u32 = 5;
    /// FNMUL: the product negated.
    pub const NEG: u32 = 1 << 8;
    pub const NEG_C: u32 = 1 << 9;
    pub const MAX: u32 = 1 << 10;
    pub const NM: u32 = 1 << 11;
    pub const EXACT: u32 = 1 << 12;
    /// Fixed-point conversions: fraction bits (0 for the integer forms).
    pub const FBITS_SHIFT: u32 = 13;
    /// A vector form: one lane per step; Q: 128 bits (else 64).
    pub const VECTOR: u32 = 1 << 20;
    pub const Q: u32 = 1 << 21;
    /// With VECTOR: one lane only (the scalar forms that take their operands from V registers).
    pub const ONE: u32 = 1 << 22;
    /// With VECTOR: Vm's operand is the element ELEM of it for every lane (by-element forms).
    pub const BYELEM: u32 = 1 << 23;
    pub const ELEM_SHIFT: u32 = 24;
    /// FABD: the difference's sign bit cleared.
    pub const ABS: u32 = 1 << 26;
    /// With VECTOR and CVT: FCVTL{2}, binary32 lanes (from the upper half with Q) to binary64.
    pub const WIDEN: u32 = 1 << 27;
    /// With VECTOR and CVT: FCVTN{2}, binary64 lanes to binary32 in the low half (the high half
    /// with Q, the low half kept).
    pub const NARROW: u32 = 1 << 28;
    /// With VECTOR: pairwise (FADDP, FMAXP, ...): lane l's operands are elements 2l and 2l+1
    /// of Vn:Vm (ONE: of Vn).
    pub const PAIRW: u32 = 1 << 29;
    /// With VECTOR, Q and PAIRW, across the four binary32 lanes (FMAXNMV, FMINV, ...): two
    /// pairwise lanes, then the pair of them, into lane 0 of Vd (Arm's Reduce order).
    pub const ACROSS: u32 = 1 << 30;
    /// With CVT (scalar): binary16 on one side, NARROW to it or WIDEN from it; DBL names the
    /// other side (FCVT Hd/Sd/Dd, FPCR.AHP honoured).
    pub const HALF: u32 = 1 << 31;

    /// The steps of FDIV and FSQRT before their rounding step (eight quotient or root bits
    /// each): each counts as an instruction, in the interpreter and in translated code.
    pub const DIV_STEPS: u32 = 8;
    pub const SQRT_STEPS: u32 = 7;

    pub const WGSL: &[(&str, u32)] = &[
        ("FP_DIV_STEPS", DIV_STEPS),
        ("FP_SQRT_STEPS", SQRT_STEPS),
        ("FP_ADD", ADD),
        ("FP_SUB", SUB),
        ("FP_MUL", MUL),
        ("FP_CMP", CMP),
        ("FP_CCMP", CCMP),
        ("FP_CSEL", CSEL),
        ("FP_CVTF", CVTF),
        ("FP_CVTI", CVTI),
        ("FP_CVT", CVT),
        ("FP_FMA", FMA),
        ("FP_DIV", DIV),
        ("FP_SQRT", SQRT),
        ("FP_MINMAX", MINMAX),
        ("FP_RINT", RINT),
        ("FP_VCMP", VCMP),
        ("FP_DBL", DBL),
        ("FP_E", E),
        ("FP_ZERO", ZERO),
        ("FP_SIGNED", SIGNED),
        ("FP_I64", I64),
        ("FP_RM_SHIFT", RM_SHIFT),
        ("FP_NEG", NEG),
        ("FP_NEG_C", NEG_C),
        ("FP_MAX", MAX),
        ("FP_NM", NM),
        ("FP_EXACT", EXACT),
        ("FP_FBITS_SHIFT", FBITS_SHIFT),
        ("FP_VECTOR", VECTOR),
        ("FP_Q", Q),
        ("FP_ONE", ONE),
        ("FP_BYELEM", BYELEM),
        ("FP_ELEM_SHIFT", ELEM_SHIFT),
        ("FP_ABS", ABS),
        ("FP_WIDEN", WIDEN),
        ("FP_NARROW", NARROW),
        ("FP_PAIRW", PAIRW),
        ("FP_ACROSS", ACROSS),
        ("FP_HALF", HALF),
    ];
}

/// The SIMD datapath (unit VEC): a byte-permute stage P and a lane-wise stage L, sequenced by a
/// recipe (the form's op). Its configuration rides in w0 bits 10-31 (bits 8 and 9, W and S,
/// stay clear); rc and rc2 carry the permute's two small indices; w2:w3 a 64-bit immediate.
pub mod vec {
    // Recipes (op).
    /// out = L(Vn, B, Vd).
    pub const R_LANE: u32 = 0;
    /// out = P.
    pub const R_PERM: u32 = 1;
    /// out = L(P, B, Vd): widen, then shift.
    pub const R_PL: u32 = 2;
    /// Two steps: T = L(Vn, B); out = P over T (shift, then narrow).
    pub const R_LP: u32 = 3;
    /// Two steps: T = P(part 0); out = L(T, P(part 1)) (pairwise over Vn:Vm).
    pub const R_PAIR: u32 = 4;
    /// log2(elements) steps folding the upper half onto the lower (across-lanes reductions).
    pub const R_REDUCE: u32 = 5;
    /// X[d] = element of P (UMOV, SMOV, FMOV to a general register).
    pub const R_TOGPR: u32 = 6;
    /// Two steps: T = L(Vn, B); out = Vd + T, or Vd - T with PART (USRA, MLA, MLS).
    pub const R_ACC: u32 = 7;
    /// out = L(Vn, P) with P widening half of Vm (UADDW, SSUBW, ...).
    pub const R_WADD: u32 = 8;
    /// Two steps: T = P over Vn; out = L(T, P over Vm) (widening both: UADDL, UMULL, ...).
    pub const R_LONG: u32 = 9;

    // w0 fields.
    pub const ESZ_SHIFT: u32 = 10;
    pub const Q: u32 = 1 << 12;
    pub const PKIND_SHIFT: u32 = 13;
    pub const PESZ_SHIFT: u32 = 17;
    pub const PART: u32 = 1 << 19;
    pub const LOP_SHIFT: u32 = 20;
    /// The lane operation's sixth bit (bits 25-30 are taken).
    pub const LOP_HI: u32 = 1 << 31;
    pub const BSEL_SHIFT: u32 = 25;
    /// Bytes a permute does not produce keep Vd's (else zero).
    pub const KEEP: u32 = 1 << 27;
    /// The permute's source is Xn, not Vn.
    pub const GPR: u32 = 1 << 28;
    /// Signed: SMOV's sign extension; a widening permute's sign fill.
    pub const SIGNED: u32 = 1 << 29;
    /// Only element 0 of the result survives (scalar forms).
    pub const SCALAR: u32 = 1 << 30;

    // Operand B of the lane stage.
    pub const B_VM: u32 = 0;
    /// The 64-bit immediate in both halves.
    pub const B_IMM: u32 = 1;
    pub const B_ZERO: u32 = 2;

    // Permute kinds: how output byte i picks a source byte (see shaders/cpu/simd_fns.wgsl).
    pub const P_ZIP: u32 = 0;
    pub const P_UZP: u32 = 1;
    pub const P_TRN: u32 = 2;
    pub const P_EXT: u32 = 3;
    pub const P_REV: u32 = 4;
    pub const P_DUP: u32 = 5;
    pub const P_INS: u32 = 6;
    pub const P_TBL: u32 = 7;
    pub const P_NARROW: u32 = 8;
    pub const P_WIDEN: u32 = 9;
    /// As P_NARROW, from the high halves (ADDHN, SUBHN).
    pub const P_NARROWH: u32 = 10;

    // Lane operations.
    pub const L_ADD: u32 = 0;
    pub const L_SUB: u32 = 1;
    pub const L_AND: u32 = 2;
    pub const L_BIC: u32 = 3;
    pub const L_ORR: u32 = 4;
    pub const L_ORN: u32 = 5;
    pub const L_EOR: u32 = 6;
    pub const L_BSL: u32 = 7;
    pub const L_BIT: u32 = 8;
    pub const L_BIF: u32 = 9;
    pub const L_CMEQ: u32 = 10;
    pub const L_CMHI: u32 = 11;
    pub const L_CMHS: u32 = 12;
    pub const L_CMGT: u32 = 13;
    pub const L_CMGE: u32 = 14;
    pub const L_CMTST: u32 = 15;
    pub const L_UMAX: u32 = 16;
    pub const L_UMIN: u32 = 17;
    pub const L_SMAX: u32 = 18;
    pub const L_SMIN: u32 = 19;
    pub const L_SHL: u32 = 20;
    pub const L_USHR: u32 = 21;
    pub const L_SSHR: u32 = 22;
    pub const L_MUL: u32 = 23;
    pub const L_CNT: u32 = 24;
    pub const L_NOT: u32 = 25;
    pub const L_NEG: u32 = 26;
    pub const L_ABS: u32 = 27;
    pub const L_CMLE: u32 = 28;
    pub const L_CMLT: u32 = 29;
    /// out = B (MOVI, FMOV immediate).
    pub const L_MOVB: u32 = 30;
    /// The halves of each (wide) element added, signed when B's element is non-zero (UADDLP,
    /// SADDLP; a reduction with it widens first: UADDLV, SADDLV).
    pub const L_ADDLP: u32 = 31;
    /// Rounding unsigned shift right by B: (x + 2^(B-1)) >> B without losing the carry (RSHRN).
    pub const L_URSHR: u32 = 32;
    /// Saturate a signed element to half its width (SQXTN), an unsigned one (UQXTN), a signed
    /// one to the unsigned half range (SQXTUN); saturating sets FPSR.QC.
    pub const L_SQXT: u32 = 33;
    pub const L_UQXT: u32 = 34;
    pub const L_SQXTU: u32 = 35;
    /// Shift by the signed low byte of B's element: left when positive, right (logical,
    /// arithmetic) when negative (USHL, SSHL).
    pub const L_USHL: u32 = 36;
    pub const L_SSHL: u32 = 37;

    /// Every constant above with its WGSL name, for the generated shader constants.
    pub const WGSL: &[(&str, u32)] = &[
        ("VR_LANE", R_LANE),
        ("VR_PERM", R_PERM),
        ("VR_PL", R_PL),
        ("VR_LP", R_LP),
        ("VR_PAIR", R_PAIR),
        ("VR_REDUCE", R_REDUCE),
        ("VR_TOGPR", R_TOGPR),
        ("VR_ACC", R_ACC),
        ("VR_WADD", R_WADD),
        ("VR_LONG", R_LONG),
        ("VF_ESZ_SHIFT", ESZ_SHIFT),
        ("VF_Q", Q),
        ("VF_PKIND_SHIFT", PKIND_SHIFT),
        ("VF_PESZ_SHIFT", PESZ_SHIFT),
        ("VF_PART", PART),
        ("VF_LOP_SHIFT", LOP_SHIFT),
        ("VF_BSEL_SHIFT", BSEL_SHIFT),
        ("VF_KEEP", KEEP),
        ("VF_GPR", GPR),
        ("VF_SIGNED", SIGNED),
        ("VF_SCALAR", SCALAR),
        ("VF_LOP_HI", LOP_HI),
        ("VB_VM", B_VM),
        ("VB_IMM", B_IMM),
        ("VB_ZERO", B_ZERO),
        ("VP_ZIP", P_ZIP),
        ("VP_UZP", P_UZP),
        ("VP_TRN", P_TRN),
        ("VP_EXT", P_EXT),
        ("VP_REV", P_REV),
        ("VP_DUP", P_DUP),
        ("VP_INS", P_INS),
        ("VP_TBL", P_TBL),
        ("VP_NARROW", P_NARROW),
        ("VP_WIDEN", P_WIDEN),
        ("VP_NARROWH", P_NARROWH),
        ("VL_ADD", L_ADD),
        ("VL_SUB", L_SUB),
        ("VL_AND", L_AND),
        ("VL_BIC", L_BIC),
        ("VL_ORR", L_ORR),
        ("VL_ORN", L_ORN),
        ("VL_EOR", L_EOR),
        ("VL_BSL", L_BSL),
        ("VL_BIT", L_BIT),
        ("VL_BIF", L_BIF),
        ("VL_CMEQ", L_CMEQ),
        ("VL_CMHI", L_CMHI),
        ("VL_CMHS", L_CMHS),
        ("VL_CMGT", L_CMGT),
        ("VL_CMGE", L_CMGE),
        ("VL_CMTST", L_CMTST),
        ("VL_UMAX", L_UMAX),
        ("VL_UMIN", L_UMIN),
        ("VL_SMAX", L_SMAX),
        ("VL_SMIN", L_SMIN),
        ("VL_SHL", L_SHL),
        ("VL_USHR", L_USHR),
        ("VL_SSHR", L_SSHR),
        ("VL_MUL", L_MUL),
        ("VL_CNT", L_CNT),
        ("VL_NOT", L_NOT),
        ("VL_NEG", L_NEG),
        ("VL_ABS", L_ABS),
        ("VL_CMLE", L_CMLE),
        ("VL_CMLT", L_CMLT),
        ("VL_MOVB", L_MOVB),
        ("VL_ADDLP", L_ADDLP),
        ("VL_URSHR", L_URSHR),
        ("VL_SQXT", L_SQXT),
        ("VL_UQXT", L_UQXT),
        ("VL_SQXTU", L_SQXTU),
        ("VL_USHL", L_USHL),
        ("VL_SSHL", L_SSHL),
    ];

    /// Packs a VEC configuration into its w0 bits.
    #[allow(clippy::too_many_arguments)]
    pub fn cfg(esz: u32, q: bool, pkind: u32, pesz: u32, lop: u32, bsel: u32) -> u32 {
        esz << ESZ_SHIFT
            | if q { Q } else { 0 }
            | pkind << PKIND_SHIFT
            | pesz << PESZ_SHIFT
            | (lop & 31) << LOP_SHIFT
            | if lop & 32 != 0 { LOP_HI } else { 0 }
            | bsel << BSEL_SHIFT
    }
}

/// The SIMD memory unit (VMEM) word (w3): 1-16 bytes per step between memory and a V register;
/// several registers or a pair take one step each. V register numbers ride in rc (and rc2 for
/// pairs); address generation and writeback are the integer memory unit's.
pub mod vmem {
    /// log2 of the bytes per step (0-4).
    pub const SIZE_MASK: u32 = 7;
    pub const STORE: u32 = 1 << 3;
    pub const IDX_SHIFT: u32 = 4;
    /// Registers minus one (LD1/ST1 of 1-4 registers).
    pub const NREGS_SHIFT: u32 = 6;
    pub const PAIR: u32 = 1 << 8;
    pub const MODE_SHIFT: u32 = 9;
    /// The whole register: loads zero the bytes above.
    pub const MODE_WHOLE: u32 = 0;
    /// One lane; the register's other bytes are kept.
    pub const MODE_LANE: u32 = 1;
    /// The element replicated over the register (LD1R).
    pub const MODE_REPL: u32 = 2;
    pub const LANE_SHIFT: u32 = 11;
    /// 128-bit register width (LD1R).
    pub const Q: u32 = 1 << 15;

    pub const WGSL: &[(&str, u32)] = &[
        ("VM_SIZE_MASK", SIZE_MASK),
        ("VM_STORE", STORE),
        ("VM_IDX_SHIFT", IDX_SHIFT),
        ("VM_NREGS_SHIFT", NREGS_SHIFT),
        ("VM_PAIR", PAIR),
        ("VM_MODE_SHIFT", MODE_SHIFT),
        ("VM_LANE", MODE_LANE),
        ("VM_REPL", MODE_REPL),
        ("VM_LANE_SHIFT", LANE_SHIFT),
        ("VM_Q", Q),
    ];
}

/// Unit-specific operations (w0 bits 4-7).
pub mod op {
    // ALU
    pub const ADD: u32 = 0;
    pub const AND: u32 = 1;
    pub const ORR: u32 = 2;
    pub const EOR: u32 = 3;
    // MUL
    pub const MADD: u32 = 0;
    pub const SMADDL: u32 = 1;
    pub const UMADDL: u32 = 2;
    pub const SMULH: u32 = 3;
    pub const UMULH: u32 = 4;
    // DIV
    pub const UDIV: u32 = 0;
    pub const SDIV: u32 = 1;
    // ONE
    pub const RBIT: u32 = 0;
    pub const REV16: u32 = 1;
    pub const REV32: u32 = 2;
    pub const REV64: u32 = 3;
    pub const CLZ: u32 = 4;
    pub const CLS: u32 = 5;
    // BR
    pub const B: u32 = 0;
    pub const BL: u32 = 1;
    pub const BCOND: u32 = 2;
    pub const BZERO: u32 = 3;
    pub const BNONZERO: u32 = 4;
    pub const BREG: u32 = 5;
    pub const BLREG: u32 = 6;
    pub const BTZ: u32 = 7;
    pub const BTNZ: u32 = 8;
    // SYS
    pub const NOP: u32 = 0;
    pub const SVC: u32 = 1;
    pub const MRS: u32 = 2;
    pub const MSR: u32 = 3;
    pub const BRK: u32 = 4;
    pub const CLREX: u32 = 5;
    pub const DCZVA: u32 = 6;
    // TRAP
    pub const ILLEGAL: u32 = 0;
    pub const HLT: u32 = 1;
}

/// w0 field positions.
pub mod f {
    pub const OP_SHIFT: u32 = 4;
    pub const W: u32 = 1 << 8;
    pub const S: u32 = 1 << 9;
    pub const INVB: u32 = 1 << 10;
    pub const CIN_SHIFT: u32 = 11;
    pub const EXT_SHIFT: u32 = 13;
    pub const SHT_SHIFT: u32 = 16;
    pub const SHAMT_SHIFT: u32 = 18;
    pub const BSRC_SHIFT: u32 = 24;
    pub const COND_SHIFT: u32 = 26;
    pub const SHVAR: u32 = 1 << 30;
    /// Set by the host in w1 (above the register selectors, free in every unit) on the decoded
    /// entries of translated regions: the interpreter yields there to the translation tier's
    /// dispatch. Not in w0, whose every bit a VEC configuration can take.
    pub const TIER: u32 = 1 << 31;
    /// Set by the host in w1 on every instruction of regions the tier weighs before compiling
    /// them: the interpreter counts the steps into them from other code (`S_PROBE`).
    pub const PROBE: u32 = 1 << 30;
}

/// Carry-in selection.
pub mod cin {
    pub const ZERO: u32 = 0;
    pub const ONE: u32 = 1;
    pub const CARRY: u32 = 2;
}

/// Operand-B extension applied before the shift.
pub mod ext {
    pub const NONE: u32 = 0;
    pub const UXTB: u32 = 1;
    pub const UXTH: u32 = 2;
    pub const UXTW: u32 = 3;
    pub const SXTB: u32 = 4;
    pub const SXTH: u32 = 5;
    pub const SXTW: u32 = 6;
    /// Low word copied into the high word, so a 64-bit rotate gives a 32-bit rotate.
    pub const REP32: u32 = 7;
}

/// Operand-B shift kinds (the A64 `shift` field order).
pub mod sht {
    pub const LSL: u32 = 0;
    pub const LSR: u32 = 1;
    pub const ASR: u32 = 2;
    pub const ROR: u32 = 3;
}

/// Operand-B source.
pub mod bsrc {
    pub const RM: u32 = 0;
    pub const IMM: u32 = 1;
    /// The third read port (rc): the source of variable shifts.
    pub const RC: u32 = 2;
}

/// Memory unit word (w4) fields.
pub mod mem {
    pub const SIZE_MASK: u32 = 3;
    /// Load result sign-extended to 64 bits.
    pub const SX64: u32 = 1 << 2;
    /// Load result sign-extended to 32 bits (upper word zero).
    pub const SX32: u32 = 1 << 3;
    pub const STORE: u32 = 1 << 4;
    pub const IDX_SHIFT: u32 = 5;
    pub const IDX_OFFSET: u32 = 0;
    pub const IDX_PRE: u32 = 1;
    pub const IDX_POST: u32 = 2;
    pub const PAIR: u32 = 1 << 7;
    /// Load-exclusive (sets the monitor) or store-exclusive (checks it, writes status to rd).
    pub const EXCL: u32 = 1 << 8;
    /// Prefetch: computes nothing, touches nothing.
    pub const PRFM: u32 = 1 << 9;
}

/// Bitfield unit word (w4) fields.
pub mod bfm {
    pub const LSB_SHIFT: u32 = 0;
    pub const POS_SHIFT: u32 = 6;
    pub const WIDTH_SHIFT: u32 = 12;
    pub const MODE_SHIFT: u32 = 19;
    pub const MODE_ZERO: u32 = 0;
    pub const MODE_SIGN: u32 = 1;
    pub const MODE_INSERT: u32 = 2;
    pub const MODE_EXTR: u32 = 3;
}

/// System registers the shader reads and writes (w4 of MRS/MSR).
pub mod sysreg {
    pub const NZCV: u32 = 0;
    pub const TPIDR_EL0: u32 = 1;
    pub const FPCR: u32 = 2;
    pub const FPSR: u32 = 3;
    pub const CNTVCT_EL0: u32 = 4;
    pub const CNTFRQ_EL0: u32 = 5;
    pub const CTR_EL0: u32 = 6;
    pub const DCZID_EL0: u32 = 7;
    pub const TPIDRRO_EL0: u32 = 8;
}

/// Values of the read-only system registers garm defines.
pub const CTR_EL0_VALUE: u64 = 0x8444_c004;
/// DC ZVA zeroes 64-byte blocks (log2 of 16 words).
pub const DCZID_EL0_VALUE: u64 = 4;
/// FPCR bits a write keeps (AHP, DN, FZ, RMode, Stride, FZ16, Len; the trap enables read as
/// zero, as on cores without FP exception trapping). Checked against qemu by the fuzzer.
pub const FPCR_MASK: u32 = 0x07ff_0000;
/// FPSR bits a write keeps (NZCV, QC, IDC and the cumulative exception flags).
pub const FPSR_MASK: u32 = 0xf800_009f;
/// FPSR.QC, set by a saturating SIMD instruction that saturated.
pub const FPSR_QC: u32 = 1 << 27;
/// CNTVCT_EL0 counts retired instructions; CNTFRQ_EL0 claims this rate so time stays plausible.
pub const CNTFRQ_EL0_VALUE: u64 = 100_000_000;

/// One decoded instruction, the unit of the decoded code buffer: one `vec4<u32>` in the shader.
///
/// w0 control (unit, op, flags, operand-B recipe, condition), w1 register selectors
/// (rd, rn, rm, rc, rc2: six bits each), w2/w3 the immediate. Units other than ALU, CSEL and
/// CCMP use only a 32-bit immediate (sign-extended from w2) and keep their parameters in w3 (aux);
/// a trap keeps the raw word in w2 for the report.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Decoded {
    pub w: [u32; 4],
}

/// Number of `u32` words in one decoded instruction.
pub const DECODED_WORDS: usize = 4;

/// Whether a unit takes a full 64-bit immediate (else w3 is its aux word).
pub fn wide_imm(unit: u32) -> bool {
    matches!(unit, unit::ALU | unit::CSEL | unit::VEC)
}

impl Decoded {
    pub fn unit(&self) -> u32 {
        self.w[0] & 15
    }
    pub fn op(&self) -> u32 {
        (self.w[0] >> f::OP_SHIFT) & 15
    }
    /// The third register selector (a VEC instruction's first permute index).
    pub fn rc(&self) -> u32 {
        (self.w[1] >> 18) & 63
    }
    pub fn imm(&self) -> u64 {
        if wide_imm(self.unit()) {
            self.w[2] as u64 | (self.w[3] as u64) << 32
        } else {
            self.w[2] as i32 as i64 as u64
        }
    }
    pub fn aux(&self) -> u32 {
        if wide_imm(self.unit()) {
            0
        } else {
            self.w[3]
        }
    }
    pub fn is_trap(&self) -> bool {
        self.unit() == unit::TRAP
    }
}

/// Builder used by the decoder's table entries.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub unit: u32,
    pub op: u32,
    pub w32: bool,
    pub setflags: bool,
    pub invb: bool,
    pub cin: u32,
    pub ext: u32,
    pub sht: u32,
    pub shamt: u32,
    pub bsrc: u32,
    pub cond: u32,
    pub shvar: bool,
    pub rd: u32,
    pub rn: u32,
    pub rm: u32,
    pub rc: u32,
    pub rc2: u32,
    pub imm: u64,
    pub aux: u32,
    /// The VEC unit's configuration, w0 bits 10-31 (see [`vec`]).
    pub vcfg: u32,
}

impl Form {
    pub fn new(unit: u32, op: u32) -> Form {
        Form {
            unit,
            op,
            w32: false,
            setflags: false,
            invb: false,
            cin: cin::ZERO,
            ext: ext::NONE,
            sht: sht::LSL,
            shamt: 0,
            bsrc: bsrc::RM,
            cond: 0,
            shvar: false,
            rd: R_SINK,
            rn: R_ZR,
            rm: R_ZR,
            rc: R_ZR,
            rc2: R_ZR,
            imm: 0,
            aux: 0,
            vcfg: 0,
        }
    }

    /// Whether every field fits its slot in the decoded form and every register selector is
    /// below [`REGS`] (the shader indexes its register file with them unchecked).
    pub fn valid(&self) -> bool {
        [self.rd, self.rn, self.rm, self.rc, self.rc2]
            .iter()
            .all(|&r| r < REGS)
            && self.unit < 16
            && self.op < 16
            && self.cin < 4
            && self.ext < 8
            && self.sht < 4
            && self.bsrc < 4
            && self.vcfg & 0x3ff == 0
            && (self.vcfg == 0 || self.unit == unit::VEC)
    }

    /// Packs the form; one that is not [`Form::valid`] (a decoder bug) becomes a trap, so a
    /// selector can never index past the shader's register file.
    pub fn build(&self, raw: u32) -> Decoded {
        if !self.valid() {
            debug_assert!(false, "invalid form for {raw:#010x}: {self:?}");
            return illegal(raw);
        }
        let w0 = self.unit
            | self.op << f::OP_SHIFT
            | if self.w32 { f::W } else { 0 }
            | if self.setflags { f::S } else { 0 }
            | if self.invb { f::INVB } else { 0 }
            | self.cin << f::CIN_SHIFT
            | self.ext << f::EXT_SHIFT
            | self.sht << f::SHT_SHIFT
            | (self.shamt & 63) << f::SHAMT_SHIFT
            | self.bsrc << f::BSRC_SHIFT
            | (self.cond & 15) << f::COND_SHIFT
            | if self.shvar { f::SHVAR } else { 0 }
            | self.vcfg;
        let w1 = self.rd | self.rn << 6 | self.rm << 12 | self.rc << 18 | self.rc2 << 24;
        let (w2, w3) = if self.unit == unit::TRAP {
            (raw, 0)
        } else if wide_imm(self.unit) {
            (self.imm as u32, (self.imm >> 32) as u32)
        } else {
            debug_assert_eq!(
                self.imm as i64, self.imm as u32 as i32 as i64,
                "imm must fit 32 bits"
            );
            (self.imm as u32, self.aux)
        };
        Decoded {
            w: [w0, w1, w2, w3],
        }
    }

    /// Whether this form's immediate survives the compact encoding (see [`Decoded`]).
    pub fn fits(&self) -> bool {
        wide_imm(self.unit) || self.imm as i64 == self.imm as u32 as i32 as i64
    }
}

/// The decoded form of a word no table row accepts.
pub fn illegal(raw: u32) -> Decoded {
    Form::new(unit::TRAP, op::ILLEGAL).build(raw)
}

/// WGSL `const` declarations mirroring this module, prepended to the shader.
pub fn wgsl_constants() -> String {
    let mut s = String::from("// Generated from src/isa/form.rs: do not edit by hand.\n");
    let mut c = |name: &str, v: u32| s.push_str(&format!("const {name}: u32 = {v}u;\n"));
    c("R_ZR", R_ZR);
    c("R_SINK", R_SINK);
    c("R_SP", R_SP);
    c("REGS", REGS);
    for (n, v) in [
        ("TRAP", unit::TRAP),
        ("ALU", unit::ALU),
        ("CSEL", unit::CSEL),
        ("CCMP", unit::CCMP),
        ("BFM", unit::BFM),
        ("MUL", unit::MUL),
        ("DIV", unit::DIV),
        ("ONE", unit::ONE),
        ("MEM", unit::MEM),
        ("BR", unit::BR),
        ("SYS", unit::SYS),
        ("VEC", unit::VEC),
        ("VMEM", unit::VMEM),
        ("FP", unit::FP),
        ("VSTRUCT", unit::VSTRUCT),
        ("ATOMIC", unit::ATOMIC),
    ] {
        c(&format!("U_{n}"), v);
    }
    for (n, v) in [
        ("ADD", op::ADD),
        ("AND", op::AND),
        ("ORR", op::ORR),
        ("EOR", op::EOR),
        ("MADD", op::MADD),
        ("SMADDL", op::SMADDL),
        ("UMADDL", op::UMADDL),
        ("SMULH", op::SMULH),
        ("UMULH", op::UMULH),
        ("UDIV", op::UDIV),
        ("SDIV", op::SDIV),
        ("RBIT", op::RBIT),
        ("REV16", op::REV16),
        ("REV32", op::REV32),
        ("REV64", op::REV64),
        ("CLZ", op::CLZ),
        ("CLS", op::CLS),
        ("B", op::B),
        ("BL", op::BL),
        ("BCOND", op::BCOND),
        ("BZERO", op::BZERO),
        ("BNONZERO", op::BNONZERO),
        ("BREG", op::BREG),
        ("BLREG", op::BLREG),
        ("BTZ", op::BTZ),
        ("BTNZ", op::BTNZ),
        ("NOP", op::NOP),
        ("SVC", op::SVC),
        ("MRS", op::MRS),
        ("MSR", op::MSR),
        ("BRK", op::BRK),
        ("CLREX", op::CLREX),
        ("DCZVA", op::DCZVA),
        ("ILLEGAL", op::ILLEGAL),
        ("HLT", op::HLT),
    ] {
        c(&format!("OP_{n}"), v);
    }
    for (n, v) in [
        ("F_OP_SHIFT", f::OP_SHIFT),
        ("F_W", f::W),
        ("F_S", f::S),
        ("F_INVB", f::INVB),
        ("F_CIN_SHIFT", f::CIN_SHIFT),
        ("F_EXT_SHIFT", f::EXT_SHIFT),
        ("F_SHT_SHIFT", f::SHT_SHIFT),
        ("F_SHAMT_SHIFT", f::SHAMT_SHIFT),
        ("F_BSRC_SHIFT", f::BSRC_SHIFT),
        ("F_COND_SHIFT", f::COND_SHIFT),
        ("F_SHVAR", f::SHVAR),
        ("F_TIER", f::TIER),
        ("F_PROBE", f::PROBE),
        ("CIN_ONE", cin::ONE),
        ("CIN_CARRY", cin::CARRY),
        ("EXT_UXTB", ext::UXTB),
        ("EXT_UXTH", ext::UXTH),
        ("EXT_UXTW", ext::UXTW),
        ("EXT_SXTB", ext::SXTB),
        ("EXT_SXTH", ext::SXTH),
        ("EXT_SXTW", ext::SXTW),
        ("EXT_REP32", ext::REP32),
        ("SHT_LSL", sht::LSL),
        ("SHT_LSR", sht::LSR),
        ("SHT_ASR", sht::ASR),
        ("SHT_ROR", sht::ROR),
        ("BSRC_RM", bsrc::RM),
        ("BSRC_IMM", bsrc::IMM),
        ("BSRC_RC", bsrc::RC),
        ("M_SX64", mem::SX64),
        ("M_SX32", mem::SX32),
        ("M_STORE", mem::STORE),
        ("M_IDX_SHIFT", mem::IDX_SHIFT),
        ("M_IDX_PRE", mem::IDX_PRE),
        ("M_IDX_POST", mem::IDX_POST),
        ("M_PAIR", mem::PAIR),
        ("M_EXCL", mem::EXCL),
        ("M_PRFM", mem::PRFM),
        ("BF_POS_SHIFT", bfm::POS_SHIFT),
        ("BF_WIDTH_SHIFT", bfm::WIDTH_SHIFT),
        ("BF_MODE_SHIFT", bfm::MODE_SHIFT),
        ("BF_SIGN", bfm::MODE_SIGN),
        ("BF_INSERT", bfm::MODE_INSERT),
        ("BF_EXTR", bfm::MODE_EXTR),
        ("SR_NZCV", sysreg::NZCV),
        ("SR_TPIDR_EL0", sysreg::TPIDR_EL0),
        ("SR_FPCR", sysreg::FPCR),
        ("SR_FPSR", sysreg::FPSR),
        ("SR_CNTVCT_EL0", sysreg::CNTVCT_EL0),
        ("SR_CNTFRQ_EL0", sysreg::CNTFRQ_EL0),
        ("SR_CTR_EL0", sysreg::CTR_EL0),
        ("SR_DCZID_EL0", sysreg::DCZID_EL0),
        ("SR_TPIDRRO_EL0", sysreg::TPIDRRO_EL0),
        ("CTR_EL0_VALUE", CTR_EL0_VALUE as u32),
        ("DCZID_EL0_VALUE", DCZID_EL0_VALUE as u32),
        ("CNTFRQ_EL0_VALUE", CNTFRQ_EL0_VALUE as u32),
        ("FPCR_MASK", FPCR_MASK),
        ("FPSR_MASK", FPSR_MASK),
        ("FPSR_QC", FPSR_QC),
    ] {
        c(n, v);
    }
    c("VAR_VMEM", variant::VMEM);
    c("VAR_VEC", variant::VEC);
    c("VAR_FP", variant::FP);
    c("VAR_VSTRUCT", variant::VSTRUCT);
    c("VAR_ATOMIC", variant::ATOMIC);
    for (n, v) in vec::WGSL
        .iter()
        .chain(vmem::WGSL)
        .chain(fp::WGSL)
        .chain(vstruct::WGSL)
        .chain(atomic::WGSL)
    {
        c(n, *v);
    }
    s
}
