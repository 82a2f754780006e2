/* simd_ops.c: one AdvSIMD instruction at a time on fixed 128-bit inputs, every result printed in
 * hex; run under garm and qemu-aarch64, the outputs must be equal (tests/simd.rs). Built with a
 * real libc (FP/SIMD allowed). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint8_t A[16], B[16], C[16], OUT[64] __attribute__((aligned(16)));
static uint64_t X;

static void show(const char *name)
{
    printf("%-28s", name);
    for (int i = 15; i >= 0; i--)
        printf("%02x", OUT[i]);
    printf(" x=%016llx\n", (unsigned long long)X);
}

/* v1 = A, v2 = B, v0 = C (the destination's old value), x9 = 0x8899aabbccddeeff; then INSN;
 * then OUT = v0 and X = x0. */
#define T(insn)                                                                                  \
    do {                                                                                         \
        uint64_t x0 = 0;                                                                         \
        __asm__ volatile("ld1 {v1.16b}, [%1]\n\tld1 {v2.16b}, [%2]\n\tld1 {v0.16b}, [%3]\n\t"    \
                         "ldr x9, =0x8899aabbccddeeff\n\tmov x0, #0x5555\n\t" insn "\n\t"        \
                         "st1 {v0.16b}, [%0]\n\tmov %4, x0"                                     \
                         : "+r"(op), "+r"(ap), "+r"(bp), "+r"(cp), "=r"(x0)                     \
                         :                                                                       \
                         : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "x9", "x10", "x11", "x0", \
                           "memory");                        \
        X = x0;                                                                                  \
        show(insn);                                                                              \
    } while (0)

