/* 32-bit integer edge cases, INT_MIN included (INT_MIN / -1 is UB and traps on x86: left out). */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static volatile int32_t sv[] = {INT_MIN, INT_MIN + 1, -65536, -12345, -7, -1, 0, 1, 7, 12345, 65536, INT_MAX};
static volatile uint32_t uv[] = {0, 1, 2, 7, 0xffff, 0x10000, 0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu, 12345, 3};
#define N (int)(sizeof(sv) / sizeof(sv[0]))

int main(void)
{
    for (int i = 0; i < N; i++) {
        uint32_t h = 2166136261u;
        for (int j = 0; j < N; j++) {
            int32_t a = sv[i], b = sv[j];
            uint32_t c = uv[i], d = uv[j];
            h = (h ^ ((uint32_t)a + (uint32_t)b)) * 16777619u;
            h = (h ^ ((uint32_t)a * (uint32_t)b)) * 16777619u;
            h = (h ^ (c - d)) * 16777619u;
            if (b != 0 && !(a == INT_MIN && b == -1))
                h = (h ^ (uint32_t)(a / b) ^ ((uint32_t)(a % b) << 7)) * 16777619u;
            if (d != 0)
                h = (h ^ (c / d) ^ ((c % d) << 3)) * 16777619u;
            unsigned sh = d & 31;
            h = (h ^ (c << sh) ^ (c >> sh) ^ (uint32_t)(a >> sh)) * 16777619u;
        }
        printf("%11d %10u: h=%08x abs=%u neg=%u\n", sv[i], uv[i], h,
               sv[i] < 0 ? 0u - (uint32_t)sv[i] : (uint32_t)sv[i], 0u - uv[i]);
    }
    printf("INT_MIN %% -1 via long: %ld, INT_MIN/2=%d, INT_MIN>>31=%d, (unsigned)INT_MIN>>31=%u\n",
           (long)sv[0] % -1L, sv[0] / 2, sv[0] >> 31, (uint32_t)sv[0] >> 31);
    printf("INT_MAX+1 wraps (unsigned) to %u, -INT_MIN as long %ld\n", (uint32_t)sv[11] + 1u,
           -(long)sv[0]);
    return 0;
}
