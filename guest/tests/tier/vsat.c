/* vsat.c: the saturating narrowing operations (SQXTN, SQXTN2, UQXTN, UQXTN2, SQXTUN, SQXTUN2,
 * every element size, and the scalar forms) in hot loops: one whose inputs all fit (FPSR.QC must
 * stay clear; a scalar form over a register whose other elements would saturate must ignore
 * them) and one whose inputs often do not (QC set). Results are summed; QC is read between the
 * loops. The tiers and qemu must agree. */
#include <stdint.h>
#include <stdio.h>

static uint64_t fpsr(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpsr" : "=r"(v));
    return v;
}

static void clear_fpsr(void)
{
    __asm__ volatile("msr fpsr, %0" ::"r"(0ull));
}

__attribute__((noinline)) static uint64_t narrow(const uint64_t *in, uint64_t *out)
{
    __asm__ volatile(
        "ldp q0, q1, [%[i]]\n"
        "ldp q2, q3, [%[i], #32]\n"
        "sqxtn v4.8b, v0.8h\n"
        "sqxtn2 v4.16b, v1.8h\n"
        "uqxtn v5.4h, v1.4s\n"
        "uqxtn2 v5.8h, v2.4s\n"
        "sqxtun v6.2s, v2.2d\n"
        "sqxtun2 v6.4s, v3.2d\n"
        "sqxtn v7.2s, v3.2d\n"
        "uqxtn v16.8b, v0.8h\n"
        "sqxtun v17.4h, v1.4s\n"
        "stp q4, q5, [%[o]]\n"
        "stp q6, q7, [%[o], #32]\n"
        "stp q16, q17, [%[o], #64]\n"
        "sqxtn b18, h2\n"
        "uqxtn h19, s3\n"
        "sqxtun s20, d1\n"
        "uqxtn b22, h0\n"
        "stp q18, q19, [%[o], #96]\n"
        "stp q20, q22, [%[o], #128]\n"
        /* Element 0 from in[0], elements 4-7 0x7f7f: only element 0 may saturate. */
        "mov v21.16b, v0.16b\n"
        "movi v23.16b, #0x7f\n"
        "mov v21.d[1], v23.d[0]\n"
        "sqxtn b21, h21\n"
        "mov v24.16b, v1.16b\n"
        "mov v24.d[1], v23.d[0]\n"
        "sqxtun s24, d24\n"
        "stp q21, q24, [%[o], #160]\n"
        :
        : [i] "r"(in), [o] "r"(out)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20",
          "v21", "v22", "v23", "v24", "memory");
    uint64_t h = 0;
    for (int k = 0; k < 24; k++)
        h = h * 31 + out[k];
    return h;
}

int main(void)
{
    static uint64_t in[8] __attribute__((aligned(16)));
    static uint64_t out[24] __attribute__((aligned(16)));
    uint64_t a = 0x0123456789abcdefull, sum = 0;
    clear_fpsr();
    /* Only each doubleword's low byte set, below 64: no element of any width saturates. */
    for (int n = 0; n < 20000; n++) {
        for (int k = 0; k < 8; k++) {
            a = a * 6364136223846793005ull + 1442695040888963407ull;
            in[k] = (a >> 8) & 0x3f;
        }
        sum = sum * 7 + narrow(in, out);
    }
    uint64_t qc1 = (fpsr() >> 27) & 1;
    clear_fpsr();
    for (int n = 0; n < 20000; n++) {
        for (int k = 0; k < 8; k++) {
            a = a * 6364136223846793005ull + 1442695040888963407ull;
            /* Mostly full-range values; some small ones. */
            in[k] = (a & 0x700) ? a : (a >> 40);
        }
        sum = sum * 7 + narrow(in, out);
    }
    uint64_t qc2 = (fpsr() >> 27) & 1;
    printf("vsat: %016llx qc %llu %llu\n", (unsigned long long)sum, (unsigned long long)qc1,
           (unsigned long long)qc2);
    return 0;
}