int main(void)
{
    uint8_t *op = OUT, *ap = A, *bp = B, *cp = C;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 16; i++) {
            A[i] = (uint8_t)(i * 37 + 11 + round * 101);
            B[i] = (uint8_t)(i * 91 + 200 - round * 17);
            C[i] = (uint8_t)(0xa5 ^ (i * 13) ^ round);
        }
        if (round == 1) { A[3] = 0; B[5] = A[5]; A[9] = 0x80; B[9] = 0x7f; }
        if (round == 2) { memset(A, 0, 8); A[12] = 0xff; B[0] = 0; }
        printf("round %d\n", round);
        T("add v0.16b, v1.16b, v2.16b");
        T("add v0.8h, v1.8h, v2.8h");
        T("add v0.4s, v1.4s, v2.4s");
        T("add v0.2d, v1.2d, v2.2d");
        T("add v0.8b, v1.8b, v2.8b");
        T("sub v0.16b, v1.16b, v2.16b");
        T("sub v0.2d, v1.2d, v2.2d");
        T("add d0, d1, d2");
        T("sub d0, d1, d2");
        T("and v0.16b, v1.16b, v2.16b");
        T("bic v0.16b, v1.16b, v2.16b");
        T("orr v0.16b, v1.16b, v2.16b");
        T("orn v0.8b, v1.8b, v2.8b");
        T("eor v0.16b, v1.16b, v2.16b");
        T("bsl v0.16b, v1.16b, v2.16b");
        T("bit v0.16b, v1.16b, v2.16b");
        T("bif v0.16b, v1.16b, v2.16b");
        T("not v0.16b, v1.16b");
        T("mov v0.16b, v1.16b");
        T("cmeq v0.16b, v1.16b, v2.16b");
        T("cmeq v0.16b, v1.16b, #0");
        T("cmeq v0.4s, v1.4s, #0");
        T("cmeq d0, d1, #0");
        T("cmhi v0.16b, v1.16b, v2.16b");
        T("cmhs v0.8h, v1.8h, v2.8h");
        T("cmgt v0.16b, v1.16b, v2.16b");
        T("cmge v0.4s, v1.4s, v2.4s");
        T("cmgt v0.2d, v1.2d, v2.2d");
        T("cmhi v0.2d, v1.2d, v2.2d");
        T("cmtst v0.16b, v1.16b, v2.16b");
        T("cmle v0.8h, v1.8h, #0");
        T("cmlt v0.16b, v1.16b, #0");
        T("cmgt v0.16b, v1.16b, #0");
        T("cmge v0.2d, v1.2d, #0");
        T("umax v0.16b, v1.16b, v2.16b");
        T("umin v0.8h, v1.8h, v2.8h");
        T("smax v0.4s, v1.4s, v2.4s");
        T("smin v0.16b, v1.16b, v2.16b");
        T("umaxp v0.16b, v1.16b, v2.16b");
        T("umaxp v0.8b, v1.8b, v2.8b");
        T("uminp v0.16b, v1.16b, v2.16b");
        T("sminp v0.4s, v1.4s, v2.4s");
        T("smaxp v0.4h, v1.4h, v2.4h");
        T("addp v0.16b, v1.16b, v2.16b");
        T("addp v0.2d, v1.2d, v2.2d");
        T("addp v0.4s, v1.4s, v2.4s");
        T("mul v0.16b, v1.16b, v2.16b");
        T("mul v0.4s, v1.4s, v2.4s");
        T("mul v0.8h, v1.8h, v2.8h");
        T("neg v0.16b, v1.16b");
        T("abs v0.8h, v1.8h");
        T("neg v0.2d, v1.2d");
        T("abs d0, d1");
        T("cnt v0.16b, v1.16b");
        T("cnt v0.8b, v1.8b");
        T("rev64 v0.16b, v1.16b");
        T("rev32 v0.8h, v1.8h");
        T("rev16 v0.16b, v1.16b");
        T("rev64 v0.4s, v1.4s");
        T("xtn v0.8b, v1.8h");
        T("xtn2 v0.16b, v1.8h");
        T("xtn v0.2s, v1.2d");
        T("addv b0, v1.16b");
        T("addv h0, v1.8h");
        T("addv s0, v1.4s");
        T("addv b0, v1.8b");
        T("umaxv b0, v1.16b");
        T("uminv b0, v1.16b");
        T("smaxv h0, v1.8h");
        T("sminv s0, v1.4s");
        T("uminv h0, v1.4h");
        T("dup v0.16b, v1.b[5]");
        T("dup v0.8h, v1.h[7]");
        T("dup v0.2d, v1.d[1]");
        T("dup v0.4s, v1.s[2]");
        T("dup v0.16b, w9");
        T("dup v0.8h, w9");
        T("dup v0.4s, w9");
        T("dup v0.2d, x9");
        T("dup v0.8b, w9");
        T("ins v0.b[3], w9");
        T("ins v0.d[1], x9");
        T("ins v0.s[2], v1.s[1]");
        T("ins v0.h[7], v1.h[0]");
        T("umov w0, v1.b[13]");
        T("umov w0, v1.h[3]");
        T("umov w0, v1.s[3]");
        T("umov x0, v1.d[1]");
        T("smov w0, v1.b[9]");
        T("smov x0, v1.h[2]");
        T("smov x0, v1.s[1]");
        T("fmov x0, d1");
        T("fmov w0, s1");
        T("fmov d0, x9");
        T("fmov s0, w9");
        T("fmov x0, v1.d[1]");
        T("fmov v0.d[1], x9");
        T("fmov d0, d1");
        T("fmov s0, s1");
        T("fabs d0, d1");
        T("fneg s0, s1");
        T("fmov d0, #1.0");
        T("fmov s0, #-2.5");
        T("fmov d0, #0.125");
        T("zip1 v0.16b, v1.16b, v2.16b");
        T("zip2 v0.16b, v1.16b, v2.16b");
        T("zip1 v0.4s, v1.4s, v2.4s");
        T("zip2 v0.8b, v1.8b, v2.8b");
        T("uzp1 v0.16b, v1.16b, v2.16b");
        T("uzp2 v0.8h, v1.8h, v2.8h");
        T("uzp1 v0.4h, v1.4h, v2.4h");
        T("trn1 v0.16b, v1.16b, v2.16b");
        T("trn2 v0.4s, v1.4s, v2.4s");
        T("zip1 v0.2d, v1.2d, v2.2d");
        T("ext v0.16b, v1.16b, v2.16b, #3");
        T("ext v0.16b, v1.16b, v2.16b, #15");
        T("ext v0.8b, v1.8b, v2.8b, #5");
        T("tbl v0.16b, {v1.16b}, v2.16b");
        T("tbx v0.16b, {v1.16b}, v2.16b");
        T("tbl v0.8b, {v1.16b, v2.16b}, v2.8b");
        T("movi v3.16b, #15\n\tand v2.16b, v2.16b, v3.16b\n\ttbl v0.16b, {v1.16b}, v2.16b");
        T("movi v0.16b, #0xab");
        T("movi v0.2d, #0xff00ff0000ffff00");
        T("movi d0, #0xff000000000000ff");
        T("movi v0.4s, #0x12, lsl #16");
        T("movi v0.8h, #0x34, lsl #8");
        T("movi v0.4s, #0x56, msl #8");
        T("mvni v0.4s, #0x12, lsl #8");
        T("mvni v0.8h, #0x7");
        T("mvni v0.2s, #0x9a, msl #16");
        T("orr v0.4s, #0x12, lsl #24");
        T("bic v0.8h, #0xff");
        T("bic v0.2s, #0x3");
        T("fmov v0.4s, #1.5");
        T("fmov v0.2d, #-3.0");
        T("fmov v0.2s, #0.5");
        T("shl v0.16b, v1.16b, #3");
        T("shl v0.2d, v1.2d, #63");
        T("shl d0, d1, #7");
        T("ushr v0.8h, v1.8h, #16");
        T("ushr v0.8h, v1.8h, #5");
        T("sshr v0.16b, v1.16b, #8");
        T("sshr v0.4s, v1.4s, #9");
        T("sshr v0.2d, v1.2d, #64");
        T("ushr d0, d1, #64");
        T("sshr d0, d1, #1");
        T("shrn v0.8b, v1.8h, #4");
        T("shrn2 v0.16b, v1.8h, #4");
        T("shrn v0.4h, v1.4s, #16");
        T("shrn v0.2s, v1.2d, #1");
        T("addhn v0.8b, v1.8h, v2.8h");
        T("addhn2 v0.16b, v1.8h, v2.8h");
        T("addhn v0.4h, v1.4s, v2.4s");
        T("addhn2 v0.4s, v1.2d, v2.2d");
        T("subhn v0.8b, v1.8h, v2.8h");
        T("subhn2 v0.8h, v1.4s, v2.4s");
        T("subhn v0.2s, v1.2d, v2.2d");
        T("addhn v1.8b, v1.8h, v1.8h");
        T("ushll v0.8h, v1.8b, #0");
        T("ushll2 v0.8h, v1.16b, #3");
        T("sshll v0.4s, v1.4h, #0");
        T("sshll2 v0.2d, v1.4s, #31");
        T("sxtl v0.8h, v1.8b");
        T("uxtl2 v0.4s, v1.8h");
        T("uaddlp v0.8h, v1.16b");
        T("saddlp v0.4s, v1.8h");
        T("uaddlp v0.1d, v1.2s");
        T("saddlp v0.2d, v1.4s");
        T("uaddlv h0, v1.8b");
        T("uaddlv h0, v1.16b");
        T("saddlv s0, v1.8h");
        T("uaddlv d0, v1.4s");
        T("saddlv h0, v1.16b");
        T("usra v0.4s, v1.4s, #8");
        T("ssra v0.16b, v1.16b, #3");
        T("usra v0.2d, v1.2d, #64");
        T("mla v0.4s, v1.4s, v2.4s");
        T("mls v0.8h, v1.8h, v2.8h");
        T("mla v0.16b, v1.16b, v2.16b");
        T("uaddl v0.8h, v1.8b, v2.8b");
        T("saddl2 v0.4s, v1.8h, v2.8h");
        T("usubl v0.2d, v1.2s, v2.2s");
        T("ssubl2 v0.8h, v1.16b, v2.16b");
        T("uaddw v0.8h, v1.8h, v2.8b");
        T("saddw2 v0.2d, v1.2d, v2.4s");
        T("usubw2 v0.4s, v1.4s, v2.8h");
        T("umull v0.8h, v1.8b, v2.8b");
        T("smull2 v0.4s, v1.8h, v2.8h");
        T("umull v0.2d, v1.2s, v2.2s");
        T("smull v0.2d, v1.2s, v2.2s");
        T("addp d0, v1.2d");
        T("mla v1.4s, v1.4s, v1.4s\n\tmov v0.16b, v1.16b");
        T("umull v1.2d, v1.2s, v1.2s\n\tmov v0.16b, v1.16b");
        /* structure loads and stores through a buffer (x10 = OUT area, 48 bytes) */
        T("st2 {v1.16b, v2.16b}, [%0]\n\tld1 {v0.16b}, [%0]");
        T("st3 {v0.8h, v1.8h, v2.8h}, [%0]\n\tld1 {v0.16b}, [%0]");
        T("st4 {v0.4s, v1.4s, v2.4s, v3.4s}, [%0]\n\tld1 {v0.16b}, [%0]");
        T("st2 {v1.8b, v2.8b}, [%0]\n\tld1 {v0.16b}, [%0]");
        T("st1 {v1.16b, v2.16b}, [%0]\n\tld2 {v0.16b, v1.16b}, [%0]");
        T("st1 {v1.16b, v2.16b}, [%0]\n\tld2 {v3.8h, v4.8h}, [%0]\n\tmov v0.16b, v4.16b");
        T("st1 {v0.16b, v1.16b, v2.16b}, [%0]\n\tld3 {v0.16b, v1.16b, v2.16b}, [%0]\n\tmov v0.16b, v2.16b");
        T("st1 {v0.16b, v1.16b, v2.16b}, [%0]\n\tld3 {v1.4s, v2.4s, v3.4s}, [%0]\n\tmov v0.16b, v1.16b");
        T("st1 {v0.16b, v1.16b, v2.16b}, [%0]\n\tld4 {v4.8b, v5.8b, v6.8b, v7.8b}, [%0]\n\tmov v0.16b, v6.16b");
        T("mov x11, %0\n\tst1 {v1.16b, v2.16b}, [x11]\n\tld2 {v0.4s, v1.4s}, [x11], #32\n\tsub x0, x11, %0");
        /* glibc's strcpy/strlen inner steps, registers aliased as there */
        T("cmeq v1.16b, v1.16b, #0\n\tumaxp v0.16b, v1.16b, v1.16b\n\tfmov x0, d0");
        T("cmeq v1.16b, v1.16b, #0\n\tshrn v0.8b, v1.8h, #4\n\tfmov x0, d0");
        T("umaxp v1.16b, v1.16b, v1.16b\n\tmov v0.16b, v1.16b");
        T("addp v1.2d, v1.2d, v1.2d\n\tmov v0.16b, v1.16b");
        T("shrn v1.8b, v1.8h, #4\n\tmov v0.16b, v1.16b");
        T("uminv b1, v1.16b\n\tmov v0.16b, v1.16b");
        /* rounding and saturating narrows (x0 = FPSR: QC), shifts by register */
        T("rshrn v0.8b, v1.8h, #3");
        T("rshrn2 v0.16b, v1.8h, #8");
        T("rshrn v0.4h, v1.4s, #16");
        T("rshrn2 v0.4s, v1.2d, #32");
        T("rshrn v0.2s, v1.2d, #1");
        T("msr fpsr, xzr\n\tsqxtn v0.8b, v1.8h\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn2 v0.16b, v1.8h\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn v0.4h, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn v0.2s, v1.2d\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn v0.8b, v1.8h\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn2 v0.8h, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn v0.2s, v1.2d\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun v0.8b, v1.8h\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun2 v0.8h, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun v0.2s, v1.2d\n\tmrs x0, fpsr");
        T("movi v1.8h, #5\n\tmsr fpsr, xzr\n\tsqxtn v0.8b, v1.8h\n\tmrs x0, fpsr");
        T("movi v1.4s, #0x7f\n\tmsr fpsr, xzr\n\tuqxtn v0.4h, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn b0, h1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn h0, s1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtn s0, d1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn b0, h1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn h0, s1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tuqxtn s0, d1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun b0, h1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun h0, s1\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tsqxtun s0, d1\n\tmrs x0, fpsr");
        /* scalar: only element 0 saturates or sets QC (the others would) */
        T("movi v1.16b, #0x7f\n\tmov w10, #5\n\tins v1.h[0], w10\n\tmsr fpsr, xzr\n\tsqxtn b0, h1\n\tmrs x0, fpsr");
        T("movi v1.8h, #5\n\tmov w10, #0x7fff\n\tins v1.h[0], w10\n\tmsr fpsr, xzr\n\tsqxtn b0, h1\n\tmrs x0, fpsr");
        T("movi v1.16b, #0xff\n\tins v1.s[0], wzr\n\tmsr fpsr, xzr\n\tuqxtn h0, s1\n\tmrs x0, fpsr");
        T("movi v1.16b, #0x80\n\tins v1.d[0], xzr\n\tmsr fpsr, xzr\n\tsqxtun s0, d1\n\tmrs x0, fpsr");
        T("ushl v0.16b, v1.16b, v2.16b");
        T("sshl v0.16b, v1.16b, v2.16b");
        T("ushl v0.8h, v1.8h, v2.8h");
        T("sshl v0.4s, v1.4s, v2.4s");
        T("ushl v0.2d, v1.2d, v2.2d");
        T("sshl v0.2d, v1.2d, v2.2d");
        T("sshl v0.4h, v1.4h, v2.4h");
        T("ushl d0, d1, d2");
        T("sshl d0, d1, d2");
        T("movi v2.16b, #0xf9\n\tsshl v0.8h, v1.8h, v2.8h");
        T("movi v2.16b, #0xc0\n\tsshl v0.2d, v1.2d, v2.2d");
        T("movi v2.16b, #0x3f\n\tushl v0.2d, v1.2d, v2.2d");
        T("movi v2.16b, #0xe0\n\tushl v0.4s, v1.4s, v2.4s");
        /* FP reductions across 4S (x0 = FPSR), with NaNs and signed zeros */
        T("msr fpsr, xzr\n\tfmaxnmv s0, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tfminnmv s0, v2.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tfmaxv s0, v1.4s\n\tmrs x0, fpsr");
        T("msr fpsr, xzr\n\tfminv s0, v2.4s\n\tmrs x0, fpsr");
        T("ldr w10, =0x7f800001\n\tins v1.s[2], w10\n\tmsr fpsr, xzr\n\tfmaxnmv s0, v1.4s\n\tmrs x0, fpsr");
        T("ldr w10, =0x7fc00000\n\tins v1.s[1], w10\n\tmsr fpsr, xzr\n\tfminnmv s0, v1.4s\n\tmrs x0, fpsr");
        T("ldr w10, =0x7fc00000\n\tins v1.s[3], w10\n\tmsr fpsr, xzr\n\tfmaxv s0, v1.4s\n\tmrs x0, fpsr");
        T("movi v1.4s, #0x80, lsl #24\n\tins v1.s[2], wzr\n\tfmaxv s0, v1.4s\n\tfminnmv s3, v1.4s\n\tins v0.s[1], v3.s[0]");
        /* single-structure lanes and replicates, with post-index (x0 = the writeback) */
        T("ld2 {v0.s, v1.s}[1], [%1]");
        T("ld2 {v3.b, v4.b}[13], [%1]\n\tmov v0.16b, v4.16b");
        T("ld3 {v0.h, v1.h, v2.h}[5], [%1]");
        T("ld3 {v4.d, v5.d, v6.d}[1], [%1]\n\tmov v0.16b, v6.16b");
        T("ld4 {v0.b, v1.b, v2.b, v3.b}[15], [%2]");
        T("ld4 {v4.s, v5.s, v6.s, v7.s}[2], [%2]\n\tmov v0.16b, v7.16b");
        T("st2 {v1.h, v2.h}[6], [%0]\n\tld1 {v0.16b}, [%0]");
        T("st3 {v0.s, v1.s, v2.s}[3], [%0]\n\tld1 {v0.16b}, [%0]");
        T("st4 {v1.d, v2.d, v3.d, v4.d}[1], [%0]\n\tld1 {v0.16b, v1.16b}, [%0]\n\teor v0.16b, v0.16b, v1.16b");
        T("ld2r {v3.4s, v4.4s}, [%1]\n\tmov v0.16b, v4.16b");
        T("ld3r {v0.8b, v1.8b, v2.8b}, [%2]");
        T("ld4r {v4.2d, v5.2d, v6.2d, v7.2d}, [%1]\n\tmov v0.16b, v5.16b");
        T("ld4r {v0.8h, v1.8h, v2.8h, v3.8h}, [%2]\n\teor v0.16b, v0.16b, v3.16b");
        T("mov x10, %1\n\tld3 {v0.s, v1.s, v2.s}[2], [x10], #12\n\tsub x0, x10, %1");
        T("mov x10, %1\n\tmov x11, #5\n\tld2 {v0.b, v1.b}[9], [x10], x11\n\tsub x0, x10, %1");
        T("mov x10, %1\n\tld4r {v0.4h, v1.4h, v2.4h, v3.4h}, [x10], #8\n\tsub x0, x10, %1");
        T("mov x10, %1\n\tld2r {v0.16b, v1.16b}, [x10], #2\n\tsub x0, x10, %1");
        T("mov x10, %0\n\tst4 {v0.h, v1.h, v2.h, v3.h}[7], [x10], #8\n\tsub x0, x10, %0\n\tld1 {v0.16b}, [%0]");
        T("mov x10, %0\n\tst2 {v1.d, v2.d}[0], [x10], #16\n\tsub x0, x10, %0\n\tld1 {v0.16b}, [%0]");
    }
    return 0;
}
