// 64-bit helper API, native prelude: V is u64 (needs SHADER_INT64).
// The execution body (shaders/cpu/) uses only these functions, so it runs unchanged on either prelude.

alias V = u64;

fn vz() -> V { return 0lu; }
fn vw(lo: u32, hi: u32) -> V { return (u64(hi) << 32u) | u64(lo); }
fn vlo(a: V) -> u32 { return u32(a & 0xfffffffflu); }
fn vhi(a: V) -> u32 { return u32(a >> 32u); }
fn vadd(a: V, b: V) -> V { return a + b; }
fn vsub(a: V, b: V) -> V { return a - b; }
fn vand(a: V, b: V) -> V { return a & b; }
fn vor(a: V, b: V) -> V { return a | b; }
fn vxor(a: V, b: V) -> V { return a ^ b; }
fn vnot(a: V) -> V { return ~a; }
fn vneg(a: V) -> V { return 0lu - a; }
fn veq(a: V, b: V) -> bool { return a == b; }
fn vult(a: V, b: V) -> bool { return a < b; }
// Shift amounts are 0..63.
fn vshl(a: V, s: u32) -> V { return a << (s & 63u); }
fn vshr(a: V, s: u32) -> V { return a >> (s & 63u); }
fn vsar(a: V, s: u32) -> V { return V(i64(a) >> (s & 63u)); }
// Low n bits set, n in 0..64.
fn vones(n: u32) -> V { return select((1lu << (n & 63u)) - 1lu, ~0lu, n >= 64u); }
fn vmul(a: V, b: V) -> V { return a * b; }
fn vmulhu(a: V, b: V) -> V {
    let al = a & 0xfffffffflu; let ah = a >> 32u;
    let bl = b & 0xfffffffflu; let bh = b >> 32u;
    let ll = al * bl; let lh = al * bh; let hl = ah * bl; let hh = ah * bh;
    let mid = (ll >> 32u) + (lh & 0xfffffffflu) + (hl & 0xfffffffflu);
    return hh + (lh >> 32u) + (hl >> 32u) + (mid >> 32u);
}
