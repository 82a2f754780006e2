/* fp_ops.c: scalar binary32/binary64 operations over a corpus of special and boundary operands,
 * in every rounding mode, with the FPSR exception flags; every result printed as bits, so garm
 * must print exactly what qemu-aarch64 prints (tests/simd.rs). */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint64_t D[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff4000000000001ull, 0x0000000000000001ull, 0x800fffffffffffffull,
    0x0010000000000000ull, 0x7fefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000001ull,
    0x3fe0000000000000ull, 0x4330000000000001ull, 0x43e0000000000000ull, 0xc3e0000000000001ull,
    0x41e0000000000000ull, 0xc1e0000000200000ull, 0x3ff8000000000000ull, 0x3ca0000000000000ull,
    0x400921fb54442d18ull, 0xc00921fb54442d18ull, 0x3fb999999999999aull, 0x0008000000000000ull};
#define ND (sizeof D / sizeof D[0])

static double d(int i) { double x; memcpy(&x, &D[i], 8); return x; }
static float f(int i) { float x = 0; uint32_t b = (uint32_t)(D[i] >> 32) ^ (uint32_t)D[i]; memcpy(&x, &b, 4); return x; }
static uint64_t bd(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static uint32_t bf(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }

static uint64_t h;
static void mixin(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
static void flags(void)
{
    mixin((uint64_t)fetestexcept(FE_ALL_EXCEPT));
    feclearexcept(FE_ALL_EXCEPT);
}

int main(void)
{
    static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    static const char *names[4] = {"nearest", "upward", "downward", "zero"};
    for (int mi = 0; mi < 4; mi++) {
        fesetround(modes[mi]);
        feclearexcept(FE_ALL_EXCEPT);
        uint64_t hs[9] = {0};
        for (unsigned i = 0; i < ND; i++) {
            for (unsigned j = 0; j < ND; j++) {
                volatile double a = d(i), b = d(j);
                volatile float fa = f(i), fb = f(j);
                h = hs[0]; mixin(bd(a + b)); flags(); mixin(bd(a - b)); flags(); hs[0] = h;
                h = hs[1]; mixin(bd(a * b)); flags(); mixin(bf(fa * fb)); flags(); hs[1] = h;
                h = hs[2]; mixin(bf(fa + fb)); flags(); mixin(bf(fa - fb)); flags(); hs[2] = h;
                h = hs[7]; mixin(bd(a / b)); flags(); mixin(bf(fa / fb)); flags();
                mixin(bd(__builtin_fmax(a, b))); flags(); mixin(bd(__builtin_fmin(a, b))); flags();
                mixin(bf(__builtin_fmaxf(fa, fb))); flags(); hs[7] = h;
                h = hs[3]; mixin(a < b); flags(); mixin(a == b); flags(); mixin(__builtin_isless(a, b)); flags(); hs[3] = h;
                h = hs[4];
                for (unsigned k = 0; k < ND; k += 5) {
                    volatile double c = d(k);
                    mixin(bd(__builtin_fma(a, b, c))); flags();
                    mixin(bd(__builtin_fma(-a, b, c))); flags();
                    mixin(bf(__builtin_fmaf(fa, fb, (float)c))); flags();
                }
                hs[4] = h;
            }
            volatile double a = d(i);
            volatile float fa = f(i);
            h = hs[5];
            mixin((uint64_t)(int64_t)a); flags(); mixin((uint64_t)a); flags();
            mixin((uint32_t)(int32_t)a); flags(); mixin((uint32_t)fa); flags();
            mixin((uint64_t)__builtin_lround(a)); flags();
            hs[5] = h;
            h = hs[6];
            mixin(bf((float)a)); flags(); mixin(bd((double)fa)); flags();
            mixin(bd((double)(int64_t)D[i])); flags(); mixin(bf((float)D[i])); flags();
            mixin(bd((double)(int32_t)D[i])); flags(); mixin(bf((float)(uint32_t)D[i])); flags();
            hs[6] = h;
            h = hs[8];
            mixin(bd(__builtin_sqrt(a))); flags(); mixin(bf(__builtin_sqrtf(fa))); flags();
            mixin(bd(__builtin_floor(a))); flags(); mixin(bd(__builtin_ceil(a))); flags();
            mixin(bd(__builtin_trunc(a))); flags(); mixin(bd(__builtin_round(a))); flags();
            mixin(bd(__builtin_rint(a))); flags(); mixin(bd(__builtin_nearbyint(a))); flags();
            mixin(bf(__builtin_floorf(fa))); flags(); mixin(bf(__builtin_rintf(fa))); flags();
            hs[8] = h;
        }
        printf("%-8s", names[mi]);
        for (int k = 0; k < 9; k++)
            printf(" %016llx", (unsigned long long)hs[k]);
        printf("\n");
    }
    return 0;
}
