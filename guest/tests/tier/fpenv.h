/* fpenv.h: FPSR and FPCR for the tier's FP tests (outside their hot loops: MRS and MSR end a
 * translated region). */
#include <stdint.h>

static uint64_t fpsr(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpsr" : "=r"(v));
    return v;
}

/* FPCR.RMode: 0 nearest, 1 +inf, 2 -inf, 3 zero. */
static void set_rounding(uint64_t mode)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    v = (v & ~(3ull << 22)) | mode << 22;
    __asm__ volatile("msr fpcr, %0" : : "r"(v));
}
