/* fscalar.c: scalar FP instructions the translation tier takes (src/tier/translate.rs,
 * fp_insn) in a hot loop over changing inputs, special values among them (NaNs, infinities,
 * zeros of both signs, subnormals, values out of the integers' range): arithmetic, fused
 * multiply-adds, compares and conditional compares, selects, conversions to and from integers
 * and between the formats, min/max and rounding to integral, under two of FPCR's rounding
 * modes, FDIV and FSQRT (multi-step in the interpreter). Every result and FPSR's
 * cumulative flags are folded into a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fpenv.h"

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double num(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline __attribute__((always_inline)) uint64_t step(double a, double b, uint64_t k)
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, r7;
    __asm__ volatile(
        "fmov d0, %x[a]\n"
        "fmov d1, %x[b]\n"
        "fcvt s2, d0\n"
        "fcvt s3, d1\n"
        "fadd d4, d0, d1\n"
        "fsub s5, s2, s3\n"
        "fmul d6, d0, d1\n"
        "fnmul s7, s2, s3\n"
        "fmadd d16, d0, d1, d4\n"
        "fmsub s17, s2, s3, s5\n"
        "fnmadd d18, d4, d6, d0\n"
        "fnmsub s19, s5, s7, s2\n"
        "fdiv d20, d4, d1\n"
        "fdiv s11, s5, s2\n"
        "fsqrt d12, d6\n"
        "fsqrt s13, s11\n"
        "fcvt d11, s11\n"
        "fcvt d13, s13\n"
        "fadd d12, d12, d13\n"
        "fadd d20, d20, d11\n"
        "fmax d21, d0, d1\n"
        "fminnm s22, s2, s3\n"
        "fmaxnm d23, d6, d20\n"
        "frintn d24, d16\n"
        "frintx s25, s17\n"
        "frinti d26, d18\n"
        "frintm s27, s19\n"
        "fabs d28, d4\n"
        "fneg s29, s5\n"
        "fcvt d30, s7\n"
        "fcvt h31, s17\n"
        "fcvt d31, h31\n"
        "fadd d4, d4, d30\n"
        "fadd d6, d6, d31\n"
        "fadd d16, d16, d21\n"
        "fadd d18, d18, d23\n"
        "fadd d24, d24, d26\n"
        "fadd d26, d12, d20\n"
        "fadd d28, d28, d22\n"
        "fcmp d0, d1\n"
        "cset %w[r0], gt\n"
        "fcmpe s2, #0.0\n"
        "cset %w[r1], mi\n"
        "fccmp d4, d6, #0x4, ge\n"
        "fcsel d20, d4, d6, le\n"
        "fccmpe s5, s7, #0x9, vs\n"
        "fcsel s21, s5, s7, hi\n"
        "csinc %w[r1], %w[r1], %w[r0], ne\n"
        "fcvtzs %x[r2], d4\n"
        "fcvtzu %w[r3], s5\n"
        "fcvtms %x[r4], d16\n"
        "fcvtas %w[r5], s17\n"
        "fcvtps %x[r6], d18\n"
        "fcvtnu %x[r7], d24\n"
        "scvtf d8, %x[k]\n"
        "ucvtf s9, %w[k]\n"
        "scvtf d10, %x[r2], #12\n"
        "fadd d8, d8, d10\n"
        "fadd s9, s9, s21\n"
        "fmov %x[a], d20\n"
        "fmov %x[b], d8\n"
        "add %x[r0], %x[r0], %x[a]\n"
        "add %x[r1], %x[r1], %x[b]\n"
        "fmov %x[a], d28\n"
        "fmov %w[b], s9\n"
        "eor %x[r0], %x[r0], %x[a], ror #7\n"
        "eor %x[r1], %x[r1], %x[b], ror #13\n"
        "fmov %x[a], d26\n"
        "eor %x[r4], %x[r4], %x[a]\n"
        "fmov %x[a], d6\n"
        "fmov %x[b], d18\n"
        "add %x[r2], %x[r2], %x[a]\n"
        "add %x[r3], %x[r3], %x[b]\n"
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
          [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [a] "+r"(a), [b] "+r"(b)
        : [k] "r"(k)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v16", "v17",
          "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",
          "v30", "v31", "cc");
    return r0 ^ (r1 << 1) ^ (r2 << 2) ^ (r3 << 3) ^ (r4 << 4) ^ (r5 << 5) ^ (r6 << 6) ^ r7;
}

static const uint64_t special[] = {
    0x7ff8000000000000ull, /* quiet NaN */
    0x7ff4000000000000ull, /* signalling NaN */
    0x7ff0000000000000ull, /* +inf */
    0xfff0000000000000ull, /* -inf */
    0x8000000000000000ull, /* -0 */
    0x0000000000000001ull, /* smallest subnormal */
    0x43e0000000000000ull, /* 2^63 */
    0xc3e0000000000001ull, /* below -2^63 */
};

/* The hot loop: one region (no system register access inside). */
__attribute__((noinline)) static uint64_t run(uint64_t n, uint64_t *state)
{
    uint64_t sum = 0, x = *state;
    for (uint64_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        /* Mostly ordinary values of all magnitudes, now and then a special one. */
        double a = (double)(int64_t)(x >> 11) / (double)(1ull << (x & 63));
        double b = (i % 16 == 5) ? num(special[(x >> 7) & 7])
                                 : (double)(int32_t)(x >> 32) * 1e-3 + 0.5;
        if (i % 32 == 9)
            a = num(special[(x >> 13) & 7]);
        sum = sum * 31 + step(a, b, i ^ (x >> 40));
    }
    *state = x;
    return sum;
}

int main(void)
{
    uint64_t sum = 0, x = 0x9e3779b97f4a7c15ull;
    for (int mode = 0; mode < 2; mode++) {
        set_rounding(mode == 0 ? 0 : 3);
        sum = sum * 7 + run(20000, &x);
        sum ^= fpsr() & 0x9f;
    }
    set_rounding(0);
    printf("fscalar %016llx fpsr %02llx\n", (unsigned long long)sum,
           (unsigned long long)(fpsr() & 0x9f));
    return bits(0.0) != 0;
}
