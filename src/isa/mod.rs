//! The A64 instruction set as garm sees it: the encoding table ([`table`]), the decoded form the
//! shader executes ([`form`]), and a one-line describer for reports.

pub mod form;
pub mod table;

pub use form::{Decoded, DECODED_WORDS};
pub use table::{decode, lookup, ENCODINGS};

/// Names the encoding group of a word for fault reports ("unallocated" when no row takes it).
pub fn describe(word: u32) -> &'static str {
    if word >> 16 == 0 {
        return "UDF";
    }
    match lookup(word, 0) {
        Some((e, _)) => e.name,
        None => "unallocated",
    }
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
