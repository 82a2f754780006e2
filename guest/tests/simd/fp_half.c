/* fp_half.c: FCVT to and from binary16 (Hd <- Sd/Dd, Sd/Dd <- Hd) over every FPCR rounding mode
 * with FZ, DN and AHP on and off: results and FPSR flags hashed per configuration, so garm must
 * print what qemu-aarch64 prints (tests/simd.rs). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t h;
static void mixin(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static const uint32_t F[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
                             0xffa00005u, 0x00000001u, 0x33800000u, 0x33000000u, 0x33000001u,
                             0x387fc000u, 0x38800000u, 0x477fe000u, 0x477ff000u, 0x477fefffu,
                             0x47800000u, 0xc77ff000u, 0x3f800000u, 0x3f801000u, 0x3f803000u,
                             0x3f802000u, 0x3f802001u, 0x7f7fffffu, 0x00800000u, 0x387fe000u};

static uint32_t to_h_s(uint32_t x)
{
    uint32_t r;
    __asm__ volatile("fmov s1, %w1\n\tfcvt h0, s1\n\tfmov %w0, s0" : "=r"(r) : "r"(x) : "v0", "v1");
    return r;
}
static uint32_t to_h_d(uint64_t x)
{
    uint32_t r;
    __asm__ volatile("fmov d1, %1\n\tfcvt h0, d1\n\tfmov %w0, s0" : "=r"(r) : "r"(x) : "v0", "v1");
    return r;
}
static uint32_t from_h_s(uint32_t x)
{
    uint32_t r;
    __asm__ volatile("fmov s1, %w1\n\tfcvt s0, h1\n\tfmov %w0, s0" : "=r"(r) : "r"(x) : "v0", "v1");
    return r;
}
static uint64_t from_h_d(uint32_t x)
{
    uint64_t r;
    __asm__ volatile("fmov s1, %w1\n\tfcvt d0, h1\n\tfmov %0, d0" : "=r"(r) : "r"(x) : "v0", "v1");
    return r;
}
static uint64_t fpsr_take(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpsr\n\tmsr fpsr, xzr" : "=r"(v));
    return v;
}

int main(void)
{
    for (unsigned cfg = 0; cfg < 32; cfg++) {
        /* RMode (bits 22-23), FZ (24), DN (25), AHP (26) */
        uint64_t fpcr = (uint64_t)(cfg & 3) << 22 | (uint64_t)((cfg >> 2) & 7) << 24;
        __asm__ volatile("msr fpcr, %0\n\tmsr fpsr, xzr" ::"r"(fpcr));
        h = 0xcbf29ce484222325ull;
        for (unsigned i = 0; i < sizeof F / sizeof F[0]; i++) {
            mixin(to_h_s(F[i])); mixin(fpsr_take());
            uint64_t dbits = (uint64_t)(F[i] & 0x80000000u) << 32 | (uint64_t)(F[i] & 0x7fffffffu) << 29;
            if ((F[i] & 0x7f800000u) == 0x7f800000u)
                dbits |= 0x7ff0000000000000ull;
            else if (F[i] & 0x7f800000u)
                dbits += (uint64_t)(1023 - 127) << 52;
            mixin(to_h_d(dbits)); mixin(fpsr_take());
        }
        for (unsigned k = 0; k < 1500; k++) {
            uint64_t r = next();
            uint32_t s = (uint32_t)r;
            if (k & 1) /* exponents near binary16's range */
                s = (s & 0x807fffffu) | (uint32_t)(100 + (r >> 40) % 50) << 23;
            mixin(to_h_s(s)); mixin(fpsr_take());
            uint64_t dv = (k & 2) ? ((r & 0x800fffffffffffffull) | (uint64_t)(1000 + (r >> 52) % 50) << 52) : r;
            mixin(to_h_d(dv)); mixin(fpsr_take());
        }
        for (uint32_t x = cfg; x < 0x10000u; x += 29) {
            mixin(from_h_s(x)); mixin(fpsr_take());
            mixin(from_h_d(x)); mixin(fpsr_take());
        }
        printf("fpcr %08llx: %016llx\n", (unsigned long long)fpcr, (unsigned long long)h);
    }
    return 0;
}
