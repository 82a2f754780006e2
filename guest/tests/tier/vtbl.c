/* vtbl.c: TBL and TBX, the permute whose byte moves depend on data, in a hot loop: tables of one
 * to four registers, 8- and 16-byte forms, indices in range, just past the table and far past
 * it (TBL leaves zero, TBX keeps the destination's byte), and a table whose register numbers
 * wrap from v31 to v0. Every result register is stored and summed. */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static void tables(const uint8_t *t, const uint8_t *ix, uint8_t *out)
{
    __asm__ volatile(
        "ldp q30, q31, [%[t]]\n"
        "ldp q0, q1, [%[t], #32]\n"
        "ldp q2, q3, [%[i]]\n"
        "ldp q4, q5, [%[i], #32]\n"
        "tbl v6.16b, {v30.16b}, v2.16b\n"
        "tbl v7.8b, {v30.16b, v31.16b}, v3.8b\n"
        "tbl v8.16b, {v30.16b, v31.16b, v0.16b}, v4.16b\n"
        "tbl v9.16b, {v30.16b, v31.16b, v0.16b, v1.16b}, v5.16b\n"
        "tbl v10.8b, {v31.16b, v0.16b, v1.16b}, v2.8b\n"
        "mov v11.16b, v5.16b\n"
        "mov v12.16b, v4.16b\n"
        "mov v13.16b, v3.16b\n"
        "mov v14.16b, v2.16b\n"
        "tbx v11.16b, {v0.16b}, v2.16b\n"
        "tbx v12.8b, {v0.16b, v1.16b}, v3.8b\n"
        "tbx v13.16b, {v31.16b, v0.16b, v1.16b}, v4.16b\n"
        "tbx v14.16b, {v30.16b, v31.16b, v0.16b, v1.16b}, v5.16b\n"
        "tbl v2.16b, {v1.16b, v2.16b}, v2.16b\n"
        "stp q6, q7, [%[o]]\n"
        "stp q8, q9, [%[o], #32]\n"
        "stp q10, q11, [%[o], #64]\n"
        "stp q12, q13, [%[o], #96]\n"
        "stp q14, q2, [%[o], #128]\n"
        :
        : [t] "r"(t), [i] "r"(ix), [o] "r"(out)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
          "v13", "v14", "v30", "v31", "memory");
}

int main(void)
{
    static uint8_t t[64] __attribute__((aligned(16)));
    static uint8_t ix[64] __attribute__((aligned(16)));
    static uint8_t out[160] __attribute__((aligned(16)));
    uint64_t a = 0x0123456789abcdefull, sum = 0;
    for (int i = 0; i < 64; i++)
        t[i] = (uint8_t)(i * 37 + 11);
    for (int n = 0; n < 30000; n++) {
        for (int k = 0; k < 64; k++) {
            a = a * 6364136223846793005ull + 1442695040888963407ull;
            /* Mostly near the tables' sizes (16-64), sometimes anywhere in 0-255. */
            uint8_t v = (uint8_t)(a >> 56);
            ix[k] = (a & 0x300) ? (uint8_t)(v % 80) : v;
        }
        t[n & 63] ^= (uint8_t)a;
        tables(t, ix, out);
        for (int k = 0; k < 160; k += 8)
            sum = sum * 31 + (*(uint64_t *)(out + k) ^ (uint64_t)k);
    }
    printf("vtbl: %016llx\n", (unsigned long long)sum);
    return 0;
}
