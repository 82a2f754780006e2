// 64-bit helper API, portable prelude: V is vec2<u32> (x = low word, y = high word), core WGSL only.
// The execution body (shaders/cpu/) uses only these functions, so it runs unchanged on either prelude.

alias V = vec2<u32>;

fn vz() -> V { return V(0u, 0u); }
fn vw(lo: u32, hi: u32) -> V { return V(lo, hi); }
fn vlo(a: V) -> u32 { return a.x; }
fn vhi(a: V) -> u32 { return a.y; }
fn vadd(a: V, b: V) -> V {
    let lo = a.x + b.x;
    return V(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn vsub(a: V, b: V) -> V {
    return V(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}
fn vand(a: V, b: V) -> V { return a & b; }
fn vor(a: V, b: V) -> V { return a | b; }
fn vxor(a: V, b: V) -> V { return a ^ b; }
fn vnot(a: V) -> V { return ~a; }
fn vneg(a: V) -> V { return vsub(V(0u, 0u), a); }
fn veq(a: V, b: V) -> bool { return all(a == b); }
fn vult(a: V, b: V) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }
// WGSL masks shift counts to the bit width, so whole-word and zero shifts are selected explicitly.
fn vshl(a: V, s0: u32) -> V {
    let s = s0 & 63u;
    let lo = select(a.x << s, 0u, s >= 32u);
    let carry = select(a.x >> ((32u - s) & 31u), 0u, s == 0u);
    let hi = select((a.y << s) | carry, a.x << (s - 32u), s >= 32u);
    return V(lo, hi);
}
fn vshr(a: V, s0: u32) -> V {
    let s = s0 & 63u;
    let carry = select(a.y << ((32u - s) & 31u), 0u, s == 0u);
    let lo = select((a.x >> s) | carry, a.y >> (s - 32u), s >= 32u);
    let hi = select(a.y >> s, 0u, s >= 32u);
    return V(lo, hi);
}
fn vsar(a: V, s0: u32) -> V {
    let s = s0 & 63u;
    let sign = u32(i32(a.y) >> 31u);
    let carry = select(a.y << ((32u - s) & 31u), 0u, s == 0u);
    let lo = select((a.x >> s) | carry, u32(i32(a.y) >> (s - 32u)), s >= 32u);
    let hi = select(u32(i32(a.y) >> s), sign, s >= 32u);
    return V(lo, hi);
}
fn vones(n: u32) -> V {
    let lo = select((1u << (n & 31u)) - 1u, 0xffffffffu, n >= 32u);
    let hi = select(select((1u << ((n - 32u) & 31u)) - 1u, 0xffffffffu, n >= 64u), 0u, n < 32u);
    return V(lo, hi);
}
// 32x32 -> 64 unsigned product from 16-bit halves.
fn mul32(a: u32, b: u32) -> V {
    let al = a & 0xffffu; let ah = a >> 16u;
    let bl = b & 0xffffu; let bh = b >> 16u;
    let ll = al * bl; let lh = al * bh; let hl = ah * bl; let hh = ah * bh;
    let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    let lo = (ll & 0xffffu) | (mid << 16u);
    let hi = hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
    return V(lo, hi);
}
fn vmul(a: V, b: V) -> V {
    let ll = mul32(a.x, b.x);
    return V(ll.x, ll.y + a.x * b.y + a.y * b.x);
}
fn vmulhu(a: V, b: V) -> V {
    let ll = mul32(a.x, b.x); let lh = mul32(a.x, b.y);
    let hl = mul32(a.y, b.x); let hh = mul32(a.y, b.y);
    // Sum the middle column with its carries, then the high column.
    let mid = vadd(vadd(V(ll.y, 0u), V(lh.x, 0u)), V(hl.x, 0u));
    return vadd(vadd(vadd(hh, V(lh.y, 0u)), V(hl.y, 0u)), V(mid.y, 0u));
}
