//! Encoding-table rows written as the Arm manual draws them: a bit pattern, bit 31 first, of
//! fixed bits and named fields (`sf:1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5`, as in QEMU's
//! decodetree). Patterns are parsed by `const fn`, so a malformed one fails the build, and
//! [`fields!`] turns each into a struct of the pattern's fields: a decoder that reads a field its
//! row lacks does not compile.

/// The fixed bits of a pattern: a word matches when `word & mask == value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    pub mask: u32,
    pub value: u32,
}

/// A named field: `width` bits starting at bit `lo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub lo: u32,
    pub width: u32,
}

impl Field {
    #[inline]
    pub const fn get(self, word: u32) -> u32 {
        (word >> self.lo) & (u32::MAX >> (32 - self.width))
    }
}

/// One whitespace-separated token of a pattern: bytes `start..end`, and where its `:` is, if any.
struct Token {
    start: usize,
    colon: Option<usize>,
    end: usize,
}

/// The token at or after byte `i`, or `None` past the last.
const fn token(b: &[u8], mut i: usize) -> Option<Token> {
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    if i == b.len() {
        return None;
    }
    let start = i;
    let mut colon = None;
    while i < b.len() && b[i] != b' ' {
        if b[i] == b':' {
            colon = Some(i);
        }
        i += 1;
    }
    Some(Token {
        start,
        colon,
        end: i,
    })
}

/// The width a `name:width` token declares (1..=32), from the digits after its colon.
const fn width(b: &[u8], colon: usize, end: usize) -> u32 {
    let mut n = 0u32;
    let mut i = colon + 1;
    assert!(i < end, "pattern field without a width");
    while i < end {
        assert!(b[i].is_ascii_digit(), "pattern field width is not a number");
        n = n * 10 + (b[i] - b'0') as u32;
        assert!(n <= 32, "pattern field wider than 32 bits");
        i += 1;
    }
    assert!(n >= 1, "pattern field of width 0");
    n
}

/// Bytes `start..end` of `b` (slice indexing is not `const`).
const fn span(b: &[u8], start: usize, end: usize) -> &[u8] {
    b.split_at(end).0.split_at(start).1
}

