/* float <-> int conversions at the limits: (int32/int64/uint32/uint64) of doubles and floats near
 * 2^31, 2^32, 2^63, 2^64 and their negatives, and back; lrint/llround in every rounding mode. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
int main(void)
{
    volatile double ds[] = {2147483647.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5,
                            4294967295.0, 4294967295.5, 4294967296.0, 9223372036854774784.0,
                            9223372036854775808.0, -9223372036854775808.0, 18446744073709549568.0,
                            0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e-300, -0.0};
    for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        double d = ds[i];
        if (d >= -2147483648.0 && d < 2147483648.0)
            printf("i32 %d ", (int32_t)d);
        if (d >= 0 && d < 4294967296.0)
            printf("u32 %u ", (uint32_t)d);
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            printf("i64 %lld ", (long long)(int64_t)d);
        if (d >= 0 && d < 18446744073709551616.0)
            printf("u64 %llu ", (unsigned long long)(uint64_t)d);
        float f = (float)d;
        printf("f %a ", (double)f);
        static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
        for (int m = 0; m < 4; m++) {
            fesetround(modes[m]);
            printf("%lld/%.1f ", (long long)llrint(fmin(fmax(d, -1e18), 1e18)), nearbyint(d));
        }
        fesetround(FE_TONEAREST);
        printf("r %ld\n", lround(fmin(fmax(d, -1e18), 1e18)));
    }
    volatile int64_t is[] = {INT64_MAX, INT64_MIN, (1ll << 53) + 1, -(1ll << 53) - 3, 16777217};
    for (unsigned i = 0; i < sizeof is / sizeof is[0]; i++)
        printf("%a %a %a\n", (double)is[i], (double)(float)is[i], (double)(uint64_t)is[i]);
    return 0;
}
