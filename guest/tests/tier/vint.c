/* vint.c: SIMD integer arithmetic the translation tier takes (src/tier/simd.rs) in a hot loop
 * with changing inputs: three-same arithmetic and compares of every element size, pairwise and
 * across-lanes operations, shifts by immediate, bit selects, permutes, narrowing, widening and
 * accumulating forms; every V register they write is stored and summed. */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static uint64_t arith(const uint8_t *in, uint8_t *out)
{
    uint64_t r0, r1;
    __asm__ volatile(
        "ldp q0, q1, [%[i]]\n"
        "ldp q2, q3, [%[i], #32]\n"
        "add v4.16b, v0.16b, v1.16b\n"
        "sub v5.8h, v2.8h, v3.8h\n"
        "add v6.4s, v0.4s, v3.4s\n"
        "sub v7.2d, v1.2d, v2.2d\n"
        "cmeq v8.16b, v0.16b, v1.16b\n"
        "cmhs v9.8h, v2.8h, v0.8h\n"
        "cmgt v10.4s, v1.4s, v3.4s\n"
        "cmhi v11.2d, v0.2d, v2.2d\n"
        "cmtst v12.8b, v1.8b, v2.8b\n"
        "umaxp v13.16b, v4.16b, v5.16b\n"
        "uminp v14.8h, v6.8h, v7.8h\n"
        "addp v15.4s, v0.4s, v1.4s\n"
        "addp d16, v2.2d\n"
        "umaxv b17, v3.16b\n"
        "uminv h18, v4.8h\n"
        "addv s19, v5.4s\n"
        "smaxp v20.8b, v6.8b, v7.8b\n"
        "shl v21.4s, v0.4s, #7\n"
        "ushr v22.8h, v1.8h, #3\n"
        "sshr v23.16b, v2.16b, #2\n"
        "sshr v24.2d, v3.2d, #33\n"
        "bsl v8.16b, v0.16b, v1.16b\n"
        "bit v9.16b, v2.16b, v3.16b\n"
        "bif v10.16b, v0.16b, v2.16b\n"
        "eor v11.16b, v11.16b, v1.16b\n"
        "orn v12.8b, v12.8b, v3.8b\n"
        "bic v13.16b, v13.16b, v2.16b\n"
        "zip1 v25.16b, v0.16b, v1.16b\n"
        "zip2 v26.8h, v2.8h, v3.8h\n"
        "uzp1 v27.4s, v0.4s, v2.4s\n"
        "trn2 v28.16b, v1.16b, v3.16b\n"
        "ext v29.16b, v0.16b, v3.16b, #5\n"
        "rev64 v30.16b, v29.16b\n"
        "xtn v31.8b, v6.8h\n"
        "xtn2 v31.16b, v7.8h\n"
        "ushll v4.8h, v0.8b, #0\n"
        "sshll2 v5.4s, v1.8h, #3\n"
        "uaddw v6.8h, v6.8h, v2.8b\n"
        "umull v7.4s, v3.4h, v0.4h\n"
        "mla v14.8h, v1.8h, v2.8h\n"
        "usra v15.4s, v3.4s, #9\n"
        "cnt v16.16b, v16.16b\n"
        "abs v17.4s, v2.4s\n"
        "neg v18.8h, v3.8h\n"
        "mul v19.4s, v0.4s, v1.4s\n"
        "uaddlv h20, v20.16b\n"
        "cmeq v21.8h, v21.8h, #0\n"
        "cmgt v22.16b, v22.16b, v0.16b\n"
        "cmge v23.8h, v1.8h, v23.8h\n"
        "cmlt v24.16b, v24.16b, #0\n"
        "cmle v25.8b, v25.8b, #0\n"
        "sminp v26.8h, v26.8h, v2.8h\n"
        "umin v27.16b, v27.16b, v3.16b\n"
        "cmhi v28.8h, v28.8h, v1.8h\n"
        "umov %w[r0], v13.b[3]\n"
        "umov %[r1], v31.d[1]\n"
        "stp q4, q5, [%[o]]\n"
        "stp q6, q7, [%[o], #32]\n"
        "stp q8, q9, [%[o], #64]\n"
        "stp q10, q11, [%[o], #96]\n"
        "stp q12, q13, [%[o], #128]\n"
        "stp q14, q15, [%[o], #160]\n"
        "stp q16, q17, [%[o], #192]\n"
        "stp q18, q19, [%[o], #224]\n"
        "stp q20, q21, [%[o], #256]\n"
        "stp q22, q23, [%[o], #288]\n"
        "stp q24, q25, [%[o], #320]\n"
        "stp q26, q27, [%[o], #352]\n"
        "stp q28, q29, [%[o], #384]\n"
        "stp q30, q31, [%[o], #416]\n"
        : [r0] "=&r"(r0), [r1] "=&r"(r1)
        : [i] "r"(in), [o] "r"(out)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
          "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
          "v25", "v26", "v27", "v28", "v29", "v30", "v31", "memory");
    return r0 * 3 + r1;
}

int main(void)
{
    static uint8_t in[64] __attribute__((aligned(16)));
    static uint8_t out[448] __attribute__((aligned(16)));
    uint64_t a = 0x0123456789abcdefull, sum = 0;
    for (int i = 0; i < 5000; i++) {
        for (int k = 0; k < 64; k += 8) {
            a = a * 6364136223846793005ull + 1442695040888963407ull;
            /* Equal bytes now and then, so the compares see both answers. */
            *(uint64_t *)(in + k) = (i & 3) == 0 && k == 8 ? *(uint64_t *)in : a ^ (a >> 29);
        }
        sum = sum * 31 + arith(in, out);
        for (int k = 0; k < 448; k += 8)
            sum ^= *(uint64_t *)(out + k) + k;
    }
    printf("vint: %016llx\n", (unsigned long long)sum);
    return 0;
}
