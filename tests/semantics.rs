//! The corner cases ISA.md lists under "Semantics that engines get wrong", plus the divergences
//! the fuzzer and these checks found, as one guest program (`guest/tests/semantics.c`) whose
//! output must equal qemu-aarch64's, with a few known answers checked on top.

mod common;
use common::*;

#[test]
fn corner_cases_match_qemu() {
    let r = same_as_qemu(&build("tests/semantics"), &[], &[], b"");
    let out = r.out();
    for line in [
        "add w: 0000000000000003",           // W results zero the upper half
        "add w lsr: 0000000008000001",       // W operands shift the 32-bit value
        "add xzr shifted: 5",                // register 31 is XZR here...
        "add sp extended: sp+5",             // ...and SP here
        "ldp rt==rt2: 1111",                 // qemu keeps the first load
        "ldrsb w: 00000000ffffff80",         // sign extension into W stops at bit 31
        "ldrsb x: ffffffffffffff80",         // and into X goes to bit 63
        "tbz #40 set: 1",                    // TBZ above bit 31
        "ldr across page: b4b3b2b1b0afaead", // unaligned across a page
        "fpcr: 7ff0000",                     // FPCR keeps only its defined bits
        "fpsr: f800009f",                    // FPSR likewise
        "stxp after ldxp: status 0, read 5555 6666, now 6666 5555", // exclusive pairs
        "stlxp without monitor: status 1",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
}
