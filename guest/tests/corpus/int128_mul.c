/* __int128 multiplication (full 64x64->128 products, signed and unsigned) and mulmod. */
#include <stdio.h>
#include <stdint.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static void put128(u128 v)
{
    printf("%016lx%016lx", (uint64_t)(v >> 64), (uint64_t)v);
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    u128 p = (u128)a * b;
    /* reduce by repeated subtraction of shifted m (no 128-bit division helper needed) */
    u128 mm = (u128)m << 63;
    for (int i = 0; i < 64; i++) {
        if (p >= mm)
            p -= mm;
        mm >>= 1;
    }
    return (uint64_t)p;
}

static volatile uint64_t vals[] = {0, 1, 2, 0xffffffffUL, 0x100000000UL, 0xfedcba9876543210UL,
                                   0xffffffffffffffffUL, 0x8000000000000000UL, 12345678901234567UL};

int main(void)
{
    int n = sizeof(vals) / sizeof(vals[0]);
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j += 2) {
            u128 p = (u128)vals[i] * vals[j];
            i128 q = (i128)(int64_t)vals[i] * (int64_t)vals[j];
            printf("%d*%d u=", i, j);
            put128(p);
            printf(" s=");
            put128((u128)q);
            printf(" hi=%016lx\n", (uint64_t)(p >> 64));
        }
    u128 f = 1;
    for (int k = 1; k <= 34; k++)
        f *= k;
    printf("34! mod 2^128 = ");
    put128(f);
    printf("\n");
    uint64_t m = 0xffffffffffffffc5UL; /* largest 64-bit prime */
    uint64_t r = 1, b = 3;
    for (uint64_t e = 1000003; e; e >>= 1) {
        if (e & 1)
            r = mulmod(r, b, m);
        b = mulmod(b, b, m);
    }
    printf("3^1000003 mod p = %lu\n", r);
    return 0;
}
