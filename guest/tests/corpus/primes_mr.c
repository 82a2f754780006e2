/* Deterministic Miller-Rabin for 64-bit numbers (with __int128 mulmod), gcd, modular inverse. */
#include <stdio.h>
#include <stdint.h>

/* (a * b) mod m through a 128-bit product, reduced by shifted subtraction (no __umodti3 in a
 * freestanding build). */
static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    unsigned __int128 p = (unsigned __int128)a * b, mm = (unsigned __int128)m << 63;
    if ((uint64_t)(p >> 64) == 0) return (uint64_t)p % m;
    for (int i = 0; i < 64; i++) { if (p >= mm) p -= mm; mm >>= 1; }
    return (uint64_t)p;
}

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m)
{
    uint64_t r = 1;
    b %= m;
    while (e) { if (e & 1) r = mulmod(r, b, m); b = mulmod(b, b, m); e >>= 1; }
    return r;
}

static int is_prime(uint64_t n)
{
    if (n < 2) return 0;
    static const uint64_t small[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    static const uint64_t bases[] = {2, 325, 9375, 28178, 450775, 9780504, 1795265022};
    for (int i = 0; i < 12; i++) { if (n % small[i] == 0) return n == small[i]; }
    uint64_t d = n - 1;
    int s = 0;
    while (!(d & 1)) { d >>= 1; s++; }
    for (int i = 0; i < 7; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 0 || x == 1 || x == n - 1) continue;
        int comp = 1;
        for (int r = 1; r < s && comp; r++) { x = mulmod(x, x, n); if (x == n - 1) comp = 0; }
        if (comp) return 0;
    }
    return 1;
}

static uint64_t gcd(uint64_t a, uint64_t b) { while (b) { uint64_t t = a % b; a = b; b = t; } return a; }

static int64_t inverse(int64_t a, int64_t m)
{
    int64_t g = m, x = 0, x1 = 1, a1 = a;
    while (a1) { int64_t q = g / a1, t = g - q * a1; g = a1; a1 = t; t = x - q * x1; x = x1; x1 = t; }
    return g == 1 ? (x % m + m) % m : -1;
}

int main(void)
{
    uint64_t tests[] = {1, 2, 97, 561, 7919, 1000000007UL, 4294967291UL, 4294967297UL, 999999999989UL,
                        18446744073709551557UL, 18446744073709551615UL, 3215031751UL, 341550071728321UL};
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++)
        printf("%20lu %s\n", tests[i], is_prime(tests[i]) ? "prime" : "composite");
    int c = 0;
    uint64_t last = 0;
    for (uint64_t n = 1000000000000UL; c < 3; n++) if (is_prime(n)) { c++; last = n; printf("prime after 1e12: %lu\n", n); }
    printf("gcd %lu %lu %lu\n", gcd(1071, 462), gcd(last, last - 1), gcd(1UL << 40, 1UL << 20));
    printf("inverse %ld %ld %ld\n", inverse(3, 11), inverse(10, 17), inverse(6, 9));
    return 0;
}
