//! The A64 instruction set as garm sees it: the encoding table ([`table`]) written in bit patterns
//! ([`pattern`]), the decoded form the shader executes ([`form`]), and a one-line describer for
//! reports.

pub mod form;
pub mod idregs;
pub mod pattern;
pub mod table;

pub use form::{Decoded, DECODED_WORDS};
pub use table::{decode, lookup, ENCODINGS};

/// Names the encoding group of a word for fault reports: its row, or for a word no row takes,
/// the architecture's group when garm does not implement it yet (so a report says "FP/SIMD"
/// rather than "unallocated" for what a real libc executes).
pub fn describe(word: u32) -> &'static str {
    if word >> 16 == 0 {
        return "UDF";
    }
    if let Some((e, _)) = lookup(word, 0) {
        return e.name;
    }
    let op0 = (word >> 25) & 0xf;
    if op0 & 0b0111 == 0b0111 {
        return "FP/SIMD data processing, not implemented yet (Tier 2)";
    }
    if op0 & 0b0101 == 0b0100 {
        if (word >> 26) & 1 == 1 {
            return "FP/SIMD load/store, not implemented yet (Tier 2)";
        }
        if (word >> 24) & 0x3f == 0b11_1000 && (word >> 21) & 1 == 1 && (word >> 10) & 3 == 0 {
            return "LSE atomic, not implemented yet (Tier 2)";
        }
    }
    if word & 0xffd0_0000 == 0xd510_0000 {
        // MRS/MSR (register) whose system register garm does not define.
        return "MRS/MSR of a system register garm does not define";
    }
    "unallocated"
}

/// A row's fixed bits as 32 characters, bit 31 first: `0`/`1` fixed, `x` a field, so the rows'
/// bit positions line up in the docs.
pub fn fixed_bits(e: &table::Encoding) -> String {
    (0..32)
        .rev()
        .map(|b| match (e.mask >> b & 1, e.value >> b & 1) {
            (0, _) => 'x',
            (_, 1) => '1',
            _ => '0',
        })
        .collect()
}

/// The encoding table as Markdown (`garm isa` prints it; `docs/encodings.md` is this text, and a
/// test keeps the two equal), so the documentation follows the table the decoder and the fuzzer use.
pub fn table_markdown() -> String {
    let mut s = String::from(
        "# A64 encodings garm executes\n\n\
         Generated from `src/isa/table.rs` by `garm isa`: do not edit. A word matching no row, or \
         one its row rejects as unallocated, traps as an illegal instruction. Patterns run from bit \
         31 to bit 0: `0`/`1` are fixed bits, `name:width` a field, named as in the Arm \
         Architecture Reference Manual's encoding diagrams.\n\n\
         | pattern (bit 31..0) | fixed bits | class | instructions |\n|---|---|---|---|\n",
    );
    for e in ENCODINGS {
        s.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            e.pattern,
            fixed_bits(e),
            e.class,
            e.name
        ));
    }
    s
}

/// Decodes one 4 KiB page of guest code starting at `page_addr`.
pub fn decode_page(bytes: &[u8], page_addr: u64) -> Vec<Decoded> {
    (0..1024)
        .map(|i| {
            let w = bytes
                .get(i * 4..i * 4 + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .unwrap_or(0);
            decode(w, page_addr + i as u64 * 4)
        })
        .collect()
}

#[cfg(test)]
mod describe_tests {
    use super::*;

    #[test]
    fn unimplemented_groups_are_named() {
        // sqadd v0.16b, v1.16b, v2.16b; ld2 {v0.s, v1.s}[1] with size 11 (unallocated);
        // ldadd w0, w1, [x2] (a row);
        // opcode 1001 of FP 2-source (unallocated).
        assert!(describe(0x4e22_0c20).starts_with("FP/SIMD data processing"));
        assert!(describe(0x0d60_9c20).starts_with("FP/SIMD load/store"));
        assert!(describe(0xb820_0041).starts_with("LDADD"));
        assert!(describe(0x1e62_9820).starts_with("FP/SIMD data processing"));
        assert_eq!(describe(0x0000_0000), "UDF");
        assert_eq!(describe(0xd503_201f), "HINT (NOP, YIELD, ...)");
        // mrs x0, midr_el1 (emulated); mrs x0, s3_0_c0_c1_0 and sctlr_el1 (SIGILL on Linux).
        assert_eq!(describe(0xd538_0000), "MRS");
        assert!(describe(0xd538_0100).starts_with("MRS/MSR of a system register"));
        assert!(describe(0xd538_1000).starts_with("MRS/MSR of a system register"));
    }
}