const fn same(x: &[u8], y: &[u8]) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut i = 0;
    while i < x.len() {
        if x[i] != y[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Walks `pattern` and returns its fixed bits and, when `want` is a field name, that field.
/// Panics (at compile time in a `const`) unless the pattern is 32 bits of `0`, `1` and
/// `name:width` tokens with distinct names, or if `want` names no field.
const fn walk(pattern: &str, want: Option<&str>) -> (Fixed, Option<Field>) {
    let b = pattern.as_bytes();
    let (mut mask, mut value, mut pos) = (0u32, 0u32, 0u32);
    let mut found = None;
    let mut i = 0;
    while let Some(t) = token(b, i) {
        i = t.end;
        match t.colon {
            Some(c) => {
                assert!(c > t.start, "pattern field without a name");
                let w = width(b, c, t.end);
                assert!(pos + w <= 32, "pattern longer than 32 bits");
                pos += w;
                // Names must be distinct, or a decoder could read the wrong one.
                let mut j = t.end;
                while let Some(u) = token(b, j) {
                    j = u.end;
                    if let Some(uc) = u.colon {
                        assert!(
                            !same(span(b, u.start, uc), span(b, t.start, c)),
                            "pattern names a field twice"
                        );
                    }
                }
                if let Some(name) = want {
                    if same(span(b, t.start, c), name.as_bytes()) {
                        found = Some(Field {
                            lo: 32 - pos,
                            width: w,
                        });
                    }
                }
            }
            None => {
                let mut k = t.start;
                while k < t.end {
                    assert!(pos < 32, "pattern longer than 32 bits");
                    let bit = 31 - pos;
                    match b[k] {
                        b'0' => mask |= 1 << bit,
                        b'1' => {
                            mask |= 1 << bit;
                            value |= 1 << bit;
                        }
                        _ => panic!("pattern bits must be 0, 1 or name:width"),
                    }
                    pos += 1;
                    k += 1;
                }
            }
        }
    }
    assert!(pos == 32, "pattern shorter than 32 bits");
    if want.is_some() && found.is_none() {
        panic!("pattern has no such field");
    }
    (Fixed { mask, value }, found)
}

/// The fixed bits of `pattern`.
pub const fn fixed(pattern: &str) -> Fixed {
    walk(pattern, None).0
}

/// Where field `name` lies in `pattern`.
pub const fn field(pattern: &str, name: &str) -> Field {
    match walk(pattern, Some(name)).1 {
        Some(f) => f,
        None => panic!("pattern has no such field"),
    }
}

/// A field's value as its struct member: one-bit fields are flags, wider ones numbers.
pub trait FromBits {
    fn from_bits(v: u32) -> Self;
}

impl FromBits for bool {
    #[inline]
    fn from_bits(v: u32) -> bool {
        v != 0
    }
}

impl FromBits for u32 {
    #[inline]
    fn from_bits(v: u32) -> u32 {
        v
    }
}

/// `fields!(Name [sf:1 op:1 S:1 100010 ...])` defines `struct Name { sf: bool, ..., imm12: u32 }`
/// with `Name::PATTERN` (the pattern as text), `Name::FIXED` and `Name::new(word)`. The pattern is
/// written as tokens rather than a string so that its field names become the struct's members.
macro_rules! fields {
    ($ty:ident [$($pat:tt)*]) => {
        $crate::isa::pattern::fields!(@munch $ty [] [] $($pat)*);
    };
    // Munch the pattern token by token, collecting the struct's members and the pattern's text.
    (@munch $ty:ident [$($f:ident: $t:ty,)*] [$($s:expr,)*] $name:ident : 1 $($rest:tt)*) => {
        $crate::isa::pattern::fields!(@munch $ty [$($f: $t,)* $name: bool,]
            [$($s,)* concat!(stringify!($name), ":1"),] $($rest)*);
    };
    (@munch $ty:ident [$($f:ident: $t:ty,)*] [$($s:expr,)*]
        $name:ident : $w:literal $($rest:tt)*) => {
        $crate::isa::pattern::fields!(@munch $ty [$($f: $t,)* $name: u32,]
            [$($s,)* concat!(stringify!($name), ":", stringify!($w)),] $($rest)*);
    };
    (@munch $ty:ident [$($f:ident: $t:ty,)*] [$($s:expr,)*] $bits:literal $($rest:tt)*) => {
        $crate::isa::pattern::fields!(@munch $ty [$($f: $t,)*]
            [$($s,)* stringify!($bits),] $($rest)*);
    };
    (@munch $ty:ident [$($f:ident: $t:ty,)*] [$($s:expr,)*]) => {
        // The manual's spelling (Rn, S, N); the pattern names every field, read or not.
        #[allow(non_snake_case, dead_code)]
        #[derive(Clone, Copy, Debug)]
        struct $ty {
            $($f: $t,)*
        }
        #[allow(dead_code)]
        impl $ty {
            const PATTERN: &'static str = concat!($($s, " ",)*).trim_ascii_end();
            const FIXED: $crate::isa::pattern::Fixed =
                $crate::isa::pattern::fixed($ty::PATTERN);
            #[inline]
            fn new(word: u32) -> $ty {
                $ty {
                    $($f: {
                        // A const, so the lookup by name happens at compile time.
                        const F: $crate::isa::pattern::Field =
                            $crate::isa::pattern::field($ty::PATTERN, stringify!($f));
                        $crate::isa::pattern::FromBits::from_bits(F.get(word))
                    },)*
                }
            }
        }
    };
}
pub(crate) use fields;

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: &str = "sf:1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5";

    #[test]
    fn fixed_bits_and_fields() {
        assert_eq!(
            fixed(ADD),
            Fixed {
                mask: 0x1f80_0000,
                value: 0x1100_0000
            }
        );
        assert_eq!(field(ADD, "sf"), Field { lo: 31, width: 1 });
        assert_eq!(field(ADD, "imm12"), Field { lo: 10, width: 12 });
        assert_eq!(field(ADD, "Rd"), Field { lo: 0, width: 5 });
        // add x0, x1, #1
        assert_eq!(field(ADD, "Rn").get(0x9100_0420), 1);
        assert_eq!(field(ADD, "imm12").get(0x9100_0420), 1);
        let all = "imm:32";
        assert_eq!(field(all, "imm").get(0xdead_beef), 0xdead_beef);
        assert_eq!(fixed(all).mask, 0);
    }

    #[test]
    fn malformed_patterns_are_rejected() {
        for bad in [
            "sf:1 100",                                      // short
            "sf:1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:6",  // long
            "sf:1 op:1 S:1 100x10 sh:1 imm12:12 Rn:5 Rd:5",  // stray bit
            "sf:1 op:1 sf:1 100010 sh:1 imm12:12 Rn:5 Rd:5", // duplicate name
            ":1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5",    // nameless
            "sf:0 op:2 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5",  // empty field
        ] {
            assert!(std::panic::catch_unwind(|| fixed(bad)).is_err(), "{bad}");
        }
        assert!(std::panic::catch_unwind(|| field(ADD, "Rm")).is_err());
    }

    fields!(AddImm [sf:1 op:1 S:1 100010 sh:1 imm12:12 Rn:5 Rd:5]);

    #[test]
    fn generated_struct_reads_the_manual_fields() {
        assert_eq!(AddImm::PATTERN, ADD);
        assert_eq!(AddImm::FIXED, fixed(ADD));
        let a = AddImm::new(0xf100_043f); // cmp x1, #1 (subs xzr, x1, #1)
        assert!(a.sf && a.op && a.S && !a.sh);
        assert_eq!((a.imm12, a.Rn, a.Rd), (1, 1, 31));
    }
}
