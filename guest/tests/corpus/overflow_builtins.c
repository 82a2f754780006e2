/* Checked arithmetic builtins and saturating helpers at 8..64 bits. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static int32_t sat_add32(int32_t a, int32_t b)
{
    int32_t r;
    if (__builtin_add_overflow(a, b, &r)) return a < 0 ? INT32_MIN : INT32_MAX;
    return r;
}

int main(void)
{
    int64_t v64[] = {0, 1, -1, INT64_MAX, INT64_MIN, 1L << 32, -(1L << 62), 3037000499L};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j += 3) {
            int64_t a = v64[i], b = v64[j], s, d, m;
            int os = __builtin_add_overflow(a, b, &s), od = __builtin_sub_overflow(a, b, &d), om = __builtin_mul_overflow(a, b, &m);
            printf("%ld,%ld: add %d/%ld sub %d/%ld mul %d/%ld\n", a, b, os, s, od, d, om, m);
        }
    uint32_t u[] = {0, 1, 0xffffffffu, 0x80000000u, 65536};
    for (int i = 0; i < 5; i++) {
        uint32_t r1, r2;
        int o1 = __builtin_add_overflow(u[i], u[(i + 2) % 5], &r1), o2 = __builtin_mul_overflow(u[i], u[(i + 4) % 5], &r2);
        uint8_t r8;
        int o8 = __builtin_add_overflow((uint8_t)u[i], (uint8_t)200, &r8);
        int16_t r16;
        int o16 = __builtin_mul_overflow((int16_t)(u[i] >> 4), (int16_t)-3, &r16);
        printf("u32 %u: add %d/%u mul %d/%u u8 %d/%u i16 %d/%d\n", u[i], o1, r1, o2, r2, o8, r8, o16, r16);
    }
    printf("sat: %d %d %d\n", sat_add32(INT32_MAX, 5), sat_add32(INT32_MIN, -5), sat_add32(100, -300));
    return 0;
}
