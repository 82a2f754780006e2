/* vmoves.c: the SIMD moves the translation tier takes (DUP of an element and of a general
 * register, MOVI/MVNI and ORR/BIC immediate, UMOV/SMOV, INS of an element and of a general
 * register, FMOV between general and FP registers, 64- and 128-bit forms) in a hot loop with
 * changing inputs; every V register they write is stored and summed. */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static uint64_t moves(uint64_t a, uint64_t b, uint8_t *out)
{
    uint64_t r3, r4, r5, r6, r7 = a ^ b;
    __asm__ volatile(
        "dup v0.16b, %w[a]\n"
        "dup v1.4s, %w[b]\n"
        "dup v2.2d, %[a]\n"
        "dup v3.4h, %w[b]\n"
        "ins v0.s[3], %w[b]\n"
        "ins v1.b[7], v0.b[2]\n"
        "ins v2.h[5], %w[a]\n"
        "ins v3.d[1], v2.d[0]\n"
        "movi v4.2d, #0\n"
        "movi v5.16b, #0x5a\n"
        "mvni v6.4s, #0x12, lsl #8\n"
        "movi v7.8b, #0xa5\n"
        "orr v4.4s, #0x34\n"
        "bic v5.8h, #0x7\n"
        "orr v6.2s, #0x81, lsl #16\n"
        "dup v8.8h, v1.h[3]\n"
        "dup v9.8b, v0.b[15]\n"
        "dup v10.2s, v1.s[1]\n"
        "fmov d11, %[r7]\n"
        "fmov s12, %w[a]\n"
        "fmov v12.d[1], %[b]\n"
        "umov %w[r3], v0.b[5]\n"
        "smov %[r4], v5.h[2]\n"
        "mov %[r5], v2.d[1]\n"
        "fmov %[r6], d11\n"
        "smov %w[r7], v7.b[1]\n"
        "stp q0, q1, [%[o]]\n"
        "stp q2, q3, [%[o], #32]\n"
        "stp q4, q5, [%[o], #64]\n"
        "stp q6, q7, [%[o], #96]\n"
        "stp q8, q9, [%[o], #128]\n"
        "stp q10, q11, [%[o], #160]\n"
        "str q12, [%[o], #192]\n"
        : [r3] "=&r"(r3), [r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "+r"(r7)
        : [a] "r"(a), [b] "r"(b), [o] "r"(out)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
          "memory");
    return r3 + 3 * r4 + 5 * r5 + 7 * r6 + 11 * r7;
}

int main(void)
{
    static uint8_t out[208] __attribute__((aligned(16)));
    uint64_t a = 0x0123456789abcdefull, b = 0xfedcba9876543210ull, sum = 0;
    for (int i = 0; i < 40000; i++) {
        sum = sum * 31 + moves(a, b, out);
        for (int k = 0; k < 208; k += 8)
            sum ^= *(uint64_t *)(out + k) + k;
        a = a * 6364136223846793005ull + 1442695040888963407ull;
        b ^= a >> 7;
    }
    printf("vmoves: %016llx\n", (unsigned long long)sum);
    return 0;
}
