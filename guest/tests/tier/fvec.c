/* fvec.c: vector FP instructions the translation tier takes (src/tier/translate.rs, fp_insn:
 * the FP unit's lane-per-step forms) in a hot loop over changing inputs with special values
 * among them: arithmetic, multiply-accumulate by vector and by element, pairwise and
 * across-lanes forms, compares to lanes of ones, conversions both ways, widening and
 * narrowing, rounding, min/max, FDIV and FSQRT, under two rounding modes. Every V register
 * they write is folded into a checksum with FPSR's cumulative flags. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fpenv.h"

static inline __attribute__((always_inline)) uint64_t lanes(const uint64_t *in, uint64_t *out)
{
    uint64_t r0;
    __asm__ volatile(
        "ldp q0, q1, [%[i]]\n"
        "ldp q2, q3, [%[i], #32]\n"
        "fadd v4.4s, v0.4s, v1.4s\n"
        "fsub v5.2d, v2.2d, v3.2d\n"
        "fmul v6.2s, v0.2s, v3.2s\n"
        "fmla v4.4s, v1.4s, v2.4s\n"
        "fmls v5.2d, v0.2d, v1.2d\n"
        "fmul v7.4s, v1.4s, v2.s[2]\n"
        "fmla v6.2s, v3.2s, v0.s[1]\n"
        "fmul v16.2d, v2.2d, v3.d[1]\n"
        "faddp v17.4s, v4.4s, v7.4s\n"
        "faddp d18, v5.2d\n"
        "fmaxnmp v19.2d, v2.2d, v16.2d\n"
        "fmaxnmv s20, v17.4s\n"
        "fminv s21, v4.4s\n"
        "fabd v22.4s, v0.4s, v7.4s\n"
        "fabs v23.2d, v5.2d\n"
        "fneg v24.4s, v6.4s\n"
        "fcmeq v25.4s, v0.4s, v1.4s\n"
        "fcmge v26.2d, v2.2d, v3.2d\n"
        "fcmgt v27.4s, v4.4s, #0.0\n"
        "fcmlt v28.2d, v5.2d, #0.0\n"
        "fcmle v29.4s, v7.4s, v0.4s\n"
        "scvtf v30.4s, v1.4s\n"
        "ucvtf v31.2d, v3.2d\n"
        "fcvtzs v8.4s, v4.4s\n"
        "fcvtzu v9.2d, v5.2d\n"
        "fcvtl v10.2d, v0.2s\n"
        "fcvtl2 v11.2d, v1.4s\n"
        "fcvtn v12.2s, v2.2d\n"
        "fcvtn2 v12.4s, v5.2d\n"
        "frintn v13.4s, v4.4s\n"
        "frintz v14.2d, v16.2d\n"
        "fmax v15.4s, v0.4s, v17.4s\n"
        "fmin v0.2d, v2.2d, v19.2d\n"
        "fdiv v1.4s, v4.4s, v7.4s\n"
        "fsqrt v2.2d, v23.2d\n"
        "stp q4, q5, [%[o]]\n"
        "stp q6, q7, [%[o], #32]\n"
        "stp q16, q17, [%[o], #64]\n"
        "stp q18, q19, [%[o], #96]\n"
        "stp q20, q21, [%[o], #128]\n"
        "stp q22, q23, [%[o], #160]\n"
        "stp q24, q25, [%[o], #192]\n"
        "stp q26, q27, [%[o], #224]\n"
        "stp q28, q29, [%[o], #256]\n"
        "stp q30, q31, [%[o], #288]\n"
        "stp q8, q9, [%[o], #320]\n"
        "stp q10, q11, [%[o], #352]\n"
        "stp q12, q13, [%[o], #384]\n"
        "stp q14, q15, [%[o], #416]\n"
        "stp q0, q1, [%[o], #448]\n"
        "str q2, [%[o], #480]\n"
        "ldr %[r0], [%[o]]\n"
        : [r0] "=&r"(r0)
        : [i] "r"(in), [o] "r"(out)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
          "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
          "v25", "v26", "v27", "v28", "v29", "v30", "v31", "memory");
    return r0;
}

static const uint64_t special[] = {
    0x7ff8000000000000ull, 0x7fc00000ffbfffffull, 0x7ff0000000000000ull,
    0xff800000fff00000ull, 0x8000000080000000ull, 0x0000000100000001ull,
    0x43e000004f000000ull, 0xc3e00000cf000001ull,
};

/* The hot loop: one region (no system register access inside). */
__attribute__((noinline)) static uint64_t run(uint64_t n, uint64_t *state)
{
    uint64_t in[8], out[62], sum = 0, x = *state;
    for (uint64_t i = 0; i < n; i++) {
        for (int k = 0; k < 8; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            /* Two binary32 or one binary64 of all magnitudes, now and then a special one. */
            uint64_t v = (x >> 3) & 0x3fffffff3fffffffull;
            v += (k & 1) ? 0x3c00000000000000ull : 0x2000000020000000ull;
            in[k] = ((x >> 58) == 5) ? special[(x >> 7) & 7] : v ^ ((x & 1) << 63);
        }
        uint64_t f = lanes(in, out);
        for (int k = 0; k < 62; k++)
            sum = (sum ^ out[k]) * 0x100000001b3ull;
        sum += f;
    }
    *state = x;
    return sum;
}

int main(void)
{
    uint64_t sum = 0, x = 0x243f6a8885a308d3ull;
    for (int mode = 0; mode < 2; mode++) {
        set_rounding(mode == 0 ? 0 : 2);
        sum = sum * 7 + run(3000, &x);
        sum ^= fpsr() & 0x9f;
    }
    set_rounding(0);
    printf("fvec %016llx\n", (unsigned long long)sum);
    return 0;
}
